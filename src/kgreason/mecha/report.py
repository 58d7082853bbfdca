"""One table from several `kgreason mecha bench` result files (setups are often run one per file, each its own
process), with what a single file cannot show: how each setup differs from a baseline setup question by question
(questions it fixes and breaks), and how well the LLM-Score judge separates right answers from wrong ones.

Input: the JSON that `mecha_bench.results_json` writes (`meta`, `summary`, `items`). Bad files raise `DataError`
naming the file, the record and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import read_records
from kgreason.errors import DataError, KgreasonError, Problem
from kgreason.llm.schema import validate
from kgreason.mecha.bench import ItemResult, summarise

_STRING = {"type": "string"}
_NUMBER = {"type": "number"}
_INTEGER = {"type": "integer"}
# The fields of a bench result item that the report reads: each must be present and valid.
_REQUIRED: dict[str, dict[str, Any]] = {
    "setup": _STRING,
    "index": _INTEGER,
    "correct": {"type": "boolean"},
    "chosen": {"type": "array", "items": {"type": "array", "items": _STRING}},
    "gold_recall": _NUMBER,
    "precision": _NUMBER,
    "seconds": _NUMBER,
    "prompt_tokens": _INTEGER,
    "completion_tokens": _INTEGER,
    "llm_cached": {"type": "boolean"},
}
# The other fields of `ItemResult`: checked when present, else their default.
_OPTIONAL: dict[str, tuple[dict[str, Any], Any]] = {
    "question": (_STRING, ""),
    "answer": (_STRING, ""),
    "answer_entities": ({"type": "array", "items": _STRING}, []),
    "n_candidates": (_INTEGER, 0),
    "failure": ({"type": ["string", "null"]}, None),
    "llm_score": ({"type": ["integer", "null"], "minimum": 1, "maximum": 5}, None),
}


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


def load_results(paths: Sequence[Path]) -> dict[str, tuple[str, list[ItemResult]]]:
    """setup -> (file, its items), in file order; every problem of every file is raised together."""
    problems: list[Problem] = []
    out: dict[str, tuple[str, list[ItemResult]]] = {}
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


def _item(raw: Any, file: str, k: int, problems: list[Problem]) -> ItemResult | None:
    if not isinstance(raw, dict):
        problems.append(Problem(file, "not an object", f"item {k}"))
        return None
    found = len(problems)
    values: dict[str, Any] = {name: copy(default) for name, (_, default) in _OPTIONAL.items()}
    schemas = {**_REQUIRED, **{name: schema for name, (schema, _) in _OPTIONAL.items()}}
    for name, schema in schemas.items():
        if name not in raw:
            if name in _REQUIRED:
                problems.append(Problem(file, "missing", f"item {k}", name))
            continue
        errors = validate(raw[name], schema)
        if errors:
            problems.append(Problem(file, errors[0].removeprefix("/: "), f"item {k}", name))
        values[name] = raw[name]
    return ItemResult(**values) if len(problems) == found else None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def setup_rows(results: dict[str, tuple[str, list[ItemResult]]], baseline: str | None = None) -> list[SetupRow]:
    """One row per setup (the means of `mecha_bench.summarise`); with `baseline` (a setup name present in
    `results`), the per-question differences."""
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
            asked = [(it, b) for it, b in paired if _llm_called(it)]
            same_choice = _mean([1.0 if it.chosen == b.chosen else 0.0 for it, b in asked])
        summary = summarise(setup, items)
        rows.append(
            SetupRow(
                setup=setup,
                source=source,
                n=summary.n,
                accuracy=summary.accuracy,
                gold_recall=summary.gold_recall,
                precision=summary.precision,
                llm_score=summary.llm_score,
                llm_calls=sum(1 for it in items if _llm_called(it)),
                seconds_per_question=summary.seconds_per_question,
                tokens_per_question=summary.tokens_per_question,
                fixed=fixed,
                broken=broken,
                same_choice=same_choice,
            )
        )
    return rows


def _llm_called(item: ItemResult) -> bool:
    # a reply served from the response cache keeps its token counts, so this counts calls, cached or not
    return item.prompt_tokens + item.completion_tokens > 0


def judge_separation(results: dict[str, tuple[str, list[ItemResult]]]) -> JudgeSeparation:
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
