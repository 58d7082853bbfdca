"""`create_llm`: from a spec string and an `LLMConfig` to a ready `LLM` (or None for `none`).

Every model the factory builds is stacked as `AccountedLLM(CachedLLM(CircuitBreakerLLM(backend)))` (without
`CachedLLM` when the response cache is off); an ensemble holds such stacks as members, so cache keys and
accounting stay per model. A model on several servers has an `EndpointPool` of `ServedLLM`s as its backend.
Loading happens here, explicitly: the returned object owns the loaded models, HTTP clients and cache connection,
and `close_llm` releases them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kgreason.errors import KgreasonError
from kgreason.llm.accounting import AccountedLLM, Accounting
from kgreason.llm.breaker import CircuitBreakerLLM
from kgreason.llm.cache import CachedLLM, ResponseCache
from kgreason.llm.config import LLMConfig
from kgreason.llm.embedded import EmbeddedLLM
from kgreason.llm.endpoints import EndpointPool
from kgreason.llm.ensemble import EnsembleLLM
from kgreason.llm.models import asset_for_spec
from kgreason.llm.served import ServedLLM
from kgreason.llm.spec import EmbeddedSpec, EnsembleSpec, MemberSpec, NoModelSpec, parse_spec
from kgreason.llm.types import LLM


def _backend(member: MemberSpec, config: LLMConfig, progress: Callable[[str], None] | None) -> LLM:
    if isinstance(member, EmbeddedSpec):
        asset = asset_for_spec(member.model)
        if asset is None:  # parse_spec only produces known names; kept as a guard for new assets
            raise KgreasonError(f"no embedded model named {member.model!r}")
        return EmbeddedLLM.load(asset, config, progress=progress)
    if not member.more_urls:
        return ServedLLM(member.base_url, member.model, config, dialect=member.dialect)
    # Several endpoints: a failed request moves on to the next endpoint instead of being retried on its own.
    each = replace(config, retries=0)
    endpoints = [ServedLLM(url, member.model, each, dialect=member.dialect) for url in member.base_urls]
    return EndpointPool(
        endpoints,
        model=member.model,
        dialect=endpoints[0].dialect,
        timeout=config.timeout,
        cooldown=config.endpoint_cooldown,
        notice=progress,
    )


def _close(obj: Any) -> None:
    close = getattr(obj, "close", None)
    if callable(close):
        close()


def create_llm(
    spec: str | None,
    config: LLMConfig,
    *,
    accounting: Accounting | None = None,
    cache: ResponseCache | None = None,
    progress: Callable[[str], None] | None = None,
) -> LLM | None:
    """Build the model(s) named by `spec` (None: `config.spec`). `none` gives None.

    `accounting` receives every call's cost (a fresh one is made if omitted; reach it with `llm_accounting`).
    `cache` overrides the response cache from `config` (the caller then keeps ownership of it).
    `progress` receives one-line messages while a model file is assembled or verified.
    Raises `KgreasonError` for a bad spec, missing packages or an unusable cache directory.
    """
    parsed = parse_spec(config.spec if spec is None else spec)
    if isinstance(parsed, NoModelSpec):
        return None
    accounting = accounting or Accounting()
    owns_cache = False
    if cache is None:
        path = config.resolved_response_cache_path()
        if path is not None:
            cache = ResponseCache(path)
            owns_cache = True
    members = parsed.members if isinstance(parsed, EnsembleSpec) else (parsed,)
    built: list[LLM] = []
    try:
        for i, member in enumerate(members):
            backend: LLM = CircuitBreakerLLM(
                _backend(member, config, progress),
                failures=config.breaker_failures,
                cooldown=config.breaker_cooldown,
                notice=progress,
            )
            # Only the first wrapper closes a factory-owned cache, so it is closed exactly once.
            stacked: LLM = backend if cache is None else CachedLLM(backend, cache, owns_cache=owns_cache and i == 0)
            built.append(AccountedLLM(stacked, accounting))
    except BaseException:
        for llm in built:
            _close(llm)
        if owns_cache and cache is not None:
            cache.close()
        raise
    if not isinstance(parsed, EnsembleSpec):
        return built[0]
    # In-process models share the same few cores: asking two at once only makes both slower.
    n_embedded = sum(isinstance(m, EmbeddedSpec) for m in members)
    return EnsembleLLM(built, parallel=n_embedded <= 1)


def llm_accounting(llm: LLM | None) -> Accounting | None:
    """The `Accounting` a factory-built model reports to (None for other models)."""
    if isinstance(llm, AccountedLLM):
        return llm.accounting
    if isinstance(llm, EnsembleLLM):
        for member in llm.members:
            if isinstance(member, AccountedLLM):
                return member.accounting
    return None


def answers_concurrently(llm: LLM | None) -> bool:
    """Whether several calls to `llm` at once gain anything: every model behind it is served over HTTP (a server
    batches concurrent requests). An in-process model serialises its calls on the same cores; no model has nothing
    to wait for."""
    if llm is None:
        return False
    if isinstance(llm, EnsembleLLM):
        return all(answers_concurrently(m) for m in llm.members)
    if isinstance(llm, ServedLLM | EndpointPool):
        return True
    inner = getattr(llm, "inner", None)  # the wrappers: accounting, cache, breaker
    return answers_concurrently(inner) if inner is not None else False


def close_llm(llm: LLM | None) -> None:
    """Release what a factory-built model holds (loaded weights, HTTP connections, the cache connection)."""
    if llm is not None:
        _close(llm)
