"""Knowledge-graph index, typed values (dates, periods, numbers) and path search."""

from kgreason.kg.index import KGIndex
from kgreason.kg.values import (
    DateValue,
    Period,
    Quantity,
    check_derived_triple,
    find_period,
    parse_date,
    parse_quantity,
)

__all__ = [
    "DateValue",
    "KGIndex",
    "Period",
    "Quantity",
    "check_derived_triple",
    "find_period",
    "parse_date",
    "parse_quantity",
]
