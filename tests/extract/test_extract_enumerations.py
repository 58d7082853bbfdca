"""A list written as one name becomes one triple per member; names that only look like lists stay whole."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.data.records import Document
from kgreason.extract.enumerations import members, split_enumerations
from kgreason.extract.grounding import Grounded, Mention
from kgreason.extract.pipeline import ExtractSettings, extract_document
from kgreason.llm.fake import FakeLLM


def test_members_of_a_list_and_the_closing_count_dropped() -> None:
    assert members("赤城号、加贺号、苍龙号和飞龙号4艘航空母舰") == ["赤城号", "加贺号", "苍龙号", "飞龙号"]
    assert members("夏威夷群岛周边海域和美国南加利福尼亚沿海") == ["夏威夷群岛周边海域", "美国南加利福尼亚沿海"]


def test_names_that_only_contain_a_conjunction_are_not_lists() -> None:
    for name in ("中华人民共和国", "和平号空间站", "Procter and Gamble", "2021年5月和6月", "两艘45型驱逐舰", "F-35"):
        assert members(name) is None, name


def test_a_list_subject_and_object_split_only_when_every_member_is_in_the_sentence() -> None:
    text = "赤城号和加贺号编为第一航空战队。"
    s = Sentence("d", 0, text, 0, len(text))
    g = Grounded(s, Mention("赤城号和加贺号", 0, 7, "exact"), "编为", Mention("第一航空战队", 9, 15, "exact"))
    out, n = split_enumerations([g])
    assert [(t.sub.name, t.sub.start, t.obj.name) for t in out] == [
        ("赤城号", 0, "第一航空战队"),
        ("加贺号", 4, "第一航空战队"),
    ]
    assert n == 1
    # a member the sentence does not spell (the model wrote its own list): the triple stays whole
    odd = Grounded(s, Mention("赤城号和飞龙号", 0, 7, "part"), "编为", Mention("第一航空战队", 9, 15, "exact"))
    assert split_enumerations([odd]) == ([odd], 0)


def test_the_pipeline_counts_split_lists_and_cites_each_member() -> None:
    doc = Document("d", "南云舰队下辖赤城号、加贺号、苍龙号和飞龙号4艘航空母舰。")
    fake = FakeLLM([{"s0": ["南云舰队|下辖|赤城号、加贺号、苍龙号和飞龙号4艘航空母舰"]}, {"types": []}])
    result = extract_document(fake, doc, ExtractSettings(window=2))
    assert [t.obj for t in result.kg] == ["赤城号", "加贺号", "苍龙号", "飞龙号"]
    assert result.stats.enumerations == 1 and result.stats.to_json()["enumerations"] == 1
    assert all(p.obj_mention == t.obj for t, p in zip(result.kg, result.triples, strict=True))
