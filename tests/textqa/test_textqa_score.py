"""`textqa.score`: prediction files in each set's official format against gold, every gold item counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textqa_samples import HOTPOT, MUSIQUE, TWOWIKI, write_json, write_jsonl

from kgreason.errors import DataError
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.score import score_file


def test_hotpot_scores_by_hand(tmp_path: Path) -> None:
    gold = load_textqa(write_json(tmp_path / "gold.json", HOTPOT))
    pred = {
        # h1: answer exact; sp 1 of 2 right plus one wrong: P 1/2, R 1/2 -> F1 0.5; joint P 1*0.5, R 1*0.5
        # h2: missing -> zeros
        "answer": {"h1": "lyon"},
        "sp": {"h1": [["Film X", 0], ["Lyon", 0]]},
    }
    score = score_file(write_json(tmp_path / "pred.json", pred), gold)
    assert score.questions == 2 and score.missing == 1
    assert score.metrics["em"] == pytest.approx(0.5) and score.metrics["f1"] == pytest.approx(0.5)
    assert score.metrics["sp_f1"] == pytest.approx(0.25) and score.metrics["sp_em"] == 0.0
    assert score.metrics["joint_f1"] == pytest.approx(0.25)


def test_2wiki_evidence_and_joint_with_lower_cased_titles(tmp_path: Path) -> None:
    gold = load_textqa(write_jsonl(tmp_path / "gold.jsonl", TWOWIKI))
    pred = {
        "answer": {"w1": "Marie Dupont"},
        "sp": {"w1": [["film x", 0], ["Anne Dupont", 1]]},  # 2Wiki compares titles lower-cased
        "evidence": {"w1": [["Film X", "director", "Anne Dupont"]]},  # P 1, R 1/2
    }
    score = score_file(write_json(tmp_path / "pred.json", pred), gold)
    assert score.metrics["sp_em"] == 1.0 and score.metrics["em"] == 1.0
    assert score.metrics["evidence_f1"] == pytest.approx(2 / 3) and score.metrics["evidence_em"] == 0.0
    assert score.metrics["joint_f1"] == pytest.approx(2 / 3) and score.metrics["joint_em"] == 0.0


def test_musique_answer_aliases_support_and_answerable(tmp_path: Path) -> None:
    gold = load_textqa(write_json(tmp_path / "gold.json", MUSIQUE))
    line = {
        "id": "2hop__1_2",
        "predicted_answer": "Lyons",
        "predicted_support_idxs": [1, 2],
        "predicted_answerable": True,
    }
    score = score_file(write_jsonl(tmp_path / "pred.jsonl", [line]), gold)
    assert score.metrics["answer_em"] == 1.0  # an alias
    assert score.metrics["support_f1"] == pytest.approx(0.5) and score.metrics["answerable_acc"] == 1.0


def test_bad_prediction_files(tmp_path: Path) -> None:
    gold = load_textqa(write_json(tmp_path / "gold.json", HOTPOT))
    with pytest.raises(DataError, match="'sp'"):
        score_file(write_json(tmp_path / "p.json", {"answer": {}}), gold)
    with pytest.raises(DataError, match=r"record h1, field 'sp'"):
        score_file(write_json(tmp_path / "p.json", {"answer": {"h1": "x"}, "sp": {"h1": [["Film X", "0"]]}}), gold)
    musique = load_textqa(write_json(tmp_path / "m.json", MUSIQUE))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "2hop__1_2", "predicted_support_idxs": ["1"]}) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="predicted_support_idxs"):
        score_file(bad, musique)
