"""`kgreason score`: the official score of a `result.json` against a `qa_answer.json` (spec 000, section 3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

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


def submetric_table(groups: Mapping[str, GroupSummary]) -> Table:
    table = Table(title="Sub-metrics (means)", title_justify="left")
    cols: tuple[str, ...] = ("em", "answer_f1", "p_t", "r_t", "triple_match", "parsimony")
    cols += ("node_coverage", "edge_order", "hop_match", "p_c", "r_c", "constraint_f1")
    heads = ("EM", "ansF1", "P_t", "R_t", "TM", "Pars", "Node", "Order", "Hop", "P_c", "R_c", "F1_c")
    table.add_column("group")
    for h in heads:
        table.add_column(h, justify="right")
    for name, g in groups.items():
        table.add_row(Text(safe_text(name, newlines=False)), *(_f(g.metrics[c]) for c in cols))
    return table


def question_table(questions: Sequence[QuestionScore]) -> Table:
    table = Table(title="Per question", title_justify="left")
    heads: tuple[str, ...] = ("query_id", "lvl", "type", "score", "Ans", "P_t", "R_t", "TM", "Pars", "path")
    heads += ("Node", "Order", "Hop", "P_c", "R_c", "F1_c", "notes")
    for h in heads:
        table.add_column(h, justify="left" if h in ("query_id", "lvl", "type", "path", "notes") else "right")
    for q in questions:
        notes = "missing" if q.status == "missing" else ""
        if q.zeroed:
            notes = "malformed: " + ", ".join(_SHORT.get(f, f) for f in q.zeroed)
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
            Text(notes),
        )
    return table


def _ids(label: str, ids: Sequence[str], console: Console) -> None:
    if ids:
        more = len(ids) - SHOW_AT_MOST
        shown = ", ".join(ids[:SHOW_AT_MOST]) + (f", … ({more} more)" if more > 0 else "")
        console.print(safe_text(f"{label} ({len(ids)}): {shown}", newlines=False), markup=False)


def render(report: ScoreReport, console: Console, *, per_question: bool = False) -> None:
    """The report for a terminal: overall, per level, per answer type, optionally every question."""
    overall = {"overall": report.overall}
    console.print(
        f"Total score {report.total:.4f} over {report.count} question(s), mean {report.mean:.4f}", markup=False
    )
    console.print(summary_table("Overall and per level", {**overall, **report.by_level}))
    console.print(summary_table("Per answer type", {**report.by_answer_kind, **report.by_answer_type}))
    console.print(submetric_table({**overall, **report.by_level}))
    if per_question:
        console.print(question_table(report.per_question))
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
    @app.command("score")
    def score(
        pred: Annotated[Path, typer.Option("--pred", help="The predictions (result.json).")],
        gold: Annotated[Path, typer.Option("--gold", help="The gold answers (qa_answer.json).")],
        json_path: Annotated[
            Path | None, typer.Option("--json", help="Also write the full report (every question) as JSON here.")
        ] = None,
        per_question: Annotated[bool, typer.Option("--per-question", help="Show every question's scores.")] = False,
    ) -> None:
        """Score predictions with the task's official metric (spec 000 section 3; see docs/scoring.md).

        Malformed items are reported and score 0 on the affected component; exit 2 only for an unreadable file.
        """
        report = score_files(pred, gold)
        console = Console(highlight=False)
        if not console.is_terminal:  # piped or redirected: do not squeeze the tables into 80 columns
            console = Console(highlight=False, width=200)
        render(report, console, per_question=per_question)
        if json_path is not None:
            try:
                write_json_atomic(json_path, report.to_json())
            except OSError as exc:
                raise KgreasonError(f"cannot write the report to {json_path}: {exc.strerror or exc}") from None
            typer.echo(f"Report written to {json_path}")
