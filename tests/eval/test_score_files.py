"""Scoring whole files: messy submissions are scored and reported, only unreadable files fail."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from score_helpers import FIXTURES, SPEC_EXAMPLE, spec_example

from kgreason.data.answers import parse_answer_record
from kgreason.errors import DataError
from kgreason.eval.official import WEIGHTS, score_files, score_records

GOLD = FIXTURES / "gold.json"
L1 = "doc_02_001"  # 歼-20的首飞时间 (L1)
L2 = "doc_02_002"  # the engine's maker (L2)
SET = "doc_03_001"  # the destroyers of the 辽宁舰 group (L2, set)
L3 = "doc_01_001"  # the spec's example (L3)


def write(tmp_path: Path, items: Any, name: str = "result.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    return path


def gold_items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(GOLD.read_text(encoding="utf-8"))
    return items


def by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {i["query_id"]: i for i in items}


def test_perfect_submission(tmp_path: Path) -> None:
    report = score_files(FIXTURES / "pred_good.json", GOLD)
    assert report.count == 4
    assert report.total == pytest.approx(4.0)
    assert report.mean == pytest.approx(1.0)
    assert set(report.by_level) == {"L1", "L2", "L3"}
    assert report.by_level["L2"].count == 2
    assert set(report.by_answer_type) == {"人物", "时间", "组织机构", "实体集合"}
    assert report.by_answer_kind["set"].count == 1
    assert not report.missing and not report.unknown and not report.duplicates and not report.skipped_gold
    assert not [p for p in report.problems if p.severity == "error"]


def test_gold_scored_against_itself_is_perfect() -> None:
    report = score_files(GOLD, GOLD)
    assert report.total == pytest.approx(report.count)


def test_missing_question_scores_zero_and_is_listed(tmp_path: Path) -> None:
    preds = [i for i in gold_items() if i["query_id"] != L2]
    report = score_files(write(tmp_path, preds), GOLD)
    assert report.missing == (L2,)
    assert report.count == 4
    assert report.total == pytest.approx(3.0)
    q = next(q for q in report.per_question if q.query_id == L2)
    assert (q.status, q.score) == ("missing", 0)


def test_unknown_id_is_listed_and_ignored(tmp_path: Path) -> None:
    preds = [*gold_items(), spec_example(query_id="doc_99_999")]
    report = score_files(write(tmp_path, preds), GOLD)
    assert report.unknown == ("doc_99_999",)
    assert report.total == pytest.approx(4.0)


def test_duplicate_id_first_wins(tmp_path: Path) -> None:
    items = gold_items()
    wrong = dict(by_id(items)[L1], answers=["2012年"])
    report = score_files(write(tmp_path, [*items, wrong]), GOLD)
    assert report.duplicates == (L1,)
    assert report.total == pytest.approx(4.0)  # the first (right) record was scored
    assert any("duplicate" in p.message and p.record and L1 in p.record for p in report.problems)
    # and the other way round: the wrong record first
    report = score_files(write(tmp_path, [wrong, *items]), GOLD)
    assert report.duplicates == (L1,)
    assert next(q for q in report.per_question if q.query_id == L1).answer.score == 0


def malformed(tmp_path: Path, qid: str, **changes: Any) -> Any:
    """Score the good submission with one item's fields replaced; return (question score, report)."""
    items = gold_items()
    by_id(items)[qid].update(changes)
    report = score_files(write(tmp_path, items), GOLD)
    return next(q for q in report.per_question if q.query_id == qid), report


def error_fields(report: Any) -> set[tuple[str | None, str | None]]:
    return {(p.record, p.field) for p in report.problems if p.severity == "error"}


def test_answers_of_wrong_type_zero_the_answer_only(tmp_path: Path) -> None:
    q, report = malformed(tmp_path, L3, answers="艾森豪威尔")
    assert q.zeroed == ("answers",)
    assert q.answer.score == 0
    assert (q.evidence.score, q.reasoning.score, q.constraint.f1) == (1, 1, 1)
    w = WEIGHTS["L3"]
    assert q.score == pytest.approx(w.evidence + w.reasoning + w.constraint)
    assert (f"#0 (query_id={L3})", "answers") in error_fields(report)
    assert any(p.file.endswith("result.json") for p in report.problems)


