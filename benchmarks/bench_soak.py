"""Soak benchmark: 10,000 questions (the sample replicated) through `kgreason run` against a fake model server on
127.0.0.1 that fails 20% of calls in mixed ways, with the run killed (SIGKILL) part-way and resumed.

    .venv/bin/python benchmarks/bench_soak.py                     # 10,000 questions, kill after 20 s
    .venv/bin/python benchmarks/bench_soak.py --questions 2000 --kill-after 5

Prints: answers N/N, duplicates (in result.json and among the trace's answers), wall time, the failures the server
injected by kind, and the LLM failures as the run accounted them (result.run.json; the accounting of the last
process, and the fallbacks counted over every answer, resumed ones included).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "examples" / "sample"

# 20% of calls fail: (kind, share of all calls).
FAULTS = [("http_503", 0.05), ("dropped", 0.04), ("not_json", 0.04), ("too_slow", 0.03), ("bad_choice", 0.02)]
FAULTS += [("trickle", 0.02)]


class FaultyServer:
    """An OpenAI-style chat server: valid choices, except a seeded 20% of calls that fail in one of `FAULTS`."""

    def __init__(self, seed: int, slow_seconds: float) -> None:
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.slow = slow_seconds
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
                    owner.answer(self, body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _fault(self) -> str:
        with self.lock:
            x = self.rng.random()
            for kind, share in FAULTS:
                if x < share:
                    self.counts[kind] += 1
                    return kind
                x -= share
            self.counts["ok"] += 1
            return "ok"

    def answer(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        kind = self._fault()
        if kind == "dropped":
            h.close_connection = True
            h.connection.shutdown(2)
            return
        if kind == "http_503":
            self._send(h, 503, b"overloaded")
            return
        if kind == "too_slow":
            time.sleep(self.slow)
        ids = body["response_format"]["json_schema"]["schema"]["properties"]["choice"]["enum"]
        content = {"not_json": "我选 C1", "bad_choice": '{"choice": "C99"}'}.get(kind, json.dumps({"choice": ids[0]}))
        reply = {
            "choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 5},
        }
        data = json.dumps(reply).encode()
        if kind == "trickle":
            h.send_response(200)
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            for i in range(len(data)):
                h.wfile.write(data[i : i + 1])
                h.wfile.flush()
                time.sleep(0.2)
            return
        self._send(h, 200, data)

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, data: bytes) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def replicated_dataset(target: Path, n: int) -> None:
    """The sample with its questions repeated under new query_ids up to `n` (documents and KGs shared)."""
    shutil.copytree(SAMPLE, target)
    (target / "qa_answer.json").unlink(missing_ok=True)
    base = json.loads((SAMPLE / "qa.json").read_text(encoding="utf-8"))
    questions = [
        {**q, "query_id": f"{q['query_id']}_r{i // len(base)}"} for i, q in enumerate(base * (n // len(base) + 1))
    ]
    (target / "qa.json").write_text(json.dumps(questions[:n], ensure_ascii=False), encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", type=int, default=10_000)
    ap.add_argument("--kill-after", type=float, default=20.0, help="SIGKILL the first run after this many seconds")
    ap.add_argument("--timeout", type=float, default=1.0, help="KGREASON_LLM_TIMEOUT for the run")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    server = FaultyServer(args.seed, slow_seconds=args.timeout * 2)
    work = Path(tempfile.mkdtemp(prefix="kgreason-soak-"))
    try:
        data = work / "data"
        replicated_dataset(data, args.questions)
        out = work / "run" / "result.json"
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO / "src"),
            "KGREASON_LLM_CACHE": "off",  # replicated questions repeat prompts: every call must reach the server
            "KGREASON_LLM_TIMEOUT": str(args.timeout),
        }
        cmd = [
            sys.executable,
            "-m",
            "kgreason.cli",
            "run",
            str(data),
            "-o",
            str(out),
            "--llm",
            f"openai:{server.url}#soak",
        ]
        started = time.monotonic()
        first = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            first.wait(timeout=args.kill_after)
            killed = False
        except subprocess.TimeoutExpired:
            first.send_signal(signal.SIGKILL)
            first.wait()
            killed = True
        second = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        wall = time.monotonic() - started

        result = json.loads(out.read_text(encoding="utf-8"))
        ids = [r["query_id"] for r in result]
        trace_answers = Counter(
            e["query_id"]
            for e in (
                json.loads(line) for line in out.with_name("result.trace.jsonl").read_bytes().splitlines() if line
            )
            if e.get("status") == "ok"
        )
        run_info = json.loads(out.with_name("result.run.json").read_text(encoding="utf-8"))
        summary, accounting = run_info["summary"], (run_info["llm_accounting"] or {}).get("total", {})
        print(
            f"questions: {args.questions}; first run "
            f"{'killed after' if killed else 'finished within'} {args.kill_after:g} s"
        )
        print(
            f"answers {len(set(ids))}/{args.questions}, duplicates {len(ids) - len(set(ids))} in result.json, "
            f"{sum(n - 1 for n in trace_answers.values() if n > 1)} among the trace's answers"
        )
        print(f"wall time {wall:.1f} s (both runs); exit code of the resumed run {second.returncode}")
        injected = {k: v for k, v in server.counts.items() if k != "ok"}
        calls = sum(server.counts.values())
        print(
            f"server: {calls} requests, {sum(injected.values())} failed on purpose "
            f"({100 * sum(injected.values()) / max(calls, 1):.1f}%): {dict(sorted(injected.items()))}"
        )
        print(
            f"resumed run's accounting: {accounting.get('calls', 0)} calls, {accounting.get('failures', 0)} failed: "
            f"{accounting.get('failures_by_kind', {})}"
        )
        print(
            f"answers where the LLM was asked: {summary['llm_asked_answers']}, where it failed and the program's "
            f"choice stands: {summary['llm_failed_answers']} (all answers, resumed ones included)"
        )
        ok = len(set(ids)) == args.questions and len(ids) == len(set(ids)) and second.returncode in (0, 1)
        if not ok:
            print(second.stderr[-3000:])
        return 0 if ok else 1
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
