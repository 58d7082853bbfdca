"""Typed values of KG literals and questions: dates, periods, quantities with units, and their comparisons.

- A date is an interval of days `[lo, hi]` with a precision: `2012年9月25日` is one day, `2012年9月` the whole month,
  `1990年代` ten years, `1939年9月1日至1945年9月2日` a span. Days are `(year, month, day)` tuples, so years before
  the common era (`公元前221年` -> year -221) order correctly without `datetime`.
- A period is a KG node with a start and an end value (`开始时间`/`结束时间` or synonyms, see `kg.vocab`), or a
  node with one span value (`时间: 1939年9月1日至1945年9月2日`).
- A quantity is an interval of numbers in the base unit of its dimension (`1500公里` -> 1,500,000 m, length).
  Quantities of different dimensions are never compared.

`check_derived_triple` verifies a derived comparison triple (`晚于`, `早于`, `处于时期内`, `数值大于`, ...; see
docs/annotation.md) against a KG and a question: the loader's validator and the reasoner both call it. Relation
names are read through `kgreason.conventions` (`大于` is the operator `gt`, as `数值大于` is); `holding_operators`
says which comparisons hold between two operands whatever the relation is called (`kgreason conventions learn`).
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
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
from kgreason.kg.vocab import (
    is_alias_relation,
    is_period_end_relation,
    is_period_span_relation,
    is_period_start_relation,
)
from kgreason.text.normalize import normalize_text

Day = tuple[int, int, int]  # (year, month, day); year < 0 before the common era
Precision = Literal["day", "month", "part_month", "part_year", "year", "decade", "century", "span"]

# Every name the default conventions read as a date / a number comparison (`大于` as well as `数值大于`).
DATE_RELATIONS: frozenset[str] = default_conventions().accepted_names(TIME_OPERATORS)
NUMBER_RELATIONS: frozenset[str] = default_conventions().accepted_names(NUMBER_OPERATORS)

# ---------------------------------------------------------------------------------------------------------------
# Shared text preparation
# ---------------------------------------------------------------------------------------------------------------

_CN_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_CN_NUM_CHARS = "".join(_CN_DIGITS) + "".join(_CN_UNITS) + "".join(_CN_BIG)


def _prep(text: str) -> str:
    """NFKC (full-width digits and letters to half-width), no whitespace, unified dashes; case kept for units."""
    s = unicodedata.normalize("NFKC", text)
    s = "".join(ch for ch in s if not ch.isspace() and unicodedata.category(ch) != "Cf")
    for dash in ("—", "–", "－", "―", "〜", "～", "~"):
        s = s.replace(dash, "-")
    return s


def cn_to_int(text: str) -> int | None:
    """`一九四四` -> 1944 (digit by digit), `二十五` -> 25, `三千五百` -> 3500, `两万` -> 20000; else None."""
    if not text or any(ch not in _CN_NUM_CHARS for ch in text):
        return None
    if all(ch in _CN_DIGITS for ch in text):
        return int("".join(str(_CN_DIGITS[ch]) for ch in text))
    total = 0
    section = 0
    digit = 0
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (digit if digit else 1) * _CN_UNITS[ch]
            digit = 0
        else:  # 万 / 亿
            section += digit
            total += (section if section else 1) * _CN_BIG[ch]
            section = 0
            digit = 0
    return total + section + digit


# ---------------------------------------------------------------------------------------------------------------
# Dates
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DateValue:
    """A date as the interval of days it covers."""

    lo: Day
    hi: Day
    precision: Precision
    text: str  # the original spelling

    def overlaps(self, other: DateValue) -> bool:
        return self.lo <= other.hi and other.lo <= self.hi


def _days_in_month(year: int, month: int) -> int:
    # The Gregorian leap-year pattern repeats every 400 years; this keeps calendar happy for year <= 0.
    return calendar.monthrange(year % 400 + 2000, month)[1]


def _valid(year: int, month: int | None = None, day: int | None = None) -> bool:
    if year == 0 or abs(year) > 9999:
        return False
    if month is not None and not 1 <= month <= 12:
        return False
    return not (day is not None and (month is None or not 1 <= day <= _days_in_month(year, month)))


def _year_interval(y: int) -> tuple[Day, Day]:
    return (y, 1, 1), (y, 12, 31)


def _month_interval(y: int, m: int) -> tuple[Day, Day]:
    return (y, m, 1), (y, m, _days_in_month(y, m))


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
        lo, hi = _month_interval(y, mo)
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
            lo, hi = _year_interval(y)
            return lo, hi, "year"
        months = _year_part_months(part)
        return (y, months[0], 1), (y, months[1], _days_in_month(y, months[1])), "part_year"
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
        lo, hi = _month_interval(y, mo)
        return lo, hi, "month"
    if allow_bare_year:
        m = _RE_BARE_YEAR.fullmatch(s)
        if m and _valid(int(m.group(1))):
            lo, hi = _year_interval(int(m.group(1)))
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
    s = _prep(text)
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
    r"|(?:公元前)?(?:\d{3,4}|[〇零一二三四五六七八九]{4})\s*年(?:初|底|末|上半年|下半年|代)?"
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


# ---------------------------------------------------------------------------------------------------------------
# Periods
# ---------------------------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------------------------
# Quantities
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unit:
    dimension: str
    factor: float  # to the dimension's base unit


def _units() -> dict[str, Unit]:
    groups: list[tuple[str, float, tuple[str, ...]]] = [
        ("length", 1.0, ("米", "m", "公尺")),
        ("length", 1000.0, ("千米", "公里", "km", "KM", "Km")),
        ("length", 0.01, ("厘米", "cm", "公分")),
        ("length", 0.001, ("毫米", "mm")),
        ("length", 1852.0, ("海里", "nmile", "nmi", "n mile")),
        ("length", 1609.344, ("英里", "mile", "miles", "mi")),
        ("length", 0.3048, ("英尺", "ft", "feet")),
        ("length", 0.9144, ("码", "yd")),
        ("length", 0.0254, ("英寸", "in", "inch")),
        ("mass", 1.0, ("千克", "公斤", "kg", "KG", "Kg")),
        ("mass", 0.001, ("克", "g")),
        ("mass", 1000.0, ("吨", "t", "公吨")),
        ("mass", 0.45359237, ("磅", "lb", "lbs")),
        ("speed", 1.0, ("米/秒", "米每秒", "m/s")),
        ("speed", 1 / 3.6, ("千米/小时", "公里/小时", "千米/时", "公里/时", "千米每小时", "公里每小时", "km/h", "kph")),
        ("speed", 1852 / 3600, ("节", "kn", "kt", "knot", "knots")),
        ("speed", 340.3, ("马赫", "Ma", "mach", "Mach")),
        ("duration", 1.0, ("秒", "s")),
        ("duration", 60.0, ("分钟", "min")),
        ("duration", 3600.0, ("小时", "h")),
        ("duration", 86400.0, ("天", "昼夜")),
        ("power", 1.0, ("瓦", "W")),
        ("power", 1000.0, ("千瓦", "kW", "KW")),
        ("power", 1e6, ("兆瓦", "MW")),
        ("power", 735.49875, ("马力", "hp", "轴马力", "匹")),
        ("force", 1.0, ("牛", "N", "牛顿")),
        ("force", 1000.0, ("千牛", "kN", "KN")),
        ("force", 9.80665, ("千克力", "kgf", "公斤力")),
        ("force", 9806.65, ("吨力", "吨推力")),
        ("area", 1.0, ("平方米", "m2", "m²")),
        ("area", 1e6, ("平方公里", "平方千米", "km2", "km²")),
        ("volume", 0.001, ("升", "L")),
        ("volume", 1.0, ("立方米", "m3", "m³")),
        ("energy", 4.184e12, ("千吨TNT", "千吨当量")),
        ("energy", 4.184e15, ("百万吨TNT", "百万吨当量")),
        ("currency:USD", 1.0, ("美元", "USD", "$")),
        ("currency:CNY", 1.0, ("元", "人民币", "元人民币", "RMB")),
        ("currency:EUR", 1.0, ("欧元", "EUR")),
        ("currency:GBP", 1.0, ("英镑",)),
        ("currency:RUB", 1.0, ("卢布",)),
        ("ratio", 0.01, ("%", "％")),
        ("temperature", 1.0, ("℃", "摄氏度")),
    ]
    table: dict[str, Unit] = {}
    for dim, factor, names in groups:
        for n in names:
            table[n] = Unit(dim, factor)
    # Counters: each its own dimension (3艘 and 3架 do not compare); 名 and 人 count the same thing.
    for counter in (
        "架",
        "艘",
        "枚",
        "辆",
        "台",
        "门",
        "发",
        "套",
        "部",
        "座",
        "支",
        "具",
        "颗",
        "次",
        "项",
        "个",
        "型",
    ):
        table[counter] = Unit(f"count:{counter}", 1.0)
    table["人"] = Unit("count:人", 1.0)
    table["名"] = Unit("count:人", 1.0)
    table["名人员"] = Unit("count:人", 1.0)
    return table


UNITS: dict[str, Unit] = _units()
_UNIT_NAMES = sorted(UNITS, key=len, reverse=True)  # longest first: `千米` before `千`, `km/h` before `km`
_MULTIPLIERS = {"万": 1e4, "亿": 1e8, "千": 1e3, "百": 1e2, "十": 10.0}


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number (or range) with a unit, in the dimension's base unit; `dimension` is "" for a bare number."""

    lo: float
    hi: float
    dimension: str
    unit: str  # the unit as written, "" for a bare number
    factor: float  # of `unit` to the base unit (1.0 for a bare number)
    text: str

    def in_unit_of(self, other: Quantity) -> Quantity:
        """A bare number read in `other`'s unit (`射程超过1000` against `1500公里`); otherwise self."""
        if self.dimension or not other.dimension:
            return self
        return Quantity(
            self.lo * other.factor, self.hi * other.factor, other.dimension, other.unit, other.factor, self.text
        )


