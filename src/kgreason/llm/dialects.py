"""How each OpenAI-compatible server wants to be told "answer under this JSON schema".

| dialect       | request                                                           | servers                         |
|---------------|-------------------------------------------------------------------|---------------------------------|
| `json_schema` | `response_format={"type":"json_schema","json_schema":{..S..}}`    | vLLM, SGLang, LM Studio, OpenAI |
| `llamacpp`    | `response_format={"type":"json_object","schema":S}`               | llama-cpp-python's server       |
| `guided_json` | `guided_json=S` (extra body field)                                | older vLLM                      |
| `ollama`      | native `/api/chat` with `format=S`                                | Ollama                          |
| `prompt`      | schema written into the system message, no server-side constraint | anything else                   |

llama-cpp-python's server answers the `json_schema` form with HTTP 500, hence its own dialect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from kgreason.llm.request import to_wire, with_schema_in_prompt, with_system
from kgreason.llm.types import ChatMessage

Dialect = Literal["json_schema", "llamacpp", "guided_json", "ollama", "prompt"]
DIALECTS: tuple[Dialect, ...] = ("json_schema", "llamacpp", "guided_json", "ollama", "prompt")

# Server names accepted in `?dialect=` besides the dialect names themselves.
DIALECT_ALIASES: dict[str, Dialect] = {
    "vllm": "json_schema",
    "sglang": "json_schema",
    "lmstudio": "json_schema",
    "openai": "json_schema",
    "llama.cpp": "llamacpp",
    "llama-cpp": "llamacpp",
    "llama_cpp": "llamacpp",
}


class MalformedResponse(Exception):
    """The server's HTTP body is not the shape its API promises (a protocol problem, not a model reply)."""


@dataclass(frozen=True, slots=True)
class ServerReply:
    text: str
    prompt_tokens: int
    completion_tokens: int
    truncated: bool  # generation stopped at max_tokens


def resolve_dialect(name: str) -> Dialect | None:
    """The dialect for a dialect or server name (case-insensitive), or None if unknown."""
    key = name.strip().lower()
    for dialect in DIALECTS:
        if key == dialect:
            return dialect
    return DIALECT_ALIASES.get(key)


def endpoint(base_url: str, dialect: Dialect) -> str:
    """The chat URL: `<base>/chat/completions` (base gets `/v1` if it has no path); Ollama: `<root>/api/chat`."""
    base = base_url.rstrip("/")
    if dialect == "ollama":
        root = base[: -len("/v1")] if base.endswith("/v1") else base
        return f"{root}/api/chat"
    if base.endswith("/chat/completions"):
        return base
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return f"{base}/chat/completions"


def build_body(
    dialect: Dialect,
    model: str,
    messages: list[ChatMessage],
    schema: dict[str, Any],
    *,
    max_tokens: int,
    seed: int,
) -> dict[str, Any]:
    """The JSON request body (temperature 0, fixed seed, always a system message)."""
    if dialect == "ollama":
        return {
            "model": model,
            "messages": to_wire(with_system(messages)),
            "format": schema,
            "stream": False,
            "options": {"temperature": 0, "seed": seed, "num_predict": max_tokens},
        }
    msgs = with_schema_in_prompt(messages, schema) if dialect == "prompt" else with_system(messages)
    body: dict[str, Any] = {
        "model": model,
        "messages": to_wire(msgs),
        "temperature": 0,
        "max_tokens": max_tokens,
        "seed": seed,
        "stream": False,
    }
    if dialect == "json_schema":
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
    elif dialect == "llamacpp":
        body["response_format"] = {"type": "json_object", "schema": schema}
    elif dialect == "guided_json":
        body["guided_json"] = schema
    return body


MAX_REPORTED_TOKENS = 10_000_000  # more than any context window: a larger count is a server bug, not usage


def _int(value: Any) -> int:
    """A token count as a server reports it, sanitised: negative, non-integer or absurd values count as 0."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_REPORTED_TOKENS:
        return value
    return 0


def parse_body(dialect: Dialect, data: Any) -> ServerReply:
    """Extract the reply text and token counts; `MalformedResponse` if the body has the wrong shape."""
    if not isinstance(data, dict):
        raise MalformedResponse(f"expected a JSON object, got {type(data).__name__}")
    if dialect == "ollama":
        message = data.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("content"), str):
            raise MalformedResponse("no message.content in the reply")
        return ServerReply(
            text=message["content"],
            prompt_tokens=_int(data.get("prompt_eval_count")),
            completion_tokens=_int(data.get("eval_count")),
            truncated=data.get("done_reason") == "length",
        )
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise MalformedResponse("no choices in the reply")
    message = choices[0].get("message")
    if not isinstance(message, dict) or not isinstance(message.get("content"), str):
        raise MalformedResponse("no choices[0].message.content in the reply")
    usage = data.get("usage")
    if not isinstance(usage, dict):
        usage = {}
    return ServerReply(
        text=message["content"],
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        truncated=choices[0].get("finish_reason") == "length",
    )
