"""Relevance of candidate chains to a question, from general features:

- relation words: how much of each hop's relation name (or a synonym, `kgreason.reason.lexicon`) the question's
  remaining words contain (longest common substring), and how much of those words the chain covers;
- answer form: whether the chain's end is the kind of thing asked for (a date for 何时, a number for 多少, a
  person for 谁, a node of the named type for 哪艘驱逐舰);
- hop count;
- optionally an external triple relevance model (`TripleScorer`, the one the Mecha-QA method uses) and an
  embedder (question vs. serialised chain).
All pure functions of their inputs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.paths import Chain
from kgreason.kg.quantities import in_counter, is_measure, parse_quantity
from kgreason.reason.analysis import Analysis, kg_uses_noun
from kgreason.reason.kinds import (
    category_edges,
    category_values,
    macro_kind,
    names_side,
    relation_side,
    side_relation_initials,
)
from kgreason.reason.lexicon import (
    CATEGORY_TYPE_WORDS,
    CONVERSE_WORDS,
    COUNTER_HEADS,
    COUNTRY_TYPE_WORDS,
    GENERIC_MEASURE_WORDS,
    ORGANISATION_TYPE_HINTS,
    PLACE_RELATION_HINTS,
    PLACE_TYPE_HINTS,
    RELATION_SYNONYMS,
    SAME_KIND_HEADS,
    THING_TYPE_HINTS,
    TYPE_RELATION_HINTS,
    names_event_type,
    names_person_type,
    relation_variants,
)
from kgreason.text.normalize import is_han, normalize_text
from kgreason.text.overlap import abbreviation_in, longest_common_substring

EVENT_SAID_CHARS = 2  # the question spells this much of an event's name (besides the start's) to name it in part
NODE_SUPPORT = 0.6  # how much a hop is supported when the question names the node it reaches
NOT_A_DATE = -2.0  # the answer-kind score of a non-date for a when-question: surer than other kind mismatches
SUPPORTED_HOP = 0.3  # a hop whose relation evidence is below this (and whose node is not named) is unsupported
# the answer-kind score of a quantity in another dimension than the unit asked (`多长时间`, `多少天` -> `34万人`): what
# cannot be asked, so a one-fact question looks a hop further
OTHER_UNIT = -1.0
# … and of one in the dimension whose relation does not name the attribute a how-adjective asks (`多高` -> `机长`)
UNNAMED_ATTRIBUTE = 0.7
SIDE_FIT = 0.3  # how much a side named (or another side named) adds to (or takes from) such a relation's match
SPECIFIC_KIND_CHARS = 3  # an asked noun this long that ends the answer's name names the last hop (`设计局`)
ASKED_NAMES = 0.5  # the asked words (`…舷号是多少`) name the last relation at least this well


@dataclass(frozen=True, slots=True)
class Weights:
    """Weights of the chain score (see `ReasonerConfig`, which holds these)."""

    coverage: float = 1.2
    mean_relation: float = 0.6
    answer_kind: float = 0.8
    hop_penalty: float = 0.15
    weak_hop_penalty: float = 0.45
    bridge_mention: float = 0.6  # per other question entity the chain passes through (as an entity check would)
    external: float = 0.3  # triple scorer / embedder, each scaled to [0, 1] within the question
    asked_relation: float = 0.5  # the last hop's relation is the one named just before the question word
    # the answer's name, KG type or last relation spells the asked-for noun (`哪一型驱逐舰`), or shares nothing
    # with it (`哪个州` -> `卡姆登`): a mismatch costs as much as a match earns; 0 and 0 turn the type check off
    type_match: float = 0.6
    type_mismatch: float = 0.6
    # a learned question-relation matcher's relative belief (1 for its best relation) counts as relation evidence
    # up to this much (a full lexical match counts 1); 0 turns it off
    learned_relation: float = 0.8
    # the chain's end has (+) / lacks (-) the KG type an LLM read as the asked one (reason/reading.py)
    read_type: float = 0.5


@dataclass(frozen=True, slots=True)
class RelationMatch:
    score: float  # 0..1
    covered: frozenset[int]  # positions of `residual` the relation (or a synonym) matches


@lru_cache(maxsize=65536)
def relation_match(relation: str, residual: str) -> RelationMatch:
    """How well a relation name is expressed by the question's remaining words.

    Each variant (the name and its synonyms) scores the length of its longest common substring with the
    residual over its own length; matches shorter than 2 characters count only for one-character names.
    """
    rel = normalize_text(relation)
    best = RelationMatch(0.0, frozenset())
    own: frozenset[int] = frozenset()  # what the relation's own name spells, when it spells half of it or more
    best_variant = ""
    for v in relation_variants(rel):
        if not v:
            continue
        n, end = longest_common_substring(v, residual)
        if n < 2 and len(v) >= 3:
            # `原属` for `原隶属于`: an abbreviation keeps the word's first character and some of the others, in order
            k, end = abbreviation_in(v, residual)
            if k >= 2 and "|" not in residual[end - k : end]:
                s = ABBREVIATION_WEIGHT * k / len(v)
                if s > best.score:
                    best = RelationMatch(s, frozenset(range(end - k, end)))
            continue
        if n < 2 and len(v) == 2 and (split := _split_word(v, residual) or _spread_word(v, residual)) is not None:
            # `改成了什么名字` for `改名`: a verb and its object, the question word between them
            s = ABBREVIATION_WEIGHT * (0.9 if v != rel else 1.0)
            if s > best.score:
                best = RelationMatch(s, split)
            continue
        if n < 2 and not (n == 1 and len(v) == 1):
            continue
        if "|" in residual[end - n : end]:
            continue
        s = n / len(v)
        covered = frozenset(range(end - n, end))
        if v != rel:
            s *= 0.9  # a synonym is slightly weaker evidence than the relation's own name
            # ... but a full synonym word beats a partial match of the relation's own name
        else:
            short = len(v) < LONG_RELATION_CHARS and not parameter_values(relation)
            if short and (second := _second_piece(v, residual, end - n, end)) is not None:
                # `海军方面由谁统一指挥` spells `海军指挥官` in two pieces
                s, covered = PIECES_WEIGHT * (n + len(second)) / len(v), covered | second
            if s >= 0.5 or n >= OWN_PIECE_CHARS:
                own = covered
        if s > best.score:
            best, best_variant = RelationMatch(s, covered), v
    if best_variant and best_variant != rel and not own - best.covered:
        # `日本方面…称作` for `日方称谓`: the synonym 称作 matches 称谓, and the words before it in the name (日方) are
        # spelled in the question too, each character within a few of the last (`日本方面`, `普鲁士一方`), or in a
        # row (`实际投入` for `实际参战兵力`: not `计划参战兵力`) — what tells the name from its siblings
        modifier = _modifier_before(rel, best_variant)
        if len(modifier) >= 2:
            own = own | _spread_in(modifier, residual)
    if own - best.covered:
        # the score is the best variant's, but the words the relation's own name spells are covered too
        # (`开始装备部队` spells 开始装备 of `开始装备时间`, whose synonym `装备` scores higher)
        best = RelationMatch(best.score, best.covered | own)
    if len(rel) >= LONG_RELATION_CHARS or parameter_values(relation):
        # Long relation names with parameters (`理论质量(密度为7.85, 直径60.0 mm)`): the share of their character
        # bigrams the question spells, wherever they are; each parameter value the question spells as a word of its
        # own counts as two bigrams, so `(铸造方法: J)` and `(铸造方法: S)` differ on `使用J铸造方法`.
        grams = [rel[i : i + 2] for i in range(len(rel) - 1)]
        hits = [residual.find(g) for g in grams]
        values = parameter_values(relation)
        spans = [_word_span(v, residual) for v in values]
        found = sum(1 for h in hits if h >= 0) + 2 * sum(1 for sp in spans if sp is not None)
        share = found / (len(grams) + 2 * len(values))
        if share > best.score:
            spelled = {p for h in hits if h >= 0 for p in (h, h + 1) if residual[p] != "|"}
            spelled.update(p for sp in spans if sp is not None for p in range(*sp))
            best = RelationMatch(share, frozenset(spelled))
    return best


# a piece this long of the relation's own name, spelled beside a synonym's match, is evidence too (`土耳其…叫作` for
# `土耳其方面称谓`: 称谓 by the naming synonyms, 土耳其 by the name)
OWN_PIECE_CHARS = 3
MODIFIER_MIN_CHARS = 2  # words before the asked noun this long, spelled in a node's names, describe the node
HEAD_CHAR_WEIGHT = 0.15  # a relation's first character alone in the question
LONG_RELATION_CHARS = 6  # a relation name this long is matched by the share of its bigrams the question spells
PIECES_WEIGHT = 0.9  # a relation name the question spells in two pieces, against the same characters in a row


def _modifier_before(rel: str, variant: str) -> str:
    """The characters of a relation name before the first word of `variant`'s synonym group it contains (`日方` of
    `日方称谓` for the variant `称作`), "" when none."""
    at = min(
        (rel.find(w) for g in RELATION_SYNONYMS if variant in g for w in g if len(w) >= 2 and w in rel),
        default=-1,
    )
    return rel[:at] if at > 0 else ""


MODIFIER_GAP = 3  # how many characters of the question may stand between two of a name's modifier's (`普鲁士一方`)


def _spread_in(word: str, residual: str) -> frozenset[int]:
    """The positions from the first to the last character of `word` spelled in the residual in order, each within
    MODIFIER_GAP characters of the one before and in one segment; empty when it is not so spelled."""
    start = residual.find(word[0])
    while start >= 0:
        at, ok = start, True
        for ch in word[1:]:
            window = residual[at + 1 : at + 2 + MODIFIER_GAP].split("|")[0]
            found = window.find(ch)
            if found < 0:
                ok = False
                break
            at += 1 + found
        if ok:
            return frozenset(range(start, at + 1))
        start = residual.find(word[0], start + 1)
    return frozenset()


def _second_piece(name: str, residual: str, start: int, end: int) -> frozenset[int] | None:
    """Positions of a second piece (two characters or more) of `name` that the residual spells outside the first
    one (`residual[start:end]`, a substring of `name`); None when there is none."""
    at = name.find(residual[start:end])
    if at < 0:
        return None
    rest = residual[:start] + "|" * (end - start) + residual[end:]
    best: frozenset[int] | None = None
    for part in (name[:at], name[at + end - start :]):
        if len(part) < 2:
            continue
        k, e = longest_common_substring(part, rest)
        if k >= 2 and "|" not in rest[e - k : e] and (best is None or k > len(best)):
            best = frozenset(range(e - k, e))
    return best


SPLIT_WORD_GAP = 2  # at most this many characters of the question's own words between a split word's two halves


def _split_word(word: str, residual: str) -> frozenset[int] | None:
    """Positions of a two-character word's halves when the question splits it around its question word: the first
    half ends a segment (but for `SPLIT_WORD_GAP` characters), the second begins the next (`后来改成|名字` for
    `改名`); None otherwise."""
    for i, segment in enumerate(residual.split("|")[:-1]):
        at = segment.rfind(word[0])
        if at < 0 or len(segment) - at - 1 > SPLIT_WORD_GAP:
            continue
        start = sum(len(x) + 1 for x in residual.split("|")[:i])
        after = start + len(segment) + 1
        if residual[after : after + 1] == word[1]:
            return frozenset({start + at, after})
    return None


def _spread_word(word: str, residual: str) -> frozenset[int] | None:
    """Positions of a two-character word's halves when the question writes one Chinese character between them
    (`首制艇` for `首艇`); None otherwise."""
    at = residual.find(word[0])
    while at >= 0:
        if residual[at + 2 : at + 3] == word[1] and is_han(residual[at + 1]):
            return frozenset({at, at + 2})
        at = residual.find(word[0], at + 1)
    return None


ABBREVIATION_WEIGHT = 0.8  # an abbreviated relation word is weaker evidence than the same characters in a row


def hop_match(e: Edge, residual: str) -> RelationMatch:
    """`relation_match` of one hop: walked backwards, the relation is also named by its converse (`后继型号` names
    `前序型号` read from its object)."""
    m = relation_match(e.relation, residual)
    if not e.forward:
        for name in converse_names(e.relation):
            c = relation_match(name, residual)
            if c.score > m.score:
                m = c
    rel = e.relation
    if m.score == 0 and len(rel) >= 2 and is_han(rel[0]) and rel[0] in residual:
        # `歼灭了多少` for `歼敌数量`: a verb shares its first character with the name's first word — weak evidence
        # for a hop, no coverage, enough to tell apart relations that share nothing else
        m = RelationMatch(HEAD_CHAR_WEIGHT, frozenset())
    return m


@lru_cache(maxsize=16384)
def converse_names(relation: str) -> tuple[str, ...]:
    """The relation's name with a word swapped for its converse (`前序型号` -> `后继型号`, `后续型号`)."""
    rel = normalize_text(relation)
    out: list[str] = []
    for a, b in CONVERSE_WORDS:
        for word, other in ((a, b), (b, a)):
            if word in rel:
                out.append(rel.replace(word, other))
    return tuple(dict.fromkeys(out))


