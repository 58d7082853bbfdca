"""Creating `llama_cpp.Llama` objects safely on the machines we run on.

A native (`GGML_NATIVE`) build on a CPU that advertises AMX compiles ggml's AMX matrix kernels and uses them through
an "extra buffer type"; inside some VMs the first `ldtilecfg` then dies with a general-protection fault (SIGSEGV
on the first token). llama.cpp lets a model skip extra buffer types (`use_extra_bufts`), but llama-cpp-python's
`Llama` does not expose the flag, so it is set here by wrapping the default-parameter factory for the duration of
one construction. Extra buffer types also hold the CPU "repack" layouts, so they stay on where AMX is not built in.

`python -m kgreason.llm.llama_runtime ARGS` runs `llama_cpp.server` with the same fix (same ARGS as
`python -m llama_cpp.server`); on a build without AMX the two are identical.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# Serialises the temporary wrap below; a Lock carries no data, so this is not shared mutable state.
_PATCH_LOCK = threading.Lock()


def build_has_amx(llama_module: Any) -> bool:
    """True when this llama.cpp build runs AMX kernels (its system info reports `AMX_INT8 = 1`)."""
    info = llama_module.llama_print_system_info()
    text = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return "AMX_INT8 = 1" in text


@contextmanager
def _extra_buffer_types_disabled(llama_module: Any) -> Iterator[None]:
    low = llama_module.llama_cpp  # `Llama.__init__` looks the factory up on this module at call time
    original = low.llama_model_default_params

    def without_extra_bufts() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    with _PATCH_LOCK:
        low.llama_model_default_params = without_extra_bufts
        try:
            yield
        finally:
            low.llama_model_default_params = original


def create_llama(llama_module: Any, *, extra_buffer_types: bool | None = None, **kwargs: Any) -> Any:
    """`llama_module.Llama(**kwargs)`; `extra_buffer_types=None` turns them off exactly when AMX is built in."""
    use_extra = not build_has_amx(llama_module) if extra_buffer_types is None else extra_buffer_types
    if use_extra:
        return llama_module.Llama(**kwargs)
    with _extra_buffer_types_disabled(llama_module):
        return llama_module.Llama(**kwargs)


def main() -> None:
    """Run llama-cpp-python's OpenAI-compatible server, without extra buffer types if AMX is built in."""
    import llama_cpp

    # Imported by name: the server module is untyped when llama-cpp-python is installed and absent when it is not,
    # and mypy must pass both ways (the no-model set-up runs the same checks).
    server = importlib.import_module("llama_cpp.server.__main__")

    if build_has_amx(llama_cpp):
        # A dedicated server process: wrapping for its whole life is the scope we want here.
        original = llama_cpp.llama_cpp.llama_model_default_params

        def without_extra_bufts() -> Any:
            params = original()
            params.use_extra_bufts = False
            return params

        llama_cpp.llama_cpp.llama_model_default_params = without_extra_bufts
    server.main()


if __name__ == "__main__":
    main()
