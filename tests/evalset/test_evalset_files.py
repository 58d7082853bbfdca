"""The bundled evaluation sets (examples/sample/evalsets) and the reader of spec 002's format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgreason.data.loader import load_dataset
from kgreason.errors import DataError
from kgreason.evalset.model import read_evalset, read_evalsets
from kgreason.evalset.texts import document_lines
from kgreason.text.normalize import normalize_text

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample"
EVAL = SAMPLE / "evalsets"


def test_sample_sets_have_the_issue_counts_and_the_spec_fields() -> None:
    sets = {s.name: s for s in read_evalsets(EVAL)}
    assert [len(sets[n].items) for n in ("factual_qa", "relation_qa", "event_tracking")] == [20, 20, 15]
    dialogues = sets["multi_turn"].dialogues
    assert len(dialogues) == 10
    assert all(3 <= len(d.turns) <= 5 for d in dialogues)
    later = [t for d in dialogues for t in d.turns[1:]]
    assert sum(t.requires_context for t in later) > len(later) / 2  # most turns depend on the context
    raw = json.loads((EVAL / "factual_qa.json").read_text(encoding="utf-8"))
    assert {"version", "description", "created_at", "items"} <= set(raw)
    assert set(raw["items"][0]) == {
        "id", "category", "difficulty", "question", "expected_answer", "source", "keywords", "notes"
    }  # fmt: skip


def test_every_keyword_is_in_the_kg_and_the_cited_lines_support_the_item() -> None:
    dataset, _ = load_dataset(SAMPLE, check_gold=False)
    kg_text = normalize_text(" ".join(f"{t.sub} {t.relation} {t.obj}" for ts in dataset.kgs.values() for t in ts))
    for evalset in read_evalsets(EVAL):
        for item in evalset.items:
            for keyword in item.keywords:
                assert normalize_text(keyword) in kg_text, (item.id, keyword)
            lines = (EVAL / item.source.file).read_text(encoding="utf-8").splitlines()
            first, last = item.source.line_range
            cited = normalize_text("".join(lines[first - 1 : last]))
            assert any(normalize_text(k) in cited for k in item.keywords), item.id
        for dialogue in evalset.dialogues:
            for turn in dialogue.turns:
                for point in turn.expected_points:
                    assert normalize_text(point) in kg_text, (dialogue.id, turn.turn, point)


def test_texts_are_the_documents_one_sentence_per_line() -> None:
    dataset, _ = load_dataset(SAMPLE, check_gold=False)
    for doc_id, doc in dataset.documents.items():
        lines = (EVAL / "texts" / f"{doc_id}.txt").read_text(encoding="utf-8").splitlines()
        assert lines == document_lines(doc.content)
        assert "".join("".join(lines).split()) == "".join(doc.content.split())  # only line breaks and spaces differ
    assert document_lines("甲。乙；丙\n丁！") == ["甲。", "乙；", "丙", "丁！"]


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_bad_items_are_reported_with_file_record_and_field(tmp_path: Path) -> None:
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "d.txt").write_text("一。\n二。\n", encoding="utf-8")
    good = {
        "id": "fact_001",
        "category": "item",
        "difficulty": "easy",
        "question": "问？",
        "expected_answer": "答",
        "source": {"file": "texts/d.txt", "line_range": [1, 2]},
    }
    bad_category = {**good, "id": "fact_002", "category": "weapon"}
    bad_lines = {**good, "id": "fact_003", "source": {"file": "texts/d.txt", "line_range": [2, 5]}}
    missing = {k: v for k, v in good.items() if k != "question"} | {"id": "fact_004"}
    path = _write(tmp_path / "factual_qa.json", {"items": [good, bad_category, bad_lines, missing, {**good}]})
    with pytest.raises(DataError) as err:
        read_evalset(path)
    text = [str(p) for p in err.value.problems]
    assert any("record #1 (id=fact_002), field 'category'" in t and "weapon" in t for t in text)
    assert any("field 'source.line_range'" in t and "lines 1-2" in t for t in text)
    assert any("record #3 (id=fact_004), field 'question': missing" in t for t in text)
    assert any("field 'id': duplicate id" in t for t in text)


def test_bad_dialogue_turns_are_reported(tmp_path: Path) -> None:
    dialogue = {"id": "mt_001", "turns": [{"turn": 2, "user": "问", "expected_points": []}]}
    path = _write(tmp_path / "multi_turn.json", {"items": [dialogue]})
    with pytest.raises(DataError) as err:
        read_evalset(path)
    text = " ".join(str(p) for p in err.value.problems)
    assert "turns[0].turn" in text and "expected_points" in text


def test_not_json_and_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "relation_qa.json").write_text("{", encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        read_evalsets(tmp_path)
    with pytest.raises(DataError, match="no evaluation set found"):
        read_evalsets(tmp_path / "texts")
