"""Subject and object must be written in the cited sentence: exact, value, longest part, pronoun, else dropped."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.extract.grounding import Mention, ground, locate, pronoun_in
from kgreason.extract.lines import RawTriple
from kgreason.extract.values import find_values, grounding_values

DOC = "F-35A是常规起降型。它的内油作战半径约1093公里。"


def sentence(text: str) -> Sentence:
    start = DOC.index(text)
    return Sentence("d", 0, text, start, start + len(text))


def test_exact_names_give_a_span_covering_both_mentions() -> None:
    s = sentence("F-35A是常规起降型。")
    g = ground(RawTriple(0, "F-35A", "类型", "常规起降型"), s, find_values(s.text), DOC[: s.start])
    assert g is not None
    assert (g.sub.how, g.obj.how) == ("exact", "exact")
    lo, hi = g.doc_span
    assert DOC[lo:hi] == "F-35A是常规起降型"


def test_value_inside_the_name_becomes_the_object() -> None:
    text = "它的内油作战半径约1093公里。"
    m = locate("大约1093公里左右", text, find_values(text))
    assert m is not None and (m.name, m.how) == ("1093公里", "value")


def test_longest_part_repairs_a_rewritten_name_and_a_stranger_is_dropped() -> None:
    text = "F-35A是常规起降型。"
    m = locate("F-35A战斗机", text, [])
    assert m is not None and (m.name, m.how) == ("F-35A", "part")
    assert locate("歼-20", text, []) is None  # not in the sentence at all


def test_a_value_the_sentence_does_not_hold_is_not_cut_to_a_part() -> None:
    text = "1982年6月12日，导弹命中该舰，造成14人死亡。"
    values = grounding_values(text)
    assert locate("1982年6月14日", text, values) is None  # another sentence's date, not `1982年6月1`
    assert locate("140人", text, values) is None
    m = locate("1982年6月12日", text, values)
    assert m is not None and m.name == "1982年6月12日"


def test_a_part_never_cuts_a_number() -> None:
    text = "南昌舰舷号101，由江南造船厂建造。"
    assert locate("舷号1011号", text, []) is None  # `舷号101` would cut the name's 1011
    m = locate("江南造船厂建造", text, [])
    assert m is not None and m.how == "exact"
    assert locate("歼-2", "歼-20首飞。", []) != Mention("歼-2", 0, 3, "exact")  # only inside `歼-20`


def test_pronoun_subject_needs_an_antecedent_earlier_in_the_document() -> None:
    s = sentence("它的内油作战半径约1093公里。")
    raw = RawTriple(1, "F-35A", "作战半径", "1093公里")
    g = ground(raw, s, find_values(s.text), DOC[: s.start])
    assert g is not None and g.sub.how == "pronoun" and g.sub.name == "F-35A"
    assert s.text[g.sub.start : g.sub.end] == "它"
    assert ground(raw, s, find_values(s.text), "") is None  # no antecedent before: dropped


def test_subject_equal_to_object_is_dropped() -> None:
    s = sentence("F-35A是常规起降型。")
    assert ground(RawTriple(0, "F-35A", "是", "F-35A"), s, [], "") is None


def test_a_name_spaced_differently_takes_the_sentence_spelling() -> None:
    text = "约克城号航空母舰最终于1942 年 6 月 7 日沉没。"
    m = locate("1942年6月7日", text, [])
    assert m is not None and (m.name, m.how) == ("1942 年 6 月 7 日", "exact")
    assert text[m.start : m.end] == m.name
    assert locate("1942年6月8日", text, []) is None
    assert locate("   ", text, []) is None


def test_a_demonstrative_refers_back_like_a_pronoun() -> None:
    doc = "英国皇家海军第820中队随舰出航。该中队装备梅林直升机。"
    text = "该中队装备梅林直升机。"
    s = Sentence("d", 1, text, doc.index(text), len(doc))
    g = ground(RawTriple(1, "英国皇家海军第820中队", "装备", "梅林直升机"), s, [], doc[: s.start])
    assert g is not None and g.sub.how == "pronoun" and text[g.sub.start : g.sub.end] == "该"
    # `应该` is no demonstrative
    t2 = "它们应该装备梅林直升机。"
    assert pronoun_in(t2) == (0, 2)
    assert pronoun_in("应该装备梅林直升机。") is None
