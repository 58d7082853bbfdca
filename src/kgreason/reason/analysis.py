"""Question analysis: answer form, constraints (as checkable values with their verbatim wording), entity roles and
the words left for relation matching. Pure functions of the question, the linked mentions and the KG index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from kgreason.kg.dates import DateValue, ShiftUnit, find_dates, find_month_days, parse_date
from kgreason.kg.index import KGIndex
from kgreason.kg.quantities import Quantity, find_quantities, parse_count, parse_quantity
from kgreason.reason.kinds import (
    category_heads,
    is_category,
    is_country,
    kind_word_after,
    noun_names_events,
    role_person_types,
)
from kgreason.reason.lexicon import (
    A_NOT_A,
    ALREADY_WORDS,
    AMONG_WORDS,
    ASPECT_PARTICLE,
    BOOL_WORDS,
    CAMP_MARKERS,
    CAMP_SUFFIXES,
    CATEGORY_QUESTION_PATTERNS,
    CLASSIFYING_COPULA,
    CLAUSE_STOPS,
    COARSE_KIND_NOUNS,
    COMPARATIVE_WORDS,
    COMPARED_WITH_CLOSERS,
    COMPARED_WITH_OPENERS,
    COORDINATORS,
    COPULAS,
    COUNT_NUMERALS,
    COUNT_PATTERNS,
    COUNTRY_TYPE_WORDS,
    DEGREE_ADVERBS_AFTER_THAN,
    DEGREE_MARKERS,
    DURATION_UNIT,
    EVENT_MEASURE_WORDS,
    EXCLUDE_FRAMES,
    FROM_WORDS,
    HOW_ADJECTIVE_ATTRIBUTES,
    HOW_ADJECTIVE_UNITS,
    HOW_LONG_PATTERNS,
    HOW_MANY_WORDS,
    INCLUSIVE_AFTER_WORDS,
    INCLUSIVE_BEFORE_WORDS,
    INTERROGATIVES,
    KIND_MEASURE_WORDS,
    MEASURE_WORDS,
    NAME_ASKING_VERBS,
    NAMING_EVENT_WORDS,
    NEGATED_TAIL_PARTICLES,
    NEGATED_WORD_STOPS,
    NEGATION_MARKERS,
    NOT_BOUND_WORDS,
    NOUN_ASKING_WORD,
    NUMBER_QUESTION_PATTERNS,
    NUMERIC_COMPARATORS,
    ORDER_WORDS,
    PERSON_NOUN,
    PERSON_WORDS,
    PHRASE_END_CHARACTERS,
    PLACE_MARKERS,
    PLACE_QUESTION_PATTERNS,
    PLACE_TYPE_HINTS,
    POSSESSIVE,
    PREDICATE_NEGATIONS,
    QUESTION_PARTICLES,
    QUESTION_WORDS,
    RELATIVE_DAY_WORDS,
    REQUEST_FRAMES,
    SAME_DAY_RELATION,
    SAME_DAY_WORDS,
    SAME_WORDS,
    SET_QUESTION_WORDS,
    SET_WORDS,
    SORT_NOUNS,
    SORT_OF_NOUN_PATTERN,
    SPAN_CLOSING_WORDS,
    START_VERBS,
    SUBJECT_LINKS,
    THAN_WORDS,
    THING_MEASURE_WORDS,
    TIME_AFTER_WORDS,
    TIME_BEFORE_WORDS,
    TIME_COMPARISON_PREPOSITIONS,
    TIME_FROM_START_AFTER,
    TIME_FROM_START_BEFORE,
    TIME_QUESTION_PATTERNS,
    TIME_UNIT_CHARS,
    TIME_WITHIN_WORDS,
    VERB_ADVERBS,
    WHEN_WORDS,
    WHICH,
    WHO,
    YES_NO_ENDING,
)
from kgreason.reason.link import Mention, is_side
from kgreason.reason.textmap import MappedText, quoted_spans
from kgreason.text.normalize import is_han, normalize_text
from kgreason.text.overlap import longest_common_substring, share_spelled

# Words that introduce a name the question identifies something by (`绰号“阿迪尔”的战斗机`).
ALIAS_MARKERS: tuple[str, ...] = (
    "绰号为",
    "绰号是",
    "绰号",
    "代号为",
    "代号是",
    "代号",
    "简称为",
    "简称",
    "又称",
    "别名",
    "昵称",
    "称为",
    "名为",
    "叫做",
    "被称为",
    "番号为",
    "舷号为",
    "舷号",
)

Form = Literal["entity", "set", "count", "bool", "time", "number", "place", "choice"]
Role = Literal["camp", "place", "exclude", "type"]


@dataclass(frozen=True, slots=True)
class NegatedPredicate:
    """`没有沉没` in `哪一艘最终没有沉没`: what the answer must not have (a relation, value or KG type spelling it)."""

    text: str  # the negated words, verbatim (`沉没`): the constraint's value
    word: str  # the same, normalised
    start: int  # normalised span of the marker and the words
    end: int


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """A time constraint: the KG date checked must stand in `relation` to the bound."""

    text: str  # the constraint value, verbatim (`第二次世界大战期间`, `2010年以后`)
    relation: str  # 晚于 / 早于 / 处于时期内
    operand: str  # right operand of the derived triple: the question's date text, or the period node's name
    date: DateValue | None = None  # a bound given as a date in the question
    period_key: str | None = None  # a bound given as a period node (start and end in the KG)
    anchor_key: str | None = None  # a bound given as another node's date (`诺曼底登陆之后`)
    start: int = 0  # normalised span in the question
    end: int = 0
    hint: str = ""  # words naming the anchor's date (`开幕`, `具备初始作战能力`)
    # the bound's own period holds too: an after-bound counted from its start (`进入21世纪以后`, `2010年以来`) or a
    # bound said inclusive (`1945年5月或之后`, `X及以前`)
    inclusive: bool = False
    # the bound is the day (or year) `offset` after the anchor's date (`X逝世的第二天`: 1, "day"); 0 for none
    offset: int = 0
    offset_unit: ShiftUnit = "day"


@dataclass(frozen=True, slots=True)
class NumericThreshold:
    text: str  # `射程超过1000公里`
    attribute: str  # `射程`, "" when the question names none
    relation: str  # 数值大于 / 数值不小于 / ...
    operand: str  # `1000公里`, verbatim
    quantity: Quantity
    start: int = 0
    end: int = 0


@dataclass(frozen=True, slots=True)
class OrderSpec:
    text: str  # `最早`
    aspect: str  # "time" or "quantity"
    direction: str  # "min" or "max"
    context: str  # normalised words around it (`服役`, `射程`) that name the attribute compared


@dataclass(frozen=True, slots=True)
class Analysis:
    question: str
    mapped: MappedText
    mentions: tuple[Mention, ...]
    form: Form
    person: bool  # the answer is a person (谁 / 哪位)
    type_word: str  # the noun the question asks for (`驱逐舰` in `哪艘驱逐舰`), normalised, "" when none
    type_text: str  # the same, verbatim
    times: tuple[TimeWindow, ...]
    numerics: tuple[NumericThreshold, ...]
    order: OrderSpec | None
    comparative: tuple[str, str] | None  # (aspect, direction) of a which-of-two question
    comparative_text: str  # its comparison phrase, verbatim (`射程更远`), "" when none
    compared: tuple[str, ...] = ()  # the mention keys a which-of question compares (two or more)
    roles: dict[str, Role] = field(default_factory=dict)  # mention key -> role marked by a preceding word
    role_text: dict[str, str] = field(default_factory=dict)  # mention key -> the constraint's wording, if not its name
    residual: str = ""  # normalised words left for relation matching, segments joined by "|"
    asked: str = ""  # the residual words just before the question word (`舷号` in `…舷号是什么`), normalised
    mention_keyset: frozenset[str] = frozenset()  # keys of `mentions` (precomputed: read per scored chain)
    # KG triples joining a mentioned node to another node the question names inside that mention (`谢菲尔德号` in
    # `谢菲尔德号遇袭` -> the event): the evidence must reach every name the question uses
    inner_anchors: tuple[tuple[str, tuple[str, str, str]], ...] = ()
    measure_word: str = ""  # the counter a how-many question asks in (`枚` in `几枚`), "" when none
    asked_unit: str = ""  # the unit a how-much question asks in (`节` in `多少节`, `公里` in `多少公里`), "" when none
    # words of a relation naming the attribute a how-adjective asks (`多高` -> 高, 升限), () when none
    asked_attribute: tuple[str, ...] = ()
    read_type: str = ""  # the KG node type an LLM read as the asked one (reason/reading.py), "" when none
    # the words after the question word when the KG's vocabulary does not know them (`设计机构研制` in
    # `由哪家设计机构研制的`): a kind the question names that the program cannot match; "" when none
    unknown_kind: str = ""
    asks_sibling: bool = False  # `与大连舰同一天入列的…`: the answer shares a node with a named one
    # mention keys right before the which-word of the asked noun (`位于印度哪个邦`): they scope it, so a KG that does
    # not connect the answer to them does not rule it out
    scopes: frozenset[str] = frozenset()
    asks_category: bool = False  # `哪一类导弹`: the kind itself is asked, not a member of it
    # `哪些是防空导弹`, `属于防空导弹的是哪几型`: the asked noun is said of the members (a kind they have), so a kind
    # the KG types as one (`远程防空导弹`, 类别) is no answer
    kind_predicated: bool = False
    asks_event: bool = False  # `…中，哪一次…`: the question counts events, so an event is asked
    asks_thing: bool = False  # `哪艘…`: a vessel, aircraft, vehicle or munition is asked, not a place or an event
    thing_counter: str = ""  # the measure word of `哪一艘` / `哪架` (lexicon.COUNTER_HEADS says what it counts)
    type_word_ends_phrase: bool = False  # the asked noun ends its phrase (`哪个州？`; not `军` of `哪一次军事行动`)
    person_role: str = ""  # the role word a who-question asks through (`军长` of `军长是谁`, `指挥` of `由谁指挥`)
    # the name the question's predicate is said of, right before it (`…盟军第30军由谁指挥`: 第30军), when the
    # question names others too; "" when it does not say
    subject: str = ""
    # the words after it when a comma follows it (`…投入反击的英国第2师，所属那个军的军长是谁`): what is said of it
    # there, not in the clause before, leads from it to the answer; "" otherwise
    subject_rest: str = ""
    type_word_names_events: bool = False  # the asked noun is a kind of event in this KG (`哪起事故`, `哪项任务`)
    # the person types a relation spelled like the asked noun reaches (`试飞员` -> `人物`, as `X 试飞员 Y` has it)
    role_person_types: frozenset[str] = frozenset()
    # `加入X的荷兰军舰叫什么`: the name asked is of a thing the question describes after its last name, not another
    # name of that name (an alias hop from a mention is then no answer)
    names_described: bool = False
    # `A的计划年产量比原年产量多吗`: two relations of one named thing a yes/no question compares (normalised names,
    # the one before 比 first); `comparative` holds the comparison
    compared_relations: tuple[str, str] | None = None
    negated: tuple[NegatedPredicate, ...] = ()  # predicates the answer must not have (`哪一艘没有沉没`)

    def mention_keys(self) -> list[str]:
        return list(dict.fromkeys(m.key for m in self.mentions))

    @property
    def bound_keys(self) -> frozenset[str]:
        """Mentions that only bound a time window (`二战期间`, `X开幕之前`)."""
        return frozenset(k for t in self.times for k in (t.period_key, t.anchor_key) if k is not None)

    @property
    def mention_set(self) -> frozenset[str]:
        return self.mention_keyset or frozenset(m.key for m in self.mentions)


def asked_kind_cleared(analysis: Analysis) -> Analysis:
    """The analysis without what it read of the kind asked: for a sub-question about another part of the question
    (the group a superlative picks from), whose kind the question's own question word does not name."""
    return replace(
        analysis,
        person=False,
        type_word="",
        type_text="",
        measure_word="",
        asked_unit="",
        read_type="",
        unknown_kind="",
        asks_category=False,
        asks_event=False,
        asks_thing=False,
    )


