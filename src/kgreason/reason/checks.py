"""Constraint checks of one candidate chain against the question's constraints.

Each check says whether the constraint holds, which KG triples it rests on and which derived comparison triples
(`晚于`, `处于时期内`, `数值大于`, ...) it justifies. Derived triples are only emitted for comparisons computed
here and found true; the assembler verifies them again with `check_derived_triple`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from kgreason.data.records import PathTriple
from kgreason.kg.compare import compare_quantities, date_holds
from kgreason.kg.dates import DateValue, Period, parse_date, shifted
from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.paths import Chain, connect
from kgreason.kg.quantities import Quantity, parse_quantity
from kgreason.reason.analysis import Analysis, NumericThreshold, TimeWindow
from kgreason.reason.kinds import country_initials, is_country
from kgreason.reason.lexicon import (
    CAMP_RELATION_HINTS,
    CAMP_TYPE_HINTS,
    CATEGORY_RELATION_CHARS,
    GENERIC_TIME_RELATIONS,
    PLACE_RELATION_HINTS,
    PLACE_TYPE_WORDS,
    SAME_DAY_RELATION,
    SIDE_NAME_SUFFIXES,
    TYPE_RELATION_HINTS,
    names_event_type,
)
from kgreason.reason.scoring import relation_match
from kgreason.text.normalize import normalize_text

CheckKind = Literal["time", "numeric", "entity"]
# Relations whose value is "the" time of an event: preferred when the question names no time relation.
NEGATION = {
    "数值大于": "数值不大于",
    "数值小于": "数值不小于",
    "数值不小于": "数值小于",
    "数值不大于": "数值大于",
    "晚于": "早于",
    "早于": "晚于",
    "处于时期内": "不处于时期内",
}


@dataclass(frozen=True, slots=True)
class Check:
    kind: CheckKind
    key: str | None  # the constraints-dict key it stands for (time / numeric / camp / place), None if none
    value: str  # the question's wording
    ok: bool | None  # None: could not be decided (no value in the KG to compare)
    triples: tuple[PathTriple, ...] = ()  # KG triples the check reads
    derived: tuple[PathTriple, ...] = ()  # derived comparison triples that hold
    alt: tuple[PathTriple, ...] = ()  # long form for an alternative path (处于时期内 via 开始时间/结束时间)
    note: str = ""
    anchor: str = ""  # for entity checks: the chain node the connection leaves from


def _priority_nodes(index: KGIndex, chain: Chain) -> list[str]:
    """Where a constraint is looked for: the answer first (or, when the answer is a value, the node that has
    it), then the key entity, then the bridges."""
    nodes = list(chain.nodes)
    first = nodes[-1]
    if len(nodes) > 1 and index.is_literal(first):
        first = nodes[-2]
    return list(dict.fromkeys([first, nodes[0], *nodes[1:]]))


def _value_edges(
    index: KGIndex, chain: Chain, wanted: Callable[[str], bool]
) -> list[tuple[int, tuple[Edge, ...], Edge]]:
    """(rank, bridge edges, value edge) for every wanted attribute value (a date, a quantity) near the chain: on
    its nodes (rank = node priority), else one entity hop away from the answer (`舰 -舰级-> 45型驱逐舰
    -满载排水量-> 8500吨`). The chain's own triples are not checks of themselves."""
    own = {e.triple for e in chain.edges}
    out: list[tuple[int, tuple[Edge, ...], Edge]] = []
    nodes = _priority_nodes(index, chain)
    for rank, n in enumerate(nodes):
        out.extend((rank, (), e) for e in index.value_edges(n) if e.triple not in own and wanted(e.dst))
    if out:
        return out
    on_chain = set(chain.nodes) | _siblings(index, chain)
    for hop in index.edges(nodes[0]):
        if hop.forward and hop.dst not in on_chain and not index.is_literal(hop.dst) and not hop.is_alias:
            out.extend(
                (len(nodes), (hop,), e) for e in index.value_edges(hop.dst) if e.triple not in own and wanted(e.dst)
            )
    return out


