"""A fake OpenAI-compatible chat server on 127.0.0.1, for tests and benchmarks: it answers every request with a
valid reply for the JSON schema it receives, after a fixed latency, with at most `concurrency` requests being
"generated" at once (the others queue, as on a real server with a fixed number of slots).

    python -m kgreason.llm.fake_server --latency 0.2 --concurrency 16 [--port 0] [--log FILE]

prints its base URL (`http://127.0.0.1:PORT/v1`) on the first line of stdout and serves until killed. `--log`
appends one line per reply sent (`{"n": ..., "user": first line of the user message}`), flushed at once, so a
test can count what a server answered even after killing it.

The reply is the schema's simplest valid instance (`schema_instance`): each enum's first value, each required
property, arrays at their minimum length. The reasoner's choice schema `{"choice": enum [...]}` gets its first id.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

# The schema's simplest value of each JSON type.
_PLAIN: dict[str, Any] = {"string": "", "integer": 0, "number": 0, "boolean": False, "null": None}


def schema_instance(schema: dict[str, Any]) -> Any:
    """The simplest value valid under `schema` (the subset `kgreason.llm.schema` checks)."""
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    if schema.get("anyOf"):
        return schema_instance(schema["anyOf"][0])
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {key: schema_instance(props.get(key, {})) for key in schema.get("required", list(props))}
    if kind == "array":
        return [schema_instance(schema.get("items") or {}) for _ in range(int(schema.get("minItems", 0)))]
    if kind == "string":
        return "x" * int(schema.get("minLength", 0))
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    return _PLAIN.get(str(kind))


def request_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema a chat request asks for, in any of the dialects (`kgreason.llm.dialects`)."""
    fmt = body.get("response_format") or {}
    schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema") or body.get("guided_json")
    return schema if isinstance(schema, dict) else {}


def chat_completion(content: str, prompt_tokens: int = 100, completion_tokens: int = 5) -> bytes:
    return json.dumps(
        {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        },
        ensure_ascii=False,
    ).encode("utf-8")


class FakeChatServer:
    """The server (on a daemon thread). `requests` counts requests received, `replies` replies sent."""

    def __init__(self, *, latency: float = 0.2, concurrency: int = 16, port: int = 0, log: Path | None = None) -> None:
        self.latency = latency
        self._slots = threading.Semaphore(concurrency)
        self._lock = threading.Lock()
        self.requests = 0
        self.replies = 0
        self._log: IO[str] | None = log.open("a", encoding="utf-8") if log is not None else None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers: no new connection per request

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                with contextlib.suppress(OSError):  # the client gave up
                    owner._answer(self, body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _answer(self, h: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests += 1
        with self._slots:  # a busy server queues what it cannot generate now
            time.sleep(self.latency)
        data = chat_completion(json.dumps(schema_instance(request_schema(body)), ensure_ascii=False))
        user = next((m.get("content", "") for m in body.get("messages", []) if m.get("role") == "user"), "")
        # counted before it is sent: a client that has its reply can rely on the count (no race with the write)
        with self._lock:
            self.replies += 1
            if self._log is not None:
                line = {"n": self.replies, "user": str(user).splitlines()[0] if user else ""}
                self._log.write(json.dumps(line, ensure_ascii=False) + "\n")
                self._log.flush()
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)
        h.wfile.flush()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._log is not None:
            self._log.close()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per reply (default 0.2)")
    ap.add_argument("--concurrency", type=int, default=16, help="replies generated at once; more queue (16)")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    ap.add_argument("--log", type=Path, help="append one JSON line per reply sent")
    args = ap.parse_args(argv)
    server = FakeChatServer(latency=args.latency, concurrency=args.concurrency, port=args.port, log=args.log)
    print(server.url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        while True:
            time.sleep(3600)
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
