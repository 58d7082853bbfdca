"""`kgreason ask DATA_DIR "问题"`: one question over a corpus, with or without a doc_id."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgreason.commands import open_llm
from kgreason.corpus.answer import Corpus
from kgreason.corpus.render import render_answer
from kgreason.llm.factory import close_llm
from kgreason.text.terminal import safe_json, safe_text

HELP = "\n\n".join(
    [
        "Answer one question over a dataset folder in the task's layout. Without --doc, the documents are found by "
        "the question's names (a corpus-wide entity index; several documents' KGs are joined when a chain needs "
        "them). Prints the answer, the evidence chain with each triple's document and source sentence, and the "
        "constraints; a question asking how an event went (…的经过是什么) gets an ordered account.",
        "Examples:",
        '    kgreason ask examples/sample "F-35C的翼展是多少？"',
        '    kgreason ask examples/sample "黑海对峙事件的经过是什么？" --json',
        "See docs/ask_and_chat.md.",
    ]
)

DATA_ARG = typer.Argument(metavar="DATA_DIR", help="Dataset folder in the task's layout.")
LLM_HELP = (
    "Model that chooses among close candidates (and resolves unclear references in chat): none | embedded | "
    "embedded-small | openai:URL#MODEL | ensemble:SPEC,SPEC."
)


def register(app: typer.Typer) -> None:
    app.command(name="ask", help=HELP, no_args_is_help=True)(ask)


def ask(
    data_dir: Annotated[Path, DATA_ARG],
    question: Annotated[str, typer.Argument(metavar="QUESTION", help="The question (Chinese or English).")],
    doc: Annotated[str | None, typer.Option("--doc", metavar="DOC_ID", help="Answer over this document.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
    llm: Annotated[str, typer.Option("--llm", help=LLM_HELP)] = "none",
) -> None:
    model = open_llm(llm)
    try:
        result = Corpus.load(data_dir, llm=model).answer(question, doc)
    finally:
        close_llm(model)
    if as_json:
        typer.echo(safe_json(result.to_json()))
    else:
        typer.echo(safe_text(render_answer(result)))
