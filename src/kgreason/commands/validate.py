"""`kgreason validate DIR`: check a dataset folder (or one answer file) and say what is wrong, where."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgreason.commands import Command, examples
from kgreason.conventions import load_conventions
from kgreason.data.validate import ValidationReport, check_answer_file, check_dataset, plural
from kgreason.errors import DataError
from kgreason.text.terminal import safe_json, safe_text

# Paragraphs are single strings: the help formatter re-wraps lines, and a blank line separates paragraphs.
HELP = "\n\n".join(
    [
        "Check a dataset folder: every file, record and field, the links between files and, when qa_answer.json "
        "is there, the gold answers and reasoning paths against the KG.",
        "The folder holds document.json, one KG_<doc_id>.json per document, qa.json and optionally qa_answer.json "
        "(JSON arrays or JSON Lines, UTF-8). A single result.json or qa_answer.json file is checked on its own.",
        "Prints a summary and the warnings. Errors go to stderr, each naming the file, the record and the field; "
        "the exit code is then 2. With --strict, warnings alone make the exit code 1.",
        examples(
            "kgreason validate examples/sample",
            "kgreason validate examples/sample --strict --json > report.json",
            "kgreason validate DATA --conventions learned.json   (another annotator's conventions)",
        ),
        "See docs/data.md for every check and which ones are fatal.",
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="validate", help=HELP, no_args_is_help=True, cls=Command)(validate)


def validate(
    folder: Annotated[
        Path,
        typer.Argument(
            metavar="DIR",
            help="Dataset folder (document.json, KG_<doc_id>.json, qa.json[, qa_answer.json]) or one answer file.",
            show_default=False,
        ),
    ],
    strict: Annotated[bool, typer.Option("--strict", help="Fail (exit 1) when there are warnings.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a machine-readable report (summary, errors, warnings) to stdout.")
    ] = False,
    conventions_file: Annotated[
        Path | None,
        typer.Option(
            "--conventions",
            help="Read gold answers in these annotation conventions (a file from `kgreason conventions learn`); "
            "default: the packaged ones.",
        ),
    ] = None,
) -> None:
    conventions = load_conventions(conventions_file) if conventions_file is not None else None
    # Anything there but a folder is read as one answer file (a pipe or a device is then refused as such).
    is_file = folder.exists() and not folder.is_dir()
    report = check_answer_file(folder) if is_file else check_dataset(folder, conventions=conventions)
    failed = bool(report.errors) or (strict and bool(report.warnings))
    if as_json:
        data = report.to_json()
        data.update(ok=not failed, strict=strict)
        typer.echo(safe_json(data))
    elif folder.exists():  # a missing folder has nothing to summarise: its error says it all
        _print_text(report, failed)
    if report.errors:
        raise DataError(report.errors)  # printed on stderr by kgreason.cli.main, exit 2
    if strict and report.warnings:
        typer.echo(f"failed: {plural(len(report.warnings), 'warning')} and --strict", err=True)
        raise typer.Exit(1)


def _print_text(report: ValidationReport, failed: bool) -> None:
    typer.echo(safe_text(f"{report.root}: {report.summary}"))
    for warning in report.warnings:
        typer.echo(str(warning))
    if not failed:
        typer.echo(f"OK: no errors, {plural(len(report.warnings), 'warning')}.")