_PARAMETERS = re.compile(r"[(（]([^()（）]*)[)）]")
_VALUE_SEPARATORS = re.compile(r"[,，;；、/\s]+")


@lru_cache(maxsize=16384)
def parameter_values(relation: str) -> tuple[str, ...]:
    """The values a relation name's parenthesised parameters give (`布氏硬度(铸造方法: SB,RB)` -> `sb`, `rb`),
    normalised; the parameter's name (before `:`) is not a value."""
    out: list[str] = []
    for inner in _PARAMETERS.findall(relation):
        value = re.split(r"[:：]", inner)[-1] if re.search(r"[:：]", inner) else ""
        out.extend(v for v in (normalize_text(x) for x in _VALUE_SEPARATORS.split(value)) if v)
    return tuple(out)


def _word_span(value: str, residual: str) -> tuple[int, int] | None:
    """Where `value` stands in `residual` as a word of its own (no Latin letter or digit right before or after it)."""
    start = residual.find(value)
    while start >= 0:
        end = start + len(value)
        before = residual[start - 1] if start else ""
        after = residual[end] if end < len(residual) else ""
        if not (before.isascii() and before.isalnum()) and not (after.isascii() and after.isalnum()):
            return start, end
        start = residual.find(value, start + 1)
    return None


@lru_cache(maxsize=4096)
def content_positions(residual: str) -> frozenset[int]:
    return frozenset(i for i, ch in enumerate(residual) if ch != "|")


