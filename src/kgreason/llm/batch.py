"""Running many schema-constrained calls on a thread pool (results in request order).

The pool size bounds the caller's side; served backends additionally hold a semaphore of
`LLMConfig.max_concurrency`, and the embedded backend serialises its calls, so a large pool cannot overload either.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from kgreason.llm.request import JsonRequest
from kgreason.llm.types import LLM, LLMResult


def complete_batch(llm: LLM, requests: Sequence[JsonRequest], *, max_workers: int = 4) -> list[LLMResult]:
    """`llm.complete_json` for every request, at most `max_workers` at a time; result i answers request i."""
    if max_workers < 1:
        raise ValueError("max_workers must be >= 1")
    if not requests:
        return []
    if max_workers == 1 or len(requests) == 1:
        return [llm.complete_json(r.messages, r.schema, max_tokens=r.max_tokens) for r in requests]
    with ThreadPoolExecutor(max_workers=min(max_workers, len(requests)), thread_name_prefix="kgreason-llm") as pool:
        futures = [pool.submit(llm.complete_json, r.messages, r.schema, max_tokens=r.max_tokens) for r in requests]
        return [f.result() for f in futures]
