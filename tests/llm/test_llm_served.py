"""The OpenAI-compatible backend against local scripted servers: dialects, retries, and every fault kind."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from llm_support import ENTITY_SCHEMA, Exchange, ScriptedServer, chat_body, entity_question, free_port

from kgreason.llm import ChatMessage, LLMConfig
from kgreason.llm.dialects import build_body, endpoint, parse_body
from kgreason.llm.served import ServedLLM

Start = Callable[[Callable[[int, dict[str, Any]], Exchange]], ScriptedServer]
GOOD = chat_body('{"entity": "成都飞机工业集团"}')
FAST = LLMConfig(timeout=2.0, retries=0, retry_backoff=0.05, response_cache=False)


def test_success_carries_value_and_usage(scripted_server: Start) -> None:
    server = scripted_server(lambda i, body: Exchange(body=chat_body('{"entity": "成都飞机工业集团"}', 42, 7)))
    llm = ServedLLM(server.url, "qwen", FAST, dialect="llamacpp")
    result = llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA, max_tokens=20)
    assert result.ok and result.value == {"entity": "成都飞机工业集团"}
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (42, 7)
    sent = server.requests[0]
    assert sent["response_format"] == {"type": "json_object", "schema": ENTITY_SCHEMA}
    assert sent["temperature"] == 0 and sent["max_tokens"] == 20 and sent["model"] == "qwen"
    assert sent["messages"][0]["role"] == "system"
    llm.close()


def test_system_message_is_always_sent(scripted_server: Start) -> None:
    server = scripted_server(lambda i, body: Exchange(body=GOOD))
    llm = ServedLLM(server.url, "qwen", FAST)
    llm.complete_json([ChatMessage("user", "歼-20是哪家单位研制的？")], ENTITY_SCHEMA)
    roles = [m["role"] for m in server.requests[0]["messages"]]
    assert roles == ["system", "user"]
    llm.close()


def test_api_key_is_sent_as_bearer(scripted_server: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGREASON_API_KEY", "sk-test-密钥".encode().hex())
    server = scripted_server(lambda i, body: Exchange(body=GOOD))
    llm = ServedLLM(server.url, "qwen", FAST)
    llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA)
    assert server.headers[0]["Authorization"] == "Bearer " + "sk-test-密钥".encode().hex()
    llm.close()


@pytest.mark.parametrize(
    ("dialect", "check"),
    [
        ("json_schema", lambda b: b["response_format"]["json_schema"]["schema"] == ENTITY_SCHEMA),
        ("llamacpp", lambda b: b["response_format"] == {"type": "json_object", "schema": ENTITY_SCHEMA}),
        ("guided_json", lambda b: b["guided_json"] == ENTITY_SCHEMA and "response_format" not in b),
        ("ollama", lambda b: b["format"] == ENTITY_SCHEMA and b["options"]["num_predict"] == 16),
        ("prompt", lambda b: "成都飞机工业集团" in b["messages"][0]["content"] and "response_format" not in b),
    ],
)
def test_dialect_bodies(dialect: Any, check: Callable[[dict[str, Any]], bool]) -> None:
    body = build_body(dialect, "m", entity_question("歼-20？"), ENTITY_SCHEMA, max_tokens=16, seed=0)
    assert check(body)
    assert body["messages"][0]["role"] == "system"


def test_endpoints() -> None:
    assert endpoint("http://h:8000/v1", "llamacpp") == "http://h:8000/v1/chat/completions"
    assert endpoint("http://h:8000", "json_schema") == "http://h:8000/v1/chat/completions"
    assert endpoint("http://h:11434/v1", "ollama") == "http://h:11434/api/chat"
    ollama = {"message": {"role": "assistant", "content": "{}"}, "prompt_eval_count": 9, "eval_count": 2}
    reply = parse_body("ollama", ollama)
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens) == ("{}", 9, 2)


def test_server_down_is_unavailable_after_bounded_retries() -> None:
    port = free_port()  # nothing listens here: connection refused
    config = LLMConfig(timeout=2.0, retries=2, retry_backoff=0.05, response_cache=False)
    llm = ServedLLM(f"http://127.0.0.1:{port}/v1", "qwen", config)
    start = time.monotonic()
    result = llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA)
    elapsed = time.monotonic() - start
    assert not result.ok and result.kind == "unavailable"
    assert "after 3 attempts" in result.message
    assert elapsed < 2.0  # three refused connects and 0.05 + 0.1 s of backoff
    llm.close()


def test_timeout_is_reported_within_the_configured_time(scripted_server: Start) -> None:
    server = scripted_server(lambda i, body: Exchange(body=GOOD, delay=3.0))
    config = LLMConfig(timeout=0.5, retries=2, retry_backoff=0.05, response_cache=False)
    llm = ServedLLM(server.url, "qwen", config)
    start = time.monotonic()
    result = llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA)
    elapsed = time.monotonic() - start
    assert not result.ok and result.kind == "timeout"
    assert 0.4 < elapsed < 1.5  # a timeout is not retried
    assert len(server.requests) == 1
    llm.close()


@pytest.mark.parametrize(
    ("exchange", "kind", "fragment"),
    [
        (Exchange(body=b"<html>Bad Gateway</html>", content_type="text/html"), "server_error", "not JSON"),
        (Exchange(body=json.dumps({"result": "成都飞机工业集团"}).encode()), "server_error", "no choices"),
        (Exchange(body=json.dumps({"choices": [{"message": {}}]}).encode()), "server_error", "message.content"),
        (Exchange(body=chat_body("成都飞机工业集团")), "invalid_json", "not JSON"),
        (Exchange(body=chat_body('{"entity": "歼-15"}')), "schema_mismatch", "not one of"),
        (Exchange(body=chat_body('{"entity": "歼-20", "extra": 1}')), "schema_mismatch", "unexpected property"),
        (Exchange(status=500, body=b'{"error": "json_schema not supported"}'), "server_error", "HTTP 500"),
        (Exchange(status=400, body=b'{"error": "bad request"}'), "server_error", "HTTP 400"),
    ],
)
def test_malformed_replies_are_typed(scripted_server: Start, exchange: Exchange, kind: str, fragment: str) -> None:
    server = scripted_server(lambda i, body: exchange)
    llm = ServedLLM(server.url, "qwen", FAST)
    start = time.monotonic()
    result = llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA)
    assert time.monotonic() - start < FAST.timeout
    assert not result.ok and result.kind == kind and fragment in result.message, result
    assert len(server.requests) == 1  # none of these is retried
    llm.close()


def test_truncated_reply_mentions_max_tokens(scripted_server: Start) -> None:
    body = json.dumps(
        {"choices": [{"message": {"content": '{"entity": "成都'}, "finish_reason": "length"}], "usage": {}}
    ).encode()
    server = scripted_server(lambda i, b: Exchange(body=body))
    llm = ServedLLM(server.url, "qwen", FAST)
    result = llm.complete_json(entity_question("歼-20？"), ENTITY_SCHEMA, max_tokens=4)
    assert not result.ok and result.kind == "invalid_json" and "max_tokens=4" in result.message
    llm.close()


def test_overloaded_server_is_retried_then_succeeds(scripted_server: Start) -> None:
    server = scripted_server(lambda i, body: Exchange(status=503, body=b"busy") if i < 2 else Exchange(body=GOOD))
    config = LLMConfig(timeout=2.0, retries=2, retry_backoff=0.05, response_cache=False)
    llm = ServedLLM(server.url, "qwen", config)
    result = llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA)
    assert result.ok and len(server.requests) == 3
    llm.close()


def test_retries_are_bounded(scripted_server: Start) -> None:
    server = scripted_server(lambda i, body: Exchange(status=429, body=b"slow down"))
    config = LLMConfig(timeout=2.0, retries=1, retry_backoff=0.05, response_cache=False)
    llm = ServedLLM(server.url, "qwen", config)
    result = llm.complete_json(entity_question("歼-20是哪家单位研制的？"), ENTITY_SCHEMA)
    assert not result.ok and result.kind == "server_error" and "HTTP 429" in result.message
    assert len(server.requests) == 2
    llm.close()


def test_concurrency_is_limited_by_a_semaphore() -> None:
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return httpx.Response(200, content=GOOD)

    config = LLMConfig(max_concurrency=2, retries=0, response_cache=False)
    llm = ServedLLM("http://test/v1", "qwen", config, transport=httpx.MockTransport(handler))
    threads = [
        threading.Thread(target=llm.complete_json, args=(entity_question("歼-20？"), ENTITY_SCHEMA)) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["peak"] == 2
    llm.close()
