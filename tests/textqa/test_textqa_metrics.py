"""The official metrics on hand-computed cases."""

from __future__ import annotations

import pytest

from kgreason.textqa.metrics import (
    PRF,
    answer_prf,
    best_answer_prf,
    evidence_prf,
    joint_prf,
    normalize_answer,
    set_prf,
)


def test_normalize_answer_drops_case_punctuation_articles_and_spaces() -> None:
    assert normalize_answer("The  Eiffel-Tower, Paris!") == "eiffeltower paris"
    assert normalize_answer("an Apple a day") == "apple day"


def test_answer_f1_by_hand() -> None:
    # pred tokens [barack, obama, jr], gold [barack, obama]: P = 2/3, R = 1, F1 = 0.8
    prf = answer_prf("Barack Obama Jr.", "Barack Obama")
    assert (prf.em, prf.precision, prf.recall) == (0.0, pytest.approx(2 / 3), 1.0)
    assert prf.f1 == pytest.approx(0.8)
    assert answer_prf("the Barack Obama", "Barack Obama").em == 1.0


def test_yes_no_rule_of_hotpotqa_and_not_of_squad() -> None:
    assert answer_prf("yes it is", "yes").f1 == 0.0  # HotpotQA: a special answer must match exactly
    assert answer_prf("yes it is", "yes", special_answers=False).f1 == pytest.approx(0.5)  # P 1/3, R 1
    assert answer_prf("no", "no").f1 == 1.0


def test_musique_takes_the_best_alias() -> None:
    em, f1 = best_answer_prf("Petersburg", ["Saint Petersburg", "Petersburg"], special_answers=False)
    assert (em, f1) == (1.0, 1.0)
    em, f1 = best_answer_prf("St Petersburg city", ["Saint Petersburg"], special_answers=False)
    assert em == 0.0 and f1 == pytest.approx(0.4)  # P 1/3, R 1/2


def test_set_prf_and_em() -> None:
    prf = set_prf([("A", 0), ("B", 1), ("C", 2)], [("A", 0), ("B", 1)])
    assert (prf.em, prf.precision, prf.recall) == (0.0, pytest.approx(2 / 3), 1.0)
    assert prf.f1 == pytest.approx(0.8)
    assert set_prf([("A", 0)], [("A", 0)]).em == 1.0
    assert set_prf([], [("A", 0)]).f1 == 0.0


def test_evidence_normalises_each_part() -> None:
    prf = evidence_prf(
        [["Film X.", "Director", "Anne  Dupont"], ["x", "y", "z"]], [("film x", "director", "Anne Dupont")]
    )
    assert (prf.precision, prf.recall, prf.em) == (0.5, 1.0, 0.0)
    assert evidence_prf([], [("a", "b", "c")]).f1 == 0.0


def test_joint_is_the_product() -> None:
    joint = joint_prf(PRF(1.0, 0.5, 1.0), PRF(0.0, 0.8, 0.5))
    assert (joint.em, joint.precision, joint.recall) == (0.0, pytest.approx(0.4), pytest.approx(0.5))
    assert joint.f1 == pytest.approx(2 * 0.4 * 0.5 / 0.9)