_RE_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?|\d*\.\d+|[〇零一二两三四五六七八九十百千万亿]+")
_RE_Q_PREFIX = re.compile(
    r"^(?:约|大约|近|将近|超过|逾|达|达到|最大|最高|最多|最少|至少|不少于|不超过|高达|仅|共|约为)*"
)
_RE_Q_SUFFIX = re.compile(r"(?:左右|以上|以下|多|余|有余|上下|许)*$")


def _parse_number(s: str) -> tuple[float, str] | None:
    """A leading number of `s` (Arabic with thousands commas, or Chinese) and the rest of the string."""
    m = _RE_NUMBER.match(s)
    if not m:
        return None
    raw, rest = m.group(0), s[m.end() :]
    if raw[0].isdigit() or raw[0] == ".":
        return float(raw.replace(",", "")), rest
    # `三千米`: the numeral's last character may start the unit (千米); either reading gives the same amount,
    # but only this one leaves a unit to parse.
    if len(raw) > 1 and raw[-1] in _MULTIPLIERS and any((raw[-1] + rest).startswith(u) for u in _UNIT_NAMES):
        head = cn_to_int(raw[:-1])
        if head is not None:
            return float(head), raw[-1] + rest
    val = cn_to_int(raw)
    return (float(val), rest) if val is not None else None


