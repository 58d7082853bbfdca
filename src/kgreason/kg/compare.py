"""Comparisons of typed values and derived comparison triples.

`check_derived_triple` verifies a derived comparison triple (`晚于`, `早于`, `处于时期内`, `数值大于`, ...; see
docs/annotation.md) against a KG and a question: the loader's validator and the reasoner both call it. Relation
names are read through `kgreason.conventions` (`大于` is the operator `gt`, as `数值大于` is); `holding_operators`
says which comparisons hold between two operands whatever the relation is called (`kgreason conventions learn`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kgreason.conventions.model import (
    NUMBER_OPERATORS,
    TIME_OPERATORS,
    Conventions,
    NumberOperator,
    Operator,
    TimeOperator,
    default_conventions,
    is_number_operator,
    is_time_operator,
)
from kgreason.data.records import KGTriple, PathTriple
from kgreason.kg.dates import DateValue, Day, Period, find_period, parse_date, resolve_time
from kgreason.kg.quantities import Quantity, parse_quantity
from kgreason.text.normalize import normalize_text

_REL_TOL = 1e-9


def date_operator_holds(op: TimeOperator, left: DateValue, right: DateValue | Period) -> bool:
    """Whether `left op right` holds on whole intervals (`2012年` is not after `2012年3月`)."""
    lo, hi = right.lo, right.hi
    if op == "after":
        return left.lo > hi
    if op == "before":
        return left.hi < lo
    if op == "same":
        return left.lo <= hi and lo <= left.hi
    if op == "within":
        return lo <= left.lo and left.hi <= hi
    return left.hi < lo or left.lo > hi  # not_within


def number_operator_holds(op: NumberOperator, left: Quantity, right: Quantity) -> bool:
    """Whether `left op right` holds for two quantities of one dimension (ranges compare as wholes)."""
    tol = _REL_TOL * max(abs(left.lo), abs(left.hi), abs(right.lo), abs(right.hi), 1.0)
    if op == "gt":
        return left.lo > right.hi + tol
    if op == "lt":
        return left.hi < right.lo - tol
    if op == "ge":
        return left.lo >= right.hi - tol
    if op == "le":
        return left.hi <= right.lo + tol
    return abs(left.lo - right.lo) <= tol and abs(left.hi - right.hi) <= tol  # eq


def _operator(relation: str, conventions: Conventions | None) -> Operator | None:
    return (conventions or default_conventions()).operator_of(relation)


def date_holds(relation: str, left: DateValue, right: DateValue | Period) -> bool:
    """`date_operator_holds` for a relation name (`晚于`, ... or any name the default conventions accept)."""
    op = _operator(relation, None)
    if op is None or not is_time_operator(op):
        raise ValueError(f"not a date relation: {relation}")
    return date_operator_holds(op, left, right)


def number_holds(relation: str, left: Quantity, right: Quantity) -> bool:
    """`number_operator_holds` for a relation name (`数值大于`, `大于`, ...)."""
    op = _operator(relation, None)
    if op is None or not is_number_operator(op):
        raise ValueError(f"not a numeric relation: {relation}")
    return number_operator_holds(op, left, right)


def compare_quantities(relation: str, left: Quantity, right: Quantity) -> bool | None:
    """`number_holds` after reading a bare number in the other side's unit; None for different dimensions."""
    left, right = left.in_unit_of(right), right.in_unit_of(left)
    if left.dimension != right.dimension:
        return None
    return number_holds(relation, left, right)


def _comparable_quantities(left: str, right: str) -> tuple[Quantity, Quantity] | None:
    lq = parse_quantity(left) or parse_quantity(left, lenient=True)
    rq = parse_quantity(right) or parse_quantity(right, lenient=True)
    if lq is None or rq is None:
        return None
    lq, rq = lq.in_unit_of(rq), rq.in_unit_of(lq)
    return (lq, rq) if lq.dimension == rq.dimension else None


@dataclass(frozen=True, slots=True)
class Reading:
    """What two operands are as values, and which comparisons hold between them (left `op` right)."""

    kind: Literal["time", "number"]
    holds: tuple[Operator, ...]


