"""Features of (question, candidate triple) pairs for the trained relevance model.

Two blocks, both computed from the frozen embedder and the strings alone (no question-entity list is needed, so the
scorer keeps the plain `TripleScorer` signature):
- `lexical` (named, see `LEXICAL_FEATURES`): e5 cosines of the question with the whole triple and with each part, and
  character/bigram overlaps of each part with the question. Head and tail are both described, because the model must
  learn itself which end the question names (usually the head) and which end is the answer.
- `interaction`: the element-wise products question⊙triple and question⊙relation of the e5 vectors; a linear layer
  on them is a diagonal bilinear similarity, i.e. a learned re-weighting of the embedding dimensions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kgreason.data.records import PathTriple
from kgreason.retrieve.base import Embedder, FloatArray, serialize_triple
from kgreason.retrieve.lexical import BM25, bigram_overlap, char_overlap, longest_common_substring, triple_text
from kgreason.text.normalize import normalize_text

LEXICAL_FEATURES: tuple[str, ...] = (
    "cos_triple",
    "cos_relation",
    "cos_head",
    "cos_tail",
    "rel_char_overlap",
    "rel_bigram_overlap",
    "rel_lcs_share",
    "rel_in_question",
    "head_char_overlap",
    "head_bigram_overlap",
    "head_in_question",
    "tail_char_overlap",
    "tail_bigram_overlap",
    "tail_in_question",
    "bm25_local",
    "log_rel_len",
    "log_tail_len",
)


@dataclass(frozen=True, slots=True)
class PairFeatures:
    """Features of one question against its candidates: `lexical` (n, len(LEXICAL_FEATURES)),
    `interaction` (n, 2 * dim)."""

    lexical: FloatArray
    interaction: FloatArray


def _contains(part: str, question: str) -> float:
    p = normalize_text(part)
    return 1.0 if p and p in normalize_text(question) else 0.0


def lexical_row(question: str, triple: PathTriple, bm25: float) -> list[float]:
    """The string-only entries of a row (the cosines are filled in by `pair_features`)."""
    s, r, o = triple
    rel_len = max(1, len(normalize_text(r)))
    return [
        char_overlap(r, question),
        bigram_overlap(r, question),
        longest_common_substring(r, question) / rel_len,
        _contains(r, question),
        char_overlap(s, question),
        bigram_overlap(s, question),
        _contains(s, question),
        char_overlap(o, question),
        bigram_overlap(o, question),
        _contains(o, question),
        bm25,
        math.log1p(len(normalize_text(r))),
        math.log1p(len(normalize_text(o))),
    ]


def pair_features(embedder: Embedder, question: str, triples: Sequence[PathTriple]) -> PairFeatures:
    """Features of every candidate; the embedder's cache makes repeated KG parts free."""
    n = len(triples)
    q = embedder.embed_queries([question])[0]
    parts = embedder.embed_passages(
        [serialize_triple(t) for t in triples]
        + [t[1] for t in triples]
        + [t[0] for t in triples]
        + [t[2] for t in triples]
    )
    tri, rel, head, tail = parts[:n], parts[n : 2 * n], parts[2 * n : 3 * n], parts[3 * n :]
    bm25 = BM25([triple_text(t) for t in triples]).scores(question) if n else []
    top = max(bm25) if bm25 else 0.0
    rows = np.zeros((n, len(LEXICAL_FEATURES)), dtype=np.float32)
    for i, t in enumerate(triples):
        # BM25 relative to the best candidate: raw BM25 grows with question length, the ratio does not
        rel_bm25 = bm25[i] / top if top > 0 else 0.0
        rows[i, :4] = (tri[i] @ q, rel[i] @ q, head[i] @ q, tail[i] @ q)
        rows[i, 4:] = lexical_row(question, t, rel_bm25)
    interaction = np.concatenate([tri * q, rel * q], axis=1).astype(np.float32)
    return PairFeatures(lexical=rows, interaction=interaction)
