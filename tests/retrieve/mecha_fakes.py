"""Test doubles for the retrieve tests (imported by conftest and tests; not a test module)."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

from kgreason.retrieve.base import FloatArray


class CharEmbedder:
    """Each character adds to one of `dim` buckets (crc32 of the character); rows L2-normalised."""

    def __init__(self, dim: int = 64) -> None:
        self._dim = dim

    @property
    def name(self) -> str:
        return "char-bag"

    @property
    def dim(self) -> int:
        return self._dim

    def _embed(self, texts: Sequence[str]) -> FloatArray:
        out = np.zeros((len(texts), self._dim), np.float32)
        for i, t in enumerate(texts):
            for ch in t:
                out[i, zlib.crc32(ch.encode()) % self._dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms

    def embed_queries(self, texts: Sequence[str]) -> FloatArray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> FloatArray:
        return self._embed(texts)
