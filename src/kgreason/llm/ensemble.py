"""Several models answering together: each member is asked, the results are combined by vote.

The caller decides what is voted on with a key function over the result value (e.g. `lambda v: v["answer"]`, or
the path); the key's canonical JSON is compared, so dicts and lists work as keys. The most-voted key wins, ties go
to the key whose first voter comes earliest in member order, and the returned value is that first voter's value.
`confidence` is the fraction of *all* members (failed ones included) that voted for the winner.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kgreason.llm.cache import canonical_json
from kgreason.llm.types import LLM, Ballot, ChatMessage, FailureKind, LLMFailure, LLMResult, LLMSuccess, Usage

VoteKey = Callable[[Any], Any]


def whole_value(value: Any) -> Any:
    """The default vote key: the complete result value."""
    return value


class EnsembleLLM:
    """An `LLM` made of members; `complete_json` accepts an extra `vote_key` (see `complete_json_voted`)."""

    def __init__(self, members: Sequence[LLM], *, vote_key: VoteKey = whole_value, parallel: bool = True) -> None:
        if not members:
            raise ValueError("an ensemble needs at least one member")
        self.members: tuple[LLM, ...] = tuple(members)
        self._vote_key = vote_key
        # Members on different servers gain from asking them at once; several in-process models on the same
        # few cores only slow each other down, so the factory turns this off for them.
        self._parallel = parallel and len(self.members) > 1

    @property
    def name(self) -> str:
        return "ensemble(" + ",".join(m.name for m in self.members) + ")"

    def _ask_all(self, messages: list[ChatMessage], schema: dict[str, Any], max_tokens: int) -> list[LLMResult]:
        if not self._parallel:
            return [m.complete_json(messages, schema, max_tokens=max_tokens) for m in self.members]
        with ThreadPoolExecutor(max_workers=len(self.members), thread_name_prefix="kgreason-ensemble") as pool:
            futures = [pool.submit(m.complete_json, messages, schema, max_tokens=max_tokens) for m in self.members]
            return [f.result() for f in futures]

    def complete_json(
        self,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        *,
        max_tokens: int = 256,
        vote_key: VoteKey | None = None,
    ) -> LLMResult:
        start = time.monotonic()
        results = self._ask_all(messages, schema, max_tokens)
        seconds = time.monotonic() - start
        return combine(results, vote_key or self._vote_key, name=self.name, seconds=seconds)

    def close(self) -> None:
        for member in self.members:
            close = getattr(member, "close", None)
            if callable(close):
                close()


def _key_of(result: LLMResult, key_fn: VoteKey) -> str | None:
    if not result.ok:
        return None
    try:
        return canonical_json(key_fn(result.value))
    except (TypeError, ValueError, KeyError, IndexError):
        return None  # a key function that cannot read this value counts as an abstention


def combine(results: Sequence[LLMResult], key_fn: VoteKey, *, name: str, seconds: float) -> LLMResult:
    """Vote over member results (in member order)."""
    usage = Usage(
        prompt_tokens=sum(r.usage.prompt_tokens for r in results),
        completion_tokens=sum(r.usage.completion_tokens for r in results),
        seconds=seconds,
        cached=bool(results) and all(r.usage.cached for r in results),
    )
    keys = [_key_of(r, key_fn) for r in results]
    counts = Counter(k for k in keys if k is not None)
    if not counts:
        kinds: Counter[FailureKind] = Counter(r.kind for r in results if not r.ok)
        # The most frequent failure kind; ties resolved by member order (Counter keeps insertion order).
        kind: FailureKind = kinds.most_common(1)[0][0] if kinds else "schema_mismatch"
        detail = "; ".join(f"{r.model}: {r.kind}: {r.message}" if not r.ok else f"{r.model}: no vote" for r in results)
        return LLMFailure(kind=kind, message=f"no member produced a usable result ({detail})", model=name, usage=usage)
    best = max(counts.values())
    winner = next(k for k in keys if k is not None and counts[k] == best)  # first in member order among the tied
    ballots = tuple(
        Ballot(
            model=r.model,
            ok=r.ok,
            key=k,
            agrees=k == winner,
            failure_kind=None if r.ok else r.kind,
        )
        for r, k in zip(results, keys, strict=True)
    )
    chosen = next(r for r, k in zip(results, keys, strict=True) if k == winner)
    assert isinstance(chosen, LLMSuccess)
    return LLMSuccess(
        value=chosen.value,
        model=name,
        usage=usage,
        raw_text=chosen.raw_text,
        confidence=best / len(results),
        ballots=ballots,
    )


def complete_json_voted(
    llm: LLM,
    messages: list[ChatMessage],
    schema: dict[str, Any],
    *,
    vote_key: VoteKey,
    max_tokens: int = 256,
) -> LLMResult:
    """Ask `llm`; if it is an ensemble, vote on `vote_key(value)`. A single model returns its result unchanged
    (confidence 1.0), so callers can use this everywhere."""
    if isinstance(llm, EnsembleLLM):
        return llm.complete_json(messages, schema, max_tokens=max_tokens, vote_key=vote_key)
    return llm.complete_json(messages, schema, max_tokens=max_tokens)
