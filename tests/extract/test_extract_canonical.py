"""One name per thing in a document: pronouns, declared aliases, short forms."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.extract.canonical import canonicalise
from kgreason.extract.grounding import Grounded, Mention

S = Sentence("d", 0, "x", 0, 1)


def g(sub: str, rel: str, obj: str) -> Grounded:
    return Grounded(S, Mention(sub, 0, 1, "exact"), rel, Mention(obj, 0, 1, "exact"))


def spo(triples: list[Grounded]) -> list[tuple[str, str, str]]:
    return [(t.sub.name, t.relation, t.obj.name) for t in triples]


def test_declared_alias_stands_for_the_full_name_elsewhere_but_the_alias_triple_stays() -> None:
    out, renamings = canonicalise(
        [g("洛克希德·马丁公司", "简称", "洛马"), g("F-35", "研制单位", "洛马"), g("洛马", "总部", "贝塞斯达")]
    )
    assert spo(out) == [
        ("洛克希德·马丁公司", "简称", "洛马"),
        ("F-35", "研制单位", "洛克希德·马丁公司"),
        ("洛克希德·马丁公司", "总部", "贝塞斯达"),
    ]
    assert {(r.original, r.name, r.rule) for r in renamings} == {("洛马", "洛克希德·马丁公司", "alias")}


def test_short_form_goes_to_the_only_longer_name_with_a_head_noun() -> None:
    out, _ = canonicalise([g("捍卫者号驱逐舰", "舷号", "D36"), g("捍卫者号", "参加", "环太平洋演习")])
    assert spo(out)[1] == ("捍卫者号驱逐舰", "参加", "环太平洋演习")


def test_model_names_are_not_short_forms_of_their_variants() -> None:
    out, renamings = canonicalise([g("F-35", "研制国家", "美国"), g("F-35A", "首飞时间", "2006年12月15日")])
    assert spo(out)[0][0] == "F-35" and not renamings


def test_pronoun_names_resolve_to_the_previous_topic_or_are_dropped() -> None:
    out, _ = canonicalise([g("该舰", "舷号", "D36"), g("捍卫者号驱逐舰", "舷号", "D36"), g("它", "参加", "演习")])
    assert spo(out) == [("捍卫者号驱逐舰", "舷号", "D36"), ("捍卫者号驱逐舰", "参加", "演习")]


def test_country_prefix_is_dropped_when_the_text_also_writes_the_name_alone() -> None:
    text = "该系列由美国洛克希德·马丁公司研制，洛克希德·马丁公司简称洛马。美国海军使用它。"
    out, renamings = canonicalise(
        [g("F-35", "研制单位", "美国洛克希德·马丁公司"), g("F-35", "使用方", "美国海军")], text
    )
    assert spo(out) == [("F-35", "研制单位", "洛克希德·马丁公司"), ("F-35", "使用方", "美国海军")]
    assert [r.rule for r in renamings] == ["country_prefix"]
