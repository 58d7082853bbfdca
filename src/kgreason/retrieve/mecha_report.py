"""One table from several `kgreason mecha bench` result files (setups are often run one per file, each its own
process), with what a single file cannot show: how each setup differs from a baseline setup question by question
(questions it fixes and breaks), and how well the LLM-Score judge separates right answers from wrong ones.

Input: the JSON that `mecha_bench.results_json` writes (`meta`, `summary`, `items`). Bad files raise `DataError`
naming the file, the record and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import read_records
from kgreason.errors import DataError, KgreasonError, Problem

_ITEM_FIELDS: dict[str, type | tuple[type, ...]] = {
    "setup": str,
    "index": int,
    "correct": bool,
    "chosen": list,
    "gold_recall": (int, float),
    "precision": (int, float),
    "seconds": (int, float),
    "prompt_tokens": int,
    "completion_tokens": int,
    "llm_cached": bool,
}


@dataclass(frozen=True, slots=True)
class ReportItem:
    setup: str
    index: int
    correct: bool
    chosen: tuple[tuple[str, ...], ...]
    gold_recall: float
    precision: float
    seconds: float
    tokens: int
    llm_called: bool
    llm_cached: bool
    llm_score: int | None


@dataclass(frozen=True, slots=True)
class SetupRow:
    setup: str
    source: str  # the file it came from
    n: int
    accuracy: float
    gold_recall: float
    precision: float
    llm_score: float | None
    llm_calls: int
    seconds_per_question: float | None  # over questions whose LLM reply was not served from the cache
    tokens_per_question: float
    fixed: int | None = None  # wrong for the baseline, right here
    broken: int | None = None  # right for the baseline, wrong here
    same_choice: float | None = None  # share of LLM calls that chose the baseline's triples


@dataclass(frozen=True, slots=True)
class JudgeSeparation:
    right_mean: float | None
    wrong_mean: float | None
    right_n: int
    wrong_n: int


def load_results(paths: Sequence[Path]) -> dict[str, tuple[str, list[ReportItem]]]:
    """setup -> (file, its items), in file order; every problem of every file is raised together."""
    problems: list[Problem] = []
    out: dict[str, tuple[str, list[ReportItem]]] = {}
    for path in paths:
        records = read_records(path)
        data = records[0].value if len(records) == 1 else None
        items = data.get("items") if isinstance(data, dict) else None
        if not isinstance(items, list):
            problems.append(Problem(str(path), "not a kgreason mecha bench result (no 'items' list)", field="items"))
            continue
        for k, raw in enumerate(items):
            item = _item(raw, str(path), k, problems)
            if item is None:
                continue
            owner = out.setdefault(item.setup, (str(path), []))
            if owner[0] != str(path):
                problems.append(Problem(str(path), f"setup {item.setup!r} is also in {owner[0]}", f"item {k}", "setup"))
                continue
            owner[1].append(item)
    if problems:
        raise DataError(problems)
    return out


def _item(raw: Any, file: str, k: int, problems: list[Problem]) -> ReportItem | None:
    if not isinstance(raw, dict):
        problems.append(Problem(file, "not an object", f"item {k}"))
        return None
    bad = False
    for name, kind in _ITEM_FIELDS.items():
        value = raw.get(name)
        # bool is an int in Python: only the fields typed bool may hold one
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            problems.append(Problem(file, f"missing or not {_kind_name(kind)}: {value!r}", f"item {k}", name))
            bad = True
    score = raw.get("llm_score")
    if score is not None and (not isinstance(score, int) or isinstance(score, bool) or not 1 <= score <= 5):
        problems.append(Problem(file, f"not null or an integer 1..5: {score!r}", f"item {k}", "llm_score"))
        bad = True
    if bad:
        return None
    tokens = int(raw["prompt_tokens"]) + int(raw["completion_tokens"])
    return ReportItem(
        setup=raw["setup"],
        index=raw["index"],
        correct=raw["correct"],
        chosen=tuple(tuple(str(x) for x in t) for t in raw["chosen"] if isinstance(t, list)),
        gold_recall=float(raw["gold_recall"]),
        precision=float(raw["precision"]),
        seconds=float(raw["seconds"]),
        tokens=tokens,
        llm_called=tokens > 0,
        llm_cached=raw["llm_cached"],
        llm_score=score,
    )


_KIND_NAMES = {"str": "a string", "int": "an integer", "float": "a number", "bool": "true/false", "list": "a list"}


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_KIND_NAMES[k.__name__] for k in kinds)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def setup_rows(results: dict[str, tuple[str, list[ReportItem]]], baseline: str | None = None) -> list[SetupRow]:
    """One row per setup; with `baseline` (a setup name present in `results`), the per-question differences."""
    if baseline is not None and baseline not in results:
        known = ", ".join(results) or "none"
        raise KgreasonError(f"no results for the baseline setup {baseline!r} (setups in the files: {known})")
    base = {it.index: it for it in results[baseline][1]} if baseline is not None else {}
    rows: list[SetupRow] = []
    for setup, (source, items) in results.items():
        fixed = broken = None
        same_choice = None
        if baseline is not None and setup != baseline:
            paired = [(it, base[it.index]) for it in items if it.index in base]
            fixed = sum(1 for it, b in paired if it.correct and not b.correct)
            broken = sum(1 for it, b in paired if b.correct and not it.correct)
            asked = [(it, b) for it, b in paired if it.llm_called]
            same_choice = _mean([1.0 if it.chosen == b.chosen else 0.0 for it, b in asked])
        scores = [float(it.llm_score) for it in items if it.llm_score is not None]
        fresh = [it.seconds for it in items if not it.llm_cached]
        rows.append(
            SetupRow(
                setup=setup,
                source=source,
                n=len(items),
                accuracy=_mean([1.0 if it.correct else 0.0 for it in items]) or 0.0,
                gold_recall=_mean([it.gold_recall for it in items]) or 0.0,
                precision=_mean([it.precision for it in items]) or 0.0,
                llm_score=_mean(scores),
                llm_calls=sum(1 for it in items if it.llm_called),
                seconds_per_question=_mean(fresh),
                tokens_per_question=_mean([float(it.tokens) for it in items]) or 0.0,
                fixed=fixed,
                broken=broken,
                same_choice=same_choice,
            )
        )
    return rows


def judge_separation(results: dict[str, tuple[str, list[ReportItem]]]) -> JudgeSeparation:
    """Mean LLM-Score of right and of wrong answers over every judged item: a judge worth its name grades the
    right ones clearly higher."""
    right = [float(it.llm_score) for _, items in results.values() for it in items if it.llm_score and it.correct]
    wrong = [float(it.llm_score) for _, items in results.values() for it in items if it.llm_score and not it.correct]
    return JudgeSeparation(_mean(right), _mean(wrong), len(right), len(wrong))


def format_report(rows: Sequence[SetupRow], separation: JudgeSeparation, baseline: str | None) -> str:
    """A Markdown table (and a line on the judge)."""

    def num(value: float | None, fmt: str) -> str:
        return "–" if value is None else format(value, fmt)

    head = "| setup | n | Accuracy | gold recall | precision | LLM-Score | LLM calls | s/question | tokens/question |"
    if baseline:
        head += f" vs {baseline}: fixed / broken | LLM chose as {baseline} |"
    cols = 9 + (2 if baseline else 0)
    lines = [head, "|" + "---|" * cols]
    for r in rows:
        line = (
            f"| {r.setup} | {r.n} | {100 * r.accuracy:.2f}% | {100 * r.gold_recall:.1f}% | {100 * r.precision:.1f}% "
            f"| {num(r.llm_score, '.3f')} | {r.llm_calls} | {num(r.seconds_per_question, '.2f')} "
            f"| {r.tokens_per_question:.0f} |"
        )
        if baseline:
            line += " – |" if r.fixed is None else f" {r.fixed} / {r.broken} |"
            line += " – |" if r.same_choice is None else f" {100 * r.same_choice:.0f}% |"
        lines.append(line)
    if separation.right_n or separation.wrong_n:
        lines.append("")
        lines.append(
            f"judge: mean LLM-Score {num(separation.right_mean, '.3f')} over {separation.right_n} right answers, "
            f"{num(separation.wrong_mean, '.3f')} over {separation.wrong_n} wrong ones"
        )
    return "\n".join(lines)
