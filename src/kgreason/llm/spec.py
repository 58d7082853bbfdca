"""The model spec string (`--llm`, `KGREASON_LLM`, `LLMConfig.spec`) and its typed form.

    none                                   no model (the reasoner runs its program-only path)
    embedded                               Qwen2.5-Coder-1.5B-Instruct Q4_K_M, in-process
    embedded-small                         Qwen2.5-Coder-0.5B-Instruct Q4_K_M, in-process (fast)
    openai:URL#MODEL                       an OpenAI-compatible server; MODEL is the served model's name
    openai:URL#MODEL?dialect=NAME          ... with its schema dialect (json_schema, llamacpp, guided_json, ollama,
                                           prompt, or a server name: vllm, sglang, lmstudio, llama.cpp)
    openai:URL1,URL2#MODEL                 one model on several servers: requests spread over the healthy ones
                                           (kgreason.llm.endpoints); a comma starts a new URL only before http(s)://
    ensemble:SPEC,SPEC[,SPEC...]           several of the above, combined by vote

Inside `ensemble:` a comma starts a new member only when it is followed by a member kind (`embedded`,
`embedded-small`, `openai:`), so commas inside URLs or model names are kept. `#` separates URL and model because a
base URL never needs a fragment; model names may contain `/` and `:` (`Qwen/Qwen2.5-72B-Instruct`, `qwen2.5:7b`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qsl, urlsplit

from kgreason.errors import KgreasonError
from kgreason.llm.dialects import DIALECT_ALIASES, DIALECTS, Dialect, resolve_dialect

EXAMPLES = (
    "embedded",
    "embedded-small",
    "openai:http://127.0.0.1:8000/v1#qwen2.5-7b-instruct?dialect=vllm",
    "openai:http://10.0.0.1:8000/v1,http://10.0.0.2:8000/v1#qwen2.5-7b-instruct",
    "ensemble:embedded,openai:http://127.0.0.1:8000/v1#qwen2.5-7b-instruct",
    "none",
)
# Also splits before `none`/`ensemble:` so that misuse gets a precise message instead of "unknown kind".
_NEXT_URL = re.compile(r",\s*(?=https?://)", re.IGNORECASE)
_MEMBER_START = re.compile(r",\s*(?=(?:embedded(?:-small)?|none)\s*(?:,|$)|openai:|ensemble:)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class NoModelSpec:
    kind: Literal["none"] = "none"


@dataclass(frozen=True, slots=True)
class EmbeddedSpec:
    model: Literal["embedded", "embedded-small"]


@dataclass(frozen=True, slots=True)
class ServedSpec:
    base_url: str
    model: str
    dialect: Dialect | None = None  # None: LLMConfig.dialect
    more_urls: tuple[str, ...] = ()  # further endpoints serving the same model

    @property
    def base_urls(self) -> tuple[str, ...]:
        return (self.base_url, *self.more_urls)


MemberSpec = EmbeddedSpec | ServedSpec


@dataclass(frozen=True, slots=True)
class EnsembleSpec:
    members: tuple[MemberSpec, ...]


LLMSpec = NoModelSpec | EmbeddedSpec | ServedSpec | EnsembleSpec


def _bad(spec: str, why: str) -> KgreasonError:
    examples = "; ".join(f"'{e}'" for e in EXAMPLES)
    return KgreasonError(f"bad LLM spec {spec!r}: {why}. Examples: {examples} (see docs/llm.md)")


def _parse_served(spec: str, body: str) -> ServedSpec:
    if "#" not in body:
        raise _bad(spec, "an openai: spec needs '#MODEL' after the server URL")
    url_text, _, rest = body.rpartition("#")
    model, _, query = rest.partition("?")
    model = model.strip()
    urls = [u.strip().rstrip("/") for u in _NEXT_URL.split(url_text.strip())]
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise _bad(spec, f"{url!r} is not an http(s) URL")
    if len(set(urls)) < len(urls):
        raise _bad(spec, "the same server URL is listed twice")
    if not model:
        raise _bad(spec, "the model name after '#' is empty")
    dialect: Dialect | None = None
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key != "dialect":
            raise _bad(spec, f"unknown option {key!r} (only 'dialect' is accepted)")
        dialect = resolve_dialect(value)
        if dialect is None:
            known = ", ".join([*DIALECTS, *DIALECT_ALIASES])
            raise _bad(spec, f"unknown dialect {value!r}; known: {known}")
    return ServedSpec(base_url=urls[0], model=model, dialect=dialect, more_urls=tuple(urls[1:]))


def _parse_member(spec: str, text: str) -> MemberSpec:
    head = text.strip()
    lowered = head.lower()
    if lowered in ("embedded", "embedded-small"):
        return EmbeddedSpec(model="embedded" if lowered == "embedded" else "embedded-small")
    if lowered.startswith("openai:"):
        return _parse_served(spec, head[len("openai:") :])
    if lowered == "none" or lowered.startswith("ensemble:"):
        raise _bad(spec, "ensemble members must be embedded, embedded-small or openai: specs")
    if not head:
        raise _bad(spec, "empty spec")
    raise _bad(spec, f"unknown model kind {head.split(':', 1)[0]!r}")


def parse_spec(spec: str) -> LLMSpec:
    """Parse a spec string; `KgreasonError` with examples when it is malformed."""
    text = spec.strip()
    if text.lower() == "none":
        return NoModelSpec()
    if not text.lower().startswith("ensemble:"):
        return _parse_member(spec, text)
    members = [_parse_member(spec, piece) for piece in _MEMBER_START.split(text[len("ensemble:") :])]
    if len(members) < 2:
        raise _bad(spec, "an ensemble needs at least two members separated by ','")
    return EnsembleSpec(members=tuple(members))
