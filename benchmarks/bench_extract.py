"""Benchmark of `kgreason extract`: extracted KGs against the given ones, and the official score of `kgreason run`
on each, same questions, same gold.

    .venv/bin/python benchmarks/bench_extract.py                         # examples/sample and ccks_ext_dev
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --llm embedded-small
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --out runs/extract_sample  # keep outputs
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --docs doc_01 doc_02      # some documents
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --docs doc_01 --cached-only  # unfinished run

For each dataset folder (document.json, KG_*.json, qa.json, qa_answer.json) it runs `kgreason extract` into
OUT/<folder name> (an output there from an earlier run with the same settings is reused: replies are cached, so a
rerun is free) and prints:
- triple precision / recall / F1 under two matching rules (docs/extract.md):
  exact   — subject, relation and object equal after `normalize_text` (case, width, spaces, punctuation);
  lenient — relation ignored; subject and object each equal or one containing the other (at least 2 characters)
            after normalisation, in either order.
  Precision: share of extracted triples matching some given triple; recall: share of given triples matched by
  some extracted one (same document).
- sentences per second and LLM tokens per document (from the extraction's run record);
- grounding: share of triples whose cited sentence contains subject and object as written (and as mentions);
- the official score of `kgreason run --llm none` on the given KGs and on the extracted KGs, and their ratio, also
  with the learned relation matcher on the extracted KGs (`kgreason run`'s default for them: `--relations auto`)
  (the issue's target on examples/sample: >= 0.70).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import write_json_atomic
from kgreason.data.loader import load_answer_file, load_dataset
from kgreason.data.records import Dataset, KGTriple
from kgreason.errors import KgreasonError
from kgreason.eval.official import WEIGHTS, ScoreReport, score_records
from kgreason.extract.inputs import read_inputs
from kgreason.extract.output import write_document
from kgreason.extract.pipeline import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_WINDOW,
    ExtractSettings,
    ExtractStats,
    extract_document,
)
from kgreason.extract.prompt import MAX_TRIPLES_PER_SENTENCE
from kgreason.llm.cache import CachedLLM, ResponseCache
from kgreason.llm.config import LLMConfig
from kgreason.llm.models import asset_for_spec
from kgreason.llm.types import ChatMessage, LLMFailure, LLMResult
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.runner import run_dataset
from kgreason.retrieve.base import RelationScorer
from kgreason.text.normalize import normalize_text

MIN_CONTAIN = 2
DEFAULT_DATA = [Path("examples/sample"), Path("../shared/data/ccks_ext_dev")]


@dataclass(frozen=True, slots=True)
class PR:
    matched_pred: int
    n_pred: int
    matched_gold: int
    n_gold: int

    @property
    def precision(self) -> float:
        return self.matched_pred / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.matched_gold / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def line(self, label: str) -> str:
        return (
            f"{label:8s} P {self.precision:.3f} ({self.matched_pred}/{self.n_pred})  "
            f"R {self.recall:.3f} ({self.matched_gold}/{self.n_gold})  F1 {self.f1:.3f}"
        )


def _names_match(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= MIN_CONTAIN and short in long_


def exact_match(p: KGTriple, g: KGTriple) -> bool:
    return tuple(normalize_text(x) for x in p.spo) == tuple(normalize_text(x) for x in g.spo)


def lenient_match(p: KGTriple, g: KGTriple) -> bool:
    ps, po = normalize_text(p.sub), normalize_text(p.obj)
    gs, go = normalize_text(g.sub), normalize_text(g.obj)
    return (_names_match(ps, gs) and _names_match(po, go)) or (_names_match(ps, go) and _names_match(po, gs))


def precision_recall(pred: dict[str, tuple[KGTriple, ...]], gold: dict[str, tuple[KGTriple, ...]], rule: Any) -> PR:
    mp = np_ = mg = ng = 0
    for doc, gkg in gold.items():
        pkg = pred.get(doc, ())
        np_ += len(pkg)
        ng += len(gkg)
        mp += sum(any(rule(p, g) for g in gkg) for p in pkg)
        mg += sum(any(rule(p, g) for p in pkg) for g in gkg)
    return PR(mp, np_, mg, ng)


def grounding(out: Path) -> tuple[int, int, int]:
    """(triples whose cited sentence spells subject and object as written, ... their recorded mentions, triples)."""
    literal = mentions = total = 0
    for path in sorted(out.glob("provenance_*.jsonl")):
        kg = {t["triple_id"]: t for t in json.loads((out / path.name.replace("provenance_", "KG_").replace(
            ".jsonl", ".json")).read_text(encoding="utf-8"))}  # fmt: skip
        for line in path.read_text(encoding="utf-8").splitlines():
            p = json.loads(line)
            t = kg[p["triple_id"]]
            s = p["sentence_text"]
            total += 1
            literal += t["sub"] in s and t["obj"] in s
            mentions += p["sub_mention"] in s and p["obj_mention"] in s
    return literal, mentions, total


def official(dataset: Dataset, relations: RelationScorer | None = None) -> ScoreReport:
    assert dataset.gold is not None
    reasoner = Reasoner(dataset, ReasonerConfig(), llm=None, relations=relations)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        run_dataset(dataset, reasoner, out, resume=False)
        records, _ = load_answer_file(out)
    return score_records({r.query_id: r for r in records}, dataset.gold)


COMPONENTS = ("answer", "evidence", "reasoning", "constraint")


def weighted_components(report: ScoreReport) -> dict[str, dict[str, float]]:
    """Per level ("all" too): the mean over its questions of each component times its weight at the question's level
    (α·Answer, β·Evidence, …), so the four sum to the level's mean score."""
    sums: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for q in report.per_question:
        w = WEIGHTS[q.level]
        parts = (w.answer * q.answer.score, w.evidence * q.evidence.score, w.reasoning * q.reasoning.score,
                 w.constraint * q.constraint.f1)  # fmt: skip
        for level in (q.level, "all"):
            row = sums.setdefault(level, dict.fromkeys(COMPONENTS, 0.0))
            counts[level] = counts.get(level, 0) + 1
            for name, value in zip(COMPONENTS, parts, strict=True):
                row[name] += value
    return {lv: {c: v / counts[lv] for c, v in row.items()} for lv, row in sums.items()}


