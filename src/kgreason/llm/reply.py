"""Turn a model's raw reply text into a validated `LLMSuccess` or a typed `LLMFailure`.

Every backend ends here, so "never raw text downstream" is enforced in one place.
"""

from __future__ import annotations

import json
from typing import Any

from kgreason.llm.schema import validate
from kgreason.llm.types import LLMFailure, LLMResult, LLMSuccess, Usage

_MAX_ERRORS_SHOWN = 3


def _strip_fence(text: str) -> str:
    # Models without constrained decoding like to wrap JSON in a Markdown fence.
    body = text.strip()
    if body.startswith("```"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
        if body.rstrip().endswith("```"):
            body = body.rstrip()[:-3]
    return body.strip()


def parse_json_text(text: str) -> tuple[bool, Any]:
    """(True, value) if `text` holds one JSON value (optionally fenced or with chatter around one object)."""
    body = _strip_fence(text)
    try:
        return True, json.loads(body)
    except ValueError:
        pass
    # Unconstrained servers sometimes add a sentence before/after the object; the schema check still applies.
    start, end = body.find("{"), body.rfind("}")
    if 0 <= start < end:
        try:
            return True, json.loads(body[start : end + 1])
        except ValueError:
            pass
    return False, None


def finish_reply(
    text: str, schema: dict[str, Any], model: str, usage: Usage, *, cut_at: int | None = None
) -> LLMResult:
    """Parse and validate `text` against `schema`. `cut_at`: the reply stopped at this max_tokens limit, which
    most likely explains a failure, so the failure message says so."""
    result = _finish(text, schema, model, usage)
    if cut_at is not None and isinstance(result, LLMFailure):
        return LLMFailure(
            kind=result.kind, message=f"{result.message} (cut at max_tokens={cut_at})", model=model, usage=usage
        )
    return result


def _finish(text: str, schema: dict[str, Any], model: str, usage: Usage) -> LLMResult:
    ok, value = parse_json_text(text)
    if not ok:
        snippet = text.strip()[:120]
        return LLMFailure(kind="invalid_json", message=f"reply is not JSON: {snippet!r}", model=model, usage=usage)
    errors = validate(value, schema)
    if errors:
        shown = "; ".join(errors[:_MAX_ERRORS_SHOWN])
        more = f" (+{len(errors) - _MAX_ERRORS_SHOWN} more)" if len(errors) > _MAX_ERRORS_SHOWN else ""
        return LLMFailure(
            kind="schema_mismatch", message=f"reply violates the schema: {shown}{more}", model=model, usage=usage
        )
    return LLMSuccess(value=value, model=model, usage=usage, raw_text=text)
