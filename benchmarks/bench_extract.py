"""Benchmark of `kgreason extract`: extracted KGs against the given ones, and the official score of `kgreason run`
on each, same questions, same gold.

    .venv/bin/python benchmarks/bench_extract.py                         # examples/sample and ccks_ext_dev
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --llm embedded-small
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --out runs/extract_sample  # keep outputs
    .venv/bin/python benchmarks/bench_extract.py --data examples/sample --docs doc_01 doc_02      # some documents

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
- the official score of `kgreason run --llm none` on the given KGs and on the extracted KGs, and their ratio
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

from kgreason.data.loader import load_answer_file, load_dataset
from kgreason.data.records import Dataset, KGTriple
from kgreason.eval.official import score_records
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.runner import run_dataset
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


def official(dataset: Dataset) -> float:
    assert dataset.gold is not None
    reasoner = Reasoner(dataset, ReasonerConfig(), llm=None)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "result.json"
        run_dataset(dataset, reasoner, out, resume=False)
        records, _ = load_answer_file(out)
    return score_records({r.query_id: r for r in records}, dataset.gold).mean


def extract(data: Path, out: Path, llm: str, window: int) -> dict[str, Any]:
    record_path = out / "extract.run.json"
    if record_path.exists():
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if record.get("llm") == llm and record.get("window") == window:
            print(f"reusing {out} (extracted earlier with --llm {llm} --window {window})")
            return dict(record)
    cmd = [sys.executable, "-m", "kgreason.cli", "extract", str(data), "-o", str(out), "--llm", llm]
    subprocess.run([*cmd, "--window", str(window)], check=True)
    return dict(json.loads(record_path.read_text(encoding="utf-8")))


def bench(data: Path, out: Path, llm: str, window: int) -> float:
    print(f"== {data}")
    record = extract(data, out, llm, window)
    given, _ = load_dataset(data, check_gold=False)
    shutil.copyfile(data / "qa_answer.json", out / "qa_answer.json")
    extracted, _ = load_dataset(out, check_gold=False)
    for label, rule in (("exact", exact_match), ("lenient", lenient_match)):
        print(precision_recall(extracted.kgs, given.kgs, rule).line(label))
    totals = record["totals"]
    n_docs = max(len(record["documents"]), 1)
    seconds = float(record.get("seconds", 0.0))
    tokens = (int(totals.get("prompt_tokens", 0)), int(totals.get("completion_tokens", 0)))
    print(
        f"speed: {totals['sentences']} sentences in {seconds:.0f} s = {totals['sentences'] / max(seconds, 1e-9):.3f} "
        f"sentences/s (cached replies make a rerun fast: meaningful for a first run only); LLM tokens per "
        f"document: {tokens[0] / n_docs:,.0f} prompt + {tokens[1] / n_docs:,.0f} "
        f"completion; windows retried {totals['retried_windows']}, skipped {totals['skipped_windows']}; triples "
        f"dropped as ungrounded {totals['ungrounded']}, malformed lines {totals['malformed_lines']}"
    )
    literal, mentions, total = grounding(out)
    print(
        f"grounding: cited sentence contains subject and object as written {literal}/{total} = "
        f"{100 * literal / max(total, 1):.1f}%; contains their recorded mentions {mentions}/{total} = "
        f"{100 * mentions / max(total, 1):.1f}%"
    )
    given_score = official(given)
    extracted_score = official(extracted)
    ratio = extracted_score / given_score if given_score else 0.0
    print(
        f"official score (kgreason run --llm none): given KGs {given_score:.4f}, extracted KGs {extracted_score:.4f}, "
        f"ratio {ratio:.3f}"
    )
    return ratio


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
    ap.add_argument("--window", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "kgreason_bench_extract")
    ap.add_argument("--docs", nargs="*", help="only these doc_ids (a partial measurement when time is short)")
    args = ap.parse_args(argv)
    for data in args.data or DEFAULT_DATA:
        name = data.resolve().name
        if args.docs:
            name = f"{name}_{'_'.join(args.docs)}"
            data = subset(data, args.docs, args.out / "subsets" / name)
        bench(data, args.out / name, args.llm, args.window)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