def print_loss(given: ScoreReport, extracted: ScoreReport, label: str) -> None:
    """Where the extracted KGs lose score against the given ones: per level, each weighted component's drop."""
    g, e = weighted_components(given), weighted_components(extracted)
    print(f"  where {label} loses (weighted component means, given → extracted):")
    for level in sorted(g, key=lambda lv: (lv == "all", lv)):
        n = sum(1 for q in given.per_question if level in (q.level, "all"))
        parts = "  ".join(f"{c} {g[level][c]:.3f}→{e[level][c]:.3f}" for c in COMPONENTS)
        total = (sum(g[level].values()), sum(e[level].values()))
        print(f"    {level:3s} n={n:2d} score {total[0]:.3f}→{total[1]:.3f}  {parts}")


def _same_settings(record: dict[str, Any], llm: str, settings: ExtractSettings) -> bool:
    return (
        record.get("llm") == llm
        and record.get("window") == settings.window
        and record.get("reask", True) == settings.reask_silent
        and record.get("open_values", False) == settings.open_values
        and record.get("max_lines", MAX_TRIPLES_PER_SENTENCE) == settings.max_lines
        and record.get("max_tokens", DEFAULT_MAX_TOKENS) == settings.max_tokens
    )


def extract(data: Path, out: Path, llm: str, settings: ExtractSettings) -> dict[str, Any]:
    record_path = out / "extract.run.json"
    if record_path.exists():
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if _same_settings(record, llm, settings):
            print(f"reusing {out} (extracted earlier with --llm {llm} and the same settings)")
            return dict(record)
    cmd = [sys.executable, "-m", "kgreason.cli", "extract", str(data), "-o", str(out), "--llm", llm]
    cmd += ["--window", str(settings.window), "--max-lines", str(settings.max_lines)]
    cmd += ["--max-tokens", str(settings.max_tokens), "--reask" if settings.reask_silent else "--no-reask"]
    cmd += ["--open-values" if settings.open_values else "--no-open-values"]
    subprocess.run(cmd, check=True)
    return dict(json.loads(record_path.read_text(encoding="utf-8")))


