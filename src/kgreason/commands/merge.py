"""`kgreason merge DATA_DIR SHARD... -o OUT`: one run's output from the runs of several machines over parts of a
dataset (docs/scaling.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgreason.commands import Command, examples
from kgreason.commands.run_output import check_writable, resolve_output
from kgreason.data.loader import load_dataset
from kgreason.reason.runner import default_trace_path, merge_journals
from kgreason.text.terminal import safe_text

HELP = "\n\n".join(
    [
        "Merge the outputs of `kgreason run` over parts of one dataset (each machine given other --shard K/N or "
        "--only questions, all with the same settings) into one output: its trace holds every answered question "
        "once, in the dataset's order, and its result.json is written from it. Shards written with other settings "
        "are refused, naming what differs.",
        "Questions no shard answered are listed; `kgreason run DATA_DIR -o OUT` with the shards' settings then "
        "answers only those (it resumes the merged trace).",
        "Each SHARD is a shard's output folder or result file (its trace beside it) or its trace itself.",
        examples(
            "kgreason merge DATA runs/part1 runs/part2 runs/part3 -o runs/all",
            "kgreason merge DATA m1/result.trace.jsonl m2/result.trace.jsonl -o runs/all/result.json",
        ),
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="merge", help=HELP, no_args_is_help=True, cls=Command)(merge)


def shard_trace(raw: str) -> Path:
    """The trace of a shard named by its output folder, its result file or the trace itself."""
    if raw.endswith(".jsonl"):
        return Path(raw)
    return default_trace_path(resolve_output(raw))


def merge(
    data_dir: Annotated[Path, typer.Argument(metavar="DATA_DIR", help="The dataset the shards answered.")],
    shards: Annotated[list[str], typer.Argument(metavar="SHARD...", help="The shards' outputs (or traces).")],
    output: Annotated[
        str, typer.Option("-o", "--output", metavar="PATH", help="Output folder or result file of the merged run.")
    ],
) -> None:
    result_path = resolve_output(output)
    trace_path = default_trace_path(result_path)
    for path in (result_path, trace_path):
        check_writable(path, "-o")
    dataset, _ = load_dataset(data_dir, check_gold=False)
    summary = merge_journals(dataset, [shard_trace(s) for s in shards], result_path, trace_path)
    for shard, lines in summary.damaged.items():
        typer.echo(safe_text(f"warning: {shard}: damaged line(s) {lines[:5]} skipped"), err=True)
    line = f"merged {summary.merged} of {len(dataset.questions)} questions from {len(shards)} shard(s)"
    if summary.duplicates:
        line += f"; {summary.duplicates} answered in several shards (the first shard's answer kept)"
    typer.echo(safe_text(line), err=True)
    if summary.missing:
        shown = ", ".join(summary.missing[:5]) + (" ..." if len(summary.missing) > 5 else "")
        typer.echo(
            safe_text(
                f"{len(summary.missing)} question(s) not answered by any shard ({shown}); run `kgreason run "
                f"{data_dir} -o {output}` with the shards' settings to answer them"
            ),
            err=True,
        )
    typer.echo(safe_text(f"wrote {result_path} and {trace_path}"), err=True)
