"""A persistent on-disk cache of embedding vectors, one `.npz` file per embedder and text kind.

Vectors are keyed by the SHA-1 of the exact text (the e5 prefix is implied by the kind, `query` or `passage`), so a
changed text is a new entry and nothing ever goes stale. Files are written atomically (temporary file + rename) and
merged with what is already on disk, so two processes sharing the cache lose at most each other's newest entries,
never the file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from kgreason.retrieve.base import FloatArray

ENV_CACHE_DIR = "KGREASON_CACHE_DIR"  # the same variable as the LLM layer's cache root


def default_cache_root(env: Mapping[str, str] | None = None) -> Path:
    """`$KGREASON_CACHE_DIR`, else `~/.cache/kgreason` (the root shared with the LLM layer)."""
    env = os.environ if env is None else env
    if env.get(ENV_CACHE_DIR):
        return Path(env[ENV_CACHE_DIR]).expanduser()
    return Path.home() / ".cache" / "kgreason"


def default_embedding_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    return default_cache_root(env) / "embeddings"


def text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class VectorCache:
    """Text-hash -> vector store backed by one `.npz` file; loaded lazily, saved by `flush()`."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path = path
        self.dim = dim
        self._vectors: dict[str, FloatArray] | None = None
        self._dirty = False

    def _loaded(self) -> dict[str, FloatArray]:
        if self._vectors is None:
            self._vectors = self._read()
        return self._vectors

    def _read(self) -> dict[str, FloatArray]:
        if not self.path.exists():
            return {}
        try:
            with np.load(self.path, allow_pickle=False) as data:
                keys = [str(k) for k in data["keys"]]
                vecs = np.asarray(data["vectors"], dtype=np.float32)
        except (OSError, ValueError, KeyError):
            return {}  # an unreadable cache is only a cache: start again rather than fail the run
        if vecs.ndim != 2 or vecs.shape[1] != self.dim or len(keys) != vecs.shape[0]:
            return {}
        return {k: vecs[i] for i, k in enumerate(keys)}

    def get_many(self, texts: Sequence[str]) -> list[FloatArray | None]:
        store = self._loaded()
        return [store.get(text_key(t)) for t in texts]

    def put_many(self, texts: Sequence[str], vectors: FloatArray) -> None:
        store = self._loaded()
        for t, v in zip(texts, vectors, strict=True):
            store[text_key(t)] = np.asarray(v, dtype=np.float32)
        if len(texts):
            self._dirty = True

    def __len__(self) -> int:
        return len(self._loaded())

    def flush(self) -> None:
        """Merge with the file on disk and write it back atomically (no-op when nothing was added)."""
        if not self._dirty or self._vectors is None:
            return
        merged = self._read()
        merged.update(self._vectors)
        self._vectors = merged
        keys = np.array(sorted(merged), dtype="U40")
        vecs = (
            np.stack([merged[str(k)] for k in keys]).astype(np.float32)
            if len(keys)
            else np.zeros((0, self.dim), np.float32)
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.stem}.", suffix=".npz", dir=self.path.parent)
        os.close(fd)
        try:
            np.savez(tmp, keys=keys, vectors=vecs)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._dirty = False
