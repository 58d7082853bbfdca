"""One interface for every model call: embedded llama.cpp models, OpenAI-compatible servers, ensembles, a fake.

Typical use (see docs/llm.md)::

    config = LLMConfig.from_env(spec="embedded")
    accounting = Accounting()
    llm = create_llm(None, config, accounting=accounting)   # None for spec "none"
    result = llm.complete_json(messages, schema, max_tokens=64)
    if result.ok: use(result.value) else: handle(result.kind)
    print(accounting.line()); close_llm(llm)
"""

from kgreason.llm.accounting import AccountedLLM, Accounting
from kgreason.llm.batch import complete_batch
from kgreason.llm.cache import CachedLLM, ResponseCache, cache_key
from kgreason.llm.config import LLMConfig
from kgreason.llm.ensemble import EnsembleLLM, complete_json_voted
from kgreason.llm.factory import close_llm, create_llm, llm_accounting
from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.request import JsonRequest
from kgreason.llm.schema import SchemaError, check_schema, validate
from kgreason.llm.spec import parse_spec
from kgreason.llm.types import LLM, Ballot, ChatMessage, FailureKind, LLMFailure, LLMResult, LLMSuccess, Usage

__all__ = [
    "LLM",
    "AccountedLLM",
    "Accounting",
    "Ballot",
    "CachedLLM",
    "ChatMessage",
    "EnsembleLLM",
    "FailureKind",
    "FakeFailure",
    "FakeLLM",
    "JsonRequest",
    "LLMConfig",
    "LLMFailure",
    "LLMResult",
    "LLMSuccess",
    "ResponseCache",
    "SchemaError",
    "Usage",
    "cache_key",
    "check_schema",
    "close_llm",
    "complete_batch",
    "complete_json_voted",
    "create_llm",
    "llm_accounting",
    "parse_spec",
    "validate",
]
