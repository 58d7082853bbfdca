"""The AMX workaround: extra buffer types are turned off for one construction only, and only when needed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kgreason.llm.llama_runtime import build_has_amx, create_llama


def fake_llama_module(system_info: bytes) -> Any:
    low = SimpleNamespace()
    low.llama_model_default_params = lambda: SimpleNamespace(use_extra_bufts=True)

    class Llama:
        def __init__(self, **kwargs: Any) -> None:
            self.kwargs = kwargs
            self.params = low.llama_model_default_params()  # looked up at call time, like llama-cpp-python

    return SimpleNamespace(Llama=Llama, llama_cpp=low, llama_print_system_info=lambda: system_info)


def test_amx_builds_get_no_extra_buffer_types() -> None:
    module = fake_llama_module(b"CPU : AVX2 = 1 | AMX_INT8 = 1 | REPACK = 1 |")
    original = module.llama_cpp.llama_model_default_params
    assert build_has_amx(module)
    llama = create_llama(module, model_path="m.gguf", n_threads=2)
    assert llama.params.use_extra_bufts is False and llama.kwargs == {"model_path": "m.gguf", "n_threads": 2}
    assert module.llama_cpp.llama_model_default_params is original  # restored afterwards
    assert module.Llama().params.use_extra_bufts is True


def test_other_builds_keep_them_unless_asked() -> None:
    module = fake_llama_module(b"CPU : AVX2 = 1 | REPACK = 1 |")
    assert not build_has_amx(module)
    assert create_llama(module).params.use_extra_bufts is True
    assert create_llama(module, extra_buffer_types=False).params.use_extra_bufts is False
