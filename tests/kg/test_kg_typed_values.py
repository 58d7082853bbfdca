"""Typed values: Chinese dates and periods, quantities with units, comparisons and derived-triple checks."""

from __future__ import annotations

import pytest

from kgreason.data.records import KGTriple
from kgreason.kg.compare import check_derived_triple, compare_quantities, date_holds
from kgreason.kg.dates import find_dates, find_period, parse_date, shifted
from kgreason.kg.numerals import cn_to_int
from kgreason.kg.quantities import find_quantities, parse_quantity


def t(i: int, s: str, r: str, o: str, st: str = "实体", ot: str = "实体") -> KGTriple:
    return KGTriple(f"t{i}", s, st, r, o, ot)


KG = [
    t(1, "诺曼底登陆", "发生时间", "1944 年 6 月 6 日", "作战行动", "时间"),
    t(2, "第二次世界大战", "开始时间", "1939 年 9 月 1 日", "战争", "时间"),
    t(3, "第二次世界大战", "结束时间", "1945 年 9 月 2 日", "战争", "时间"),
    t(4, "第二次世界大战", "简称", "二战"),
    t(5, "东风-41", "射程", "12000公里", "武器装备", "数值"),
    t(6, "朝鲜战争", "时间", "1950年6月25日至1953年7月27日", "战争", "时间"),
    t(7, "某舰", "满载排水量", "1.2万吨", "武器装备", "数值"),
    t(8, "某舰", "最大航速", "30节", "武器装备", "数值"),
    t(9, "某舰", "服役时间", "2012年9月25日", "武器装备", "时间"),
    t(10, "越南战争", "爆发时间", "1955年11月", "战争", "时间"),
    t(11, "越南战争", "结束日期", "1975年4月30日", "战争", "时间"),
    t(12, "无终战争", "开始时间", "1990年", "战争", "时间"),
]
Q = "在第二次世界大战期间服役、射程超过1000公里、2010年以后服役的装备"


# --------------------------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("text", "lo", "hi", "precision"),
    [
        ("2012年9月25日", (2012, 9, 25), (2012, 9, 25), "day"),
        ("1944 年 6 月 6 日", (1944, 6, 6), (1944, 6, 6), "day"),
        ("１９４４年６月６日", (1944, 6, 6), (1944, 6, 6), "day"),
        ("一九四四年六月六日", (1944, 6, 6), (1944, 6, 6), "day"),
        ("1944 年 6 月", (1944, 6, 1), (1944, 6, 30), "month"),
        ("2012年2月", (2012, 2, 1), (2012, 2, 29), "month"),  # leap year
        ("2013年2月", (2013, 2, 1), (2013, 2, 28), "month"),
        ("2017年", (2017, 1, 1), (2017, 12, 31), "year"),
        ("约2017年", (2017, 1, 1), (2017, 12, 31), "year"),
        ("2017年左右", (2017, 1, 1), (2017, 12, 31), "year"),
        ("2017年底", (2017, 10, 1), (2017, 12, 31), "part_year"),
        ("2017年上半年", (2017, 1, 1), (2017, 6, 30), "part_year"),
        ("2017年3月下旬", (2017, 3, 21), (2017, 3, 31), "part_month"),
        ("1990年代", (1990, 1, 1), (1999, 12, 31), "decade"),
        ("90年代", (1990, 1, 1), (1999, 12, 31), "decade"),
        ("20世纪90年代", (1990, 1, 1), (1999, 12, 31), "decade"),
        ("二十世纪九十年代", (1990, 1, 1), (1999, 12, 31), "decade"),
        ("1990年代初", (1990, 1, 1), (1993, 12, 31), "decade"),
        ("20世纪", (1901, 1, 1), (2000, 12, 31), "century"),
        ("2012-09-25", (2012, 9, 25), (2012, 9, 25), "day"),
        ("2012/9/25", (2012, 9, 25), (2012, 9, 25), "day"),
        ("2012.9", (2012, 9, 1), (2012, 9, 30), "month"),
        ("公元前221年", (-221, 1, 1), (-221, 12, 31), "year"),
        ("1944年6月6日凌晨", (1944, 6, 6), (1944, 6, 6), "day"),
        ("2012年9月25日10时30分", (2012, 9, 25), (2012, 9, 25), "day"),
        ("1939年9月1日至1945年9月2日", (1939, 9, 1), (1945, 9, 2), "span"),
        ("1939年9月1日—1945年9月2日", (1939, 9, 1), (1945, 9, 2), "span"),
        ("1950年6月至7月", (1950, 6, 1), (1950, 7, 31), "span"),
        ("1950年6月25日至27日", (1950, 6, 25), (1950, 6, 27), "span"),
        ("1950-1953年", (1950, 1, 1), (1953, 12, 31), "span"),
    ],
)
def test_parse_date(text: str, lo: tuple[int, int, int], hi: tuple[int, int, int], precision: str) -> None:
    v = parse_date(text)
    assert v is not None, text
    assert (v.lo, v.hi, v.precision) == (lo, hi, precision)
    assert v.text == text