def _siblings(index: KGIndex, chain: Chain) -> set[str]:
    """The nodes the chain's last hop reaches from where it leaves (`UH-60 -包含型别->` UH-60L, UH-60M, …): the
    answer's fellow members, whose values are their own (`HH-60M -改进自-> UH-60M` gives HH-60M no weight)."""
    if not chain.edges:
        return set()
    last = chain.edges[-1]
    return {e.dst for e in index.edges(last.src) if e.forward == last.forward and e.relation == last.relation}


def _time_edges(
    index: KGIndex, chain: Chain, bound_keys: frozenset[str] = frozenset()
) -> list[tuple[int, tuple[Edge, ...], Edge, DateValue]]:
    """Dates near the chain, except those of the nodes that bound the window: a bound is not checked against
    itself (`南昌舰在下水之后…`: 南昌舰's own dates are the bounds, not the answer's)."""
    out: list[tuple[int, tuple[Edge, ...], Edge, DateValue]] = []
    for rank, bridge, e in _value_edges(index, chain, lambda k: index.date(k) is not None):
        d = index.date(e.dst)
        if d is not None and e.src not in bound_keys:
            out.append((rank, bridge, e, d))
    return out


def _hinted_dates(
    index: KGIndex, chain: Chain, hint: str, bound_keys: frozenset[str], mentioned: frozenset[str]
) -> list[tuple[int, tuple[Edge, ...], Edge, DateValue]]:
    """Dates whose relation the hint names, on the answer's node or one entity hop from it in either direction —
    not from a node the question names: the window describes what is asked, not the names it starts from."""
    holder = _priority_nodes(index, chain)[0]
    if holder in mentioned:
        return []
    own = {e.triple for e in chain.edges}  # the chain's own triples are no checks of themselves
    out: list[tuple[int, tuple[Edge, ...], Edge, DateValue]] = []
    for bridge, node in [((), holder)] + [
        ((hop,), hop.dst) for hop in index.edges(holder) if not hop.is_alias and not index.is_literal(hop.dst)
    ]:
        if node in bound_keys:
            continue
        for e in index.value_edges(node):
            d = index.date(e.dst)
            if d is not None and e.triple not in own and relation_match(e.relation, hint).score:
                out.append((len(bridge), bridge, e, d))
    return out


def _generic_event_date(index: KGIndex, e: Edge) -> bool:
    """The date triple is an event's own date under a generic time relation (`发生时间`, `开始时间`)."""
    return normalize_text(e.relation) in GENERIC_TIME_RELATIONS and names_event_type(index.types_text(e.src))


def anchor_date_edge(index: KGIndex, w: TimeWindow, question_norm: str) -> Edge | None:
    """The date triple of the window's anchor node that its words name best (`解除` -> `解除时间`; a generic time
    relation a little ahead), or None."""
    if w.anchor_key is None:
        return None
    best: tuple[float, Edge] | None = None
    for e in index.value_edges(w.anchor_key):
        if index.date(e.dst) is None:
            continue
        s = relation_match(e.relation, normalize_text(w.hint) or question_norm).score + (
            0.2 if normalize_text(e.relation) in GENERIC_TIME_RELATIONS else 0.0
        )
        if best is None or s > best[0]:
            best = (s, e)
    return best[1] if best is not None else None


