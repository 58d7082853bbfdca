"""The spec's own example (spec 000, section 2: the Normandy question, L3), scored by hand.

L3 weights: Score = 0.3·Answer + 0.25·Evidence + 0.25·Reasoning + 0.2·Constraint.
Gold main path (4 triples): 诺曼底登陆-指挥官-艾森豪威尔, 艾森豪威尔-隶属于-同盟国, 诺曼底登陆-发生时间-1944年6月6日,
1944年6月6日-处于时期内-第二次世界大战. Alternative path: 8 triples through 盟军远征部队.
Key entities (nodes named in the question, plus the first head): 诺曼底登陆, 同盟国, 第二次世界大战.
"""

from __future__ import annotations

import pytest
from score_helpers import SPEC_EXAMPLE, spec_example

from kgreason.data.answers import parse_answer_record
from kgreason.eval.official import score_question

GOLD = parse_answer_record(SPEC_EXAMPLE, file="qa_answer.json", index=0).record
MAIN = SPEC_EXAMPLE["gold_reasoning_paths_main"]
ALT = SPEC_EXAMPLE["gold_reasoning_paths_alt"]


def test_exact_main_path_scores_one() -> None:
    # Spacing differs from the gold ("1944年6月6日" vs "1944 年 6 月 6 日"): normalisation makes them equal.
    path = [[h.replace(" ", ""), r, t.replace(" ", "")] for h, r, t in MAIN]
    q = score_question(parse_answer_record(spec_example(gold_reasoning_paths_main=path), file="p", index=0), GOLD)
    # Evidence: P_t = 4/4, R_t = 4/4, TripleMatch = 1; Parsimony = min(1, 4/4) = 1 -> 0.6·1 + 0.4·1 = 1
    assert (q.evidence.precision, q.evidence.recall, q.evidence.triple_match, q.evidence.parsimony) == (1, 1, 1, 1)
    assert q.evidence.score == pytest.approx(1.0)
    assert q.evidence.matched_path == "main"
    # Reasoning: the three key entities appear (1); 艾森豪威尔 is linked to 诺曼底登陆 and the relation sequence is
    # the gold one (LCS 4/4 = 1); no bridge node on the main path (HopMatch 1) -> 1
    assert q.reasoning.key_entities == ("诺曼底登陆", "同盟国", "第二次世界大战")
    assert q.reasoning.bridge_nodes == ()
    assert (q.reasoning.node_coverage, q.reasoning.edge_order, q.reasoning.hop_match) == (1, 1, 1)
    assert q.answer.em == 1 and q.constraint.f1 == 1
    assert q.score == pytest.approx(1.0)


def test_alternative_path_only() -> None:
    q = score_question(parse_answer_record(spec_example(gold_reasoning_paths_main=ALT), file="p", index=0), GOLD)
    # Against the main path: 1 shared triple (发生时间) -> P = 1/8, R = 1/4, F1 = 2·(1/32)/(3/8) = 1/6.
    # Against the alternative: P = R = 8/8 -> TripleMatch = 1 (the best path is taken).
    assert q.evidence.matched_path == "alt[0]"
    assert q.evidence.triple_match == pytest.approx(1.0)
    # Parsimony = min(1, |gold main| / |Pred_t|) = 4/8 = 0.5 (the spec measures against the main path's size)
    assert q.evidence.parsimony == pytest.approx(0.5)
    # Evidence = 0.6·1 + 0.4·0.5 = 0.8
    assert q.evidence.score == pytest.approx(0.8)
    # Reasoning is measured against the alternative: bridge node 盟军远征部队 is present (the 1944/1939/1945 dates are
    # operands of derived comparisons, not bridges) -> NodeCoverage 1, EdgeOrder 1 (LCS 8/8), HopMatch 1/1
    assert q.reasoning.path == "alt[0]"
    assert q.reasoning.bridge_nodes == ("盟军远征部队",)
    assert q.reasoning.score == pytest.approx(1.0)
    # Score = 0.3·1 + 0.25·0.8 + 0.25·1 + 0.2·1 = 0.95
    assert q.score == pytest.approx(0.95)


