"""How much two values differ (`A比B多出几架`, `X之后过了几天，Y`, `相隔多少年`): the two things the question names,
each one's best-named date or number (`attributes.attribute_options`), subtracted in code. And whether one value
exceeds a multiple of another (`A的阵亡人数是否超过了B阵亡人数的两倍`, `ratio_bool_candidates`): each side's words
name a number of the KG (the relation, or the relation and its subject, that spells most of them), compared in code.

The answer is the difference in the unit asked — days, months or years between two dates; the values' own unit
otherwise — written as the conventions write counts (`origin="count"`). The evidence is both value triples and one
derived comparison triple (the larger value first), like a which-of comparison's.
"""

from __future__ import annotations

import re
from datetime import date

from kgreason.kg.compare import compare_quantities
from kgreason.kg.dates import DateValue
from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.numerals import cn_to_int
from kgreason.kg.paths import Chain
from kgreason.kg.quantities import Quantity
from kgreason.reason.analysis import Analysis
from kgreason.reason.attributes import AttributeOption, attribute_options, option_score, value_less
from kgreason.reason.candidate import Candidate, dedupe
from kgreason.reason.checks import Check
from kgreason.reason.kinds import names_side, relation_side
from kgreason.reason.lexicon import (
    DIFFERENCE_PATTERNS,
    RATIO_COMPARATORS,
    SPAN_PATTERN,
    TIME_SPAN_UNITS,
    TIMES_WORD,
)
from kgreason.text.normalize import normalize_text
from kgreason.text.overlap import longest_common_substring

_DIFFERENCE = re.compile("|".join(DIFFERENCE_PATTERNS))
# the words between the two sides: `A比B多出几架`, `X时，距离Y过去了几天`
_COMPARED_AT = re.compile("比|距离")
_SPAN = re.compile(SPAN_PATTERN)


def asks_difference(analysis: Analysis) -> bool:
    return analysis.form not in ("bool", "choice") and _DIFFERENCE.search(analysis.mapped.norm) is not None


def time_unit(analysis: Analysis) -> str | None:
    """`day`, `month` or `year` when the difference asked is a span of time (`几天`, `多少年`), else None."""
    m = _DIFFERENCE.search(analysis.mapped.norm)
    after = analysis.mapped.norm[m.end() : m.end() + 2] if m else ""
    return next((name for unit, name in TIME_SPAN_UNITS if after.startswith(unit)), None)


