"""A per-document index of a KG: nodes under normalised names, alias groups, edges in both directions and typed
values (dates, periods, quantities) of literal nodes.

Node identity is the normalised name (`kgreason.text.normalize.normalize_text`), so `1944 年 6 月 6 日` and
`1944年6月6日` are one node; each node keeps the spelling the KG uses most (answers are written that way). Triples
are never rewritten: a path is made of the KG's own `KGTriple`s, in the KG's direction.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from kgreason.data.records import KGTriple, PathTriple
from kgreason.kg.dates import DateValue, Period, find_period, parse_date
from kgreason.kg.quantities import Quantity, parse_quantity
from kgreason.kg.vocab import is_alias_relation
from kgreason.text.normalize import normalize_text, normalize_triple

NodeKind = Literal["entity", "date", "quantity", "text"]

# KG types that mark literal values (spec: times and places are attribute values); compared normalised.
DATE_TYPES = frozenset({"时间", "日期", "年份", "时间点", "date", "time"})
NUMBER_TYPES = frozenset({"数值", "数量", "数字", "number", "quantity", "value"})
PLACE_TYPES = frozenset({"地点", "位置", "地区", "地名", "location", "place"})
# Long free text (descriptions) is a value, not an entity one would walk through.
TEXT_VALUE_MIN_CHARS = 25


@dataclass(frozen=True, slots=True)
class Edge:
    """One KG triple seen from one of its ends: `forward` walks sub -> obj, otherwise obj -> sub.

    `src` / `dst` are the normalised keys of the two ends in walking order; `is_alias` marks alias relations."""

    triple: KGTriple
    forward: bool
    src: str
    dst: str
    is_alias: bool

    @classmethod
    def of(cls, triple: KGTriple, forward: bool) -> Edge:
        s, o = normalize_text(triple.sub), normalize_text(triple.obj)
        return cls(triple, forward, s if forward else o, o if forward else s, is_alias_relation(triple.relation))

    @property
    def relation(self) -> str:
        return self.triple.relation


@dataclass(frozen=True, slots=True)
class Node:
    key: str  # normalised name
    name: str  # the KG's most frequent spelling
    types: tuple[str, ...]  # KG types seen for it (sub_type / obj_type), as spelled, sorted
    kind: NodeKind
    degree: int


class KGIndex:
    """Lookup structure over one document's triples. Build once per document; read-only afterwards."""

    def __init__(self, doc_id: str, triples: Sequence[KGTriple]) -> None:
        self.doc_id = doc_id
        self.triples: tuple[KGTriple, ...] = tuple(triples)
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        types: dict[str, set[str]] = defaultdict(set)
        type_counts: dict[str, Counter[str]] = defaultdict(Counter)
        adjacency: dict[str, list[Edge]] = defaultdict(list)
        obj_only: set[str] = set()
        subjects: set[str] = set()
        for t in self.triples:
            s, o = normalize_text(t.sub), normalize_text(t.obj)
            if not s or not o:
                continue
            spellings[s][t.sub] += 1
            spellings[o][t.obj] += 1
            if t.sub_type.strip():
                types[s].add(t.sub_type.strip())
                type_counts[s][t.sub_type] += 1
            if t.obj_type.strip():
                types[o].add(t.obj_type.strip())
                type_counts[o][t.obj_type] += 1
            adjacency[s].append(Edge.of(t, True))
            if o != s:
                adjacency[o].append(Edge.of(t, False))
            subjects.add(s)
            obj_only.add(o)
        self._adjacency: dict[str, tuple[Edge, ...]] = {k: tuple(v) for k, v in adjacency.items()}
        # the type the KG gives a node most often (ties: alphabetical), as spelled
        self.main_type: dict[str, str] = {
            k: max(c.items(), key=lambda kv: (kv[1], kv[0]))[0] for k, c in type_counts.items() if c
        }
        nodes: dict[str, Node] = {}
        for key, counts in spellings.items():
            name = max(counts.items(), key=lambda kv: (kv[1], -len(kv[0])))[0]
            node_types = tuple(sorted(types.get(key, ())))
            kind = _kind(name, node_types, is_subject=key in subjects)
            nodes[key] = Node(key, name, node_types, kind, len(self._adjacency.get(key, ())))
        self.nodes: dict[str, Node] = nodes
        self._alias_groups = _alias_groups(self.triples)
        self.spo_norm: frozenset[PathTriple] = frozenset(normalize_triple(t.spo) for t in self.triples)
        self.relations: tuple[str, ...] = tuple(dict.fromkeys(t.relation for t in self.triples))
        self.relation_names: frozenset[str] = frozenset(normalize_text(r) for r in self.relations)
        self._types_text: dict[str, str] = {}

    # ----------------------------------------------------------------------------------------------- nodes
    def node(self, name: str) -> Node | None:
        return self.nodes.get(normalize_text(name))

    def edges(self, key: str) -> tuple[Edge, ...]:
        """Edges at a node (normalised key), both directions, in KG order."""
        return self._adjacency.get(key, ())

    def alias_group(self, key: str) -> frozenset[str]:
        """Keys of the nodes that alias relations join to `key` (including itself)."""
        return self._alias_groups.get(key, frozenset({key}))

    def name(self, key: str) -> str:
        node = self.nodes.get(key)
        return node.name if node else key

    def types_text(self, key: str) -> str:
        """The node's KG types joined by spaces (for substring tests)."""
        text = self._types_text.get(key)
        if text is None:
            node = self.nodes.get(key)
            text = " ".join(node.types) if node else ""
            self._types_text[key] = text
        return text

    def contains_triple(self, triple: PathTriple) -> bool:
        return normalize_triple(triple) in self.spo_norm

    # ----------------------------------------------------------------------------------------------- values
    def date(self, key: str) -> DateValue | None:
        """The date a literal node spells (bare years allowed when the KG types it as a time)."""
        return self._dates.get(key)

    @cached_property
    def dates(self) -> tuple[DateValue, ...]:
        """Every date value of the KG (collected once: questions without a yearless date never ask)."""
        return tuple(self._dates.values())

    def quantity(self, key: str) -> Quantity | None:
        return self._quantities.get(key)

    def period(self, key: str) -> Period | None:
        """Start and end of a period node (a war, a campaign) from its 开始时间/结束时间 (or synonyms)."""
        if key not in self._periods:
            self._periods[key] = find_period(self.name(key), self._period_triples(key))
        return self._periods[key]

    def _period_triples(self, key: str) -> list[KGTriple]:
        keys = sorted(self.alias_group(key))  # sorted: the result must not depend on set order
        out: list[KGTriple] = []
        for k in keys:
            out.extend(e.triple for e in self.edges(k))
        return out

    @cached_property
    def _periods(self) -> dict[str, Period | None]:
        return {}

    def typed_as_time(self, key: str) -> bool:
        """The KG types the node as a time (`时间`, `日期`), whether or not its name parses as a date (a clock time
        `约18时30分` does not)."""
        node = self.nodes.get(key)
        return node is not None and any(normalize_text(t) in DATE_TYPES for t in node.types)

    @cached_property
    def _dates(self) -> dict[str, DateValue]:
        out: dict[str, DateValue] = {}
        for key, node in self.nodes.items():
            v = parse_date(node.name, allow_bare_year=self.typed_as_time(key))
            if v is not None:
                out[key] = v
        return out

    @cached_property
    def _quantities(self) -> dict[str, Quantity]:
        out: dict[str, Quantity] = {}
        for key, node in self.nodes.items():
            if key in self._dates:
                continue
            # a node the KG types as a number may use a unit of its own (`112单元`): read it as its own dimension
            q = parse_quantity(node.name, lenient=node.kind == "quantity")
            if q is not None and (q.dimension or node.kind == "quantity"):
                out[key] = q
        return out

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        """Every ending (2-8 characters) of the KG's entity names, types and relation names, normalised: the
        words the question analysis recognises without a segmenter (`公司`, `航空母舰`, `型别`)."""
        words: set[str] = set()
        names = [n.key for n in self.nodes.values() if n.kind == "entity"]
        names += [normalize_text(t) for n in self.nodes.values() for t in n.types]
        names += [normalize_text(r) for r in self.relations]
        for name in names:
            for k in range(2, min(len(name), 8) + 1):
                words.add(name[-k:])
        return frozenset(words)

    @cached_property
    def quantity_relations(self) -> frozenset[str]:
        """Normalised names of the relations that reach a quantity: the attributes a numeric threshold can bound."""
        return frozenset(normalize_text(t.relation) for t in self.triples if self.quantity(normalize_text(t.obj)))

    @cached_property
    def name_endings(self) -> frozenset[str]:
        """Last characters of the KG's entity names (`州` of `阿肯色州`): one-character kind words."""
        return frozenset(n.key[-1] for n in self.nodes.values() if n.kind == "entity" and len(n.key) >= 3)

    def value_edges(self, key: str) -> Iterable[Edge]:
        """Forward edges from `key` to date or quantity literals (its attributes)."""
        for e in self.edges(key):
            if e.forward and (e.dst in self._dates or e.dst in self._quantities):
                yield e

    def is_literal(self, key: str) -> bool:
        node = self.nodes.get(key)
        return node is not None and node.kind != "entity"

    def is_place(self, key: str) -> bool:
        node = self.nodes.get(key)
        return node is not None and any(normalize_text(t) in PLACE_TYPES for t in node.types)


def _kind(name: str, types: tuple[str, ...], *, is_subject: bool) -> NodeKind:
    norm_types = {normalize_text(t) for t in types}
    if norm_types & DATE_TYPES or (not is_subject and parse_date(name) is not None):
        return "date"
    q = parse_quantity(name)
    if norm_types & NUMBER_TYPES or (not is_subject and q is not None and q.dimension):
        return "quantity"
    if not is_subject and len(name) >= TEXT_VALUE_MIN_CHARS:
        return "text"
    return "entity"


def _alias_groups(triples: Iterable[KGTriple]) -> dict[str, frozenset[str]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for t in triples:
        if is_alias_relation(t.relation):
            a, b = find(normalize_text(t.sub)), find(normalize_text(t.obj))
            if a != b:
                parent[a] = b
    groups: dict[str, set[str]] = defaultdict(set)
    for x in list(parent):
        groups[find(x)].add(x)
    out: dict[str, frozenset[str]] = {}
    for members in groups.values():
        fs = frozenset(members)
        for m in members:
            out[m] = fs
    return out
