"""Benchmark of `kgreason run`: official score, speed and evidence validity on a dataset with gold answers.

    .venv/bin/python benchmarks/bench_run.py                                # examples/sample, --llm none
    .venv/bin/python benchmarks/bench_run.py --llm none --llm embedded     # compare with the embedded model
    .venv/bin/python benchmarks/bench_run.py --docs doc_04                 # a held-out view (only these documents)
    .venv/bin/python benchmarks/bench_run.py --failures 10                 # also list the worst questions

Prints, per LLM spec: the official score (mean per question) overall and per level, the Answer / Evidence /
Reasoning / Constraint means, questions per second after loading, seconds per question, LLM calls and tokens, and
the share of output triples that are KG triples (non-derived) — which must be 100%.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from kgreason.commands.run import load_relevance, resolve_relevance
from kgreason.data.loader import load_dataset
from kgreason.data.records import DERIVED_RELATIONS, AnswerRecord, Dataset
from kgreason.eval.official import ScoreReport, score_records
from kgreason.kg.index import KGIndex
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.runner import run_dataset


def kg_share(records: list[AnswerRecord], dataset: Dataset) -> tuple[int, int]:
    """(non-derived output triples found in the KG, non-derived output triples), main and alternative paths."""
    indexes = {doc: KGIndex(doc, kg) for doc, kg in dataset.kgs.items()}
    found = total = 0
    for r in records:
        index = indexes.get(r.doc_id)
        for path in (r.main_path, *r.alt_paths):
            for t in path:
                if t[1] in DERIVED_RELATIONS and (index is None or not index.contains_triple(t)):
                    continue
                total += 1
                found += 1 if index is not None and index.contains_triple(t) else 0
    return found, total


def print_report(
    label: str,
    report: ScoreReport,
    seconds: float,
    n: int,
    llm_calls: int,
    tokens: tuple[int, int],
    share: tuple[int, int],
) -> None:
    o = report.overall.metrics
    print(f"== {label}")
    print(f"official score (mean per question): {report.mean:.4f}  (total {report.total:.3f} over {report.count})")
    for lvl, g in report.by_level.items():
        print(f"  {lvl}: {g.mean:.4f}  (n={g.count})")
    print(
        f"  answer {o['answer']:.4f} | evidence {o['evidence']:.4f} | reasoning {o['reasoning']:.4f} | "
        f"constraint {o['constraint']:.4f}"
    )
    qps = n / seconds if seconds > 0 else float("inf")
    per_q = seconds / max(n, 1)
    print(f"speed: {n} questions in {seconds:.2f} s after loading = {qps:.1f} q/s, {per_q:.3f} s/question")
    if llm_calls:
        print(f"LLM: {llm_calls} calls, {tokens[0]:,} prompt + {tokens[1]:,} completion tokens")
    pct = 100.0 * share[0] / share[1] if share[1] else 100.0
    print(f"non-derived output triples in the KG: {share[0]}/{share[1]} = {pct:.1f}%")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("examples/sample"))
    ap.add_argument("--llm", action="append", help="LLM spec (repeatable); default: none")
    ap.add_argument("--docs", nargs="*", help="only questions of these doc_ids (a held-out view)")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--failures", type=int, default=0, help="list the N lowest-scoring questions")
    ap.add_argument("--max-hops", type=int, default=None)
    ap.add_argument("--beam", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=1, help="repeat the --llm none run N times for a stable q/s")
    ap.add_argument(
        "--relevance",
        default="auto",
        choices=["auto", "none", "trained", "e5"],
        help="external relevance model (auto: trained with an LLM, none without)",
    )
    ap.add_argument("--keep", type=Path, default=None, help="keep result.json and the trace in this folder")
    args = ap.parse_args(argv)

    t0 = time.monotonic()
    dataset, _ = load_dataset(args.data, check_gold=False)
    if dataset.gold is None:
        print(f"{args.data} has no qa_answer.json: nothing to score against", file=sys.stderr)
        return 2
    if args.docs:
        keep = set(args.docs)
        dataset = replace(dataset, questions=tuple(q for q in dataset.questions if q.doc_id in keep))
    print(f"loaded {args.data} in {time.monotonic() - t0:.2f} s: {len(dataset.questions)} questions")
    config = ReasonerConfig()
    if args.max_hops:
        config = replace(config, max_hops=args.max_hops)
    if args.beam:
        config = replace(config, beam=args.beam)
    known = dataset.gold or {}
    gold = {q.query_id: known[q.query_id] for q in dataset.questions if q.query_id in known}
    if args.limit is not None:
        gold = dict(list(gold.items())[: args.limit])

    for spec in args.llm or ["none"]:
        relevance = resolve_relevance(args.relevance, spec)
        scorer, embedder = load_relevance(relevance)
        llm = create_llm(spec, LLMConfig.from_env(response_cache=False))
        try:
            with tempfile.TemporaryDirectory() as tmp:
                slug = spec.replace(":", "_").replace("/", "_")
                out = (args.keep / slug / "result.json") if args.keep else Path(tmp) / "result.json"
                repeats = args.repeat if llm is None else 1
                best = float("inf")
                cpu = float("inf")
                for _ in range(repeats):
                    reasoner = Reasoner(dataset, config, llm=llm, scorer=scorer, embedder=embedder)
                    c0 = time.process_time()
                    summary = run_dataset(dataset, reasoner, out, limit=args.limit, resume=False)
                    cpu = min(cpu, time.process_time() - c0)
                    best = min(best, summary.seconds)
                from kgreason.data.loader import load_answer_file

                records, _ = load_answer_file(out)
            preds = {r.query_id: r for r in records}
            report = score_records(preds, gold)
            print_report(
                f"--llm {spec} --relevance {relevance}",
                report,
                best,
                summary.answered + summary.failed,
                summary.llm_calls,
                (summary.prompt_tokens, summary.completion_tokens),
                kg_share(records, dataset),
            )
            n_done = summary.answered + summary.failed
            print(
                f"CPU time: {cpu:.2f} s = {n_done / cpu if cpu > 0 else 0:.1f} questions per CPU-second "
                f"(the machine is shared: wall-clock q/s drops under load)"
            )
            if summary.failed:
                print(f"FAILED questions: {summary.failures}")
            if args.failures:
                worst = sorted(report.per_question, key=lambda q: q.score)[: args.failures]
                for q in worst:
                    print(
                        f"  {q.query_id} {q.level} score {q.score:.3f}  ans {q.answer.score:.2f} "
                        f"ev {q.evidence.score:.2f} rs {q.reasoning.score:.2f} cons {q.constraint.f1:.2f}"
                    )
        finally:
            close_llm(llm)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