class CacheOnlyLLM:
    """Stands for an embedded model whose replies are in the reply cache, without loading it: a reply not cached is
    an `unavailable` failure, so its window is skipped (counted). For a partial measurement of an unfinished run."""

    def __init__(self, spec: str) -> None:
        asset = asset_for_spec(spec)
        if asset is None:
            raise SystemExit(f"--cached-only needs an embedded model spec, got {spec!r}")
        self._asset = asset
        self._seed = LLMConfig.from_env().seed

    @property
    def name(self) -> str:
        return f"embedded:{self._asset.label}"

    def cache_identity(self) -> dict[str, Any]:
        return {"backend": "embedded", "model_sha256": self._asset.sha256, "seed": self._seed}

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        return LLMFailure("unavailable", "not in the reply cache", self.name)


def extract_cached_only(data: Path, out: Path, llm: str, settings: ExtractSettings) -> dict[str, Any]:
    """The extraction from cached replies only (see CacheOnlyLLM), written as the command writes it."""
    config = LLMConfig.from_env()
    path = config.resolved_response_cache_path()
    if path is None:
        raise SystemExit("--cached-only needs the reply cache (KGREASON_LLM_CACHE is off)")
    cache = ResponseCache(path)
    model = CachedLLM(CacheOnlyLLM(llm), cache)
    for stale in [*out.glob("KG_*.json"), *out.glob("provenance_*.jsonl")]:  # an earlier run's documents
        stale.unlink()
    totals = ExtractStats()
    documents: dict[str, Any] = {}
    try:
        for doc in read_inputs(data):
            result = extract_document(model, doc, settings)
            totals.add(result.stats)
            documents[doc.doc_id] = len(result.triples)
            if result.triples:  # as the command does: an empty KG file would not validate
                write_document(out, result)
    finally:
        cache.close()
    write_json_atomic(out / "document.json", json.loads((data / "document.json").read_text(encoding="utf-8")))
    shutil.copyfile(data / "qa.json", out / "qa.json")
    print(f"cached-only: {totals.skipped_windows} of {totals.windows} windows had no cached reply and were skipped")
    return {
        "llm": llm,
        "window": settings.window,
        "reask": settings.reask_silent,
        "open_values": settings.open_values,
        "max_lines": settings.max_lines,
        "max_tokens": settings.max_tokens,
        "seconds": 0.0,
        "documents": documents,
        "totals": totals.to_json(),
    }