def _parse_unit(rest: str, *, lenient: bool = False) -> tuple[float, str, Unit | None] | None:
    """Multiplier and unit at the start of `rest` (after a number); None when `rest` is not (only) a unit.

    `lenient`: an unknown unit (`J/(kg·K)`, `HB`) is its own dimension, comparable only with the same unit; an
    alternative spelling after 或 is ignored (`385.2 J/(kg·K) 或 0.092 kcal/(kg·℃)`)."""
    mult = 1.0
    r = rest
    for _ in range(2):  # `3.5万吨`, `1.2亿美元`, `3千万`
        if any(r.startswith(u) for u in _UNIT_NAMES) and not (r[:1] in _MULTIPLIERS and r[1:2] in _MULTIPLIERS):
            break
        if r[:1] in _MULTIPLIERS:
            mult *= _MULTIPLIERS[r[0]]
            r = r[1:]
    if not r:
        return mult, "", None
    for u in _UNIT_NAMES:
        if r == u:
            return mult, u, UNITS[u]
    if lenient:
        unit = re.split(r"或", r)[0]
        if unit and len(unit) <= 15 and not re.search(r"\d", unit):
            return mult, unit, Unit(f"unit:{normalize_text(unit)}", 1.0)
    return None


@lru_cache(maxsize=65536)
def parse_quantity(text: str, *, lenient: bool = False) -> Quantity | None:
    """The quantity `text` spells, or None.

    Accepts `1500公里`, `1,500 km`, `3.5万吨`, `约2000千米`, `30节`, `2.5马赫`, `1500-2000公里`, `三千米`,
    `超过1000公里` (the comparison word is dropped: the caller decides what it means), bare numbers (`1500`).
    Per-unit compound forms (`时速900公里` without a number first) are not quantities. `lenient` (for
    comparisons only, never for typing KG nodes) also reads an unknown unit as its own dimension (`820.0 HB`).
    """
    s = _prep(text)
    s = _RE_Q_PREFIX.sub("", s, count=1)
    s = _RE_Q_SUFFIX.sub("", s, count=1)
    for prefix in ("时速", "航速", "速度", "射程", "航程", "排水量", "重量", "长度", "高度", "口径"):
        if s.startswith(prefix):
            s = s[len(prefix) :]
            s = _RE_Q_PREFIX.sub("", s, count=1)
    if not s:
        return None
    first = _parse_number(s)
    if first is None:
        return None
    lo, rest = first
    hi = lo
    if rest[:1] in ("-", "至", "到") and rest[1:2]:
        second = _parse_number(rest[1:])
        if second is not None:
            # `1500-2000公里`: the unit follows the second number
            hi, rest = second
    unit = _parse_unit(rest, lenient=lenient)
    if unit is None:
        return None
    mult, name, u = unit
    lo, hi = lo * mult, hi * mult
    if hi < lo:
        return None
    if u is None:
        return Quantity(lo, hi, "", "", 1.0, text)
    return Quantity(lo * u.factor, hi * u.factor, u.dimension, name, u.factor, text)


