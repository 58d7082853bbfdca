"""Real models: the embedded 0.5B model in-process, and llama-cpp-python's OpenAI-compatible server (slow)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from llm_support import ENTITIES, ENTITY_SCHEMA, entity_question, free_port, needs_llama

from kgreason.llm import Accounting, LLMConfig, close_llm, create_llm
from kgreason.llm.embedded import EmbeddedLLM
from kgreason.llm.models import QWEN_CODER_0_5B

pytestmark = [pytest.mark.slow, needs_llama]


@pytest.fixture(scope="module")
def small_llm(small_model_path: Path) -> Iterator[EmbeddedLLM]:
    llm = EmbeddedLLM.from_file(
        small_model_path, LLMConfig(n_ctx=1024), label=QWEN_CODER_0_5B.label, model_sha256=QWEN_CODER_0_5B.sha256
    )
    try:
        yield llm
    finally:
        llm.close()


def test_embedded_schema_call_picks_from_the_chinese_enum(small_llm: EmbeddedLLM) -> None:
    result = small_llm.complete_json(entity_question("歼-20的研制单位是哪家？"), ENTITY_SCHEMA, max_tokens=32)
    assert result.ok, result
    assert result.value["entity"] in ENTITIES and set(result.value) == {"entity"}
    assert result.usage.prompt_tokens > 50 and result.usage.completion_tokens > 0
    again = small_llm.complete_json(entity_question("歼-20的研制单位是哪家？"), ENTITY_SCHEMA, max_tokens=32)
    assert again.ok and again.value == result.value  # greedy decoding, fixed seed: deterministic


def _server_command(model: Path, port: int) -> list[str]:
    import llama_cpp

    from kgreason.llm.llama_runtime import build_has_amx

    # A native build on an AMX CPU crashes in some VMs unless extra buffer types are off; our launcher sets that
    # and then runs llama_cpp.server's own main with the same arguments. Elsewhere the server is started as is.
    module = "kgreason.llm.llama_runtime" if build_has_amx(llama_cpp) else "llama_cpp.server"
    return [
        sys.executable, "-m", module, "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--n_threads", "2", "--n_ctx", "1024",
    ]  # fmt: skip


@pytest.fixture
def llama_server(small_model_path: Path, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen(_server_command(small_model_path, port), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}: {(tmp_path / 'server.log').read_text()}")
            try:
                if httpx.get(f"{base}/models", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server not ready within 120 s")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def test_llama_cpp_server_schema_call_then_cache_hit(llama_server: str, tmp_path: Path) -> None:
    config = LLMConfig(cache_dir=tmp_path, timeout=120.0, retries=1)
    accounting = Accounting()
    llm = create_llm(f"openai:{llama_server}#small?dialect=llamacpp", config, accounting=accounting)
    assert llm is not None
    try:
        messages = entity_question("歼-20的研制单位隶属于哪个集团？")
        first = llm.complete_json(messages, ENTITY_SCHEMA, max_tokens=32)
        assert first.ok, first
        assert first.value["entity"] in ENTITIES and not first.usage.cached
        assert first.usage.prompt_tokens > 50
        second = llm.complete_json(messages, ENTITY_SCHEMA, max_tokens=32)
        assert second.ok and second.usage.cached and second.value == first.value
        summary = accounting.summary()["total"]
        assert (summary["calls"], summary["cache_hits"], summary["failures"]) == (2, 1, 0)
    finally:
        close_llm(llm)


def test_llama_cpp_server_two_workers_write_what_one_writes(llama_server: str, tmp_path: Path) -> None:
    """`kgreason run --workers 2` against the real server: the same result.json and trace (timings aside) as one
    worker, on 4 questions of the sample with the model asked on each (6 minutes at load 13 on 2 cores)."""
    import json

    from kgreason.data.loader import load_dataset
    from kgreason.reason.config import ReasonerConfig
    from kgreason.reason.reasoner import Reasoner
    from kgreason.reason.runner import run_dataset

    sample = Path(__file__).resolve().parents[2] / "examples" / "sample"
    dataset, _ = load_dataset(sample, check_gold=False)
    only = [q.query_id for q in dataset.questions][:4]
    ask_always = ReasonerConfig(llm_margin=1e9, llm_confirm_single=True)

    def timeless(line: str) -> dict[str, object]:
        entry = json.loads(line)
        return {k: v for k, v in entry.items() if k not in ("seconds", "seconds_by_stage")} | {
            part: {k: v for k, v in entry[part].items() if k != "seconds"}
            for part in ("llm", "reading")
            if isinstance(entry.get(part), dict)
        }

    outputs = []
    for workers in (1, 2):
        config = LLMConfig(response_cache=False, timeout=300.0, retries=0, max_concurrency=2)
        llm = create_llm(f"openai:{llama_server}#small?dialect=llamacpp", config)
        try:
            out = tmp_path / f"n{workers}" / "result.json"
            summary = run_dataset(dataset, Reasoner(dataset, ask_always, llm=llm), out, only=only, workers=workers)
        finally:
            close_llm(llm)
        assert summary.answered == 4 and summary.fallback == 0
        assert summary.llm_calls >= 3  # the real model was asked
        trace = [timeless(x) for x in out.with_name("result.trace.jsonl").read_text(encoding="utf-8").splitlines()]
        outputs.append((out.read_bytes(), trace))
    assert outputs[1] == outputs[0]