def _has_any(text: str, words: tuple[str, ...]) -> bool:
    return any(w in text for w in words)


def _is_yes_no(nq: str) -> bool:
    """`是否…` / `…吗`, but not a request wrapped round a question (`你知道…是哪一天首飞的吗`, `能否告诉我…的舷号`)."""
    frame = next((f for f in sorted(REQUEST_FRAMES, key=len, reverse=True) if nq.startswith(f)), "")
    if frame:  # the question inside decides (`你知道南昌舰是否参加了阅兵吗` is still yes/no)
        return _has_any(re.sub(r"[吗呢]$", "", nq[len(frame) :]), BOOL_WORDS)
    ends_negated = bool(re.search(YES_NO_ENDING, nq)) and not _has_any(nq, INTERROGATIVES)
    return _has_any(nq, BOOL_WORDS) or bool(re.search(r"吗$", nq)) or bool(re.search(A_NOT_A, nq)) or ends_negated


def detect_form(
    nq: str, mentions: list[Mention], mapped: MappedText | None = None
) -> tuple[Form, tuple[str, str] | None]:
    """The answer form from the normalised question (see docs/annotation.md for the answer_type of each)."""
    return _form(nq, _comparative(nq, mentions, mapped))


_AMONG_THEN_ASKED = re.compile(f"(?:{'|'.join(AMONG_WORDS)}).*?(?:{'|'.join(INTERROGATIVES)})")


def asks_how_many(nq: str) -> bool:
    """A how-many word that asks: `F-35的几种型别中，最早…的是哪一型` only describes the group it picks from (the
    count word is followed by an among-word and a question word of its own). Every occurrence is read: `几起坠机
    事故里，有几起造成…` describes the group by the first and asks by the second."""
    return any(
        not _AMONG_THEN_ASKED.search(nq, m.end()) and not _asked_later(nq, m)
        for pattern in COUNT_PATTERNS
        for m in re.finditer(pattern, nq)
    )


def _asked_later(nq: str, m: re.Match[str]) -> bool:
    """A how-many word with another question word after it says `some` (`几家企业…达成和解，罚款总额是多少`): the
    last question word is what the question asks."""
    return m.group(0).startswith(HOW_MANY_WORDS) and any(w in nq[m.end() :] for w in INTERROGATIVES)


def _form(
    nq: str,
    comparative: tuple[str, str, int, int, tuple[str, ...]] | None,
    thresholds: Sequence[tuple[int, int]] = (),
) -> tuple[Form, tuple[str, str] | None]:
    """`detect_form` given the question's which-of comparison (`_comparative`), found once by the caller.

    A count word inside a threshold (`thresholds`, the spans of `订购数量超过20架`) filters the answers; it does not
    ask how many."""
    if _is_yes_no(nq):
        return "bool", None
    if comparative is not None:
        return "choice", comparative[:2]
    unfiltered = (
        "".join("，" if any(a <= i < b for a, b in thresholds) else c for i, c in enumerate(nq)) if thresholds else nq
    )
    if asks_how_many(unfiltered):
        return "count", None
    if any(re.search(p, nq) for p in TIME_QUESTION_PATTERNS):
        return "time", None
    if _has_any(nq, SET_WORDS):
        return "set", None
    if any(re.search(p, nq) for p in PLACE_QUESTION_PATTERNS):
        return "place", None
    # a number word followed by a which-word describes what the which-word asks (`离默兹河只有几公里的地方，…被哪支部队
    # 击溃`): it asks no number
    if any(WHICH not in nq[m.end() :] for p in NUMBER_QUESTION_PATTERNS for m in re.finditer(p, nq)):
        return "number", None
    return "entity", None


def _scopes(
    nq: str, mentions: list[Mention], mapped: MappedText, type_word: str, tw_start: int, tw_end: int
) -> frozenset[str]:
    """Mentions right before `哪…<asked noun>` (`印度` in `位于印度哪个邦`, `美国` in `美国哪个州`), not one of a list
    of names (`A和B哪一个`), when the question names something else too."""
    if not type_word or len(mentions) < 2:
        return frozenset()
    which = re.compile(rf"哪一?[{MEASURE_WORDS}]?{re.escape(nq[tw_start:tw_end])}")
    listed = {m.key for group in listed_names(nq, mentions, mapped) for m in group}
    return frozenset(
        m.key for m in mentions if m.key not in listed and m.end < tw_start and which.match(nq, m.end) is not None
    )


def listed_names(nq: str, mentions: Sequence[Mention], mapped: MappedText | None = None) -> list[tuple[Mention, ...]]:
    """Runs of two or more names joined by nothing but a coordinating word (`A、B和C`), in question order. `、` is
    read from the question's own wording (`mapped`): normalising drops it."""
    ordered = sorted(mentions, key=lambda m: m.start)
    groups: list[tuple[Mention, ...]] = []
    run: list[Mention] = ordered[:1]
    for m in ordered[1:]:
        between = nq[run[-1].end : m.start] or (mapped.gap(run[-1].end, m.start).strip() if mapped else "")
        if between in COORDINATORS and m.key not in {r.key for r in run}:
            run.append(m)
            continue
        if len(run) >= 2:
            groups.append(tuple(run))
        run = [m]
    if len(run) >= 2:
        groups.append(tuple(run))
    return groups


# after listed names, a clause ending in `的…里/中` describes a group they are not members of (`指挥打的几次战役里`);
# right after the names (`A和B中…`), or said of each (`A和B各自采购的…中`), the names are the group
_DESCRIBED_GROUP = re.compile(r"(?!中|里|当中|之中)(?!.*(?:各自|分别))[^的]+的[^的]*(?:当中|之中|中|里)$")


def _comparative(
    nq: str, mentions: list[Mention], mapped: MappedText | None = None
) -> tuple[str, str, int, int, tuple[str, ...]] | None:
    """`A和B哪个更早` / `A与B谁的射程更远` / `A、B和C中射程最远的是哪一种`: mentions joined by conjunctions, then a
    comparison word.

    Returns (aspect, direction, start, end, keys): the normalised span of the comparison phrase (`射程更远`,
    `先沉没`, `更早`) that the `order` constraint quotes, and the keys of the compared mentions (two or more).
    """
    qm = re.search(r"哪一?(?:个|艘|架|款|型|种|方|位|支|次|国|家|份|项|名|辆|枚)?|谁", nq)
    if not qm:
        return None
    groups = listed_names(nq, mentions, mapped) + _described_pair(nq, mentions) + _parallel_pair(nq, mentions)
    for group in groups:  # `A、B和C中…最早`: every name of the list is compared
        last = group[-1]
        if last.end <= qm.start() and _DESCRIBED_GROUP.match(nq[last.end : qm.start()]):
            continue  # `陈毅、粟裕指挥打的几次战役里，哪一次…`: the names describe the group compared, not its members
        # the comparison after the question word (`A和B哪个更早`), else between the names and it (`A和B中射程最远的
        # 是哪一种`); a superlative says it too (`A、B中哪一份的数量最多`)
        if qm.start() < last.end:
            tails = [(last.end, nq[last.end :])]
        else:
            tails = [(qm.end(), nq[qm.end() :]), (last.end, nq[last.end : qm.start()])]
        for tail_start, tail in tails:
            found = _comparison_in(nq, tail, tail_start, _COMPARISON_WORDS, mentions, mapped)
            if found is not None:
                return (*found, tuple(m.key for m in group))
    return None


def _described_pair(nq: str, mentions: Sequence[Mention]) -> list[tuple[Mention, ...]]:
    """`A和外形相近的丙国B相比，哪一型更快`: two names joined by a coordinator and a description of the second (words
    with a `的`; a name in them describes), the second closed by a compared-with word — the pair compared."""
    ordered = sorted(mentions, key=lambda m: m.start)
    out: list[tuple[Mention, ...]] = []
    for j, b in enumerate(ordered):
        if not any(nq.startswith(w, b.end) for w in COMPARED_WITH_CLOSERS):
            continue
        for a in reversed(ordered[:j]):
            between = nq[a.end : b.start]
            if a.key != b.key and between.startswith(COMPARED_WITH_OPENERS) and POSSESSIVE in between:
                out.append((a, b))
                break
    return out


PARALLEL_WORD_CHARS = 4  # the most characters a word said after each of two compared names may have


def _parallel_pair(nq: str, mentions: Sequence[Mention]) -> list[tuple[Mention, ...]]:
    """`A守军和B守军相比，哪一处的兵力更多`: two names each followed by the same word, joined by a coordinator — the
    pair compared (the word says what of each is compared)."""
    ordered = sorted(mentions, key=lambda m: m.start)
    out: list[tuple[Mention, ...]] = []
    for a, b in pairwise(ordered):
        between = nq[a.end : b.start]
        word = next((between[: -len(c)] for c in COORDINATORS if between.endswith(c)), "")
        # (not `A的首舰和B的首舰`: a thing of each is compared, reached from the names)
        if (
            a.key != b.key
            and 0 < len(word) <= PARALLEL_WORD_CHARS
            and POSSESSIVE not in word
            and nq.startswith(word, b.end)
        ):
            out.append((a, b))
    return out


def _than_comparison(nq: str, mentions: list[Mention]) -> tuple[str, str, int, int, tuple[str, ...]] | None:
    """`A的机内燃油比B多吗` / `A是否比B更早服役`: a yes/no question comparing the first name with the one right after
    `比`, by the comparison word after the second — as `_comparative` returns it (yes when the first wins); or
    `和B比起来，A的…更少吗`, the other way round."""
    ordered = sorted(mentions, key=lambda m: m.start)
    # `和B比起来，A的机组人数是不是更少`: the name compared with comes first, then the one asked about
    for b, a in pairwise(ordered):
        closer = next((w for w in COMPARED_WITH_CLOSERS if nq.startswith(w, b.end)), "")
        if a.key == b.key or not closer or a.start < b.end + len(closer):
            continue
        if not any(nq[: b.start].endswith(w) for w in COMPARED_WITH_OPENERS):
            continue
        found = _comparison_in(nq, nq[a.end :], a.end, _COMPARISON_WORDS)
        if found is not None:
            return (*found, (a.key, b.key))
    for a, b in pairwise(ordered):
        if a.key == b.key or not any(nq[: b.start].endswith(w) and b.start - len(w) >= a.end for w in THAN_WORDS):
            continue
        found = _comparison_in(nq, nq[b.end :], b.end, _COMPARISON_WORDS)
        if found is not None:
            return (*found, (a.key, b.key))
    return None


def _than_relations(
    nq: str, mentions: list[Mention], relation_names: frozenset[str]
) -> tuple[str, str, int, int, tuple[str, str]] | None:
    """`A的计划年产量比原年产量多吗`: a yes/no question comparing two of one named thing's attributes — a relation
    name of the KG right before `比` and another right after it, then a comparison word (yes when the first wins)."""
    if not mentions:
        return None
    first_end = min(m.end for m in mentions)
    for w in THAN_WORDS:
        i = nq.find(w, first_end)
        if i < 0:
            continue
        after = i + len(w)
        found = _comparison_in(nq, nq[after:], after, _COMPARISON_WORDS)
        if found is None:
            continue
        stop = i
        for b in BOOL_WORDS:  # `A的原年产量是否比计划年产量少`
            if nq[first_end:i].endswith(b):
                stop = i - len(b)
                break
        left = next((w for k in range(first_end, stop) if (w := _as_relation(nq[k:stop], relation_names))), "")
        right = next((nq[after:e] for e in range(found[3], after, -1) if nq[after:e] in relation_names), "")
        if left and not right:
            # `日方损失的飞机是不是比美方多`: after 比 only the word in which the other relation differs
            tail = nq[after : found[3]]
            word = next((w for w in sorted(_COMPARISON_WORDS, key=len, reverse=True) if tail.endswith(w)), "")
            right = _parallel_relation(left, tail[: len(tail) - len(word)], relation_names)
        if left and right and left != right:
            return (*found, (left, right))
    return None


