"""Problems found in input files, reported with the file, the record and the field.

Loaders collect `Problem`s; fatal ones are raised together as a `DataError`, which the CLI prints
without a traceback and turns into a non-zero exit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from kgreason.text.terminal import safe_text

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding about one place in one file."""

    file: str
    message: str
    record: str | None = None  # "#3" (0-based index) or "query_id=doc_01_001"; None for the whole file
    field: str | None = None
    severity: Severity = "error"

    def __str__(self) -> str:
        where = [self.file]
        if self.record is not None:
            where.append(f"record {self.record}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        # One line, safe to print: names and values come from the files (see kgreason.text.terminal).
        return safe_text(f"{self.severity}: {', '.join(where)}: {self.message}", newlines=False)


class DataError(Exception):
    """One or more fatal problems with input data."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(cls, file: str, message: str, record: str | None = None, field: str | None = None) -> DataError:
        return cls([Problem(file=file, message=message, record=record, field=field)])


class KgreasonError(Exception):
    """A user-facing failure that is not about input data (configuration, missing model, ...)."""


class UserInterrupt(BaseException):
    """Ctrl-C, raised by the command line's SIGINT handler instead of `KeyboardInterrupt`: the CLI framework turns a
    `KeyboardInterrupt` into a silent exit, so this one passes through it to `kgreason.cli.main`, which says so."""