def answer_kind_score(index: KGIndex, chain: Chain, analysis: Analysis, weights: Weights | None = None) -> float:
    """+1 when the chain's end is the kind of answer asked for, negative when it clearly is not."""
    w = weights or Weights()
    end = chain.end
    node = index.nodes.get(end)
    if node is None:
        return 0.0
    is_date = index.date(end) is not None
    if analysis.form != "bool" and end in analysis.mention_set:
        # the question names it: it is not what is asked (and a when-question's answer is a date, see below)
        return NOT_A_DATE if analysis.form == "time" and not is_date else -1.0
    is_qty = index.quantity(end) is not None
    types = index.types_text(end)
    rel = chain.edges[-1].relation if chain.edges else ""
    form = analysis.form
    if form == "time":
        # a when-question's answer is a date: anything else is wrong however well its relation matches (`歼-20原型机是
        # 在哪一天首次试飞的` is not answered by the prototype's number)
        # … or a value the KG types as a time (the hour of `在几点失守`: `约18时30分` is no date)
        return 1.0 if is_date or (index.is_literal(end) and index.typed_as_time(end)) else NOT_A_DATE
    if form == "number":
        if is_qty:
            # a unit asked (`多少节`) wants a quantity of its dimension: a speed, not a tonnage of the same ship
            asked_unit = parse_quantity("1" + analysis.asked_unit) if analysis.asked_unit else None
            quantity = index.quantity(end)
            if asked_unit is not None and quantity is not None and quantity.dimension != asked_unit.dimension:
                return OTHER_UNIT
            if analysis.asked_attribute and not any(w in rel for w in analysis.asked_attribute):
                return UNNAMED_ATTRIBUTE  # `多高`: a length the relation does not call a height (`机长`)
            return 1.0
        # `舷号是多少` -> `101`: a number-like identifier answers 多少 too, if less surely than a quantity — and so
        # does any value of the relation the question asks for (`舷号是多少` -> `DDH-182`)
        forward = bool(analysis.asked) and bool(chain.edges) and chain.edges[-1].forward
        named = forward and relation_match(rel, analysis.asked).score >= ASKED_NAMES
        return 0.5 if (parse_quantity(node.name) is not None or named) and not is_date else -1.0
    if form == "count" and is_qty and not is_measure(q := index.quantity(end)):
        # the KG states the number asked for (`多少名舰员死亡` -> `死亡人数 20人`), best in the counter asked for —
        # unless it is a total the named whole states of itself and the question filters the members it counts by a
        # period or a threshold (`90年代入役的尼米兹级航母一共有几艘`: not the class's `建造数量 10艘`)
        if (analysis.times or analysis.numerics) and len(chain.edges) == 1 and chain.start in analysis.mention_set:
            return -1.0
        asked = analysis.measure_word
        same = in_counter(q, asked)
        if same and asked not in GENERIC_MEASURE_WORDS:
            return 1.0  # the same counter, or one counting the same things (`多少名` -> `2.5万人`)
        if asked and asked not in GENERIC_MEASURE_WORDS:
            # another counter counts other things (`几届` is no `参演国家数量 25个`); a specific one of its own
            # counts something else for sure (`多少枚导弹` is no `66名`)
            own = q is not None and q.unit not in GENERIC_MEASURE_WORDS and q.unit != ""
            return -1.0 if own else 0.0
        # a counter that counts anything (`几个`), or none: the number must be of what the question's words name —
        # the relation or the counted noun (`发射箱数量 1个` is no count for `有几个是北约成员国`, `搭载F-35B数量
        # 18架` none for `几个中队`)
        counted = bool(analysis.type_word) and analysis.type_word in normalize_text(rel)
        if not counted and (analysis.type_word or relation_match(rel, analysis.residual).score < SUPPORTED_HOP):
            return 0.0
        return 1.0 if same or not asked else 0.6
    if form == "place":
        if is_date or is_qty:
            return -1.0
        if index.is_place(end) or any(h in types for h in PLACE_TYPE_HINTS):
            return 1.0
        if names_person_type(types) or names_event_type(types):
            return -1.0  # a person or a happening is no place (`致远舰的管带是哪里人`: not the captain)
        return 0.5 if any(h in rel for h in PLACE_RELATION_HINTS) else -0.3
    if form == "bool":
        return 0.0
    mention_keys = analysis.mention_set
    if end in mention_keys:
        return -1.0  # the question names it: it is not what is asked
    last = chain.edges[-1] if chain.edges else None
    # another name of the node just reached (or named): an answer only if the question asks for a name
    if last is not None and last.is_alias and relation_match(last.relation, analysis.residual).score < 0.5:
        return -1.0
    if (
        last is not None
        and last.is_alias
        and analysis.names_described
        and any(last.src in index.alias_group(k) for k in mention_keys)
        and len(relation_match(last.relation, analysis.residual).covered) < 2
    ):
        # the name of a thing the question describes is asked, not another name of the one it names — unless the
        # question spells which of its names (`在研制初期叫什么` -> 曾用名), not just `叫`
        return -1.0
    # entity-like answers (a long description is a fine answer to 什么/如何 questions)
    if is_date or is_qty:
        return -1.0
    score = 0.0
    tw = analysis.type_word
    asks_no_event = analysis.person or (bool(tw) and kg_uses_noun(tw, index) and not analysis.type_word_names_events)
    named_role = bool(tw) and bool(chain.edges) and chain.edges[-1].forward and tw in normalize_text(rel)
    if asks_no_event and not analysis.asks_event and names_event_type(types) and not named_role:
        # a happening is no person, unit, country or vehicle (`…的指挥官是谁` is not `…进攻`; `美军是哪个师` is not
        # `托尔高会师`) — unless the noun asked is a kind of event in this KG (`哪起事故`, `哪项任务`), or the relation
        # reaching it names it so (`包含阶段` for `有哪些阶段`)
        return -1.0
    if analysis.person:
        if names_person_type(types):
            score += 1.0
        elif index.is_place(end):
            score -= 1.0  # `和谁发生了对峙`: a party is asked, never the place where it happened
        elif not any(h in types for h in ORGANISATION_TYPE_HINTS):
            score -= 0.5
    if tw and not analysis.person:
        # A forward last hop's relation names the answer's role (`X 包含型别 Y`: Y is a 型别); walked backwards
        # it names the node we came from, so it does not count.
        last_forward = bool(chain.edges) and chain.edges[-1].forward
        # the kinds a node has as values count, unless the kind itself is asked (`哪一类导弹` -> the category)
        kinds = "" if analysis.asks_category else category_values(index, end)
        # the node's other names count too (`第十一届中国国际航空航天博览会`, 简称 `第十一届中国航展`, is a 航展)
        # (a one-character kind, `哪国`, `哪个州`, is a name's head, its last character: `国产发动机…展示` is no 国)
        others = sorted(k for k in index.alias_group(end) if k != end)
        head_only = len(tw) == 1
        names = "".join(n[-1:] if head_only else n for n in (node.name, *others))
        hay = types + names + (rel if last_forward else "") + kinds
        if analysis.asks_category and last_forward and any(h in types + rel for h in TYPE_RELATION_HINTS):
            # `哪类舰艇` asks a kind of 舰艇: a node the KG types or reaches as a category (`类型 航空母舰`) is one,
            # whatever its name says
            score += w.type_match
        else:
            which_heads = COUNTER_HEADS.get(analysis.thing_counter, ())
            if tw in which_heads:
                # `几艘舰里，哪一艘`: a one-character noun the which-word's counter counts — a ship by the end of its
                # name or KG type (`巴库号`), as `哪一艘` alone asks
                kind = w.type_match if _ends_in(node.name, node.types, which_heads) else -w.type_mismatch
            elif kg_uses_noun(tw, index):
                kind = _type_word_score(tw, hay, w.type_match, w.type_mismatch)
                if kind < 0 and analysis.role_person_types & set(node.types):
                    kind = w.type_match  # of the kind a relation spelled like the noun reaches (`试飞员` -> 人物)
            else:
                # a noun the KG does not use (`什么飞机`): a name ending in its head (`超级军旗攻击机`) is of that kind,
                # less surely; nothing is ruled out by it
                # (or a kind the KG states of it, `青河号 类型 巡洋舰` is a `军舰`, or types it as, `军事行动` is a
                # `实战行动`)
                heads = (
                    normalize_text(node.name),
                    *(normalize_text(index.name(e.dst)) for e in category_edges(index, end)),
                    *(normalize_text(t) for t in node.types),
                )
                kind = w.type_match / 2 if any(h.endswith(tw[-1]) for h in heads) else 0.0
            # `哪一级驱逐舰`: a kind is asked; a thing of that kind (`捍卫者号驱逐舰`) is not one
            score += min(kind, 0.0) if analysis.asks_category else kind
            longer = kind > 0 and len(analysis.type_text) >= len(tw) + MODIFIER_MIN_CHARS
            modifier = normalize_text(analysis.type_text)[: -len(tw)] if longer else ""
            if len(modifier) >= MODIFIER_MIN_CHARS and analysis.type_text.endswith(tw) and modifier in names + kinds:
                # the words before the asked noun describe it (`哪一个法国集团军`): a node of the kind whose names
                # spell them is the one described
                score += w.type_match / 2
            if analysis.kind_predicated and any(h in types for h in CATEGORY_TYPE_WORDS):
                score = min(score, 0.0) - w.type_mismatch  # `哪些是防空导弹`: things of the kind, not the kind
    elif analysis.asks_event:
        score += w.type_match if names_event_type(types) else -w.type_mismatch
    elif analysis.asks_thing and (counter_heads := COUNTER_HEADS.get(analysis.thing_counter)):
        # `哪一艘`: a ship, by the end of its name or KG type (`…号`, `两栖攻击舰`), not other equipment (a `舰炮` it
        # carries), a place or an event
        score += w.type_match if _ends_in(node.name, node.types, counter_heads) else -w.type_mismatch
    elif analysis.asks_thing and any(h in types for h in THING_TYPE_HINTS):
        score += w.type_match  # `哪艘英国军舰` (a kind the KG does not name): a thing the KG types as equipment
    elif analysis.asks_thing and (
        index.is_place(end) or names_event_type(types) or any(h in types for h in PLACE_TYPE_HINTS)
    ):
        score -= w.type_mismatch  # … and no place, no event
    elif analysis.read_type and node.types:
        score += w.read_type if analysis.read_type in node.types else -w.read_type
    return score