def _as_relation(words: str, relation_names: frozenset[str]) -> str:
    """`words` as a relation name of the KG, as written or without the possessive (`日方损失的飞机`); "" if neither."""
    for w in (words, words.replace(POSSESSIVE, "")):
        if w in relation_names:
            return w
    return ""


def _parallel_relation(relation: str, word: str, relation_names: frozenset[str]) -> str:
    """The other relation of the KG that is `relation` with one part replaced by `word` (`日方损失飞机` and `美方` ->
    `美方损失飞机`); "" when there is none or several."""
    if len(word) < 2:
        return ""
    found = {
        r
        for r in relation_names
        if r != relation
        and (p := r.find(word)) >= 0
        and len(r) == len(relation)
        and r[:p] + r[p + len(word) :] == relation[:p] + relation[p + len(word) :]
    }
    return found.pop() if len(found) == 1 else ""


def _in_how_many(text: str, i: int, n: int) -> bool:
    """The word at `text[i:i+n]` is part of 多少 (`是多少` asks a number; it compares nothing)."""
    return "多少" in text[max(0, i - 1) : i + n + 1]


_CLAUSE_MARK = re.compile(r"[，,。；;？?！!：:]")


def after_clause_break(q: MappedText, start: int, end: int) -> int:
    """The last normalised position in (`start`, `end`] that follows a punctuation mark of the question's own
    wording (normalising drops it); `start` when there is none."""
    return max((k for k in range(start + 1, end + 1) if _CLAUSE_MARK.search(q.gap(k, k))), default=start)


def _word_goes_on(nq: str, at: int, mapped: MappedText | None) -> bool:
    """A Chinese character at `at` of `nq` that continues the word before it — not a particle or a degree
    complement (`的`, `一些`, `得多`, `吗`), not after a punctuation mark of the question, not its end."""
    if at >= len(nq) or not is_han(nq[at]) or nq[at] in PHRASE_END_CHARACTERS:
        return False
    gap = mapped.gap(at, at) if mapped is not None else ""
    return not (_CLAUSE_MARK.search(gap) or "、" in gap)


_COMPARISON_WORDS = {**COMPARATIVE_WORDS, **ORDER_WORDS}  # longest first in the search: `最晚` before `晚`


# an attribute's words and a numeric comparison word with its number (`射程超过150`)
_COMPARATORS_LONGEST_FIRST = "|".join(sorted(NUMERIC_COMPARATORS, key=len, reverse=True))
_THRESHOLD_AFTER = re.compile(rf"[\u4e00-\u9fff]{{1,6}}?(?:{_COMPARATORS_LONGEST_FIRST})了?[\d一二三四五六七八九十两]")


def _comparison_in(
    nq: str,
    tail: str,
    tail_start: int,
    words: Mapping[str, tuple[str, str]],
    names: Sequence[Mention] = (),
    mapped: MappedText | None = None,
) -> tuple[str, str, int, int] | None:
    """The first comparison word of `tail` (at `tail_start` of `nq`): (aspect, direction, start, end) of the phrase
    the `order` constraint quotes (`射程更远`, `先沉没`, `更早`). A word inside one of `names` compares nothing
    (`远` of `远征军`)."""

    def skipped(i: int, n: int) -> bool:
        at = tail_start + i
        if n == 1 and words.get(tail[i], ("", ""))[0] == "quantity" and _word_goes_on(nq, at + 1, mapped):
            return True  # a bare `长` / `远` ends its phrase (`谁的航程长`): in `司令长官` it is no comparison
        if _THRESHOLD_AFTER.match(nq, at + n):
            return True  # `最大射程超过150公里`: the word is part of the attribute a threshold bounds
        return _in_how_many(tail, i, n) or any(m.start <= at and at + n <= m.end for m in names)

    for word in sorted(words, key=len, reverse=True):
        i = tail.find(word)
        while i >= 0 and skipped(i, len(word)):
            i = tail.find(word, i + 1)
        if i < 0:
            continue
        aspect, direction = words[word]
        seg = tail[:i]
        seg = seg.split("的")[-1] if "的" in seg else seg
        if mapped is not None:
            # nor across a punctuation mark of the question (`三方中，在…阵亡人数最多`: from `在`)
            at = tail_start + i - len(seg)
            seg = seg[after_clause_break(mapped, at, tail_start + i) - at :]
        seg = re.sub(r"^(?:相比|比较|相较|而言|中|之中)+", "", seg)
        if seg.endswith("得") or not re.fullmatch(r"[\u4e00-\u9fffA-Za-z0-9]*", seg):
            seg = ""
        end = tail_start + i + len(word)
        if len(word) == 1 and aspect == "time":  # `先沉没`: a one-character adverb quotes the verb after it
            m = re.match(r"[\u4e00-\u9fff]{1,4}", nq[end:])
            if m:
                end += len(m.group(0).rstrip(QUESTION_PARTICLES))
        return aspect, direction, tail_start + i - len(seg), end
    return None


_TYPE_WORD_AFTER = re.compile(rf"(?:哪一?[{MEASURE_WORDS}些国]?|什么|何种|几[{MEASURE_WORDS}]|多少[{MEASURE_WORDS}])")


_ONE_THING_MEASURE_WORDS = "".join(c for c in MEASURE_WORDS if c not in KIND_MEASURE_WORDS)
# the asked noun before the question word: `…的驱逐舰有哪些`, `…的两栖攻击舰是哪一艘` (one thing), `…的北约国家中，
# 哪一个…` (a member of the group named before 中)
_TYPE_WORD_BEFORE = re.compile(
    rf"(?:有|是|包括|分别是|都有)?(?:哪些|哪几)|(?P<one>(?:是|为)哪一?[{_ONE_THING_MEASURE_WORDS}])|(?:中|里)(?=哪|谁)"
    # `…的俄舰里，岸防舰有几艘`, `…的纵队一共有几个`: the noun counted, before the count (not a group whose kinds
    # are counted: `…的第五代战斗机共有几型`)
    rf"|(?:一共|总共|共)?有(?:几|多少)[{_ONE_THING_MEASURE_WORDS}]$"
)


def kg_uses_noun(type_word: str, index: KGIndex) -> bool:
    """The asked noun is a word of the KG (or one character ending its names); otherwise `_type_word` read a
    two-character noun by its head only (`什么飞机`), and it is matched by that head."""
    return len(type_word) == 1 or type_word in index.vocabulary


# a count opening a noun phrase (`三架`, `3艘`; not a designation, `055型`)
_COUNTED = re.compile(rf"^(?:[{COUNT_NUMERALS}]+|\d+(?![{KIND_MEASURE_WORDS}]))[{MEASURE_WORDS}]")
_PHRASE_END = re.compile(r"[的是在了吗呢，,。？?]")  # where the noun phrase after a question word ends


def _type_word(
    nq: str,
    vocabulary: frozenset[str],
    endings: frozenset[str] = frozenset(),
    relations: frozenset[str] = frozenset(),
    name_starts: frozenset[int] = frozenset(),
    inside_names: frozenset[int] = frozenset(),
) -> tuple[str, int, int]:
    """The noun the question asks for (`公司` in `哪家公司研制的`, `航空母舰` in `几艘航空母舰`, `驱逐舰` in
    `…的驱逐舰有哪些`) and its normalised span: the longest start of the text after the question word (or end of
    the text before it) that ends some KG name, type or relation — the KG's vocabulary stands in for a word
    segmenter."""
    for m in _TYPE_WORD_AFTER.finditer(nq):
        if m.group(0)[-1:] in COUNTRY_TYPE_WORDS:
            # `哪国造的`, `哪国公司制造的`: the question word names the kind itself; a noun after it is the thing
            # whose country is asked
            return m.group(0)[-1:], m.end() - 1, m.end()
        at = m.end() + (1 if nq[m.end() : m.end() + 1] in COPULAS else 0)  # `哪些是防空导弹`
        window = nq[at : at + 8]
        rest = _PHRASE_END.split(window)[0]
        if rest[:1] in KIND_MEASURE_WORDS and nq[at + len(rest) : at + len(rest) + 1] == "的":
            # `哪种型号的反应堆`: after a sort noun (`型号`, `类型`), the head after 的 is the thing asked — a sort
            # of it (`哪个国家的海军`, `哪支部队发射的导弹` ask the words before 的)
            head_at = at + len(rest) + 1
            after = _PHRASE_END.split(nq[head_at : head_at + 8])[0]
            for n in range(len(after), 1, -1):
                if after[:n] in vocabulary and after[:n] not in relations:
                    # the sort noun is no relation word either, unless a relation of the KG spells it (`所属型号`)
                    spelled = any(rest in r for r in relations)
                    return after[:n], head_at if spelled else at, head_at + n
        if m.group(0) == "什么" and (verb := next((v for v in NAME_ASKING_VERBS if nq[: m.start()].endswith(v)), "")):
            # `…的试飞员叫什么名字`: the name of a thing the noun before the naming verb says the kind of
            named = _kg_word_ending(nq[: m.start() - len(verb)].split(POSSESSIVE)[-1], vocabulary)
            return named, m.start() - len(verb) - len(named), m.start() - len(verb)
        sort = next((w for w in SORT_NOUNS if rest.startswith(w)), "")
        sorted_noun = _noun_before_copula(nq[: m.start()], vocabulary, endings) if sort else ""
        if sorted_noun:
            # `主炮是什么型号`: a model of the 主炮 is asked (a thing the KG names as it names 炮); the sort noun's span
            # is the one taken out of the relation words
            return sorted_noun, at, at + len(sort)
        members_described = False
        for n in range(len(rest), 1, -1):
            # after `哪一型` a relation's name then a superlative is what is said of it (`哪一型首飞时间最晚`), not
            # the kind asked (`哪个舰级` is)
            said = rest[:n] in relations and nq[at + n : at + n + 1] in DEGREE_MARKERS
            if rest[:n] in vocabulary and not (m.group(0)[-1:] in MEASURE_WORDS and said):
                if at in name_starts and (head := _noun_after_name(rest[n:], vocabulary, relations)):
                    # `哪家法国企业`: a name opens the phrase and describes the noun after it, the kind asked
                    return head, at + n, at + n + len(head)
                if at in name_starts and len(rest) == n + 1 and rest[n] in endings:
                    # `哪一个苏联空军团`: so does one character ending the phrase that ends names of the KG
                    return rest[n], at + n, at + n + 1
                head_at = at + n + 1
                if at in name_starts and n == len(rest) and nq[at + n : head_at] == POSSESSIVE:
                    # `哪一型已退役的驱逐舰`: so does a name and 的 before the noun
                    after = _PHRASE_END.split(nq[head_at : head_at + 8])[0]
                    if head := _noun_after_name(after, vocabulary, relations):
                        return head, head_at, head_at + len(head)
                verb_follows = n < len(rest) and nq.startswith(POSSESSIVE, at + len(rest))
                if at in name_starts and at > m.end() and verb_follows:
                    # `…的弹药里，哪些是波音公司造的`: after the copula a name and a verb before 的 say what the
                    # members are, not their kind (the group's noun before the question word is)
                    members_described = True
                    break
                return rest[:n], at, at + n
        if members_described:
            continue
        counted = m.group(0)[-1:] in MEASURE_WORDS or m.group(0) in ("什么", "何种")
        if counted and (len(rest) < len(window) or at + len(rest) == len(nq)):
            # a noun phrase that ends where the clause does, opened by a name or a noun (`哪支联合国维和部队的框架下`,
            # `哪个苏军集团军`): its head is its end — the longest end the KG uses is the kind asked, and the words
            # before it describe it (a weak link is no anchor there)
            for n in range(len(rest) - 1, 1, -1):
                noun_before = at in name_starts or rest[len(rest) - n - 1] in endings
                if noun_before and rest[-n:] in vocabulary and rest[-n:] not in relations:
                    return rest[-n:], at, at + len(rest)
        # a noun the KG does not use that ends in a word it does (`几场子战役里`: `战役`): that word is the kind
        # asked (before `里`/`中`, which end no phrase of their own)
        for n in range(min(len(rest), 4), 2, -1):
            if any(rest.startswith(w, n) for w in AMONG_WORDS) and (word := _kg_word_ending(rest[1:n], vocabulary)):
                return word, at + n - len(word), at + n
        # a two-character noun the KG does not use whose head (its last character) ends KG names (`什么飞机` with
        # `超级军旗攻击机`): the kind asked, matched by that head
        if len(rest) >= 2 and rest[1] in endings and rest[:2] not in relations:
            return rest[:2], at, at + 2
        # … so is a longer one that ends the question (`是哪一台柴油机` with `…柴油发动机`)
        if 2 < len(rest) <= LONG_UNKNOWN_NOUN_CHARS and at + len(rest) == len(nq) and rest[-1] in endings:
            return rest, at, at + len(rest)
        # a noun the language gives a coarse kind though the KG uses it nowhere (`哪家企业生产的`)
        if rest[:2] in COARSE_KIND_NOUNS:
            return rest[:2], at, at + 2
        # one character that ends names of the KG and then the clause (`哪个州`, `哪座岛上`)
        # (or a verb: `在哪个州总装` — a longer word it starts would have matched above)
        if rest[:1] in endings:
            return rest[:1], at, at + 1
    for m in _TYPE_WORD_BEFORE.finditer(nq):
        head = nq[max(0, m.start() - 8) : m.start()]
        if "的" not in head:
            continue
        head = head.split("的")[-1]
        end = m.start()
        among = next((w for w in AMONG_WORDS if head.endswith(w)), "")
        if among:  # `…的伯克级舰中，哪几艘`: the group's noun ends before the among-word
            head, end = head[: -len(among)], end - len(among)
        head = _COUNTED.sub("", head)  # `阵风的三架原型机里`: the noun after its count (not `架原型机`)
        # `…的两栖攻击舰是哪一艘` names the kind; `…的型别是哪一个` a relation, matched against relations instead
        singular = m.group("one") is not None
        for n in range(len(head), 1, -1):
            word = head[-n:]
            if word in vocabulary and not (singular and any(r.endswith(word) for r in relations)):
                return word, end - n, end
        for n in (3, 2):  # `…的航母有哪些`: a short form of a KG word (`航空母舰`) — not one begun inside a name
            # the question links (`基洛夫级舰` is no short form of `夫级导弹巡洋舰`)
            inside = end - n in inside_names
            full = _expanded(head[-n:], vocabulary) if len(head) >= n and not inside else ""
            if full:
                return full, end - n, end
        if len(head) == 2 and head[-1] in endings and head not in relations and end - 2 not in inside_names:
            # `…投入的飞机中，哪些…` with `Ju 52运输机`: a two-character noun the KG does not use whose head ends KG
            # names, as after the question word (a longer one may be two nouns: `坦克火炮`)
            return head, end - 2, end
    return "", 0, 0