def _bound(
    index: KGIndex, w: TimeWindow, anchor: Edge | None
) -> tuple[DateValue | Period | None, str, PathTriple | None]:
    """The window's bound as a comparable value, the operand to write, and a KG triple it comes from (`anchor`: the
    anchor node's date triple, `anchor_date_edge`)."""
    if w.date is not None:
        return w.date, w.operand, None
    if w.period_key is not None:
        p = index.period(w.period_key)
        if p is None:
            d = parse_date(index.name(w.period_key))  # a period node named like a date (`20世纪90年代`)
            return d, index.name(w.period_key), None
        return p, index.name(w.period_key), None
    if anchor is not None and w.offset:
        # the day (or year) after the anchor's date (`X逝世的第二天`): a bound the question implies, written out
        anchored = index.date(anchor.dst)
        bound = shifted(anchored, w.offset_unit, w.offset) if anchored is not None else None
        return bound, bound.text if bound is not None else "", anchor.triple.spo
    if anchor is not None:
        return index.date(anchor.dst), index.name(anchor.dst), anchor.triple.spo
    if w.operand:
        return parse_date(w.operand), w.operand, None
    return None, w.operand, None


def _starts_on_the_date(index: KGIndex, chain: Chain, w: TimeWindow) -> bool:
    start = index.date(chain.start)
    return (
        bool(chain.edges)
        and w.relation == "处于时期内"
        and w.date is not None
        and start is not None
        and (start.same_days(w.date))
    )


def check_time(index: KGIndex, chain: Chain, w: TimeWindow, analysis: Analysis) -> Check:
    if _starts_on_the_date(index, chain, w):
        # the chain starts at the very date the question names (`generate.date_anchors`): it says so itself
        return Check("time", "time", w.text, True, (chain.edges[0].triple.spo,))
    qn = analysis.mapped.norm
    anchor = anchor_date_edge(index, w, qn)  # found once: the same-day test and the bound both use it
    if (
        w.relation == SAME_DAY_RELATION
        and anchor is not None
        and chain.edges
        and chain.start == anchor.dst
        and chain.nodes[1] in chain.nodes[-2:]
    ):
        # the chain starts at the day of the anchor's event (`generate.same_day_anchors`) and enters the answer or
        # the node it hangs from: its first triple and the anchor's date say the window holds
        return Check("time", "time", w.text, True, (anchor.triple.spo, chain.edges[0].triple.spo))
    bound, operand, bound_triple = _bound(index, w, anchor)
    bound_keys = frozenset(k for key in (w.anchor_key, w.period_key) if key for k in index.alias_group(key))
    edges = _time_edges(index, chain, bound_keys)
    if bound is None or not edges or not operand:
        return Check("time", "time", w.text, None, note="no date to compare" if bound else "bound unknown")
    residual = analysis.residual
    answer_is_node = not index.is_literal(chain.end)  # a value answer (`哪一天首飞`) says nothing of the window

    def rank(item: tuple[int, tuple[Edge, ...], Edge, DateValue]) -> tuple[bool, float, bool, int]:
        # the answer's own date first (the window describes what is asked), then the best-named relation
        r, _, e, d = item
        rel = relation_match(e.relation, residual).score
        if normalize_text(e.relation) in GENERIC_TIME_RELATIONS:
            rel += 0.2
        return (r == 0 and answer_is_node, rel, bool(_holding(w, d, bound)), -r)

    named = any(relation_match(e.relation, w.hint).score for *_, e, _d in edges)
    if w.date is not None and len(w.hint) >= 2 and not named:
        # the window dates an event the question names (`2019年以前就签约`): a date of that event one hop from the
        # answer, either way (a contract or an event that names it: `合同 -采购方-> 罗马尼亚`, `合同 -签约时间-> …`)
        hinted = _hinted_dates(index, chain, w.hint, bound_keys, analysis.mention_set)
        # … or, none named so, the generic dates of an event the chain passes through: the hint is its verb
        # (`第77师在1945年4月攻下的岛` through `伊江岛作战 -开始时间->`)
        edges = hinted or [item for item in edges if _generic_event_date(index, item[2])]
        if not edges:
            return Check("time", "time", w.text, None, note=f"no date of {w.hint}")
    _, bridge, edge, date = max(edges, key=rank)
    relation = _holding(w, date, bound)
    holds = bool(relation)
    value_triple = edge.triple.spo
    date_name = edge.triple.obj if edge.forward else edge.triple.sub
    triples: list[PathTriple] = [*(b.triple.spo for b in bridge), value_triple]
    if bound_triple is not None:
        triples.append(bound_triple)
    derived: list[PathTriple] = []
    alt: list[PathTriple] = []
    if holds and normalize_text(date_name) != normalize_text(operand):
        derived.append((date_name, relation, operand))
        if isinstance(bound, Period) and relation == "处于时期内":
            alt = [*(b.triple.spo for b in bridge), *_long_form(value_triple, date_name, date, bound)]
    elif not holds:
        neg = NEGATION.get(w.relation)
        if neg and date_holds(neg, date, bound):
            derived.append((date_name, neg, operand))
    return Check("time", "time", w.text, holds, tuple(triples), tuple(derived), tuple(alt))


