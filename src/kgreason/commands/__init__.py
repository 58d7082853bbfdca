"""CLI commands, one module each; every module exposes `register(app)`."""


def examples(*commands: str) -> str:
    """A help paragraph of example commands, one a line: `\\b` keeps the help formatter from re-wrapping it."""
    return "\b\nExamples:\n" + "\n".join(f"    {c}" for c in commands)