def test_padded_main_path_loses_parsimony() -> None:
    padded = [*MAIN, ["艾森豪威尔", "出生地点", "丹尼森"], ["艾森豪威尔", "职务", "美国总统"]]
    q = score_question(parse_answer_record(spec_example(gold_reasoning_paths_main=padded), file="p", index=0), GOLD)
    # P_t = 4/6, R_t = 4/4 -> TripleMatch = 2·(2/3)·1 / (2/3 + 1) = 0.8
    assert q.evidence.precision == pytest.approx(2 / 3)
    assert q.evidence.recall == pytest.approx(1.0)
    assert q.evidence.triple_match == pytest.approx(0.8)
    # Parsimony = min(1, 4/6) = 2/3 < 1
    assert q.evidence.parsimony == pytest.approx(2 / 3)
    # Evidence = 0.6·0.8 + 0.4·(2/3) = 0.48 + 0.26667 = 0.74667
    assert q.evidence.score == pytest.approx(0.48 + 0.4 * 2 / 3)
    # Reasoning: NodeCoverage 1, EdgeOrder = 1 (linked) · LCS 4 / max(4, 6) = 2/3, HopMatch 1
    # -> 0.4 + 0.4·(2/3) + 0.2 = 0.86667
    assert q.reasoning.edge_order == pytest.approx(2 / 3)
    assert q.reasoning.score == pytest.approx(0.4 + 0.4 * 2 / 3 + 0.2)
    # Score = 0.3 + 0.25·0.74667 + 0.25·0.86667 + 0.2 = 0.90333
    assert q.score == pytest.approx(0.3 + 0.25 * (0.48 + 0.4 * 2 / 3) + 0.25 * (0.6 + 0.4 * 2 / 3) + 0.2)


def test_wrong_answer_with_right_path_keeps_path_credit() -> None:
    q = score_question(parse_answer_record(spec_example(answers=["蒙哥马利"]), file="p", index=0), GOLD)
    # Answer 0; Evidence, Reasoning, Constraint 1 -> 0.25 + 0.25 + 0.2 = 0.7
    assert q.answer.score == 0
    assert q.score == pytest.approx(0.7)


def test_reasoning_measured_against_gold_answer_not_predicted_one() -> None:
    # Only the chain to the answer: 诺曼底登陆-指挥官-艾森豪威尔 and 艾森豪威尔-隶属于-同盟国.
    q = score_question(parse_answer_record(spec_example(gold_reasoning_paths_main=MAIN[:2]), file="p", index=0), GOLD)
    # Evidence: P = 2/2, R = 2/4 -> F1 = 2/3; Parsimony = min(1, 4/2) = 1 -> 0.6·(2/3) + 0.4 = 0.8
    assert q.evidence.score == pytest.approx(0.8)
    # NodeCoverage: 诺曼底登陆, 同盟国 present, 第二次世界大战 not -> 2/3
    # EdgeOrder: linked (1) · LCS([指挥官, 隶属于, 发生时间, 处于时期内], [指挥官, 隶属于]) = 2 / 4 -> 0.5
    # HopMatch: no bridge -> 1.   Reasoning = 0.4·(2/3) + 0.4·0.5 + 0.2 = 0.66667
    assert q.reasoning.node_coverage == pytest.approx(2 / 3)
    assert q.reasoning.edge_order == pytest.approx(0.5)
    assert q.reasoning.score == pytest.approx(0.4 * 2 / 3 + 0.2 + 0.2)


@pytest.mark.parametrize(
    ("path", "evidence", "node", "edge_order", "hop", "reasoning"),
    [
        # the docs/scoring.md tables, row by row
        (list(reversed(MAIN)), 1.0, 1.0, 0.25, 1.0, 0.4 + 0.1 + 0.2),  # LCS 1 of 4
        # only 艾森豪威尔-隶属于-同盟国: P 1/1, R 1/4 -> TM 0.4; Parsimony 1 -> 0.24 + 0.4; linked through 同盟国
        ([MAIN[1]], 0.64, 1 / 3, 0.25, 1.0, 0.4 / 3 + 0.1 + 0.2),
        # the alternative without its first three triples: P 5/5, R 5/8 -> TM 10/13; Parsimony 4/5;
        # 艾森豪威尔 absent -> not linked; bridge 盟军远征部队 absent
        (ALT[3:], 0.6 * 10 / 13 + 0.4 * 0.8, 2 / 3, 0.0, 0.0, 0.4 * 2 / 3),
    ],
)
def test_documented_rows(
    path: list[list[str]], evidence: float, node: float, edge_order: float, hop: float, reasoning: float
) -> None:
    q = score_question(parse_answer_record(spec_example(gold_reasoning_paths_main=path), file="p", index=0), GOLD)
    assert q.evidence.score == pytest.approx(evidence)
    assert q.reasoning.node_coverage == pytest.approx(node)
    assert q.reasoning.edge_order == pytest.approx(edge_order)
    assert q.reasoning.hop_match == pytest.approx(hop)
    assert q.reasoning.score == pytest.approx(reasoning)