_QTY_SCAN = re.compile(
    r"(?:\d+(?:,\d{3})*(?:\.\d+)?|[〇零一二两三四五六七八九十百千]+)"
    r"(?:\s*[-至到~～]\s*(?:\d+(?:,\d{3})*(?:\.\d+)?))?\s*[万亿千百]?\s*"
    r"(?:" + "|".join(re.escape(u) for u in _UNIT_NAMES if not u.isascii() or len(u) > 1) + r")"
)


@dataclass(frozen=True, slots=True)
class QuantityMention:
    start: int
    end: int
    value: Quantity

    @property
    def text(self) -> str:
        return self.value.text


def find_quantities(text: str) -> list[QuantityMention]:
    """Quantities with a unit mentioned in free text, left to right (bare numbers are not reported)."""
    out: list[QuantityMention] = []
    for m in _QTY_SCAN.finditer(text):
        raw = m.group(0)
        q = parse_quantity(raw)
        if q is not None and q.dimension:
            out.append(QuantityMention(m.start(), m.end(), q))
    return out


# ---------------------------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------------------------

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


def is_measure(q: Quantity | None) -> bool:
    """A physical measure (length, mass, speed, ...) rather than a count: True for None too (not a count either).
    Counters (`20人`, `54辆`), bare numbers and units the KG uses on its own (`112单元`) are counts."""
    if q is None:
        return True
    return bool(q.dimension) and not q.dimension.startswith(("count:", "unit:"))


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


# Date and time-of-day words after a number: `2005年` is a year and `3天` a duration, not a count of things.
_NOT_MEASURE_WORDS = frozenset("年月日号时分秒")


def parse_count(text: str) -> tuple[int, str] | None:
    """A count as an answer spells it: `(4, "")` for `4`, `(4, "艘")` for `4艘`, `(112, "单元")`; else None.

    Arabic digits only; the measure word is a counter (`艘`, `架`, `人`, ...) or any other one- or two-character
    word that is not a unit of measurement, a number word (`万`) or a date word (`2005年`).
    """
    s = _prep(text)
    m = re.fullmatch(r"(\d+)(\D{0,2})", s)
    if m is None:
        return None
    n, word = int(m.group(1)), m.group(2)
    if not word:
        return n, ""
    unit = UNITS.get(word)
    if unit is not None:
        return (n, word) if unit.dimension.startswith("count:") else None
    if word[0] in _MULTIPLIERS or any(ch in _NOT_MEASURE_WORDS for ch in word) or parse_date(text) is not None:
        return None
    if not all(unicodedata.category(ch) == "Lo" for ch in word):
        return None
    return n, word


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


# ---------------------------------------------------------------------------------------------------------------
# Derived comparison triples
# ---------------------------------------------------------------------------------------------------------------


def _spelled_in_kg(norm: str, kg: Sequence[KGTriple]) -> bool:
    return any(normalize_text(t.obj) == norm or normalize_text(t.sub) == norm for t in kg)


def resolve_time(operand: str, kg: Sequence[KGTriple]) -> DateValue | Period | None:
    """A date operand as a date; else a period node of the KG (with start and end); else None."""
    v = parse_date(operand, allow_bare_year=True)
    if v is not None:
        return v
    return find_period(operand, kg)


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
