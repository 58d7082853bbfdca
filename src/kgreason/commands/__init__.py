"""CLI commands, one module each; every module exposes `register(app)`, registering its commands with
`cls=Command`."""

from typing import Any

from rich.console import Console
from typer.core import TyperCommand

from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import create_llm
from kgreason.llm.types import LLM
from kgreason.text.terminal import safe_text

# `--llm` of the commands that answer with the reasoner (run, serve).
LLM_CHOICE_HELP = (
    "Model(s) that choose among close candidates: none | embedded | embedded-small | openai:URL#MODEL | "
    "ensemble:SPEC,SPEC."
)


class Command(TyperCommand):
    """A Typer command whose usage line names required arguments plainly (`kgreason run [OPTIONS] DATA_DIR`);
    Typer would write `{DATA_DIR}`, which reads like a template left unfilled."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:  # Any: Typer vendors its own click's Context
        pieces = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]


def examples(*commands: str) -> str:
    """A help paragraph of example commands, one a line: `\\b` keeps the help formatter from re-wrapping it."""
    return "\b\nExamples:\n" + "\n".join(f"    {c}" for c in commands)


def open_llm(spec: str) -> LLM | None:
    """The model(s) `spec` names (None for `none`), announcing assembly and loading on stderr as they start."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    return create_llm(spec, LLMConfig.from_env(), progress=lambda msg: err.print(safe_text(msg), markup=False))