LONG_UNKNOWN_NOUN_CHARS = 4  # a noun the KG does not use, ending the question, this long at most is an asked kind


def _noun_before_copula(before: str, vocabulary: frozenset[str], endings: frozenset[str]) -> str:
    """`…的主炮是` -> `炮`: the noun that ends the text before a final `是`, as the KG spells kinds — the longest end
    of 2-4 characters that is a KG word, else its last character when KG names end in it; "" when none."""
    copula = next((c for c in COPULAS if before.endswith(c)), "")
    if not copula:
        return ""
    words = before[: -len(copula)].split(POSSESSIVE)[-1]
    return _kg_word_ending(words, vocabulary) or (words[-1:] if words[-1:] in endings else "")


def _kg_word_ending(words: str, vocabulary: frozenset[str]) -> str:
    """The longest end of `words`, of 2-4 characters, that is a KG word (`…的试飞员` -> `试飞员`); "" when none."""
    return next((words[-n:] for n in range(min(4, len(words)), 1, -1) if words[-n:] in vocabulary), "")


def _noun_after_name(text: str, vocabulary: frozenset[str], relations: frozenset[str]) -> str:
    """The longest start of `text` (2+ characters) that is a KG word and no relation name; "" when none."""
    for n in range(len(text), 1, -1):
        if text[:n] in vocabulary and text[:n] not in relations:
            return text[:n]
    return ""


@lru_cache(maxsize=4096)
def _expanded(word: str, vocabulary: frozenset[str]) -> str:
    """The one shortest KG word that `word` abbreviates — the same first character, the others in order
    (`航母` -> `航空母舰`); "" when there is none or several."""
    found: list[str] = []
    for v in vocabulary:
        if len(v) > len(word) and v[0] == word[0] and _in_order(word[1:], v[1:]):
            if v.startswith(word):
                return ""  # a word the KG goes on from is a word of its own: `坦克` is no short form of `坦克夜袭`
            found.append(v)
    if not found:
        return ""
    short = min(len(v) for v in found)
    best = {v for v in found if len(v) == short}
    return best.pop() if len(best) == 1 else ""


def _in_order(chars: str, text: str) -> bool:
    it = iter(text)
    return all(c in it for c in chars)


def _ends_question(nq: str, words: str) -> bool:
    """`words` end the normalised question, but for final particles (`…什么别称呢`)."""
    return nq.rstrip(QUESTION_PARTICLES).endswith(words)


_WHICH_COPULA = re.compile(rf"(?:哪些|哪几[{MEASURE_WORDS}]?)(?:{'|'.join(COPULAS)})$")
_BELONGS_THEN_WHICH = re.compile(rf"属于(?P<kind>[^的，,]{{2,8}})的(?:{'|'.join(COPULAS)})?(?:哪些|哪几)")


def _after_which_copula(nq: str, tw_start: int) -> bool:
    """The asked noun follows `哪些是` / `哪几艘是` (`…中，哪些是防空导弹`)."""
    return bool(_WHICH_COPULA.search(nq[:tw_start]))


def _predicated_kind(nq: str, vocabulary: frozenset[str]) -> tuple[str, int, int] | None:
    """`属于防空导弹的是哪几型`: a KG word after 属于, then 的 and a which-question (the kind, and its span)."""
    m = _BELONGS_THEN_WHICH.search(nq)
    if m is None or m.group("kind") not in vocabulary:
        return None
    return m.group("kind"), m.start("kind"), m.end("kind")


def _unknown_kind(nq: str) -> str:
    """The words right after a question word (`哪家`, `什么`, `哪一艘`) up to the next function word, when there are
    two or more: the kind asked for, spelled in words the KG does not use (called when `_type_word` found none)."""
    for m in _TYPE_WORD_AFTER.finditer(nq):
        rest = re.split(r"[的是在了吗呢，,。？?|]", nq[m.end() : m.end() + 8])[0]
        if len(rest) >= 2:
            return rest
    return ""


def _time_windows(q: MappedText, mentions: list[Mention], index: KGIndex) -> list[TimeWindow]:
    nq = q.norm
    out: list[TimeWindow] = []
    # dates inside a linked name (`英国航母打击群2021年部署`) are part of the name
    spans = [q.span(m.start, m.end) for m in mentions if index.nodes[m.key].kind == "entity"]
    found = find_dates(q.original)
    # a month and day without a year (`6月4日`), dated by the KG's own dates of that day
    found += [
        d
        for d in find_month_days(q.original, index.dates)
        if not any(f.start <= d.start < f.end or d.start <= f.start < d.end for f in found)
    ]
    found.sort(key=lambda d: d.start)
    dates = [d for d in found if not any(a <= d.start and d.end <= b for a, b in spans)]
    used: set[int] = set()
    norm_pos = {o: i for i, o in reversed(list(enumerate(q.origin)))}  # original index -> first normalised index
    for i, d in enumerate(dates):
        if i in used:
            continue
        ns = norm_pos.get(d.start, 0)
        ne = q.norm_index(d.end)
        after = nq[ne:]
        # a span: `2010年至2015年`
        span_m = re.match(r"(至|到|-|—)", after)
        if span_m and i + 1 < len(dates):
            nxt = dates[i + 1]
            nns = norm_pos.get(nxt.start, 0)
            if nns == ne + len(span_m.group(1)):
                used.add(i + 1)
                ne2 = q.norm_index(nxt.end)
                word = _match_word(nq[ne2:], SPAN_CLOSING_WORDS)
                end = ne2 + len(word)
                text = q.verbatim(ns, end)
                operand = q.verbatim(ns, ne2)
                out.append(TimeWindow(text, "处于时期内", operand, date=None, start=ns, end=end))
                continue
        # a span said with words between its ends: `从1941年9月围城开始到1944年1月彻底解围`
        between = _FROM_TO.match(q.original, d.end) if i + 1 < len(dates) else None
        if (
            between is not None
            and between.end() == dates[i + 1].start
            and q.original[: d.start].rstrip().endswith(FROM_WORDS)
            and dates[i + 1].value.hi >= d.value.lo
        ):
            nxt = dates[i + 1]
            used.add(i + 1)
            start = norm_pos.get(d.start, 0) - 1
            tail = _SPAN_TAIL.match(q.original, nxt.end)
            end = q.norm_index(nxt.end + (len(tail.group(0)) if tail else 0))
            text = f"{d.text}至{nxt.text}"
            span = DateValue(d.value.lo, nxt.value.hi, "span", text)
            out.append(TimeWindow(q.verbatim(start, end), "处于时期内", text, span, start=start, end=end))
            continue
        # a span whose end leaves out the year (and month) it shares: `1854年10月至12月`, `6月5日至7日`
        part = _SPAN_END.match(q.original, d.end)
        whole = parse_date(q.original[d.start : part.end()]) if part else None
        if part and whole is not None and whole.precision == "span":
            end = q.norm_index(part.end())
            end += len(_match_word(nq[end:], SPAN_CLOSING_WORDS))
            text = q.verbatim(ns, end)
            out.append(TimeWindow(text, "处于时期内", whole.text, whole, start=ns, end=end))
            continue
        word = _match_word(after, TIME_AFTER_WORDS)
        relation = "晚于"
        if word in START_VERBS and not any(nq.endswith(w, 0, ns) for w in TIME_FROM_START_BEFORE):
            # `20世纪80年代开始交付`: the verb of beginning what is dated, within the date — an after-bound only
            # from a date (`从1990年开始`)
            word = ""
        if not word:
            word = _match_word(after, TIME_BEFORE_WORDS)
            relation = "早于"
        if not word:
            word = _match_word(after, TIME_WITHIN_WORDS)
            relation = "处于时期内"
        end = ne + len(word)
        entering = next((w for w in TIME_FROM_START_BEFORE if nq.endswith(w, 0, ns)), "") if relation == "晚于" else ""
        inclusive = bool(entering) or word in (*TIME_FROM_START_AFTER, *INCLUSIVE_AFTER_WORDS, *INCLUSIVE_BEFORE_WORDS)
        ns -= len(entering)
        # the verb after the window names the event dated (`2019年以前就签约采购的` -> 签约)
        verb = _VERB_AFTER_WINDOW.match(nq[end:])
        hint = (
            re.split(r"[的了是过]", verb.group(1))[0] if verb and end < len(nq) and _clause_start(q, end) < end else ""
        )
        out.append(
            TimeWindow(
                q.verbatim(ns, end), relation, d.text, d.value, start=ns, end=end, hint=hint, inclusive=inclusive
            )
        )
    taken = [(t.start, t.end) for t in out]
    for m in mentions:
        if any(a <= m.start < b for a, b in taken):
            continue
        after = nq[m.end :]
        # `X期间` / `X演习期间`: a period (a few words may sit between the name and 期间)
        pm = re.match(r"([\u4e00-\u9fff]{0,3}?)(期间|时期)", after)
        if pm:
            end = m.end + pm.end()
            key = m.key
            out.append(
                TimeWindow(q.verbatim(m.start, end), "处于时期内", index.name(key), None, key, None, m.start, end)
            )
            continue
        # `X解除的当天` / `与X登陆塔拉瓦同一天`: what is asked happened on the very day of X's event
        sm = _SAME_DAY.match(after)
        if (
            sm
            and not re.search(r"\d", sm.group(1))
            and not _has_any(sm.group(1), BOOL_WORDS)  # `X是否在中弹当天就沉没`: a yes/no on X's own dates
            and any(index.date(e.dst) for e in index.value_edges(m.key))
        ):
            end = m.end + sm.end()
            hint = sm.group(1)
            out.append(
                TimeWindow(q.verbatim(m.start, end), SAME_DAY_RELATION, "", None, None, m.key, m.start, end, hint=hint)
            )
            continue
        # `X逝世的第二天` / `X宣布列装后的第二年`: the day (or year) after the date of X's event is the bound
        rm = _RELATIVE_DAY.match(after)
        if rm and not re.search(r"\d", rm.group(1)) and any(index.date(e.dst) for e in index.value_edges(m.key)):
            end = m.end + rm.end()
            n, unit = RELATIVE_DAY_WORDS[rm.group(2)]
            text = q.verbatim(m.start, end)
            window = TimeWindow(text, "处于时期内", "", None, None, m.key, m.start, end, hint=rm.group(1))
            out.append(replace(window, offset=n, offset_unit=unit))
            continue
        # `X开幕之前` / `X具备初始作战能力之后`: another node's date is the bound
        am = re.match(r"([^，。,；;？?、]{0,12}?)(之后|以后|之前|以前)", after) or (
            re.match(r"()(后|前)", after) if not after.startswith(NOT_BOUND_WORDS) else None
        )
        # (with what normalising dropped right after the name: `…登陆，是不是发生在X之前` is no bound of 登陆's own)
        gap = q.gap(m.end, m.end) + q.verbatim(m.end, m.end + am.end()) if am else ""
        if (
            am
            and not re.search(r"[，。,；;？?、]|\d|是否", gap)  # one clause, no date of its own, not a yes/no verb
            and any(index.date(e.dst) for e in index.value_edges(m.key))
            and not (am.group(1) == "" and _object_of_described_event(q, mentions, m))
        ):
            relation = "晚于" if am.group(2) in ("之后", "以后", "后") else "早于"
            end = m.end + am.end()
            out.append(
                TimeWindow(q.verbatim(m.start, end), relation, "", None, None, m.key, m.start, end, hint=am.group(1))
            )
            out.extend(_continued_window(q, mentions, index, m.key, end))
            continue
        # `…是否早于X的首飞`: a comparison word before the name, and X's dated event after it, is the bound too
        before = next((w for w in TIME_COMPARISON_PREPOSITIONS if nq.endswith(w, 0, m.start)), "")
        pm = _PREPOSED_EVENT.match(after) if before else None
        if (
            pm is not None
            and not re.search(r"[，。,；;？?、]|\d", q.verbatim(m.end, m.end + pm.end()))
            and any(index.date(e.dst) for e in index.value_edges(m.key))
        ):
            start, end = m.start - len(before), m.end + pm.end()
            relation = TIME_COMPARISON_PREPOSITIONS[before]
            out.append(
                TimeWindow(q.verbatim(start, end), relation, "", None, None, m.key, start, end, hint=pm.group(1))
            )
            continue
        # `X发生时，Y是否已经完成…` / `X时，Y有没有入列`: what is asked had happened by X's date
        wm = _WHEN.match(after)
        if (
            wm
            and _has_any(nq[m.end + wm.end() :], (*ALREADY_WORDS, *BOOL_WORDS))
            and _clause_start(q, m.end + wm.end()) == m.end + wm.end()  # `时` ends its clause (not `时速`)
            and any(index.date(e.dst) for e in index.value_edges(m.key))
            # a clause of several names describes an event (`_described_bounds`), not this name's own date
            and _names_in(mentions, _clause_start(q, m.start), m.end) < 2
        ):
            end = m.end + wm.end()
            out.append(
                TimeWindow(q.verbatim(m.start, end), "早于", "", None, None, m.key, m.start, end, hint=wm.group(1))
            )
    out.extend(_described_bounds(q, mentions, index, out))
    return out


