"""One slow LLM call does not block other requests: `kgreason serve` with an OpenAI-compatible model that takes
2 s per reply (a scripted local server); while a question that consults it is in flight, the health check, a
document, a run's table and a question the program answers alone come back at once."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from serve_support import SAMPLE, ServerFactory

LLM_DELAY = 2.0
# doc_01_004: its best candidates are close, so the LLM is asked
AMBIGUOUS = ("doc_01", "闪电II战斗机所用的发动机是哪家公司研制的？")
CLEAR = ("doc_01", "F-35C的翼展是多少？")  # doc_01_001: one clear candidate -> no LLM call


class _SlowModel(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)  # type: ignore[attr-defined]
        time.sleep(LLM_DELAY)
        reply = {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": '{"choice": "C1"}'}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 5},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def slow_model() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowModel)
    server.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_slow_llm_call_does_not_block_other_requests(
    serve: ServerFactory, slow_model: ThreadingHTTPServer, sample_run: Path
) -> None:
    host, port = slow_model.server_address[:2]
    llm = f"openai:http://{host!s}:{port}/v1#slow-model"
    served = serve(str(SAMPLE), "--llm", llm, "--threads", "4", "--runs", str(sample_run))

    def timed(fn: Any) -> tuple[float, float, Any]:
        t0 = time.monotonic()
        out = fn()
        return t0, time.monotonic(), out

    with served.client(timeout=60) as c, ThreadPoolExecutor(max_workers=5) as pool:
        slow = pool.submit(
            timed,
            lambda: c.post("/api/ask", json={"dataset": "sample", "doc_id": AMBIGUOUS[0], "question": AMBIGUOUS[1]}),
        )
        time.sleep(0.3)  # the slow question is now waiting for the model
        fast = [
            pool.submit(timed, lambda: c.get("/api/health")),
            pool.submit(timed, lambda: c.get("/api/datasets/sample/documents/doc_01")),
            pool.submit(timed, lambda: c.get("/api/runs/items", params={"run": "r1/result.json"})),
            pool.submit(
                timed,
                lambda: c.post("/api/ask", json={"dataset": "sample", "doc_id": CLEAR[0], "question": CLEAR[1]}),
            ),
        ]
        fast_results = [f.result() for f in fast]
        slow_start, slow_end, slow_resp = slow.result()
    assert slow_resp.status_code == 200, slow_resp.text
    answer = slow_resp.json()
    assert answer["llm"]["asked"] and answer["llm"]["seconds"] >= LLM_DELAY * 0.9
    assert len(slow_model.requests) == 1  # type: ignore[attr-defined]
    assert slow_end - slow_start >= LLM_DELAY
    for start, end, resp in fast_results:
        assert resp.status_code == 200, resp.text
        assert end - start < 1.0, f"{resp.request.url} took {end - start:.2f} s behind the slow LLM call"
        assert end < slow_end  # answered while the slow call was still running
    assert fast_results[3][2].json()["llm"]["asked"] is False