def _holding(w: TimeWindow, date: DateValue, bound: DateValue | Period) -> str:
    """The relation of the window that the date stands in to the bound ("" when none): its own, or, for a bound
    whose own period counts (`进入21世纪以后`, `1945年5月或之后`), `处于时期内`."""
    if date_holds(w.relation, date, bound):
        return w.relation
    return "处于时期内" if w.inclusive and date_holds("处于时期内", date, bound) else ""


def _long_form(value_triple: PathTriple, date_name: str, date: DateValue, p: Period) -> list[PathTriple]:
    """The spec's alternative: the date, the period's start and end triples, then 晚于 start and 早于 end."""
    out: list[PathTriple] = [value_triple]
    if p.start_triple is None or p.end_triple is None:
        return []
    out += [p.start_triple, p.end_triple]
    if date_holds("晚于", date, p.start):
        out.append((date_name, "晚于", p.start_triple[2]))
    if date_holds("早于", date, p.end):
        out.append((date_name, "早于", p.end_triple[2]))
    return out


CODE_RELATION_NAMED = 0.9  # how well a threshold's words must name a relation for its codes to count as numbers


def check_numeric(index: KGIndex, chain: Chain, t: NumericThreshold) -> Check:
    best: tuple[tuple[float, int], tuple[Edge, ...], Edge, Quantity] | None = None
    bare = not t.quantity.dimension  # `舷号超过105`: a number without a unit compares with numbers without one

    attribute = normalize_text(t.attribute)

    def comparable(key: str) -> bool:  # a value of another dimension (`7个月` for `超过8000吨`) is not a candidate
        q = index.quantity(key)
        return q is not None and compare_quantities("数值等于", q, t.quantity) is not None

    options = [(rank, bridge, e, index.quantity(e.dst)) for rank, bridge, e in _value_edges(index, chain, comparable)]
    if bare and attribute:
        # a code the KG writes as a number under the relation the threshold names (`舷号 106`) is such a number
        for rank, n in enumerate(_priority_nodes(index, chain)):
            for e in index.edges(n):
                named = relation_match(e.relation, attribute).score >= CODE_RELATION_NAMED
                if e.forward and named and index.quantity(e.dst) is None:
                    options.append((rank, (), e, parse_quantity(index.name(e.dst))))
    for rank, bridge, e, q in options:
        if q is None or (bare and q.dimension):
            continue
        rel = relation_match(e.relation, attribute).score if attribute else 0.0
        key = (rel, -rank)
        if best is None or key > best[0]:
            best = (key, bridge, e, q)
    if best is None:
        return Check("numeric", "numeric", t.text, None, note="no value of that dimension")
    if attribute and best[0][0] == 0.0 and any(relation_match(r, attribute).score > 0 for r in index.relations):
        # `派兵不少于1万人`: the KG states what the words name (`派出兵力`), just not here; another value of the
        # dimension nearby (the exercise's `参演兵力`) does not speak for this node
        return Check("numeric", "numeric", t.text, None, note="no value of that attribute")
    _, bridge, edge, q = best
    holds = bool(compare_quantities(t.relation, q, t.quantity))
    value_name = edge.triple.obj
    derived: list[PathTriple] = []
    if holds:
        derived.append((value_name, t.relation, t.operand))
    else:
        neg = NEGATION.get(t.relation)
        if neg and compare_quantities(neg, q, t.quantity):
            derived.append((value_name, neg, t.operand))
    triples = (*(b.triple.spo for b in bridge), edge.triple.spo)
    return Check("numeric", "numeric", t.text, holds, triples, tuple(derived))


