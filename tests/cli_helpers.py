"""Driving the real `kgreason` command as a person would: in a pseudo-terminal (Ctrl-C, live progress, the
terminal's width) or with pipes, against a local chat server whose replies a test scripts."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "examples" / "sample"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def kgreason_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "kgreason.cli", *args]


def child_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a child `kgreason`: this checkout's sources first, a private cache."""
    src = str(REPO / "src")
    path = os.environ.get("PYTHONPATH", "")
    return {
        **os.environ,
        "PYTHONPATH": f"{src}{os.pathsep}{path}" if path else src,
        "KGREASON_CACHE_DIR": str(tmp / "cache"),
        **extra,
    }


@dataclass
class PtyRun:
    """A child process whose stdin/stdout/stderr are a pseudo-terminal of `cols` columns."""

    pid: int
    fd: int
    output: bytearray = field(default_factory=bytearray)
    status: int | None = None

    def read(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, min(0.1, end - time.monotonic())))
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                return
            if not chunk:
                return
            self.output += chunk

    def read_until(self, predicate: Callable[[str], bool], timeout: float) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.read(0.2)
            if predicate(self.text):
                return True
        return False

    @property
    def text(self) -> str:
        """What the terminal received, control sequences removed."""
        return ANSI.sub("", self.output.decode("utf-8", errors="replace"))

    def ctrl_c(self) -> None:
        os.write(self.fd, b"\x03")  # the terminal turns it into SIGINT for the foreground process group

    def wait(self, timeout: float) -> int | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.read(0.3)
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        return None

    def kill(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@contextmanager
def run_in_pty(argv: list[str], env: dict[str, str], *, cols: int = 80, rows: int = 30) -> Iterator[PtyRun]:
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session leader whose controlling terminal is the pty
        try:
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    run = PtyRun(pid, fd)
    try:
        yield run
    finally:
        run.kill()


def chat_reply(content: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": json.dumps(content)}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 5},
        }
    ).encode("utf-8")


@dataclass
class ChatServer:
    """An OpenAI-compatible chat endpoint on 127.0.0.1. `behaviour(n)` for the n-th request (0-based) returns
    "ok" (choose C1), "down" (HTTP 503) or a number of seconds to hang before choosing C1."""

    behaviour: Callable[[int], str | float]
    questions: list[str] = field(default_factory=list)  # the question line of each request
    url: str = ""

    def spec(self) -> str:
        return f"openai:{self.url}#test-model"


def first_choice(body: dict[str, Any]) -> dict[str, Any]:
    """A reply that fits the request's JSON schema: each enum property's first value (the reasoner asks for a choice
    `{"choice": "C1"}` or a reading `{"type": ...}`)."""
    fmt = body.get("response_format") or {}
    schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema") or {}
    props = schema.get("properties") or {}
    reply = {k: v["enum"][0] for k, v in props.items() if isinstance(v, dict) and v.get("enum")}
    return reply or {"choice": "C1"}


@contextmanager
def chat_server(behaviour: Callable[[int], str | float]) -> Iterator[ChatServer]:
    record = ChatServer(behaviour)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
            with lock:
                n = len(record.questions)
                record.questions.append(user.splitlines()[0] if user else "")
            what = record.behaviour(n)
            if what == "down":
                payload, status = b'{"error": "overloaded"}', 503
            else:
                if isinstance(what, float | int):
                    time.sleep(float(what))
                payload, status = chat_reply(first_choice(body)), 200
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the client went away (interrupted)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    record.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield record
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Stopped:
    returncode: int
    stderr: str
    seconds: float  # from SIGTERM to the process's end


def sigterm_during_model_call(args: Callable[[ChatServer], list[str]], tmp: Path, *, wait: float = 40) -> Stopped:
    """Run `kgreason ARGS` (given the chat server, whose every reply hangs 30 s), send SIGTERM once the first model
    call has reached the server, and return how the process ended."""
    with chat_server(lambda n: 30.0) as server:
        env = child_env(tmp, KGREASON_LLM_CACHE="off")
        argv = kgreason_argv(*args(server))
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not server.questions and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert server.questions, proc.communicate(timeout=5)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=wait)
        return Stopped(proc.returncode, stderr, time.monotonic() - t0)
