"""A corpus-wide entity index: which documents a question's names link to.

Each document keeps its own `KGIndex` and `NameTable` (the reasoner's, `kgreason.reason.link`); linking a question
against the corpus is linking it against every document's table. A document's claim on a question is the part of
the question its links cover (exact links count fully, partial and fuzzy ones by their confidence): the best
document answers, and a document is joined to it when it covers a name the best one does not know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kgreason.kg.index import KGIndex
from kgreason.reason.link import Mention, NameTable, link_mentions
from kgreason.reason.textmap import map_text
from kgreason.text.normalize import normalize_text

STRONG_LINKS = ("exact", "core")
MIN_SHARED_SCORE = 0.55  # links below this come from the "word inside several names" fallback: a weak claim
MIN_SPAN_PARTIAL_SCORE = 0.75  # a partial link spelling at least half of a name (`kgreason.reason.link` scores)
MAX_JOINED_DOCUMENTS = 3
CLOSEST_NAMES = 5


@dataclass(frozen=True, slots=True)
class CorpusLink:
    """A question's mention of a KG node of one document."""

    doc_id: str
    text: str  # as the question spells it
    name: str  # the node's name in that document's KG
    how: str  # exact | core | partial | fuzzy (kgreason.reason.link)
    score: float


@dataclass(frozen=True, slots=True)
class DocumentChoice:
    """The documents a question is answered over (best first), every link that chose them, and the other documents
    that know one of the same names (a join with them may answer what the chosen ones alone cannot)."""

    doc_ids: tuple[str, ...]
    links: tuple[CorpusLink, ...]
    bridges: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return bool(self.doc_ids)


@dataclass(frozen=True, slots=True)
class _Claim:
    doc_id: str
    mentions: tuple[Mention, ...]
    strong: frozenset[int]  # normalised question positions covered by exact links
    weight: float


class CorpusIndex:
    """Names and aliases of every document's KG -> (doc_id, node), over per-document tables built on demand."""

    def __init__(
        self,
        doc_ids: list[str],
        index_of: Callable[[str], KGIndex],
        names_of: Callable[[str], NameTable],
    ) -> None:
        self.doc_ids = list(doc_ids)
        self._index_of = index_of
        self._names_of = names_of

    def link(self, question: str) -> list[CorpusLink]:
        """Every document's links for the question, documents in corpus order."""
        return [link for claim in self._claims(question) for link in self._links(claim)]

    def choose(self, question: str) -> DocumentChoice:
        """The document that covers most of the question's names, joined by any that cover a name it misses."""
        claims = [c for c in self._claims(question) if c.mentions]
        if not claims:
            return DocumentChoice((), ())
        claims.sort(key=lambda c: (-len(c.strong), -c.weight, self.doc_ids.index(c.doc_id)))
        best = claims[0]
        chosen = [best]
        covered = set(best.strong)
        for claim in claims[1:]:
            if len(chosen) >= MAX_JOINED_DOCUMENTS:
                break
            if claim.strong - covered:
                chosen.append(claim)
                covered |= claim.strong
        if not best.strong and max(m.score for m in best.mentions) < MIN_SHARED_SCORE:
            return DocumentChoice((), tuple(link for c in claims for link in self._links(c)))
        bridges = tuple(c.doc_id for c in claims if c not in chosen and c.strong & covered)
        return DocumentChoice(
            tuple(c.doc_id for c in chosen), tuple(link for c in chosen for link in self._links(c)), bridges
        )

    def spans(self, question: str) -> list[tuple[int, int, str]]:
        """Names the question spells over the whole corpus (exact links, and partial ones that spell most of a name:
        `威尔士亲王号` for `威尔士亲王号航空母舰`): (start, end) in the question as written and the KG name, longest
        first without overlaps, then in question order."""
        mapped = map_text(question)
        found: list[tuple[int, int, str]] = []
        for claim in self._claims(question):
            index = self._index_of(claim.doc_id)
            for m in claim.mentions:
                if m.how in STRONG_LINKS or (m.how == "partial" and m.score >= MIN_SPAN_PARTIAL_SCORE):
                    a, b = mapped.span(m.start, m.end)
                    found.append((a, b, index.name(m.key)))
        taken: list[tuple[int, int, str]] = []
        for a, b, name in sorted(dict.fromkeys(found), key=lambda x: (x[0] - x[1], x[0], x[2])):
            if not any(a < e and s < b for s, e, _ in taken):
                taken.append((a, b, name))
        return sorted(taken)

    def documents_with(self, name: str) -> list[str]:
        """Documents whose KG has a node of this name (normalised)."""
        key = normalize_text(name)
        return [d for d in self.doc_ids if key in self._index_of(d).nodes]

    def closest_names(self, question: str, limit: int = CLOSEST_NAMES) -> list[str]:
        """Entity names of the corpus sharing most character bigrams with the question (for "not found")."""
        nq = normalize_text(question)
        grams = {nq[i : i + 2] for i in range(len(nq) - 1)}
        chars = set(nq)
        scored: dict[str, float] = {}
        for doc_id in self.doc_ids:
            for node in self._index_of(doc_id).nodes.values():
                if node.kind != "entity" or len(node.key) < 2:
                    continue
                own = {node.key[i : i + 2] for i in range(len(node.key) - 1)}
                # shared bigrams first; shared characters only break ties (and keep a list when no bigram is shared)
                share = len(own & grams) / len(own) + 0.1 * len(set(node.key) & chars) / len(set(node.key))
                if share > 0:
                    scored[node.name] = max(scored.get(node.name, 0.0), share)
        ranked = sorted(scored.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))
        return [name for name, _ in ranked[:limit]]

    # ------------------------------------------------------------------------------------------------------
    def _claims(self, question: str) -> list[_Claim]:
        mapped = map_text(question)
        out: list[_Claim] = []
        for doc_id in self.doc_ids:
            mentions = tuple(link_mentions(self._names_of(doc_id), mapped))
            strong = frozenset(i for m in mentions if m.how in STRONG_LINKS for i in range(m.start, m.end))
            out.append(_Claim(doc_id, mentions, strong, sum(m.weight for m in mentions)))
        return out

    def _links(self, claim: _Claim) -> list[CorpusLink]:
        index = self._index_of(claim.doc_id)
        return [CorpusLink(claim.doc_id, m.text, index.name(m.key), m.how, m.score) for m in claim.mentions]
