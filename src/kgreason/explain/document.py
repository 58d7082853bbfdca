"""A document's sentences with character offsets, and the KG around one node, for a reader checking evidence.

Sentences are cut exactly as the trace cuts them when it locates an evidence triple (`reason.trace.SentenceFinder`),
so an evidence triple's offset is the start of one of these sentences."""

from __future__ import annotations

from dataclasses import dataclass

from kgreason.kg.index import KGIndex
from kgreason.reason.trace import SentenceFinder


@dataclass(frozen=True, slots=True)
class SentenceSpan:
    index: int
    start: int  # character offset in the document
    end: int  # exclusive: content[start:end] == text
    text: str


def document_sentences(content: str) -> list[SentenceSpan]:
    return [
        SentenceSpan(i, s.start, s.start + len(s.text), s.text) for i, s in enumerate(SentenceFinder(content).sentences)
    ]


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    center: str  # the node's name as the KG spells it
    nodes: tuple[str, ...]  # names, the centre first
    triples: tuple[tuple[str, str, str], ...]  # (sub, relation, obj) as in the KG, in KG order of discovery
    truncated: bool  # more triples were reachable than `max_triples`


def neighbourhood(index: KGIndex, name: str, *, hops: int = 1, max_triples: int = 200) -> Neighbourhood | None:
    """The KG triples within `hops` of the node called `name` (spelling normalised), breadth first, at most
    `max_triples` of them. None when the KG has no such node."""
    node = index.node(name)
    if node is None:
        return None
    seen_nodes = {node.key: node.name}
    triples: dict[tuple[str, str, str], None] = {}
    frontier = [node.key]
    truncated = False
    for _ in range(max(0, hops)):
        nxt: list[str] = []
        for key in frontier:
            for edge in index.edges(key):
                spo = edge.triple.spo
                if spo in triples:
                    continue
                if len(triples) >= max_triples:
                    truncated = True
                    break
                triples[spo] = None
                if edge.dst not in seen_nodes:
                    seen_nodes[edge.dst] = index.name(edge.dst)
                    nxt.append(edge.dst)
        frontier = nxt
    return Neighbourhood(node.name, tuple(seen_nodes.values()), tuple(triples), truncated)
