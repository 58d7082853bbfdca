"""Spec parsing, bad specs, configuration from the environment, the factory without real models."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kgreason.errors import KgreasonError
from kgreason.llm import LLMConfig, close_llm, create_llm, llm_accounting, parse_spec
from kgreason.llm.accounting import AccountedLLM
from kgreason.llm.cache import CachedLLM
from kgreason.llm.embedded import EmbeddedLLM
from kgreason.llm.ensemble import EnsembleLLM
from kgreason.llm.models import QWEN_CODER_0_5B, ModelAsset, locate_parts
from kgreason.llm.spec import EmbeddedSpec, EnsembleSpec, NoModelSpec, ServedSpec


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("none", NoModelSpec()),
        (" NONE ", NoModelSpec()),
        ("embedded", EmbeddedSpec("embedded")),
        ("embedded-small", EmbeddedSpec("embedded-small")),
        ("openai:http://127.0.0.1:8000/v1#qwen", ServedSpec("http://127.0.0.1:8000/v1", "qwen", None)),
        (
            "openai:http://gpu:8000/v1/#Qwen/Qwen2.5-72B-Instruct?dialect=vllm",
            ServedSpec("http://gpu:8000/v1", "Qwen/Qwen2.5-72B-Instruct", "json_schema"),
        ),
        ("openai:http://h:11434#qwen2.5:7b?dialect=ollama", ServedSpec("http://h:11434", "qwen2.5:7b", "ollama")),
        ("openai:https://h/v1#m?dialect=llama.cpp", ServedSpec("https://h/v1", "m", "llamacpp")),
        (
            "ensemble:embedded, embedded-small,openai:http://a/v1?x=1,2#m,openai:http://b/v1#n?dialect=sglang",
            EnsembleSpec(
                (
                    EmbeddedSpec("embedded"),
                    EmbeddedSpec("embedded-small"),
                    ServedSpec("http://a/v1?x=1,2", "m", None),  # the comma inside the URL is kept
                    ServedSpec("http://b/v1", "n", "json_schema"),
                )
            ),
        ),
    ],
)
def test_spec_parsing(text: str, expected: object) -> None:
    assert parse_spec(text) == expected


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty spec"),
        ("qwen", "unknown model kind"),
        ("openai:http://127.0.0.1:8000/v1", "needs '#MODEL'"),
        ("openai:127.0.0.1:8000#m", "not an http(s) URL"),
        ("openai:http://h/v1#", "model name after '#' is empty"),
        ("openai:http://h/v1#m?dialect=gpt", "unknown dialect 'gpt'"),
        ("openai:http://h/v1#m?temperature=1", "unknown option 'temperature'"),
        ("ensemble:embedded", "at least two members"),
        ("ensemble:embedded,none", "members must be"),
        ("ensemble:embedded,ensemble:embedded,embedded", "members must be"),
    ],
)
def test_bad_specs_explain_and_show_an_example(text: str, why: str) -> None:
    with pytest.raises(KgreasonError) as info:
        parse_spec(text)
    message = str(info.value)
    assert why in message and "Examples:" in message and "openai:http://127.0.0.1:8000/v1#" in message


def test_config_from_env_and_cache_paths(tmp_path: Path) -> None:
    env = {
        "KGREASON_LLM": "embedded-small",
        "KGREASON_CACHE_DIR": str(tmp_path / "c"),
        "KGREASON_LLM_TIMEOUT": "7.5",
        "KGREASON_LLM_CONCURRENCY": "3",
    }
    config = LLMConfig.from_env(env)
    assert (config.spec, config.timeout, config.max_concurrency) == ("embedded-small", 7.5, 3)
    assert config.models_dir() == tmp_path / "c" / "models"
    assert config.resolved_response_cache_path() == tmp_path / "c" / "llm_cache.sqlite"
    assert LLMConfig.from_env({**env, "KGREASON_LLM_CACHE": "off"}).resolved_response_cache_path() is None
    custom = LLMConfig.from_env({**env, "KGREASON_LLM_CACHE": str(tmp_path / "x.sqlite")})
    assert custom.resolved_response_cache_path() == tmp_path / "x.sqlite"
    assert LLMConfig.from_env(env, spec="none").spec == "none"  # explicit values win
    assert LLMConfig().resolved_cache_dir({}) == Path.home() / ".cache" / "kgreason"
    with pytest.raises(KgreasonError):
        LLMConfig.from_env({"KGREASON_LLM_TIMEOUT": "soon"})
    with pytest.raises(KgreasonError):
        LLMConfig(timeout=0)
    assert LLMConfig.from_env({"KGREASON_LLM_THREADS": "1"}).n_threads == 1
    with pytest.raises(KgreasonError):
        LLMConfig.from_env({"KGREASON_LLM_THREADS": "one"})
    with pytest.raises(KgreasonError):
        LLMConfig.from_env({"KGREASON_LLM_THREADS": "0"})


def test_api_key_lookup_order() -> None:
    assert LLMConfig().resolved_api_key({"OPENAI_API_KEY": "o", "KGREASON_API_KEY": "k"}) == "k"
    assert LLMConfig().resolved_api_key({"OPENAI_API_KEY": "o"}) == "o"
    assert LLMConfig(api_key_env="MY_KEY").resolved_api_key({"MY_KEY": "m", "KGREASON_API_KEY": "k"}) == "m"
    assert LLMConfig(api_key="explicit").resolved_api_key({"KGREASON_API_KEY": "k"}) == "explicit"
    assert "explicit" not in repr(LLMConfig(api_key="explicit"))


def test_create_llm_none_and_served_stack(tmp_path: Path) -> None:
    config = LLMConfig(cache_dir=tmp_path)
    assert create_llm("none", config) is None
    llm = create_llm("openai:http://127.0.0.1:9/v1#m?dialect=llamacpp", config)
    assert isinstance(llm, AccountedLLM) and isinstance(llm.inner, CachedLLM)
    assert llm.name == "openai:http://127.0.0.1:9/v1#m"
    assert llm_accounting(llm) is llm.accounting
    close_llm(llm)
    assert (tmp_path / "llm_cache.sqlite").exists()
    uncached = create_llm(
        "ensemble:openai:http://a/v1#m,openai:http://b/v1#n", LLMConfig(cache_dir=tmp_path, response_cache=False)
    )
    assert isinstance(uncached, EnsembleLLM) and len(uncached.members) == 2
    assert all(isinstance(m, AccountedLLM) and not isinstance(m.inner, CachedLLM) for m in uncached.members)
    close_llm(uncached)


def test_missing_part_packages_name_the_pip_extra() -> None:
    asset = ModelAsset(
        spec="embedded-test",
        label="x",
        file_name="x.gguf",
        module_prefix="kgreason_no_such_part",
        package_prefix="kgreason-no-such-part",
        version="1.0",
        parts=5,
        size=10,
        sha256="0" * 64,
    )
    with pytest.raises(KgreasonError) as info:
        locate_parts(asset)
    message = str(info.value)
    assert "kgreason[llm]" in message and "scripts/setup.sh" in message and "kgreason-no-such-part1==1.0" in message


def test_missing_llama_cpp_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # makes `import llama_cpp` raise ImportError
    with pytest.raises(KgreasonError, match=r"kgreason\[llm\]"):
        EmbeddedLLM.load(QWEN_CODER_0_5B, LLMConfig(cache_dir=tmp_path))
