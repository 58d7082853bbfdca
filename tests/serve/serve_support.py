"""Helpers of the `kgreason serve` tests: a real server process on 127.0.0.1 (port 0: the OS picks a free one,
read from the server's start-up line). A plain module with its own name (not `conftest`), so test files of several
folders can import their helpers in one pytest session."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi", reason="kgreason serve needs the serve extra (pip install 'kgreason[serve]')")
pytest.importorskip("uvicorn", reason="kgreason serve needs the serve extra (pip install 'kgreason[serve]')")

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample"
_ADDRESS = re.compile(r"kgreason serve: (http://127\.0\.0\.1:\d+)/")


@dataclass
class Served:
    url: str
    process: subprocess.Popen[str]
    log: Path

    def client(self, timeout: float = 30.0) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=timeout)


def start_server(args: list[str], log: Path, env: dict[str, str] | None = None, wait: float = 60.0) -> Served:
    """`kgreason serve ARGS --port 0` in a new process; returns once it listens (or fails with its log)."""
    full_env = dict(os.environ, KGREASON_LLM_CACHE="off", **(env or {}))
    fh = log.open("w", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgreason.cli", "serve", *args, "--port", "0"],
        stdout=fh,
        stderr=subprocess.STDOUT,
        text=True,
        env=full_env,
    )
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        m = _ADDRESS.search(log.read_text(encoding="utf-8"))
        if m:
            served = Served(m.group(1), proc, log)
            with served.client(5.0) as c:  # the socket listens before the start-up line: one request proves it
                c.get("/api/health").raise_for_status()
            return served
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"kgreason serve did not start:\n{log.read_text(encoding='utf-8')}")


def stop_server(served: Served) -> None:
    served.process.terminate()
    try:
        served.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        served.process.kill()
        served.process.wait(timeout=10)


ServerFactory = Callable[..., Served]
