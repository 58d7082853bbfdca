"""Helpers of the LLM-layer tests: the entity question, free ports, scripted replies. A plain module with its own
name (not `conftest`), so test files of several folders can import their helpers in one pytest session."""

from __future__ import annotations

import importlib.util
import json
import socket
from dataclasses import dataclass, field
from typing import Any

import pytest

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
