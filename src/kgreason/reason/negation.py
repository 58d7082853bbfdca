"""Negation over a described group: `第一航空舰队机动部队下辖的航空母舰中，哪些没有编入第一航空战队？`,
`文中属于第五代战斗机的几款机型里，所属国家不是中国的有哪些？`, `隶属于英国皇家海军的舰艇中，哪些未在战争中沉没？`.

The clause before the among-word (`中`, `里`, `之中` …) describes a group; it is answered as a question of its own
(`…下辖的航空母舰有哪些`), and each member is then tested against the negated words after the marker (`没有`, `不是`,
`并非`, `不隶属于` …). A member has what is negated when a node the negated words name (a linked name, or a neighbour
whose name they spell: `1942年6月4日`) is within two triples of it, or a neighbour's name or its KG type holds the
negated words (`远程防空导弹` for `防空导弹`); when the words name no node at all, when one of its relations spells
them (`沉没时间` for `沉没`). The members without it are the answer, each with the chain that made it a member; the
negated words are the constraint. The builder gives nothing — and the question goes to the others — when the group
has fewer than two members or the test keeps all or none of them. A later clause that asks something
(`…，有一个不属于X，它的军长是谁`) is asked of the one member left (`NegatedGroup.then`).

The same test, kept positive, answers a group filtered by a named node (`南云舰队下辖的航母中，编入第二航空战队的有
哪些`, `护航舰艇中属于23型护卫舰的有哪些`; `find_filtered_group`): the members that have it, each with the triples that
connect it to the named node.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.paths import Chain, connect
from kgreason.reason.analysis import Analysis, Form, asks_how_many, before_question_word, residual_words
from kgreason.reason.candidate import Candidate, ordered_path
from kgreason.reason.checks import Check, check_negated, entity_role
from kgreason.reason.generate import answer_type_of
from kgreason.reason.lexicon import (
    AMONG_WORDS,
    BOOL_WORDS,
    CLAUSE_STOPS,
    GROUP_NEGATIONS,
    GROUP_QUESTION,
    INTERROGATIVES,
    MEASURE_WORDS,
    NEGATED_TAIL_PARTICLES,
    NEGATION_LINKING,
    RESTART_PRONOUNS,
    SET_QUESTION_WORDS,
    SEVERAL_WORD,
)
from kgreason.reason.scoring import relation_match
from kgreason.text.normalize import normalize_text

_AMONG = "|".join(sorted(AMONG_WORDS, key=len, reverse=True))
# the group clause ends on an among-word followed by a comma, or by the question word itself (`…战斗机里哪一型…`)
_ASKING = "|".join(INTERROGATIVES)
_SPLIT = re.compile(rf"^(?P<group>.{{2,}}?)(?:{_AMONG})(?:[，,]\s*|(?={_ASKING}))(?P<rest>.+)$")
_SPLIT_LAST = re.compile(rf"^(?P<group>.{{2,}})(?:{_AMONG})(?:[，,]\s*|(?={_ASKING}))(?P<rest>.+)$")
_MARKER = re.compile("|".join(sorted(GROUP_NEGATIONS, key=len, reverse=True)))
_ASKING_WORD = re.compile(_ASKING)
MAX_HOPS = 2  # a named node this close to a member is what the member has (`编入` is one triple, `由…发射` two)
RELATION_NAMED = 0.9  # `relation_match` of a synonym spelled in full (its variants score 0.9)
GROUP_CANDIDATES = 3  # answers of the group clause looked at for one with several members
_CLAUSE_END = re.compile(f"[{CLAUSE_STOPS}]")
# `几款机型`, `几次受袭事件` describe a group; asked of the group clause they would make it a count question
_SEVERAL = re.compile(f"{SEVERAL_WORD}[{MEASURE_WORDS}]")


@dataclass(frozen=True, slots=True)
class NegatedGroup:
    group_text: str  # the clause that describes the group, verbatim (`第一航空舰队机动部队下辖的航空母舰`)
    negated_text: str  # the negated words, verbatim (`编入第一航空战队`): the constraint's value
    negated: str  # the same, normalised
    negated_start: int  # normalised span of the negated words in the question
    negated_end: int
    form: Form  # what the question after the group asks: several members (`哪些`) or one (`哪一艘`)
    group_end: int  # normalised end of the group clause
    keep_having: bool = False  # a filter, not a negation: the members that have it are the answer
    # what a later clause asks of the one member left (`…，有一个不属于X，它的军长是谁`: `的军长是谁`, its pronoun
    # dropped), "" when the negated clause is the question
    then: str = ""


def find_negated_group(analysis: Analysis) -> NegatedGroup | None:
    """The group clause and the negated words of `analysis`'s question, or None when it has no such shape."""
    if analysis.form in ("bool", "choice"):
        return None
    m = _SPLIT.match(analysis.question)
    if m is None:
        return None
    rest, rest_at = m.group("rest"), m.start("rest")
    neg = _MARKER.search(rest)
    if neg is None or any(w in rest[max(0, neg.start() - 2) : neg.end() + 1] for w in BOOL_WORDS):
        return None
    clauses = _CLAUSE_END.split(rest[neg.end() :], maxsplit=1)
    text = before_question_word(clauses[0])
    then = ""
    if len(clauses) == 2 and not _ASKING_WORD.search(clauses[0]) and _ASKING_WORD.search(clauses[1]):
        then = clauses[1].strip()
        then = then[len(next((p for p in RESTART_PRONOUNS if then.startswith(p)), "")) :]
    # `所属国家不是中国的有哪些` -> 中国; `并非联合攻击战斗机项目的中标方` keeps its relation words
    text = text.rstrip(NEGATION_LINKING).rstrip(NEGATED_TAIL_PARTICLES).rstrip(NEGATION_LINKING).strip()
    if len(normalize_text(text)) < 2:
        return None
    start, q = rest_at + neg.end(), analysis.mapped
    form: Form = "set" if any(w in rest for w in SET_QUESTION_WORDS) else "entity"
    if asks_how_many(rest[neg.end() :]):
        form = "count"  # `…中，不属于英国的有几支`: the members that lack it, counted
    group = _SEVERAL.sub("", m.group("group"))
    return NegatedGroup(
        group,
        text,
        normalize_text(text),
        q.norm_index(start),
        q.norm_index(start + len(text)),
        form,
        q.norm_index(m.end("group")),
        then=then,
    )


