"""Text multi-hop QA benchmark on the shared samples: HotpotQA (100), MuSiQue (100), 2WikiMultihopQA (12).

    .venv/bin/python benchmarks/bench_textqa.py --data ../shared/data --llm embedded --limit 10 -o runs/textqa_bench
    .venv/bin/python benchmarks/bench_textqa.py --sets 2wiki --paths baseline,kg -o runs/textqa_bench

For each set: the recall of the gold supporting sentences (MuSiQue: paragraphs) among the sentences shown to the reader,
for each retriever (no model needed; with `--context paragraphs`, the default, also how often both gold paragraphs are
the first two chosen), then `kgreason textqa run` on the first `--limit` questions (or the `--items
START:END` slice) by each path of `--paths`: `baseline` (retrieved sentences + LLM reader; with `--second-round`, one
more retrieval with the first answers) and `kg` (triples read from the retrieved sentences by `kgreason extract`'s
reader, `ExtractorSource`, + an LLM choosing evidence triples), scored with the set's official metrics: answer EM/F1,
supporting-fact F1 (with the program's completion, `textqa.support`, and with each combination of its rules, "cited" =
none), joint F1, 2Wiki evidence F1, MuSiQue answer/support F1, seconds and LLM tokens per question, and on the KG path
the share of evidence triples whose cited sentence spells both ends as written. The baseline run is in `OUT/<set>`, the
KG run in `OUT/<set>+kg` (it asks the baseline's first reading too: one reply, cached for the other run; never a second
round). Every figure is over the questions answered so far, stated as "n of N"; each path's figures are also given
for the questions the program takes for a comparison (`textqa.comparison`; answered by parts unless
`--no-compare-by-parts`) and for those the set types `comparison`. The 2Wiki items are the union of
`2wiki/2wiki_hoprag_samples.jsonl` (10) and `2wiki/2wiki_kag_samples.json` (2): the only files with `evidences`. Runs
resume from `-o` and LLM replies are cached, so a rerun costs seconds. Exits 0 with a message when the data folder is
missing.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import DataError, KgreasonError
from kgreason.extract.source import ExtractorSource
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm, llm_accounting
from kgreason.retrieve.base import Embedder
from kgreason.textqa.answers import PathAnswer
from kgreason.textqa.bridge import detect_bridge
from kgreason.textqa.comparison import detect_comparison
from kgreason.textqa.context import context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.outputs import support_paragraphs, wiki_prediction
from kgreason.textqa.paragraphs import DEFAULT_PARAGRAPHS, order_paragraphs, paragraph_text
from kgreason.textqa.records import TextQAItem, TextQASet
from kgreason.textqa.related import detect_related_comparison
from kgreason.textqa.retrieval import RETRIEVERS, RetrieverName, bm25_scores, rank_texts
from kgreason.textqa.run import (
    BRIDGE_BY_PARTS_DEFAULT,
    COMPARE_BY_PARTS_DEFAULT,
    COMPARE_RELATED_BY_PARTS_DEFAULT,
    CONTEXTS,
    RunSummary,
    TextQASettings,
    run_textqa,
    shown_context,
)
from kgreason.textqa.score import MusiquePrediction, score_file, score_musique, score_wiki_style
from kgreason.textqa.support import RULES, complete_support

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


def gold_paragraphs(item: TextQAItem) -> set[int]:
    """Indices of the paragraphs holding a gold supporting fact (MuSiQue: the supporting paragraphs)."""
    if item.dataset == "musique":
        return set(item.supporting_paragraphs)
    titles = {title for title, _ in item.supporting_facts}
    return {p.index for p in item.paragraphs if p.title in titles}


def retrieval_recall(
    data: TextQASet, settings: TextQASettings, embedder: Embedder | None, limit: int
) -> dict[str, float]:
    """Mean share of the gold supporting sentences (MuSiQue: paragraphs) among the sentences shown to the reader;
    with whole paragraphs also the share of questions whose gold paragraphs are all among the first two chosen
    (`pair`) and among all shown (`all`), and the sentences shown per question."""
    shares, pairs, alls, shown_counts = [], [], [], []
    for item in data.items[:limit]:
        shown = shown_context(item, settings, embedder)
        if item.dataset == "musique":
            gold: set[Any] = set(item.supporting_paragraphs)
            got: set[Any] = {s.paragraph.index for s in shown.sentences}
        else:
            gold = set(item.supporting_facts)
            got = {(s.paragraph.title, s.sentence.index) for s in shown.sentences}
        if gold:
            shares.append(len(gold & got) / len(gold))
        golden = gold_paragraphs(item)
        pairs.append(float(golden <= set(shown.paragraphs[:2])))
        alls.append(float(golden <= set(shown.paragraphs)))
        shown_counts.append(len(shown.sentences))
    out = {"recall": sum(shares) / len(shares) if shares else 0.0}
    if settings.context == "paragraphs" and pairs:
        out["pair"] = sum(pairs) / len(pairs)
        out["all"] = sum(alls) / len(alls)
    out["shown"] = sum(shown_counts) / max(1, len(shown_counts))
    return out


def parse_slice(text: str | None) -> slice:
    """`A:B` (items A to B-1, from 0), `:B` or `A:`; None: every item."""
    if not text:
        return slice(None)
    first, _, last = text.partition(":")
    try:
        return slice(int(first) if first else None, int(last) if last else None)
    except ValueError:
        raise KgreasonError(f"--items {text!r}: expected START:END, e.g. 90:100") from None


def grounded_share(run: RunSummary, data: TextQASet) -> tuple[int, int]:
    """(KG-path evidence triples whose cited sentence spells subject and object as written, evidence triples)."""
    by_id = {item.id: item for item in data.items}
    spelled = total = 0
    for outcome in run.outcomes:
        answer = outcome.answers.get("kg")
        if answer is None:
            continue
        texts = {s.key: s.text for s in context_sentences(by_id[outcome.id])}
        for (sub, _, obj), step in zip(answer.evidence, answer.steps, strict=True):
            total += 1
            text = texts.get(step.sentences[0], "") if step.sentences else ""
            spelled += sub in text and obj in text
    return spelled, total


def rule_ablation(name: str, path: str, run: RunSummary, gold: TextQASet) -> dict[str, float]:
    """Supporting-fact F1 (MuSiQue: support F1) with each combination of the completion rules, from the same answers:
    "cited" is what the path cited alone."""
    by_id = {item.id: item for item in gold.items}
    out: dict[str, float] = {}
    for n in range(len(RULES) + 1):
        for rules in itertools.combinations(RULES, n):
            rows = []
            for outcome in run.outcomes:
                answer = outcome.answers.get(path)  # type: ignore[call-overload]
                if answer is None or outcome.id not in by_id:
                    continue
                item = by_id[outcome.id]
                sentences = context_sentences(item)
                completed = complete_support(item.question, answer, sentences, rules).sentences
                rows.append((item, dataclasses.replace(answer, sentences=completed), sentences))
            if name == "musique":
                predictions = {
                    item.id: MusiquePrediction(a.answer, tuple(support_paragraphs(a, s)), None) for item, a, s in rows
                }
                value = score_musique(gold, predictions).metrics["support_f1"]
            else:
                value = score_wiki_style(gold, wiki_prediction(rows)).metrics["sp_f1"]
            out["+".join(rules) or "cited"] = value
    return out


def path_row(name: str, path: str, folder: Path, run: RunSummary, data: TextQASet, wall: float) -> dict[str, Any]:
    """One path's figures on the questions this run (or an earlier one of the same output) answered."""
    answered = {o.id for o in run.outcomes}
    gold = dataclasses.replace(data, items=tuple(i for i in data.items if i.id in answered))
    suffix = ".jsonl" if name == "musique" else ".json"
    score = score_file(folder / path / f"prediction{suffix}", gold)
    # Seconds and tokens per question count the questions the model really answered in this or an earlier run of
    # the same output; replies from the LLM cache (no tokens processed) would understate them. On the KG path they
    # include the baseline's first reading when its reply was not cached yet.
    asked = [o for o in run.outcomes if o.prompt_tokens > 0]
    answers = [o.answers[path] for o in run.outcomes if path in o.answers]
    row: dict[str, Any] = {
        "questions": len(run.outcomes),
        "metrics": score.metrics,
        "subsets": subset_metrics(folder / path / f"prediction{suffix}", gold, answers),
        "support_f1_by_completion_rules": rule_ablation(name, path, run, gold),
        "second_round_used": sum(1 for a in answers if a.rounds > 1),
        "timed_questions": len(asked),
        "seconds_per_question": sum(o.seconds for o in asked) / max(1, len(asked)),
        "tokens_per_question": sum(o.prompt_tokens + o.completion_tokens for o in asked) / max(1, len(asked)),
        "llm_failures": sum(1 for a in answers if a.failure is not None),
        "wall_seconds": wall,
    }
    if path == "kg":
        spelled, total = grounded_share(run, data)
        row["evidence_triples"] = total
        row["evidence_cited_sentence_spells_both_ends"] = spelled / total if total else None
    return row


