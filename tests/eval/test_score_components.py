"""Each component of the official score on small hand-computed cases (definitions: docs/scoring.md)."""

from __future__ import annotations

import pytest
from score_helpers import record

from kgreason.eval.metrics import (
    answer_score,
    bridge_nodes,
    connection,
    constraint_score,
    evidence_score,
    is_set_answer,
    key_entities,
    lcs_length,
    reasoning_score,
    set_prf,
    values_match,
)

# ------------------------------------------------------------------------------------------------------ AnswerScore


@pytest.mark.parametrize(
    ("pred", "gold"),
    [
        ("1944 年 6 月 6 日", "1944年6月6日"),  # whitespace
        ("Ｆ－３５Ａ", "f-35a"),  # full width, case, dash
        ("《论持久战》", "论持久战"),  # book-title marks
        ("“艾森豪威尔”", "艾森豪威尔"),  # quotes
        ("艾森豪威尔。", "艾森豪威尔"),  # punctuation
    ],
)
def test_em_after_normalisation(pred: str, gold: str) -> None:
    res = answer_score([pred], record(answers=[gold]))
    assert (res.kind, res.em, res.score) == ("single", 1.0, 1.0)


def test_em_single_answer_rules() -> None:
    gold = record(answers=["艾森豪威尔"], answer_type="人物")
    assert answer_score(["蒙哥马利"], gold).score == 0
    assert answer_score([], gold).score == 0
    # several answers for a single-answer question: 0 unless the normalised sets are equal
    assert answer_score(["艾森豪威尔", "蒙哥马利"], gold).score == 0
    assert answer_score(["艾森豪威尔", "艾森豪威尔 "], gold).score == 1
    # an empty string is not an answer
    assert answer_score(["艾森豪威尔", ""], gold).score == 1


def test_boolean_answers_are_canonicalised() -> None:
    gold = record(answers=["是"], answer_type="布尔")
    assert answer_score(["是的"], gold).score == 1
    assert answer_score(["正确"], gold).score == 1
    assert answer_score(["否"], gold).score == 0
    assert answer_score(["不是"], record(answers=["否"], answer_type="布尔")).score == 1


def test_set_rule() -> None:
    assert is_set_answer(record(answers=["南昌舰"], answer_type="实体集合"))  # type says 集合
    assert is_set_answer(record(answers=["南昌舰", "郑州舰"], answer_type="舰艇"))  # more than one answer
    assert not is_set_answer(record(answers=["南昌舰"], answer_type="舰艇"))
    assert not is_set_answer(record(answers=["南昌舰", "南昌舰 "], answer_type="舰艇"))  # one distinct answer


def test_set_f1() -> None:
    gold = record(answers=["南昌舰", "郑州舰", "济南舰"], answer_type="实体集合")
    # 2 of 3 right, 1 wrong: P = 2/3, R = 2/3, F1 = 2/3
    res = answer_score(["南昌舰", "郑州舰", "福州舰"], gold)
    assert res.kind == "set"
    assert (res.precision, res.recall) == pytest.approx((2 / 3, 2 / 3))
    assert res.score == pytest.approx(2 / 3)
    assert res.em == 0
    # one right: P = 1, R = 1/3, F1 = 2·(1/3)/(4/3) = 0.5
    assert answer_score(["南昌舰"], gold).score == pytest.approx(0.5)
    # order and normalisation do not matter
    assert answer_score(["济南舰", "“郑州舰”", "南昌 舰"], gold).score == 1
    assert answer_score([], gold).score == 0


def test_set_prf_conventions() -> None:
    assert set_prf([], []).f1 == 1  # nothing asked, nothing given
    assert set_prf([1], []).f1 == 0
    assert set_prf([], [1]).f1 == 0
    m = set_prf([1, 1, 2], [1, 3])  # sets: {1, 2} vs {1, 3}
    assert (m.precision, m.recall, m.f1) == (0.5, 0.5, 0.5)


# ---------------------------------------------------------------------------------------------------- EvidenceScore
T1 = ("歼-20", "装备发动机", "涡扇-15")
T2 = ("涡扇-15", "研制单位", "中国航发沈阳发动机研究所")
ENGINE = record(
    question="歼-20装备的发动机由哪家单位研制？",
    answers=["中国航发沈阳发动机研究所"],
    gold_reasoning_paths_main=[list(T1), list(T2)],
)


