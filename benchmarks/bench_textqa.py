"""Text multi-hop QA benchmark on the shared samples: HotpotQA (100), MuSiQue (100), 2WikiMultihopQA (12).

    .venv/bin/python benchmarks/bench_textqa.py --data ../shared/data --llm embedded --limit 10 -o runs/textqa_bench

For each set: the recall of the gold supporting sentences (MuSiQue: paragraphs) among the sentences shown to the
reader, for each retriever (no model needed), then `kgreason textqa run`'s baseline path (retrieved sentences + LLM
reader) on the first `--limit` questions, scored with the set's official metrics: answer EM/F1, supporting-fact
F1, joint F1, 2Wiki evidence F1, MuSiQue answer/support F1, seconds and LLM tokens per question. The KG path needs
a TripleSource (`kgreason extract`'s extractor), which this build does not include: the benchmark says so. The 2Wiki
items are the union of `2wiki/2wiki_hoprag_samples.jsonl` (10) and `2wiki/2wiki_kag_samples.json` (2): the only
files with `evidences`. Runs resume from `-o` and LLM replies are cached, so a rerun costs seconds. Exits 0 with a
message when the data folder is missing.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import DataError, KgreasonError
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm, llm_accounting
from kgreason.retrieve.base import Embedder
from kgreason.textqa.context import context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.records import TextQASet
from kgreason.textqa.retrieval import RETRIEVERS, RetrieverName, rank_sentences, select_context
from kgreason.textqa.run import TextQASettings, run_textqa
from kgreason.textqa.score import score_file

SETS = {
    "hotpotqa": ["hotpotqa/hotpotqa_train.json"],
    "2wiki": ["2wiki/2wiki_hoprag_samples.jsonl", "2wiki/2wiki_kag_samples.json"],
    "musique": ["musique/musique_train.json"],
}
SHOWN = {
    "hotpotqa": ["em", "f1", "sp_f1", "joint_f1"],
    "2wiki": ["em", "f1", "sp_f1", "evidence_f1", "joint_f1"],
    "musique": ["answer_em", "answer_f1", "support_f1"],
}


def load_set(data: Path, name: str) -> TextQASet:
    parts = [load_textqa(data / f) for f in SETS[name]]
    seen: set[str] = set()
    items = []
    for part in parts:
        for item in part.items:
            if item.id not in seen:
                seen.add(item.id)
                items.append(item)
    return TextQASet(parts[0].dataset, tuple(items), tuple(w for p in parts for w in p.warnings))


def retrieval_recall(
    data: TextQASet, retriever: RetrieverName, top_k: int, embedder: Embedder | None, limit: int
) -> float:
    """Mean share of the gold supporting sentences (MuSiQue: paragraphs) among the sentences shown to the reader."""
    shares = []
    for item in data.items[:limit]:
        shown = select_context(rank_sentences(item.question, context_sentences(item), retriever, embedder), top_k)
        if item.dataset == "musique":
            gold: set[Any] = set(item.supporting_paragraphs)
            got: set[Any] = {s.paragraph.index for s in shown}
        else:
            gold = set(item.supporting_facts)
            got = {(s.paragraph.title, s.sentence.index) for s in shown}
        if gold:
            shares.append(len(gold & got) / len(gold))
    return sum(shares) / len(shares) if shares else 0.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--llm", default="embedded")
    parser.add_argument("--sets", default="hotpotqa,2wiki,musique")
    parser.add_argument("--limit", type=int, default=None, help="questions per set answered by the LLM")
    parser.add_argument("--retriever", default="bm25", choices=RETRIEVERS)
    parser.add_argument("--top-k", type=int, default=6)
    parser.add_argument(
        "--compare-retrievers",
        type=int,
        default=20,
        metavar="N",
        help="items per set for the retriever comparison (embedding every sentence is slow here)",
    )
    parser.add_argument("-o", "--output", type=Path, default=Path("runs/textqa_bench"))
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    if not all((args.data / SETS[n][0]).exists() for n in names):
        print(f"text QA samples not found under {args.data}: nothing to benchmark", file=sys.stderr)
        return 0
    from kgreason.retrieve.embedder import load_e5_embedder

    embedder = load_e5_embedder() if args.compare_retrievers or args.retriever != "bm25" else None
    llm = create_llm(args.llm, LLMConfig.from_env(), progress=lambda m: print(m, file=sys.stderr))
    if llm is None:
        raise KgreasonError("the benchmark needs a model (--llm)")
    summary: dict[str, Any] = {"llm": args.llm, "retriever": args.retriever, "top_k": args.top_k, "sets": {}}
    try:
        for name in names:
            data = load_set(args.data, name)
            recall: dict[str, float] = {"bm25": retrieval_recall(data, "bm25", args.top_k, None, len(data.items))}
            if embedder is not None and args.compare_retrievers:
                for r in RETRIEVERS:
                    recall[f"{r}@{args.compare_retrievers}"] = retrieval_recall(
                        data, r, args.top_k, embedder, args.compare_retrievers
                    )
            print(
                f"{name}: {len(data.items)} items; recall of gold support among shown sentences: "
                + ", ".join(f"{k} {v:.3f}" for k, v in recall.items()),
                flush=True,
            )
            settings = TextQASettings(name, args.llm, args.retriever, args.top_k, kg_path=False)
            accounting = llm_accounting(llm)
            started = time.monotonic()
            run = run_textqa(
                data,
                args.output / name,
                settings,
                llm,
                embedder=embedder if args.retriever != "bm25" else None,
                accounting=accounting,
                limit=args.limit,
                progress=lambda m: print(m, file=sys.stderr, flush=True),
            )
            answered = {o.id for o in run.outcomes}
            gold = dataclasses.replace(data, items=tuple(i for i in data.items if i.id in answered))
            pred = args.output / name / "baseline" / ("prediction.jsonl" if name == "musique" else "prediction.json")
            score = score_file(pred, gold)
            n = len(run.outcomes)
            # Seconds and tokens per question count the questions the model really answered in this or an earlier
            # run of the same output; replies from the LLM cache (no tokens processed) would understate them.
            asked = [o for o in run.outcomes if o.prompt_tokens > 0]
            row = {
                "questions": n,
                "metrics": score.metrics,
                "retrieval_recall": recall,
                "timed_questions": len(asked),
                "seconds_per_question": sum(o.seconds for o in asked) / max(1, len(asked)),
                "tokens_per_question": sum(o.prompt_tokens + o.completion_tokens for o in asked) / max(1, len(asked)),
                "llm_failures": run.failures,
                "wall_seconds": time.monotonic() - started,
                "kg_path": "not run: needs a TripleSource (kgreason extract)",
            }
            summary["sets"][name] = row
            shown = "  ".join(f"{k} {score.metrics[k]:.3f}" for k in SHOWN[name] if k in score.metrics)
            print(
                f"{name} baseline ({n} questions): {shown}  "
                f"{row['seconds_per_question']:.1f} s/q  {row['tokens_per_question']:.0f} tokens/q  "
                f"failures {run.failures}  | KG path: {row['kg_path']}",
                flush=True,
            )
            write_json_atomic(args.output / "summary.json", summary)
    finally:
        close_llm(llm)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (DataError, KgreasonError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
