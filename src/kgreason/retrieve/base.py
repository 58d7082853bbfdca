"""Contracts shared by the reasoner and the relevance model: text embedders and triple relevance scorers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from kgreason.data.records import PathTriple

FloatArray = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised vectors; queries and passages may be encoded differently (e5 prefixes)."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed_queries(self, texts: Sequence[str]) -> FloatArray:
        """Shape (len(texts), dim), rows L2-normalised."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> FloatArray:
        """Shape (len(texts), dim), rows L2-normalised."""
        ...


@runtime_checkable
class TripleScorer(Protocol):
    """Relevance of KG triples to a question, higher = more relevant, comparable within one call."""

    @property
    def name(self) -> str: ...

    def score(self, question: str, triples: Sequence[PathTriple]) -> list[float]: ...


@runtime_checkable
class RelationScorer(Protocol):
    """Scores of candidate relation names for a question: higher = the question asks about it; comparable within
    one call only."""

    @property
    def name(self) -> str: ...

    def score(self, question: str, relations: Sequence[str]) -> list[float]: ...


def serialize_triple(triple: PathTriple) -> str:
    """The paper's linear serialisation of a triple: `[s, r, o]`."""
    return f"[{triple[0]}, {triple[1]}, {triple[2]}]"