def test_triple_of_length_two_zeroes_evidence_and_reasoning(tmp_path: Path) -> None:
    main = [["歼-20", "首飞时间"]]
    q, report = malformed(tmp_path, L1, gold_reasoning_paths_main=main)
    assert q.zeroed == ("gold_reasoning_paths_main",)
    assert (q.evidence.score, q.reasoning.score) == (0, 0)
    assert q.evidence.matched_path is None
    assert (q.answer.score, q.constraint.f1) == (1, 1)
    assert q.score == pytest.approx(WEIGHTS["L1"].answer + WEIGHTS["L1"].constraint)
    problem = next(p for p in report.problems if p.field == "gold_reasoning_paths_main")
    assert "3 items" in problem.message


def test_null_in_triple(tmp_path: Path) -> None:
    q, report = malformed(tmp_path, L1, gold_reasoning_paths_main=[["歼-20", "首飞时间", None]])
    assert q.zeroed == ("gold_reasoning_paths_main",)
    assert q.evidence.score == 0
    assert any("null" in p.message for p in report.problems if p.field == "gold_reasoning_paths_main")


def test_constraints_not_an_object(tmp_path: Path) -> None:
    q, report = malformed(tmp_path, L3, constraints=["第二次世界大战期间", "同盟国"])
    assert q.zeroed == ("constraints",)
    assert q.constraint.f1 == 0
    assert (q.answer.score, q.evidence.score, q.reasoning.score) == (1, 1, 1)
    assert (f"#0 (query_id={L3})", "constraints") in error_fields(report)


def test_missing_constraints_field_is_empty(tmp_path: Path) -> None:
    items = gold_items()
    del by_id(items)[L1]["constraints"]  # gold has {} -> both empty -> 1
    report = score_files(write(tmp_path, items), GOLD)
    assert report.total == pytest.approx(4.0)


def test_fields_the_score_does_not_read_are_only_warnings(tmp_path: Path) -> None:
    q, report = malformed(tmp_path, L1, difficulty="L9", answer_type=None, gold_reasoning_paths_alt="none")
    assert q.score == pytest.approx(1.0)
    assert q.level == "L1"  # the gold record's level
    assert not [p for p in report.problems if p.severity == "error"]
    assert {p.field for p in report.problems} >= {"difficulty", "answer_type", "gold_reasoning_paths_alt"}


def test_records_that_are_not_objects_or_have_no_id(tmp_path: Path) -> None:
    items: list[Any] = [*gold_items(), "not an object", None, {"answers": ["x"]}]
    report = score_files(write(tmp_path, items), GOLD)
    assert report.total == pytest.approx(4.0)
    records = {p.record for p in report.problems if "query_id was not scored" in p.message}
    assert records == {"#4", "#5", "#6"}


def test_the_messy_fixture(tmp_path: Path) -> None:
    report = score_files(FIXTURES / "pred_messy.json", GOLD)
    assert report.missing == (L2,)
    assert report.unknown == ("doc_99_001",)
    assert report.duplicates == (L3,)
    scores = {q.query_id: q for q in report.per_question}
    assert scores[L3].score == 0  # answers, path and constraints all malformed
    assert scores[L1].score == pytest.approx(0.65 + 0.05)  # path has a null: answer and constraint only
    # the set question: Answer F1 2/3; Evidence: P 2/2, R 2/6 -> F1 0.5, Parsimony 1 -> 0.7
    assert scores[SET].answer.score == pytest.approx(2 / 3)
    assert scores[SET].evidence.score == pytest.approx(0.7)