def _ends_in(name: str, types: tuple[str, ...], heads: tuple[str, ...]) -> bool:
    """The node's name or one of its KG types ends in one of `heads` (what a counter counts: `…号`, `两栖攻击舰`)."""
    return any(name.endswith(h) or any(t.endswith(h) for t in types) for h in heads)


@lru_cache(maxsize=65536)
def _type_word_score(type_word: str, hay: str, match: float, mismatch: float) -> float:
    hay = normalize_text(hay)
    if len(type_word) == 1:  # a head (`哪个州`), or one of the heads naming the same kind (`船` for a `补给舰`)
        heads = next((g for g in SAME_KIND_HEADS if type_word in g), type_word)
        return match if any(h in hay for h in heads) else -mismatch
    n, _ = longest_common_substring(type_word, hay)
    if n < 2:
        return -mismatch
    # Chinese nouns end in their head (`航空站` is a 站): sharing only the modifier (`航空兵…中队`) is no kind match
    if type_word[-1] not in hay:
        return -mismatch
    return match * n / len(type_word)


DESCRIBED_CHARS = 2  # the question characters in a row a description must spell to count as talking about what is asked


def node_match(index: KGIndex, key: str, residual: str) -> frozenset[int]:
    """Positions of `residual` that a node's name spells (a common substring of 2+ characters) — or, for a
    description literal, the question's words it spells (`40Cr的冷变形塑性如何` and `…冷变形塑性中等…`)."""
    node = index.nodes.get(key)
    if node is None:
        return frozenset()
    if node.kind != "entity":
        # a text literal (`kg.index`: a long object-only value) is a description, not a name
        return _described(key, residual) if node.kind == "text" else frozenset()
    return _spelled(key, residual)


