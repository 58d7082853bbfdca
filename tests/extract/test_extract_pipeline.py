"""One document through the pipeline with a fake model: triples cite sentences, malformed replies are retried once
with the short prompt then skipped and counted, malformed lines are counted, a rerun over the cache asks nothing."""

from __future__ import annotations

from pathlib import Path

from extract_fakes import scripted_reply

from kgreason.data.records import Document
from kgreason.extract.pipeline import ExtractSettings, extract_document, make_windows
from kgreason.extract.prompt import SHORT_INSTRUCTIONS
from kgreason.extract.sentences import split_sentences
from kgreason.llm.cache import CachedLLM, ResponseCache
from kgreason.llm.fake import FakeFailure, FakeLLM

DOC = Document(
    "doc_x",
    "F-35战斗机\nF-35由美国洛克希德·马丁公司研制，洛克希德·马丁公司简称洛马。"
    "F-35A于2006年12月15日首飞，作战半径约1093公里。X-35验证机由洛马研制。",
)


def test_triples_cite_the_sentence_that_holds_both_ends() -> None:
    result = extract_document(FakeLLM(scripted_reply), DOC, ExtractSettings(window=2))
    assert result.triples
    for p in result.triples:
        s = result.sentences[p.sourced.sentence]
        assert p.sub_mention in s.text and p.obj_mention in s.text
        lo, hi = p.sourced.span
        assert s.start <= lo < hi <= s.end
        assert p.sourced.doc_id == "doc_x"
    types = {(t.obj, t.obj_type) for t in result.kg}
    assert ("2006年12月15日", "时间") in types and ("1093公里", "数值") in types
    assert [t.triple_id for t in result.kg] == [f"t{k:03d}" for k in range(1, len(result.kg) + 1)]


def test_windows_group_sentences_and_carry_the_title_and_values() -> None:
    sentences = split_sentences("d", DOC.content)
    windows = make_windows(sentences, 3)
    assert [w.indices for w in windows] == [[0, 1, 2], [3]]
    assert windows[0].title == "F-35战斗机"
    assert "2006年12月15日" in windows[0].values and "1093公里" in windows[0].values


def test_malformed_reply_is_retried_once_with_the_short_prompt_then_skipped() -> None:
    fake = FakeLLM(["not json", {"s0": ["F-35战斗机|x"], "s1": []}, "{", FakeFailure("timeout"), *[{}] * 0])
    result = extract_document(fake, DOC, ExtractSettings(window=2, reask_silent=False))
    assert result.stats.windows == 2
    assert result.stats.retried_windows == 2
    assert result.stats.skipped_windows == 1
    assert result.stats.malformed_lines == 1  # `F-35战斗机|x` has two parts
    assert SHORT_INSTRUCTIONS in fake.calls[1].messages[-1].content
    assert len(result.stats.warnings) == 1 and "sentences 2–3 skipped" in result.stats.warnings[0]


