"""What kind of thing a node is, as the KG says it: its types and the kinds it states as values (`X 类型 驱逐舰`).

One home for these tests, used by question analysis (a kind word after a name) and chain scoring (the asked kind)."""

from __future__ import annotations

from functools import lru_cache

from kgreason.kg.index import Edge, KGIndex
from kgreason.reason.lexicon import (
    CAMP_TYPE_HINTS,
    COARSE_KIND_NOUNS,
    COUNTRY_TYPE_WORDS,
    GENERIC_TIME_RELATIONS,
    ORGANISATION_TYPE_HINTS,
    PLACE_TYPE_WORDS,
    SIDE_NAME_SUFFIXES,
    SIDE_WORD,
    THING_TYPE_HINTS,
    TYPE_RELATION_HINTS,
    names_event_type,
    names_person_type,
)
from kgreason.text.normalize import is_han, normalize_text

KIND_WORD_MIN_CHARS = 2  # one character after a name (`号`, `级`) is part of a longer word more often than a kind
KIND_WORD_MAX_CHARS = 8


def category_edges(index: KGIndex, key: str) -> list[Edge]:
    """The triples that state a node's kind as a value (`海红旗-9B 类型 远程防空导弹`): a kind is as often a value as a
    node type."""
    return [e for e in index.edges(key) if e.forward and any(h in e.relation for h in TYPE_RELATION_HINTS)]


@lru_cache(maxsize=65536)
def category_values(index: KGIndex, key: str) -> str:
    """The kinds the KG states of a node as values, joined (for substring tests); cached: a KG does not change."""
    return "".join(index.name(e.dst) for e in category_edges(index, key))


def is_category(index: KGIndex, key: str) -> bool:
    """The KG types the node as a kind, or states it as one (`X 类型 驱逐舰`)."""
    if any(h in index.types_text(key) for h in TYPE_RELATION_HINTS):
        return True
    return any(not e.forward and any(h in e.relation for h in TYPE_RELATION_HINTS) for e in index.edges(key))


@lru_cache(maxsize=64)
def category_heads(index: KGIndex) -> frozenset[str]:
    """The last characters of the names of the kinds the KG states (`巡洋舰` -> `舰`); cached per KG."""
    return frozenset(index.name(k)[-1:] for k in index.nodes if is_category(index, k))


def is_country(index: KGIndex, key: str) -> bool:
    """The KG types the node as a country (`国家`)."""
    return any(w in index.types_text(key) for w in COUNTRY_TYPE_WORDS)


@lru_cache(maxsize=64)
def country_initials(index: KGIndex) -> frozenset[str]:
    """The first characters of the nodes the KG types as countries (`日本` -> `日`); cached per KG."""
    return frozenset(index.name(k)[:1] for k in index.nodes if is_country(index, k))


@lru_cache(maxsize=64)
def side_relation_initials(index: KGIndex) -> frozenset[str]:
    """The sides the KG's relations are named for, by their first character (`日方参战兵力` -> 日); cached per KG."""
    return frozenset(side for r in index.relation_names if (side := relation_side(r)))


def relation_side(relation: str) -> str:
    """The side a (normalised) relation name is named for, by its first character (`日方参战兵力` -> 日), "" when
    none."""
    return relation[0] if len(relation) > 2 and relation[1] == SIDE_WORD and is_han(relation[0]) else ""


def names_side(words: str, side: str) -> bool:
    """The words name the side by its character and a side suffix (`日军`, `美方`)."""
    return any(side + w in words for w in SIDE_NAME_SUFFIXES)


def kind_word_after(index: KGIndex, key: str, text: str) -> int:
    """The length of the kind word that starts `text` (normalised, right after a name of node `key`) when the KG
    says the node is of that kind: a word ending one of the kinds it states as values or one of its other names
    (`F-35战斗机` with `F-35 类型 第五代隐身多用途战斗机`, `谢菲尔德号驱逐舰` with `舰种 42型驱逐舰`); 0
    when there is none. Users add such a word to a name; it describes the node and asks nothing."""
    # (not its KG types: they are broad words, `装备`, `事件`, that questions use as verbs and nouns of their own)
    kinds = [normalize_text(index.name(e.dst)) for e in category_edges(index, key)]
    kinds += [k for k in index.alias_group(key) if k != key]
    head = text[:KIND_WORD_MAX_CHARS]
    for n in range(len(head), KIND_WORD_MIN_CHARS - 1, -1):
        if any(k.endswith(head[:n]) for k in kinds):
            return n
    return 0


# Coarse kinds of what a node is, from its KG types and values: an answer of one of them is never an answer of
# another (a city is no ship, a date no person), whatever words the two share.
MacroKind = str  # one of "date", "quantity", "person", "event", "place", "organisation", "thing"


