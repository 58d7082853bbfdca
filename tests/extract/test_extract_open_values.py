"""Dates and quantities no triple holds are attributed by the program from word order (`extract/open_values.py`):
the name that begins the value's clause (or the clause before) owns it, a relative clause gives the date to the name
after it, counts of following nouns, articles, ordinals and values held already are left alone."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.data.records import Document
from kgreason.extract.grounding import Grounded, Mention
from kgreason.extract.open_values import attributed, name_candidates, open_values, topic_before
from kgreason.extract.pipeline import ExtractSettings, extract_document
from kgreason.extract.values import grounding_values
from kgreason.llm.fake import FakeLLM


def _sentence(text: str, index: int = 1) -> Sentence:
    return Sentence("d", index, text, 0, len(text))


def _triple(sentence: Sentence, sub: str, relation: str, obj: str) -> Grounded:
    s, o = sentence.text.find(sub), sentence.text.find(obj)
    return Grounded(sentence, Mention(sub, s, s + len(sub), "exact"), relation, Mention(obj, o, o + len(obj), "exact"))


def _attributed(text: str, names: list[str], topic: str | None = None) -> list[tuple[str, str, str]]:
    s = _sentence(text)
    found = attributed(s, open_values(text, grounding_values(text), []), names, topic)
    return [(r.sub, r.relation, r.obj) for r in found]


def test_the_name_opening_the_clause_or_the_one_before_owns_the_value() -> None:
    text = "五个出口用户：奥地利空军订购15架，2007年开始接收；沙特空军订购72架，2009年开始接收。"
    assert _attributed(text, ["奥地利空军", "沙特空军"]) == [
        ("奥地利空军", "订购", "15架"),
        ("奥地利空军", "开始接收时间", "2007年"),
        ("沙特空军", "订购", "72架"),
        ("沙特空军", "开始接收时间", "2009年"),
    ]


def test_a_date_before_a_relative_clause_is_the_following_names() -> None:
    text = "中国海军曾参加2014年举行的环太平洋-2014和2016年举行的环太平洋-2016。"
    assert _attributed(text, ["中国海军", "环太平洋-2014", "环太平洋-2016"]) == [
        ("环太平洋-2014", "举行时间", "2014年"),
        ("环太平洋-2016", "举行时间", "2016年"),
    ]


def test_a_pronoun_stands_for_the_earlier_name_with_its_noun_else_the_topic() -> None:
    text = "英国以埃拉米行动为代号参加干预，该行动于2011年3月19日开始。"
    assert _attributed(text, ["英国", "埃拉米行动"], topic="台风战斗机") == [
        ("埃拉米行动", "开始时间", "2011年3月19日")
    ]
    assert _attributed("该机机长15.96米。", [], topic="台风战斗机") == [("台风战斗机", "机长", "15.96米")]


def test_what_is_left_alone() -> None:
    # a count of the noun after it, an article, an ordinal, a name cut from a longer one, `其中` (no pronoun)
    assert _attributed("美军摧毁了伊拉克南部的两座预警雷达站。", ["美军", "伊拉克"]) == []
    assert _attributed("F-35B在阿富汗执行了一次对地打击任务。", ["F-35B", "阿富汗"]) == []
    assert _attributed("第二架原型机DA2首飞。", ["DA2"]) == []
    assert _attributed("阿曼皇家空军订购12架。", ["皇家空军"]) == []
    assert _attributed("多国部队总兵力约70万人，其中美军约54万人。", [], topic="联合国安理会") == []
    # the clause before opens with no name: no owner for `总兵力约70万人` (the one before that would be a guess)
    text = "多国部队由34个国家组成，主要包括美国、英国等，总兵力约70万人。"
    assert _attributed(text, ["多国部队", "美国", "英国"]) == []
    assert _attributed("多国部队主要包括美国、英国等，总兵力约70万人。", ["多国部队", "美国", "英国"]) == [
        ("多国部队", "总兵力", "70万人")
    ]
    # a clause with a subject of its own (a `的` phrase) does not go on with the clause before's name
    assert _attributed("法国曾与德国商讨联合研制坦克，但双方的合作于1982年破裂。", ["法国", "德国"]) == []
    # English text: word order says nothing here
    assert _attributed("The F-35 first flew in 2006.", ["F-35"]) == []


def test_values_held_by_a_triple_are_not_open() -> None:
    text = "1942年6月6日，三隈号被击沉，三隈号的沉没时间是1942年6月6日。"
    s = _sentence(text)
    held = Grounded(s, Mention("三隈号", 9, 12, "exact"), "沉没时间", Mention("1942年6月6日", 25, 34, "exact"))
    assert open_values(text, grounding_values(text), [held]) == []
    assert [v.text for v in open_values(text, grounding_values(text), [])] == ["1942年6月6日", "1942年6月6日"]


def test_candidates_and_topic_come_from_the_documents_triples() -> None:
    first, second = _sentence("台风战斗机由欧洲战斗机公司研制。", 0), _sentence("奥地利空军订购15架台风战斗机。", 1)
    earlier = [_triple(first, "台风战斗机", "研制单位", "欧洲战斗机公司")]
    assert name_candidates(second, [], earlier) == ["台风战斗机"]
    assert topic_before(second, earlier) == "台风战斗机" and topic_before(first, earlier) is None


def test_the_pipeline_adds_attributed_values_with_their_sentence_and_can_be_switched_off() -> None:
    doc = Document("d", "台风战斗机\n奥地利空军订购15架台风，2007年开始接收。")
    reply = {"s0": [], "s1": ["奥地利空军|订购|台风"]}
    on = extract_document(FakeLLM([reply, {"types": []}]), doc, ExtractSettings(window=2, reask_silent=False))
    assert ("奥地利空军", "开始接收时间", "2007年") in [t.spo for t in on.kg]
    assert on.stats.value_triples == 1  # `15架` counts the aircraft after it: no attribute
    cited = {t.spo: p.sourced.sentence for t, p in zip(on.kg, on.triples, strict=True)}
    assert cited[("奥地利空军", "开始接收时间", "2007年")] == 1
    off = extract_document(
        FakeLLM([reply, {"types": []}]), doc, ExtractSettings(window=2, reask_silent=False, open_values=False)
    )
    assert [t.spo for t in off.kg] == [("奥地利空军", "订购", "台风")] and off.stats.value_triples == 0
