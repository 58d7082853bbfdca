"""A deterministic stand-in model for unit tests: replies come from a queue or a callable.

A reply may be a `str` (the raw text a model would emit: parsed and validated like any backend's output), any
other JSON value (serialised first), or a `FakeFailure` (returned as an `LLMFailure` of that kind). A `delay`
simulates slow models; a delay beyond `timeout` yields a `timeout` failure after `timeout` seconds.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kgreason.llm.reply import finish_reply
from kgreason.llm.schema import check_schema
from kgreason.llm.types import ChatMessage, FailureKind, LLMFailure, LLMResult, Usage


@dataclass(frozen=True, slots=True)
class FakeFailure:
    kind: FailureKind
    message: str = "simulated failure"


@dataclass(frozen=True, slots=True)
class FakeCall:
    messages: list[ChatMessage]
    schema: dict[str, Any]
    max_tokens: int


FakeReply = Any  # str | JSON value | FakeFailure
ReplyFn = Callable[[list[ChatMessage], dict[str, Any]], FakeReply]


class FakeLLM:
    """Deterministic test model. `calls` records every request in order."""

    def __init__(
        self,
        replies: ReplyFn | Iterable[FakeReply],
        *,
        name: str = "fake",
        delay: float = 0.0,
        timeout: float | None = None,
        tokens_per_char: float = 0.5,
    ) -> None:
        self._fn: ReplyFn | None = replies if callable(replies) else None
        self._queue: deque[FakeReply] = deque() if callable(replies) else deque(replies)
        self._name = name
        self._delay = delay
        self._timeout = timeout
        self._tokens_per_char = tokens_per_char
        self._lock = threading.Lock()
        self.calls: list[FakeCall] = []

    @property
    def name(self) -> str:
        return f"fake:{self._name}"

    def cache_identity(self) -> dict[str, Any]:
        return {"backend": "fake", "model": self._name}

    def _next_reply(self, messages: list[ChatMessage], schema: dict[str, Any]) -> FakeReply:
        if self._fn is not None:
            return self._fn(messages, schema)
        with self._lock:
            if not self._queue:
                return FakeFailure("server_error", "fake reply queue is empty")
            return self._queue.popleft()

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        check_schema(schema)
        with self._lock:
            self.calls.append(FakeCall(list(messages), schema, max_tokens))
        start = time.monotonic()
        if self._timeout is not None and self._delay > self._timeout:
            time.sleep(self._timeout)
            usage = Usage(seconds=time.monotonic() - start)
            return LLMFailure(
                kind="timeout", message=f"no reply within {self._timeout:g} s", model=self.name, usage=usage
            )
        if self._delay:
            time.sleep(self._delay)
        reply = self._next_reply(messages, schema)
        prompt_tokens = int(sum(len(m.content) for m in messages) * self._tokens_per_char)
        if isinstance(reply, FakeFailure):
            usage = Usage(prompt_tokens=prompt_tokens, seconds=time.monotonic() - start)
            return LLMFailure(kind=reply.kind, message=reply.message, model=self.name, usage=usage)
        text = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
        usage = Usage(
            prompt_tokens=prompt_tokens,
            completion_tokens=int(len(text) * self._tokens_per_char),
            seconds=time.monotonic() - start,
        )
        return finish_reply(text, schema, self.name, usage)
