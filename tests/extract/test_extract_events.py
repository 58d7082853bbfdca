"""An event the text names (`这一事件被称为“X”`) becomes a node: the sentence's time and place facts move to it and
its other subjects are linked to it; sentences without a naming phrase are left alone."""

from __future__ import annotations

from kgreason.data.records import Document
from kgreason.extract.events import PARTICIPANT_RELATION, event_name, event_nodes
from kgreason.extract.pipeline import ExtractSettings, extract_document
from kgreason.llm.fake import FakeLLM

TEXT = "2021年6月23日，捍卫者号在黑海附近海域与俄罗斯军队发生对峙，这一事件被称为“黑海对峙事件”。"


def test_the_naming_phrase_gives_the_event_name_and_its_span() -> None:
    found = event_name(TEXT)
    assert found is not None and found[0] == "黑海对峙事件" and TEXT[found[1] : found[2]] == "黑海对峙事件"
    assert event_name("这次行动被视为美军F-35的首次实战。") is not None
    assert event_name("它被称为闪电。") is None  # a pronoun for a thing, not an event
    assert event_name("这一事件被称为“”。") is None
    assert event_name("") is None


def test_time_and_place_move_to_the_event_and_the_actor_is_linked() -> None:
    doc = Document("d", TEXT)
    lines = ["捍卫者号|发生时间|2021年6月23日", "捍卫者号|对峙方|俄罗斯军队"]
    result = extract_document(FakeLLM([{"s0": lines}, {"types": []}]), doc, ExtractSettings(window=2))
    assert [t.spo for t in result.kg] == [
        ("黑海对峙事件", "发生时间", "2021年6月23日"),
        ("捍卫者号", "对峙方", "俄罗斯军队"),
        ("黑海对峙事件", PARTICIPANT_RELATION, "捍卫者号"),
    ]
    assert result.stats.events == 1
    assert all(p.sub_mention in TEXT and p.obj_mention in TEXT for p in result.triples)


def test_nothing_changes_without_a_naming_phrase_or_when_the_event_is_already_a_subject() -> None:
    doc = Document("d", "2021年6月23日，捍卫者号与俄罗斯军队发生对峙。")
    fake = FakeLLM([{"s0": ["捍卫者号|发生时间|2021年6月23日"]}, {"types": []}])
    result = extract_document(fake, doc, ExtractSettings())
    assert [t.spo for t in result.kg] == [("捍卫者号", "发生时间", "2021年6月23日")] and result.stats.events == 0
    kept, made = event_nodes([])
    assert kept == [] and made == 0
    doc = Document("d", TEXT)
    lines = ["黑海对峙事件|发生时间|2021年6月23日", "捍卫者号|对峙方|俄罗斯军队"]
    result = extract_document(FakeLLM([{"s0": lines}, {"types": []}]), doc, ExtractSettings())
    assert len(result.kg) == 2 and result.stats.events == 0