def entity_role(index: KGIndex, key: str, via: Chain | None, marked: str | None) -> str | None:
    """The constraints-dict key of an entity constraint: marked by the question, else from the node's type or the
    relation that connects it."""
    if via is not None and any(any(h in e.relation for h in TYPE_RELATION_HINTS) for e in via.edges):
        return "type"
    if any(h in index.types_text(key) for h in TYPE_RELATION_HINTS):
        return "type"  # the KG types the node as a category (`第五代战斗机`: 类别)
    if marked:
        return marked
    node = index.nodes.get(key)
    types = " ".join(node.types) if node else ""
    rels = " ".join(e.relation for e in via.edges) if via else ""
    place_like = (
        index.is_place(key) or any(h in types for h in PLACE_TYPE_WORDS) or any(h in rels for h in PLACE_RELATION_HINTS)
    )
    if place_like and not any(h in rels for h in CAMP_RELATION_HINTS):
        return "place"
    if any(h in types for h in CAMP_TYPE_HINTS):
        return "camp"
    if any(h in rels for h in CAMP_RELATION_HINTS) and not names_event_type(types):
        return "camp"
    return None


def _names_event_with(index: KGIndex, node: str, key: str, named: frozenset[str]) -> bool:
    """`node` is an event whose name spells `key` and another of the question's names (`named`)."""
    return (
        key in node
        and key != node
        and any(len(k) >= 2 and k != key and k in node for k in named)
        and names_event_type(index.types_text(node))
    )


PART_NAMED_MIN_CHARS = 3  # a whole's name this long that starts a part's (`第2伞兵营` of `第2伞兵营D连`) says whose
# … when the part's name goes on with a code and a one-character head (`D连`, `3营`; not a variant's `B` of `F-16B`)
_PART_CODE = re.compile(r"[a-z0-9一二三四五六七八九十]{1,3}[\u4e00-\u9fff]")


