"""Fixtures for the LLM-layer tests: a scriptable local HTTP server, free ports, the small real model."""

from __future__ import annotations

import importlib.util
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from kgreason.llm.config import LLMConfig
from kgreason.llm.models import QWEN_CODER_0_5B, ensure_model_file
from kgreason.llm.types import ChatMessage

HAS_LLAMA = importlib.util.find_spec("llama_cpp") is not None
needs_llama = pytest.mark.skipif(not HAS_LLAMA, reason="llama_cpp (llama-cpp-python) is not importable")

# The closed list the model must choose from: Chinese entity names, as the reasoner's schemas do.
ENTITIES = ["歼-20", "成都飞机工业集团", "沈阳飞机工业集团", "中国航空工业集团"]
ENTITY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"entity": {"type": "string", "enum": ENTITIES}},
    "required": ["entity"],
    "additionalProperties": False,
}
KG_TEXT = (
    "知识图谱：\n(歼-20, 研制单位, 成都飞机工业集团)\n(成都飞机工业集团, 隶属于, 中国航空工业集团)\n"
    "(歼-15, 研制单位, 沈阳飞机工业集团)\n"
)


def entity_question(question: str) -> list[ChatMessage]:
    return [
        ChatMessage("system", "你是知识图谱问答助手，只能从给定实体中选择答案。"),
        ChatMessage("user", f"{KG_TEXT}问题：{question}\n请选出答案实体。"),
    ]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Exchange:
    """What the scripted server does for one request: status, body bytes, delay before answering."""

    status: int = 200
    body: bytes = b""
    delay: float = 0.0
    content_type: str = "application/json"


def chat_body(content: str, prompt_tokens: int = 10, completion_tokens: int = 5) -> bytes:
    """An OpenAI chat-completions response whose message content is `content`."""
    return json.dumps(
        {
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        },
        ensure_ascii=False,
    ).encode("utf-8")


@dataclass
class ScriptedServer:
    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


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
