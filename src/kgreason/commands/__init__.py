"""CLI commands, one module each; every module exposes `register(app)`, registering its commands with
`cls=Command`."""

import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rich.console import Console
from typer.core import TyperCommand

from kgreason.llm.config import ENV_CONCURRENCY, LLMConfig
from kgreason.llm.factory import answers_concurrently, create_llm
from kgreason.llm.types import LLM
from kgreason.text.terminal import safe_text

# `--llm` of the commands that answer with the reasoner (run, serve).
LLM_CHOICE_HELP = (
    "Model(s) that choose among close candidates: none | embedded | embedded-small | openai:URL#MODEL | "
    "openai:URL1,URL2#MODEL (one model on several servers, requests spread over the healthy ones) | "
    "ensemble:SPEC,SPEC."
)
# `--workers` of the commands that answer many independent items (run, evalset run).
WORKERS_HELP = (
    "Questions answered at once with a served model (openai:…): while one waits for the server, others run; "
    "results, trace and run record are the same for every N. The embedded model and --llm none answer one at a "
    "time. How many to start with: docs/scaling.md."
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


def open_llm(spec: str, *, workers: int = 1) -> LLM | None:
    """The model(s) `spec` names (None for `none`), announcing assembly and loading on stderr as they start.
    With `workers` > 1 each server may get that many requests at once (unless KGREASON_LLM_CONCURRENCY says
    otherwise: a limit the user set is kept, across all workers)."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    config = LLMConfig.from_env()
    if workers > config.max_concurrency and not os.environ.get(ENV_CONCURRENCY):
        config = replace(config, max_concurrency=workers)
    return create_llm(spec, config, progress=lambda msg: err.print(safe_text(msg), markup=False))


def usable_workers(llm: LLM | None, workers: int, say: Callable[[str], None]) -> int:
    """How many items to answer at once: `workers` for a served model, else 1 (said once when more were asked)."""
    if workers <= 1 or answers_concurrently(llm):
        return max(1, workers)
    what = "--llm none: no model to wait for" if llm is None else "the in-process model answers one call at a time"
    say(f"--workers {workers}: {what}, so questions are answered one at a time (workers help with served models)")
    return 1