@lru_cache(maxsize=65536)
def _described(text: str, residual: str) -> frozenset[int]:
    n, end = longest_common_substring(text, residual)
    if n < DESCRIBED_CHARS or "|" in residual[end - n : end]:
        return frozenset()
    return frozenset(range(end - n, end))


@lru_cache(maxsize=65536)
def _spelled(name: str, residual: str) -> frozenset[int]:
    n, end = longest_common_substring(name, residual)
    if n >= 2 and n < min(3, len(name)) and "|" not in residual[end - n : end]:
        # two shared characters are evidence only for a short name (`战斗` is in too many names) — or when they are
        # the name's head noun (Chinese names end in their kind: `那种导弹` describes `AM39飞鱼导弹`)
        if name.endswith(residual[end - n : end]):
            return frozenset(range(end - n, end))
        return frozenset()
    if n < min(3, len(name)) or n < 2 or "|" in residual[end - n : end]:
        return frozenset()
    return frozenset(range(end - n, end))


@dataclass(frozen=True, slots=True)
class ChainScore:
    total: float
    coverage: float
    mean_relation: float
    answer_kind: float
    external: float
    hop_scores: tuple[float, ...]
    # the hops into an event that the next hop leaves along a supported relation: they need no words of their own
    into_events: frozenset[int] = frozenset()