def check_entity(
    index: KGIndex,
    chain: Chain,
    key: str,
    text: str,
    marked: str | None,
    max_hops: int = 2,
    siblings: bool = False,
    named: frozenset[str] = frozenset(),
) -> Check:
    """The answer (or another node of the chain) must be connected to the mentioned entity `key` (the answer by at
    most `max_hops` triples, another node of the chain by one). Unless the question asks for a sibling (`siblings`),
    the node the answer hangs from reaching `key` by the answer's own relation connects nothing: `key` is then
    another member beside the answer (`M142 -使用方-> 美国陆军`, `M142 -使用方-> 美国海军陆战队`)."""
    nodes = _priority_nodes(index, chain)
    if marked == "exclude":
        return _check_excluded(index, chain, nodes[0], key, text, max_hops)

    def reach(sources: list[str], hops: int) -> Chain | None:
        via = connect(index, sources, key, max_hops=hops)
        return None if via is not None and not siblings and _is_sibling(chain, via) else via

    via = reach(nodes[:1], 1) or reach(nodes, 1)
    if via is None and max_hops > 1:
        via = reach(nodes[:1], max_hops) or reach(_kind_member(chain), max_hops)
    role = entity_role(index, key, via, marked)
    if role == "camp" and is_country(index, key):
        role = "country"  # a side that the KG types as a country (conventions may key it apart: `country`)
    sides = (
        (_side_relations(index, chain.edges) or _side_relations(index, index.edges(nodes[0])))
        if role == "country"
        else {}
    )
    if sides:
        # the chain, or the answer, goes along a relation named for a side (`日方损失航母`, `苏方签字人`): that says
        # its country, before any longer connection (the battle's `参战方` is either side)
        own = sides.get(index.name(key)[:1])
        if own is None:
            return Check("entity", role, text, False, note="a relation names another side")
        return Check("entity", role, text, True, (own.triple.spo,), note="the relation names the side")
    if via is None:
        # A place named inside a node's name needs no triple (`日本` in `日本横须贺港`).
        if role == "place" and any(key in n and key != n for n in nodes):
            return Check("entity", role, text, True, note="named in the answer")
        # … nor a part named after its whole (`第2伞兵营D连` of `第2伞兵营`: `隶属第2伞兵营的哪个连`)
        if len(key) >= PART_NAMED_MIN_CHARS and nodes[0].startswith(key) and _PART_CODE.fullmatch(nodes[0][len(key) :]):
            return Check("entity", role, text, True, note="named after it")
        # … nor a thing named inside the name of an event the chain passes through, beside another name the question
        # uses (`豹2` and `阿富汗` in `丹麦阿富汗部署豹2`): the question describes that event by the names it is
        # named after
        if len(key) >= 2 and any(_names_event_with(index, n, key, named) for n in chain.nodes):
            return Check("entity", role, text, True, note="named in an event on the chain")
        # (a side the question marks as such, `日本舰队`, `英国一方的`: whose the thing is)
        owner = _owner_named_for(index, nodes[0], key) if role == "country" and marked == "camp" else None
        if owner is not None:
            return Check("entity", role, text, True, (owner.triple.spo,), note="its owner is named for the country")
        if marked is None and (during := _during(index, chain, key, text)) is not None:
            return during
        return Check("entity", role, text, False, note="not connected")
    return Check("entity", role, text, True, via.triples, anchor=via.start)


def _owner_named_for(index: KGIndex, key: str, country: str) -> Edge | None:
    """The edge by which `key` belongs to a node named for `country` (`第一机动舰队 隶属于 日本联合舰队`): whose side
    the thing is on, where the KG does not link the country itself."""
    name = normalize_text(index.name(country))
    return next(
        (
            e
            for e in index.edges(key)
            if e.forward
            and e.dst != country
            and normalize_text(index.name(e.dst)).startswith(name)
            and any(h in e.relation for h in CAMP_RELATION_HINTS)
        ),
        None,
    )


def _kind_member(chain: Chain) -> list[str]:
    """The node a chain enters from a kind the question names (`英国核潜艇击沉的…`: `核潜艇 <-类型- 征服者号`): a thing
    the question describes, as it does the answer, so its constraints reach as far."""
    first = chain.edges[0] if chain.edges else None
    typed = first is not None and not first.forward and any(c in first.relation for c in CATEGORY_RELATION_CHARS)
    return [first.dst] if first is not None and typed and len(chain.edges) > 1 else []


def _side_relations(index: KGIndex, edges: Iterable[Edge]) -> dict[str, Edge]:
    """The edges whose relation speaks for a country's side by the country's first character and 方/军
    (`日方损失航母`, `美军伤亡`), by that character — only characters that begin a country of the KG."""
    out: dict[str, Edge] = {}
    for e in edges:
        rel = normalize_text(e.relation)
        if len(rel) > 2 and rel[1] in SIDE_NAME_SUFFIXES and rel[0] in country_initials(index):
            out.setdefault(rel[0], e)
    return out


def _is_sibling(chain: Chain, via: Chain) -> bool:
    """`via` leaves the answer's parent on the chain along the relation, and in the direction, of the answer's own
    last hop."""
    if not chain.edges or len(chain.nodes) < 2:
        return False
    last, parent = chain.edges[-1], chain.nodes[-2]
    if via.hops == 2 and via.nodes[1] == parent:  # from the answer, up to the parent and down again
        via = Chain(parent, via.edges[1:])
    if via.hops != 1:
        return False
    step = via.edges[0]
    return via.start == parent and step.relation == last.relation and step.forward == last.forward


