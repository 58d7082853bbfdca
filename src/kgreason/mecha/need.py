"""How many triples a question needs, read from its wording and from where the ranker's relevance drops.

A relevance ranker orders a question's candidate triples; one triple answers most questions, but not
"A的激活源和供料方式分别是什么" (two properties), "X的特性有哪些" (a set of values), "A与B的工艺类型是否相同" (one
property of two entities) or "哪种铸造方法制造的X的布氏硬度最低" (one property under each condition). `read_need`
reads these cases from the question (the words are data in `mecha.cues`); `select_needed` grows the anchor triple
(the ranker's best, or the LLM's choice) into the set the question needs:

- per asked property: when the question asks several things, the best triples of the anchor's entity down to the
  largest drop in relevance (not a fixed k), plus every other value of a chosen relation (a set answer);
- per condition: a superlative over one entity takes the chosen property under each of its conditions
  (`布氏硬度(铸造方法: S)`, `布氏硬度(铸造方法: J)`, ...);
- per question entity: each other named entity's triple of the same relation (`answering.expand_comparison`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgreason.data.records import PathTriple
from kgreason.mecha.answering import expand_comparison
from kgreason.mecha.cues import (
    ASK_WORDS,
    CONJUNCTIONS,
    DIRECTION_WORDS,
    QUALIFIER_OPENERS,
    SAME_QUESTION_WORDS,
    SEVERAL_WORDS,
    WHICH_WORDS,
    YES_NO_WORDS,
)
from kgreason.text.normalize import normalize_text

# At most this many properties of one entity are taken by the relevance cut (the set of one relation's values is
# not bounded: a list answer may have eight).
MAX_PROPERTIES = 6
_PLACEHOLDER = "\x00"
_DIRECTION_FIRST = sorted(DIRECTION_WORDS, key=len, reverse=True)  # longest first: `最近距离` before `最近`
_ASK_ONE = tuple(w for w in ASK_WORDS if w != "哪些")  # `哪些` asks for a set, not for a second thing
_TOKENS = re.compile(r"[a-z0-9.]+")


@dataclass(frozen=True, slots=True)
class Need:
    """What a question's wording says about the triples it needs."""

    entities: int  # question entities it names
    properties: int  # 1, or 2 when it asks for several properties (conjunction, two question words, 分别)
    set_values: bool  # it asks for a set (哪些, 包括, 分别): every value of a chosen relation
    direction: str | None  # "max" / "min" when it asks for the larger / largest
    direction_word: str | None  # the word that says so (`更高`, `最低`)
    same: bool  # it asks whether values agree (是否相同, 差异, 共同)
    which: bool  # it asks which of several (哪种, 哪个)
    yes_no: bool  # it asks a yes/no question (是否)

    @property
    def compares(self) -> bool:
        """It compares values: of several entities, or of one entity under several conditions."""
        return self.direction is not None or self.same

    @property
    def over_conditions(self) -> bool:
        """One entity, one property, compared over its conditions (`哪种铸造方法…最高`, `所有铸造方法下…是否有差异`)."""
        return self.entities <= 1 and self.compares and (self.which or self.same)

    @property
    def several(self) -> bool:
        return self.properties > 1 or self.set_values


def read_need(question: str, entities: Sequence[str]) -> Need:
    """The need of `question` whose named entities are `entities` (the dataset's `实体`)."""
    text = normalize_text(question)
    names = sorted({normalize_text(e) for e in entities if normalize_text(e)}, key=len, reverse=True)
    rest = text
    for name in names:
        rest = rest.replace(name, _PLACEHOLDER)
    named = sum(1 for name in names if name in text)
    asks = sum(rest.count(w) for w in _ASK_ONE)
    joined = _joins_two_properties(rest)
    several_words = any(w in rest for w in SEVERAL_WORDS)
    word = next((w for w in _DIRECTION_FIRST if w in rest), None)
    return Need(
        entities=max(named, 1),
        properties=2 if (joined or asks >= 2 or "分别" in rest) else 1,
        set_values=several_words,
        direction=DIRECTION_WORDS[word] if word else None,
        direction_word=word,
        same=any(w in rest for w in SAME_QUESTION_WORDS),
        which=any(w in rest for w in WHICH_WORDS),
        yes_no=any(w in rest for w in YES_NO_WORDS),
    )


def _joins_two_properties(rest: str) -> bool:
    """A conjunction with words on both sides, neither a question entity (`强度和屈服强度`, not `A和B`)."""
    for word in CONJUNCTIONS:
        start = rest.find(word)
        while start != -1:
            before, after = rest[start - 1 : start], rest[start + len(word) : start + len(word) + 1]
            if before and after and _PLACEHOLDER not in (before, after) and before.isalnum() and after.isalnum():
                return True
            start = rest.find(word, start + 1)
    return False