_ASKS_CATEGORY = re.compile("|".join(CATEGORY_QUESTION_PATTERNS))
_SORT_OF_NOUN = re.compile(SORT_OF_NOUN_PATTERN)


def _category_question(nq: str, index: KGIndex) -> re.Match[str] | None:
    """Where the question asks for a kind itself (`哪一类导弹`, `什么舰种` when the KG states kinds of ships)."""
    sort = _SORT_OF_NOUN.search(nq)
    if sort is not None and sort.group("noun") in category_heads(index):
        return sort
    return _ASKS_CATEGORY.search(nq)


_FROM_TO = re.compile(r"[\u4e00-\u9fff]{0,6}?(?:到|至)")  # `围城开始到`: the words between a span's two ends
_SPAN_TAIL = re.compile(r"[\u4e00-\u9fff]{0,6}?(?=[，,。；;？?])")  # the words closing a span's clause (`彻底解围`)
_SPAN_END = re.compile(r"(?:至|到|-|—)(?:\d{1,2}月(?:\d{1,2}[日号])?|\d{1,2}[日号])")
_SAME_DAY = re.compile(rf"([^，。,；;？?、]{{0,12}}?)的?(?:{'|'.join(SAME_DAY_WORDS)})")
_RELATIVE_DAY = re.compile(rf"([^，。,；;？?、]{{0,12}}?)(?:之?后)?的?({'|'.join(RELATIVE_DAY_WORDS)})")
_WHEN = re.compile(r"([\u4e00-\u9fff]{0,6}?)(" + "|".join(WHEN_WORDS) + ")")  # `X发生时` / `X原型机首飞的时候`
# after `早于X`: X's event (`的首飞`, `首飞`, `的首飞时间`), up to the question's end or a final particle
_PREPOSED_EVENT = re.compile(rf"的?([\u4e00-\u9fff]{{0,6}}?)(?=[{QUESTION_PARTICLES}]?$)")


def _object_of_described_event(q: MappedText, mentions: list[Mention], m: Mention) -> bool:
    """`在宣布向乙国提供X之后`: X closes a clause that names an event by other names and a verb; the bound is
    that event's date, not X's own."""
    cs = _clause_start(q, m.start)
    others = [o for o in mentions if cs <= o.start and o.end <= m.start]
    words = "".join(
        ch for i, ch in enumerate(q.norm[cs : m.start], start=cs) if not any(o.start <= i < o.end for o in others)
    )
    # `A是否发生在X之前`: the words before X ask about A, they describe no event of their own
    return bool(others) and len(words.lstrip("在")) >= 2 and not _has_any(words, BOOL_WORDS)


def _clause_start(q: MappedText, i: int) -> int:
    """The normalised index where the clause holding position `i` begins (after punctuation of the original)."""
    while i > 0:
        if any(ch in "，,。；;？?、：:" for ch in q.gap(i, i)):
            return i
        i -= 1
    return 0


def _names_in(mentions: list[Mention], start: int, end: int) -> int:
    """How many mentions lie within the normalised span [start, end)."""
    return sum(1 for x in mentions if start <= x.start and x.end <= end)


def _described_bounds(
    q: MappedText, mentions: list[Mention], index: KGIndex, found: list[TimeWindow]
) -> list[TimeWindow]:
    """`在美国宣布向乌克兰提供“海马斯”之后`: a bound described by several names (no window of a name's own date
    took it) — the dated node adjacent to (or named after) most of them is the event meant. So is the event of an
    at-the-time clause before a yes/no question (`美国宣布向乌克兰提供海马斯时，波兰是否已经签约…`)."""
    nq = q.norm
    out: list[TimeWindow] = []
    taken = [(t.start, t.end) for t in found]
    for bm in re.finditer("之后|以后|之前|以前|" + "|".join(WHEN_WORDS), nq):
        p = bm.start()
        if any(a <= p < b for a, b in taken):
            continue
        when = bm.group(0) in WHEN_WORDS
        if when and not (
            _clause_start(q, bm.end()) == bm.end() and _has_any(nq[bm.end() :], (*ALREADY_WORDS, *BOOL_WORDS))
        ):
            continue  # `时` inside a word (`时速`), or no yes/no question about what had happened by then
        cs = _clause_start(q, p)
        cs += 1 if nq[cs : cs + 1] == "在" else 0
        inner = [m for m in mentions if cs <= m.start and m.end <= p]
        if len(inner) < 2:
            continue
        words = nq[cs:p]
        best: tuple[float, str] | None = None
        for key in index.nodes:
            if not any(index.date(e.dst) for e in index.value_edges(key)):
                continue
            near = {e.dst for e in index.edges(key)} | {key}
            covered = sum(
                1 for m in inner if (index.alias_group(m.key) | {m.key}) & near or (len(m.key) >= 2 and m.key in key)
            )
            if covered < 2:
                continue
            named = max(share_spelled(e.relation, words) for e in index.value_edges(key) if index.date(e.dst))
            s = covered + named
            if best is None or s > best[0]:
                best = (s, key)
        if best is None:
            continue
        relation = "晚于" if bm.group(0) in ("之后", "以后") else "早于"  # at the time: what is asked came first
        out.append(TimeWindow(q.verbatim(cs, bm.end()), relation, "", None, None, best[1], cs, bm.end(), hint=words))
        taken.append((cs, bm.end()))
    return out


def _continued_window(q: MappedText, mentions: list[Mention], index: KGIndex, key: str, start: int) -> list[TimeWindow]:
    """`南昌舰在下水之后、正式入列之前`: a second bound joined to a window without a name of its own refers to the
    same node (its other date, named by the words before 之前/之后)."""
    nq = q.norm
    cm = re.match(r"(、|，|,|且|并且|而)?([^，。,；;？?、]{1,12}?)(之后|以后|之前|以前)", nq[start:])
    if not cm or any(start <= m.start < start + cm.end() for m in mentions):
        return []
    if not any(index.date(e.dst) for e in index.value_edges(key)):
        return []
    relation = "晚于" if cm.group(3) in ("之后", "以后") else "早于"
    s, e = start + len(cm.group(1) or ""), start + cm.end()
    return [TimeWindow(q.verbatim(s, e), relation, "", None, None, key, s, e, hint=cm.group(2))]


_VERB_AFTER_WINDOW = re.compile(
    rf"(?:{'|'.join(sorted(VERB_ADVERBS, key=len, reverse=True))})*([\u4e00-\u9fff]{{0,4}})"
)


def _match_word(text: str, words: tuple[str, ...]) -> str:
    for w in sorted(words, key=len, reverse=True):
        if text.startswith(w):
            return w
    return ""


