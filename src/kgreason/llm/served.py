"""A model behind an OpenAI-compatible HTTP server (vLLM, SGLang, Ollama, LM Studio, llama.cpp's server).

Failure mapping: connection refused/reset -> `unavailable`; no whole answer within `timeout` -> `timeout`;
HTTP error status, a body that is not the API's shape or larger than `max_reply_bytes` -> `server_error`; reply
content that is not JSON -> `invalid_json`; JSON that violates the schema -> `schema_mismatch`. Only connection
errors and HTTP 429/502/503/504 are retried (bounded, exponential backoff): a timeout would just cost another full
timeout, and a bad reply comes back identical at temperature 0.

`timeout` is a total deadline for the call: connecting, every retry and its backoff, and reading the whole reply.
The request runs on a worker thread and the caller waits for it at most until the deadline, so a server that
trickles one byte at a time cannot stretch a call (httpx's own timeouts are per read); the worker notices the
deadline between chunks and stops too.
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

import httpx

from kgreason.errors import KgreasonError
from kgreason.llm.config import LLMConfig
from kgreason.llm.dialects import (
    DIALECTS,
    Dialect,
    MalformedResponse,
    build_body,
    endpoint,
    parse_body,
    resolve_dialect,
)
from kgreason.llm.reply import finish_reply
from kgreason.llm.schema import check_schema
from kgreason.llm.types import ChatMessage, FailureKind, LLMFailure, LLMResult, Usage


@dataclass(frozen=True, slots=True)
class _HttpBody:
    data: Any


@dataclass(frozen=True, slots=True)
class _HttpFailure:
    kind: FailureKind
    message: str
    endpoint_fault: bool = True  # the server's fault (down, overloaded, broken), not the request's (HTTP 4xx)


@dataclass(frozen=True, slots=True)
class Attempt:
    """One call's result, and whether it failed for the endpoint's sake (another endpoint might answer it)."""

    result: LLMResult
    endpoint_fault: bool = False


_RETRY_STATUS = frozenset({429, 502, 503, 504})
_CONNECT_TIMEOUT = 10.0


class ServedLLM:
    """One model on one server. Thread-safe; at most `config.max_concurrency` requests in flight."""

    def __init__(
        self,
        base_url: str,
        model: str,
        config: LLMConfig,
        *,
        dialect: Dialect | None = None,
        transport: httpx.BaseTransport | None = None,  # tests inject a mock transport here
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._model = model
        self._config = config
        chosen = dialect or resolve_dialect(config.dialect)
        if chosen is None:
            raise KgreasonError(f"unknown LLM dialect {config.dialect!r}; known: {', '.join(DIALECTS)}")
        self._dialect: Dialect = chosen
        self._url = endpoint(self._base_url, self._dialect)
        headers = {"Content-Type": "application/json"}
        api_key = config.resolved_api_key()
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(config.timeout, connect=min(config.timeout, _CONNECT_TIMEOUT)),
            limits=httpx.Limits(max_connections=config.max_concurrency),
            transport=transport,
            trust_env=False,  # a proxy from the environment must not intercept calls to a local server
        )
        self._slots = threading.BoundedSemaphore(config.max_concurrency)
        # Workers that outlive a caller's deadline finish on their own (they check the deadline between chunks).
        self._workers = ThreadPoolExecutor(max_workers=2 * config.max_concurrency, thread_name_prefix="kgreason-llm")

    @property
    def name(self) -> str:
        return f"openai:{self._base_url}#{self._model}"

    @property
    def dialect(self) -> Dialect:
        return self._dialect

    def cache_identity(self) -> dict[str, Any]:
        """What, besides the request, determines the reply (used in response-cache keys)."""
        return {"backend": "openai", "url": self._base_url, "model": self._model, "dialect": self._dialect}

    @property
    def base_url(self) -> str:
        return self._base_url

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        return self.attempt(messages, schema, max_tokens=max_tokens).result

    def attempt(
        self,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        *,
        max_tokens: int = 256,
        deadline: float | None = None,
    ) -> Attempt:
        """`complete_json`, ended by `deadline` (a `time.monotonic()` value; default: now + timeout), telling
        whether a failure was the endpoint's (see `kgreason.llm.endpoints`)."""
        check_schema(schema)
        body = build_body(self._dialect, self._model, messages, schema, max_tokens=max_tokens, seed=self._config.seed)
        start = time.monotonic()
        deadline = start + self._config.timeout if deadline is None else deadline
        with self._slots:
            outcome = self._call_until(body, deadline)
        seconds = time.monotonic() - start
        if isinstance(outcome, _HttpFailure):
            usage = Usage(seconds=seconds)
            failure = LLMFailure(kind=outcome.kind, message=outcome.message, model=self.name, usage=usage)
            return Attempt(failure, outcome.endpoint_fault)
        try:
            reply = parse_body(self._dialect, outcome.data)
        except MalformedResponse as exc:
            failure = LLMFailure(
                kind="server_error", message=f"{self._url}: {exc}", model=self.name, usage=Usage(seconds=seconds)
            )
            return Attempt(failure, endpoint_fault=True)
        usage = Usage(prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens, seconds=seconds)
        cut_at = max_tokens if reply.truncated else None
        return Attempt(finish_reply(reply.text, schema, self.name, usage, cut_at=cut_at))

    def _timed_out(self) -> _HttpFailure:
        return _HttpFailure("timeout", f"{self._url}: no whole reply within {self._config.timeout:g} s")

    def _call_until(self, body: dict[str, Any], deadline: float) -> _HttpBody | _HttpFailure:
        """`_post_with_retries` on a worker, waited for until `deadline` at most."""
        stop = threading.Event()
        future = self._workers.submit(self._post_with_retries, body, deadline, stop)
        try:
            return future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            stop.set()  # the worker gives up at its next chunk or read timeout
            future.cancel()  # still queued behind stuck workers: never starts
            return self._timed_out()

    def _post_with_retries(
        self, body: dict[str, Any], deadline: float, stop: threading.Event
    ) -> _HttpBody | _HttpFailure:
        """The decoded JSON body, or the failure of the last attempt; every attempt within `deadline`."""
        delay = self._config.retry_backoff
        failure = _HttpFailure("unavailable", "no attempt made")
        attempts = 0
        for attempt in range(self._config.retries + 1):
            if attempt:
                if time.monotonic() + delay >= deadline:
                    break  # no time left for another attempt
                time.sleep(delay)
                delay *= 2
            remaining = deadline - time.monotonic()
            if remaining <= 0 or stop.is_set():
                return self._timed_out()
            attempts += 1
            try:
                outcome = self._post_once(body, deadline, remaining, stop)
            except httpx.TimeoutException:
                return self._timed_out()
            except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                failure = _HttpFailure("unavailable", f"{self._url}: {type(exc).__name__}: {exc}")
                continue
            except httpx.HTTPError as exc:
                return _HttpFailure("server_error", f"{self._url}: {type(exc).__name__}: {exc}")
            if isinstance(outcome, tuple):
                status, text = outcome
                endpoint_fault = status in _RETRY_STATUS or status >= 500
                failure = _HttpFailure("server_error", f"{self._url}: HTTP {status}: {text[:200]}", endpoint_fault)
                if status in _RETRY_STATUS:
                    continue
                return failure
            return outcome
        plural = "s" if attempts != 1 else ""
        message = f"{failure.message} (after {attempts} attempt{plural})"
        return _HttpFailure(failure.kind, message, failure.endpoint_fault)

    def _post_once(
        self, body: dict[str, Any], deadline: float, remaining: float, stop: threading.Event
    ) -> _HttpBody | _HttpFailure | tuple[int, str]:
        """One request, its reply read in chunks: the decoded body, a failure, or (HTTP error status, body text)."""
        limit = self._config.max_reply_bytes
        timeout = httpx.Timeout(remaining, connect=min(remaining, _CONNECT_TIMEOUT))
        with self._client.stream("POST", self._url, json=body, timeout=timeout) as response:
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if stop.is_set() or time.monotonic() > deadline:
                    return self._timed_out()
                if size > limit:
                    return _HttpFailure(
                        "server_error", f"{self._url}: reply larger than {limit / 1024 / 1024:g} MB, not read further"
                    )
                chunks.append(chunk)
            content = b"".join(chunks)
            if response.status_code >= 400:
                return response.status_code, content.decode("utf-8", "replace")
        try:
            return _HttpBody(json.loads(content))
        except (ValueError, RecursionError):
            text = content.decode("utf-8", "replace")
            return _HttpFailure("server_error", f"{self._url}: HTTP body is not JSON: {text[:120]!r}")

    def close(self) -> None:
        self._workers.shutdown(wait=False, cancel_futures=True)
        self._client.close()