def subset_metrics(prediction: Path, gold: TextQASet, answers: list[PathAnswer]) -> dict[str, Any]:
    """The figures on two subsets of the answered questions: those the program takes for a comparison from the text
    (`textqa.comparison`, what `--compare-by-parts` acts on) and those the set itself types `comparison` (HotpotQA;
    read for reporting only), with how many were answered by parts."""
    by_parts = sum(1 for a in answers if a.steps_source == "comparison-by-parts")
    bridged = sum(1 for a in answers if a.steps_source == "bridge-by-parts")
    out: dict[str, Any] = {"answered_by_parts": by_parts, "bridges_answered_by_parts": bridged}
    comparisons = [i for i in gold.items if detect_comparison(i.question, i.paragraphs) is not None]
    # what --compare-related-by-parts acts on: a comparison by a related entity's attribute
    related = [i for i in gold.items if detect_related_comparison(i.question, i.paragraphs) is not None]
    rest = [i for i in gold.items if i not in comparisons and i not in related]
    subsets = {
        "detected_comparison": comparisons,
        "typed_comparison": [i for i in gold.items if i.type == "comparison"],
        "detected_related_comparison": related,
        # what --bridge-by-parts acts on: a bridge in the text of a question not taken for a comparison
        "detected_bridge": [i for i in rest if detect_bridge(i.question, i.paragraphs) is not None],
        "other": [i for i in rest if detect_bridge(i.question, i.paragraphs) is None],
    }
    for name, items in subsets.items():
        if items:
            part = dataclasses.replace(gold, items=tuple(items))
            out[name] = {"questions": len(items), "metrics": score_file(prediction, part).metrics}
    return out


