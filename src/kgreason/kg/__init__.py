"""Knowledge-graph index, typed values (dates, periods, numbers) and path search."""

from kgreason.kg.compare import check_derived_triple
from kgreason.kg.dates import DateValue, Period, find_period, parse_date
from kgreason.kg.index import KGIndex
from kgreason.kg.quantities import Quantity, parse_quantity

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