def difference_candidates(index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """The difference between the best-named values of the question's two sides (one candidate), or [] when the
    question names no two things with comparable values."""
    unit = time_unit(analysis)
    sides = _sides(analysis)
    if sides is None:
        return _span_candidates(index, analysis, unit)
    aspect = "time" if unit else "number"
    # the question's own words name the attributes (a time window took `殉国` of `X殉国之后` out of the residual) —
    # best the words on each side (`X打响那天，距离Y加冕称帝…`: 加冕 names Y's date, not the 打响 of X's), the words
    # of the whole question at half weight (`X比Y早几年服役`: 服役 is said once, for both)
    words = analysis.mapped.norm
    side_words = _side_words(analysis, sides)
    options = [
        [
            (max(option_score(index, o, own), SHARED_WORDS_WEIGHT * option_score(index, o, words)), o)
            for k in keys
            for o in attribute_options(index, k, aspect)
        ]
        for keys, own in zip(sides, side_words, strict=True)
    ]
    best: tuple[float, AttributeOption, AttributeOption] | None = None
    for sa, oa in options[0]:
        for sb, ob in options[1]:
            if oa.edge.triple is ob.edge.triple or value_less(oa.value, ob.value) is None:
                continue  # one value twice, or values that do not compare (another dimension)
            # one attribute of two things (`采购数量`) is what a difference of numbers compares; the dates of two
            # events are each its own (`殉国时间` and `开始时间`)
            same = unit is None and normalize_text(oa.edge.relation) == normalize_text(ob.edge.relation)
            s = sa + sb + (1.0 if same else 0.0)
            if best is None or s > best[0]:
                best = (s, oa, ob)
    if best is None:
        return []
    return _difference_candidate(best, unit, aspect)


def _difference_candidate(
    best: tuple[float, AttributeOption, AttributeOption], unit: str | None, aspect: str
) -> list[Candidate]:
    _, oa, ob = best
    amount = _difference(oa.value, ob.value, unit)
    if amount is None:
        return []
    high, low = (oa, ob) if value_less(ob.value, oa.value) else (ob, oa)
    rel = ("晚于" if aspect == "time" else "数值大于") if value_less(low.value, high.value) else "数值等于"
    derived = ((high.edge.triple.obj, rel, low.edge.triple.obj),)
    main = [*oa.lead, oa.edge.triple.spo, *ob.lead, ob.edge.triple.spo, *derived]
    chains = (oa.chain, ob.chain)
    check = Check("time" if aspect == "time" else "numeric", "order", "", True, (), derived)
    return [Candidate((amount,), (), "数值", dedupe(main), best[0], chains, (check,), origin="count")]


def _span_candidates(index: KGIndex, analysis: Analysis, unit: str | None) -> list[Candidate]:
    """`X从安放龙骨到正式服役，前后一共花了几个月`: the time between two dates of the one thing named, each the date
    the words on its side name best; [] when the question is not so or no two of its dates answer."""
    span = _SPAN.search(analysis.mapped.norm)
    keys = list(dict.fromkeys(m.key for m in analysis.mentions))
    if span is None or unit is None or len(keys) != 1:
        return []
    options = attribute_options(index, keys[0], "time")
    start_words, end_words = span.group(1), span.group(2)
    best: tuple[float, AttributeOption, AttributeOption] | None = None
    for oa in options:
        sa = option_score(index, oa, start_words)
        for ob in options:
            if oa.edge.triple is ob.edge.triple or not value_less(oa.value, ob.value):
                continue  # one date twice, or an end not after the start
            s = sa + option_score(index, ob, end_words)
            if best is None or s > best[0]:
                best = (s, oa, ob)
    if best is None or best[0] < 2 * SPAN_SIDE_NAMED:
        return []
    return _difference_candidate(best, unit, "time")


# each side's date must be named by its words about as well as a relation by a synonym (option_score doubles it)
SPAN_SIDE_NAMED = 0.9


def _sides(analysis: Analysis) -> tuple[list[str], list[str]] | None:
    """The names on each side: before and after `比` / `距离` when it stands between two of them, else the first two
    things named (`X之后过了几天，Y`)."""
    ordered = sorted(analysis.mentions, key=lambda m: m.start)
    keys = list(dict.fromkeys(m.key for m in ordered))
    found = _COMPARED_AT.search(analysis.mapped.norm)
    if found is not None:
        at = found.start()
        before = list(dict.fromkeys(m.key for m in ordered if m.end <= at))
        after = [k for k in dict.fromkeys(m.key for m in ordered if m.start > at) if k not in before]
        if before and after:
            return before, after
    if len(keys) < 2:
        return None
    return [keys[0]], [keys[1]]


SHARED_WORDS_WEIGHT = 0.5  # how much the whole question's words count in naming one side's attribute


def _side_words(analysis: Analysis, sides: tuple[list[str], list[str]]) -> tuple[str, str]:
    """The question's words on each side: up to where the second side is first named, and from there on."""
    nq = analysis.mapped.norm
    at = min((m.start for m in analysis.mentions if m.key in sides[1]), default=len(nq))
    return nq[:at], nq[at:]


def _difference(a: DateValue | Quantity, b: DateValue | Quantity, unit: str | None) -> str | None:
    if isinstance(a, DateValue) and isinstance(b, DateValue):
        (ya, ma, da), (yb, mb, db) = a.lo, b.lo
        if unit == "year":
            return str(abs(ya - yb))
        if unit == "month":
            return str(abs((ya * 12 + ma) - (yb * 12 + mb))) if "year" not in (a.precision, b.precision) else None
        if a.precision != "day" or b.precision != "day":
            return None  # days between two dates need both days
        return str(abs((date(ya, ma, da) - date(yb, mb, db)).days))
    if isinstance(a, Quantity) and isinstance(b, Quantity) and unit is None:
        if a.lo != a.hi or b.lo != b.hi:
            return None  # a range has no one difference
        amount = abs(a.lo - b.lo) / (a.factor or 1.0)
        return str(int(amount)) if amount == int(amount) else f"{amount:g}"
    return None


# `A…是否超过了B…的两倍`: the first side, the comparison word, the second side, the multiple
_RATIO = re.compile(
    rf"^(?P<left>.+?)(?:是否|是不是|有没有|有无)?(?P<cmp>{'|'.join(RATIO_COMPARATORS)})了?"
    rf"(?P<right>.+?)的(?P<times>[\d一二两三四五六七八九十]+){TIMES_WORD}"
)
SIDE_NAMED_MIN_CHARS = 2  # the characters of a side's words a relation (with its subject) must spell to be its value


def ratio_bool_candidates(index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """`这一仗阿军的阵亡人数是否超过了英军阵亡人数的两倍`: yes when the first side's number stands to the multiple of
    the second's as the comparison word says; the evidence is both value triples. [] when the question is not so, or
    either side's words name no number of the KG."""
    if analysis.form != "bool":
        return []
    m = _RATIO.match(analysis.mapped.norm)
    if m is None:
        return []
    raw = m.group("times")
    times = int(raw) if raw.isdigit() else cn_to_int(raw)
    if not times:
        return []
    factor = float(times)
    left, right = _named_number(index, m.group("left")), _named_number(index, m.group("right"))
    if left is None or right is None or left.triple is right.triple:
        return []
    a, b = index.quantity(left.dst), index.quantity(right.dst)
    if a is None or b is None:
        return []
    scaled = Quantity(b.lo * factor, b.hi * factor, b.dimension, b.unit, b.factor, f"{b.text}×{factor:g}")
    holds = compare_quantities(RATIO_COMPARATORS[m.group("cmp")], a, scaled)
    if holds is None:
        return []
    main = (left.triple.spo, right.triple.spo)
    chains = (Chain(left.src, (left,)), Chain(right.src, (right,)))
    answer = "是" if holds else "否"
    return [Candidate((answer,), (), "布尔", main, 1.0, chains, origin="bool")]


def _named_number(index: KGIndex, words: str) -> Edge | None:
    """The number of the KG that `words` (one side of a ratio) name best: the relation, with its subject's name, that
    spells the most of them — a relation named for a side (`阿方阵亡人数`) by the side's first character (`阿军`)."""
    best: tuple[int, Edge] | None = None
    for t in index.triples:
        obj = normalize_text(t.obj)
        if index.quantity(obj) is None:
            continue
        rel, sub = normalize_text(t.relation), normalize_text(t.sub)
        n, _ = longest_common_substring(rel, words)
        own, _ = longest_common_substring(sub, words)
        side = relation_side(rel)
        score = n + (own if own >= SIDE_NAMED_MIN_CHARS else 0) + (1 if side and names_side(words, side) else 0)
        if n >= SIDE_NAMED_MIN_CHARS and (best is None or score > best[0]):
            best = (score, Edge.of(t, True))
    return best[1] if best is not None else None