def test_triple_f1_and_parsimony() -> None:
    # 1 right + 1 wrong: P_t = 1/2, R_t = 1/2, F1 = 0.5; Parsimony = min(1, 2/2) = 1 -> 0.6·0.5 + 0.4 = 0.7
    ev = evidence_score([T1, ("涡扇-15", "研制单位", "黎明公司")], ENGINE)
    assert (ev.precision, ev.recall, ev.triple_match, ev.parsimony) == (0.5, 0.5, 0.5, 1.0)
    assert ev.score == pytest.approx(0.7)
    # 1 right only: P = 1, R = 1/2, F1 = 2/3; Parsimony = min(1, 2/1) = 1 -> 0.6·(2/3) + 0.4 = 0.8
    assert evidence_score([T1], ENGINE).score == pytest.approx(0.8)
    # normalised comparison: full-width dash, spaces
    assert evidence_score([("歼－20", "装备 发动机", "涡扇-15"), T2], ENGINE).triple_match == 1


def test_parsimony_counts_repeats_but_matching_does_not() -> None:
    # [T1, T1, T2]: as a set {T1, T2} -> P_t = R_t = 1; |Pred_t| = 3 -> Parsimony = 2/3
    ev = evidence_score([T1, T1, T2], ENGINE)
    assert ev.triple_match == 1
    assert ev.parsimony == pytest.approx(2 / 3)
    assert ev.n_pred == 3 and ev.n_gold_main == 2


def test_empty_and_reversed_evidence() -> None:
    ev = evidence_score([], ENGINE)
    assert (ev.triple_match, ev.parsimony, ev.score) == (0, 0, 0)
    # a reversed triple is not the KG's triple
    assert evidence_score([("涡扇-15", "装备发动机", "歼-20")], ENGINE).triple_match == 0


def test_best_gold_path_wins_ties_go_to_main() -> None:
    gold = record(
        answers=["c"],
        gold_reasoning_paths_main=[["a", "r", "b"], ["b", "r", "c"]],
        gold_reasoning_paths_alt=[[["a", "s", "c"]], [["a", "r", "b"], ["b", "q", "c"]]],
    )
    assert evidence_score([("a", "s", "c")], gold).matched_path == "alt[0]"
    assert evidence_score([("a", "r", "b")], gold).matched_path == "main"  # F1 2/3 with main and alt[1]


# --------------------------------------------------------------------------------------------------- ReasoningScore


def test_reasoning_exact_chain() -> None:
    rs = reasoning_score([T1, T2], ENGINE)
    # key entity 歼20 (named in the question), bridge 涡扇15, answer 中国航发沈阳发动机研究所
    assert rs.key_entities == ("歼20",)
    assert rs.bridge_nodes == ("涡扇15",)
    assert (rs.node_coverage, rs.edge_order, rs.hop_match, rs.score) == (1, 1, 1, 1)


def test_reasoning_parts() -> None:
    # Only the second hop: key entity missing (Node 0), answer not linked to a key entity (Order 0),
    # bridge present (Hop 1) -> 0.2
    rs = reasoning_score([T2], ENGINE)
    assert (rs.node_coverage, rs.edge_order, rs.hop_match) == (0, 0, 1)
    assert rs.score == pytest.approx(0.2)
    # Only the first hop: Node 1, answer absent (Order 0), bridge present -> 0.4 + 0.2 = 0.6
    assert reasoning_score([T1], ENGINE).score == pytest.approx(0.6)
    # Both hops, written in reverse order: linked, LCS([装备发动机, 研制单位], [研制单位, 装备发动机]) = 1 of 2
    # -> Order 0.5 -> 0.4 + 0.2 + 0.2 = 0.8
    rs = reasoning_score([T2, T1], ENGINE)
    assert rs.edge_order == pytest.approx(0.5)
    assert rs.score == pytest.approx(0.8)
    # A broken chain: 歼-20 reaches 涡扇-10, the answer hangs off 涡扇-15 -> not linked, Order 0 -> 0.4 + 0.2 = 0.6
    rs = reasoning_score([("歼-20", "装备发动机", "涡扇-10"), T2], ENGINE)
    assert (rs.connection, rs.edge_order) == (0, 0)
    assert rs.score == pytest.approx(0.6)
    # A chain through a different bridge: linked (Order 1), bridge 涡扇15 missing (Hop 0) -> 0.8
    other = [("歼-20", "装备发动机", "涡扇-10"), ("涡扇-10", "研制单位", "中国航发沈阳发动机研究所")]
    rs = reasoning_score(other, ENGINE)
    assert (rs.node_coverage, rs.edge_order, rs.hop_match) == (1, 1, 0)
    # Nothing predicted: 0 on every part (HopMatch is not a free 1)
    assert reasoning_score([], ENGINE).score == 0


