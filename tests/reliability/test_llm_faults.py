"""Fault catalogue, the model server: a whole call is bounded by `timeout` (a server trickling bytes cannot stretch
it), huge replies are refused unread, a dead server is not asked forever (circuit breaker, said in the summary),
and what servers report is sanitised and survives a resume. Real servers on 127.0.0.1, no mocks."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from faults import kgreason, load, no_traceback, sample_copy

from kgreason.llm.breaker import CircuitBreakerLLM
from kgreason.llm.config import LLMConfig
from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.served import ServedLLM
from kgreason.llm.types import ChatMessage

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"choice": {"type": "string", "enum": ["C1", "C2"]}},
    "required": ["choice"],
}
MESSAGES = [ChatMessage("user", "选哪个？")]
Handler = Callable[[BaseHTTPRequestHandler], None]


def reply_body(content: str = '{"choice": "C2"}', usage: Any = None) -> bytes:
    body: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "content": content}}]}
    if usage is not None:
        body["usage"] = usage
    return json.dumps(body).encode()


@pytest.fixture
def serve() -> Iterator[Callable[[Handler], str]]:
    """Start a real HTTP server on 127.0.0.1 whose POST handler is `handle(request_handler)`; gives its /v1 URL."""
    servers: list[ThreadingHTTPServer] = []

    def start(handle: Handler) -> str:
        class H(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up, as expected
                    handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/v1"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def slow_bytes(h: BaseHTTPRequestHandler) -> None:
    """A valid reply, one byte every 0.5 s (the probe that once made one call last 128 s under a 3 s timeout)."""
    body = reply_body()
    h.send_response(200)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    for i in range(len(body)):
        h.wfile.write(body[i : i + 1])
        h.wfile.flush()
        time.sleep(0.5)


def never_answers(h: BaseHTTPRequestHandler) -> None:
    time.sleep(30)


def test_slow_byte_server_is_cut_at_the_total_deadline(serve: Callable[[Handler], str]) -> None:
    llm = ServedLLM(serve(slow_bytes), "m", LLMConfig(timeout=2.0, response_cache=False))
    started = time.monotonic()
    result = llm.complete_json(MESSAGES, SCHEMA)
    elapsed = time.monotonic() - started
    llm.close()
    assert not result.ok and result.kind == "timeout" and "no whole reply within 2 s" in result.message
    assert 1.9 < elapsed < 8.0  # the deadline, plus room for a loaded machine (without it: 128 s)


def test_silent_server_and_retries_stay_within_the_deadline(serve: Callable[[Handler], str]) -> None:
    def busy_then_silent(h: BaseHTTPRequestHandler) -> None:
        h.send_response(503)
        h.send_header("Content-Length", "4")
        h.end_headers()
        h.wfile.write(b"busy")
        h.wfile.flush()

    config = LLMConfig(timeout=1.5, retries=50, retry_backoff=0.2, response_cache=False)
    for handler in (never_answers, busy_then_silent):
        llm = ServedLLM(serve(handler), "m", config)
        started = time.monotonic()
        result = llm.complete_json(MESSAGES, SCHEMA)
        elapsed = time.monotonic() - started
        llm.close()
        assert not result.ok and elapsed < 6.0, (handler.__name__, elapsed, result)  # 50 retries: minutes


def test_a_huge_reply_is_refused_unread(serve: Callable[[Handler], str]) -> None:
    def eighty_mb(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", str(80 * 1024 * 1024))
        h.end_headers()
        block = b" " * (1024 * 1024)
        for _ in range(80):
            h.wfile.write(block)

    llm = ServedLLM(serve(eighty_mb), "m", LLMConfig(timeout=20, max_reply_bytes=1024 * 1024, response_cache=False))
    result = llm.complete_json(MESSAGES, SCHEMA)
    llm.close()
    assert not result.ok and result.kind == "server_error" and "larger than 1 MB" in result.message


@pytest.mark.parametrize("usage", [{"prompt_tokens": -50, "completion_tokens": "7"}, {"prompt_tokens": 10**12}, "x"])
def test_reported_token_counts_are_sanitised(serve: Callable[[Handler], str], usage: Any) -> None:
    def answer(h: BaseHTTPRequestHandler) -> None:
        body = reply_body(usage=usage)
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    llm = ServedLLM(serve(answer), "m", LLMConfig(timeout=5, response_cache=False))
    result = llm.complete_json(MESSAGES, SCHEMA)
    llm.close()
    assert result.ok and result.usage.prompt_tokens == 0 and result.usage.completion_tokens == 0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_breaker_opens_after_consecutive_server_faults_and_retries_after_cooldown() -> None:
    replies: list[Any] = [FakeFailure("timeout")] * 3 + [FakeFailure("unavailable"), {"choice": "C1"}]
    inner = FakeLLM(replies)
    clock = Clock()
    notices: list[str] = []
    llm = CircuitBreakerLLM(inner, failures=3, cooldown=60, notice=notices.append, clock=clock)
    kinds = [llm.complete_json(MESSAGES, SCHEMA).kind for _ in range(3)]  # type: ignore[union-attr]
    assert kinds == ["timeout"] * 3 and len(notices) == 1 and "not asking it for 60 s" in notices[0]
    skipped = [llm.complete_json(MESSAGES, SCHEMA) for _ in range(4)]
    assert all(not r.ok and r.kind == "circuit_open" for r in skipped) and len(inner.calls) == 3
    clock.now = 61  # cool-down over: one trial call, which fails: open again
    assert llm.complete_json(MESSAGES, SCHEMA).kind == "unavailable"  # type: ignore[union-attr]
    assert llm.complete_json(MESSAGES, SCHEMA).kind == "circuit_open"  # type: ignore[union-attr]
    clock.now = 122
    assert llm.complete_json(MESSAGES, SCHEMA).ok  # the trial succeeds: closed
    assert llm.times_opened == 1 and llm.skipped == 5


def test_bad_replies_show_the_server_is_alive() -> None:
    inner = FakeLLM([FakeFailure("timeout"), "not json", FakeFailure("timeout"), FakeFailure("timeout")])
    llm = CircuitBreakerLLM(inner, failures=2, cooldown=60, clock=Clock())
    kinds = [getattr(llm.complete_json(MESSAGES, SCHEMA), "kind", "ok") for _ in range(5)]
    assert kinds == ["timeout", "invalid_json", "timeout", "timeout", "circuit_open"]


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_run_against_a_hanging_server_stops_asking_and_says_so(tmp_path: Path, serve: Callable[[Handler], str]) -> None:
    data = sample_copy(tmp_path)
    out = tmp_path / "run" / "result.json"
    url = serve(never_answers)
    env = {"KGREASON_LLM_TIMEOUT": "1", "KGREASON_LLM_BREAKER": "2,600"}
    started = time.monotonic()
    proc = kgreason("run", data, "-o", out, "--llm", f"openai:{url}#m", env=env)
    elapsed = time.monotonic() - started
    no_traceback(proc)
    assert len(load(out)) == len(load(data / "qa.json"))  # every question answered (the program's choice)
    assert "2 calls in a row failed (timeout); not asking it for 600 s" in proc.stderr
    assert "circuit breaker:" in proc.stderr and "calls not sent to a model that kept failing" in proc.stderr
    run_info = load(out.with_name("result.run.json"))
    failures = run_info["llm_accounting"]["total"]["failures_by_kind"]
    assert failures["timeout"] == 2 and failures["circuit_open"] >= 1
    assert elapsed < 30  # without the breaker: one full timeout per question asked


def test_llm_failures_survive_a_resume(tmp_path: Path) -> None:
    data = sample_copy(tmp_path)
    out = tmp_path / "run" / "result.json"
    spec = f"openai:http://127.0.0.1:{_dead_port()}/v1#m"
    first = kgreason("run", data, "-o", out, "--llm", spec, "--limit", "20", env={"KGREASON_LLM_TIMEOUT": "2"})
    assert first.returncode in (0, 1, 3), first.stderr  # the exit code when the model was down is issue 15's
    before = load(out.with_name("result.run.json"))["summary"]
    assert before["llm_failed_answers"] >= 1 and before["llm_failed_answers"] == before["llm_asked_answers"]
    # --no-retry-failed: the resume keeps the fallback answers (by default it would ask them again)
    second = kgreason(
        "run", data, "-o", out, "--llm", spec, "--limit", "20", "--no-retry-failed", env={"KGREASON_LLM_TIMEOUT": "2"}
    )
    no_traceback(second)
    after = load(out.with_name("result.run.json"))["attempts"][-1]["summary"]
    assert after["resumed"] == 20 and after["answered"] == 0
    assert after["llm_failed_answers"] == before["llm_failed_answers"]  # not 0 after the resume
    assert f"the LLM failed on {after['llm_failed_answers']} of the" in second.stderr
