"""Quantities of KG literals and questions: a number (or range) with a unit, in the base unit of its dimension
(`1500公里` -> 1,500,000 m, length); counts as answers spell them (`4艘`). Quantities of different dimensions are
never compared."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from kgreason.kg.dates import parse_date
from kgreason.kg.numerals import cn_to_int, prepare_value_text
from kgreason.text.normalize import normalize_text


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
        ("length", 1e-6, ("微米", "μm", "µm", "um")),
        ("length", 1e-9, ("纳米",)),  # not `nm`: English texts write nautical miles so
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
        ("duration", 604800.0, ("周", "星期", "个星期")),
        # a month as the mean Gregorian month: spans in months compare with spans in days, roughly
        ("duration", 2629746.0, ("个月",)),
        ("power", 1.0, ("瓦", "W")),
        ("power", 1000.0, ("千瓦", "kW", "KW")),
        ("power", 1e6, ("兆瓦", "MW")),
        ("power", 735.49875, ("马力", "hp", "轴马力", "匹")),
        ("force", 1.0, ("牛", "N", "牛顿")),
        ("force", 1000.0, ("千牛", "kN", "KN")),
        ("force", 9.80665, ("千克力", "kgf", "公斤力")),
        ("force", 9806.65, ("吨力", "吨推力")),
        ("pressure", 1.0, ("帕斯卡", "Pa")),  # one-character 帕, 巴, 赫 begin names (帕米尔, 巴黎)
        ("pressure", 1e3, ("千帕", "kPa")),
        ("pressure", 1e6, ("兆帕", "MPa")),
        ("pressure", 1e9, ("吉帕", "GPa")),
        ("pressure", 1e5, ("bar",)),
        ("frequency", 1.0, ("赫兹", "Hz")),
        ("frequency", 1e3, ("千赫", "kHz")),
        ("frequency", 1e6, ("兆赫", "MHz")),
        ("frequency", 1e9, ("吉赫", "GHz")),
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
        *("片", "篇", "份", "笔", "根", "张", "挺", "轮", "波", "层", "段", "组", "条", "家", "场", "届", "批"),
    ):
        table[counter] = Unit(f"count:{counter}", 1.0)
    # compound counters, a counter times an occasion (sorties: `1270架次`), count what neither part does alone
    for compound in ("架次", "人次", "艘次", "车次"):
        table[compound] = Unit(f"count:{compound}", 1.0)
    table["人"] = Unit("count:人", 1.0)
    table["名"] = Unit("count:人", 1.0)
    table["名人员"] = Unit("count:人", 1.0)
    return table


UNITS: dict[str, Unit] = _units()
_UNIT_NAMES = sorted(UNITS, key=len, reverse=True)  # longest first: `千米` before `千`, `km/h` before `km`
# A unit symbol written after a number: Latin letters and the signs units use (`HB`, `HRC`, `dB`, `J/(kg·K)`).
_RE_UNIT_SYMBOL = re.compile(r"[A-Za-zΩμ°][A-Za-zΩμ°·/()²³^\-]{1,15}")
# English ordinal endings: `7th Fleet`, `1st AD` are names, not quantities.
_RE_ORDINAL_END = re.compile(r"(?:st|nd|rd|th)(?![a-z])")


_RE_BRACKETED_UNIT = re.compile(r"\([^()]*[A-Za-zΩμ°][^()]*\)")


def _is_unit_symbol(text: str) -> bool:
    """Whether `text` (after a number, spaces removed) reads as a unit symbol: two or more characters with a capital
    or a unit sign, at most four letters unless compound (`/`, `·`) — so that a model name (`99A`, `052D`, `15B`)
    or a word (`7thFleet`) is not read as a quantity."""
    text = re.sub(r"m([23])(?!\d)", lambda m: "m" + "²³"[int(m.group(1)) - 2], text)  # NFKC made `mm²` `mm2`
    if not _RE_UNIT_SYMBOL.fullmatch(text) or _RE_ORDINAL_END.match(text):
        return False
    compound = "/" in text or "·" in text
    letters = sum(ch.isalpha() for ch in text)
    signed = any(ch.isupper() or ch in "Ωμ°²³" for ch in text)
    return signed and (compound or letters <= 4)


_MULTIPLIERS = {"万": 1e4, "亿": 1e8, "千": 1e3, "百": 1e2, "十": 10.0}
# the dimensions of counts: by a counter (`count:艘`) or by a unit the KG uses on its own (`unit:单元`)
COUNT_DIMENSIONS = ("count:", "unit:")
ANY_COUNTER = "个"  # the counter that counts anything (`几个中队`, `超过100个`)
ANY_COUNT_DIMENSION = f"count:{ANY_COUNTER}"


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
        """A bare number read in `other`'s unit (`射程超过1000` against `1500公里`) — and a count with the counter
        that counts anything read in the counter of another count (`超过100个` against `112单元`); otherwise self."""
        if self.dimension == ANY_COUNT_DIMENSION and other.dimension.startswith(COUNT_DIMENSIONS):
            return Quantity(self.lo, self.hi, other.dimension, other.unit, other.factor, self.text)
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
_APPROXIMATORS = "余多来"  # between a number and its unit: `200余架` is some 200 aircraft
_PERIOD_SECONDS = {"秒": 1.0, "秒钟": 1.0, "分": 60.0, "分钟": 60.0, "小时": 3600.0, "天": 86400.0, "日": 86400.0}
_RE_PER_BEFORE = re.compile(r"每(秒钟|秒|分钟|分|小时|天|日)(?=\d)")
_RE_PER_AFTER = re.compile(r"/(秒钟|秒|分钟|分|小时|天|日)$")


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
    if _is_unit_symbol(r):
        # a unit symbol the table lacks (`635.0 HB`, `55HRC`, `20dB`): its own dimension, as `lenient` reads it
        return mult, r, Unit(f"unit:{normalize_text(r)}", 1.0)
    if lenient:
        unit = re.split(r"或", r)[0]
        # a scaled unit in brackets may hold digits: `8.8 (10^3kg/m^3)`
        if unit and len(unit) <= 15 and (not re.search(r"\d", unit) or _RE_BRACKETED_UNIT.fullmatch(unit)):
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
    plain = _parse_plain(text, lenient=lenient)
    if plain is not None:
        return plain
    # a rate the unit table does not name (`每分钟10发`, `10发/分钟`): the amount per second, in a dimension of its own
    s = _RE_Q_PREFIX.sub("", prepare_value_text(text), count=1)
    per = _RE_PER_BEFORE.match(s) or _RE_PER_AFTER.search(s)
    if per is None:
        return None
    rate = _parse_plain(s[per.end() :] if per.start() == 0 else s[: per.start()], lenient=lenient)
    if rate is None:
        return None
    seconds = _PERIOD_SECONDS[per.group(1)]
    # (a length per period is a speed, in metres per second like the table's speeds)
    kind = "speed" if rate.dimension == "length" else f"rate:{rate.dimension or rate.unit}"
    return Quantity(rate.lo / seconds, rate.hi / seconds, kind, rate.unit, rate.factor / seconds, text)


def _parse_plain(text: str, *, lenient: bool) -> Quantity | None:
    """`parse_quantity` without rates."""
    s = prepare_value_text(text)
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
    if rest[:1] in _MULTIPLIERS and rest[1:2] in _APPROXIMATORS:
        rest = rest[:1] + rest[2:]  # `5.6万余人`: some 56,000 people, the approximator after the multiplier
    # `200余架`, `30多艘`: an approximate count, read as its number (before a lenient reading makes `余架` a unit)
    unit = _parse_unit(rest[1:]) if rest[:1] in _APPROXIMATORS else None
    if unit is None:
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


COUNT_DIMENSION = "count:"  # the dimension of a count starts so, its counter after it (`count:艘`)


def is_measure(q: Quantity | None) -> bool:
    """A physical measure (length, mass, speed, ...) rather than a count: True for None too (not a count either).
    Counters (`20人`, `54辆`), bare numbers and units the KG uses on its own (`112单元`) are counts."""
    if q is None:
        return True
    return bool(q.dimension) and not q.dimension.startswith((COUNT_DIMENSION, "unit:"))


# Date and time-of-day words after a number: `2005年` is a year and `3天` a duration, not a count of things.
_NOT_MEASURE_WORDS = frozenset("年月日号时分秒")


def parse_count(text: str) -> tuple[int, str] | None:
    """A count as an answer spells it: `(4, "")` for `4`, `(4, "艘")` for `4艘`, `(112, "单元")`; else None.

    Arabic digits only; the measure word is a counter (`艘`, `架`, `人`, ...) or any other one- or two-character
    word that is not a unit of measurement, a number word (`万`) or a date word (`2005年`).
    """
    s = prepare_value_text(text)
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


@lru_cache(maxsize=256)
def counter_dimension(measure_word: str) -> str:
    """What a question's counter counts, as the unit table has it (`名` counts people like `人`)."""
    q = parse_quantity("1" + measure_word)
    return q.dimension if q is not None else f"count:{measure_word}"


def in_counter(q: Quantity | None, measure_word: str) -> bool:
    """A number in the counter a question asks in, or one counting the same things (`多少名` -> `2.5万人`)."""
    if not measure_word or q is None:
        return False
    return q.unit == measure_word or q.dimension == counter_dimension(measure_word)
