"""CLI commands, one module each; every module exposes `register(app)`, registering its commands with
`cls=Command`."""

from typing import Any

from typer.core import TyperCommand


class Command(TyperCommand):
    """A Typer command whose usage line names required arguments plainly (`kgreason run [OPTIONS] DATA_DIR`);
    Typer would write `{DATA_DIR}`, which reads like a template left unfilled."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:  # Any: Typer vendors its own click's Context
        pieces = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]


def examples(*commands: str) -> str:
    """A help paragraph of example commands, one a line: `\\b` keeps the help formatter from re-wrapping it."""
    return "\b\nExamples:\n" + "\n".join(f"    {c}" for c in commands)