NEGATED_RELATION_MATCH = 0.5  # a relation spelling half the negated words or more states them (`沉没时间` for 沉没)


def check_negated(index: KGIndex, chain: Chain, word: str, text: str) -> Check:
    """`哪一艘最终没有沉没`: the answer must not have what the negated words name — a KG type that spells them, or a
    triple of its own (not the chain's last) whose relation does (`沉没时间`) or whose other end does (`类型 驱逐舰` for
    `不是驱逐舰`). Absence is no triple: a passing answer adds none; a failing one keeps the triple that states it."""
    end = chain.end
    if word in normalize_text(index.types_text(end)):
        return Check("entity", "exclude", text, False, note="the KG types it as the question negates")
    last = chain.edges[-1].triple if chain.edges else None
    for e in index.edges(end):
        if e.triple is last:
            continue
        if relation_match(e.relation, word).score >= NEGATED_RELATION_MATCH or word in e.dst:
            return Check("entity", "exclude", text, False, (e.triple.spo,), note="the KG states what is negated")
    return Check("entity", "exclude", text, True, note="not stated, as the negation asks")


def _check_excluded(index: KGIndex, chain: Chain, answer: str, key: str, text: str, max_hops: int) -> Check:
    """A negated entity (`除美国空军外`, `不是北约成员国`) holds when the answer is not it and does not connect to it.
    Only the answer's own connections count (the question's other names connect to everything it asks about), and a
    peer — a node the answer's parent on the chain also reaches (`F-35A 使用方 韩国空军`, `F-35A 主要用户 美国空军`) —
    is another member, which `除…外` takes out of the answer, not a property every member lacks. The connection that
    breaks it is kept as the reason (never written on a path of a passing answer)."""
    if answer in index.alias_group(key):
        return Check("entity", "exclude", text, False, note="the answer is what the question excludes")
    via = connect(index, [answer], key, max_hops=max_hops)
    parent = chain.nodes[-2] if len(chain.nodes) >= 2 else None
    if via is None or (via.hops == 2 and via.nodes[1] == parent):
        return Check("entity", "exclude", text, True, note="not connected, as the negation asks")
    return Check("entity", "exclude", text, False, via.triples, note="connected, but the question excludes it")


def _during(index: KGIndex, chain: Chain, key: str, text: str) -> Check | None:
    """`在马岛战争中被击中的舰船`: a period the chain does not reach (a war, a campaign: a node with a start and an
    end) bounds it in time instead — a date of the chain inside the period is the connection, with the derived
    `处于时期内` triple. None when the node is no period or the chain has no date."""
    period = index.period(key)
    if period is None:
        return None
    edges = _time_edges(index, chain, frozenset(index.alias_group(key)))
    if not edges:
        return None

    def rank(item: tuple[int, tuple[Edge, ...], Edge, DateValue]) -> tuple[bool, bool, int]:
        r, _, e, d = item
        return (date_holds("处于时期内", d, period), normalize_text(e.relation) in GENERIC_TIME_RELATIONS, -r)

    _, bridge, edge, date = max(edges, key=rank)
    value_triple = edge.triple.spo
    date_name = edge.triple.obj if edge.forward else edge.triple.sub
    triples = (*(b.triple.spo for b in bridge), value_triple)
    name = index.name(key)
    if not date_holds("处于时期内", date, period):
        return Check("time", "time", text, False, triples, note=f"not within {name}")
    alt = (*(b.triple.spo for b in bridge), *_long_form(value_triple, date_name, date, period))
    return Check("time", "time", text, True, triples, ((date_name, "处于时期内", name),), alt)
