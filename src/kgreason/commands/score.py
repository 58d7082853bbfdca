"""`kgreason score`: the official score of a `result.json` against a `qa_answer.json` (spec 000, section 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kgreason.commands import Command
from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import KgreasonError
from kgreason.eval.official import GroupSummary, QuestionScore, ScoreReport, score_files
from kgreason.text.terminal import safe_text

# How many problems / ids the terminal shows before pointing at the JSON report.
SHOW_AT_MOST = 20
_SHORT = {"gold_reasoning_paths_main": "path"}


def _f(x: float) -> str:
    return f"{x:.3f}"


def summary_table(title: str, groups: Mapping[str, GroupSummary]) -> Table:
    table = Table(title=title, title_justify="left")
    for name in ("group", "n", "total", "mean", "Answer", "Evidence", "Reasoning", "Constraint"):
        table.add_column(name, justify="left" if name == "group" else "right")
    for name, g in groups.items():
        m = g.metrics
        table.add_row(
            Text(safe_text(name, newlines=False)),  # Text, not markup, and escaped: names come from the files
            str(g.count),
            _f(g.total),
            _f(g.mean),
            _f(m["answer"]),
            _f(m["evidence"]),
            _f(m["reasoning"]),
            _f(m["constraint"]),
        )
    return table


# The sub-metrics, as (title, [(metric key, column head)]): two tables of six, each fits 80 columns.
SUBMETRICS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Answer and evidence sub-metrics (means)",
        (("em", "EM"), ("answer_f1", "ansF1"), ("p_t", "P_t"), ("r_t", "R_t"), ("triple_match", "TM")),
    ),
    (
        "Reasoning and constraint sub-metrics (means)",
        (("parsimony", "Pars"), ("node_coverage", "Node"), ("edge_order", "Order"), ("hop_match", "Hop")),
    ),
    ("", (("p_c", "P_c"), ("r_c", "R_c"), ("constraint_f1", "F1_c"))),
)


def submetric_tables(groups: Mapping[str, GroupSummary], *, wide: bool = False) -> list[Table]:
    """The twelve sub-metrics: one table when `wide`, else two that fit 80 columns."""
    parts = [(title, cols) for title, cols in SUBMETRICS]
    if wide:
        merged = tuple(c for _, cols in parts for c in cols)
        parts = [("Sub-metrics (means)", merged)]
    else:  # answer+evidence | parsimony+reasoning+constraint
        parts = [parts[0], (parts[1][0], parts[1][1] + parts[2][1])]
    tables = []
    for title, cols in parts:
        table = Table(title=title, title_justify="left")
        table.add_column("group")
        for _, head in cols:
            table.add_column(head, justify="right")
        for name, g in groups.items():
            table.add_row(Text(safe_text(name, newlines=False)), *(_f(g.metrics[key]) for key, _ in cols))
        tables.append(table)
    return tables


def _notes(q: QuestionScore) -> str:
    if q.zeroed:
        return "malformed: " + ", ".join(_SHORT.get(f, f) for f in q.zeroed)
    return "missing" if q.status == "missing" else ""


def question_table(questions: Sequence[QuestionScore], *, wide: bool = False) -> Table:
    """Every question: its score and four components (fits 80 columns), or with `wide` every sub-metric."""
    table = Table(title="Per question", title_justify="left")
    if not wide:
        for h in ("query_id", "lvl", "score", "Answer", "Evid.", "Reas.", "Cons.", "notes"):
            table.add_column(h, justify="left" if h in ("query_id", "lvl", "notes") else "right")
        for q in questions:
            table.add_row(
                Text(q.query_id),
                q.level,
                _f(q.score),
                _f(q.answer.score),
                _f(q.evidence.score),
                _f(q.reasoning.score),
                _f(q.constraint.score),
                Text(_notes(q)),
            )
        return table
    heads: tuple[str, ...] = ("query_id", "lvl", "type", "score", "Ans", "P_t", "R_t", "TM", "Pars", "path")
    heads += ("Node", "Order", "Hop", "P_c", "R_c", "F1_c", "notes")
    for h in heads:
        table.add_column(h, justify="left" if h in ("query_id", "lvl", "type", "path", "notes") else "right")
    for q in questions:
        table.add_row(
            Text(safe_text(q.query_id, newlines=False)),
            safe_text(q.level, newlines=False),
            Text(safe_text(f"{q.answer_type or '-'} ({q.kind})", newlines=False)),
            _f(q.score),
            _f(q.answer.score),
            _f(q.evidence.precision),
            _f(q.evidence.recall),
            _f(q.evidence.triple_match),
            _f(q.evidence.parsimony),
            Text(safe_text(q.evidence.matched_path or "-", newlines=False)),
            _f(q.reasoning.node_coverage),
            _f(q.reasoning.edge_order),
            _f(q.reasoning.hop_match),
            _f(q.constraint.precision),
            _f(q.constraint.recall),
            _f(q.constraint.f1),
            Text(_notes(q)),
        )
    return table


def _ids(label: str, ids: Sequence[str], console: Console) -> None:
    if ids:
        more = len(ids) - SHOW_AT_MOST
        shown = ", ".join(ids[:SHOW_AT_MOST]) + (f", … ({more} more)" if more > 0 else "")
        console.print(safe_text(f"{label} ({len(ids)}): {shown}", newlines=False), markup=False)


def render(report: ScoreReport, console: Console, *, per_question: bool = False, wide: bool = False) -> None:
    """The report for a terminal: overall, per level, per answer type, optionally every question. Without `wide`
    every table fits 80 columns."""
    overall = {"overall": report.overall}
    console.print(
        f"Total score {report.total:.4f} over {report.count} question(s), mean {report.mean:.4f}", markup=False
    )
    console.print(summary_table("Overall and per level", {**overall, **report.by_level}))
    console.print(summary_table("Per answer type", {**report.by_answer_kind, **report.by_answer_type}))
    for table in submetric_tables({**overall, **report.by_level}, wide=wide):
        console.print(table)
    if per_question:
        console.print(question_table(report.per_question, wide=wide))
    _ids("Missing predictions, scored 0", report.missing, console)
    _ids("Unknown query_ids, ignored", report.unknown, console)
    _ids("Duplicate query_ids, first record scored", report.duplicates, console)
    _ids("Malformed gold items, left out of the totals", report.skipped_gold, console)
    errors = [p for p in report.problems if p.severity == "error"]
    warnings = len(report.problems) - len(errors)
    for p in errors[:SHOW_AT_MOST]:
        console.print(str(p), markup=False)
    if len(errors) > SHOW_AT_MOST:
        console.print(f"… {len(errors) - SHOW_AT_MOST} more error(s), listed in the JSON report", markup=False)
    if errors or warnings:
        console.print(f"{len(errors)} error(s), {warnings} warning(s) in the input files", markup=False)


def register(app: typer.Typer) -> None:
    @app.command("score", cls=Command)
    def score(
        pred: Annotated[Path, typer.Option("--pred", help="The predictions (result.json).")],
        gold: Annotated[Path, typer.Option("--gold", help="The gold answers (qa_answer.json).")],
        json_path: Annotated[
            Path | None, typer.Option("--json", help="Also write the full report (every question) as JSON here.")
        ] = None,
        per_question: Annotated[bool, typer.Option("--per-question", help="Show every question's scores.")] = False,
        wide: Annotated[
            bool,
            typer.Option(
                "--wide", help="Every sub-metric in one table and every column per question (needs ~160 columns)."
            ),
        ] = False,
    ) -> None:
        """Score predictions with the task's official metric (spec 000 section 3; see docs/scoring.md).

        Malformed items are reported and score 0 on the affected component; exit 2 only for an unreadable file.
        """
        report = score_files(pred, gold)
        console = Console(highlight=False)
        if not console.is_terminal:  # piped or redirected: never squeeze the tables (a --wide one needs ~160)
            console = Console(highlight=False, width=200)
        render(report, console, per_question=per_question, wide=wide)
        if json_path is not None:
            try:
                write_json_atomic(json_path, report.to_json())
            except OSError as exc:
                raise KgreasonError(f"cannot write the report to {json_path}: {exc.strerror or exc}") from None
            typer.echo(f"Report written to {json_path}")
