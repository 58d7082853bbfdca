"""`kgreason chat DATA_DIR`: a multi-turn conversation over a corpus (a prompt on a terminal, one question per line
when stdin is piped)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from kgreason.commands import open_llm
from kgreason.commands.ask import DATA_ARG, LLM_HELP
from kgreason.corpus.answer import Corpus
from kgreason.corpus.dialogue import Turn
from kgreason.corpus.render import render_answer
from kgreason.corpus.session import ChatSession
from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import KgreasonError
from kgreason.llm.factory import close_llm
from kgreason.text.terminal import safe_json, safe_text

PROMPT = "问> "
HELP_TEXT = "/reset 清空对话  /history 对话记录  /save FILE 保存对话(JSON)  /quit 退出  /help 帮助"
HELP = "\n\n".join(
    [
        "Converse over a dataset folder in the task's layout. Follow-up questions may refer back (它的首舰何时服役？, "
        "她救了谁？, 那些导弹是谁研制的？, F-35B呢？, 后来呢？): the dialogue state keeps the entities mentioned and "
        "answered so far, the program resolves references where the state leaves one choice and the LLM (--llm) "
        "chooses among the state's entities where it leaves several; the resolved question is shown before the "
        "answer. Commands: /reset, /history, /save FILE, /quit.",
        "On a terminal it prompts; with stdin piped it reads one question (or command) per line.",
        "Examples:",
        "    kgreason chat examples/sample",
        "    printf '伊丽莎白女王号航空母舰是哪一天服役的？\\n它的舷号是什么？\\n' | kgreason chat examples/sample",
        "See docs/ask_and_chat.md.",
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="chat", help=HELP, no_args_is_help=True)(chat)


def _lines(interactive: bool) -> Iterator[str]:
    if interactive:
        with contextlib.suppress(ImportError):  # not on every platform; input() works without it
            import readline  # noqa: F401 - line editing and history for input() on a terminal
        while True:
            try:
                yield input(PROMPT)
            except EOFError:
                typer.echo("")
                return
    else:
        for line in sys.stdin:
            yield line.rstrip("\n")


def _show(turn: Turn, as_json: bool) -> None:
    if as_json:
        typer.echo(safe_json(turn.to_json(), indent=None))
        return
    if turn.resolution.changed:
        typer.echo(safe_text(f"（理解为：{turn.resolution.text}）"))
    for word in turn.resolution.unresolved:
        typer.echo(safe_text(f"（“{word}”指代不明：对话中没有它可以指代的实体）"))
    typer.echo(safe_text(render_answer(turn.answer)))


def _history(session: ChatSession) -> None:
    if not session.state.turns:
        typer.echo("（对话为空）")
    for turn in session.state.turns:
        resolved = f" → {turn.resolution.text}" if turn.resolution.changed else ""
        typer.echo(safe_text(f"{turn.number}. 问：{turn.resolution.question}{resolved}"))
        typer.echo(safe_text(f"   答：{turn.answer.text}"))


def _command(line: str, session: ChatSession) -> bool:
    """Run a /command; False to end the session."""
    name, _, arg = line.partition(" ")
    if name in ("/quit", "/exit"):
        return False
    if name == "/reset":
        session.reset()
        typer.echo("（对话已清空）")
    elif name == "/history":
        _history(session)
    elif name == "/save":
        if not arg.strip():
            typer.echo("用法：/save FILE", err=True)
        else:
            path = Path(arg.strip())
            write_json_atomic(path, session.state.to_json())
            typer.echo(f"（已保存 {len(session.state.turns)} 轮到 {path}）")
    else:
        typer.echo(HELP_TEXT)
    return True


def chat(
    data_dir: Annotated[Path, DATA_ARG],
    as_json: Annotated[bool, typer.Option("--json", help="Print each turn as one JSON line.")] = False,
    llm: Annotated[str, typer.Option("--llm", help=LLM_HELP)] = "none",
) -> None:
    interactive = sys.stdin.isatty()
    model = open_llm(llm)
    try:
        corpus = Corpus.load(data_dir, llm=model)
        corpus.prepare()
        session = ChatSession(corpus, llm=model)
        if interactive:
            typer.echo(f"kgreason chat：{len(corpus.doc_ids)} 篇文档。{HELP_TEXT}")
        for raw in _lines(interactive):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("/"):
                if not _command(line, session):
                    break
                continue
            try:
                _show(session.ask(line), as_json)
            except KgreasonError as exc:
                typer.echo(safe_text(f"error: {exc}"), err=True)
            except Exception as exc:  # a bug on one question must not end the conversation
                typer.echo(safe_text(f"error: {type(exc).__name__}: {exc}"), err=True)
    finally:
        close_llm(model)