def _numerics(q: MappedText, index: KGIndex, mentions: Sequence[Mention] = ()) -> list[NumericThreshold]:
    """Numeric thresholds (`射程超过300公里`, `舷号为105的`); a number that begins or continues a longer name the
    question links by name is part of that name (`所属型号为055型驱逐舰`: no `= 55 型`)."""
    nq = q.norm
    out: list[NumericThreshold] = []
    rel_names = sorted({normalize_text(r) for r in index.relations if r}, key=len, reverse=True)
    names = [(m.start, m.end) for m in mentions if m.how in ("exact", "core")]
    spelled = {nq[m.start : m.end] for m in mentions}
    found = [(q.norm_index(qm.start), q.norm_index(qm.end), qm.text, qm.value) for qm in find_quantities(q.original)]
    # a bare number right after a comparison word is one too (`舷号超过105的`), though it names no unit
    for bm in _COMPARED_NUMBER.finditer(nq):
        value = parse_quantity(bm.group(1))
        unit = nq[bm.end() : bm.end() + 1]
        with_unit = parse_quantity(bm.group(1) + unit) if unit else None
        if (unit and unit in TIME_UNIT_CHARS) or (with_unit is not None and with_unit.dimension):
            continue  # `超过10年`, `超过3艘`: a unit follows (a duration or a count, read elsewhere or not at all)
        if value is not None and not any(a < bm.end() and bm.start(1) < b for a, b, _, _ in found):
            found.append((bm.start(1), bm.end(), bm.group(1), value))
    for ns, ne, text, value in sorted(found):
        if any(a <= ns and ne <= b and (a, b) != (ns, ne) for a, b in names):
            continue
        # (an aspect particle may stand between the comparison word and the number: `超过了1300马力`)
        particle = ASPECT_PARTICLE if nq[:ns].endswith(ASPECT_PARTICLE) else ""
        before = nq[: ns - len(particle)]
        comparator = ""
        for w in sorted(NUMERIC_COMPARATORS, key=len, reverse=True):
            if before.endswith(w):
                comparator = w
                break
        suffix = _match_word(nq[ne:], ("以上", "以下", "以内"))
        than = _than_amount(nq, ns - len(particle), ne) if not comparator and not suffix else None
        if than is not None and (nq[ns:ne] in spelled or _DESIGNATION.match(nq, ns)):
            than = None  # `比055型还多`: a name compared with (`A比B多`), not an amount
        if not comparator and not suffix and than is None:
            continue
        if than is not None:  # `打得比25公里还远`: the amount the value exceeds (or falls short of)
            comparator, relation, suffix_len = than
        else:
            relation = NUMERIC_COMPARATORS[suffix] if suffix and comparator in ("", "达", "达到", "为") else ""
            relation = relation or NUMERIC_COMPARATORS[comparator]
            suffix_len = len(suffix)
        cstart = ns - len(particle) - len(comparator) if comparator else ns
        head = nq[:cstart]
        # (and the yes/no words between the attribute and the comparison: `阵亡人数有没有超过2万人`)
        filler = re.search(r"(?:有没有|是否|是不是|有无|在|为|是|达|约|有|均|都)*$", head)
        stem = head[: filler.start()] if filler else head
        attribute = next((r for r in rel_names if len(r) >= 2 and stem.endswith(r)), "")
        if not attribute:
            m = re.search(r"([\u4e00-\u9fff]{2,4})$", stem)
            attribute = m.group(1) if m else ""
            for stop in ("的", "且", "并", "和", "是"):
                attribute = attribute.split(stop)[-1]
            # nor the question word before it (`哪些打得比25公里还远`: `打得`)
            attribute = _WHICH_PHRASE.split(attribute)[-1]
        # (nor the side's marker after a side's name: `同盟国一方损失超过50万人` — the attribute is `损失`)
        side = next((w for w in CAMP_SUFFIXES if attribute.startswith(w) and len(attribute) > len(w)), "")
        attribute = attribute[len(side) :]
        start = len(stem) - len(attribute) if attribute else cstart
        # nor across a clause break normalising dropped (`成员国里，派兵不少于1万人`: the attribute is `派兵`;
        # `使用、出动超过1000架次`: `出动`)
        if breaks := [k for k in range(start + 1, len(stem)) if any(c in CLAUSE_STOPS for c in q.gap(k, k))]:
            start = breaks[-1]
            attribute = stem[start:]
        end = ne + suffix_len
        after = _words_after_number(nq, end)
        numeric = index.quantity_relations
        if after and _relation_overlap(after, numeric) > max(1, _relation_overlap(attribute, numeric)):
            # `造成超过20名美军死亡`: the words after the number name the attribute (死亡 ~ 死亡人数), not those before
            attribute, start, end = after, cstart, end + len(after)
        out.append(NumericThreshold(q.verbatim(start, end), attribute, relation, text, value, start, end))
    return out


_DESIGNATION = re.compile(r"0\d")  # a number with a leading zero is a designation (`055型`), never an amount
_WHICH_PHRASE = re.compile(rf"哪[些{MEASURE_WORDS}]?|什么|谁")  # a question word with its measure word
_THAN_TAIL = re.compile(rf"(?:{'|'.join(DEGREE_ADVERBS_AFTER_THAN)})?([\u4e00-\u9fff])")


def _than_amount(nq: str, start: int, end: int) -> tuple[str, str, int] | None:
    """`比25公里还远` round the amount `nq[start:end]`: (the than-word, the derived relation, the length of the words
    after the amount), or None. A comparative of size (`远`, `多`) makes the value exceed the amount; one of
    smallness (`近`, `少`), fall short of it."""
    than = next((w for w in THAN_WORDS if nq.endswith(w, 0, start)), "")
    m = _THAN_TAIL.match(nq, end) if than else None
    if m is None:
        return None
    aspect, direction = COMPARATIVE_WORDS.get(m.group(1), ("", ""))
    if aspect != "quantity":
        return None
    return than, "数值大于" if direction == "max" else "数值小于", m.end() - end


_AFTER_NUMBER = re.compile(r"(?!的)[\u4e00-\u9fff]{1,6}?(?=的|吗|呢|$)")


def _words_after_number(nq: str, end: int) -> str:
    """The words right after a threshold's number up to a possessive or the end (`美军死亡` of `超过20名美军死亡`);
    "" when a question word is among them (`…1万人的有哪些国家` asks, it names no attribute)."""
    m = _AFTER_NUMBER.match(nq, end)
    return m.group(0) if m and not _has_any(m.group(0), INTERROGATIVES) else ""


def _relation_overlap(words: str, relation_names: Iterable[str]) -> int:
    """The most characters in a row `words` shares with a relation name of the KG."""
    return max((longest_common_substring(r, words)[0] for r in relation_names), default=0) if words else 0


# (`编号为2001`: an equality names an identifier, which the question links; only an inequality makes a threshold)
_COMPARED_NUMBER = re.compile(
    "(?:"
    + "|".join(sorted((w for w, r in NUMERIC_COMPARATORS.items() if r != "数值等于"), key=len, reverse=True))
    + rf"){ASPECT_PARTICLE}?(\d+(?:\.\d+)?)(?![\d.])"
)


def attribute_phrase_start(nq: str, start: int) -> int:
    """Where the attribute words right before a comparison word begin (`中首飞时间最晚` -> `首飞时间`): up to six
    characters back, not across punctuation or a function character (中 的 在 是 之 了 而)."""
    m = re.search(r"[\u4e00-\u9fffa-z0-9]{0,6}$", nq[:start])
    head = m.group(0) if m else ""
    cut = max(head.rfind(c) for c in "中的在是之了而")
    # nor across the question word (`哪一种射程更远` -> `射程`), which may begin before the six characters
    head_start = start - len(head)
    asked = [q.end() - head_start - 1 for q in re.finditer(rf"哪一?[{MEASURE_WORDS}个种]?|谁", nq[:start])]
    cut = max([cut, *(a for a in asked if a >= 0)])
    return start - len(head[cut + 1 :])


# A comparative over a described group, not two named things (`两种导弹，哪一种射程更远`): a superlative in effect.
_GROUP_COMPARATIVES = {w: v for w, v in COMPARATIVE_WORDS.items() if len(w) == 2 and w[0] in DEGREE_MARKERS[1:]}


_WHICH_FIRST = re.compile(rf"哪一?[{MEASURE_WORDS}]?(先|后)([\u4e00-\u9fff]{{1,4}}?)(?:的|了)?$")


def _order(
    q: MappedText,
    mentions: list[Mention],
    quoted: Sequence[tuple[int, int]] = (),
    relations: frozenset[str] = frozenset(),
) -> OrderSpec | None:
    nq = q.norm
    words = {**_GROUP_COMPARATIVES, **ORDER_WORDS}

    def modifies_relation(i: int, word: str) -> bool:
        # `最后结果如何`: a time word right before the relation the question then asks about says which value (the
        # final one), it orders nothing (`首次参加的活动是什么` does: the relation is not what is asked)
        after = nq[i + len(word) :]
        return words[word][0] == "time" and any(
            len(r) >= 2 and after.startswith(r) and _ASKED_NEXT.match(after[len(r) :]) for r in relations
        )

    def inside_relation(i: int, word: str) -> bool:
        # `最大起飞重量超过9500千克`: a superlative the question spells as part of a relation's name orders nothing
        return any(
            len(r) > len(word) and (j := r.find(word)) >= 0 and i >= j and nq.startswith(r, i - j) for r in relations
        )

    first = _WHICH_FIRST.search(nq)
    if first is not None:
        # `…的两款武器里，哪一款先列装`: which of a group did it first, a superlative in effect
        aspect, direction = COMPARATIVE_WORDS[first.group(1)]
        end = first.end()
        return OrderSpec(q.verbatim(first.start(1), end), aspect, direction, "|" + nq[first.start(2) : end])
    for word in sorted(words, key=len, reverse=True):
        i = nq.find(word)
        while i >= 0 and (
            any(m.start <= i < m.end for m in mentions)
            or any(a <= i < b for a, b in quoted)
            or modifies_relation(i, word)
            or inside_relation(i, word)
        ):
            i = nq.find(word, i + 1)
        if i >= 0:
            aspect, direction = words[word]
            context = nq[max(0, i - 4) : i] + "|" + nq[i + len(word) : i + len(word) + 4]
            # the constraint quotes the attribute with the word (`首飞时间最晚`), or the word alone (`最早具备…`)
            floor = max((m.end for m in mentions if m.end <= i), default=0)  # never into a name
            start = max(floor, attribute_phrase_start(nq, i))
            text = q.verbatim(after_clause_break(q, start, i), i + len(word))  # nor across a punctuation mark
            return OrderSpec(text, aspect, direction, context)
    return None


def _place_like(index: KGIndex, key: str) -> bool:
    node = index.nodes.get(key)
    return index.is_place(key) or (node is not None and any(h in t for t in node.types for h in PLACE_TYPE_HINTS))


def _exclusions(q: MappedText, mentions: list[Mention]) -> dict[str, str]:
    """Mentions the answer must not connect to, with the negated phrase verbatim: `除在朱日和举行的那次阅兵以外`,
    `哪些国家不是北约成员国`."""
    nq = q.norm
    out: dict[str, str] = {}
    for opener, closers in EXCLUDE_FRAMES:
        for fm in re.finditer(re.escape(opener) + r"([^，。,；;？?]{1,24}?)(" + "|".join(closers) + ")", nq):
            inside = [m for m in mentions if fm.start(1) <= m.start and m.end <= fm.end(1)]
            for m in inside[:1]:
                out.setdefault(m.key, q.verbatim(fm.start(1), fm.end(1)))
    for m in mentions:
        if m.key in out:
            continue
        before = nq[max(0, m.start - 4) : m.start]
        if any(before.endswith(w) for w in NEGATION_MARKERS):
            tail = re.match(r"[^，。,；;？?的吗呢]*", nq[m.start :])
            end = m.start + (tail.end() if tail else m.end - m.start)
            end = max(end, m.end)
            out[m.key] = q.verbatim(m.start, end)
    return out


def before_question_word(text: str) -> str:
    """`text` up to its first interrogative (`哪`, `什么`, …; all of it when it has none)."""
    return text[: min((text.find(w) for w in INTERROGATIVES if w in text), default=len(text))]


_NEGATED = re.compile(
    f"({'|'.join(sorted(PREDICATE_NEGATIONS, key=len, reverse=True))})([^{NEGATED_WORD_STOPS}]{{1,10}})"
)


