"""One model on several endpoints (`openai:URL1,URL2#MODEL`): the spec, requests spread over healthy endpoints, a
failing endpoint left out for a cool-down and probed again, every endpoint down = the breaker. Real HTTP servers on
127.0.0.1 (`kgreason.llm.fake_server`), no mocks."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from llm_support import ENTITY_SCHEMA, Exchange, ScriptedServer, chat_body, entity_question, free_port

from kgreason.errors import KgreasonError
from kgreason.llm.config import LLMConfig
from kgreason.llm.endpoints import EndpointPool
from kgreason.llm.factory import answers_concurrently, close_llm, create_llm, llm_accounting
from kgreason.llm.fake import FakeLLM
from kgreason.llm.fake_server import FakeChatServer, schema_instance
from kgreason.llm.served import ServedLLM
from kgreason.llm.spec import EnsembleSpec, ServedSpec, parse_spec

MESSAGES = entity_question("歼-20的研制单位是哪家？")


@pytest.fixture
def servers() -> Iterator[Callable[..., FakeChatServer]]:
    started: list[FakeChatServer] = []

    def start(**kwargs: float) -> FakeChatServer:
        server = FakeChatServer(latency=float(kwargs.get("latency", 0.0)), concurrency=16)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


def dead_url() -> str:
    return f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there: connection refused


def cooling_pool(urls: list[str], said: list[str], now: list[float]) -> EndpointPool:
    """A pool over `urls` (no retries, no reply cache) that cools a failed endpoint down for 30 s of the clock
    `now[0]`, saying what it does into `said`."""
    config = LLMConfig(response_cache=False, retries=0)
    return EndpointPool(
        [ServedLLM(u, "m", config) for u in urls],
        model="m",
        dialect="json_schema",
        timeout=10.0,
        cooldown=30.0,
        notice=said.append,
        clock=lambda: now[0],
    )


def test_spec_with_several_urls() -> None:
    spec = parse_spec("openai:http://a:8000/v1, https://b/v1/#qwen2.5:7b?dialect=vllm")
    assert spec == ServedSpec("http://a:8000/v1", "qwen2.5:7b", "json_schema", ("https://b/v1",))
    assert isinstance(spec, ServedSpec) and spec.base_urls == ("http://a:8000/v1", "https://b/v1")
    ensemble = parse_spec("ensemble:openai:http://a/v1,http://b/v1#m,embedded")
    assert isinstance(ensemble, EnsembleSpec) and ensemble.members[0] == ServedSpec(
        "http://a/v1", "m", None, ("http://b/v1",)
    )
    assert parse_spec("openai:http://a/v1?x=1,2#m") == ServedSpec("http://a/v1?x=1,2", "m")  # a comma in a URL stays


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("openai:http://a/v1,http://a/v1#m", "listed twice"),
        ("openai:http://a/v1,https://#m", r"is not an http\(s\) URL"),
        ("openai:http://a/v1,http://b/v1#", "model name after '#' is empty"),
    ],
)
def test_bad_multi_url_specs_are_refused(spec: str, why: str) -> None:
    with pytest.raises(KgreasonError, match=why):
        parse_spec(spec)


def test_requests_spread_over_the_endpoints(servers: Callable[..., FakeChatServer]) -> None:
    a, b = servers(latency=0.2), servers(latency=0.2)
    llm = create_llm(f"openai:{a.url},{b.url}#m", LLMConfig(response_cache=False, max_concurrency=8))
    assert llm is not None and answers_concurrently(llm)
    try:
        results: list[object] = []
        threads = [threading.Thread(target=lambda: results.append(llm.complete_json(MESSAGES, ENTITY_SCHEMA)))
                   for _ in range(8)]  # fmt: skip
        start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(getattr(r, "ok", False) for r in results)
        assert (a.replies, b.replies) == (4, 4)  # the least busy endpoint gets the next request
        assert time.monotonic() - start < 1.0  # at once, not one after another (8 x 0.2 s)
        assert {getattr(r, "model", "") for r in results} == {llm.name}  # named after the pool, whichever answered
    finally:
        close_llm(llm)


def test_a_dead_endpoint_is_left_out_for_the_cooldown_then_probed(servers: Callable[..., FakeChatServer]) -> None:
    live = servers()
    dead = dead_url()
    said: list[str] = []
    now = [0.0]
    pool = cooling_pool([dead, live.url], said, now)
    try:
        for _ in range(6):
            assert pool.complete_json(MESSAGES, ENTITY_SCHEMA).ok  # the failed request moved on to the live one
        health = {h["url"]: h for h in pool.health()}
        assert health[dead]["requests"] == 1 and not health[dead]["healthy"]  # asked once, then left out
        assert live.replies == 6
        assert len(said) == 1 and dead in said[0] and "left out for 30 s" in said[0]
        now[0] = 31.0  # the cool-down is over: one request probes it (and fails over again)
        assert pool.complete_json(MESSAGES, ENTITY_SCHEMA).ok
        assert pool.complete_json(MESSAGES, ENTITY_SCHEMA).ok
        assert {h["url"]: h for h in pool.health()}[dead]["requests"] == 2
        assert len(said) == 1  # still down: said once
    finally:
        pool.close()


def test_an_endpoint_that_comes_back_is_used_again(servers: Callable[..., FakeChatServer]) -> None:
    live = servers()
    port = free_port()
    said: list[str] = []
    llm = create_llm(
        f"openai:http://127.0.0.1:{port}/v1,{live.url}#m",
        LLMConfig(response_cache=False, endpoint_cooldown=0.3),
        progress=said.append,
    )
    assert llm is not None
    try:
        assert llm.complete_json(MESSAGES, ENTITY_SCHEMA).ok
        back = FakeChatServer(latency=0.0, port=port)  # the server on the dead port starts
        try:
            time.sleep(0.4)
            for _ in range(4):
                assert llm.complete_json(MESSAGES, ENTITY_SCHEMA).ok
            assert back.replies >= 1
            assert any("answers again" in s for s in said)
        finally:
            back.close()
    finally:
        close_llm(llm)


def test_every_endpoint_down_fails_at_once_and_opens_the_breaker() -> None:
    config = LLMConfig(response_cache=False, breaker_failures=2, breaker_cooldown=60.0, endpoint_cooldown=60.0)
    llm = create_llm(f"openai:{dead_url()},{dead_url()}#m", config)
    assert llm is not None
    try:
        kinds = []
        start = time.monotonic()
        for _ in range(5):
            r = llm.complete_json(MESSAGES, ENTITY_SCHEMA)
            kinds.append(getattr(r, "kind", "ok"))
        assert kinds == ["unavailable", "unavailable", "circuit_open", "circuit_open", "circuit_open"]
        assert time.monotonic() - start < 3.0  # no retry loops, no backoff
        acc = llm_accounting(llm)
        assert acc is not None and acc.total().failures == {"unavailable": 2, "circuit_open": 3}
    finally:
        close_llm(llm)


def test_a_request_error_is_not_the_endpoints_fault(scripted_server: Callable[..., ScriptedServer]) -> None:
    """HTTP 400 (e.g. a prompt over the context) would be the same elsewhere: no failover, nobody left out."""
    bad = scripted_server(lambda i, body: Exchange(status=400, body=b'{"error": "too long"}'))
    good = scripted_server(lambda i, body: Exchange(body=chat_body('{"entity": "歼-20"}')))
    llm = create_llm(f"openai:{bad.url},{good.url}#m", LLMConfig(response_cache=False))
    assert llm is not None
    try:
        results = [llm.complete_json(MESSAGES, ENTITY_SCHEMA) for _ in range(4)]
        failed = [r for r in results if not r.ok]
        assert len(bad.requests) == 2 and len(good.requests) == 2  # still taking turns
        assert len(failed) == 2 and all(getattr(r, "kind", "") == "server_error" for r in failed)
    finally:
        close_llm(llm)


def test_only_served_models_answer_concurrently() -> None:
    assert not answers_concurrently(None)
    assert not answers_concurrently(FakeLLM([]))
    served = create_llm("openai:http://127.0.0.1:9/v1#m", LLMConfig(response_cache=False))
    assert served is not None and answers_concurrently(served)
    close_llm(served)


def test_fake_server_replies_fit_the_schema() -> None:
    schema = {
        "type": "object",
        "properties": {
            "choice": {"type": "string", "enum": ["C2", "C1"]},
            "ids": {"type": "array", "items": {"type": "integer", "minimum": 3}, "minItems": 2},
            "k": {"const": "x"},
        },
        "required": ["choice", "ids", "k"],
    }
    assert schema_instance(schema) == {"choice": "C2", "ids": [3, 3], "k": "x"}


def test_a_late_success_of_a_request_sent_before_the_failure_does_not_bring_an_endpoint_back() -> None:
    """Two requests in flight on one endpoint when it dies: one fails (left out), the other had its reply already
    and ends ok afterwards. Only the probe after the cool-down may take the endpoint back (seen in the benchmark:
    the endpoint came back at once and the next request hit a closed port)."""
    now = [0.0]
    said: list[str] = []
    pool = cooling_pool(["http://127.0.0.1:9/v1", "http://127.0.0.1:10/v1"], said, now)
    try:
        first, second = pool._pick(set()), pool._pick({1})  # both on endpoint 0
        assert first == (0, False) and second == (0, False)
        pool._after(0, False, True, "RemoteProtocolError")  # one fails: left out
        pool._after(0, False, False, "")  # the other ends ok afterwards
        assert not pool.health()[0]["healthy"] and len(said) == 1
        now[0] = 31.0
        assert pool._pick(set()) == (0, True)  # the probe
        pool._after(0, True, False, "")
        assert pool.health()[0]["healthy"] and "answers again" in said[-1]
    finally:
        pool.close()
