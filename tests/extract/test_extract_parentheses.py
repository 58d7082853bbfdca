"""Facts stated in a parenthesis after a name (`X（舷号D36）`, `X（简称Y，又称Z）`) are read by the program; a
parenthesis without an attribute or alias word gives nothing, and the name before it is a known node name (not a bare
head noun) or a short bare clause."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.data.records import Document
from kgreason.extract.grounding import Grounded, Mention
from kgreason.extract.parentheses import parenthetical_facts
from kgreason.extract.pipeline import ExtractSettings, extract_document
from kgreason.llm.fake import FakeLLM


def one(text: str) -> Sentence:
    return Sentence("d", 0, text, 0, len(text))


def known(s: Sentence, *names: str) -> list[Grounded]:
    """Triples naming `names` (as the model's would), each with a neighbour, to make them known node names."""
    out = []
    for n in names:
        at = s.text.index(n)
        out.append(Grounded(s, Mention(n, at, at + len(n), "exact"), "类型", Mention("x", 0, 1, "exact")))
    return out


def spo(triples: list[Grounded]) -> list[tuple[str, str, str]]:
    return [(g.sub.name, g.relation, g.obj.name) for g in triples]


def test_codes_and_aliases_in_a_parenthesis_become_triples_of_the_name_before_it() -> None:
    s = one("打击群编有两艘驱逐舰，即捍卫者号驱逐舰（舷号D36）和钻石号驱逐舰（舷号D34）。")
    assert spo(parenthetical_facts([s], known(s, "驱逐舰"))) == [  # `驱逐舰` is a head noun, not the name
        ("捍卫者号驱逐舰", "舷号", "D36"),
        ("钻石号驱逐舰", "舷号", "D34"),
    ]
    s = one("由约瑟夫·罗彻福特领导的情报站（简称海波站，又称“HYPO站”）负责破译。")
    assert spo(parenthetical_facts([s], known(s, "情报站"))) == [
        ("情报站", "简称", "海波站"),
        ("情报站", "又称", "HYPO站"),
    ]


def test_a_known_name_is_preferred_to_the_clause_and_mentions_are_spans_of_the_sentence() -> None:
    s = one("首舰南昌舰（编号101）由江南造船厂建造。")
    (g,) = parenthetical_facts([s], known(s, "南昌舰"))
    assert spo([g]) == [("南昌舰", "编号", "101")]
    assert s.text[g.sub.start : g.sub.end] == "南昌舰" and s.text[g.obj.start : g.obj.end] == "101"


def test_parentheses_without_an_attribute_word_or_name_give_nothing() -> None:
    s = one("成都飞机工业（集团）有限责任公司采用无附面层隔道超声速进气道（DSI），拉萨舰（102）随后服役。")
    assert parenthetical_facts([s], []) == []
    s = one("它是由美国海军太平洋舰队司令部统一指挥的一次演习中的重要环节（编号7）。")  # a phrase, not a name
    assert parenthetical_facts([s], []) == []


def test_a_fact_the_model_listed_is_not_added_twice() -> None:
    s = one("捍卫者号驱逐舰（舷号D36）。")
    listed = [Grounded(s, Mention("捍卫者号驱逐舰", 0, 7, "exact"), "舷号", Mention("D36", 10, 13, "exact"))]
    assert parenthetical_facts([s], listed) == []


def test_the_pipeline_adds_them_and_counts_them() -> None:
    doc = Document("d", "英国派出捍卫者号驱逐舰（舷号D36）前往黑海。")
    fake = FakeLLM([{"s0": ["捍卫者号驱逐舰|前往|黑海"]}, {"types": []}])
    result = extract_document(fake, doc, ExtractSettings())
    assert ("捍卫者号驱逐舰", "舷号", "D36") in [t.spo for t in result.kg]
    assert result.stats.parenthetical == 1