def test_a_rerun_over_the_reply_cache_asks_the_model_nothing(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    first = FakeLLM(scripted_reply)
    done = extract_document(CachedLLM(first, cache), DOC, ExtractSettings(window=2))
    assert first.calls
    again = FakeLLM(scripted_reply)
    redo = extract_document(CachedLLM(again, cache), DOC, ExtractSettings(window=2))
    assert again.calls == []
    assert redo.kg == done.kg
    cache.close()


def test_a_fact_listed_under_the_neighbouring_sentence_cites_the_one_that_holds_it() -> None:
    doc = Document("d", "F-35A是常规起降型。F-35A于2006年12月15日首飞。")
    fake = FakeLLM([{"s0": ["F-35A|首飞时间|2006年12月15日"], "s1": ["F-35A|类型|歼-20"]}, {"types": []}])
    result = extract_document(fake, doc, ExtractSettings(window=2))
    assert [(t.spo, p.sourced.sentence) for t, p in zip(result.kg, result.triples, strict=True)] == [
        (("F-35A", "首飞时间", "2006年12月15日"), 1)
    ]
    assert result.stats.recited == 1 and result.stats.ungrounded == 1  # 歼-20 is in no sentence of the window


def test_the_prompt_speaks_the_language_of_the_sentences() -> None:
    from kgreason.extract.prompt import INSTRUCTIONS, INSTRUCTIONS_EN, window_messages

    english = make_windows(split_sentences("p", "Film X is a 1990 drama. It was directed by Anne Dupont."), 2)[0]
    chinese = make_windows(split_sentences("d", "辽宁舰由大连造船厂建造。该舰于2012年交付。"), 2)[0]
    assert window_messages(english)[-1].content.startswith(INSTRUCTIONS_EN)
    assert "Sentences:" in window_messages(english)[-1].content
    assert window_messages(chinese)[-1].content.startswith(INSTRUCTIONS)
    # a Chinese text with Latin designations stays Chinese
    mixed = make_windows(split_sentences("d", "F-35A和F-35B由洛克希德·马丁公司研制。"), 2)[0]
    assert window_messages(mixed)[-1].content.startswith(INSTRUCTIONS)


def test_a_sentence_spelling_both_ends_wins_over_a_part_in_the_listed_one() -> None:
    # the model copied sentence 1's fact under sentence 0 too; in sentence 0 `韩国空军` only matches as `国空军`
    doc = Document("d", "美国空军装备了F-35A。韩国空军也装备了F-35A。")
    line = "韩国空军|装备|F-35A"
    fake = FakeLLM([{"s0": [line], "s1": [line]}, {"types": []}])
    result = extract_document(fake, doc, ExtractSettings(window=2))
    assert [(t.spo, p.sourced.sentence) for t, p in zip(result.kg, result.triples, strict=True)] == [
        (("韩国空军", "装备", "F-35A"), 1)
    ]
    assert result.stats.recited == 1 and result.stats.duplicates == 1


def test_a_sentence_no_triple_cites_is_asked_again_alone() -> None:
    # the model copies sentence 0's list under sentence 1's key; sentence 1, asked alone, gives its own fact
    doc = Document("d", "F-35A于2006年12月15日首飞。X-35验证机由洛克希德·马丁公司研制。")
    copied = "F-35A|首飞时间|2006年12月15日"
    fake = FakeLLM([{"s0": [copied], "s1": [copied]}, {"s1": ["X-35验证机|研制单位|洛克希德·马丁公司"]}, {"types": []}])
    result = extract_document(fake, doc, ExtractSettings(window=2))
    assert [(t.spo, p.sourced.sentence) for t, p in zip(result.kg, result.triples, strict=True)] == [
        (("F-35A", "首飞时间", "2006年12月15日"), 0),
        (("X-35验证机", "研制单位", "洛克希德·马丁公司"), 1),
    ]
    assert result.stats.reasked == 1 and result.stats.windows == 1 and result.stats.llm_calls == 2  # no typing call
    alone = fake.calls[1]
    assert "[1] X-35验证机" in alone.messages[-1].content and "[0] F-35A" not in alone.messages[-1].content
    # switched off: the second sentence stays without triples, no extra call
    off = FakeLLM([{"s0": [copied], "s1": [copied]}, {"types": []}])
    result = extract_document(off, doc, ExtractSettings(window=2, reask_silent=False))
    assert len(result.kg) == 1 and result.stats.reasked == 0 and len(off.calls) == 1


def test_titles_short_lines_and_single_sentence_windows_are_not_asked_again() -> None:
    from kgreason.data.provenance import Sentence
    from kgreason.extract.pipeline import silent_sentences, window_of

    title = Sentence("d", 0, "F-35战斗机简介", 0, 9)
    short = Sentence("d", 1, "简介如下。", 9, 14)
    long_ = Sentence("d", 2, "F-35A于2006年12月15日首飞。", 14, 34)
    assert silent_sentences(window_of("d", title.text, (title, short)), []) == []
    assert silent_sentences(window_of("d", title.text, (long_,)), []) == []
    assert silent_sentences(window_of("d", title.text, (short, long_)), []) == [long_]


def test_a_skipped_window_is_not_asked_about_again() -> None:
    doc = Document("d", "F-35A于2006年12月15日首飞。X-35验证机由洛克希德·马丁公司研制。")
    fake = FakeLLM(["not json", "{", {"types": []}])
    result = extract_document(fake, doc, ExtractSettings(window=2))
    assert result.stats.skipped_windows == 1 and result.stats.reasked == 0 and len(fake.calls) == 2