class ChainScorer:
    """The chain score for one question, remembering what chains share: the evidence of each hop (chains from one
    start share their prefixes) and the answer kind of each end. Build one per question."""

    def __init__(
        self,
        index: KGIndex,
        analysis: Analysis,
        weights: Weights,
        relation_prior: Mapping[str, float] | None = None,
    ) -> None:
        self.index = index
        self.analysis = analysis
        self.weights = weights
        # a learned matcher's belief that the question asks about each relation (normalised name -> [0, 1])
        self._prior = relation_prior or {}
        self._residual = analysis.residual
        self._content = content_positions(analysis.residual)
        self._mentions = analysis.mention_set
        self._bound = analysis.bound_keys  # a property computed each time it is read: once per question here
        self._events: dict[str, bool] = {}  # node key -> the KG types it as an event
        self._joins: dict[int, bool] = {}  # id(edge) -> it enters an event joining its start to another name
        self._said: dict[tuple[str, str], bool] = {}  # (chain start, event) -> the question names the event in part
        self._hops: dict[int, tuple[frozenset[int], float, bool]] = {}
        self._alias_cover: dict[int, frozenset[int]] = {}
        self._kinds: dict[tuple[str, int], float] = {}
        self._prefix_hops: dict[int, float] = {}
        self._kinds_named: dict[str, frozenset[int]] = {}
        # the words of a name the question spells in pieces (`link`'s composed links) stay in the residual; a chain
        # from that node covers them
        self._start_words: dict[str, frozenset[int]] = {}
        # the words of a linked name kept among the relation words (a relation name spells it: `米格-29` in
        # `米格-29损失数量`), by node
        self._kept_names: dict[str, frozenset[int]] = {}
        for m in analysis.mentions:
            piece = analysis.mapped.norm[m.start : m.end]
            at = self._residual.find(piece)
            if at < 0:
                continue
            if m.how == "composed":
                got = self._start_words.get(m.key, frozenset())
                self._start_words[m.key] = got | frozenset(range(at, at + len(piece)))
            elif m.how in ("exact", "core") and len(piece) >= 2:
                self._kept_names[m.key] = self._kept_names.get(m.key, frozenset()) | frozenset(
                    range(at, at + len(piece))
                )

    def _hop(self, e: Edge, unnamed: frozenset[int] = frozenset()) -> tuple[frozenset[int], float, bool]:
        """(positions covered, hop score, weak) of one edge: a hop is supported by a relation word, or by the
        question naming (part of) the node it reaches (`所用的发动机` -> `F135涡扇发动机`) — except at the positions
        `unnamed`, which only a relation word covers (cached for the common case, none)."""
        key = id(e)
        got = self._hops.get(key) if not unnamed else None
        if got is None:
            m = hop_match(e, self._residual)
            reached = node_match(self.index, e.dst, self._residual) if e.dst not in self._mentions else frozenset({-1})
            reached -= unnamed
            covered = m.covered | (reached - {-1})
            side = self._side_fit(e.relation) if e.forward else 0.0  # the side qualifies the relation's object
            named = max(m.score + side, self._learned(e.relation))
            got = (covered, max(named, NODE_SUPPORT if reached else 0.0), named < SUPPORTED_HOP and not reached)
            if not unnamed:
                self._hops[key] = got
        return got

    def _side_fit(self, relation: str) -> float:
        """`日方参战兵力` for `日军…投入了多少兵力`: a relation named for a side (a character and 方) that the question
        names as a side (that character and 军 or 方) fits; one for another side, when the question names one, does
        not (`中方参战兵力`: the `中` of `会战中` names no side)."""
        side = relation_side(normalize_text(relation))
        if not side or not self._sides_named:
            return 0.0
        return SIDE_FIT if side in self._sides_named else -SIDE_FIT

    @cached_property
    def _sides_named(self) -> frozenset[str]:
        """The sides the question names (`日军`, `美方` -> 日, 美) among those the KG's relations are named for."""
        nq = self.analysis.mapped.norm
        return frozenset(x for x in side_relation_initials(self.index) if names_side(nq, x))

    def _joins_another_mention(self, e: Edge) -> bool:
        """The hop enters an event that joins its start to another name of the question (`6纵…拿下垛庄`: `攻占垛庄`
        has `执行部队 6纵` and `攻占地点 垛庄`): the question describes that event by both, so as a bridge (not the
        answer) the hop is supported as if the question named it."""
        if e.src not in self._mentions:
            return False
        got = self._joins.get(id(e))
        if got is None:
            # (two names the KG joins directly, `F-35B 主要用户 美国海军陆战队`, need no event between them)
            direct = {f.dst for f in self.index.edges(e.src)}
            got = self._joins[id(e)] = macro_kind(self.index, e.dst) == "event" and any(
                f.dst != e.src and f.dst in self._mentions and f.dst not in direct for f in self.index.edges(e.dst)
            )
        return got

    def _kind_named(self, key: str) -> frozenset[int]:
        """Positions of the residual that a kind the KG states of the node spells (its category values)."""
        got = self._kinds_named.get(key)
        if got is None:
            got = self._kinds_named[key] = _spelled(category_values(self.index, key), self._residual)
        return got

    def _into_event(self, chain: Chain, i: int) -> bool:
        """Hop `i` enters an event node (the KG types it as one) that the next hop leaves along a supported
        relation, toward an answer of the kind asked. An event is an n-ary fact split into triples: the relation
        out of it says what the two hops mean together (`舰 <-受袭舰船- 遇袭事件 -发射平台-> 攻击机` for
        `向某舰发射导弹的攻击机`), so the hop in needs no words of its own."""
        edges = chain.edges
        if i + 1 >= len(edges):
            return False
        if not self._is_event(edges[i].dst):
            return False
        return not self._hop(edges[i + 1])[2] and self._kind(chain) > 0

    def _event_said(self, chain: Chain, i: int) -> bool:
        """The event hop `i` enters is named in part by the question's words besides the chain's start (`俄国黑海舰队
        …自沉了几艘` enters `黑海舰队自沉封港`), not only reached (`尼曼来自哪国` through the exercise he commanded)."""
        key = (chain.start, chain.edges[i].dst)
        got = self._said.get(key)
        if got is None:
            rest = normalize_text(self.index.name(chain.edges[i].dst)).replace(chain.start, "|")
            got = self._said[key] = longest_common_substring(rest, self._residual)[0] >= EVENT_SAID_CHARS
        return got

    def _is_event(self, key: str) -> bool:
        got = self._events.get(key)
        if got is None:
            got = self._events[key] = names_event_type(self.index.types_text(key))
        return got

    @staticmethod
    def _category_hop(chain: Chain) -> bool:
        """The chain's last hop states the kind of the node it leaves (`X 类型 Y`, walked forward)."""
        last = chain.edges[-1] if chain.edges else None
        return last is not None and last.forward and any(h in last.relation for h in TYPE_RELATION_HINTS)

    def _out_of_event_to_asked(self, chain: Chain, i: int) -> bool:
        """Hop `i` is the last, leaves an event node and ends on a thing of the kind the question asks by its measure
        word (`哪艘…与X发生对峙`: `对峙事件 -涉事舰艇-> 舰`): the event's participant of that kind is what is asked."""
        edges = chain.edges
        return (
            self.analysis.asks_thing and i == len(edges) - 1 and self._is_event(edges[i].src) and self._kind(chain) > 0
        )

    def _named_by_question_word(self, chain: Chain, i: int) -> bool:
        """Hop `i` is the last and its relation spells the country the question word asks (`哪国企业` ->
        `所属国家`), ending on a node of that kind, or it reaches a node whose name ends in a specific asked noun
        (`哪家设计局` -> `克里莫夫设计局`), or a number in the counter asked: the question word is the hop's evidence.
        (Only a country among relations: other asked nouns, `哪个型别`, are also relation words, and a relation
        spelling them names no extra hop.)"""
        tw = self.analysis.type_word
        if i != len(chain.edges) - 1 or not chain.edges[i].forward:
            return False
        if tw in COUNTRY_TYPE_WORDS and tw in normalize_text(chain.edges[i].relation):
            return self._kind(chain) > 0
        # so does a last hop to a node whose own name ends in the asked noun (`哪家设计局` -> `克里莫夫设计局`,
        # `哪几个方面军` -> `草原方面军`): the question word names what the hop reaches — a specific kind only
        # (two-character heads such as `公司`, `海军` end too many names to say which hop was meant)
        if len(tw) >= SPECIFIC_KIND_CHARS and chain.end.endswith(tw):
            return self._kind(chain) > 0
        # so does a number in the very counter a how-many question asks (`几枚` -> `单箱装载数量 1枚`)
        counter = self.analysis.measure_word
        return (
            self.analysis.form == "count"
            and bool(counter)
            and counter not in GENERIC_MEASURE_WORDS
            and self._kind(chain) >= 1.0
        )

    def _learned(self, relation: str) -> float:
        return self.weights.learned_relation * self._prior.get(normalize_text(relation), 0.0) if self._prior else 0.0

    def _kind(self, chain: Chain) -> float:
        key = (chain.end, id(chain.edges[-1]) if chain.edges else 0)
        got = self._kinds.get(key)
        if got is None:
            w = self.weights
            got = answer_kind_score(self.index, chain, self.analysis, w)
            self._kinds[key] = got
        return got

    def prefix(self, chain: Chain) -> float:
        """Beam ordering of partial chains: evidence for each hop so far (relation word or named node), minus a
        little per hop."""
        s = 0.0
        for i, e in enumerate(chain.edges):
            if e.is_alias and i == 0:
                continue
            key = id(e)
            step = self._prefix_hops.get(key)
            if step is None:
                rel = max(hop_match(e, self._residual).score, self._learned(e.relation))
                node = 0.5 if e.dst in self._mentions or node_match(self.index, e.dst, self._residual) else 0.0
                step = max(rel, node) - 0.1
                self._prefix_hops[key] = step
            s += step
        return s

    def score(self, chain: Chain, external: float | None = None) -> ChainScore:
        analysis, weights = self.analysis, self.weights
        covered: set[int] = set()
        hop_scores: list[float] = []
        into_events: list[int] = []
        weak = 0
        start_words = self._kept_names.get(chain.start)
        last = len(chain.edges) - 1
        for i, e in enumerate(chain.edges):
            if e.is_alias and i == 0 and last > 0:
                # the step from the name the question uses to the node the KG describes: no evidence needed
                continue
            hop_covered, hop_score, hop_weak = self._hop(e)
            if start_words and hop_covered & start_words and e.dst != chain.start:
                # a node whose name spells the start's (a variant `米格-29UB`, an event `1989年巴黎航展米格-29坠毁事故`)
                # is not described by the words that name the start: only a relation that spells them is evidence
                hop_covered, hop_score, hop_weak = self._hop(e, start_words)
            if i < last and hop_score < NODE_SUPPORT and (described := self._kind_named(e.dst)):
                # a bridge the question describes by a kind the KG states of it (`击沉X的潜艇…隶属于哪支海军`
                # passes 征服者号, 类型 核潜艇)
                hop_covered, hop_score, hop_weak = hop_covered | described, NODE_SUPPORT, False
            elif i < last and hop_score < NODE_SUPPORT and self._joins_another_mention(e):
                hop_score, hop_weak = NODE_SUPPORT, False
            if hop_covered and hop_covered <= covered and all(p.relation != e.relation for p in chain.edges[:i]):
                # its words already named an earlier hop of another relation: they are not evidence for this one
                # too (`后继型号` -> 前序型号, then not 燃气轮机型号 for the same `型号`); the two hops of a sibling
                # (`同一型号`: 所属型号 there and back) share them
                hop_score, hop_weak = 0.0, True
            if hop_weak and self._named_by_question_word(chain, i):
                hop_score, hop_weak = NODE_SUPPORT, False
            covered |= hop_covered
            hop_scores.append(hop_score)
            # (only an unsupported hop needs the event's reading: `_into_event` is looked at then alone)
            into_event = hop_weak and self._into_event(chain, i)
            if into_event and self._event_said(chain, i):
                into_events.append(i)
            weak += hop_weak and not into_event and not self._out_of_event_to_asked(chain, i)
        # `X -r-> Y <-r- Z` reaches a sibling of X; rarely what a question asks, unless it says so (`与X同一天`)
        edges = chain.edges
        if analysis.asks_category and self._category_hop(chain) and hop_scores and hop_scores[-1] < SUPPORTED_HOP:
            # `属于哪类舰艇`: the kind itself is asked, and the KG states kinds along a category relation (类型, 舰种)
            # whatever the question's other words say
            last = len(edges) - 1
            if self._hop(edges[last])[2] and not self._into_event(chain, last):
                weak -= 1
            hop_scores[-1] = NODE_SUPPORT
        if not analysis.asks_sibling:
            weak += chain.sibling_detours
        elif analysis.form != "bool" and not chain.sibling_detours:
            weak += 1  # `与X同级的另一艘航母的舷号`: what is asked shares a node with X; X's own fact is not it
        content = self._content
        # the pieces of the start's name the question spells are covered, yet still evidence for a hop (above)
        covered |= self._start_words.get(chain.start, frozenset())
        coverage = len(covered & content) / len(content) if content else 0.0
        mean_rel = sum(hop_scores) / len(hop_scores) if hop_scores else 0.0
        kind = self._kind(chain)
        # Passing through another entity the question names supports the chain, unless the question marks it as a
        # side / place to check (`隶属X`) or a time bound: those are constraints, not stations of the chain.
        bound = self._bound
        bridges = [n for n in chain.nodes[1:-1] if n in self._mentions]
        bridge_mentions = sum(1 for n in bridges if n not in bound and n not in analysis.roles)
        weak += sum(1 for n in bridges if n in analysis.roles or n in bound)
        # the answer is the object of the relation the question asks about (`…舷号是什么` -> a last hop 舷号)
        asked = 0.0
        if analysis.asked and edges and edges[-1].forward:
            asked = relation_match(edges[-1].relation, analysis.asked).score
        ext = external if external is not None else 0.0
        total = (
            weights.asked_relation * asked
            + weights.coverage * coverage
            + weights.mean_relation * mean_rel
            + weights.answer_kind * kind
            - weights.hop_penalty * max(0, len(hop_scores) - 1)
            - weights.weak_hop_penalty * weak
            + weights.bridge_mention * bridge_mentions
            + weights.external * ext
        )
        return ChainScore(total, coverage, mean_rel, kind, ext, tuple(hop_scores), frozenset(into_events))
