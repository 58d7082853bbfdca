"""`kgreason extract SOURCE -o OUT`: documents → one KG_<doc_id>.json per document with sentence provenance."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kgreason.commands import Command, examples, open_llm
from kgreason.commands.interrupt import run_or_stop
from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import KgreasonError
from kgreason.extract.inputs import read_inputs
from kgreason.extract.output import write_document
from kgreason.extract.pipeline import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_WINDOW,
    ExtractSettings,
    ExtractStats,
    extract_document,
)
from kgreason.extract.progress import ExtractProgress
from kgreason.extract.prompt import MAX_TRIPLES_PER_SENTENCE
from kgreason.extract.sentences import split_sentences
from kgreason.llm.factory import close_llm, llm_accounting
from kgreason.text.terminal import safe_text

RUN_RECORD = "extract.run.json"
EXIT_INCOMPLETE = 3  # as `kgreason run`: outputs written, but some windows were skipped or some documents are empty
HELP = "\n\n".join(
    [
        "Extract a KG from text: for each document one KG_<doc_id>.json in the task's format and one "
        "provenance_<doc_id>.jsonl (per triple: the sentence it was read from, its character span and the "
        "mentions of subject and object in that sentence).",
        "SOURCE is the task's document.json, a folder holding one (its qa.json is copied too, so OUT is a dataset "
        "folder `kgreason validate` and `kgreason run` accept), or a folder of .txt/.md files (doc_id = file "
        "stem). Chinese or English.",
        "Sentences are split by the program, dates and quantities found by its parsers; the LLM lists triples "
        "per sentence under a JSON schema; each subject and object is checked against the cited sentence (and "
        "repaired or dropped); names are made one per thing within a document; types come from a closed list. "
        "Replies are cached: an interrupted run, rerun, repeats no LLM call. Exit status: 0 done; 2 bad input or "
        "settings; 3 outputs written but some windows were skipped after two malformed replies, or a document gave "
        "no triples (no KG file is written for it); 130 interrupted.",
        examples(
            "kgreason extract examples/sample -o runs/extracted",
            "kgreason extract notes/ -o runs/notes_kg --window 3",
            "kgreason extract DATA -o OUT --llm 'openai:http://127.0.0.1:8080/v1#local?dialect=llamacpp'",
        ),
        "See docs/extract.md for the method and measured quality.",
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="extract", help=HELP, no_args_is_help=True, cls=Command)(extract)


def extract(
    source: Annotated[
        Path, typer.Argument(metavar="SOURCE", help="document.json, a folder with one, or a folder of .txt/.md files.")
    ],
    out: Annotated[Path, typer.Option("-o", "--out", help="Output folder.")],
    llm_spec: Annotated[
        str, typer.Option("--llm", help="Model that reads the sentences: embedded | embedded-small | openai:URL#MODEL.")
    ] = "embedded",
    window: Annotated[int, typer.Option(help="Sentences per LLM call.", min=1, max=8)] = DEFAULT_WINDOW,
    max_tokens: Annotated[
        int, typer.Option("--max-tokens", help="Generated tokens allowed per call.", min=32)
    ] = DEFAULT_MAX_TOKENS,
    max_lines: Annotated[
        int, typer.Option("--max-lines", help="Triples the model may list per sentence.", min=1, max=30)
    ] = MAX_TRIPLES_PER_SENTENCE,
    reask: Annotated[
        bool,
        typer.Option(
            "--reask/--no-reask",
            help="Ask a sentence of a window again alone when no triple cites it (one more call per such sentence).",
        ),
    ] = True,
    open_values: Annotated[
        bool,
        typer.Option(
            "--open-values/--no-open-values",
            help="Attribute the dates and numbers of a sentence that no triple holds to the name that begins "
            "their clause (by the program, no call).",
        ),
    ] = True,
) -> None:
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    documents = read_inputs(source)  # bad input: DataError, printed by the CLI with file/record/field, exit 2
    if out.exists() and not out.is_dir():
        raise KgreasonError(f"-o {out}: exists and is not a folder")
    if llm_spec.strip().lower() == "none":
        raise KgreasonError("extract needs a model: --llm embedded, embedded-small or openai:URL#MODEL")
    settings = ExtractSettings(
        window=window, max_tokens=max_tokens, reask_silent=reask, max_lines=max_lines, open_values=open_values
    )
    llm = open_llm(llm_spec)
    if llm is None:  # parse_spec gave "none" in another spelling
        raise KgreasonError("extract needs a model: --llm embedded, embedded-small or openai:URL#MODEL")
    total_windows = sum(
        -(-len(split_sentences(d.doc_id, d.content)) // settings.window) for d in documents
    )  # ceiling division: windows of the last partial size count too
    progress = ExtractProgress(err, total_windows)
    totals = ExtractStats()
    per_doc: dict[str, dict[str, object]] = {}
    started = time.monotonic()
    empty: list[str] = []

    def extract_all() -> int:
        written = 0
        for doc in documents:
            result = extract_document(llm, doc, settings, progress.window)
            totals.add(result.stats)
            per_doc[doc.doc_id] = {**result.stats.to_json(), "triples": len(result.triples)}
            written += len(result.triples)
            if not result.triples:  # an empty KG file would not validate: none is written, and the exit says so
                empty.append(doc.doc_id)
                err.print(safe_text(f"warning: {doc.doc_id}: no triples extracted, no KG file written"), markup=False)
                continue
            write_document(out, result)
            err.print(safe_text(f"{doc.doc_id}: {len(result.triples)} triples written"), markup=False)
            for warning in result.stats.warnings:
                err.print(safe_text(f"warning: {warning}", newlines=False), markup=False)
        return written

    stopped = "interrupted: extract stopped; finished documents are written and the replies so far are cached, so "
    stopped += "the same command goes on quickly"
    try:
        # on a worker thread, so Ctrl-C/SIGTERM stop at once even while the model is in a call
        n_triples = run_or_stop(extract_all, lambda text: err.print(text, markup=False), stopped)
    finally:
        accounting = llm_accounting(llm)
        close_llm(llm)
    write_json_atomic(out / "document.json", [{"doc_id": d.doc_id, "content": d.content} for d in documents])
    questions = (source if source.is_dir() else source.parent) / "qa.json"
    task_layout = source.name == "document.json" or (source.is_dir() and (source / "document.json").is_file())
    if task_layout and questions.is_file():
        shutil.copyfile(questions, out / "qa.json")
    record = {
        "source": str(source),
        "llm": llm_spec,
        "window": settings.window,
        "max_tokens": settings.max_tokens,
        "max_lines": settings.max_lines,
        "reask": settings.reask_silent,
        "open_values": settings.open_values,
        "seconds": round(time.monotonic() - started, 2),
        "totals": {**totals.to_json(), "triples": n_triples},
        "documents": per_doc,
        "empty_documents": empty,
        "llm_usage": accounting.summary() if accounting is not None else None,
    }
    write_json_atomic(out / RUN_RECORD, record)
    line = accounting.line() if accounting is not None else ""
    typer.echo(safe_text(f"{len(documents)} document(s), {n_triples} triples → {out}" + (f"; {line}" if line else "")))
    if totals.skipped_windows:
        err.print(f"warning: {totals.skipped_windows} window(s) skipped after malformed replies", markup=False)
    if totals.skipped_windows or empty:
        raise typer.Exit(EXIT_INCOMPLETE)
