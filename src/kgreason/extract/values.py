"""Typed values the program finds in a sentence: dates (`时间`) and quantities with a unit (`数值`).

The parsers are the reasoner's own (`kgreason.kg.dates`, `kgreason.kg.quantities`), so a value extracted here is
one the reasoner can later compare. They are offered to the LLM as candidates (their exact spelling) and type any
object that is one of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgreason.kg.dates import find_dates, parse_date
from kgreason.kg.quantities import find_quantities, parse_quantity

TIME_TYPE = "时间"
NUMBER_TYPE = "数值"
# Counting words that make a number a designation, not a quantity: `45型驱逐舰` (Type 45), `12式岸舰导弹`. The
# reasoner's parser reads `45型` as a count; a KG needs it as (part of) a name.
DESIGNATION_UNITS = frozenset({"型", "式"})
# What makes a counted number an ordinal, part of a name or a rank (`第二架原型机`), not a quantity.
ORDINAL_PREFIXES: tuple[str, ...] = ("第",)


@dataclass(frozen=True, slots=True)
class ValueMention:
    text: str
    type: str  # TIME_TYPE or NUMBER_TYPE
    start: int  # offset in the sentence
    end: int


def find_values(sentence: str) -> list[ValueMention]:
    """Dates and quantities in `sentence`, left to right; a quantity inside a date's span is not repeated."""
    dates = [ValueMention(m.text, TIME_TYPE, m.start, m.end) for m in find_dates(sentence)]
    taken = [(d.start, d.end) for d in dates]
    quantities = [
        ValueMention(m.text, NUMBER_TYPE, m.start, m.end)
        for m in find_quantities(sentence)
        if not any(a <= m.start < b for a, b in taken)
    ]
    return sorted([*dates, *quantities], key=lambda v: v.start)


def value_type(name: str) -> str | None:
    """`时间` for a date, `数值` for a number with a unit (or a bare number), None for anything else (a designation
    such as `45型` too)."""
    text = name.strip()
    if parse_date(text) is not None:
        return TIME_TYPE
    q = parse_quantity(text)
    if q is not None and q.unit not in DESIGNATION_UNITS and (q.dimension or text.replace(".", "", 1).isdigit()):
        return NUMBER_TYPE
    return None


def grounding_values(sentence: str) -> list[ValueMention]:
    """`find_values` without designations (`45型`): the values a rewritten name may be repaired to. (The prompt
    still lists `find_values` as candidates, so the replies cached so far stay valid.)"""
    return [v for v in find_values(sentence) if value_type(v.text) is not None]
