"""Dates and periods of KG literals and questions.

- A date is an interval of days `[lo, hi]` with a precision: `2012年9月25日` is one day, `2012年9月` the whole month,
  `1990年代` ten years, `1939年9月1日至1945年9月2日` a span. Days are `(year, month, day)` tuples, so years before
  the common era (`公元前221年` -> year -221) order correctly without `datetime`.
- A period is a KG node with a start and an end value (`开始时间`/`结束时间` or synonyms, see `kg.vocab`), or a
  node with one span value (`时间: 1939年9月1日至1945年9月2日`).
"""

from __future__ import annotations

import calendar
import datetime as _datetime
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from kgreason.data.records import KGTriple, PathTriple
from kgreason.kg.numerals import cn_to_int, prepare_value_text
from kgreason.kg.vocab import (
    is_alias_relation,
    is_period_end_relation,
    is_period_span_relation,
    is_period_start_relation,
)
from kgreason.text.normalize import normalize_text

Day = tuple[int, int, int]  # (year, month, day); year < 0 before the common era
Precision = Literal["day", "month", "part_month", "part_year", "year", "decade", "century", "span"]


@dataclass(frozen=True, slots=True)
class DateValue:
    """A date as the interval of days it covers."""

    lo: Day
    hi: Day
    precision: Precision
    text: str  # the original spelling

    def overlaps(self, other: DateValue) -> bool:
        return self.lo <= other.hi and other.lo <= self.hi

    def same_days(self, other: DateValue) -> bool:
        """The same interval of days, however each is spelled (`1942 年 6 月 5 日` and `1942年6月5日`)."""
        return (self.lo, self.hi) == (other.lo, other.hi)


ShiftUnit = Literal["day", "year"]


def shifted(date: DateValue, unit: ShiftUnit, n: int) -> DateValue | None:
    """The day (or year) `n` after `date` (before, for a negative `n`): `1925年3月13日` one day after `1925年3月12日`,
    `2019年` one year after `2018年2月9日`; None when `date` is no single day (a day is asked) or the result is out
    of range."""
    y, m, d = date.lo
    if unit == "year":
        year = y + n
        if not _valid(year) or (y < 0 < year) or (year < 0 < y):
            return None
        lo, hi = year_interval(year)
        return DateValue(lo, hi, "year", f"{year}年")
    if date.precision != "day" or date.lo != date.hi or y < 1:
        return None
    ordinal = _datetime.date(y, m, d).toordinal() + n
    if ordinal < 1:
        return None
    day = _datetime.date.fromordinal(ordinal)
    when = (day.year, day.month, day.day)
    return DateValue(when, when, "day", f"{day.year}年{day.month}月{day.day}日")


def days_in_month(year: int, month: int) -> int:
    # The Gregorian leap-year pattern repeats every 400 years; this keeps calendar happy for year <= 0.
    return calendar.monthrange(year % 400 + 2000, month)[1]


def _valid(year: int, month: int | None = None, day: int | None = None) -> bool:
    if year == 0 or abs(year) > 9999:
        return False
    if month is not None and not 1 <= month <= 12:
        return False
    return not (day is not None and (month is None or not 1 <= day <= days_in_month(year, month)))


def year_interval(y: int) -> tuple[Day, Day]:
    return (y, 1, 1), (y, 12, 31)


def month_interval(y: int, m: int) -> tuple[Day, Day]:
    return (y, m, 1), (y, m, days_in_month(y, m))


