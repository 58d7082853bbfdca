"""`kgreason conventions learn GOLD.json` and `kgreason conventions show [FILE]`: annotation conventions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from kgreason.commands import Command, examples
from kgreason.conventions.model import (
    CONSTRAINT_KIND_MEANINGS,
    OPERATOR_MEANINGS,
    Conventions,
    default_conventions,
    load_conventions,
)
from kgreason.data.jsonio import write_json_atomic
from kgreason.data.records import AnswerRecord, KGTriple
from kgreason.errors import DataError, KgreasonError
from kgreason.text.terminal import safe_json, safe_text

GOLD_FILE = "qa_answer.json"

HELP = "\n\n".join(
    [
        "Annotation conventions: the derived relation names (数值大于 or 大于), how counts are written (4 or 4艘), "
        "the yes/no words, the answer_type of set answers (实体集合 or 装备集合) and the constraint keys (order or "
        "compare). See docs/conventions.md.",
        examples(
            "kgreason conventions show",
            "kgreason conventions learn DATA/qa_answer.json -o conventions.json",
            "kgreason conventions show conventions.json --json",
        ),
    ]
)
LEARN_HELP = "\n\n".join(
    [
        "Infer the conventions a gold qa_answer.json follows and print what was learned from how many examples.",
        "The KG files next to it (KG_<doc_id>.json) are used, unless --no-kg, to tell KG facts from derived "
        "triples, to find periods' start and end, and to read the answers' node types. Whatever the gold does not "
        "show is kept from the project's defaults.",
        "With -o the learned conventions are written there (JSON, the format of `kgreason conventions show "
        "--json`); without it they are printed after the report.",
    ]
)
SHOW_HELP = (
    "Print a conventions file (default: the project's defaults), filled in from the defaults where it is silent."
)


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="conventions", help=HELP, no_args_is_help=True, add_completion=False)
    group.command(name="learn", help=LEARN_HELP, no_args_is_help=True, cls=Command)(learn_command)
    group.command(name="show", help=SHOW_HELP, cls=Command)(show_command)
    app.add_typer(group, name="conventions")


def _fail(exc: DataError | KgreasonError) -> NoReturn:
    """The message on stderr, each problem naming its file and field; exit 2 (as `kgreason.cli.main` does)."""
    if isinstance(exc, DataError):
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        typer.echo(f"{len(exc.problems)} problem(s).", err=True)
    else:
        typer.echo(safe_text(f"error: {exc}"), err=True)
    raise typer.Exit(2)


def learn_command(
    gold: Annotated[
        Path,
        typer.Argument(
            metavar="GOLD.json",
            help="A gold qa_answer.json (JSON array or JSON Lines), or a dataset folder that holds one.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the learned conventions (JSON) here.")
    ] = None,
    no_kg: Annotated[bool, typer.Option("--no-kg", help="Do not read the KG files next to the gold file.")] = False,
) -> None:
    from kgreason.conventions.learn import learn  # reads typed values and the lexicon: only when learning

    try:
        path = gold / GOLD_FILE if gold.is_dir() else gold
        items = _read_gold(path)
        kgs, notes = ({}, []) if no_kg else _read_kgs(path.parent, items)
        conventions, report = learn(items, kgs=kgs)
        conventions = replace(
            conventions, description=f"learned from {path} ({len(items)} gold items) by kgreason conventions learn"
        )
        for note in notes:
            typer.echo(safe_text(note))
        typer.echo(safe_text(str(report)))
        if output is not None:
            try:
                write_json_atomic(output, conventions.to_json())
            except OSError as exc:
                raise KgreasonError(f"cannot write the conventions to {output}: {exc.strerror or exc}") from None
            typer.echo(f"Conventions written to {output}")
        else:
            typer.echo("Learned conventions (JSON; -o FILE writes them to a file):")
            typer.echo(safe_json(conventions.to_json()))
    except (DataError, KgreasonError) as exc:
        _fail(exc)


def _read_gold(path: Path) -> list[AnswerRecord]:
    from kgreason.data.loader import load_answer_file

    items, _ = load_answer_file(path)
    return items


def _read_kgs(folder: Path, items: Sequence[AnswerRecord]) -> tuple[dict[str, list[KGTriple]], list[str]]:
    """The KG of each document the gold items name, from KG_<doc_id>.json (or KG_01.json for doc_01) beside the
    gold file. A KG file with errors is left out, with a note."""
    from kgreason.data.readers import read_kg
    from kgreason.data.validate import kg_file_key

    doc_ids = {item.doc_id for item in items}
    kgs: dict[str, list[KGTriple]] = {}
    notes: list[str] = []
    for file in sorted(folder.iterdir()):
        key = kg_file_key(file.name)
        if key is None:
            continue
        doc_id = key if key in doc_ids or f"doc_{key}" not in doc_ids else f"doc_{key}"
        result = read_kg(file)
        if result.has_errors or not result.readable:
            notes.append(f"note: {file} has errors (see kgreason validate); not used")
            continue
        kgs[doc_id] = [t.value for t in result.items]
    return kgs, notes


def show_command(
    file: Annotated[
        Path | None,
        typer.Argument(metavar="[FILE]", help="A conventions JSON file; default: the project's defaults."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the complete JSON form instead.")] = False,
) -> None:
    try:
        conventions = default_conventions() if file is None else load_conventions(file)
    except DataError as exc:
        _fail(exc)
    if as_json:
        typer.echo(safe_json(conventions.to_json()))
        return
    for line in describe_conventions(conventions):
        typer.echo(safe_text(line))


def describe_conventions(conv: Conventions) -> list[str]:
    """The conventions in words, one line per choice."""
    where = conv.source or "the project's defaults (kgreason/conventions/default.json)"
    out = [f"Conventions: {where}"]
    if conv.description:
        out.append(f"  {conv.description}")
    out.append("Derived relations (operator: name written; other names read):")
    for r in conv.relations:
        also = [n for n in r.accept if n != r.write]
        extra = f"; also reads {', '.join(also)}" if also else ""
        out.append(f"  {r.operator}: {r.write}{extra}  ({OPERATOR_MEANINGS[r.operator]})")
    out.append("Answers:")
    out.append(f"  yes/no: answer_type {conv.boolean_type}, answers {conv.yes} / {conv.no}")
    example = conv.format_count(4, "艘")
    how = "a bare number" if conv.count_format == "bare" else "the number and its measure word"
    out.append(f"  counts: answer_type {conv.number_type}, written as {how} ({example})")
    if conv.set_types.style == "generic":
        out.append(f"  sets: answer_type {conv.set_types.generic}")
    else:
        sample = conv.set_answer_type("装备")
        out.append(
            f"  sets: answer_type <members' type>{conv.set_types.suffix} ({sample}); "
            f"{conv.set_types.generic} when the type is unknown"
        )
    out.append("Constraint keys (kind: key):")
    for kind, key in conv.constraint_keys:
        shown = key if key is not None else "(no key of its own)"
        out.append(f"  {kind}: {shown}  ({CONSTRAINT_KIND_MEANINGS[kind]})")
    if conv.other_constraint_keys:
        out.append(f"  other keys: {', '.join(conv.other_constraint_keys)}")
    for kind, levels in conv.constraint_levels:
        out.append(f"  {kind} written at {', '.join(levels)} only")
    return out
