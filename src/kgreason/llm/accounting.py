"""Counting what model calls cost: calls, cache hits, failures by kind, tokens and seconds, per model.

Tokens count what a model actually processed: a cache hit adds a hit and its lookup time, not its tokens.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from kgreason.llm.types import LLM, ChatMessage, LLMResult


@dataclass(slots=True)
class ModelStats:
    calls: int = 0
    cache_hits: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0

    def add(self, result: LLMResult) -> None:
        self.calls += 1
        self.seconds += result.usage.seconds
        if result.usage.cached:
            self.cache_hits += 1
        else:
            self.prompt_tokens += result.usage.prompt_tokens
            self.completion_tokens += result.usage.completion_tokens
        if not result.ok:
            self.failures[result.kind] = self.failures.get(result.kind, 0) + 1

    def merge(self, other: ModelStats) -> None:
        self.calls += other.calls
        self.cache_hits += other.cache_hits
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.seconds += other.seconds
        for kind, n in other.failures.items():
            self.failures[kind] = self.failures.get(kind, 0) + n

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelStats:
        """The inverse of `as_dict` (fields missing from an older record count 0)."""
        kinds = data.get("failures_by_kind") or {}
        return cls(
            calls=int(data.get("calls", 0)),
            cache_hits=int(data.get("cache_hits", 0)),
            failures={str(k): int(n) for k, n in kinds.items()},
            prompt_tokens=int(data.get("prompt_tokens", 0)),
            completion_tokens=int(data.get("completion_tokens", 0)),
            seconds=float(data.get("seconds", 0.0)),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "failures": sum(self.failures.values()),
            "failures_by_kind": dict(sorted(self.failures.items())),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "seconds": round(self.seconds, 3),
        }


class Accounting:
    """Thread-safe tally of model calls. Create one per run and pass it to `create_llm`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._models: dict[str, ModelStats] = {}

    def record(self, model: str, result: LLMResult) -> None:
        with self._lock:
            self._models.setdefault(model, ModelStats()).add(result)

    def total(self) -> ModelStats:
        total = ModelStats()
        with self._lock:
            for stats in self._models.values():
                total.merge(stats)
        return total

    def summary(self) -> dict[str, Any]:
        """JSON-ready: `{"total": {...}, "models": {name: {...}}}` with calls, cache_hits, failures,
        failures_by_kind, prompt_tokens, completion_tokens, seconds."""
        with self._lock:
            models = {name: stats.as_dict() for name, stats in sorted(self._models.items())}
        return {"total": self.total().as_dict(), "models": models}

    def line(self) -> str:
        """One human line, e.g. `LLM: 12 calls (3 cached, 1 failed: timeout=1), 4,210+96 tokens, 31.4 s`."""
        t = self.total()
        failed = sum(t.failures.values())
        parts = [f"{t.cache_hits} cached"]
        if failed:
            kinds = ", ".join(f"{k}={n}" for k, n in sorted(t.failures.items()))
            parts.append(f"{failed} failed: {kinds}")
        skipped = t.failures.get("circuit_open", 0)
        if skipped:
            parts.append(
                f"circuit breaker: {skipped} calls not sent to a model that kept failing, the program's choice kept"
            )
        with self._lock:
            n_models = len(self._models)
        models = f", {n_models} models" if n_models > 1 else ""
        return (
            f"LLM: {t.calls} calls ({'; '.join(parts)}), "
            f"{t.prompt_tokens:,}+{t.completion_tokens:,} tokens, {t.seconds:.1f} s{models}"
        )

    def __str__(self) -> str:
        return self.line()


def merge_summaries(summaries: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    """Several `Accounting.summary()` dicts (e.g. one per attempt of a resumed run) added up, in the same shape;
    None when none of them is a summary."""
    present = [s for s in summaries if isinstance(s, dict)]
    if not present:
        return None
    models: dict[str, ModelStats] = {}
    for summary in present:
        for name, data in (summary.get("models") or {}).items():
            models.setdefault(name, ModelStats()).merge(ModelStats.from_dict(data))
    total = ModelStats()
    for stats in models.values():
        total.merge(stats)
    return {"total": total.as_dict(), "models": {name: models[name].as_dict() for name in sorted(models)}}


class AccountedLLM:
    """Wraps a model (usually a `CachedLLM`) and records every result in an `Accounting`."""

    def __init__(self, inner: LLM, accounting: Accounting) -> None:
        self._inner = inner
        self.accounting = accounting

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def inner(self) -> LLM:
        return self._inner

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        result = self._inner.complete_json(messages, schema, max_tokens=max_tokens)
        self.accounting.record(self.name, result)
        return result

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if callable(close):
            close()
