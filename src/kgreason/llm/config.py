"""`LLMConfig`: every knob of the LLM layer in one documented place (see docs/llm.md).

Precedence: an explicit field value > an environment variable (read only by `LLMConfig.from_env`) > the default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kgreason.errors import KgreasonError

ENV_SPEC = "KGREASON_LLM"
ENV_CACHE_DIR = "KGREASON_CACHE_DIR"
ENV_RESPONSE_CACHE = "KGREASON_LLM_CACHE"  # "off" disables the response cache; any other value is its file path
ENV_TIMEOUT = "KGREASON_LLM_TIMEOUT"
ENV_CONCURRENCY = "KGREASON_LLM_CONCURRENCY"
ENV_BREAKER = "KGREASON_LLM_BREAKER"  # "N" or "N,SECONDS": breaker_failures (0 = off) and breaker_cooldown
ENV_ENDPOINT_COOLDOWN = "KGREASON_LLM_ENDPOINT_COOLDOWN"  # seconds a failed endpoint of several is left out
ENV_THREADS = "KGREASON_LLM_THREADS"  # CPU threads of the embedded model (n_threads)
API_KEY_ENVS = ("KGREASON_API_KEY", "OPENAI_API_KEY")  # tried in this order when `api_key_env` is not set

_OFF = frozenset({"0", "off", "false", "no", "none"})


@dataclass(frozen=True, slots=True)
class LLMConfig:
    """Configuration of the LLM layer.

    Fields:
        spec: which model(s) to use, e.g. `embedded`, `embedded-small`, `openai:URL#MODEL?dialect=vllm`,
            `ensemble:SPEC,SPEC`, or `none` (see `kgreason.llm.spec`).
        cache_dir: root of kgreason's caches; `None` means `$KGREASON_CACHE_DIR` or `~/.cache/kgreason`.
            Assembled model files live in `<cache_dir>/models`.
        response_cache: whether model replies are cached in SQLite (failures never are).
        response_cache_path: the SQLite file; `None` means `<cache_dir>/llm_cache.sqlite`.
        timeout: seconds allowed for one call to a server, in total: connecting, retries and reading the whole reply
            (embedded calls are bounded by max_tokens instead).
        retries: extra attempts after a connection error, HTTP 429 or 5xx (never after a timeout or a bad reply),
            within `timeout`.
        max_reply_bytes: a server reply larger than this is a `server_error`, not read further.
        breaker_failures: after this many consecutive calls that failed for the server's sake (unavailable, timeout,
            server error) a model is not asked for `breaker_cooldown` seconds (its calls fail at once as
            `circuit_open`, and the program's own choice stands); 0 disables the breaker.
        breaker_cooldown: seconds before a model whose breaker opened is tried again (one trial call).
        retry_backoff: seconds before the first retry; doubled for each further retry.
        endpoint_cooldown: with several endpoints for one model (`openai:URL1,URL2#MODEL`), seconds an endpoint
            that failed is left out before one request probes it again (kgreason.llm.endpoints).
        max_concurrency: requests in flight at once per server endpoint, and the default batch thread-pool size
            (`kgreason run --workers N` raises it to N unless KGREASON_LLM_CONCURRENCY sets it).
        n_threads: CPU threads for the embedded model (`KGREASON_LLM_THREADS`; 1 lets several single-threaded
            processes share a busy machine and the reply cache, docs/extract.md "Speed").
        n_ctx: context window of the embedded model in tokens (prompts here are short: retrieved tens of triples).
        n_batch: prompt-processing batch size of the embedded model.
        extra_buffer_types: llama.cpp "extra buffer types" (AMX kernels, CPU repack) for the embedded model;
            `None` = on unless the llama.cpp build contains AMX kernels, which crash inside some VMs
            (see `kgreason.llm.llama_runtime`).
        seed: sampling seed (decoding is greedy at temperature 0 anyway; the seed makes servers reproducible too).
        dialect: default schema-constrained-output dialect for `openai:` specs without `?dialect=`.
        api_key: API key for served models; `None` reads the environment (below).
        api_key_env: the environment variable holding the API key; `None` tries `KGREASON_API_KEY`,
            then `OPENAI_API_KEY`.
    """

    spec: str = "embedded"
    cache_dir: Path | None = None
    response_cache: bool = True
    response_cache_path: Path | None = None
    timeout: float = 120.0
    retries: int = 2
    retry_backoff: float = 0.5
    max_reply_bytes: int = 16 * 1024 * 1024
    breaker_failures: int = 5
    breaker_cooldown: float = 60.0
    endpoint_cooldown: float = 10.0
    max_concurrency: int = 4
    n_threads: int = 2
    n_ctx: int = 4096
    n_batch: int = 512
    extra_buffer_types: bool | None = None
    seed: int = 0
    dialect: str = "json_schema"
    api_key: str | None = field(default=None, repr=False)  # never printed in traces or logs
    api_key_env: str | None = None

    def __post_init__(self) -> None:
        if self.timeout <= 0:
            raise KgreasonError(f"LLM timeout must be positive, got {self.timeout}")
        if self.max_reply_bytes < 1024:
            raise KgreasonError(f"LLM max_reply_bytes must be >= 1024, got {self.max_reply_bytes}")
        if self.endpoint_cooldown < 0:
            raise KgreasonError(f"LLM endpoint_cooldown must be >= 0, got {self.endpoint_cooldown}")
        if self.breaker_failures < 0 or self.breaker_cooldown < 0:
            raise KgreasonError(
                f"LLM breaker_failures and breaker_cooldown must be >= 0, got {self.breaker_failures} and "
                f"{self.breaker_cooldown}"
            )
        if self.retries < 0:
            raise KgreasonError(f"LLM retries must be >= 0, got {self.retries}")
        if self.max_concurrency < 1:
            raise KgreasonError(f"LLM max_concurrency must be >= 1, got {self.max_concurrency}")
        if self.n_threads < 1 or self.n_ctx < 256:
            raise KgreasonError(f"need n_threads >= 1 and n_ctx >= 256, got {self.n_threads} and {self.n_ctx}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> LLMConfig:
        """Defaults, then `KGREASON_*` environment variables, then `overrides` (e.g. from the CLI or a file)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        if env.get(ENV_SPEC):
            values["spec"] = env[ENV_SPEC]
        if env.get(ENV_CACHE_DIR):
            values["cache_dir"] = Path(env[ENV_CACHE_DIR])
        cache = env.get(ENV_RESPONSE_CACHE)
        if cache:
            if cache.strip().lower() in _OFF:
                values["response_cache"] = False
            elif cache.strip().lower() not in {"1", "on", "true", "yes"}:
                values["response_cache_path"] = Path(cache)
        numbers = (
            (ENV_TIMEOUT, "timeout", float),
            (ENV_CONCURRENCY, "max_concurrency", int),
            (ENV_ENDPOINT_COOLDOWN, "endpoint_cooldown", float),
            (ENV_THREADS, "n_threads", int),
        )
        for name, key, kind in numbers:
            if env.get(name):
                try:
                    values[key] = kind(env[name])
                except ValueError:
                    raise KgreasonError(f"{name}={env[name]!r} is not a valid {kind.__name__}") from None
        if env.get(ENV_BREAKER):
            values.update(_breaker_from_env(env[ENV_BREAKER]))
        values.update(overrides)
        return replace(cls(), **values)

    def resolved_cache_dir(self, env: Mapping[str, str] | None = None) -> Path:
        """The cache root: the field, else `$KGREASON_CACHE_DIR`, else `~/.cache/kgreason`."""
        env = os.environ if env is None else env
        if self.cache_dir is not None:
            return self.cache_dir.expanduser()
        if env.get(ENV_CACHE_DIR):
            return Path(env[ENV_CACHE_DIR]).expanduser()
        return Path.home() / ".cache" / "kgreason"

    def models_dir(self) -> Path:
        return self.resolved_cache_dir() / "models"

    def resolved_response_cache_path(self) -> Path | None:
        """The SQLite response cache file, or None when caching is off."""
        if not self.response_cache:
            return None
        if self.response_cache_path is not None:
            return self.response_cache_path.expanduser()
        return self.resolved_cache_dir() / "llm_cache.sqlite"

    def resolved_api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        env = os.environ if env is None else env
        if self.api_key:
            return self.api_key
        names = (self.api_key_env,) if self.api_key_env else API_KEY_ENVS
        for name in names:
            if env.get(name):
                return env[name]
        return None


def _breaker_from_env(raw: str) -> dict[str, Any]:
    """`KGREASON_LLM_BREAKER=5` or `5,60`: consecutive failures before the breaker opens, and its cool-down."""
    parts = [p.strip() for p in raw.split(",")]
    try:
        if len(parts) > 2:
            raise ValueError
        values: dict[str, Any] = {"breaker_failures": int(parts[0])}
        if len(parts) == 2:
            values["breaker_cooldown"] = float(parts[1])
    except ValueError:
        raise KgreasonError(f"{ENV_BREAKER}={raw!r}: expected N or N,SECONDS (e.g. 5,60; 0 turns it off)") from None
    return values