def holding_operators(left: str, right: str, kg: Sequence[KGTriple] = ()) -> Reading | None:
    """Which comparison operators hold between two operands, or None when they are not comparable values.

    Time: the left operand is a date and the right one a date or a KG period (start and end); `within` /
    `not_within` read the right operand as a period first, the others as a date first, as `check_derived_triple`
    does. Numbers: two quantities of one dimension (a bare number takes the other side's unit). The relation's
    name plays no part: this is how `kgreason conventions learn` and the validator read a relation they do not know.
    """
    lv = parse_date(left, allow_bare_year=True)
    if lv is not None:
        as_date = parse_date(right, allow_bare_year=True)
        as_period = find_period(right, kg) if kg else None
        if as_date is not None or as_period is not None:
            holds: list[Operator] = []
            for op in TIME_OPERATORS:
                first, second = (as_period, as_date) if op in ("within", "not_within") else (as_date, as_period)
                rv = first if first is not None else second
                if rv is not None and date_operator_holds(op, lv, rv):
                    holds.append(op)
            return Reading("time", tuple(holds))
    pair = _comparable_quantities(left, right)
    if pair is None:
        return None
    lq, rq = pair
    return Reading("number", tuple(op for op in NUMBER_OPERATORS if number_operator_holds(op, lq, rq)))


def _spelled_in_kg(norm: str, kg: Sequence[KGTriple]) -> bool:
    return any(normalize_text(t.obj) == norm or normalize_text(t.sub) == norm for t in kg)


def check_derived_triple(
    triple: PathTriple, kg: Sequence[KGTriple], question: str, conventions: Conventions | None = None
) -> str | None:
    """None when the derived comparison `triple` holds; otherwise a short reason why not.

    The relation is any name `conventions` (default: the project's) reads as a comparison operator (`大于` and
    `数值大于` are both `gt`).

    Operands must be spelled as KG values (compared normalised) or, for a threshold, appear in the question.
    Dates: `晚于` = left interval entirely after the right one, `早于` entirely before, `同时` overlapping;
    `处于时期内` = left within [start.lo, end.hi] of the right operand, a period node whose start and end the KG
    gives (or a date interval such as `20世纪90年代`); `不处于时期内` = entirely outside it. Numbers: both sides in
    one dimension after unit conversion (a bare number takes the other side's unit).
    """
    left, relation, right = triple
    op = _operator(relation, conventions)
    if op is None:
        return f"'{relation}' is not a derived comparison relation"
    q_norm = normalize_text(question)
    for operand in (left, right):
        n = normalize_text(operand)
        if not n:
            return "empty operand"
        if n not in q_norm and not _spelled_in_kg(n, kg):
            return f"operand '{operand}' is neither a KG value nor in the question"

    if is_time_operator(op):
        lv = parse_date(left, allow_bare_year=True)
        if lv is None:
            return f"cannot read '{left}' as a date"
        rv: DateValue | Period | None
        if op in ("within", "not_within"):
            rv = find_period(right, kg)
            if rv is None:
                rv = parse_date(right, allow_bare_year=True)
            if rv is None:
                return f"period '{right}' has no start and end time in the KG"
        else:
            rv = resolve_time(right, kg)
            if rv is None:
                return f"cannot read '{right}' as a date or a period with start and end in the KG"
        if not date_operator_holds(op, lv, rv):
            return (
                f"false: '{left}' {relation} '{right}' does not hold ({_span(lv.lo, lv.hi)} vs {_span(rv.lo, rv.hi)})"
            )
        return None

    lq = parse_quantity(left) or parse_quantity(left, lenient=True)
    rq = parse_quantity(right) or parse_quantity(right, lenient=True)
    if lq is None:
        return f"cannot read '{left}' as a number"
    if rq is None:
        return f"cannot read '{right}' as a number"
    lq, rq = lq.in_unit_of(rq), rq.in_unit_of(lq)
    if lq.dimension != rq.dimension:
        return f"different dimensions: '{left}' ({lq.dimension}) vs '{right}' ({rq.dimension})"
    if not is_number_operator(op) or not number_operator_holds(op, lq, rq):
        return f"false: '{left}' {relation} '{right}' does not hold"
    return None


def _span(lo: Day, hi: Day) -> str:
    def fmt(d: Day) -> str:
        return f"{d[0]}-{d[1]:02d}-{d[2]:02d}"

    return fmt(lo) if lo == hi else f"{fmt(lo)}..{fmt(hi)}"