# a filtered group's question: the filter, `的`, an optional kind, and a which-question ending the sentence
_FILTER_TAIL = re.compile(rf"的(?P<kind>[^的，,]{{0,6}}?)(?:有|是)?(?:哪些|哪几[{MEASURE_WORDS}]?)[？?]?$")


# or the which-question first, then the filter: `哪几艘是英国的`, `哪些属于北约成员国`
_FILTER_AFTER_WHICH = re.compile(
    rf"(?:有)?(?:哪些|哪几[{MEASURE_WORDS}]?)(?:是|属于)(?P<filter>[^，,？?]{{2,}}?)(?:的)?[？?]?$"
)


def find_filtered_group(analysis: Analysis) -> NegatedGroup | None:
    """`X中，<filter>的有哪些` (or `X中，哪几艘是<filter>的`): the group clause and the filter, when the filter links
    a name; None otherwise (a negated filter is `find_negated_group`'s). The group clause may itself hold an
    among-word (`X总攻中，参加进攻的部队里哪些属于Y`): the last one before the filter ends it."""
    if analysis.form != "set":
        return None
    for split in (_SPLIT, _SPLIT_LAST):
        m = split.match(analysis.question)
        if m is not None and (found := _filtered_group(analysis, m)) is not None:
            return found
    return None


