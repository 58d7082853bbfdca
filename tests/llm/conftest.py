"""Fixtures for the LLM-layer tests: a scriptable local HTTP server and the small real model (helpers in
`llm_support`)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from llm_support import Exchange, ScriptedServer

from kgreason.llm.config import LLMConfig
from kgreason.llm.models import QWEN_CODER_0_5B, ensure_model_file


@pytest.fixture
def scripted_server() -> Iterator[Callable[[Callable[[int, dict[str, Any]], Exchange]], ScriptedServer]]:
    """Start a local HTTP server whose replies come from `script(request_index, json_body)`."""
    servers: list[ThreadingHTTPServer] = []

    def start(script: Callable[[int, dict[str, Any]], Exchange]) -> ScriptedServer:
        record = ScriptedServer(url="")
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                data = json.loads(self.rfile.read(length) or b"{}")
                with lock:
                    index = len(record.requests)
                    record.requests.append(data)
                    record.headers.append(dict(self.headers.items()))
                exchange = script(index, data)
                if exchange.delay:
                    time.sleep(exchange.delay)
                try:
                    self.send_response(exchange.status)
                    self.send_header("Content-Type", exchange.content_type)
                    self.send_header("Content-Length", str(len(exchange.body)))
                    self.end_headers()
                    self.wfile.write(exchange.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        record.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        return record

    try:
        yield start
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="session")
def small_model_path() -> Path:
    """The 0.5B GGUF in the documented cache (assembled once; KGREASON_CACHE_DIR moves it)."""
    return ensure_model_file(QWEN_CODER_0_5B, LLMConfig().models_dir())
