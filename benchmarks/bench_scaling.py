"""Scaling benchmark: questions/s of `kgreason run --workers N` against a served model, and two endpoints with one
killed mid-run.

    .venv/bin/python benchmarks/bench_scaling.py                       # about 5 minutes on 2 shared cores
    .venv/bin/python benchmarks/bench_scaling.py --questions 1000 --workers 1,8

The model is a fake OpenAI-compatible server (`kgreason.llm.fake_server`, its own process on 127.0.0.1): a valid
reply for the request's JSON schema after a fixed latency (200 ms), at most 16 replies generated at once (more
queue). The data is `ccks_ext_dev` with its questions replicated under new query_ids (a temporary folder). The LLM
reply cache is off: every call reaches the server.

1. Scaling, the model asked on every question (`llm_margin` very large and `llm_confirm_single`: what a run with a
   strong served model looks like): questions/s for each N, the ratio to N = 1, and whether result.json and the
   trace (timings left out) are identical for every N.
2. The same with the default settings (the model asked only among close candidates, about 1 question in 5), N = 1
   and N = 8: here the program's own CPU work, one core under Python's interpreter lock, bounds the gain sooner.
3. `kgreason run --workers 8 --llm openai:URL1,URL2#fake` (the real command, a subprocess) with the second server
   killed (SIGKILL) part-way: every question answered once, the exit status, how many requests each server
   answered and that their sum equals the calls that succeeded (no question's call was answered twice).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from kgreason.data.loader import load_dataset
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm, llm_accounting
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.runner import run_dataset

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "ccks_ext_dev"
TIMING_KEYS = frozenset({"seconds", "seconds_by_stage"})


class FakeServerProcess:
    """`python -m kgreason.llm.fake_server` as a child process (so it does not share this process's GIL)."""

    def __init__(self, latency: float, concurrency: int, log: Path | None = None) -> None:
        cmd = [sys.executable, "-m", "kgreason.llm.fake_server", "--latency", str(latency)]
        cmd += ["--concurrency", str(concurrency)]
        if log is not None:
            cmd += ["--log", str(log)]
        env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http://"):
            raise SystemExit(f"the fake server did not start: {self.url!r}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


def replicated(source: Path, target: Path, n: int) -> None:
    """`source`'s documents and KGs, its questions repeated under new query_ids up to `n` (no gold)."""
    target.mkdir(parents=True)
    for f in source.iterdir():
        if f.name.startswith("KG_") or f.name == "document.json":
            shutil.copy(f, target / f.name)
    base = json.loads((source / "qa.json").read_text(encoding="utf-8"))
    rounds = n // len(base) + 1
    questions = [{**q, "query_id": f"{q['query_id']}_r{i // len(base)}"} for i, q in enumerate(base * rounds)]
    (target / "qa.json").write_text(json.dumps(questions[:n], ensure_ascii=False), encoding="utf-8")


def trace_without_timings(path: Path) -> list[Any]:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMING_KEYS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return [strip(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def timed_run(data: Path, out: Path, url: str, config: ReasonerConfig, workers: int) -> tuple[float, int, int]:
    """(seconds, LLM calls, failed calls) of one run, from a fresh reasoner and model (nothing cached)."""
    dataset, _ = load_dataset(data, check_gold=False)
    llm_config = LLMConfig(response_cache=False, max_concurrency=max(4, workers), timeout=60.0)
    llm = create_llm(f"openai:{url}#fake", llm_config)
    try:
        reasoner = Reasoner(dataset, config, llm=llm)
        start = time.monotonic()
        run_dataset(dataset, reasoner, out / "result.json", resume=False, workers=workers)
        seconds = time.monotonic() - start
        acc = llm_accounting(llm)
        total = acc.total() if acc is not None else None
    finally:
        close_llm(llm)
    return seconds, total.calls if total else 0, sum(total.failures.values()) if total else 0


def scaling(data: Path, work: Path, url: str, config: ReasonerConfig, label: str, ns: list[int], n: int) -> bool:
    print(f"== {label}")
    print(
        f"{'workers':>7} {'seconds':>8} {'q/s':>7} {'x N=1':>6} {'LLM calls':>9} {'failed':>6}  identical to N={ns[0]}"
    )
    first: tuple[bytes, list[Any]] | None = None
    base_rate = 0.0
    same_everywhere = True
    for workers in ns:
        out = work / f"{label.split()[0]}-n{workers}"
        seconds, calls, failed = timed_run(data, out, url, config, workers)
        rate = n / seconds
        base_rate = base_rate or rate
        result = (out / "result.json").read_bytes()
        trace = trace_without_timings(out / "result.trace.jsonl")
        if first is None:
            first = (result, trace)
            same = "-"
        else:
            ok = result == first[0] and trace == first[1]
            same_everywhere &= ok
            same = "yes" if ok else "NO (result.json)" if result != first[0] else "NO (trace)"
        print(f"{workers:>7} {seconds:>8.1f} {rate:>7.1f} {rate / base_rate:>6.2f} {calls:>9} {failed:>6}  {same}")
    return same_everywhere


def killed_endpoint(data: Path, work: Path, latency: float, concurrency: int, n: int, kill_after: int) -> bool:
    print("== two endpoints, the second killed part-way: kgreason run --workers 8")
    logs = [work / "server1.log", work / "server2.log"]
    servers = [FakeServerProcess(latency, concurrency, log) for log in logs]
    out = work / "two-endpoints"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "KGREASON_LLM_CACHE": "off"}
    spec = f"openai:{servers[0].url},{servers[1].url}#fake"
    cmd = [sys.executable, "-m", "kgreason.cli", "run", str(data), "-o", str(out), "--workers", "8", "--llm", spec]
    print("   ", " ".join(cmd[2:]))
    start = time.monotonic()
    run = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        while run.poll() is None and _lines(logs[1]) < kill_after:  # the second server answered some requests
            time.sleep(0.05)
        served_before = _lines(logs[1])
        servers[1].kill()
        killed_at = time.monotonic() - start
        _, stderr = run.communicate(timeout=600)
    finally:
        for s in servers:
            s.kill()
    seconds = time.monotonic() - start
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    ids = [r["query_id"] for r in result]
    lines = [json.loads(x) for x in (out / "result.trace.jsonl").read_text(encoding="utf-8").splitlines() if x]
    per_question = Counter(e["query_id"] for e in lines if e.get("status") == "ok")
    record = json.loads((out / "result.run.json").read_text(encoding="utf-8"))
    total = (record.get("llm_accounting") or {}).get("total", {})
    successes = total.get("calls", 0) - total.get("failures", 0)
    replies = [_lines(log) for log in logs]
    print(f"    killed server 2 after it had answered {served_before} requests, {killed_at:.1f} s into the run")
    print(
        f"    exit status {run.returncode}; {seconds:.1f} s; answers {len(set(ids))}/{n}, duplicates in result.json "
        f"{len(ids) - len(set(ids))}, trace lines per question: max {max(per_question.values(), default=0)}"
    )
    print(
        f"    replies sent: server 1 {replies[0]}, server 2 {replies[1]} (sum {sum(replies)}); LLM calls that "
        f"succeeded {successes} of {total.get('calls', 0)} (failures by kind {total.get('failures_by_kind', {})})"
    )
    for line in stderr.splitlines():
        if line.startswith("LLM endpoint"):
            print("    run said:", line.strip())
    ok = (
        run.returncode == 0
        and sorted(ids) == sorted(set(ids))
        and len(ids) == n
        and max(per_question.values(), default=0) == 1
        and sum(replies) == successes
    )
    print(f"    {'OK' if ok else 'FAILED'}: every question answered once, no call answered twice")
    return ok


def _lines(path: Path) -> int:
    try:
        return sum(1 for _ in path.open("rb"))
    except OSError:
        return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--questions", type=int, default=500)
    ap.add_argument("--workers", default="1,2,4,8,16")
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--kill-after", type=int, default=15, help="kill server 2 after it answered this many requests")
    ap.add_argument("--endpoints-only", action="store_true", help="only part 3 (two endpoints, one killed)")
    args = ap.parse_args()
    ns = [int(x) for x in args.workers.split(",")]
    work = Path(tempfile.mkdtemp(prefix="kgreason-scaling-"))
    server = FakeServerProcess(args.latency, args.concurrency)
    try:
        data = work / "data"
        replicated(args.data, data, args.questions)
        print(
            f"{args.questions} questions ({args.data.name} replicated); fake server: {args.latency * 1000:.0f} ms "
            f"per reply, {args.concurrency} at once; reply cache off"
        )
        ok = True
        if not args.endpoints_only:
            every = ReasonerConfig(llm_margin=1e9, llm_confirm_single=True)
            label = "every-question (model asked on every question)"
            ok &= scaling(data, work, server.url, every, label, ns, args.questions)
            ends = sorted({ns[0], 8 if 8 in ns else ns[-1]})
            label = "default (model asked among close candidates)"
            ok &= scaling(data, work, server.url, ReasonerConfig(), label, ends, args.questions)
        server.kill()
        ok &= killed_endpoint(data, work, args.latency, args.concurrency, args.questions, args.kill_after)
        return 0 if ok else 1
    finally:
        server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