def _filtered_group(analysis: Analysis, m: re.Match[str]) -> NegatedGroup | None:
    """`find_filtered_group` for the group clause `m` ends."""
    rest, rest_at = m.group("rest"), m.start("rest")
    if _MARKER.search(rest) is not None:
        return None
    tail = _FILTER_TAIL.search(rest)
    head = _FILTER_AFTER_WHICH.match(rest) if tail is None else None
    if tail is not None:
        if tail.group("kind") and tail.group("kind") not in m.group("group"):
            # `…中，部署在南海的驱逐舰有哪些`: a kind of its own narrows the members too; the chain search's
            return None
        text, text_at = rest[: tail.start()].strip(), rest_at
    elif head is not None:  # `…当中，哪几艘是英国的`
        text, text_at = head.group("filter"), rest_at + head.start("filter")
    else:
        return None
    q = analysis.mapped
    start, end = q.norm_index(text_at), q.norm_index(text_at + len(text))
    if len(normalize_text(text)) < 2 or not any(
        start <= k.start and k.end <= end and k.how in ("exact", "core") for k in analysis.mentions
    ):
        return None
    group_end = q.norm_index(m.end("group"))
    # the clause must describe members (`南云舰队下辖的航母`); a name alone (`中途岛海战中，…`) sets the scene
    names = [(k.start, k.end) for k in analysis.mentions if k.end <= group_end]
    if len(residual_words(q.norm[:group_end], names).replace("|", "")) < 2:
        return None
    return NegatedGroup(
        _SEVERAL.sub("", m.group("group")), text, normalize_text(text), start, end, "set", group_end, True
    )


def negated_group_candidates(
    index: KGIndex, analysis: Analysis, neg: NegatedGroup, ask_group: Callable[[str], list[Candidate]]
) -> list[Candidate]:
    """The members of the group (`ask_group(text)` answers the clause as a set question) that lack what is
    negated, as one candidate; [] when the test does not tell the members apart."""
    # a group has members: the best answer of the clause that lists two or more (`…的舰艇有哪些` may rank one
    # attribute value first)
    asked = ask_group(neg.group_text + GROUP_QUESTION)[:GROUP_CANDIDATES]
    group = next((c for c in asked if len(c.chains) >= 2), None)
    if group is None and not any(m.end <= neg.group_end for m in analysis.mentions):
        group = _relation_group(index, neg.group_text)
    if group is None:
        return []
    inside = [m for m in analysis.mentions if neg.negated_start <= m.start and m.end <= neg.negated_end]
    named = [m.key for m in inside]
    # the words beside the names say how a member has them (`联合攻击战斗机项目的中标方`: by 中标方)
    masked = "".join(
        "|" if any(m.start <= neg.negated_start + i < m.end for m in inside) else ch for i, ch in enumerate(neg.negated)
    )
    relation_words = [w for w in (p.strip(NEGATION_LINKING) for p in masked.split("|")) if len(w) >= 2]
    names_a_node = bool(named) or any(_named_neighbour(index, ch, neg.negated) for ch in group.chains)
    by_relation = bool(relation_words) and any(
        _connected(index, ch, key, relation_words) for ch in group.chains for key in named
    )
    words = relation_words if by_relation else []
    keep = [ch for ch in group.chains if _has(index, ch, neg, named, names_a_node, words) == neg.keep_having]
    if not keep or len(keep) == len(group.chains):
        return []
    ends = tuple(dict.fromkeys(ch.end for ch in keep))
    if neg.keep_having:
        checks = [c for ch in keep for key in named if (c := _filter_check(index, ch, key, words)) is not None]
        origin = "filtered"
    else:
        note = "the members that lack it, as the negation asks"
        checks = [Check("entity", "exclude", neg.negated_text, True, note=note)]
        origin = "negation"
    counted = neg.form == "count"
    return [
        Candidate(
            answers=(str(len(ends)),) if counted else tuple(index.name(k) for k in ends),
            answer_keys=ends,
            answer_type="数值" if counted else group.answer_type,
            main=ordered_path(keep, checks),
            score=group.score,
            chains=tuple(keep),
            checks=tuple(checks),
            origin="count" if counted else origin,
        )
    ]