def _negated_predicates(q: MappedText, mentions: list[Mention], form: str) -> tuple[NegatedPredicate, ...]:
    """Negated words that name no KG node (`没有沉没`, `尚未退役`, `不是驱逐舰`): ended by 的, punctuation or a question
    word, an aspect particle dropped. A negation of a name (`不是北约成员国`) is an exclusion (`_exclusions`); one
    before words that contain a name (`没有参加环太平洋演习`) is left alone, and so is every one in a yes/no question
    and the question words themselves (`有没有`, `是不是`)."""
    if form == "bool":
        return ()
    nq = q.norm
    out: list[NegatedPredicate] = []
    for m in _NEGATED.finditer(nq):
        if any(w in nq[max(0, m.start() - 2) : m.end(1) + 1] for w in BOOL_WORDS):
            continue
        words = before_question_word(m.group(2)).rstrip(NEGATED_TAIL_PARTICLES)
        end = m.start(2) + len(words)
        if len(words) < 2 or any(mt.start < end and m.start() < mt.end for mt in mentions):
            continue
        out.append(NegatedPredicate(q.verbatim(m.start(2), end), words, m.start(), end))
    return tuple(out)


_ASKS_EVENT = re.compile(rf"哪一?[{EVENT_MEASURE_WORDS}]")
_ASKS_THING = re.compile(rf"哪一?[{THING_MEASURE_WORDS}]")
_DEMONSTRATIVE = re.compile(rf"那一?[{MEASURE_WORDS}]$")
# the described name is what is asked: `…的055型驱逐舰是哪一艘` / `…的驱逐舰有哪些`
_ASKED_HEAD = re.compile(f"(?:{'|'.join(COPULAS)})?(?:哪一?[{MEASURE_WORDS}]|哪些|有哪些)")


def _roles(nq: str, mentions: list[Mention], index: KGIndex, excluded: dict[str, str]) -> dict[str, Role]:
    roles: dict[str, Role] = {}
    for m in mentions:
        before = nq[: m.start]
        if m.key in excluded:
            roles[m.key] = "exclude"
        elif (_DEMONSTRATIVE.search(before) and is_category(index, m.key)) or (
            before.endswith("的") and _ASKED_HEAD.match(nq[m.end :])
        ):
            # `…的那艘055型驱逐舰` / `…入列的055型驱逐舰是哪一艘`: the kind of the thing described, a type constraint
            # (after a demonstrative only a name the KG uses as a kind: `那套两级固体火箭发动机` is the engine itself,
            # `那支罗马尼亚集团军` whose army)
            roles[m.key] = "type"
        elif any(before.endswith(w) and not _names_own_relation(index, m.key, w) for w in CAMP_MARKERS):
            roles[m.key] = "camp"
        elif nq[m.end :].startswith(CAMP_SUFFIXES) and is_side(index, m.key):
            roles[m.key] = "camp"  # `同盟国一方的舰艇`: the side named, its marker after it
        elif _place_like(index, m.key) and any(before.endswith(w) for w in PLACE_MARKERS):
            roles[m.key] = "place"
    return roles


_GROUP_IN = re.compile(r"[^\d，,。？?|]{0,4}?(?:当中|之中|中|里)")


def _group_size(nq: str, m: Mention, index: KGIndex) -> bool:
    """A count value the question gives a group (`X的4艘艇中`): after 的, before the noun counted and `中` / `里`."""
    if not index.is_literal(m.key) or not nq[: m.start].endswith(POSSESSIVE):
        return False
    count = parse_count(index.name(m.key))
    return count is not None and bool(count[1]) and _GROUP_IN.match(nq, m.end) is not None


def _names_own_relation(index: KGIndex, key: str, word: str) -> bool:
    """The marker word names a relation of the node itself (`加入CSG21`, and CSG21 has `加入舰艇`): a relation word of
    the chain, not a side."""
    group = index.alias_group(key)
    return any(e.forward and word in e.relation for k in group for e in index.edges(k))


_NAME_ASKED = re.compile(f"(?:{'|'.join(sorted(NAME_ASKING_VERBS, key=len, reverse=True))})(?:什么|啥)")


def _names_described(nq: str, mentions: list[Mention]) -> bool:
    """`…的荷兰军舰叫什么`: between the last name before the naming verb and the verb stand words of a thing of its own
    (two characters or more besides 的/是/又/也/还)."""
    m = _NAME_ASKED.search(nq)
    if m is None:
        return False
    before = [x.end for x in mentions if x.end <= m.start()]
    if not before:
        return False
    gap = re.sub(r"[的是又也还|]", "", nq[max(before) : m.start()])
    return len(gap) >= 2


def _in_relation_name(key: str, relation_names: frozenset[str]) -> bool:
    """The mention spells (part of) a relation name (`抗拉强度` in `抗拉强度(铸造方法: S)`)."""
    return key in relation_names or (len(key) >= 2 and any(key in r for r in relation_names))


_ASKED = re.compile(rf"(?:是|为)?(?:{'|'.join(INTERROGATIVES)})")
# what may follow the relation a question asks about: the end, or a question word (`结果如何`, `结果是什么`)
_ASKED_NEXT = re.compile(rf"$|(?:是|为)?(?:{'|'.join(INTERROGATIVES)}|如何|怎样|怎么样)")


