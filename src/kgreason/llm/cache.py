"""A persistent response cache (SQLite in WAL mode) and the `CachedLLM` wrapper that uses it.

The key is the sha256 of a canonical JSON of everything that decides a reply: the backend's identity (backend,
model or weights hash, URL, dialect, seed), the messages, the schema and the sampling parameters. Only validated
successes are stored: a failure may be transient and must be retried on the next run.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from kgreason.errors import KgreasonError
from kgreason.llm.schema import validate
from kgreason.llm.types import LLM, ChatMessage, LLMResult, LLMSuccess, Usage

# Bump when the key layout or stored shape changes, so old rows are simply never hit.
CACHE_FORMAT = 1


@runtime_checkable
class HasCacheIdentity(Protocol):
    def cache_identity(self) -> dict[str, Any]: ...


def cache_identity_of(llm: LLM) -> dict[str, Any]:
    """What makes `llm`'s replies the same for the same request: its own identity, else its name. Wrappers that
    change nothing in a reply (the circuit breaker) pass their inner model's on."""
    if isinstance(llm, HasCacheIdentity):
        return dict(llm.cache_identity())
    return {"name": llm.name}


@dataclass(frozen=True, slots=True)
class CachedReply:
    value: Any
    raw_text: str
    prompt_tokens: int
    completion_tokens: int


def canonical_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def cache_key(identity: dict[str, Any], messages: list[ChatMessage], schema: dict[str, Any], max_tokens: int) -> str:
    payload = {
        "format": CACHE_FORMAT,
        "llm": identity,
        "messages": [[m.role, m.content] for m in messages],
        "schema": schema,
        "sampling": {"temperature": 0, "max_tokens": max_tokens},
    }
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


class ResponseCache:
    """SQLite-backed store of validated replies; safe to share between threads (one connection, one lock)
    and between processes (WAL journal, busy timeout)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30.0, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS replies ("
                " key TEXT PRIMARY KEY, llm TEXT NOT NULL, value TEXT NOT NULL, raw_text TEXT NOT NULL,"
                " prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, created REAL NOT NULL)"
            )
        except sqlite3.Error as exc:
            raise KgreasonError(
                f"cannot open the LLM response cache {path}: {exc} "
                "(set KGREASON_LLM_CACHE=off to disable it, or KGREASON_CACHE_DIR to move it)"
            ) from exc
        self._lock = threading.Lock()

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value, raw_text, prompt_tokens, completion_tokens FROM replies WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        return CachedReply(value=json.loads(row[0]), raw_text=row[1], prompt_tokens=row[2], completion_tokens=row[3])

    def put(self, key: str, llm_name: str, result: LLMSuccess) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    llm_name,
                    canonical_json(result.value),
                    result.raw_text,
                    result.usage.prompt_tokens,
                    result.usage.completion_tokens,
                    time.time(),
                ),
            )

    def __len__(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM replies").fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedLLM:
    """Wraps a backend: a hit returns the stored value with `usage.cached=True` (original token counts, lookup
    seconds); a miss calls the backend and stores the reply if it is a success."""

    def __init__(self, inner: LLM, cache: ResponseCache, *, owns_cache: bool = False) -> None:
        self._inner = inner
        self._cache = cache
        self._owns_cache = owns_cache

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def inner(self) -> LLM:
        return self._inner

    def _identity(self) -> dict[str, Any]:
        return cache_identity_of(self._inner)

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        start = time.monotonic()
        key = cache_key(self._identity(), messages, schema, max_tokens)
        hit = self._cache.get(key)
        # The schema is part of the key, but a hand-edited or corrupted row must not bypass validation.
        if hit is not None and not validate(hit.value, schema):
            usage = Usage(
                prompt_tokens=hit.prompt_tokens,
                completion_tokens=hit.completion_tokens,
                seconds=time.monotonic() - start,
                cached=True,
            )
            return LLMSuccess(value=hit.value, model=self.name, usage=usage, raw_text=hit.raw_text)
        result = self._inner.complete_json(messages, schema, max_tokens=max_tokens)
        if result.ok:
            self._cache.put(key, self.name, result)
        return result

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if callable(close):
            close()
        if self._owns_cache:
            self._cache.close()