def test_hop_match_alternative_without_bridge() -> None:
    # Alternative path of the spec example predicted without the 盟军远征部队 hop:
    # bridge 盟军远征部队 is missing -> HopMatch 0
    from score_helpers import SPEC_EXAMPLE

    gold = record(**SPEC_EXAMPLE)
    pred = [tuple(t) for t in SPEC_EXAMPLE["gold_reasoning_paths_alt"][3:]]
    rs = reasoning_score(pred, gold, "alt[0]")
    assert rs.bridge_nodes == ("盟军远征部队",)
    assert rs.hop_match == 0


def test_key_entities_and_bridges() -> None:
    path = [
        ("f22", "首飞时间", "1997年9月7日"),
        ("歼20", "首飞时间", "2011年1月11日"),
        ("1997年9月7日", "早于", "2011年1月11日"),
    ]
    # which-of-two: the answer f22 starts the path, and both aircraft are named in the question
    keys = key_entities(path, "歼-20和F-22哪个首飞更早？", {"f22"})
    assert keys == ("f22", "歼20")
    # the dates are operands of a derived comparison: no bridge
    assert bridge_nodes(path, keys, {"f22"}) == ()
    # a paraphrased question names no node: the first non-answer node is the key entity
    assert key_entities([("a舰", "属于", "b编队")], "它属于哪个编队？", {"b编队"}) == ("a舰",)
    # one-character nodes are not looked for in the question
    assert key_entities([("航母x", "国家", "美")], "美国的航母x", set()) == ("航母x",)


def test_connection_which_of_two_and_yes_no() -> None:
    keys = ("f22", "歼20")
    linked = [("f22", "首飞时间", "d1"), ("歼20", "首飞时间", "d2"), ("d1", "早于", "d2")]
    assert connection(linked, keys, {"f22"}) == 1  # f22 reaches 歼20 through the comparison
    assert connection(linked[:2], keys, {"f22"}) == 0  # no comparison: two separate pieces
    # yes/no: no answer node; every key entity must be present and in one piece
    assert connection([("歼20", "装备发动机", "涡扇15")], ("歼20", "涡扇15"), set()) == 1
    assert connection([("歼20", "装备发动机", "涡扇10")], ("歼20", "涡扇15"), set()) == 0


def test_connection_set_answers_is_a_fraction() -> None:
    keys = ("辽宁舰编队",)
    pred = [("辽宁舰编队", "包含", "南昌舰"), ("辽宁舰编队", "包含", "郑州舰"), ("济南舰", "舰种", "驱逐舰")]
    assert connection(pred, keys, {"南昌舰", "郑州舰", "济南舰"}) == pytest.approx(2 / 3)


def test_lcs() -> None:
    assert lcs_length("abcd", "acbd") == 3
    assert lcs_length([], ["a"]) == 0


# -------------------------------------------------------------------------------------------------- ConstraintScore


def test_constraint_exact_and_containment() -> None:
    gold = {"time": "第二次世界大战期间", "camp": "同盟国"}
    assert constraint_score(dict(gold), gold).f1 == 1
    # containment under the same key; Chinese key names and spacing
    assert constraint_score({"时间": "第二次世界大战", "camp": "“同盟国”"}, gold).f1 == 1
    # one right, one wrong: P_c = 1/2, R_c = 1/2, F1 = 0.5
    res = constraint_score({"time": "第二次世界大战期间", "camp": "轴心国"}, gold)
    assert (res.precision, res.recall, res.f1) == (0.5, 0.5, 0.5)
    # right value under the wrong key does not count: P_c = 0/1, R_c = 0/2
    assert constraint_score({"place": "同盟国"}, gold).f1 == 0
    # one of two, nothing wrong: P_c = 1, R_c = 1/2, F1 = 2/3
    assert constraint_score({"camp": "同盟国"}, gold).f1 == pytest.approx(2 / 3)


def test_constraint_value_matching() -> None:
    assert values_match("第二次世界大战", "第二次世界大战期间")
    assert values_match("1000公里", "射程超过1000公里")
    assert not values_match("年以后", "2010年以后")  # shorter than half the other
    assert not values_match("后", "以后")  # a single character never matches by containment


def test_constraint_empty_cases() -> None:
    assert constraint_score({}, {}).f1 == 1  # both empty
    res = constraint_score({"time": "2010年以后"}, {})  # gold empty, prediction not
    assert (res.precision, res.f1) == (0, 0)
    res = constraint_score({}, {"time": "2010年以后"})  # prediction empty, gold not
    assert (res.recall, res.f1) == (0, 0)
    assert constraint_score({"time": " "}, {}).f1 == 1  # an empty value is no constraint