SUBSETS = ("detected_comparison", "typed_comparison", "detected_related_comparison", "detected_bridge", "other")


def print_row(name: str, path: str, row: dict[str, Any], total: int) -> None:
    metrics = row["metrics"]
    shown = "  ".join(f"{k} {metrics[k]:.3f}" for k in SHOWN[name] if k in metrics)
    support_key = "support_f1" if name == "musique" else "sp_f1"
    rules = ", ".join(f"{k} {v:.3f}" for k, v in row["support_f1_by_completion_rules"].items())
    extra = ""
    if path == "kg":
        share = row["evidence_cited_sentence_spells_both_ends"]
        extra = "  evidence triples whose cited sentence spells both ends: " + (
            f"{100 * share:.1f}% of {row['evidence_triples']}" if share is not None else "none"
        )
    print(
        f"{name} {path} ({row['questions']} of {total} questions): {shown}  "
        f"({support_key} by completion rules: {rules})  "
        f"{row['seconds_per_question']:.1f} s/q  {row['tokens_per_question']:.0f} tokens/q "
        f"({row['timed_questions']} timed)  second rounds {row['second_round_used']}  "
        f"failures {row['llm_failures']}{extra}",
        flush=True,
    )
    subsets = row["subsets"]
    for subset in SUBSETS:
        if subset in subsets:
            part = subsets[subset]["metrics"]
            figures = "  ".join(f"{k} {part[k]:.3f}" for k in SHOWN[name] if k in part)
            print(f"  {subset} ({subsets[subset]['questions']} questions): {figures}", flush=True)
    print(
        f"  answered by parts: comparisons {subsets['answered_by_parts']}, "
        f"bridges {subsets['bridges_answered_by_parts']}",
        flush=True,
    )


def _f1(predicted: set[Any], gold: set[Any]) -> float:
    hits = len(predicted & gold)
    return 2 * hits / (len(predicted) + len(gold)) if hits else 0.0


