"""Fake backend, failure typing, response cache keying/hits, accounting, batch helper."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from kgreason.llm import (
    AccountedLLM,
    Accounting,
    CachedLLM,
    ChatMessage,
    FakeFailure,
    FakeLLM,
    JsonRequest,
    ResponseCache,
    cache_key,
    complete_batch,
)
from kgreason.llm.schema import SchemaError

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["成都飞机工业集团", "沈阳飞机工业集团"]}},
    "required": ["answer"],
    "additionalProperties": False,
}
MSGS = [ChatMessage("user", "歼-20是哪家单位研制的？")]


def test_fake_queue_replies_and_failure_kinds() -> None:
    fake = FakeLLM(
        [
            {"answer": "成都飞机工业集团"},
            '{"answer": "歼-20"}',
            "这不是JSON",
            FakeFailure("server_error", "模拟服务器错误"),
        ]
    )
    results = [fake.complete_json(MSGS, SCHEMA) for _ in range(5)]
    assert results[0].ok and results[0].value == {"answer": "成都飞机工业集团"}
    assert [r.ok or r.kind for r in results[1:]] == ["schema_mismatch", "invalid_json", "server_error", "server_error"]
    assert "empty" in results[4].message  # the queue ran dry: a failure, never an exception
    assert len(fake.calls) == 5 and fake.calls[0].messages == MSGS


def test_fake_callable_and_timeout() -> None:
    fake = FakeLLM(lambda msgs, schema: {"answer": schema["properties"]["answer"]["enum"][1]})
    assert fake.complete_json(MSGS, SCHEMA).value == {"answer": "沈阳飞机工业集团"}
    slow = FakeLLM([{"answer": "成都飞机工业集团"}], delay=5.0, timeout=0.1)
    start = time.monotonic()
    result = slow.complete_json(MSGS, SCHEMA)
    assert not result.ok and result.kind == "timeout"
    assert time.monotonic() - start < 1.0


def test_bad_schema_is_a_programming_error() -> None:
    with pytest.raises(SchemaError):
        FakeLLM([{}]).complete_json(MSGS, {"type": "string", "pattern": "x"})


def test_cache_key_depends_on_every_input() -> None:
    ident = {"backend": "fake", "model": "a"}
    base = cache_key(ident, MSGS, SCHEMA, 64)
    assert base == cache_key(dict(reversed(ident.items())), list(MSGS), dict(SCHEMA), 64)  # canonical JSON
    assert base != cache_key({"backend": "fake", "model": "b"}, MSGS, SCHEMA, 64)
    assert base != cache_key(ident, [ChatMessage("user", "歼-15是哪家单位研制的？")], SCHEMA, 64)
    assert base != cache_key(ident, [ChatMessage("system", "歼-20是哪家单位研制的？")], SCHEMA, 64)
    assert base != cache_key(ident, MSGS, {**SCHEMA, "required": []}, 64)
    assert base != cache_key(ident, MSGS, SCHEMA, 65)


def test_cache_hit_skips_the_backend_and_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    fake = FakeLLM(lambda m, s: {"answer": "成都飞机工业集团"})
    cache = ResponseCache(path)
    llm = CachedLLM(fake, cache)
    first = llm.complete_json(MSGS, SCHEMA, max_tokens=32)
    second = llm.complete_json(MSGS, SCHEMA, max_tokens=32)
    assert first.ok and second.ok and not first.usage.cached and second.usage.cached
    assert second.value == first.value and second.usage.prompt_tokens == first.usage.prompt_tokens
    assert len(fake.calls) == 1
    llm.complete_json(MSGS, SCHEMA, max_tokens=33)  # other sampling parameters: a miss
    assert len(fake.calls) == 2
    cache.close()
    reopened = CachedLLM(FakeLLM([]), ResponseCache(path), owns_cache=True)
    assert reopened.complete_json(MSGS, SCHEMA, max_tokens=32).usage.cached
    reopened.close()


def test_failures_are_not_cached(tmp_path: Path) -> None:
    fake = FakeLLM([FakeFailure("timeout"), "乱码", {"answer": "沈阳飞机工业集团"}])
    llm = CachedLLM(fake, ResponseCache(tmp_path / "c.sqlite"), owns_cache=True)
    kinds = [llm.complete_json(MSGS, SCHEMA) for _ in range(4)]
    assert [r.ok or r.kind for r in kinds] == ["timeout", "invalid_json", True, True]
    assert kinds[3].usage.cached and len(fake.calls) == 3
    llm.close()


def test_cache_is_safe_across_threads(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    llm = CachedLLM(FakeLLM(lambda m, s: {"answer": "成都飞机工业集团"}), cache)
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            for j in range(20):
                msgs = [ChatMessage("user", f"问题{(i * 7 + j) % 13}")]
                assert llm.complete_json(msgs, SCHEMA).ok
        except BaseException as exc:  # collected and re-raised in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(cache) == 13
    cache.close()


def test_accounting_counts_per_model(tmp_path: Path) -> None:
    acct = Accounting()
    cache = ResponseCache(tmp_path / "c.sqlite")
    a = AccountedLLM(CachedLLM(FakeLLM(lambda m, s: {"answer": "成都飞机工业集团"}, name="a"), cache), acct)
    b = AccountedLLM(FakeLLM([FakeFailure("timeout"), "not json", {"answer": "歼-20"}], name="b"), acct)
    for _ in range(3):
        a.complete_json(MSGS, SCHEMA)
        b.complete_json(MSGS, SCHEMA)
    summary = acct.summary()
    sa, sb = summary["models"]["fake:a"], summary["models"]["fake:b"]
    assert (sa["calls"], sa["cache_hits"], sa["failures"]) == (3, 2, 0)
    assert sa["prompt_tokens"] == a.complete_json(MSGS, SCHEMA).usage.prompt_tokens  # hits add no tokens
    assert sb["failures_by_kind"] == {"invalid_json": 1, "schema_mismatch": 1, "timeout": 1}
    total = summary["total"]
    assert total["calls"] == 6 and total["failures"] == 3
    line = acct.line()
    assert line.startswith("LLM: 7 calls (3 cached; 3 failed: ") and "timeout=1" in line and "2 models" in line
    cache.close()


def test_batch_keeps_order_and_runs_concurrently() -> None:
    def reply(msgs: list[ChatMessage], schema: dict[str, Any]) -> Any:
        return {"answer": "成都飞机工业集团" if "歼-20" in msgs[-1].content else "沈阳飞机工业集团"}

    fake = FakeLLM(reply, delay=0.2)
    names = ["歼-20", "歼-15"] * 4
    requests = [JsonRequest([ChatMessage("user", f"{name}是哪家单位研制的？")], SCHEMA) for name in names]
    start = time.monotonic()
    results = complete_batch(fake, requests, max_workers=8)
    elapsed = time.monotonic() - start
    assert [r.value["answer"][:2] for r in results if r.ok] == ["成都", "沈阳"] * 4
    assert elapsed < 0.2 * 8 / 2  # concurrent, not sequential