def relevance_scale(scores: Sequence[float]) -> list[float]:
    """Scores rescaled to 0..1 within the question (min-max), so that a drop means the same for every ranker.
    Probabilities (the trained ranker's softmax) are already on that scale and are passed as they are."""
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if hi - lo <= 1e-12:
        return [1.0] * len(scores)
    return [(s - lo) / (hi - lo) for s in scores]


def largest_drop(values: Sequence[float], *, least: int = 1, most: int = MAX_PROPERTIES) -> int:
    """How many of `values` (sorted best first) to keep: the cut where relevance drops most, between `least` and
    `most` kept (ties: fewer). Past the last value relevance is 0."""
    n = len(values)
    if n == 0:
        return 0
    hi = min(most, n)
    lo = min(max(1, least), hi)
    padded = [*values, 0.0]
    return max(range(lo, hi + 1), key=lambda k: (padded[k - 1] - padded[k], -k))


def _longest_common(a: str, b: str) -> str:
    """The longest substring of `a` that also occurs in `b` (first one on ties)."""
    best = ""
    for i in range(len(a)):
        for j in range(i + len(best) + 1, len(a) + 1):
            if a[i:j] in b:
                best = a[i:j]
            else:
                break
    return best


def asked_stem(relation: str, question: str) -> str:
    """The part of a relation the question names (`化学成分Mn含量` in `化学成分包括哪些` -> `化学成分`); relations
    containing it are values of the same asked property. Empty when shorter than two characters."""
    stem = _longest_common(normalize_text(relation), normalize_text(question))
    return stem if len(stem) >= 2 else ""


def _condition_tokens(relation: str) -> set[str]:
    """The letters and numbers of a relation's condition: `理论质量(密度为7.85, 直径45.0 mm)` -> {7.85, 45.0, mm}."""
    cut = len(relation) - len(relation.lstrip()) + len(property_base(relation))
    return set(_TOKENS.findall(normalize_text(relation)[cut:]))


def property_base(relation: str) -> str:
    """The property a relation names without its condition: `布氏硬度(铸造方法: S)` -> `布氏硬度`."""
    cut = min((i for i in (relation.find(o) for o in QUALIFIER_OPENERS) if i > 0), default=len(relation))
    return normalize_text(relation[:cut])


def _conditions(anchor: int, mine: Sequence[int], triples: Sequence[PathTriple], question: str) -> list[int]:
    """The anchor's property under each of its entity's conditions; only the conditions the question names when it
    names two or more (`直径为45.0 mm时…与直径为53.0 mm时…`)."""
    base = property_base(triples[anchor][1])
    family = [i for i in mine if property_base(triples[i][1]) == base]
    tokens = {i: _condition_tokens(triples[i][1]) for i in family}
    shared = set.intersection(*tokens.values()) if tokens else set()
    words = set(_TOKENS.findall(normalize_text(question)))
    named = [i for i in family if (tokens[i] - shared) and (tokens[i] - shared) <= words]
    return named if len(named) >= 2 else family


def select_needed(
    need: Need,
    question: str,
    triples: Sequence[PathTriple],
    entities: Sequence[str],
    relevance: Sequence[float],
    anchor: int,
) -> list[int]:
    """The candidates (indices, anchor first) the question needs, grown from `anchor`. `relevance` is on a 0..1
    scale (probabilities, or `relevance_scale` of raw scores)."""
    ents = {normalize_text(e) for e in entities}
    s0, r0, o0 = triples[anchor]
    head_side = normalize_text(s0) in ents or normalize_text(o0) not in ents
    owner = normalize_text(s0 if head_side else o0)

    def own(i: int) -> bool:
        s, _, o = triples[i]
        return normalize_text(s if head_side else o) == owner

    mine = sorted((i for i in range(len(triples)) if own(i)), key=lambda i: (-relevance[i], i))
    picked = [anchor]

    def add(i: int) -> None:
        if i not in picked:
            picked.append(i)

    if need.several and not need.over_conditions:
        rest = [i for i in mine if i != anchor]
        keep = largest_drop([relevance[anchor], *(relevance[i] for i in rest)], least=need.properties)
        for i in rest[: keep - 1]:
            add(i)
    if need.set_values:  # every value of a chosen relation, and of relations naming the same asked stem
        relations = {normalize_text(triples[i][1]) for i in picked}
        stem = asked_stem(r0, question)
        for i in mine:
            relation = normalize_text(triples[i][1])
            if relation in relations or (stem and stem in relation):
                add(i)
    if need.over_conditions:
        for i in _conditions(anchor, mine, triples, question):
            add(i)
    if need.entities > 1:
        for i in list(picked):
            for j in expand_comparison([i], triples, entities, relevance):
                add(j)
    return picked