def paragraph_study(data: TextQASet, retriever: RetrieverName, embedder: Embedder | None) -> dict[str, float]:
    """Without a model: how often the gold paragraphs are the first two / among the first three, by the ranking alone
    and with the pair chosen by titles and links (`textqa.paragraphs.order_paragraphs`); the share of gold paragraphs
    among the first three; and the supporting-fact F1 (HotpotQA, 2Wiki) of the chosen pair's first sentences, alone
    and with each paragraph's best-ranked other sentence (BM25 against the question)."""
    sums: defaultdict[str, float] = defaultdict(float)
    for item in data.items:
        order = rank_texts(item.question, [paragraph_text(p) for p in item.paragraphs], retriever, embedder)
        ranked = [item.paragraphs[i] for i in order]
        gold = gold_paragraphs(item)
        for name, paras in (("ranking", ranked), ("chosen", order_paragraphs(item.question, ranked))):
            first = [p.index for p in paras]
            sums[f"{name} pair@2"] += gold <= set(first[:2])
            sums[f"{name} all@3"] += gold <= set(first[:3])
            sums[f"{name} recall@3"] += len(gold & set(first[:3])) / max(1, len(gold))
        if item.dataset == "musique":
            continue
        pair = order_paragraphs(item.question, ranked)[:2]
        leads = {(p.title, 0) for p in pair}
        best = set(leads)
        for p in pair:
            scores = bm25_scores(item.question, [f"{p.title}: {s}" for s in p.sentences])
            if len(scores) > 1:
                j = max(range(1, len(scores)), key=lambda k: (scores[k], -k))
                if scores[j] > 0:
                    best.add((p.title, j))
        facts = set(item.supporting_facts)
        sums["sp_f1 first sentences of the pair"] += _f1(leads, facts)
        sums["sp_f1 + best other sentence"] += _f1(best, facts)
    return {k: v / max(1, len(data.items)) for k, v in sums.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--llm", default="embedded")
    parser.add_argument("--sets", default="hotpotqa,2wiki,musique")
    parser.add_argument("--paths", default="baseline", help="baseline, kg or both (baseline,kg)")
    parser.add_argument("--items", default=None, metavar="START:END", help="a slice of each set (e.g. 90:100)")
    parser.add_argument("--limit", type=int, default=None, help="questions per set answered by the LLM")
    parser.add_argument("--kg-limit", type=int, default=None, help="questions per set on the KG path (default --limit)")
    parser.add_argument("--retriever", default="bm25", choices=RETRIEVERS)
    parser.add_argument("--top-k", type=int, default=6)
    parser.add_argument("--context", default="sentences", choices=CONTEXTS, help="what the reader is shown")
    parser.add_argument("--paragraphs", type=int, default=DEFAULT_PARAGRAPHS, help="paragraphs shown whole")
    parser.add_argument("--second-round", action="store_true", help="baseline: retrieve again with the first answers")
    parser.add_argument(
        "--compare-by-parts",
        action=argparse.BooleanOptionalAction,
        default=COMPARE_BY_PARTS_DEFAULT,
        help="baseline: answer a two-entity comparison by one lookup per entity, compared in code",
    )
    parser.add_argument(
        "--bridge-by-parts",
        action=argparse.BooleanOptionalAction,
        default=BRIDGE_BY_PARTS_DEFAULT,
        help="baseline: answer a bridge found in the text by one lookup over the bridge entity's paragraph",
    )
    parser.add_argument(
        "--compare-related-by-parts",
        action=argparse.BooleanOptionalAction,
        default=COMPARE_RELATED_BY_PARTS_DEFAULT,
        help="baseline: answer a comparison by a related entity's attribute by a hop and a lookup per entity",
    )
    parser.add_argument(
        "--compare-retrievers",
        type=int,
        default=20,
        metavar="N",
        help="items per set for the retriever comparison (embedding every sentence is slow here); 0: none",
    )
    parser.add_argument(
        "--paragraph-study",
        action="store_true",
        help="no model: the choice of paragraphs on each set's --items slice (ranking alone vs titles and links), "
        "then exit",
    )
    parser.add_argument("-o", "--output", type=Path, default=Path("runs/textqa_bench"))
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if unknown := [n for n in names if n not in SETS] + [p for p in paths if p not in ("baseline", "kg")]:
        raise KgreasonError(f"unknown set or path: {', '.join(unknown)}")
    selected = parse_slice(args.items)
    if not all((args.data / SETS[n][0]).exists() for n in names):
        print(f"text QA samples not found under {args.data}: nothing to benchmark", file=sys.stderr)
        return 0
    from kgreason.retrieve.embedder import load_e5_embedder

    embedder = load_e5_embedder() if args.compare_retrievers or args.retriever != "bm25" else None
    if args.paragraph_study:
        retrievers = RETRIEVERS if embedder is not None else ("bm25",)
        for name in names:
            part = load_set(args.data, name)
            part = dataclasses.replace(part, items=part.items[selected])
            for r in retrievers:
                study = paragraph_study(part, r, embedder)
                print(
                    f"{name} items {args.items or 'all'} ({len(part.items)}), {r}: "
                    + ", ".join(f"{k} {v:.3f}" for k, v in study.items()),
                    flush=True,
                )
        return 0
    llm = create_llm(args.llm, LLMConfig.from_env(), progress=lambda m: print(m, file=sys.stderr))
    if llm is None:
        raise KgreasonError("the benchmark needs a model (--llm)")
    summary: dict[str, Any] = {
        "llm": args.llm,
        "retriever": args.retriever,
        "top_k": args.top_k,
        "second_round": args.second_round,
        "compare_by_parts": args.compare_by_parts,
        "bridge_by_parts": args.bridge_by_parts,
        "compare_related_by_parts": args.compare_related_by_parts,
        "context": args.context,
        "paragraphs": args.paragraphs,
        "items": args.items,
        "sets": {},
    }
    say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    try:
        for name in names:
            whole = load_set(args.data, name)
            base = TextQASettings(name, args.llm, "bm25", args.top_k, False, False, args.context, args.paragraphs)
            recall = {"bm25": retrieval_recall(whole, base, None, len(whole.items))}
            if embedder is not None and args.compare_retrievers:
                for r in RETRIEVERS:
                    recall[f"{r}@{args.compare_retrievers}"] = retrieval_recall(
                        whole, dataclasses.replace(base, retriever=r), embedder, args.compare_retrievers
                    )
            print(
                f"{name}: {len(whole.items)} items, shown {args.context}; gold support among the shown sentences"
                + (
                    " (pair: both gold paragraphs the first two chosen; all: among those shown)"
                    if args.context == "paragraphs"
                    else ""
                )
                + ": "
                + "; ".join(f"{k} " + " ".join(f"{m} {v:.3f}" for m, v in r.items()) for k, r in recall.items()),
                flush=True,
            )
            data = dataclasses.replace(whole, items=whole.items[selected])
            rows: dict[str, Any] = {"retrieval_recall": recall, "items": len(data.items)}
            dense = embedder if args.retriever != "bm25" else None
            # The KG run asks the baseline's first reading too (one reply, cached for the other run either way); the
            # second round belongs to the baseline path alone, so the KG run never makes it.
            for path, kg, limit in (("baseline", False, args.limit), ("kg", True, args.kg_limit or args.limit)):
                if path not in paths:
                    continue
                second = args.second_round and not kg
                settings = TextQASettings(
                    name,
                    args.llm,
                    args.retriever,
                    args.top_k,
                    kg,
                    second,
                    args.context,
                    args.paragraphs,
                    compare_by_parts=args.compare_by_parts and not kg,
                    bridge_by_parts=args.bridge_by_parts and not kg,
                    compare_related_by_parts=args.compare_related_by_parts and not kg,
                )
                folder = args.output / (f"{name}+kg" if kg else name)
                started = time.monotonic()
                run = run_textqa(
                    data,
                    folder,
                    settings,
                    llm,
                    embedder=dense,
                    triple_source=ExtractorSource(llm) if kg else None,
                    accounting=llm_accounting(llm),
                    limit=limit,
                    progress=say,
                )
                if path in paths:
                    rows[path] = path_row(name, path, folder, run, data, time.monotonic() - started)
                    print_row(name, path, rows[path], len(data.items))
            summary["sets"][name] = rows
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
