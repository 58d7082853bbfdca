"""Entity linking: which KG nodes the question mentions.

No segmenter is needed: node names (normalised) are looked up as substrings of the normalised question; the
longest, most specific matches win and a shorter name inside an accepted longer one is not linked (`F-35` inside
`F-35A`). Names with a bracketed part also match without it (`辽宁舰（16）` ~ `辽宁舰`). Weaker kinds of link catch
names the question shortens or rewords:
- partial: the question spells the start of a name, or most of it (`大黄蜂号` -> `大黄蜂号航空母舰`,
  `考艾岛附近海域` -> `夏威夷考艾岛附近海域`), or a transliterated name's last part (`罗彻福特` -> `约瑟夫·罗彻福特`;
  a person's may be two characters, `普勒`) — which wins over the names it begins when their nodes connect to it
  (`杜鲁门号` -> `哈里·S·杜鲁门号`, not `杜鲁门号撞船事故`: events named after the ship); a word inside the name of
  the document's subject (its node with the most triples) means the subject, not the names it begins (`谢尔曼` ->
  `M4谢尔曼中型坦克`, not `谢尔曼DD两栖坦克`);
- fuzzy: most of a name's character bigrams occur close together (`中途岛的作战计划` -> `中途岛作战计划`);
- group: a word the question quotes, with the noun after it, inside a few longer names (`“飞鱼”导弹` ->
  `AM39飞鱼导弹` and `MM38飞鱼导弹`); all of them link, and the words stay for relation matching (the same kind of
  link as the shared words used when nothing else links); a quoted word that begins exactly one name links it
  (`“花园”地面攻势` -> `花园行动`);
- composed: a descriptive name spelled in pieces, in any order, one word possibly in a synonym, its own KG kind
  left out (`格拉摩根号是在哪一天遇袭的` -> `格拉摩根号遇袭事件`); its pieces stay for relation matching too;
- synonym variant: a name with one of its words in a synonym of its relation-synonym group links like the name
  itself (`歼-20第一次试飞` -> `歼-20首次试飞`);
- gapped: every character of a short name, in order, with at most two characters between them, starting and
  ending on the name's own first and last characters (`侧面弹舱` -> `侧弹舱`): the question says in full what the
  KG abbreviates;
- listed with a shared head: stems of names ending in one head word, listed and the head said once after them
  (`犹他和奥马哈这两个海滩` -> `犹他海滩`, `奥马哈海滩`);
- elided: the start and the end of a longer name, at least two characters each and half of it, with its middle
  left out (`波兰伞兵旅` -> `波兰第1独立伞兵旅`, `中国海军` -> `中国人民解放军海军`): the question shortens it.
A weaker link must be clearly longer than the exact one it replaces, and none spans the question's own question
word (`哪`, `什么`, …); a partial link never begins inside a name the question spells in full (`加贺号航空母舰` with
a node `加贺号` does not link `约克城号航空母舰` by its tail `号航空母舰`), and a name the question writes on from,
without a particle, into the start of a longer name gives way to it (`阿利·伯克号`: the ship, not the admiral).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from kgreason.kg.index import KGIndex
from kgreason.reason.kinds import is_category
from kgreason.reason.lexicon import (
    BATTLE_SHORT_SUFFIXES,
    CAMP_RELATION_HINTS,
    COORDINATORS,
    COUNT_NUMERALS,
    INTERROGATIVES,
    KIND_MEASURE_WORDS,
    MEASURE_WORDS,
    NAME_PARTICLES,
    ORDINAL_WORD,
    PHRASE_END_CHARS,
    POSSESSIVE,
    RELATION_SYNONYMS,
    TOPIC_DEMONSTRATIVE,
    TOPIC_MEASURE_WORDS,
    TOPIC_MEASURED_DEMONSTRATIVES,
    names_event_type,
    names_person_type,
)
from kgreason.reason.textmap import MappedText, quoted_spans
from kgreason.text.names import surname
from kgreason.text.normalize import is_han, normalize_text
from kgreason.text.overlap import abbreviation_in, longest_common_substring, occurrences

LinkHow = Literal["exact", "core", "partial", "fuzzy", "gapped", "elided", "group", "composed"]

MIN_NAME_CHARS = 2  # a one-character name would match almost any question
PARTIAL_MIN_CHARS = 3
PERSON_SURNAME_MIN_CHARS = 2
TAIL_MIN_START_CHARS = 2  # a name's end stands for it when the question spells its start (this long) elsewhere
PLACE_REGION_CHARS = 2  # the region a place's name may begin with (`山东` of `山东滕县`)
PLACE_END_MIN_CHARS = 2  # … and the least of the place's own name after it
PLACE_END_SCORE = 0.8
PARTIAL_MIN_SHARE = 0.6  # a part from inside a name must spell this share of it (a start may be shorter)
FUZZY_MIN_COVERAGE = 0.75
FUZZY_MIN_NAME_CHARS = 4
SHARED_MIN_CHARS = 3  # a word inside several names links to all of them only when nothing else links
QUOTED_GROUP_MAX = 6  # a quoted word inside more names than this is a common word, not a family of names
GAPPED_MIN_CHARS = 3
GAPPED_MAX_INSERTED = 2  # characters the question may add inside a name it spells in full (`侧面弹舱` ~ `侧弹舱`)
GAPPED_SCORE = 0.7
ELIDED_MIN_CHARS = 5  # a name spelled as its start and end (`波兰伞兵旅` for `波兰第1独立伞兵旅`) is this long at least
ELIDED_END_CHARS = 2  # both the start and the end spell this many characters at least
ELIDED_MIN_SHARE = 0.5  # of the name
ELIDED_SCORE = 0.7
ELIDED_OVER_PARTIAL_END_CHARS = 3  # the end a longer elided link spells to win over a partial link of its start
COMPOSED_MIN_CHARS = 5  # a shorter name spelled in pieces is too likely a coincidence (and two pieces at least)
COMPOSED_MIN_COVERAGE = 1.0  # every character: one left out (`约克城号航空母舰` for `约克城级`) changes the thing
COMPOSED_SCORE = 0.8
QUOTED_START_SCORE = 0.6  # a quoted word that begins exactly one name (`“花园”` -> `花园行动`)
SYNONYM_VARIANT_SCORE = 0.9  # a name spelled with one word in a synonym (`第一次` for `首次`)
SIDE_START_CHARS = 2
SIDE_START_SCORE = 0.6
SHORT_NUMBER_WINDOW = 6  # a short number links when its relation's name ends this close before it (`舷号为105`)

_HAN_WORD = re.compile(r"[\u4e00-\u9fff]{2}")  # a composed name's own words: two Chinese characters at least
_BRACKETED = re.compile(r"[（(\[【「『〈《][^）)\]】」』〉》]*[）)\]】」』〉》]")


@dataclass(frozen=True, slots=True)
class Mention:
    start: int  # in the normalised question
    end: int
    text: str  # verbatim substring of the original question
    key: str  # the node's normalised name
    how: LinkHow
    score: float  # 1 exact, 0.95 without brackets, lower for partial and fuzzy links

    @property
    def weight(self) -> float:
        """What a link is worth when links overlap: its length, discounted by its confidence."""
        spelled = self.end - self.start
        if self.how == "gapped":  # the inserted characters are not part of what the link spells
            spelled = min(spelled, len(self.key))
        return spelled * (1.0 if self.how in ("exact", "core") else self.score)


def _core(name: str) -> str:
    return normalize_text(_BRACKETED.sub("", name))


def synonym_variants(name: str) -> list[str]:
    """The name with one of its words (two characters or more) replaced by another word of the same synonym group
    (`kgreason.reason.lexicon.RELATION_SYNONYMS`): how a user rewords a descriptive name (an event's, mostly)."""
    out: list[str] = []
    for group in RELATION_SYNONYMS:
        for word in group:
            if len(word) < 2 or word not in name:
                continue
            out.extend(name.replace(word, other, 1) for other in group if len(other) >= 2 and other not in name)
    return sorted(set(out) - {name})


def _bigrams(s: str) -> list[str]:
    return [s[i : i + 2] for i in range(len(s) - 1)]


class NameTable:
    """Lookup tables over one KG's node names, built once per document."""

    def __init__(self, index: KGIndex) -> None:
        self.exact: dict[str, list[tuple[str, LinkHow, float]]] = defaultdict(list)
        self.parts: dict[str, list[str]] = defaultdict(list)  # a start or a large part of a name -> node keys
        self.bigrams: dict[str, set[str]] = defaultdict(set)
        self.lengths: set[int] = set()
        self.part_lengths: set[int] = set()
        self.names: dict[str, str] = {}  # key -> the name spelling used for parts / bigrams
        self.by_first: dict[str, list[str]] = defaultdict(list)  # first character -> keys (gapped links)
        self.bare: dict[str, str] = {}  # key -> its name without a trailing kind of its own (composed links)
        self.events = frozenset(k for k in index.nodes if names_event_type(index.types_text(k)))  # event nodes
        self.degree = {k: n.degree for k, n in index.nodes.items()}
        # the KG's words: the endings of its names, types and relation names, and the starts several relation names
        # share (`解放军` of `解放军伤亡`, `解放军参战兵力`)
        relations = [normalize_text(r) for r in index.relations]
        shared = Counter(r[:k] for r in relations for k in range(2, 5) if len(r) > k)
        self.words = index.vocabulary | {w for w, n in shared.items() if n >= 2}
        self.alias_group = index.alias_group
        self._index = index  # for the lookups made only when a question needs them (`is_kind`)
        # short numbers (`105`) are no names by themselves, but they are when the question says whose they are
        self.short_numbers: dict[str, set[str]] = defaultdict(set)  # number -> normalised relations reaching it
        inner: dict[str, set[str]] = defaultdict(set)
        surnames: dict[str, set[str]] = defaultdict(set)  # a transliterated name's last part -> node keys
        for key, node in index.nodes.items():
            if node.kind == "text":
                continue
            if len(key) >= MIN_NAME_CHARS and not (key.isdigit() and len(key) < 4):
                self.exact[key].append((key, "exact", 1.0))
                self.lengths.add(len(key))
            elif key.isdigit():
                self.short_numbers[key].update(normalize_text(e.relation) for e in index.edges(key) if not e.forward)
            core = _core(node.name)
            if len(core) >= MIN_NAME_CHARS and core != key:
                self.exact[core].append((key, "core", 0.95))
                self.lengths.add(len(core))
            if node.kind == "entity":
                # `歼-20第一次试飞` for the event `歼-20首次试飞`: a name spelled with one of its words in a synonym
                for variant in synonym_variants(core or key):
                    if variant not in index.nodes:
                        self.exact[variant].append((key, "core", SYNONYM_VARIANT_SCORE))
                        self.lengths.add(len(variant))
            if node.kind != "entity":
                continue
            name = core or key
            self.names[key] = name
            n = len(name)
            if n >= GAPPED_MIN_CHARS:
                self.by_first[name[0]].append(key)
            for length in range(PARTIAL_MIN_CHARS, n):
                self.parts[name[:length]].append(key)
                self.part_lengths.add(length)
                if length >= PARTIAL_MIN_SHARE * n:
                    for i in range(1, n - length + 1):
                        inner[name[i : i + length]].add(key)
            # `约瑟夫·罗彻福特`: a transliterated name is called by its last part alone (the family name)
            # (a person's may have two characters: `普勒` -> `刘易斯·普勒`)
            person = names_person_type(index.types_text(key))
            shortest = PERSON_SURNAME_MIN_CHARS if person else PARTIAL_MIN_CHARS
            if len(last := normalize_text(surname(node.name))) >= shortest:
                inner[last].add(key)
                surnames[last].add(key)
                self.part_lengths.add(len(last))
            if n >= FUZZY_MIN_NAME_CHARS:
                for bg in set(_bigrams(name)):
                    self.bigrams[bg].add(key)
                # the name without a kind the KG gives the node (`格拉摩根号遇袭事件`, typed 事件): a user leaves it out
                bare = next((name[: -len(t)] for t in node.types if len(t) >= 2 and name.endswith(t)), name)
                self.bare[key] = bare
        # `犹他海滩`, `奥马哈海滩`: names ending in one head word (of 2-4 characters, after a stem of 2 or more) —
        # a list of their stems with the head said once after it names each (`犹他和奥马哈这两个海滩`)
        stems_by_head: dict[str, dict[str, str]] = defaultdict(dict)
        for key, name in self.names.items():
            for k in range(2, 5):
                if len(name) - k >= 2:
                    stems_by_head[name[-k:]][name[:-k]] = key
        self.shared_heads = {h: stems for h, stems in stems_by_head.items() if _things(index, stems.values()) >= 2}
        # `C-130早期型号`: a name's end after a start the question spells elsewhere (`和早期型号比起来，C-130J的…`) —
        # end -> (node, start), for ends of one thing only, too short a share of the name for an inner part
        tails: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for key, name in self.names.items():
            for length in range(PARTIAL_MIN_CHARS, len(name) - TAIL_MIN_START_CHARS + 1):
                if length < PARTIAL_MIN_SHARE * len(name):
                    tails[name[-length:]].append((key, name[:-length]))
        self.tails = {t: hs[0] for t, hs in tails.items() if len(hs) == 1}
        # `滕县` for `山东滕县`, `淡水` for `惠阳淡水`: a place named without the region its name begins with
        place_ends: dict[str, list[str]] = defaultdict(list)
        for key, name in self.names.items():
            if index.is_place(key) and len(name) - PLACE_REGION_CHARS >= PLACE_END_MIN_CHARS:
                place_ends[name[PLACE_REGION_CHARS:]].append(key)
        self.place_ends = {e: ks[0] for e, ks in place_ends.items() if len(ks) == 1 and e not in self.exact}
        self.tail_lengths = sorted({len(t) for t in self.tails})
        self.tail_rank = {t: r for r, t in enumerate(self.tails)}  # the order ends are tried in, fixed
        # A part from inside names is a name only when one node has it; `驱逐舰` in several ship names is a
        # category word, not a mention of any of them (kept apart: the last resort when nothing else links) — nor
        # is a word that ends several names (`设计局` of `火炬设计局` and `金刚石中央设计局`)
        # (names of one thing — `第一机动部队` and its alias `南云机动部队` — count as one node: the one with the most
        # triples)
        for part, keys in inner.items():
            if _things(index, keys) == 1 and part not in self.parts and part not in self.shared_heads:
                self.parts[part].append(max(sorted(keys), key=lambda k: self.degree.get(k, 0)))
        # `杜鲁门号` begins `杜鲁门号撞船事故` and `杜鲁门号误击事件` and ends `哈里·S·杜鲁门号`: names that begin
        # with a node's last part and whose nodes connect to it are named after it, so the part names that node
        # (a name that goes on from another of them, `布鲁西洛夫攻势第一阶段`, is named after that one: only the
        # shortest must connect)
        for part, keys in surnames.items():
            starting = [k for k in self.parts.get(part, ()) if k not in keys]
            named = self.names
            roots = [k for k in starting if not any(o != k and named[k].startswith(named[o]) for o in starting)]
            if len(keys) == 1 and roots and all(_adjacent(index, k, keys) for k in roots):
                self.parts[part] = sorted(keys)
        # `美国航母` with only `美国海军` in the KG: the first two characters of a side's name (a node things belong
        # to: `X 隶属于 美国海军`) that begin no other name of the KG stand for that side
        starts: dict[str, set[str]] = defaultdict(set)
        for key, name in self.names.items():
            if len(name) > SIDE_START_CHARS:
                starts[name[:SIDE_START_CHARS]].add(key)
        # the node with the most triples: the document's own subject, which questions call by a short name
        self.topic = max(self.names, key=lambda k: (self.degree.get(k, 0), k), default="")
        # `谢尔曼坦克` with nodes `M4谢尔曼中型坦克` (the subject) and `谢尔曼DD两栖坦克`: a word inside the subject's
        # name that begins other names means the subject — those are named after it
        topic_name = self.names.get(self.topic, "")
        for i in range(1, len(topic_name)):
            for j in range(i + PARTIAL_MIN_CHARS, len(topic_name) + 1):
                part = topic_name[i:j]
                if part in self.parts and part not in self.exact and self.topic not in self.parts[part]:
                    self.parts[part] = [self.topic]
        self.side_starts: dict[str, str] = {
            start: next(iter(keys))
            for start, keys in starts.items()
            if len(keys) == 1 and start not in self.exact and is_side(index, next(iter(keys)))
        }

    def is_kind(self, key: str) -> bool:
        """The KG uses the node as a kind (`kinds.is_category`): looked up when a link needs it, not per document."""
        return is_category(self._index, key)

    @cached_property
    def _inside_words(self) -> tuple[dict[str, list[str]], dict[str, str]]:
        """Words (3-8 characters) inside entity names: those inside two or more -> the nodes, those inside exactly
        one -> that node. Built on first use, both at once, so that threads sharing the table never see one
        without the other."""
        holders: dict[str, set[str]] = defaultdict(set)
        for key, name in self.names.items():
            for length in range(SHARED_MIN_CHARS, min(len(name), 9)):
                for i in range(len(name) - length + 1):
                    holders[name[i : i + length]].add(key)
        shared = {part: sorted(keys) for part, keys in holders.items() if len(keys) > 1}
        inner = {part: next(iter(keys)) for part, keys in holders.items() if len(keys) == 1}
        return shared, inner

    @cached_property
    def single_pairs(self) -> dict[str, str]:
        """Two characters inside one entity name alone -> that node (the last resort of linking, `_inner_pair`);
        built on first use."""
        holders: dict[str, set[str]] = defaultdict(set)
        for key, name in self.names.items():
            for i in range(len(name) - 1):
                holders[name[i : i + 2]].add(key)
        return {pair: next(iter(keys)) for pair, keys in holders.items() if len(keys) == 1}

    @property
    def shared(self) -> dict[str, list[str]]:
        """Words (3-8 characters) inside two or more entity names -> those nodes."""
        return self._inside_words[0]

    @property
    def inner(self) -> dict[str, str]:
        """Words (3-8 characters) inside exactly one entity name -> that node."""
        return self._inside_words[1]


_JOINERS = frozenset("-－—–·.・ ")  # characters inside a Latin/digit name (`F-35`): not a boundary when dropped


def _splits_alnum(q: MappedText, start: int, end: int) -> bool:
    """A Latin/digit name must not cut a longer Latin/digit token (`f35` inside `f35a`, `20` inside `2020`); a
    separator normalising dropped (`歼-20、F-22`) still ends a token."""
    nq = q.norm
    first, last = nq[start], nq[end - 1]

    def joined(a: int, b: int) -> bool:
        return (
            nq[a].isascii() and nq[a].isalnum() and nq[b].isascii() and nq[b].isalnum() and set(q.gap(b, b)) <= _JOINERS
        )

    if first.isascii() and first.isalnum() and start > 0 and joined(start - 1, start):
        return True
    return bool(last.isascii() and last.isalnum() and end < len(nq) and joined(end - 1, end))


def link_mentions(table: NameTable, q: MappedText, *, fuzzy: bool = True) -> list[Mention]:
    """Non-overlapping mentions of KG nodes in the question, in question order."""
    nq = q.norm
    found: list[Mention] = []
    n = len(nq)
    for i in range(n):
        for length in table.lengths:
            j = i + length
            if j > n:
                continue
            hits = table.exact.get(nq[i:j])
            if hits and not _splits_alnum(q, i, j):
                text = q.verbatim(i, j)
                found.extend(Mention(i, j, text, key, how, score) for key, how, score in hits)
    found.extend(_named_numbers(table, q))
    composed: list[Mention] = []
    if fuzzy:
        positions, name_hits = _bigram_hits(table, nq)
        found.extend(_partial(table, q))
        found.extend(_fuzzy(table, q, positions, name_hits))
        found.extend(_gapped(table, q))
        found.extend(_elided(table, q, found))
        # (a name linked some other way — spelled with a gap, `白沙号…首次试航` — is not linked again by its end)
        found.extend(m for m in _tails(table, q) if all(f.key != m.key for f in found))
        found.extend(m for m in _place_ends(table, q) if all(f.key != m.key for f in found))
        found.extend(_side_starts(table, q))
        found.extend(_topic_start(table, q))
        found.extend(_battle_short_forms(table, q))
        found.extend(_listed_with_head(table, q))
        codes = _listed_codes(table, q, found)
        if codes:
            # the list is read code by code: no weak link runs across it (`T-72的A、B、B3` is no fuzzy `T-72B3`)
            lo, hi = min(c.start for c in codes), max(c.end for c in codes)
            found = [m for m in found if m.how in ("exact", "core") or m.end <= lo or m.start >= hi] + codes
        composed = _composed(table, q, name_hits)
        # a weak link never runs across a clause break the normalised text dropped (`到M2A4，布雷德利步兵战车的`)
        found = [m for m in found if m.how in ("exact", "core") or not _crosses_clause(m.text)]
    if not found and not composed:
        # a quoted word names a thing; else a group, not rivals: every node sharing the word is kept (they overlap
        # by design); failing that, the longest words the question shares with the inside of one name each
        # (`海上阅兵`)
        fallback = (
            _topic_mentions(table, q, [])
            or _quoted_groups(table, q, [])
            or _shared(table, q)
            or _inner(table, q)
            or _inner_pair(table, q)
        )
        return sorted(fallback, key=lambda m: (m.start, m.key))
    chosen = _select(_not_inside_a_spelled_name(table, found, nq))
    chosen += _topic_mentions(table, q, chosen)
    # a name spelled in pieces: the pieces no other link took (`伊丽莎白女王号航母访问横须贺`: 横须贺 is a partial
    # link of 横须贺访问, 访问 a piece of it)
    chosen += _select([m for m in composed if not any(m.start < t.end and t.start < m.end for t in chosen)])
    return sorted(chosen + _quoted_groups(table, q, chosen), key=lambda m: (m.start, m.key))


TOPIC_SCORE = 0.6  # a kind named with a demonstrative is the document's own thing of that kind, less surely
# `这场海战`, `这次行动`, `这型坦克`, `该型`: a demonstrative, a measure word of events or kinds, then a noun
_TOPIC = re.compile(
    rf"(?:{TOPIC_DEMONSTRATIVE}一?[{TOPIC_MEASURE_WORDS}]?|[{TOPIC_MEASURED_DEMONSTRATIVES}][{TOPIC_MEASURE_WORDS}])"
    r"(?=[\u4e00-\u9fff]{2})"
)


def _topic_mentions(table: NameTable, q: MappedText, taken: list[Mention]) -> list[Mention]:
    """`在这场海战中沉没的…`: a kind named with a demonstrative (and no name) is the document's own thing of that
    kind — of the nodes whose names end in the noun, the one with the most triples. Not after `的` (`…的这艘舰`
    points back to what the question describes)."""
    nq = q.norm
    out: list[Mention] = []
    for m in _TOPIC.finditer(nq):
        if nq[: m.start()].endswith(POSSESSIVE) or any(m.start() < t.end and t.start < m.end() + 2 for t in taken):
            continue
        for n in range(4, 1, -1):
            noun = nq[m.end() : m.end() + n]
            if len(noun) < n or any(m.end() < t.end and t.start < m.end() + n for t in taken):
                continue
            keys = [k for k, name in table.names.items() if name.endswith(noun)]
            if keys:
                key = max(keys, key=lambda k: (table.degree.get(k, 0), k))
                out.append(
                    Mention(m.start(), m.end() + n, q.verbatim(m.start(), m.end() + n), key, "partial", TOPIC_SCORE)
                )
                break
    return out


def _named_numbers(table: NameTable, q: MappedText) -> list[Mention]:
    """A short number the question gives as the value of a relation the KG gives it with (`舷号为105`): the name of
    that relation, or two characters of it, end just before the number."""
    nq = q.norm
    out: list[Mention] = []
    for m in re.finditer(r"\d+", nq):
        relations = table.short_numbers.get(m.group())
        if not relations:
            continue
        before = nq[max(0, m.start() - SHORT_NUMBER_WINDOW) : m.start()]
        if any(longest_common_substring(r, before)[0] >= min(2, len(r)) for r in relations):
            out.append(Mention(m.start(), m.end(), q.verbatim(m.start(), m.end()), m.group(), "exact", 1.0))
    return out


def _quoted_groups(table: NameTable, q: MappedText, taken: list[Mention]) -> list[Mention]:
    """A word the question quotes (`被“飞鱼”导弹击中`) that no name links: quotes mark a name, and the KG holds it
    only inside longer names (`AM39飞鱼导弹`, `MM38飞鱼导弹`) — every one of them links, as a group (they overlap by
    design)."""
    nq = q.norm
    out: list[Mention] = []
    for a, b in quoted_spans(q):
        if b - a < MIN_NAME_CHARS or any(a < t.end and t.start < b for t in taken):
            continue
        # the quoted word with the noun that follows it (`“飞鱼”导弹`): the names must hold both, so a quoted label
        # (`哪一项“首次”训练`) does not link every name that contains the label
        tail = re.match(rf"[^{PHRASE_END_CHARS}]{{0,4}}", nq[b:])  # the question is normalised: no punctuation
        for end in range(b + (tail.end() if tail else 0), b, -1):
            phrase = nq[a:end]
            holders = sorted(k for k, name in table.names.items() if phrase in name and phrase != name)
            if holders:
                if len(holders) <= QUOTED_GROUP_MAX:
                    out.extend(Mention(a, end, q.verbatim(a, end), key, "group", 0.5) for key in holders)
                break
        else:
            # the quoted word alone begins exactly one name (`“花园”地面攻势` with `花园行动`): it names that thing
            starting = [k for k, name in table.names.items() if name.startswith(nq[a:b]) and name != nq[a:b]]
            if len(starting) == 1:
                out.append(Mention(a, b, q.verbatim(a, b), starting[0], "partial", QUOTED_START_SCORE))
    return out


def _shared(table: NameTable, q: MappedText) -> list[Mention]:
    """When no name links at all (`被空射型“飞鱼”导弹击中的舰船`): the longest words the question shares with the
    inside of several names link to each of those nodes, as a group to start from."""
    nq = q.norm
    out: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for part in sorted(table.shared, key=len, reverse=True):
        i = nq.find(part)
        if i < 0 or any(i < b and a < i + len(part) for a, b in taken):
            continue
        taken.append((i, i + len(part)))
        for key in table.shared[part]:
            out.append(Mention(i, i + len(part), q.verbatim(i, i + len(part)), key, "group", 0.5))
    return out


def _inner(table: NameTable, q: MappedText) -> list[Mention]:
    """When no name links at all, not even as a group (`2019年参加海上阅兵、且于2021年参加中俄联合巡航的舰艇`): the
    longest words the question shares with the inside of a single name link to that node, weakly."""
    nq = q.norm
    out: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for part in sorted(table.inner, key=len, reverse=True):
        i = nq.find(part)
        if i < 0 or any(i < b and a < i + len(part) for a, b in taken) or _splits_alnum(q, i, i + len(part)):
            continue
        taken.append((i, i + len(part)))
        out.append(Mention(i, i + len(part), q.verbatim(i, i + len(part)), table.inner[part], "group", 0.5))
    return out


def _inner_pair(table: NameTable, q: MappedText) -> list[Mention]:
    """Last of all (`我国第一次用飞机投下氢弹是在哪一天`): two Chinese characters the question shares with the inside of
    one name alone (`首次氢弹空投试验`) link to that node, weakly — the first such pair."""
    nq = q.norm
    for i in range(len(nq) - 1):
        key = table.single_pairs.get(pair := nq[i : i + 2])
        if key is not None and is_han(pair) and pair not in table.words and not _in_ordinal(nq, i, i + 2):
            return [Mention(i, i + 2, q.verbatim(i, i + 2), key, "group", INNER_PAIR_SCORE)]
    return []


INNER_PAIR_SCORE = 0.4


def _not_inside_a_spelled_name(table: NameTable, cands: list[Mention], nq: str) -> list[Mention]:
    """Without the partial links that begin inside a name the question spells in full and run on past it
    (`加贺号航空母舰` with a node `加贺号`: `号航空母舰` is no part of `约克城号航空母舰` the user wrote), and without
    the exact links that a partial link spelling the start of a longer name goes on from (`阿利·伯克号` with nodes
    `阿利·伯克` and `阿利·伯克号驱逐舰`: the user wrote on, into the ship's name)."""
    exact = [m for m in cands if m.how in ("exact", "core")]
    starts = [
        m
        for m in cands
        if m.how == "partial"
        and table.names[m.key].startswith(nq[m.start : m.end])
        and not _one_char_into_an_event(table, m, exact, nq)
    ]
    return [
        m
        for m in cands
        if not (m.how == "partial" and any(e.start < m.start < e.end < m.end for e in exact))
        and not (m.how in ("exact", "core") and any(_writes_on(m, p) for p in starts))
        and not _one_char_into_an_event(table, m, exact, nq)
        and not _little_of_it_round_a_name(table, m, exact, nq)
        and not _goes_on_with_another_name(table, m, exact, nq)
    ]


def _goes_on_with_another_name(table: NameTable, partial: Mention, exact: list[Mention], nq: str) -> bool:
    """A partial link spelling the start of a name whose rest is the name of another node the question does not
    spell (`法军收复` of `法军收复沃堡` when the question asks of 杜奥蒙堡): the name is about that other thing — not
    a kind the KG uses (`弗吉尼亚级` of `弗吉尼亚级攻击型核潜艇`)."""
    if partial.how != "partial":
        return False
    name, spelled = table.names[partial.key], nq[partial.start : partial.end]
    if not name.startswith(spelled):
        return False
    rest = name[len(spelled) :]
    if len(rest) < 2 or rest in nq or table.is_kind(rest):
        return False
    # (or the start of one, where the question goes on with another name: `日军攻占九江` with a node `九江之战`, the
    # question asking `日军攻占武汉三镇`)
    return rest in table.exact or (
        any(e.start == partial.end for e in exact) and any(n.startswith(rest) for n in table.exact)
    )


def _little_of_it_round_a_name(table: NameTable, partial: Mention, exact: list[Mention], nq: str) -> bool:
    """A partial link spelling less than half of its node's name round a name the question spells in full
    (`俄国黑海舰队` with the node `黑海舰队` and the result `俄国黑海舰队全歼奥斯曼分舰队`): the whole name is meant
    — unless the node is an event, named by what happened there (`阿布哈兹上空` of `阿布哈兹上空无人机击落事件`)."""
    if partial.how != "partial" or (partial.end - partial.start) * 2 >= len(table.names[partial.key]):
        return False
    if partial.key in table.events:
        return False
    # (not one that goes on from the full name by a class marker: `台风级` of `台风级战略核潜艇` names the class)
    return any(
        partial.start <= e.start
        and e.end <= partial.end
        and e.key != partial.key
        and not (e.start == partial.start and partial.end == e.end + 1 and nq[e.end] in KIND_MEASURE_WORDS)
        for e in exact
    )


def _one_char_into_an_event(table: NameTable, partial: Mention, exact: list[Mention], nq: str) -> bool:
    """A partial link to an event named after a thing, one character past the thing's exact name, the question's
    words after it spelling nothing more of the event's name (`F-22机上装的` with `F-22` and the event `F-22机队停飞`):
    one character (a noun head, `机`) is too little to say the event is meant; more of its name in order is not
    (`歼-20首飞时` -> `歼-20首次试飞`, `谢菲尔德号遇袭时` -> `谢菲尔德号遇袭事件`)."""
    if partial.how != "partial" or partial.key not in table.events:
        return False
    if not any(e.start == partial.start and e.end == partial.end - 1 for e in exact):
        return False
    rest = table.names[partial.key][partial.end - partial.start - 1 :]  # the event's name from the one character on
    after = nq[partial.end - 1 : partial.end + len(rest) + 1]
    return abbreviation_in(rest, after)[0] < 2


_CLAUSE_BREAKS = "，,。；;？?！!"


def _crosses_clause(text: str) -> bool:
    return any(c in text for c in _CLAUSE_BREAKS)


def _writes_on(exact: Mention, partial: Mention) -> bool:
    """Whether `partial` starts where `exact` does and goes on without a particle (`阿利·伯克|号`, not
    `太平洋战争|的`: a particle after a name ends it)."""
    if partial.start != exact.start or partial.end <= exact.end:
        return False
    return not any(ch in NAME_PARTICLES for ch in partial.text[len(exact.text) :])


def _select(cands: list[Mention]) -> list[Mention]:
    """Greedy by weight (longest, surest first), then by shorter node name (more of it spelled); no overlaps."""
    taken: list[Mention] = []
    for m in sorted(cands, key=lambda m: (-m.weight, -m.score, len(m.key), m.start, m.key)):
        if any(m.start < t.end and t.start < m.end for t in taken):
            continue
        taken.append(m)
    return taken


LISTED_HEAD_SCORE = 0.9
# between the last listed stem and the head: a demonstrative, a number, a measure word (`这两个`, `两艘`, `三座`)
_BEFORE_HEAD = re.compile(rf"(?:这|那)?(?:[{COUNT_NUMERALS}]|\d+)?[{MEASURE_WORDS}]?")


def _listed_with_head(table: NameTable, q: MappedText) -> list[Mention]:
    """Stems of names that share a head word, listed with the head said once after them (`犹他和奥马哈这两个海滩`
    -> `犹他海滩`, `奥马哈海滩`): each stem links its name, the last one through the head."""
    nq = q.norm
    out: list[Mention] = []
    for head, stems in table.shared_heads.items():
        for h in occurrences(nq, head):
            head_end = h + len(head)
            listed: list[tuple[int, int, str]] = []
            ends = (e for e in range(max(0, h - 4), h + 1) if _BEFORE_HEAD.fullmatch(nq[e:h]))
            end, stem = next(((e, s) for e in ends if (s := _stem_ending(nq, e, stems))), (-1, ""))
            while stem:
                listed.append((end - len(stem), end, stems[stem]))
                start = end - len(stem)
                joiner = next((c for c in COORDINATORS if nq[:start].endswith(c)), "")
                if joiner:
                    end = start - len(joiner)
                elif "、" in q.gap(start, start):
                    end = start
                else:
                    break
                stem = _stem_ending(nq, end, stems) if end > 0 else ""
            if len({key for _, _, key in listed}) < 2:
                continue
            for i, (a, b, key) in enumerate(listed):
                b = head_end if i == 0 else b  # the last stem of the list (found first) takes the head with it
                out.append(Mention(a, b, q.verbatim(a, b), key, "partial", LISTED_HEAD_SCORE))
    return out


def _stem_ending(nq: str, end: int, stems: dict[str, str]) -> str:
    """The longest of `stems` that the question spells ending at `end` ("" when none)."""
    return next((nq[a:end] for a in range(max(0, end - 8), end - 1) if nq[a:end] in stems), "")


def _things(index: KGIndex, keys: Iterable[str]) -> int:
    """How many different things the nodes are: the aliases of one thing are one."""
    return len({min(index.alias_group(k)) for k in keys})


def _adjacent(index: KGIndex, key: str, others: set[str]) -> bool:
    return any(e.dst in others for e in index.edges(key))


_ORDINAL = re.compile(ORDINAL_WORD)


def _in_ordinal(nq: str, i: int, j: int) -> bool:
    """`nq[i:j]` lies in an ordinal word starting at i (`第一` of `第一次把坦克…`): a number, no name's start."""
    m = _ORDINAL.match(nq, i)
    return m is not None and j <= m.end()


def _partial(table: NameTable, q: MappedText) -> list[Mention]:
    nq = q.norm
    out: list[Mention] = []
    n = len(nq)
    for i in range(n):
        for length in sorted(table.part_lengths, reverse=True):
            j = i + length
            if j > n:
                continue
            keys = table.parts.get(nq[i:j])
            if not keys or _splits_alnum(q, i, j) or _cuts_word(table, nq, j) or _in_ordinal(nq, i, j):
                continue
            for key in keys:
                if _other_number(table.names[key], nq[i:j], nq[j : j + 1]):
                    continue
                share = length / len(table.names[key])
                out.append(Mention(i, j, q.verbatim(i, j), key, "partial", round(0.6 + 0.3 * share, 3)))
            break  # the longest part starting here
    return out


def _tails(table: NameTable, q: MappedText) -> list[Mention]:
    """`和早期型号比起来，C-130J的…`: the end of a name (`C-130早期型号`) whose start the question spells elsewhere
    names that node — the start is said once for both."""
    nq = q.norm
    # the ends the question spells, looked up from its own spans (the table holds thousands), in the table's order
    spelled = {nq[i : i + n] for n in table.tail_lengths for i in range(len(nq) - n + 1)}
    out: list[Mention] = []
    for tail in sorted((t for t in spelled if t in table.tails), key=table.tail_rank.__getitem__):
        key, start = table.tails[tail]
        i = nq.find(tail)
        if _splits_alnum(q, i, i + len(tail)) or start not in nq[:i] + "|" + nq[i + len(tail) :]:
            continue
        share = len(tail) / len(table.names[key])
        out.append(Mention(i, i + len(tail), q.verbatim(i, i + len(tail)), key, "partial", round(0.6 + 0.3 * share, 3)))
    return out


# `T-72的A、B、B3`: short codes listed after a name (`的` between), each the name's end
_LISTED_CODES = re.compile(r"的?((?:[A-Za-z0-9.]{1,5}(?:[、，,和及与]|以及))+[A-Za-z0-9.]{1,5})(?![A-Za-z0-9.])")
_CODE_JOINERS = re.compile(r"[、，,和及与]|以及")
LISTED_CODE_SCORE = 0.9


def _listed_codes(table: NameTable, q: MappedText, found: list[Mention]) -> list[Mention]:
    """`在T-72的A、B、B3这几种改进型里`: codes listed after a name (`T-72`) name the nodes that name and the code
    spell (`T-72A`, `T-72B`, `T-72B3`) — when every one of them does."""
    out: list[Mention] = []
    for m in found:
        if m.how not in ("exact", "core"):
            continue
        _, end = q.span(m.start, m.end)
        listed = _LISTED_CODES.match(q.original, end)
        if listed is None:
            continue
        base = table.names.get(m.key, m.key)
        at = listed.start(1)
        linked: list[Mention] = []
        for code in _CODE_JOINERS.split(listed.group(1)):
            cs = q.original.find(code, at)
            at = cs + len(code)
            hits = table.exact.get(normalize_text(base + code))
            if not code or cs < 0 or not hits:
                break
            i, j = q.norm_index(cs), q.norm_index(cs + len(code))
            linked.append(Mention(i, j, code, hits[0][0], "elided", LISTED_CODE_SCORE))
        else:
            out.extend(linked)
    return out


def _place_ends(table: NameTable, q: MappedText) -> list[Mention]:
    """`在滕县殉国的那位师长`: a place the KG names with the region before it (`山东滕县`), spelled without it."""
    nq = q.norm
    out: list[Mention] = []
    for end, key in table.place_ends.items():
        i = nq.find(end)
        if i >= 0 and not _splits_alnum(q, i, i + len(end)):
            out.append(Mention(i, i + len(end), q.verbatim(i, i + len(end)), key, "partial", PLACE_END_SCORE))
    return out


def _other_number(name: str, part: str, following: str) -> bool:
    """`日军第3、第11师团` is no part of `日军第10军`: where the name goes on with a number, the question goes on with
    another number."""
    at = name.find(part)
    after = name[at + len(part) : at + len(part) + 1] if at >= 0 else ""
    return after.isdigit() and following.isdigit()


def is_side(index: KGIndex, key: str) -> bool:
    """Things belong to the node by a side relation (`X 隶属于 key`, `X 所属阵营 key`)."""
    return any(not e.forward and any(h in e.relation for h in CAMP_RELATION_HINTS) for e in index.edges(key))


TOPIC_START_CHARS = 2


def _topic_start(table: NameTable, q: MappedText) -> list[Mention]:
    """`战斧家族的各个型号`: the first two characters of the document's subject name it when the rest of its name is a
    word of the KG (`战斧|巡航导弹`, `台风|战斗机`: the kind), though they begin other names too (`战斧Block V`) — too
    short for a partial link of any name, but the subject is what a short name means. Its first place only: the
    subject is named once, a repeat belongs to the words around it."""
    topic = table.topic
    name = table.names.get(topic, "")
    head, rest = name[:TOPIC_START_CHARS], name[TOPIC_START_CHARS:]
    if not rest or rest not in table.words or not is_han(head):
        return []
    nq = q.norm
    start = nq.find(head)
    end = start + TOPIC_START_CHARS
    if start < 0 or _cuts_word(table, nq, end) or nq.startswith(name[:PARTIAL_MIN_CHARS], start):
        return []
    share = TOPIC_START_CHARS / len(name)
    return [Mention(start, end, q.verbatim(start, end), topic, "partial", round(0.6 + 0.3 * share, 3))]


def _side_starts(table: NameTable, q: MappedText) -> list[Mention]:
    """A side named by the start of its name alone (`荷兰军舰` -> `荷兰皇家海军`); see `NameTable.side_starts`."""
    nq = q.norm
    out: list[Mention] = []
    for i in range(len(nq) - SIDE_START_CHARS + 1):
        key = table.side_starts.get(nq[i : i + SIDE_START_CHARS])
        if (
            key is not None
            and not _splits_alnum(q, i, i + SIDE_START_CHARS)
            and not _in_ordinal(nq, i, i + SIDE_START_CHARS)
            and not _cuts_word(table, nq, i + SIDE_START_CHARS)
        ):
            end = i + SIDE_START_CHARS
            out.append(Mention(i, end, q.verbatim(i, end), key, "partial", SIDE_START_SCORE))
    return out


BATTLE_SHORT_SCORE = 0.9


def _battle_short_forms(table: NameTable, q: MappedText) -> list[Mention]:
    """`孟良崮一役`, `塔拉瓦一战`: a place said with a word for a battle names the event of the KG whose name starts
    with it and goes on with that word's head (`孟良崮战役`, not `孟良崮总攻`; the one with most triples if several),
    not the place."""
    nq = q.norm
    out: list[Mention] = []
    for suffix in BATTLE_SHORT_SUFFIXES:
        for at in occurrences(nq, suffix):
            for i in range(max(0, at - 8), at - 1):
                place = nq[i:at]
                events = [k for k in table.events if k.startswith(place) and suffix[-1] in k[len(place) :]]
                if events and not _splits_alnum(q, i, at):
                    end = at + len(suffix)
                    key = max(sorted(events), key=table.degree.__getitem__)
                    out.append(Mention(i, end, q.verbatim(i, end), key, "partial", BATTLE_SHORT_SCORE))
                    break  # the longest place before the word
    return out


def _cuts_word(table: NameTable, nq: str, end: int) -> bool:
    """A part ending at `end` whose last characters begin a word of the KG's own that goes on past it (`中国舰|艇`:
    `舰艇`): the question says that word, not the longer name the part starts."""
    last = min(len(nq), end + 3)
    return any(nq[k:e] in table.words for k in range(max(0, end - 2), end) for e in range(end + 1, last + 1))


def _bigram_hits(table: NameTable, nq: str) -> tuple[dict[str, int], dict[str, int]]:
    """The first position of each of the question's character bigrams, and for each name how many of its bigrams
    the question has (fuzzy and composed links both start from them)."""
    positions: dict[str, int] = {}
    for i, bg in enumerate(_bigrams(nq)):
        positions.setdefault(bg, i)
    counts: dict[str, int] = defaultdict(int)
    for bg in positions:
        for key in table.bigrams.get(bg, ()):
            counts[key] += 1
    return positions, counts


def _fuzzy(table: NameTable, q: MappedText, positions: dict[str, int], counts: dict[str, int]) -> list[Mention]:
    nq = q.norm
    out: list[Mention] = []
    for key, hits in counts.items():
        name = table.names[key]
        bgs = _bigrams(name)
        if hits < 3 or hits / len(bgs) < FUZZY_MIN_COVERAGE or (hits == len(bgs) and name in nq):
            continue
        pos = [positions[b] for b in bgs if b in positions]
        if pos != sorted(pos):  # the question must spell the name's parts in the name's order
            continue
        start, end = min(pos), max(pos) + 2
        if end - start > 1.5 * len(name) + 1:
            continue
        if _spans_interrogative(nq[start:end], name):
            continue  # the name's parts lie around the question's own question word: a composed link's case
        out.append(Mention(start, end, q.verbatim(start, end), key, "fuzzy", round(0.9 * hits / len(bgs), 3)))
    return out


def _composed(table: NameTable, q: MappedText, hits: dict[str, int]) -> list[Mention]:
    """A descriptive name the question spells in pieces, in any order, a piece possibly in a synonym:
    `格拉摩根号是在哪一天遇袭的` (`格拉摩根号遇袭事件`, its kind 事件 left out), `海马斯首批是什么时候运抵乌克兰的`
    (`首批海马斯运抵乌克兰`), `乌军第一次动用陆军战术导弹` (`乌军首次使用陆军战术导弹`).

    Each piece of two characters or more that the question holds links the node; with the synonyms and single
    characters between pieces they must spell all of the name. `link_mentions` takes them only where no other link
    took the words. Like a group's word, a piece stays in the words matched against relations
    (`歼-20原型机是在哪一天首次试飞的`: 首次试飞 is the event's name and `首飞时间` of 歼-20 alike); a chain from
    the node counts the pieces as covered (`scoring.ChainScorer`)."""
    nq = q.norm
    out: list[Mention] = []
    for key, n in hits.items():
        bare = table.bare.get(key, "")
        # every character spelled in pieces of 2+ leaves at most one bigram in two missing (a piece boundary, a
        # synonym): fewer hits cannot make it
        if n < max(2, (len(bare) - 1) // 2) or len(table.names[key]) < COMPOSED_MIN_CHARS:
            continue
        if len(bare) < 2 * MIN_NAME_CHARS or bare in nq:
            continue
        pieces, covered = _pieces(bare, nq, lambda a, b: not _splits_alnum(q, a, b))
        if (
            len(pieces) < 2
            or covered / len(bare) < COMPOSED_MIN_COVERAGE
            or not any(_HAN_WORD.search(nq[a:b]) for a, b in pieces)
        ):
            continue
        score = round(COMPOSED_SCORE * covered / len(bare), 3)
        out.extend(Mention(a, b, q.verbatim(a, b), key, "composed", score) for a, b in pieces)
    return out


def _pieces(
    name: str, nq: str, whole: Callable[[int, int], bool] = lambda a, b: True
) -> tuple[list[tuple[int, int]], int]:
    """The question's spans spelling `name` piece by piece (longest first, left to right; two characters or more),
    and how many of the name's characters they and the synonyms of its other words spell. A span `whole` refuses
    (one that cuts a number: `第7` of `第74师`) spells nothing."""
    spans: list[tuple[int, int]] = []
    covered = [False] * len(name)
    i = 0
    while i < len(name) - 1:
        j = len(name)
        while j - i >= 2 and (at := _whole_at(name[i:j], nq, whole)) < 0:
            j -= 1
        if j - i < 2:
            i += 1
            continue
        spans.append((at, at + j - i))
        covered[i:j] = [True] * (j - i)
        i = j
    for group in RELATION_SYNONYMS:  # a word of the name the question says in a synonym (`首次` ~ `第一次`)
        for word in group:
            at = name.find(word)
            if len(word) < 2 or at < 0 or all(covered[at : at + len(word)]):
                continue
            # a one-character synonym only as the word's own short form (`用` for `使用`)
            said = next((o for o in group if o != word and o in nq and (len(o) >= 2 or o in word)), None)
            if said is not None:
                covered[at : at + len(word)] = [True] * len(word)
                k = nq.find(said)
                spans.append((k, k + len(said)))
    # a single character between pieces (`被` of `…将军号是被什么武器击沉的`), or a particle the question dropped
    for i, ch in enumerate(name):
        alone = (i == 0 or covered[i - 1]) and (i + 1 == len(name) or covered[i + 1])
        if not covered[i] and alone and (ch in nq or ch in NAME_PARTICLES):
            covered[i] = True
    return sorted(set(spans)), sum(covered)


def _whole_at(piece: str, nq: str, whole: Callable[[int, int], bool]) -> int:
    """Where the question spells `piece` as a whole (the first such place), -1 when nowhere."""
    at = nq.find(piece)
    while at >= 0 and not whole(at, at + len(piece)):
        at = nq.find(piece, at + 1)
    return at


def _gapped(table: NameTable, q: MappedText) -> list[Mention]:
    """Names the question spells with a few characters inserted (`侧面弹舱` -> `侧弹舱`); see the module doc."""
    nq = q.norm
    out: list[Mention] = []
    for i, ch in enumerate(nq):
        for key in table.by_first.get(ch, ()):
            name = table.names[key]
            end = _spell_with_gaps(nq, i, name)
            if end and not _splits_alnum(q, i, end) and not _spans_interrogative(nq[i:end], name):
                out.append(Mention(i, end, q.verbatim(i, end), key, "gapped", GAPPED_SCORE))
    return out


def _elided(table: NameTable, q: MappedText, found: list[Mention]) -> list[Mention]:
    """Names the question spells as their start and their end, the middle left out (`波兰伞兵旅`); see the module
    doc. Not a node that a link `found` at the same place already is, or has as another name (`勒克莱尔坦克` is
    `勒克莱尔` and its kind, and `勒克莱尔` is `勒克莱尔主战坦克`'s short name) — unless that link is a partial one,
    spelling less, and the elided name's end is a word of its own. Not a span several names elide to."""
    nq = q.norm
    out: list[Mention] = []
    # (a partial link there that spells less of the name, `C-130` of `C-130运输机`, is no reason when the end
    # spelled is long enough: `ELIDED_OVER_PARTIAL_END_CHARS`)
    named: dict[tuple[int, str], int] = {}
    for m in found:
        reach = m.end if m.how == "partial" else len(nq) + 1
        for k in table.alias_group(m.key):
            named[(m.start, k)] = max(named.get((m.start, k), 0), reach)
    for i, ch in enumerate(nq):
        for key in table.by_first.get(ch, ()):
            name = table.names[key]
            if len(name) < ELIDED_MIN_CHARS:
                continue
            head = 0
            while head < len(name) - ELIDED_END_CHARS - 1 and i + head < len(nq) and nq[i + head] == name[head]:
                head += 1
            for start in range(head, ELIDED_END_CHARS - 1, -1):
                at = i + start
                tail = next(
                    (k for k in range(len(name) - start - 1, ELIDED_END_CHARS - 1, -1) if nq.startswith(name[-k:], at)),
                    0,
                )
                end = at + tail
                if tail and (start + tail) >= ELIDED_MIN_SHARE * len(name) and not _splits_alnum(q, i, end):
                    reach = named.get((i, key), -1)
                    longer = reach < end and tail >= ELIDED_OVER_PARTIAL_END_CHARS
                    if not _spans_interrogative(nq[i:end], name) and (reach < 0 or longer):
                        out.append(Mention(i, end, q.verbatim(i, end), key, "elided", ELIDED_SCORE))
                    break
    # a span that elides several names (`罗马尼亚集团军`: the 3rd and the 4th) names none of them
    spans = Counter((m.start, m.end) for m in out)
    return [m for m in out if spans[(m.start, m.end)] == 1]


def _spans_interrogative(span: str, name: str) -> bool:
    """The span a weak link covers holds a question word the name itself does not: the question's own words lie
    between the name's parts, and they are not part of the name."""
    return any(w in span and w not in name for w in INTERROGATIVES)


def _spell_with_gaps(text: str, start: int, name: str) -> int:
    """The end of the shortest span from `start` that holds `name`'s characters in order with 1..GAPPED_MAX_INSERTED
    others between them and ends on its last character; 0 when there is none (or no character is inserted: that
    is an exact link)."""
    limit = min(len(text), start + len(name) + GAPPED_MAX_INSERTED)
    j = start + 1
    for ch in name[1:]:
        k = text.find(ch, j, limit)
        if k < 0:
            return 0
        j = k + 1
    inserted = j - start - len(name)
    return j if 0 < inserted <= GAPPED_MAX_INSERTED else 0