@lru_cache(maxsize=65536)
def macro_kind(index: KGIndex, key: str) -> MacroKind | None:
    """The node's coarse kind, or None when its types say none surely."""
    if key not in index.nodes:
        return None
    if index.date(key) is not None:
        return "date"
    if index.quantity(key) is not None:
        return "quantity"
    types = index.types_text(key)
    if names_person_type(types):
        return "person"
    if names_event_type(types):
        return "event"
    if index.is_place(key) or any(h in types for h in PLACE_TYPE_WORDS):
        return "place"
    if any(h in types for h in (*ORGANISATION_TYPE_HINTS, *CAMP_TYPE_HINTS)):
        return "organisation"
    if any(h in types for h in THING_TYPE_HINTS):
        return "thing"
    if any(e.forward and normalize_text(e.relation) in GENERIC_TIME_RELATIONS for e in index.edges(key)):
        # a node the KG says happened (`X 发生时间 1916年9月15日`) is an event, whatever its type word (`战斗`)
        return "event"
    return None


MACRO_KIND_MIN_NODES = 2  # the KG's nodes of an asked noun's kind that must agree before the noun has a coarse kind


@lru_cache(maxsize=4096)
def noun_macro_kinds(index: KGIndex, noun: str) -> frozenset[MacroKind]:
    """The coarse kinds of the KG's nodes of the kind a noun names (typed with it, or named ending in it: `城市`,
    `驱逐舰`, `州`) — measured on the KG, not listed; empty when too few nodes say."""
    one_char = len(noun) < KIND_WORD_MIN_CHARS
    kinds = [
        k
        for key, node in index.nodes.items()
        if node.kind == "entity"
        and ((not one_char and noun in index.types_text(key)) or normalize_text(node.name).endswith(noun))
        and (k := macro_kind(index, key)) is not None
    ]
    if len(kinds) < MACRO_KIND_MIN_NODES or (one_char and len(set(kinds)) > 1):
        # (a one-character noun, a name's head — `哪个州`: `弗吉尼亚州` — says a kind only when all agree)
        return frozenset()
    return frozenset(kinds)


@lru_cache(maxsize=4096)
def noun_names_events(index: KGIndex, noun: str) -> bool:
    """The asked noun is a kind of event: a word naming one (`行动`), a word in the type of one of the KG's event
    nodes, or the head ending its name (`事故` of `沙漠一号相撞事故`, `任务` of `撤侨任务`; not `潜艇` of
    `俄罗斯潜艇首次…发射巡航导弹`) — a one-character noun in its type only (`哪个师` is no kind of `托尔高会师`)."""
    if not noun or names_event_type(noun):
        return bool(noun)
    return any(
        (len(noun) > 1 and normalize_text(node.name).endswith(noun)) or noun in index.types_text(key)
        for key, node in index.nodes.items()
        if names_event_type(index.types_text(key))
    )


@lru_cache(maxsize=4096)
def role_person_types(index: KGIndex, noun: str) -> frozenset[str]:
    """The person types of the objects of the relations the asked noun spells in full: a role the KG gives people
    (`哪位试飞员`: `V-24 试飞员 Y` reaches a `人物`, so a 人物 may be a 试飞员). Other relations named like the noun
    are what is asked (`还有哪些使用方`), not a kind."""
    if len(noun) < KIND_WORD_MIN_CHARS:
        return frozenset()
    return frozenset(
        t.obj_type.strip()
        for t in index.triples
        if normalize_text(t.relation) == noun and names_person_type(t.obj_type)
    )


@lru_cache(maxsize=4096)
def role_macro_kinds(index: KGIndex, role: str) -> frozenset[MacroKind]:
    """The coarse kinds of what the KG's relations named like a role word reach (`军长` -> person; `主办方` ->
    organisation): the relation's name ends the word or the word ends it."""
    if len(role) < KIND_WORD_MIN_CHARS:
        return frozenset()
    kinds = {
        k
        for t in index.triples
        if (r := normalize_text(t.relation))
        and len(r) >= KIND_WORD_MIN_CHARS
        and (role.endswith(r) or r.endswith(role))
        and (k := macro_kind(index, normalize_text(t.obj))) is not None
    }
    return frozenset(kinds)


def asked_macro_kinds(
    index: KGIndex, form: str, person: bool, type_word: str, ends_phrase: bool = True, role: str = ""
) -> frozenset[MacroKind]:
    """The coarse kinds an answer may have: a date for when, a place for where, a person (or a body, unless the
    role asked reaches only people: `role`) for who, else
    the kinds of the KG's nodes of the asked noun (a one-character noun only where it ends its phrase); empty when
    the question does not say."""
    if form == "time":
        return frozenset({"date"})
    if form == "place":
        return frozenset({"place"})
    if form not in ("entity", "set"):
        return frozenset()
    if person:
        # a body may answer `谁` (`主办方是谁`), not where the role asked reaches only people in the KG (`军长是谁`)
        return (
            frozenset({"person"})
            if role_macro_kinds(index, role) == {"person"}
            else frozenset({"person", "organisation"})
        )
    if not type_word or (len(type_word) < KIND_WORD_MIN_CHARS and not ends_phrase):
        return frozenset()
    measured = noun_macro_kinds(index, type_word)
    said = COARSE_KIND_NOUNS.get(type_word)
    return measured or (frozenset({said}) if said else frozenset())