@pytest.mark.parametrize(
    "text",
    ["", "诺曼底登陆", "2013年2月30日", "2012年13月", "9月25日", "1500公里", "1944", "30年", "第二次世界大战"],
)
def test_not_a_date(text: str) -> None:
    assert parse_date(text) is None


def test_bare_year_only_when_allowed() -> None:
    assert parse_date("1944") is None
    v = parse_date("1944", allow_bare_year=True)
    assert v is not None and v.lo == (1944, 1, 1)
    assert parse_date("12", allow_bare_year=True) is None


def test_bc_orders_before_ad() -> None:
    a, b = parse_date("公元前221年"), parse_date("公元1年")
    assert a is not None and b is not None
    assert date_holds("早于", a, b)


def test_find_dates_in_question() -> None:
    q = "2010年以后服役、在1944 年 6 月 6 日登陆、20世纪90年代研制、服役30年的舰艇"
    found = find_dates(q)
    assert [m.text for m in found] == ["2010年", "1944 年 6 月 6 日", "20世纪90年代"]
    for m in found:
        assert q[m.start : m.end] == m.text
    # a season of a year is read whole (`1987年秋` is September to November, not the year with `秋` left over)
    autumn = find_dates("1987年秋在巴伦支海上空发生擦碰的那架巡逻机")
    assert [m.text for m in autumn] == ["1987年秋"]
    assert autumn[0].value.lo == (1987, 9, 1)


# --------------------------------------------------------------------------------------------- comparisons


def d(text: str) -> object:
    v = parse_date(text)
    assert v is not None
    return v


@pytest.mark.parametrize(
    ("left", "relation", "right", "expected"),
    [
        ("2012年9月25日", "晚于", "2010年", True),
        ("2012年9月25日", "晚于", "2012年", False),  # inside the year, not after it
        ("2012年", "晚于", "2011年12月31日", True),
        ("2012年", "早于", "2012年3月", False),  # overlapping intervals are neither before nor after
        ("2012年", "晚于", "2012年3月", False),
        ("1944 年 6 月 6 日", "早于", "1945 年 9 月 2 日", True),
        ("1944年6月", "早于", "1944年6月6日", False),
        ("2012年9月25日", "同时", "2012年", True),
        ("1995年", "处于时期内", "1990年代", True),
        ("1989年", "处于时期内", "1990年代", False),
        ("1989年", "不处于时期内", "1990年代", True),
    ],
)
def test_date_holds(left: str, relation: str, right: str, expected: bool) -> None:
    lv, rv = parse_date(left), parse_date(right)
    assert lv is not None and rv is not None
    assert date_holds(relation, lv, rv) is expected


def test_find_period_from_start_and_end_and_alias() -> None:
    p = find_period("第二次世界大战", KG)
    assert p is not None
    assert (p.lo, p.hi) == ((1939, 9, 1), (1945, 9, 2))
    assert p.start_triple == ("第二次世界大战", "开始时间", "1939 年 9 月 1 日")
    alias = find_period("二战", KG)
    assert alias is not None and alias.hi == (1945, 9, 2)


def test_find_period_synonyms_and_span() -> None:
    vietnam = find_period("越南战争", KG)
    assert vietnam is not None and (vietnam.lo, vietnam.hi) == ((1955, 11, 1), (1975, 4, 30))
    korea = find_period("朝鲜战争", KG)
    assert korea is not None and (korea.lo, korea.hi) == ((1950, 6, 25), (1953, 7, 27))
    assert korea.span_triple is not None
    assert find_period("无终战争", KG) is None  # no end
    assert find_period("诺曼底登陆", KG) is None  # a single date is not a period


# --------------------------------------------------------------------------------------------- quantities