def _without_naming_bound_words(nq: str, windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of time windows, less a bound word a naming verb follows (`1925年以前叫什么`) or one that follows a
    naming word (`在正式定名之前`): they ask for a former name, so those words stay among the words matched against
    relations (the window still bounds)."""
    out: list[tuple[int, int]] = []
    bound_words = [w for w in (*TIME_BEFORE_WORDS, *TIME_AFTER_WORDS) if len(w) > 1]
    for a, b in windows:
        word = next((w for w in bound_words if nq[a:b].endswith(w)), "")
        naming = next((n for n in NAMING_EVENT_WORDS if word and nq[a : b - len(word)].endswith(n)), "")
        if naming or (word and nq[b:].startswith(NAME_ASKING_VERBS)):
            b -= len(word) + len(naming)
        out.append((a, b))
    return out


def _asked(q: MappedText, spans: list[tuple[int, int]]) -> str:
    """The words right before the question word: they usually name the relation whose object is the answer."""
    nq = q.norm
    m = _ASKED.search(nq)
    if not m:
        return ""
    if m.group(0)[:1] in COPULAS and any(c in CLAUSE_STOPS for c in q.gap(m.start(), m.start())):
        # `X的周视瞄准镜，是哪个国家的企业供货的`: what the comma ends is the topic; the verb after the asked noun
        # phrase (`企业供货`) names the relation
        tail = nq[m.end() :].rstrip(QUESTION_PARTICLES).removesuffix(POSSESSIVE)
        return tail.split(POSSESSIVE)[-1][:6]
    head = nq[: m.start()]
    cut = max([b for a, b in spans if b <= m.start()] + [0])
    head = head[cut:].split("的")[-1]
    # `…由谁担任总指挥`, `…被谁击沉`: after `谁` the verb phrase to the question's end names the relation too
    tail = nq[m.end() :].rstrip(QUESTION_PARTICLES) if m.group(0).endswith(WHO) else ""
    return f"{head[-6:]}|{tail[:6]}" if len(tail) >= 2 else head[-6:]


def residual_words(text: str, spans: Sequence[tuple[int, int]] = ()) -> str:
    """The words of a normalised text left for relation matching (question and function words removed, and the
    characters of `spans`: the names linked there)."""
    return _residual(text, list(spans))


def _residual(nq: str, spans: list[tuple[int, int]], relation_names: frozenset[str] = frozenset()) -> str:
    keep = [True] * len(nq)
    for a, b in spans:
        for i in range(max(0, a), min(len(nq), b)):
            keep[i] = False
    text = "".join(ch if k else "|" for ch, k in zip(nq, keep, strict=True))
    for w in sorted((*QUESTION_WORDS, *REQUEST_FRAMES), key=len, reverse=True):
        one_char = len(w) == 1 and relation_names
        text = _without_char(text, w, relation_names) if one_char else text.replace(w, "|")
    return "|".join(s for s in text.split("|") if s)


def _without_char(text: str, ch: str, relation_names: frozenset[str]) -> str:
    """`text` with the one-character function word `ch` taken out, except where it and a neighbour spell two
    characters of a relation name of the KG (`合并组成` with `合并组建`: `并` is part of the verb there)."""
    if ch not in text:
        return text
    grams = _bigrams(relation_names)
    out = []
    for i, c in enumerate(text):
        inside = c == ch and ((i > 0 and text[i - 1 : i + 1] in grams) or text[i : i + 2] in grams)
        out.append(c if c != ch or inside else "|")
    return "".join(out)


@lru_cache(maxsize=256)
def _bigrams(names: frozenset[str]) -> frozenset[str]:
    return frozenset(n[i : i + 2] for n in names for i in range(len(n) - 1))


def _with_kind_words(q: MappedText, mentions: list[Mention], index: KGIndex) -> list[Mention]:
    """Each name followed by a word the KG says is its kind (`F-35战斗机`, `谢菲尔德号驱逐舰`) spans that word too:
    it describes the node, so it is neither a relation word nor a name of its own (a link inside it is dropped)."""
    out: list[Mention] = []
    covered: list[tuple[int, int]] = []
    for m in mentions:
        if any(a <= m.start and m.end <= b for a, b in covered):
            continue
        node = index.nodes.get(m.key)
        end = m.end
        # words may follow one another: `P-700“花岗岩”反舰导弹` (another name of it, then its kind)
        while node is not None and node.kind == "entity" and (n := kind_word_after(index, m.key, q.norm[end:])):
            end += n
        if end > m.end:
            m = replace(m, end=end, text=q.verbatim(m.start, end))
            covered.append((m.start, m.end))
            out = [o for o in out if not (m.start <= o.start and o.end <= m.end)]
        out.append(m)
    return out


def _countries_before(q: MappedText, dropped: list[Mention], tw_start: int, index: KGIndex) -> list[Mention]:
    """`哪一支日本舰队`: a weak link over the asked noun (`日本联合舰队`) is dropped — the noun names a kind — but a
    country it began with, named in full right before the noun, says whose the thing asked is: a name of its own."""
    out: list[Mention] = []
    for m in dropped:
        key = q.norm[m.start : tw_start]
        if m.start < tw_start and key in index.nodes and is_country(index, key):
            out.append(Mention(m.start, tw_start, q.verbatim(m.start, tw_start), key, "exact", 1.0))
    return out


def analyze(question: str, q: MappedText, mentions: list[Mention], index: KGIndex) -> Analysis:
    nq = q.norm
    mentions = _with_kind_words(q, mentions, index)
    times = _time_windows(q, mentions, index)
    numerics = _numerics(q, index, mentions)
    # A mention that is only part of a time window or a threshold is not a key entity.
    window_spans = [(t.start, t.end) for t in times] + [(n.start, n.end) for n in numerics]
    kept = [
        m
        for m in mentions
        if not any(a <= m.start and m.end <= b for a, b in window_spans)
        or any(t.period_key == m.key or t.anchor_key == m.key for t in times)
    ]
    type_word, tw_start, tw_end = _type_word(
        nq,
        index.vocabulary,
        index.name_endings,
        index.relation_names,
        frozenset(m.start for m in kept),
        frozenset(p for m in kept for p in range(m.start + 1, m.end)),
    )
    predicated = _predicated_kind(nq, index.vocabulary)
    if predicated is not None and not type_word:
        type_word, tw_start, tw_end = predicated
    # `…中，哪些是防空导弹` / `属于防空导弹的是哪几型`: the kind is said of the members asked, not asked itself
    owners: list[Mention] = []
    kind_predicated = bool(type_word) and (
        (predicated is not None and predicated[0] == type_word) or _after_which_copula(nq, tw_start)
    )
    if type_word:
        # `哪一型驱逐舰`: the asked-for noun names a kind, not the node whose name a weak link found in it — there
        # and wherever else the question uses that word (`负责反潜的直升机中队装备的是什么直升机`)
        weak = [
            m
            for m in kept
            if m.how not in ("exact", "core")
            and ((m.start < tw_end and tw_start < m.end) or nq[m.start : m.end] == type_word)
        ]
        owners = _countries_before(q, weak, tw_start, index)
        kept = [m for m in kept if m not in weak] + owners
    category = _category_question(nq, index)
    if type_word and category is not None:
        # `哪一级驱逐舰` with `X 类型 驱逐舰` in the KG: a kind of the asked noun is asked; the noun, a kind the KG
        # states as a value, is no anchor the answer must connect to
        kept = [m for m in kept if not (m.start == tw_start and m.end == tw_end and is_category(index, m.key))]
    if type_word and nq[tw_end : tw_end + 1] == "的":
        # `属于哪个型号的驱逐舰`: a kind the KG states as a value (`X 类型 驱逐舰`) right after the asked noun is the
        # kind of the answer, not a name the answer must connect to
        kept = [m for m in kept if not (m.start == tw_end + 1 and is_category(index, m.key))]
    # `歼-20的气动布局是什么`: a weak link that spells a relation name of the KG exactly is that relation, not a name
    kept = [m for m in kept if m.how in ("exact", "core", "group") or nq[m.start : m.end] not in index.relation_names]
    # `第一批次的4艘艇中，有几艘…`: the size the question gives a group it counts in is no node to pass through
    kept = [m for m in kept if not _group_size(nq, m, index)]
    comp_found = _comparative(nq, kept, q)
    form, comparative = _form(nq, comp_found, [(n.start, n.end) for n in numerics])
    comp_full = comp_found if form == "choice" else None
    compared_relations: tuple[str, str] | None = None
    if form == "bool" and (than := _than_comparison(nq, kept)) is not None:
        comp_full, comparative = than, than[:2]  # answered by comparing the two, like a which-of question
    elif form == "bool" and (pair := _than_relations(nq, kept, index.relation_names)) is not None:
        comparative, compared_relations = pair[:2], pair[4]
        comp_full = (pair[0], pair[1], pair[2], pair[3], ())
    comparative_text = q.verbatim(comp_full[2], comp_full[3]) if comp_full else ""
    scopes = _scopes(nq, kept, q, type_word, tw_start, tw_end) if form != "choice" else frozenset()
    # (a comparative word inside a time window bounds it: `2030年或更晚`)
    unordered = [*quoted_spans(q), *((t.start, t.end) for t in times)]
    order = _order(q, list(mentions), unordered, index.relation_names) if form != "choice" else None
    if form == "set" and order is not None and not _has_any(nq, SET_QUESTION_WORDS):
        form = "entity"  # `各型别中最早…的是哪一型`: the superlative picks one member of the group
    # A mention that spells a relation name (`抗拉强度`, `密度`) stays in the words matched against relations.
    relation_names = index.relation_names
    spans = [
        (m.start, m.end)
        for m in kept
        if not (_in_relation_name(m.key, relation_names) or _in_relation_name(nq[m.start : m.end], relation_names))
        and m.how not in ("group", "composed")
    ] + _without_naming_bound_words(nq, window_spans)
    # The asked-for noun is matched against the answer's type, not against relations — unless it is a relation
    # name itself (`…的性能特点有哪些`).
    # (`有几个侧弹舱` with `侧弹舱数量` in the KG: a count the KG states under the counted noun's name).
    counted = form == "count" and any(r.startswith(type_word) for r in relation_names)
    # (a noun the KG does not use, matched by its head only, stays among the words: it may still name a relation)
    known = kg_uses_noun(type_word, index)
    if type_word and type_word not in relation_names and not counted and known:
        spans.append((tw_start, tw_end))
    excluded = _exclusions(q, kept)
    roles = _roles(nq, kept, index, excluded)
    for m in owners:
        roles.setdefault(m.key, "camp")  # whose the thing asked is: a constraint on it, no chain's start
    negated = _negated_predicates(q, kept, form)
    spans += [(n.start, n.end) for n in negated]  # what the answer must not have names no relation of its chain
    for m in kept:  # `绰号“阿迪尔”的战斗机`: the alias word introduces the name, it is not asked about
        for w in ALIAS_MARKERS:
            if nq[: m.start].endswith(w):
                spans.append((m.start - len(w), m.start))
                break
    for m in kept:  # the marker word of a side / place constraint is not a relation word of the chain
        if m.key in roles:
            for w in sorted(CAMP_MARKERS + PLACE_MARKERS, key=len, reverse=True):
                if nq[: m.start].endswith(w):
                    spans.append((m.start - len(w), m.start))
                    break
    if category is not None and nq[: category.start()].endswith(CLASSIFYING_COPULA):
        # `X属于哪一级舰`: `属于` before a kind question classifies X; it names no relation (`隶属于` is no class)
        spans.append((category.start() - len(CLASSIFYING_COPULA), category.start()))
    unknown_kind = "" if type_word else _unknown_kind(nq)
    subject, subject_rest = _subject(nq, kept, index, q)
    return Analysis(
        question=question,
        mapped=q,
        mentions=tuple(kept),
        form=form,
        person=_has_any(nq, PERSON_WORDS),
        type_word=type_word,
        unknown_kind=unknown_kind,
        type_text=q.verbatim(tw_start, tw_end) if type_word else "",
        times=tuple(times),
        numerics=tuple(numerics),
        order=order,
        comparative=comparative,
        comparative_text=comparative_text,
        compared=comp_full[4] if comp_full else (),
        roles=roles,
        role_text=excluded,
        residual=_residual(nq, spans, relation_names),
        # `…还有什么别称`: a noun the KG does not know ending the question after 什么 names the relation asked, not
        # the words before the question word (after a measure word, `哪一艘先入列`, the words are a predicate)
        asked=unknown_kind
        if unknown_kind and _ends_question(nq, NOUN_ASKING_WORD + unknown_kind)
        else _asked(q, spans),
        mention_keyset=frozenset(m.key for m in kept),
        inner_anchors=_inner_anchors(nq, kept, index),
        measure_word=_measure_word(nq),
        asked_unit=_asked_unit(nq),
        asked_attribute=next((words for how, words in HOW_ADJECTIVE_ATTRIBUTES.items() if how in nq), ()),
        scopes=scopes,
        asks_sibling=bool(_SIBLING.search(nq)) or any(w in nq for w in SAME_WORDS),
        asks_category=category is not None,
        kind_predicated=kind_predicated,
        asks_event=bool(_ASKS_EVENT.search(nq)),
        asks_thing=bool(thing := _ASKS_THING.search(nq)),
        thing_counter=thing.group(0)[-1] if thing else "",
        type_word_names_events=noun_names_events(index, type_word),
        type_word_ends_phrase=bool(type_word) and (tw_end == len(nq) or bool(_PHRASE_END.match(nq, tw_end))),
        person_role=_person_role(nq),
        subject=subject,
        subject_rest=subject_rest,
        role_person_types=role_person_types(index, type_word),
        names_described=_names_described(nq, kept),
        compared_relations=compared_relations,
        negated=negated,
    )


# `…的军长是谁` / `…由谁指挥`: the role word right before `是谁`, or the verb phrase right after `由谁`
_ROLE_BEFORE_WHO = re.compile(rf"([\u4e00-\u9fff]{{2,4}}?)(?:{'|'.join(COPULAS)}){WHO}")
_ROLE_AFTER_WHO = re.compile(rf"由{WHO}(?:担任|出任)?([\u4e00-\u9fff]{{2,4}})")


SUBJECT_LINKS_MAX = 2


def _subject(nq: str, mentions: list[Mention], index: KGIndex, mapped: MappedText) -> tuple[str, str]:
    """The key of the name right before the question's predicate — joined to its question word by at most a
    light word (`X由谁指挥`, `X是哪一年服役的`, `X被谁击沉`) — when the question names another node too.
    Only a name spelled in full, alone (not one of `A和B`), of a thing rather than a kind (`…的第五代战斗机`, `那艘
    055型驱逐舰` describe what is asked)."""
    if len({m.key for m in mentions}) < 2:
        return "", ""
    listed = {m.key for group in listed_names(nq, mentions, mapped) for m in group}

    def alone(m: Mention) -> bool:
        return m.how == "exact" and m.key not in listed and not is_category(index, m.key)

    last_end = max(m.end for m in mentions)
    for m in sorted(mentions, key=lambda m: -m.end):
        after = nq[m.end :]
        for _ in range(SUBJECT_LINKS_MAX):  # `X是由谁…`: light words in a row
            after = after[len(next((g for g in SUBJECT_LINKS if after.startswith(g)), "")) :]
        if after.startswith(INTERROGATIVES):
            return (m.key if alone(m) else ""), ""
        comma = mapped.gap(m.end, m.end).strip() in ("，", ",")
        if comma and m.end == last_end and nq[: m.start].endswith(POSSESSIVE):
            # `在科希马投入反击的英国第2师，所属那个军的军长是谁`: a name a clause describes, then a comma: the rest
            # of the question is said of it
            return (m.key, residual_words(nq[m.end :])) if alone(m) else ("", "")
    return "", ""


def _person_role(nq: str) -> str:
    """The role word a who-question asks through, or ""."""
    m = _ROLE_AFTER_WHO.search(nq) or _ROLE_BEFORE_WHO.search(nq)
    return m.group(1).split(POSSESSIVE)[-1] if m else ""


_SIBLING = re.compile(r"(?:与|和|跟|同)[^，。？]{1,12}?(?:同|一起|一同|一道)")
_MEASURE = re.compile(rf"(?:几|多少)([{MEASURE_WORDS}人])")


_UNIT_ASKED = re.compile(r"(?:几|多少)([^\W\d_]{1,3})")
_HOW_LONG = re.compile("|".join(HOW_LONG_PATTERNS))


def _asked_unit(nq: str) -> str:
    """The unit of measure right after 多少/几 (`多少节`, `多少公里`): one the quantity parser knows with a dimension
    of its own — a counter (`多少名`) is `measure_word`'s; for a question of how long (`飞多久`, `持续了多长时间`),
    a unit of time (what is compared is the dimension: a duration, not a wingspan), and of how far, high, heavy…
    (`能打多远`), a unit of that dimension."""
    m = _UNIT_ASKED.search(nq)
    if m is None:
        if _HOW_LONG.search(nq):
            return DURATION_UNIT
        return next((unit for word, unit in HOW_ADJECTIVE_UNITS.items() if word in nq), "")
    for k in range(len(m.group(1)), 0, -1):
        q = parse_quantity("1" + m.group(1)[:k])
        if q is not None and q.dimension and not q.dimension.startswith("count:"):
            return m.group(1)[:k]
    return ""


def _measure_word(nq: str) -> str:
    m = _MEASURE.search(nq)
    if m is None:
        return ""
    # `几个人`: a counter of anything before a person noun counts people
    return PERSON_NOUN if nq.startswith(PERSON_NOUN, m.end()) else m.group(1)


def _cuts_token(name: str, part: str) -> bool:
    """`f35` inside `f35c` is the start of another designation, not a name of its own."""
    i = name.find(part)
    j = i + len(part)
    before = name[i - 1] if i > 0 else ""
    after = name[j] if j < len(name) else ""
    return bool((after.isascii() and after.isalnum()) or (before.isascii() and before.isalnum()))


def _inner_anchors(nq: str, mentions: list[Mention], index: KGIndex) -> tuple[tuple[str, tuple[str, str, str]], ...]:
    """For each mention whose node name contains another entity's name that the question spells there
    (`首批海马斯运抵乌克兰` names `海马斯`), the KG triple joining the two, if they are neighbours."""
    out: list[tuple[str, tuple[str, str, str]]] = []
    for m in mentions:
        if m.how in ("exact", "core"):
            continue  # the question spells the node's whole name: the name inside is part of it, not a second anchor
        spelled = nq[m.start : m.end]
        group = index.alias_group(m.key)
        for e in index.edges(m.key):
            inner = e.dst
            if (
                e.is_alias
                or inner in group
                or len(inner) < 2
                or inner not in m.key
                or inner not in spelled
                or index.is_literal(inner)
                or _cuts_token(m.key, inner)
            ):
                continue
            out.append((m.key, e.triple.spo))
            break
    return tuple(out)
