"""Subject and object must be written in the cited sentence: exact, value, longest part, pronoun, else dropped."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.extract.grounding import ground, locate
from kgreason.extract.lines import RawTriple
from kgreason.extract.values import find_values

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