def bench(data: Path, out: Path, llm: str, settings: ExtractSettings, *, cached_only: bool = False) -> float:
    print(f"== {data}")
    read = extract_cached_only if cached_only else extract
    record = read(data, out, llm, settings)
    given, _ = load_dataset(data, check_gold=False)
    shutil.copyfile(data / "qa_answer.json", out / "qa_answer.json")
    extracted, _ = load_dataset(out, check_gold=False)
    for label, rule in (("exact", exact_match), ("lenient", lenient_match)):
        print(precision_recall(extracted.kgs, given.kgs, rule).line(label))
    totals = record["totals"]
    n_docs = max(len(record["documents"]), 1)
    seconds = float(record.get("seconds", 0.0))
    tokens = (int(totals.get("prompt_tokens", 0)), int(totals.get("completion_tokens", 0)))
    speed = (
        f"{totals['sentences']} sentences in {seconds:.0f} s = {totals['sentences'] / seconds:.3f} sentences/s"
        if seconds > 0
        else "not measured (extracted from cached replies)"
    )
    print(
        f"speed: {speed}; LLM tokens per document (cached replies counted): {tokens[0] / n_docs:,.0f} prompt + "
        f"{tokens[1] / n_docs:,.0f} completion; windows retried {totals['retried_windows']}, skipped "
        f"{totals['skipped_windows']}; triples dropped as ungrounded {totals['ungrounded']}, malformed lines "
        f"{totals['malformed_lines']}; silent sentences asked again {totals.get('reasked', 0)}; "
        f"open values attributed {totals.get('value_triples', 0)}; lists split "
        f"{totals.get('enumerations', 0)}; event nodes {totals.get('events', 0)}"
    )
    literal, mentions, total = grounding(out)
    print(
        f"grounding: cited sentence contains subject and object as written {literal}/{total} = "
        f"{100 * literal / max(total, 1):.1f}%; contains their recorded mentions {mentions}/{total} = "
        f"{100 * mentions / max(total, 1):.1f}%"
    )
    given_report = official(given)
    extracted_report = official(extracted)
    given_score, extracted_score = given_report.mean, extracted_report.mean
    ratio = extracted_score / given_score if given_score else 0.0
    print(
        f"official score (kgreason run --llm none --relations none): given KGs {given_score:.4f}, extracted KGs "
        f"{extracted_score:.4f}, ratio {ratio:.3f}"
    )
    print_loss(given_report, extracted_report, "the extracted KGs")
    matcher = learned_matcher()
    if matcher is None:
        return ratio
    # what `kgreason run` does by default on an extracted KG (`--relations auto` = learned there, none on the given)
    learned_report = official(extracted, matcher)
    ratio = learned_report.mean / given_score if given_score else 0.0
    print(
        f"  extracted KGs with the learned relation matcher (run's default for them): {learned_report.mean:.4f}, "
        f"ratio {ratio:.3f}"
    )
    print_loss(given_report, learned_report, "the extracted KGs with the learned matcher")
    return ratio


def learned_matcher() -> RelationScorer | None:
    try:
        from kgreason.commands.run import load_learned_relations

        return load_learned_relations(None)
    except KgreasonError as exc:  # the embedded e5 model is optional
        print(f"  (learned relation matcher unavailable: {exc})")
        return None


def subset(data: Path, docs: list[str], into: Path) -> Path:
    """A copy of dataset folder `data` holding only documents `docs`, their KGs, questions and gold answers."""
    into.mkdir(parents=True, exist_ok=True)
    for name in ("document.json", "qa.json", "qa_answer.json"):
        items = json.loads((data / name).read_text(encoding="utf-8"))
        kept = [x for x in items if x["doc_id"] in docs]
        (into / name).write_text(json.dumps(kept, ensure_ascii=False, indent=2), encoding="utf-8")
    for doc in docs:
        shutil.copyfile(data / f"KG_{doc}.json", into / f"KG_{doc}.json")
    return into


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, action="append", help="dataset folder (repeatable)")
    ap.add_argument("--llm", default="embedded")
    ap.add_argument("--window", type=int, default=DEFAULT_WINDOW)
    ap.add_argument("--max-lines", type=int, default=MAX_TRIPLES_PER_SENTENCE, help="triples per sentence")
    ap.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="generated tokens per call")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "kgreason_bench_extract")
    ap.add_argument("--docs", nargs="*", help="only these doc_ids (a partial measurement when time is short)")
    ap.add_argument("--no-reask", action="store_true", help="extract without asking silent sentences again alone")
    ap.add_argument(
        "--no-open-values",
        action="store_true",
        help="extract without attributing the dates and numbers no triple holds",
    )
    ap.add_argument(
        "--cached-only",
        action="store_true",
        help="extract from cached replies only (an unfinished run): windows without one are skipped and counted",
    )
    args = ap.parse_args(argv)
    for data in args.data or DEFAULT_DATA:
        name = data.resolve().name
        if args.docs:
            name = f"{name}_{'_'.join(args.docs)}"
            data = subset(data, args.docs, args.out / "subsets" / name)
        settings = ExtractSettings(
            window=args.window,
            max_tokens=args.max_tokens,
            reask_silent=not args.no_reask,
            max_lines=args.max_lines,
            open_values=not args.no_open_values,
        )
        bench(data, args.out / name, args.llm, settings, cached_only=args.cached_only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