@pytest.mark.parametrize(
    ("text", "lo", "dimension"),
    [
        ("1500公里", 1_500_000, "length"),
        ("1,500 km", 1_500_000, "length"),
        ("1500千米", 1_500_000, "length"),
        ("约2000千米", 2_000_000, "length"),
        ("三千米", 3000, "length"),
        ("400海里", 400 * 1852, "length"),
        ("12.7毫米", 0.0127, "length"),
        ("3.5万吨", 35_000_000, "mass"),
        ("两万吨", 20_000_000, "mass"),
        ("1.2万吨", 12_000_000, "mass"),
        ("30节", 30 * 1852 / 3600, "speed"),
        ("2.5马赫", 2.5 * 340.3, "speed"),
        ("900公里/小时", 250, "speed"),
        ("900km/h", 250, "speed"),
        ("5000马力", 5000 * 735.49875, "power"),
        ("1.2亿美元", 120_000_000, "currency:USD"),
        ("100架", 100, "count:架"),
        ("1270架次", 1270, "count:架次"),  # sorties: a compound counter, not aircraft
        ("5片", 5, "count:片"),  # blades, articles, contracts: each counter counts its own things
        ("3篇", 3, "count:篇"),
        ("30%", 0.3, "ratio"),
        ("1500", 1500, ""),
        ("超过1000公里", 1_000_000, "length"),
        ("1000公里以上", 1_000_000, "length"),
        ("50μm", 5e-5, "length"),
        ("225.0 MPa", 2.25e8, "pressure"),
        ("3.5GHz", 3.5e9, "frequency"),
        # a unit symbol the table lacks is its own dimension
        ("635.0 HB", 635, "unit:hb"),
        ("187~255 HB", 187, "unit:hb"),
        ("55HRC", 55, "unit:hrc"),
        ("385.2 J/(kg·K)", 385.2, "unit:jkgk"),
        # spans of time in weeks and months (a month: the mean Gregorian month)
        ("3周", 3 * 604800, "duration"),
        ("2个星期", 2 * 604800, "duration"),
        ("14个月", 14 * 2629746, "duration"),
        # an approximator after the multiplier: some 39,000 people
        ("3.9万余人", 39000, "count:人"),
        ("2万多人", 20000, "count:人"),
        # rates the unit table does not name: per second, in a dimension of their own; a length per hour is a speed
        ("每分钟10发", 10 / 60, "rate:count:发"),
        ("8-10发/分钟", 8 / 60, "rate:count:发"),
        ("每小时36公里", 10, "speed"),
        ("900公里/小时", 250, "speed"),
    ],
)
def test_parse_quantity(text: str, lo: float, dimension: str) -> None:
    q = parse_quantity(text)
    assert q is not None, text
    assert q.lo == pytest.approx(lo)
    assert q.dimension == dimension


def test_quantity_range() -> None:
    q = parse_quantity("1500-2000公里")
    assert q is not None and (q.lo, q.hi) == (1_500_000, 2_000_000)


# model names and ordinals that start with a number are not quantities
@pytest.mark.parametrize("text", ["", "公里", "歼-20", "1944年", "很远", "99A", "052D", "15B", "7th Fleet", "1st AD"])
def test_not_a_quantity(text: str) -> None:
    assert parse_quantity(text) is None


def q(text: str) -> object:
    v = parse_quantity(text)
    assert v is not None
    return v


@pytest.mark.parametrize(
    ("left", "relation", "right", "expected"),
    [
        ("1500公里", "数值大于", "1000公里", True),
        ("1500公里", "数值大于", "1000千米", True),
        ("1500公里", "数值大于", "2000km", False),
        ("1 km", "数值等于", "1000米", True),
        ("30节", "数值不小于", "30节", True),
        ("30节", "数值大于", "30节", False),
        ("30节", "数值大于", "50公里/小时", True),  # 55.6 km/h
        ("2.5马赫", "数值大于", "2000公里/小时", True),
        ("1.2万吨", "数值小于", "2万吨", True),
        ("1500", "数值大于", "1000公里", True),  # a bare number takes the other side's unit
        ("1500-2000公里", "数值大于", "1000公里", True),
        ("1500-2000公里", "数值大于", "1800公里", False),  # a range is larger only as a whole
        ("9000吨", "数值不大于", "1万吨", True),
    ],
)
def test_compare_quantities(left: str, relation: str, right: str, expected: bool) -> None:
    lq, rq = parse_quantity(left), parse_quantity(right)
    assert lq is not None and rq is not None
    assert compare_quantities(relation, lq, rq) is expected


def test_never_compare_across_dimensions() -> None:
    lq, rq = parse_quantity("1500公里"), parse_quantity("1000吨")
    assert lq is not None and rq is not None
    assert compare_quantities("数值大于", lq, rq) is None
    a, b = parse_quantity("3艘"), parse_quantity("2架")
    assert a is not None and b is not None
    assert compare_quantities("数值大于", a, b) is None


def test_a_count_with_the_counter_of_anything_compares_with_any_count() -> None:
    anything, units, ships, length = (parse_quantity(t, lenient=True) for t in ("100个", "112单元", "3艘", "5公里"))
    assert anything is not None and units is not None and ships is not None and length is not None
    assert compare_quantities("数值大于", units, anything) is True
    assert compare_quantities("数值小于", anything, ships) is False
    assert compare_quantities("数值大于", length, anything) is None  # a measure is no count


