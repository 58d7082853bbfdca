"""What a caller asks for: messages under a schema. Shared by all backends and the batch helper."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kgreason.llm.types import ChatMessage

# Qwen's chat template inserts its own generic system prompt when none is given, which shifts the model's behaviour;
# sending ours keeps the prompt identical across embedded and served backends.
DEFAULT_SYSTEM = "You are a precise assistant. Reply with one JSON value that follows the requested schema."


@dataclass(frozen=True, slots=True)
class JsonRequest:
    """One schema-constrained call, for batch helpers."""

    messages: list[ChatMessage]
    schema: dict[str, Any]
    max_tokens: int = 256
    tag: str = ""  # free caller label (e.g. a query id), carried through unchanged


def with_system(messages: list[ChatMessage], system: str = DEFAULT_SYSTEM) -> list[ChatMessage]:
    """`messages` with a system message first (the caller's own one is kept if present)."""
    if messages and messages[0].role == "system":
        return list(messages)
    return [ChatMessage(role="system", content=system), *messages]


def with_schema_in_prompt(messages: list[ChatMessage], schema: dict[str, Any]) -> list[ChatMessage]:
    """For servers without constrained decoding: state the schema in the system message."""
    msgs = with_system(messages)
    schema_text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    first = ChatMessage(role="system", content=f"{msgs[0].content}\nJSON schema of the reply: {schema_text}")
    return [first, *msgs[1:]]


def to_wire(messages: list[ChatMessage]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in messages]
