"""English dates and numbers as a reader states them ("March 3, 1994", "the 1990s", "1,200 members"), read into
typed values so that a comparison is decided by the program (`textqa.by_parts`).

The project's `kg.dates` reads Chinese and ISO dates; English month names are read here, into the same `DateValue`
(an interval of days with a precision), so that "1994" and "March 3, 1994" overlap rather than compare.
"""

from __future__ import annotations

import calendar
import re

from kgreason.kg.dates import DateValue, Day, Precision, days_in_month, month_interval, year_interval

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name} | {
    name.lower(): i for i, name in enumerate(calendar.month_abbr) if name
}
MONTHS["sept"] = 9
_MONTH = r"(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_ERA = r"(?:\s*(BCE|BC|B\.C\.|CE|AD|A\.D\.))?"
# Most specific first: at the same position the first pattern that matches wins.
_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("mdy", re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{1,4}})\b{_ERA}", re.IGNORECASE)),
    ("dmy", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{1,4}})\b{_ERA}", re.IGNORECASE)),
    ("my", re.compile(rf"\b{_MONTH},?\s+(\d{{3,4}})\b{_ERA}", re.IGNORECASE)),
    ("decade", re.compile(r"\b(\d{2,3}0)s\b")),
    ("century", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)\s+century\b{_ERA}", re.IGNORECASE)),
    ("year", re.compile(rf"(?<![\d,.])(\d{{3,4}})(?![\d,])(?!\s*(?:st|nd|rd|th)\b){_ERA}", re.IGNORECASE)),
)
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_NUMBER = re.compile(
    r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)(?:\s*(thousand|million|billion|trillion)\b)?", re.IGNORECASE
)
_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


def _signed(year: int, era: str | None) -> int:
    return -year if era and era.upper().startswith("B") else year


def _value(kind: str, m: re.Match[str]) -> DateValue | None:
    g = m.groups()
    lo: Day
    hi: Day
    precision: Precision
    if kind in ("mdy", "dmy"):
        month_text, day_text = (g[0], g[1]) if kind == "mdy" else (g[1], g[0])
        year, month, day = _signed(int(g[2]), g[3]), MONTHS[month_text.lower()], int(day_text)
        if year == 0 or not 1 <= day <= days_in_month(year, month):
            return None
        lo = hi = (year, month, day)
        precision = "day"
    elif kind == "my":
        year, month = _signed(int(g[1]), g[2]), MONTHS[g[0].lower()]
        (lo, hi), precision = month_interval(year, month), "month"
    elif kind == "decade":
        start = int(g[0])
        lo, hi, precision = (start, 1, 1), (start + 9, 12, 31), "decade"
    elif kind == "century":
        n = int(g[0])
        if n == 0:
            return None
        if g[1] and g[1].upper().startswith("B"):
            lo, hi = (-100 * n, 1, 1), (-100 * (n - 1) - 1, 12, 31)
        else:
            lo, hi = (100 * (n - 1) + 1, 1, 1), (100 * n, 12, 31)
        precision = "century"
    else:
        year = _signed(int(g[0]), g[1])
        (lo, hi), precision = year_interval(year), "year"
    return DateValue(lo, hi, precision, m.group(0))


def english_date(text: str) -> DateValue | None:
    """The first date `text` states (month names in English, a year of three or four digits, "the 1990s", "the 5th
    century BC"), or None."""
    best: tuple[int, int, DateValue] | None = None
    for rank, (kind, pattern) in enumerate(_DATE_PATTERNS):
        for m in pattern.finditer(text):
            value = _value(kind, m)
            if value is not None:
                if best is None or (m.start(), rank) < best[:2]:
                    best = (m.start(), rank, value)
                break
    return best[2] if best is not None else None


def english_dates(text: str) -> list[DateValue]:
    """Every date `text` states, in reading order; where two readings overlap the earlier-starting, more specific one
    is kept ("March 3, 1994" rather than its "1994")."""
    found: list[tuple[int, int, int, DateValue]] = []
    for rank, (kind, pattern) in enumerate(_DATE_PATTERNS):
        for m in pattern.finditer(text):
            value = _value(kind, m)
            if value is not None:
                found.append((m.start(), rank, m.end(), value))
    kept: list[tuple[int, int, int, DateValue]] = []
    for start, rank, end, value in sorted(found):
        if not any(start < e and s < end for s, _, e, _ in kept):
            kept.append((start, rank, end, value))
    return [value for _, _, _, value in kept]


def english_number(text: str) -> float | None:
    """The first number `text` states ("1,200", "3.5 million", "twelve"), or None."""
    digits = _NUMBER.search(text)
    word = _NUMBER_WORD.search(text)
    if digits is not None and (word is None or digits.start() <= word.start()):
        value = float(digits.group(1).replace(",", ""))
        scale = digits.group(2)
        return value * _SCALES[scale.lower()] if scale else value
    if word is not None:
        return float(_NUMBER_WORDS[word.group(1).lower()])
    return None