def test_malformed_gold_item_is_skipped_and_listed(tmp_path: Path) -> None:
    report = score_files(FIXTURES / "pred_good.json", FIXTURES / "gold_with_bad_item.json")
    assert report.skipped_gold == ("doc_02_009",)
    assert report.count == 1
    assert "doc_02_009" not in report.unknown
    assert any(p.record and "doc_02_009" in p.record and p.field == "difficulty" for p in report.problems)


def test_gold_without_answer_or_path_is_skipped(tmp_path: Path) -> None:
    gold = [spec_example(query_id="a", answers=[]), spec_example(query_id="b", gold_reasoning_paths_main=[])]
    gold.append(spec_example(query_id="c"))
    report = score_files(write(tmp_path, [spec_example(query_id="c")]), write(tmp_path, gold, "gold.json"))
    assert report.skipped_gold == ("a", "b")
    assert report.total == pytest.approx(1.0)


def test_jsonl_and_bom(tmp_path: Path) -> None:
    lines = "\n".join(json.dumps(i, ensure_ascii=False) for i in gold_items())
    path = tmp_path / "result.jsonl"
    path.write_text("\ufeff" + lines + "\n", encoding="utf-8")
    assert score_files(path, GOLD).total == pytest.approx(4.0)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[{", "invalid JSON at line 1"),
        (b"", "empty"),
        (b"\xff\xfe", "UTF-8"),
        (b"42", "expected a JSON array"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_unreadable_file_raises_data_error_naming_it(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "result.json"
    bad.write_bytes(content)
    with pytest.raises(DataError) as info:
        score_files(bad, GOLD)
    assert any(p.file == str(bad) and message in p.message for p in info.value.problems)


def test_both_unreadable_files_are_reported(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        score_files(tmp_path / "nope.json", tmp_path / "gold.json")
    assert {p.file for p in info.value.problems} == {str(tmp_path / "nope.json"), str(tmp_path / "gold.json")}


def test_score_records_api() -> None:
    gold_rec = parse_answer_record(SPEC_EXAMPLE, file="g", index=0).record
    report = score_records({"doc_01_001": gold_rec, "x": gold_rec}, {"doc_01_001": gold_rec})
    assert report.total == pytest.approx(1.0)
    assert report.unknown == ("x",)
    assert report.per_question[0].metrics()["triple_match"] == 1


def test_report_json_has_everything(tmp_path: Path) -> None:
    report = score_files(FIXTURES / "pred_messy.json", GOLD)
    data = report.to_json()
    json.dumps(data, ensure_ascii=False)  # serialisable
    assert data["count"] == 4
    assert len(data["per_question"]) == 4
    assert data["missing"] == [L2] and data["unknown"] == ["doc_99_001"] and data["duplicates"] == [L3]
    assert data["weights"]["L3"] == {"answer": 0.3, "evidence": 0.25, "reasoning": 0.25, "constraint": 0.2}
    q = next(q for q in data["per_question"] if q["query_id"] == SET)
    assert {"em", "precision", "recall", "f1"} <= set(q["answer"])
    assert {"precision", "recall", "triple_match", "parsimony", "matched_path"} <= set(q["evidence"])
    assert {"node_coverage", "edge_order", "hop_match", "key_entities", "bridge_nodes"} <= set(q["reasoning"])
    assert {"precision", "recall", "f1"} <= set(q["constraint"])
    assert sum(g["total"] for g in data["by_level"].values()) == pytest.approx(data["total"], abs=1e-5)
    assert all({"file", "record", "field", "message", "severity"} == set(p) for p in data["problems"])


def test_bundled_sample_scored_against_itself_is_perfect() -> None:
    """Every definition gives 1 to a gold item scored against itself, on the team's annotated sample too (yes/no,
    count, set and which-of-two questions, derived comparison triples)."""
    sample = Path(__file__).resolve().parents[2] / "examples" / "sample" / "qa_answer.json"
    if not sample.is_file():
        pytest.skip("no bundled sample")
    report = score_files(sample, sample)
    assert report.count > 0 and not report.skipped_gold
    imperfect = [(q.query_id, q.metrics()) for q in report.per_question if q.score < 1 - 1e-9]
    assert not imperfect
