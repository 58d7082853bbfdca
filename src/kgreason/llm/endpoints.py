"""One model served by several endpoints (`openai:URL1,URL2#MODEL`): requests spread over the healthy ones.

- Each request goes to the healthy endpoint with the fewest requests in flight (ties in turn), so N workers keep
  every server busy.
- An endpoint that fails for its own sake (connection refused or reset, HTTP 429/5xx, no whole reply in time, a body
  that is not the API's shape) is left out for `cooldown` seconds and the request goes to the next endpoint at once
  (within the same total deadline; a failed request is not retried on the endpoint that failed it). After the
  cool-down one request probes it: a success takes it back, a failure leaves it out for another cool-down. So a dead
  endpoint costs one failed request per cool-down, not one per question.
- A failure that is the request's own (HTTP 4xx, a reply that is not JSON or breaks the schema) would be the same
  elsewhere: it is returned as it is.
- With every endpoint left out, a call fails at once as `unavailable`; the circuit breaker above the pool
  (`kgreason.llm.breaker`) and the program's own choice then behave as for one dead server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kgreason.llm.dialects import Dialect
from kgreason.llm.schema import check_schema
from kgreason.llm.served import ServedLLM
from kgreason.llm.types import ChatMessage, LLMFailure, LLMResult, Usage


@dataclass(slots=True)
class EndpointHealth:
    """What the pool knows about one endpoint."""

    url: str
    in_flight: int = 0
    requests: int = 0
    failures: int = 0
    times_left_out: int = 0
    down_until: float | None = None  # None: healthy
    probing: bool = False  # the one request sent after the cool-down is running

    def as_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "requests": self.requests,
            "failures": self.failures,
            "times_left_out": self.times_left_out,
            "healthy": self.down_until is None,
        }


class EndpointPool:
    """An `LLM` over several `ServedLLM`s of the same model (same dialect). Thread-safe."""

    def __init__(
        self,
        endpoints: Sequence[ServedLLM],
        *,
        model: str,
        dialect: Dialect,
        timeout: float,
        cooldown: float,
        notice: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(endpoints) < 2:
            raise ValueError("an endpoint pool needs at least two endpoints")
        self._endpoints = tuple(endpoints)
        self._model = model
        self._dialect = dialect
        self._timeout = timeout
        self._cooldown = cooldown
        self._notice = notice
        self._clock = clock
        self._lock = threading.Lock()
        self._health = [EndpointHealth(e.base_url) for e in self._endpoints]
        self._turn = 0  # round-robin among equally loaded endpoints

    @property
    def name(self) -> str:
        return f"openai:{','.join(h.url for h in self._health)}#{self._model}"

    @property
    def endpoints(self) -> tuple[ServedLLM, ...]:
        return self._endpoints

    def cache_identity(self) -> dict[str, Any]:
        """The same reply whichever endpoint gives it: the identity names them all (sorted) and the model."""
        return {
            "backend": "openai",
            "urls": sorted(h.url for h in self._health),
            "model": self._model,
            "dialect": self._dialect,
        }

    def health(self) -> list[dict[str, Any]]:
        with self._lock:
            return [h.as_dict() for h in self._health]

    def _pick(self, tried: set[int]) -> tuple[int, bool] | None:
        """The endpoint for the next attempt (its in-flight count taken) and whether the attempt is its probe, or
        None when none is usable: an endpoint due for its probe first, else the healthy one with the fewest
        requests in flight."""
        now = self._clock()
        with self._lock:
            n = len(self._health)
            order = [(self._turn + k) % n for k in range(n)]
            self._turn = (self._turn + 1) % n
            chosen: int | None = None
            probe = False
            for i in order:
                h = self._health[i]
                if i in tried:
                    continue
                if h.down_until is not None:
                    if now >= h.down_until and not h.probing:
                        h.probing = probe = True
                        chosen = i
                        break
                    continue
                if chosen is None or h.in_flight < self._health[chosen].in_flight:
                    chosen = i
            if chosen is None:
                return None
            self._health[chosen].in_flight += 1
            self._health[chosen].requests += 1
            return chosen, probe

    def _after(self, i: int, probe: bool, failed: bool, message: str) -> None:
        """Book an attempt's outcome. Only the probe brings a left-out endpoint back: a request sent before it
        failed may still succeed afterwards, which says nothing about it now."""
        said = ""
        with self._lock:
            h = self._health[i]
            h.in_flight -= 1
            was_down = h.down_until is not None
            if probe:
                h.probing = False
            if failed:
                h.failures += 1
                h.down_until = self._clock() + self._cooldown
                if not was_down:
                    h.times_left_out += 1
                    said = (
                        f"LLM endpoint {h.url} failed ({message[:160]}); left out for {self._cooldown:g} s, its "
                        "requests go to the other endpoints"
                    )
            elif was_down and probe:
                h.down_until = None
                said = f"LLM endpoint {h.url} answers again; requests go to it too"
        if said and self._notice is not None:
            self._notice(said)

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        check_schema(schema)
        start = time.monotonic()
        deadline = start + self._timeout  # one total deadline, whichever endpoints answer
        tried: set[int] = set()
        last: LLMResult | None = None
        while time.monotonic() < deadline and (picked := self._pick(tried)) is not None:
            i, probe = picked
            tried.add(i)
            try:
                attempt = self._endpoints[i].attempt(messages, schema, max_tokens=max_tokens, deadline=deadline)
            except BaseException:
                self._after(i, probe, False, "")
                raise
            self._after(i, probe, attempt.endpoint_fault, getattr(attempt.result, "message", ""))
            if not attempt.endpoint_fault:
                # Named after the pool, not the endpoint that answered: which one did depends on timing, and the
                # trace must not (it is the same for any number of workers).
                seconds = time.monotonic() - start
                return replace(attempt.result, model=self.name, usage=replace(attempt.result.usage, seconds=seconds))
            last = attempt.result
        seconds = time.monotonic() - start
        if isinstance(last, LLMFailure):
            return LLMFailure(
                kind=last.kind,
                message=f"{last.message} (tried {len(tried)} of {len(self._health)} endpoints)",
                model=self.name,
                usage=Usage(seconds=seconds),
            )
        return LLMFailure(
            kind="unavailable",
            message=f"every endpoint of {self.name} failed just before and is left out for a while",
            model=self.name,
            usage=Usage(seconds=seconds),
        )

    def close(self) -> None:
        for endpoint in self._endpoints:
            endpoint.close()