_NUM = r"(\d{1,4}|[〇零一二三四五六七八九十]{1,4})"
_PREFIX = r"(?:约|大约|大概|公元(?!前)|于|在)*"
_SUFFIX = (
    r"(?:左右|前后|许|前后期|当天|当日|凌晨|清晨|早晨|上午|中午|下午|傍晚|晚上|晚|夜间|深夜|夜|"
    r"\d{1,2}(?:时|点|:)(?:\d{1,2}分?)?(?:\d{1,2}秒?)?|整)*"
)
_RE_YMD = re.compile(rf"(公元前)?{_NUM}年{_NUM}月{_NUM}(?:日|号)?")
_RE_YM_PART = re.compile(rf"(公元前)?{_NUM}年{_NUM}(?:月份|月)(上旬|中旬|下旬|初|中|底|末|中下旬|中上旬)?")
_RE_Y_PART = re.compile(
    rf"(公元前)?{_NUM}年(初|年初|底|年底|末|年末|中|年中|上半年|下半年|春|春季|春天|夏|夏季|夏天|秋|秋季|秋天|冬|冬季|冬天|"
    r"第一季度|第二季度|第三季度|第四季度|一季度|二季度|三季度|四季度)?"
)
_RE_DECADE = re.compile(r"(\d{3}0|[1-9]0|00)年代(初|初期|中|中期|末|末期|后期|前期)?")
_RE_CENTURY_DECADE = re.compile(
    rf"(公元前)?{_NUM}世纪(\d0|[一二三四五六七八九]十)年代(初|初期|中|中期|末|末期|后期|前期)?"
)
_RE_CENTURY = re.compile(rf"(公元前)?{_NUM}世纪(初|初期|初叶|上半叶|中叶|中期|下半叶|末|末期|末叶)?")
_RE_ISO = re.compile(r"(\d{4})([-/.])(\d{1,2})(?:\2(\d{1,2}))?")
_RE_BARE_YEAR = re.compile(r"(\d{3,4})")


