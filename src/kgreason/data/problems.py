"""Helpers shared by the readers and checks: how records are named, how values are described, and how
repeated warnings are folded into one line so a long file does not bury the real findings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kgreason.data.jsonio import RawRecord
from kgreason.errors import Problem


def describe(value: Any) -> str:
    """A value's kind in words a non-programmer reads easily: `the number 5`, `an array`, `null`."""
    if value is None:
        return "null (no value)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"[:120]
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def label_for(raw: RawRecord, id_field: str | None, *, from_lines: bool) -> str:
    """How problems name a record: 0-based position, the line for JSON Lines, and its id when it has one.

    Same shape as `kgreason.data.answers.record_label` (`#3 (query_id=doc_01_001)`), so every file's
    problems read alike.
    """
    extras: list[str] = []
    if from_lines and raw.line > 0:
        extras.append(f"line {raw.line}")
    if id_field is not None and isinstance(raw.value, dict):
        ident = raw.value.get(id_field)
        if isinstance(ident, str) and ident.strip():
            extras.append(f"{id_field}={ident.strip()}")
        elif isinstance(ident, int | float) and not isinstance(ident, bool):
            extras.append(f"{id_field}={ident}")
    return f"#{raw.index} ({', '.join(extras)})" if extras else f"#{raw.index}"


def is_json_lines(records: list[RawRecord]) -> bool:
    """`read_records` gives line 0 to every array element; JSON Lines records carry their real line."""
    return any(r.line > 1 for r in records)


def fold_repeats(problems: Iterable[Problem]) -> list[Problem]:
    """Drop exact repeats, and list a warning that recurs in many records of a file once, with a count.

    Errors are kept one per record: each one needs fixing where it is. A warning such as an unknown extra
    field usually repeats in every record, and a hundred identical lines would hide everything else.
    """
    unique = list(dict.fromkeys(problems))
    groups: dict[tuple[str, str | None, str], list[Problem]] = {}
    for p in unique:
        if p.severity == "warning":
            groups.setdefault((p.file, p.field, p.message), []).append(p)
    out: list[Problem] = []
    for p in unique:
        if p.severity != "warning":
            out.append(p)
            continue
        group = groups[(p.file, p.field, p.message)]
        if len(group) == 1:
            out.append(p)
        elif group[0] is p:
            first = group[0].record or "the file"
            out.append(
                Problem(
                    p.file,
                    f"{p.message} (in {len(group)} records)",
                    record=f"{first} and {len(group) - 1} more",
                    field=p.field,
                    severity="warning",
                )
            )
    return out
