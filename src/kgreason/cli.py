"""The `kgreason` command line. Each command lives in its own module and registers itself here."""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console

from kgreason import __version__
from kgreason.commands import Command
from kgreason.commands.ask import register as register_ask
from kgreason.commands.chat import register as register_chat
from kgreason.commands.conventions import register as register_conventions
from kgreason.commands.evalset import register as register_evalset
from kgreason.commands.extract import register as register_extract
from kgreason.commands.mecha import register as register_mecha
from kgreason.commands.merge import register as register_merge
from kgreason.commands.models import register as register_models
from kgreason.commands.run import register as register_run
from kgreason.commands.score import register as register_score
from kgreason.commands.serve import register as register_serve
from kgreason.commands.textqa import register as register_textqa
from kgreason.commands.validate import register as register_validate
from kgreason.errors import DataError, KgreasonError, UserInterrupt
from kgreason.text.terminal import safe_text

app = typer.Typer(
    name="kgreason",
    help="Explainable multi-hop reasoning over knowledge graphs extracted from text.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: rich's would show `<bool>` beside every flag and eat `[s, r, o]` in help texts as markup.
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"kgreason {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """kgreason: answers, minimal evidence chains and constraints for KG questions (CCKS 2026 layout)."""


@app.command(cls=Command)
def version() -> None:
    """Print the kgreason version."""
    typer.echo(__version__)


register_ask(app)
register_chat(app)
register_conventions(app)
register_extract(app)
register_evalset(app)
register_mecha(app)
register_merge(app)
register_models(app)
register_run(app)
register_score(app)
register_serve(app)
register_textqa(app)
register_validate(app)


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    raise UserInterrupt


def main() -> None:
    """Entry point: runs the app; data and configuration problems print a clear message and exit 2; Ctrl-C says
    "interrupted" and exits 130 (commands that have something to save, like `run`, say more first); SIGTERM too."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    previous = signal.signal(signal.SIGINT, _on_ctrl_c)
    # SIGTERM (a scheduler, `kill`, a container stopping) ends a run as Ctrl-C does: what is done is written first.
    previous_term = signal.signal(signal.SIGTERM, _on_ctrl_c)
    try:
        app()  # standalone mode: usage errors are reported by typer itself, which then exits
    except DataError as exc:
        for problem in exc.problems:
            err.print(str(problem), markup=False)
        err.print(f"{len(exc.problems)} problem(s).", markup=False)
        sys.exit(2)
    except KgreasonError as exc:
        err.print(safe_text(f"error: {exc}"), markup=False)
        sys.exit(2)
    except (UserInterrupt, KeyboardInterrupt):
        err.print("interrupted", markup=False)
        sys.exit(130)
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)


if __name__ == "__main__":
    main()