def _int(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    return cn_to_int(text)


def _signed_year(bc: str | None, y: int) -> int:
    return -y if bc else y


def _decade_part(y0: int, part: str | None) -> tuple[int, int]:
    """Years of a decade, or of its early / middle / late part (初 0–3, 中 3–6, 末 7–9)."""
    if not part:
        return y0, y0 + 9
    if part.startswith("初") or part == "前期":
        return y0, y0 + 3
    if part.startswith("中"):
        return y0 + 3, y0 + 6
    return y0 + 6, y0 + 9


def _parse_single(s: str, *, allow_bare_year: bool, era: bool = False) -> tuple[Day, Day, Precision] | None:
    """One date (no span) in prepared text `s`, matching the whole string; `era`: the text said 公元."""
    m = _RE_YMD.fullmatch(s)
    if m:
        y, mo, d = _int(m.group(2)), _int(m.group(3)), _int(m.group(4))
        if y is None or mo is None or d is None:
            return None
        y = _signed_year(m.group(1), y)
        if not _valid(y, mo, d):
            return None
        return (y, mo, d), (y, mo, d), "day"
    m = _RE_YM_PART.fullmatch(s)
    if m:
        y, mo = _int(m.group(2)), _int(m.group(3))
        if y is None or mo is None:
            return None
        y = _signed_year(m.group(1), y)
        if not _valid(y, mo):
            return None
        lo, hi = month_interval(y, mo)
        part = m.group(4)
        if not part:
            return lo, hi, "month"
        last = hi[2]
        if part in ("上旬", "初"):
            return (y, mo, 1), (y, mo, 10), "part_month"
        if part in ("中旬", "中"):
            return (y, mo, 11), (y, mo, 20), "part_month"
        if part in ("中上旬",):
            return (y, mo, 1), (y, mo, 20), "part_month"
        if part in ("中下旬",):
            return (y, mo, 11), (y, mo, last), "part_month"
        return (y, mo, 21), (y, mo, last), "part_month"  # 下旬 / 底 / 末
    m = _RE_Y_PART.fullmatch(s)
    if m:
        y = _int(m.group(2))
        # `30年` alone is a duration (服役30年), not the year 30; years need 3+ digits unless BC.
        if y is None or (len(m.group(2)) < 3 and not m.group(1) and not era):
            return None
        y = _signed_year(m.group(1), y)
        if not _valid(y):
            return None
        part = m.group(3)
        if not part:
            lo, hi = year_interval(y)
            return lo, hi, "year"
        months = _year_part_months(part)
        return (y, months[0], 1), (y, months[1], days_in_month(y, months[1])), "part_year"
    m = _RE_CENTURY_DECADE.fullmatch(s)
    if m:
        c = _int(m.group(2))
        dec = m.group(3)
        d = int(dec) if dec.isdigit() else cn_to_int(dec)
        if c is None or d is None or not 1 <= c <= 99:
            return None
        y0 = (c - 1) * 100 + d
        a, b = _decade_part(y0, m.group(4))
        if m.group(1):
            a, b = -b, -a
        if not (_valid(a) and _valid(b)):
            return None
        return (a, 1, 1), (b, 12, 31), "decade"
    m = _RE_DECADE.fullmatch(s)
    if m:
        y0 = int(m.group(1))
        if y0 < 100:  # `90年代` is the 1990s, `00年代`/`10年代` the 2000s/2010s (the usual reading in this domain)
            y0 += 2000 if y0 < 20 else 1900
        a, b = _decade_part(y0, m.group(2))
        if not (_valid(a) and _valid(b)):
            return None
        return (a, 1, 1), (b, 12, 31), "decade"
    m = _RE_CENTURY.fullmatch(s)
    if m:
        c = _int(m.group(2))
        if c is None or not 1 <= c <= 99:
            return None
        first, last = (c - 1) * 100 + 1, c * 100  # the 20th century is 1901–2000
        part = m.group(3)
        if part:
            if part.startswith("初"):
                last = first + 19
            elif part == "上半叶":
                last = first + 49
            elif part in ("中叶", "中期"):
                first, last = first + 30, first + 69
            elif part == "下半叶":
                first = first + 50
            else:  # 末 / 末期 / 末叶
                first = last - 19
        if m.group(1):
            first, last = -last, -first
        return (first, 1, 1), (last, 12, 31), "century"
    m = _RE_ISO.fullmatch(s)
    if m:
        y, mo = int(m.group(1)), int(m.group(3))
        if m.group(4) is not None:
            d = int(m.group(4))
            if not _valid(y, mo, d):
                return None
            return (y, mo, d), (y, mo, d), "day"
        if not _valid(y, mo):
            return None
        lo, hi = month_interval(y, mo)
        return lo, hi, "month"
    if allow_bare_year:
        m = _RE_BARE_YEAR.fullmatch(s)
        if m and _valid(int(m.group(1))):
            lo, hi = year_interval(int(m.group(1)))
            return lo, hi, "year"
    return None


def _year_part_months(part: str) -> tuple[int, int]:
    table = {
        "初": (1, 3),
        "年初": (1, 3),
        "中": (4, 9),
        "年中": (4, 9),
        "底": (10, 12),
        "年底": (10, 12),
        "末": (10, 12),
        "年末": (10, 12),
        "上半年": (1, 6),
        "下半年": (7, 12),
        "春": (3, 5),
        "夏": (6, 8),
        "秋": (9, 11),
        "冬": (12, 12),
        "第一季度": (1, 3),
        "一季度": (1, 3),
        "第二季度": (4, 6),
        "二季度": (4, 6),
        "第三季度": (7, 9),
        "三季度": (7, 9),
        "第四季度": (10, 12),
        "四季度": (10, 12),
    }
    return table.get(part, table.get(part[:1], (1, 12)))


_RE_STRIP_PREFIX = re.compile(rf"^{_PREFIX}")
_RE_STRIP_SUFFIX = re.compile(rf"{_SUFFIX}$")
_SPAN_SEPARATORS = ("至", "到", "-", "—", "～", "~", "/")


def _strip(s: str) -> str:
    s = _RE_STRIP_PREFIX.sub("", s, count=1)
    # The suffix pattern can match the empty string; strip at most a few layers (e.g. `凌晨5时`).
    for _ in range(3):
        t = _RE_STRIP_SUFFIX.sub("", s, count=1)
        if t == s:
            break
        s = t
    return s


@lru_cache(maxsize=65536)
def parse_date(text: str, *, allow_bare_year: bool = False) -> DateValue | None:
    """The date `text` spells, or None.

    Accepts `2012年9月25日`, `1944 年 6 月 6 日`, `一九四四年六月`, `2017年`, `2017年底`, `1990年代`,
    `20世纪90年代`, `20世纪`, `2012-09-25`, `2012.9`, `公元前221年`, spans `1939年9月1日至1945年9月2日`
    (`1950年6月至7月` inherits the year), with optional `约` / `左右` and a time of day. A bare number
    (`1944`) is a year only with `allow_bare_year` (for values the KG types as 时间).
    """
    s = prepare_value_text(text)
    if not s:
        return None
    era = bool(re.match(r"(?:约|大约|大概)*公元(?!前)", s))
    single = _parse_single(_strip(s), allow_bare_year=allow_bare_year, era=era)
    if single is not None:
        return DateValue(single[0], single[1], single[2], text)
    return _parse_span(s, text, allow_bare_year=allow_bare_year)


def _parse_span(s: str, text: str, *, allow_bare_year: bool) -> DateValue | None:
    for sep in ("至", "到", "-", "/"):
        start = 0
        while True:
            i = s.find(sep, start)
            if i <= 0:
                break
            left, right = _strip(s[:i]), _strip(s[i + len(sep) :])
            start = i + 1
            a = _parse_single(left, allow_bare_year=True)
            if a is None:
                continue
            b = _parse_single(right, allow_bare_year=True)
            if b is None:
                b = _inherit_year(left, right, a)
            if b is None or b[1] < a[0]:
                continue
            return DateValue(a[0], b[1], "span", text)
    return None


def _inherit_year(left: str, right: str, a: tuple[Day, Day, Precision]) -> tuple[Day, Day, Precision] | None:
    """`1950年6月至7月`, `1950年6月25日至27日`: the right side borrows the left side's year (and month)."""
    y, mo, _ = a[0]
    if "年" in right:
        return None
    if right.endswith(("日", "号")) and "月" not in right and a[2] == "day":
        return _parse_single(f"{abs(y)}年{mo}月{right}", allow_bare_year=False) if y > 0 else None
    if y > 0:
        return _parse_single(f"{y}年{right}", allow_bare_year=False)
    return None


_DATE_SCAN = re.compile(
    r"(?:公元前)?(?:\d{1,4}|[〇零一二三四五六七八九]{4})\s*年\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月"
    r"\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*[日号]"
    r"|(?:公元前)?(?:\d{1,4}|[〇零一二三四五六七八九]{4})\s*年\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月"
    r"(?:上旬|中旬|下旬|初|底|末)?"
    r"|(?:公元前)?\d{1,2}\s*世纪\s*(?:\d0\s*年代(?:初|初期|中期|末|末期)?|(?:初|初期|上半叶|中叶|下半叶|末|末期)?)"
    r"|\d{3}0\s*年代(?:初|初期|中期|末|末期)?"
    r"|(?:公元前)?(?:\d{3,4}|[〇零一二三四五六七八九]{4})\s*年(?:初|底|末|上半年|下半年|代|[春夏秋冬][季天]?)?"
    r"|\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?"
)


@dataclass(frozen=True, slots=True)
class DateMention:
    start: int
    end: int
    value: DateValue

    @property
    def text(self) -> str:
        return self.value.text


def find_dates(text: str) -> list[DateMention]:
    """Dates mentioned in free text (questions, sentences), left to right, longest first at each position.

    Offsets index `text` itself; the value's `text` is the verbatim substring. A `年` needs 3–4 digits here so
    that `30年` (a duration) is not read as a year.
    """
    out: list[DateMention] = []
    for m in _DATE_SCAN.finditer(text):
        raw = m.group(0)
        if raw.endswith("年代") and "世纪" not in raw and not re.match(r"\d{3}0", raw):
            continue
        v = parse_date(raw)
        if v is not None:
            out.append(DateMention(m.start(), m.end(), v))
    return out


_RE_MONTH_DAY = re.compile(r"(?<![\d年./-])(\d{1,2})月(\d{1,2})(?:日|号)")


def find_month_days(text: str, known: Iterable[DateValue]) -> list[DateMention]:
    """Dates the text gives without a year (`6月4日`), each dated in the one year that the `known` dates (the
    KG's) of that month and day share — none when they share none or several: the KG, not a guess, gives the year.
    The value is spelled with its year (`1942年6月4日`), so that a derived triple written with it reads and holds;
    the mention's offsets are the text's own."""
    out: list[DateMention] = []
    for m in _RE_MONTH_DAY.finditer(text):
        month, day = int(m.group(1)), int(m.group(2))
        years = {d.lo[0] for d in known if d.precision == "day" and d.lo == d.hi and d.lo[1:] == (month, day)}
        if len(years) == 1 and 1 <= month <= 12 and 1 <= day <= 31:
            when = (years.pop(), month, day)
            out.append(DateMention(m.start(), m.end(), DateValue(when, when, "day", f"{when[0]}年{month}月{day}日")))
    return out


@dataclass(frozen=True, slots=True)
class Period:
    """A KG node with a start and an end: the interval from the start's first day to the end's last day."""

    name: str
    start: DateValue
    end: DateValue
    start_triple: PathTriple | None  # the KG triples that give the bounds (None when one span value gives both)
    end_triple: PathTriple | None
    span_triple: PathTriple | None = None

    @property
    def lo(self) -> Day:
        return self.start.lo

    @property
    def hi(self) -> Day:
        return self.end.hi

    def contains(self, d: DateValue) -> bool:
        return self.lo <= d.lo and d.hi <= self.hi

    def disjoint(self, d: DateValue) -> bool:
        return d.hi < self.lo or d.lo > self.hi


def alias_names(name: str, kg: Iterable[KGTriple]) -> set[str]:
    """Normalised names of `name` and its aliases (alias relations in either direction, transitively)."""
    kg_list = list(kg)
    group = {normalize_text(name)}
    changed = True
    while changed:
        changed = False
        for t in kg_list:
            if not is_alias_relation(t.relation):
                continue
            a, b = normalize_text(t.sub), normalize_text(t.obj)
            if (a in group) != (b in group):
                group.update((a, b))
                changed = True
    return group


def find_period(name: str, kg: Iterable[KGTriple]) -> Period | None:
    """The period `name` (or one of its aliases) spans according to the KG, or None.

    Start/end relations (`开始时间`, `起始时间`, `爆发时间` / `结束时间`, `结束日期`, ...) take precedence over a
    single span value (`时间: 1939年9月1日至1945年9月2日`).
    """
    kg_list = list(kg)
    names = alias_names(name, kg_list)
    start: tuple[DateValue, PathTriple] | None = None
    end: tuple[DateValue, PathTriple] | None = None
    span: tuple[DateValue, PathTriple] | None = None
    for t in kg_list:
        if normalize_text(t.sub) not in names:
            continue
        if start is None and is_period_start_relation(t.relation):
            v = parse_date(t.obj, allow_bare_year=True)
            if v is not None:
                start = (v, t.spo)
        elif end is None and is_period_end_relation(t.relation):
            v = parse_date(t.obj, allow_bare_year=True)
            if v is not None:
                end = (v, t.spo)
        elif span is None and is_period_span_relation(t.relation):
            v = parse_date(t.obj, allow_bare_year=True)
            if v is not None and v.precision == "span":
                span = (v, t.spo)
    if start is not None and end is not None and start[0].lo <= end[0].hi:
        return Period(name, start[0], end[0], start[1], end[1])
    if span is not None:
        v = span[0]
        return Period(name, v, v, None, None, span[1])
    return None


def resolve_time(operand: str, kg: Sequence[KGTriple]) -> DateValue | Period | None:
    """A date operand as a date; else a period node of the KG (with start and end); else None."""
    v = parse_date(operand, allow_bare_year=True)
    if v is not None:
        return v
    return find_period(operand, kg)
