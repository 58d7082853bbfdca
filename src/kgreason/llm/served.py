"""A model behind an OpenAI-compatible HTTP server (vLLM, SGLang, Ollama, LM Studio, llama.cpp's server).

Failure mapping: connection refused/reset -> `unavailable`; no answer within `timeout` -> `timeout`;
HTTP error status or a body that is not the API's shape -> `server_error`; reply content that is not JSON ->
`invalid_json`; JSON that violates the schema -> `schema_mismatch`. Only connection errors and HTTP 429/502/503/504
are retried (bounded, exponential backoff): a timeout would just cost another full timeout, and a bad reply comes
back identical at temperature 0.
"""

from __future__ import annotations

import json
import threading
import time
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

    @property
    def name(self) -> str:
        return f"openai:{self._base_url}#{self._model}"

    @property
    def dialect(self) -> Dialect:
        return self._dialect

    def cache_identity(self) -> dict[str, Any]:
        """What, besides the request, determines the reply (used in response-cache keys)."""
        return {"backend": "openai", "url": self._base_url, "model": self._model, "dialect": self._dialect}

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        check_schema(schema)
        body = build_body(self._dialect, self._model, messages, schema, max_tokens=max_tokens, seed=self._config.seed)
        start = time.monotonic()
        with self._slots:
            outcome = self._post_with_retries(body)
        seconds = time.monotonic() - start
        if isinstance(outcome, _HttpFailure):
            return LLMFailure(kind=outcome.kind, message=outcome.message, model=self.name, usage=Usage(seconds=seconds))
        try:
            reply = parse_body(self._dialect, outcome.data)
        except MalformedResponse as exc:
            return LLMFailure(
                kind="server_error", message=f"{self._url}: {exc}", model=self.name, usage=Usage(seconds=seconds)
            )
        usage = Usage(prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens, seconds=seconds)
        return finish_reply(reply.text, schema, self.name, usage, cut_at=max_tokens if reply.truncated else None)

    def _post_with_retries(self, body: dict[str, Any]) -> _HttpBody | _HttpFailure:
        """The decoded JSON body, or the failure of the last attempt."""
        delay = self._config.retry_backoff
        failure = _HttpFailure("unavailable", "no attempt made")
        for attempt in range(self._config.retries + 1):
            if attempt:
                time.sleep(delay)
                delay *= 2
            try:
                response = self._client.post(self._url, json=body)
            except httpx.TimeoutException:
                return _HttpFailure("timeout", f"{self._url}: no reply within {self._config.timeout:g} s")
            except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                failure = _HttpFailure("unavailable", f"{self._url}: {type(exc).__name__}: {exc}")
                continue
            except httpx.HTTPError as exc:
                return _HttpFailure("server_error", f"{self._url}: {type(exc).__name__}: {exc}")
            if response.status_code >= 400:
                failure = _HttpFailure(
                    "server_error", f"{self._url}: HTTP {response.status_code}: {response.text[:200]}"
                )
                if response.status_code in _RETRY_STATUS:
                    continue
                return failure
            try:
                return _HttpBody(json.loads(response.content))
            except ValueError:
                return _HttpFailure("server_error", f"{self._url}: HTTP body is not JSON: {response.text[:120]!r}")
        tries = self._config.retries + 1
        return _HttpFailure(failure.kind, f"{failure.message} (after {tries} attempt{'s' if tries > 1 else ''})")

    def close(self) -> None:
        self._client.close()
