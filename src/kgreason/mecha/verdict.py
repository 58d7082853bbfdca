"""Comparisons and yes/no questions answered by the program from the selected triples, with the comparison shown.

"灰铸铁的密度与白口铸铁的密度哪个更高" selects one density per entity (`mecha.need`); the program then compares
the values itself (the LLM only ever chooses triples) and says which one wins and why:
`白口铸铁的密度更高（7.55 (10^3kg/m^3) > 7 (10^3kg/m^3)）`. "A与B的工艺类型是否相同" compares the values as text.
Over one entity's conditions (`哪种铸造方法…布氏硬度最低`) the condition is what wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from kgreason.data.records import PathTriple
from kgreason.kg.quantities import parse_quantity
from kgreason.mecha.data import answer_side
from kgreason.mecha.need import Need, property_base
from kgreason.text.normalize import normalize_text

_LEADING = re.compile(r"^\s*(\d+(?:\.\d+)?)(?:\s*[-~～至]\s*(\d+(?:\.\d+)?))?\s*(.*)$")


@dataclass(frozen=True, slots=True)
class Verdict:
    """The program's comparison of the selected values of one property."""

    kind: Literal["max", "min", "same", "different"]
    winners: tuple[PathTriple, ...]  # the triples holding the answer (all of them for "same" / "different")
    text: str  # the sentence added to the answer
    explanation: str  # how the values compare


def _value(text: str) -> tuple[float, str] | None:
    """A comparable number (the middle of a range) and its unit key; None when the text is not a quantity."""
    q = parse_quantity(text, lenient=True)
    if q is not None:
        return (q.lo + q.hi) / 2, q.dimension
    m = _LEADING.match(text)
    if m is None:
        return None
    lo = float(m.group(1))
    hi = float(m.group(2)) if m.group(2) else lo
    return (lo + hi) / 2, "raw:" + normalize_text(m.group(3))


def _label(triple: PathTriple, entities: Sequence[str], by_condition: bool) -> str:
    """What a compared value belongs to: its entity, or (over one entity's conditions) its condition."""
    s, r, o = triple
    if by_condition:
        base = property_base(r)
        start = normalize_text(r).find(base) + len(base) if base else 0
        condition = r[start:].strip().strip("()（）").strip()
        return condition or r
    side = answer_side(triple, entities)
    return o if side == s else s


def compare_chosen(need: Need, chosen: Sequence[PathTriple], entities: Sequence[str]) -> Verdict | None:
    """The verdict on the first chosen triple's property across the chosen triples, or None when the question
    does not compare or fewer than two values of that property were chosen."""
    if not need.compares or len(chosen) < 2:
        return None
    base = property_base(chosen[0][1])
    group = [t for t in chosen if property_base(t[1]) == base]
    if len(group) < 2:
        return None
    by_condition = need.over_conditions
    labels = [_label(t, entities, by_condition) for t in group]
    values = [answer_side(t, entities) or t[2] for t in group]
    prop = base if by_condition else group[0][1]
    if need.direction is None:  # same or different
        same = len({normalize_text(v) for v in values}) == 1
        joined = "与".join(labels)
        listing = "，".join(f"{lab}是{v}" for lab, v in zip(labels, values, strict=True))
        if same:
            return Verdict("same", tuple(group), f"{joined}的{prop}相同，都是{values[0]}", listing)
        return Verdict("different", tuple(group), f"{joined}的{prop}不同：{listing}", listing)
    parsed = [_value(v) for v in values]
    if any(p is None for p in parsed) or len({p[1] for p in parsed if p is not None}) != 1:
        return None  # not numbers of one kind: nothing the program can compare honestly
    numbers = [p[0] for p in parsed if p is not None]
    best = max(numbers) if need.direction == "max" else min(numbers)
    win = [k for k, x in enumerate(numbers) if x == best]
    word = need.direction_word or ("更高" if need.direction == "max" else "更低")
    order = sorted(range(len(group)), key=lambda k: -numbers[k] if need.direction == "max" else numbers[k])
    sign = " > " if need.direction == "max" else " < "
    explanation = f"{labels[order[0]]} {values[order[0]]}"
    for before, k in pairwise(order):
        explanation += (" = " if numbers[k] == numbers[before] else sign) + f"{labels[k]} {values[k]}"
    names = "、".join(labels[k] for k in win)
    tie = "（并列）" if len(win) > 1 else ""
    if by_condition:
        text = f"{prop}{word}的是{names}{tie}：{explanation}"
    else:
        text = f"{names}的{prop}{word}{tie}：{explanation}"
    kind: Literal["max", "min"] = "max" if need.direction == "max" else "min"
    return Verdict(kind, tuple(group[k] for k in win), text, explanation)
