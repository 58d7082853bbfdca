"""Chains of KG edges from a start node, enumerated breadth-first under a beam.

A chain never revisits a node (alias-joined names count as one node) and never walks *through* a date or number
literal (two events on the same day are not related by that). Its triples are the KG's own, in the KG's
direction, whichever way the chain walks them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from kgreason.data.records import PathTriple
from kgreason.kg.index import Edge, KGIndex
from kgreason.text.normalize import normalize_text

Signature = tuple[tuple[str, bool], ...]  # (normalised relation, forward) per hop


@dataclass(frozen=True, slots=True)
class Chain:
    start: str  # normalised key of the start node
    edges: tuple[Edge, ...]
    nodes: tuple[str, ...] = ()  # start, then each edge's destination (filled in by `__post_init__`)
    # hops along the relation the previous hop took, the same way (a climb: `effective_hops`); -1 until counted
    climbs: int = field(default=-1, compare=False)

    def __post_init__(self) -> None:
        if not self.nodes:
            object.__setattr__(self, "nodes", (self.start, *(e.dst for e in self.edges)))
        if self.climbs < 0:
            object.__setattr__(self, "climbs", sum(1 for a, b in pairwise(self.edges) if _climbs(a, b)))

    @property
    def end(self) -> str:
        return self.nodes[-1]

    @property
    def hops(self) -> int:
        return len(self.edges)

    @property
    def triples(self) -> tuple[PathTriple, ...]:
        return tuple(e.triple.spo for e in self.edges)

    @property
    def signature(self) -> Signature:
        return tuple((normalize_text(e.relation), e.forward) for e in self.edges)

    @property
    def sibling_detours(self) -> int:
        """Steps `X -r-> Y <-r- Z`: out along a relation and back along the same one, to another node that shares Y
        (rarely what a question asks, unless it asks for a sibling: `与大连舰同一天入列的…`)."""
        return sum(1 for a, b in pairwise(self.edges) if a.relation == b.relation and a.forward != b.forward)

    def extend(self, edge: Edge) -> Chain:
        climbs = self.climbs + (1 if self.edges and _climbs(self.edges[-1], edge) else 0)
        return Chain(self.start, (*self.edges, edge), (*self.nodes, edge.dst), climbs)


def _climbs(previous: Edge, edge: Edge) -> bool:
    """`edge` goes on along `previous`'s relation, the same way (`团 隶属 师`, then `师 隶属 军`)."""
    return edge.forward == previous.forward and edge.relation == previous.relation


def can_pass_through(index: KGIndex, key: str) -> bool:
    """Whether a chain may continue from `key` (literals and long texts end a chain)."""
    return not index.is_literal(key)


def expand(index: KGIndex, chain: Chain, *, climbs_only: bool = False) -> Iterator[Chain]:
    """One-hop extensions of `chain` that do not revisit a node or its aliases (`climbs_only`: only those along the
    relation the last hop took, the same way)."""
    if chain.hops and not can_pass_through(index, chain.end):
        return
    last = chain.edges[-1] if chain.edges else None
    if climbs_only and last is None:
        return
    nodes = set(chain.nodes)
    aliases: set[str] = set()
    for n in chain.nodes:
        aliases |= index.alias_group(n)
    for e in index.edges(chain.end):
        if climbs_only and last is not None and not _climbs(last, e):
            continue
        # an alias edge may step to another name of a node; any other edge must reach a new thing
        if e.dst in nodes or (e.dst in aliases and not e.is_alias):
            continue
        yield chain.extend(e)


def effective_hops(chain: Chain) -> int:
    """Hops that count against the hop limit: a leading alias hop (from the name the question uses to the node
    the KG describes) is free, and so is a hop along the relation the previous hop took, the same way: climbing a
    hierarchy (`团 隶属 师 隶属 军`) is one step of the question (`那位战士属于哪个军`)."""
    lead = 1 if chain.edges and chain.edges[0].is_alias else 0
    return len(chain.edges) - lead - chain.climbs


def _extendable(index: KGIndex, chain: Chain, max_hops: int) -> bool:
    if chain.hops == 1 and chain.edges[0].is_alias:
        return True  # the free alias hop
    # at the limit a chain may still climb (a hop along its last relation is free)
    return can_pass_through(index, chain.end) and effective_hops(chain) <= max_hops


def search_chains(
    index: KGIndex,
    starts: list[str],
    *,
    max_hops: int,
    beam: int,
    prefix_score: Callable[[Chain], float],
    max_chains: int = 20000,
) -> list[Chain]:
    """Every chain of 1..max_hops hops (a leading alias hop is free) from `starts` whose prefixes stayed in the beam.

    At each depth all extensions of the kept prefixes are returned; only the best `beam` of them (by
    `prefix_score`) are extended further. `max_chains` bounds the work on hub-heavy KGs.
    """
    frontier = [Chain(s, ()) for s in starts if index.edges(s)]
    out: list[Chain] = []
    while frontier and len(out) < max_chains:
        nxt: list[Chain] = []
        for c in frontier:
            # at the limit only a climb extends a chain (a hop along its last relation is free)
            nxt.extend(expand(index, c, climbs_only=effective_hops(c) >= max_hops))
            if len(out) + len(nxt) >= max_chains:
                break
        out.extend(nxt)
        nxt.sort(key=prefix_score, reverse=True)
        frontier = [c for c in nxt if _extendable(index, c, max_hops)][:beam]
    return out


def follow_signature(index: KGIndex, start: str, signature: Signature) -> list[Chain]:
    """All chains from `start` with exactly this relation/direction sequence (the members of a set answer)."""
    chains = [Chain(start, ())]
    for rel, fwd in signature:
        nxt: list[Chain] = []
        for c in chains:
            if c.hops and not can_pass_through(index, c.end):
                continue
            for e in index.edges(c.end):
                if e.forward == fwd and normalize_text(e.relation) == rel and e.dst not in c.nodes:
                    nxt.append(c.extend(e))
        chains = nxt
    return chains


def connect(index: KGIndex, sources: list[str], target: str, *, max_hops: int = 2) -> Chain | None:
    """A shortest chain from any of `sources` to `target` (or one of its aliases), breadth-first; None if none."""
    goal = index.alias_group(target)
    for s in sources:
        if s in goal:
            return Chain(s, ())
    frontier = [Chain(s, ()) for s in sources]
    for _ in range(max_hops):
        nxt: list[Chain] = []
        for c in frontier:
            for x in expand(index, c):
                if x.end in goal:
                    return x
                nxt.append(x)
        frontier = [c for c in nxt if can_pass_through(index, c.end)]
    return None
