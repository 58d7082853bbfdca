"""A GGUF model run in-process with llama-cpp-python, decoding under a grammar built from the caller's schema.

Loading is explicit (`EmbeddedLLM.load`) and the object is passed around; nothing is loaded at import time.
`llama_cpp.Llama` keeps the tokens of the previous call and only evaluates the part of a new prompt after the
longest common prefix, so callers who put the shared part (instructions, a document's KG) first pay for it once.
One `Llama` is not thread-safe: calls are serialised with a lock.

Time is bounded by `max_tokens`, not by `LLMConfig.timeout`: llama-cpp-python 0.3.36's chat API has no stopping hook,
and an exception raised from a logits processor is swallowed by its C sampler callback, so a running generation
cannot be cut short from here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgreason.errors import KgreasonError
from kgreason.llm.config import LLMConfig
from kgreason.llm.llama_runtime import create_llama
from kgreason.llm.models import ModelAsset, ensure_model_file
from kgreason.llm.reply import finish_reply
from kgreason.llm.request import to_wire, with_system
from kgreason.llm.schema import check_schema
from kgreason.llm.types import ChatMessage, LLMFailure, LLMResult, Usage

LLAMA_HINT = (
    "llama-cpp-python is not installed: install it with `pip install 'kgreason[llm]'` (it is built from source; "
    "scripts/setup.sh sets the build flags), or use a served model: --llm 'openai:http://127.0.0.1:8000/v1#MODEL'"
)


class EmbeddedLLM:
    """An in-process llama.cpp model (greedy decoding, fixed seed)."""

    def __init__(self, llama: Any, *, label: str, model_sha256: str, config: LLMConfig) -> None:
        self._llama = llama
        self._label = label
        self._sha256 = model_sha256
        self._config = config
        self._lock = threading.Lock()

    @classmethod
    def load(
        cls,
        asset: ModelAsset,
        config: LLMConfig,
        *,
        progress: Callable[[str], None] | None = None,
    ) -> EmbeddedLLM:
        """Assemble/verify the GGUF if needed and load it (seconds for the 1.5B model on 2 cores)."""
        try:
            import llama_cpp
        except ImportError as exc:
            raise KgreasonError(LLAMA_HINT) from exc
        say = progress or (lambda _msg: None)
        path = ensure_model_file(asset, config.models_dir(), progress=progress)
        # Loading takes seconds to a minute on a busy machine, in native code: say so before, and how long after.
        say(f"loading the model {asset.label} ({path.stat().st_size / 1e9:.1f} GB) ...")
        t0 = time.monotonic()
        llm = cls.from_file(path, config, label=asset.label, model_sha256=asset.sha256, llama_module=llama_cpp)
        say(f"model loaded in {time.monotonic() - t0:.1f} s")
        return llm

    @classmethod
    def from_file(
        cls,
        path: Path,
        config: LLMConfig,
        *,
        label: str,
        model_sha256: str,
        llama_module: Any = None,
    ) -> EmbeddedLLM:
        """Load an already verified GGUF file."""
        if llama_module is None:
            try:
                import llama_cpp
            except ImportError as exc:
                raise KgreasonError(LLAMA_HINT) from exc
            llama_module = llama_cpp
        try:
            llama = create_llama(
                llama_module,
                extra_buffer_types=config.extra_buffer_types,
                model_path=str(path),
                n_threads=config.n_threads,
                n_threads_batch=config.n_threads,
                n_ctx=config.n_ctx,
                n_batch=config.n_batch,
                seed=config.seed,
                verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise KgreasonError(f"cannot load the model {path}: {exc}") from exc
        return cls(llama, label=label, model_sha256=model_sha256, config=config)

    @property
    def name(self) -> str:
        return f"embedded:{self._label}"

    def cache_identity(self) -> dict[str, Any]:
        # The weights' hash, not the label, decides the reply; n_ctx/n_batch do not change greedy output.
        return {"backend": "embedded", "model_sha256": self._sha256, "seed": self._config.seed}

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        check_schema(schema)
        start = time.monotonic()
        with self._lock:
            try:
                out = self._llama.create_chat_completion(
                    messages=to_wire(with_system(messages)),
                    response_format={"type": "json_object", "schema": schema},
                    temperature=0.0,
                    max_tokens=max_tokens,
                    seed=self._config.seed,
                )
            except (ValueError, RuntimeError) as exc:
                # e.g. "Requested tokens (5000) exceed context window of 4096"
                seconds = time.monotonic() - start
                return LLMFailure(kind="server_error", message=str(exc), model=self.name, usage=Usage(seconds=seconds))
        seconds = time.monotonic() - start
        usage_data = out.get("usage") or {}
        usage = Usage(
            prompt_tokens=int(usage_data.get("prompt_tokens", 0)),
            completion_tokens=int(usage_data.get("completion_tokens", 0)),
            seconds=seconds,
        )
        choice = out["choices"][0]
        text = choice["message"].get("content") or ""
        cut_at = max_tokens if choice.get("finish_reason") == "length" else None
        return finish_reply(text, schema, self.name, usage, cut_at=cut_at)

    def close(self) -> None:
        close = getattr(self._llama, "close", None)
        if callable(close):
            close()
