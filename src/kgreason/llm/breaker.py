"""A circuit breaker: stop asking a model that keeps failing for the server's sake, for a while.

After `failures` consecutive calls that ended `unavailable`, `timeout` or `server_error`, the breaker opens: calls
fail at once as `circuit_open` (the reasoner then keeps its own choice, as for any failure) for `cooldown` seconds.
Then one trial call goes through (half-open): a success closes the breaker, a failure opens it again. Replies the
model got wrong (`invalid_json`, `schema_mismatch`) show the server is alive and reset the count.

So a dead server costs `failures` timeouts per cool-down, not one per question.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from kgreason.llm.cache import cache_identity_of
from kgreason.llm.types import LLM, ChatMessage, LLMFailure, LLMResult, Usage

SERVER_FAULTS = frozenset({"unavailable", "timeout", "server_error"})


class CircuitBreakerLLM:
    """Wraps a backend (below the response cache, so cached replies are still served while it is open)."""

    def __init__(
        self,
        inner: LLM,
        *,
        failures: int,
        cooldown: float,
        notice: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner = inner
        self._threshold = failures
        self._cooldown = cooldown
        self._notice = notice
        self._clock = clock
        self._lock = threading.Lock()
        self._consecutive = 0
        self._open_until: float | None = None  # None: closed
        self._trial_running = False
        self.times_opened = 0
        self.skipped = 0  # calls answered `circuit_open` without asking the model

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def inner(self) -> LLM:
        return self._inner

    def cache_identity(self) -> dict[str, Any]:
        return cache_identity_of(self._inner)

    def _admit(self) -> bool:
        """Whether this call may ask the model (closed, or the one trial call once the cool-down is over)."""
        with self._lock:
            if self._open_until is None:
                return True
            if self._clock() >= self._open_until and not self._trial_running:
                self._trial_running = True
                return True
            self.skipped += 1
            return False

    def _after(self, result: LLMResult) -> None:
        opened = False
        with self._lock:
            self._trial_running = False
            if result.ok or result.kind not in SERVER_FAULTS:
                self._consecutive = 0
                self._open_until = None
                return
            self._consecutive += 1
            if self._open_until is not None or self._consecutive >= self._threshold:
                opened = self._open_until is None
                self._open_until = self._clock() + self._cooldown
                if opened:
                    self.times_opened += 1
            count = self._consecutive
        if opened and self._notice is not None:
            self._notice(
                f"LLM {self.name}: {count} calls in a row failed ({result.kind}); not asking it for "
                f"{self._cooldown:g} s, the program's own choices stand meanwhile"
            )

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        if self._threshold <= 0:
            return self._inner.complete_json(messages, schema, max_tokens=max_tokens)
        if not self._admit():
            return LLMFailure(
                kind="circuit_open",
                message=f"not asked: {self._consecutive} consecutive failures, retried after the cool-down",
                model=self.name,
                usage=Usage(),
            )
        try:
            result = self._inner.complete_json(messages, schema, max_tokens=max_tokens)
        except BaseException:
            with self._lock:
                self._trial_running = False
            raise
        self._after(result)
        return result

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if callable(close):
            close()