def _filter_check(index: KGIndex, chain: Chain, key: str, relation_words: list[str]) -> Check | None:
    """The triples connecting a kept member to the filter's named node, as the entity check of its role."""
    via = _connection(index, chain, key, relation_words)
    if via is None:
        return None
    role = entity_role(index, key, via, None)
    return Check("entity", role, index.name(key), True, via.triples, note="the members that have it")


def _relation_group(index: KGIndex, clause: str) -> Candidate | None:
    """`文中各装备的研制单位`: a clause that names no node but a relation in full describes every value of it in the
    KG (each member with its own triple); None when no single relation is named so, or it has one value only."""
    words = residual_words(normalize_text(clause))
    named = [r for r in index.relations if normalize_text(r) and normalize_text(r) in words]
    longest = max((len(normalize_text(r)) for r in named), default=0)
    named = [r for r in named if len(normalize_text(r)) == longest]
    if len(named) != 1:
        return None
    chains: dict[str, Chain] = {}
    for t in index.triples:
        if t.relation == named[0]:
            edge = Edge.of(t, True)
            chains.setdefault(edge.dst, Chain(edge.src, (edge,)))
    if len(chains) < 2:
        return None
    members = list(chains.values())
    keys = tuple(ch.end for ch in members)
    kind = answer_type_of(index, keys[0], "set")
    return Candidate(tuple(index.name(k) for k in keys), keys, kind, ordered_path(members, []), 0.0, tuple(members))


def _connected(index: KGIndex, chain: Chain, key: str, relation_words: list[str]) -> bool:
    """The member `chain` ends on reaches the named node `key` — not through the group's own node — by at most
    `MAX_HOPS` triples, one of them with a relation the `relation_words` spell, when there are any."""
    if chain.end in index.alias_group(key):
        return not relation_words
    return _connection(index, chain, key, relation_words) is not None


def _connection(index: KGIndex, chain: Chain, key: str, relation_words: list[str]) -> Chain | None:
    """The path of `_connected` (None when there is none, or the member is the named node itself)."""
    parent = chain.nodes[-2] if len(chain.nodes) >= 2 else None
    via = connect(index, [chain.end], key, max_hops=MAX_HOPS)
    if via is None or (via.hops == 2 and via.nodes[1] == parent):
        return None
    if relation_words and not any(_names_relation(e.relation, w) for e in via.edges for w in relation_words):
        return None
    return via


def _names_relation(relation: str, words: str) -> bool:
    """The words spell the relation (`中标方`), a part of it (`中标`), or a synonym of it in full (`研制` for
    `研制单位`); a shared part (`竞标方` for `中标方`) does not tell one way of reaching a name from another."""
    r = normalize_text(relation)
    return r in words or words in r or relation_match(relation, words).score >= RELATION_NAMED


def _has(
    index: KGIndex, chain: Chain, neg: NegatedGroup, named: list[str], names_a_node: bool, relation_words: list[str]
) -> bool:
    """Whether the member `chain` ends on has what the question negates (`relation_words`: the connection to a named
    node must be by one of them, when some member's is)."""
    if any(_connected(index, chain, key, relation_words) for key in named):
        return True
    if not named and _named_neighbour(index, chain, neg.negated):  # a linked name is judged by `_connected`
        return True
    if names_a_node:
        return neg.negated in normalize_text(index.types_text(chain.end))
    # the words name no node: the answer check of a negated predicate (its type, or a relation spelling them)
    return check_negated(index, chain, neg.negated, neg.negated_text).ok is False


def _named_neighbour(index: KGIndex, chain: Chain, negated: str) -> bool:
    """A neighbour of the member (not over the chain's last triple) whose name the negated words spell, or whose
    name holds them (`远程防空导弹` for `防空导弹`)."""
    last = chain.edges[-1].triple if chain.edges else None
    for e in index.edges(chain.end):
        if e.triple is last:
            continue
        other = e.dst
        if (len(other) >= 2 and other in negated) or negated in other:
            return True
    return False
