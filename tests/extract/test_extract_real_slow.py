"""The embedded 1.5B model extracting from two short Chinese sentences (slow: about a minute on an idle 2-core
machine, more than 15 minutes when five agents share it, hence the long timeout)."""

from __future__ import annotations

import importlib.util

import pytest

from kgreason.data.records import Document
from kgreason.extract.pipeline import ExtractSettings, extract_document
from kgreason.llm import LLMConfig, close_llm, create_llm

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(2400),
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python is not installed"),
]


def test_embedded_model_lists_grounded_typed_triples() -> None:
    llm = create_llm("embedded", LLMConfig.from_env(response_cache=False))
    assert llm is not None
    try:
        doc = Document("liaoning", "辽宁舰由大连造船厂建造。该舰于2012年9月25日交付中国海军。")
        result = extract_document(llm, doc, ExtractSettings(window=2))
    finally:
        close_llm(llm)
    assert result.stats.windows == 1
    assert result.triples, result.stats
    for p in result.triples:
        sentence = result.sentences[p.sourced.sentence].text
        assert p.sub_mention in sentence and p.obj_mention in sentence
        assert p.sourced.triple.sub_type and p.sourced.triple.obj_type
    names = {n for t in result.kg for n in (t.sub, t.obj)}
    assert "辽宁舰" in names
