"""Several documents' KGs joined into one graph the reasoner can walk, with each triple's document kept.

Nodes are identified by normalised name (`kgreason.kg.index`), so a name two documents share (`F-35B`) becomes one
node and a chain can cross from one document's triples into the other's. Triples keep their own text; their ids are
prefixed with the document (`doc_04:t12`), and `JoinedKG.documents_of` says where a triple was stated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kgreason.data.records import KGTriple, PathTriple
from kgreason.text.normalize import normalize_triple

JOIN_SEPARATOR = "+"


@dataclass(frozen=True, slots=True)
class JoinedKG:
    doc_id: str  # the joined documents' ids, joined by "+" (`doc_01+doc_04`)
    parts: tuple[str, ...]
    triples: tuple[KGTriple, ...]
    provenance: Mapping[PathTriple, tuple[str, ...]]  # normalised (s, r, o) -> documents stating it, corpus order

    def documents_of(self, triple: PathTriple) -> tuple[str, ...]:
        return self.provenance.get(normalize_triple(triple), ())


def joined_id(doc_ids: Sequence[str]) -> str:
    return JOIN_SEPARATOR.join(doc_ids)


def join_kgs(kgs: Mapping[str, Sequence[KGTriple]], doc_ids: Sequence[str]) -> JoinedKG:
    """The union of the documents' triples (a triple stated by several documents appears once)."""
    triples: list[KGTriple] = []
    provenance: dict[PathTriple, list[str]] = defaultdict(list)
    for doc_id in doc_ids:
        for t in kgs.get(doc_id, ()):
            key = normalize_triple(t.spo)
            if not provenance[key]:
                triples.append(KGTriple(f"{doc_id}:{t.triple_id}", t.sub, t.sub_type, t.relation, t.obj, t.obj_type))
            if doc_id not in provenance[key]:
                provenance[key].append(doc_id)
    return JoinedKG(joined_id(doc_ids), tuple(doc_ids), tuple(triples), {k: tuple(v) for k, v in provenance.items()})