def test_find_quantities_in_question() -> None:
    text = "射程超过1000公里、满载排水量3.5万吨以上、航速30节的驱逐舰"
    assert [m.text for m in find_quantities(text)] == ["1000公里", "3.5万吨", "30节"]


def test_cn_to_int() -> None:
    assert cn_to_int("一九四四") == 1944
    assert cn_to_int("二十五") == 25
    assert cn_to_int("十二") == 12
    assert cn_to_int("三千五百") == 3500
    assert cn_to_int("两万") == 20000
    assert cn_to_int("abc") is None


# --------------------------------------------------------------------------------------------- derived triples


@pytest.mark.parametrize(
    "triple",
    [
        ("1944 年 6 月 6 日", "处于时期内", "第二次世界大战"),
        ("1944年6月6日", "处于时期内", "第二次世界大战"),  # spelling normalised
        ("1944 年 6 月 6 日", "处于时期内", "二战"),  # period via its alias
        ("1944 年 6 月 6 日", "晚于", "1939 年 9 月 1 日"),
        ("1944 年 6 月 6 日", "早于", "1945 年 9 月 2 日"),
        ("2012年9月25日", "晚于", "2010年"),  # threshold from the question
        ("12000公里", "数值大于", "1000公里"),
        ("30节", "数值不小于", "30节"),
        ("1944 年 6 月 6 日", "不处于时期内", "朝鲜战争"),  # period given by one span value
        ("1944 年 6 月 6 日", "早于", "朝鲜战争"),  # a period operand of 早于
        ("1960年", "处于时期内", "越南战争"),  # 爆发时间 / 结束日期 synonyms; 1960年 from the question below
    ],
)
def test_derived_triple_holds(triple: tuple[str, str, str]) -> None:
    assert check_derived_triple(triple, KG, Q + "，1960年") is None


@pytest.mark.parametrize(
    ("triple", "reason_part"),
    [
        (("1944 年 6 月 6 日", "早于", "1939 年 9 月 1 日"), "false"),
        (("2012年9月25日", "早于", "2010年"), "false"),
        (("1944 年 6 月 6 日", "处于时期内", "朝鲜战争"), "false"),
        (("1944 年 6 月 6 日", "处于时期内", "诺曼底登陆"), "no start and end"),
        (("1944 年 6 月 6 日", "处于时期内", "无终战争"), "no start and end"),
        (("12000公里", "数值小于", "1000公里"), "false"),
        (("12000公里", "数值大于", "1.2万吨"), "different dimensions"),
        (("东风-41", "晚于", "2010年"), "cannot read"),
        (("12000公里", "数值大于", "东风-41"), "cannot read"),
        (("1944年6月7日", "晚于", "2010年"), "neither a KG value nor in the question"),
        (("1944 年 6 月 6 日", "属于", "第二次世界大战"), "not a derived"),
    ],
)
def test_derived_triple_fails_with_reason(triple: tuple[str, str, str], reason_part: str) -> None:
    reason = check_derived_triple(triple, KG, Q)
    assert reason is not None and reason_part in reason, reason


def test_a_bracketed_scaled_unit_compares_with_the_same_unit() -> None:
    # handbooks write `8.8 (10^3kg/m^3)`: comparable with the same bracketed unit (lenient reading, for comparisons)
    a, b = parse_quantity("8.8 (10^3kg/m^3)", lenient=True), parse_quantity("7.5-8.2 (10^3kg/m^3)", lenient=True)
    assert a is not None and b is not None and a.dimension == b.dimension
    assert compare_quantities("数值大于", a, b) is True
    assert parse_quantity("12(3)", lenient=True) is None  # brackets without a unit are no unit


def test_an_approximate_count_reads_as_its_number() -> None:
    # `200余架` (some 200 aircraft), `30多艘`: the approximator between number and unit is no part of the unit
    q = parse_quantity("200余架")
    assert q is not None and (q.lo, q.dimension, q.unit) == (200.0, "count:架", "架")
    q = parse_quantity("30多艘", lenient=True)
    assert q is not None and (q.lo, q.dimension) == (30.0, "count:艘")
    assert parse_quantity("多域作战") is None


def test_a_date_shifted_by_days_or_years() -> None:
    day, month, year = parse_date("1944年12月31日"), parse_date("2018年2月"), parse_date("2019年")
    assert day is not None and month is not None and year is not None
    assert shifted(day, "day", 1) == parse_date("1945年1月1日")
    assert shifted(day, "day", -1) == parse_date("1944年12月30日")
    after = shifted(month, "year", 1)
    assert after is not None and after.same_days(year) and after.text == "2019年"
    assert shifted(month, "day", 1) is None  # a month is no single day to count from
