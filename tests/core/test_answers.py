"""Field-by-field parsing of answer records (gold and predictions)."""

from __future__ import annotations

from typing import Any

from kgreason.data.answers import parse_answer_record

SPEC_EXAMPLE: dict[str, Any] = {
    "query_id": "doc_01_001",
    "question": "在第二次世界大战期间 指挥过诺曼底登陆且隶属于同盟国的军事人物是谁",
    "answer_type": "人物",
    "answers": ["艾森豪威尔"],
    "gold_reasoning_paths_main": [
        ["诺曼底登陆", "指挥官", "艾森豪威尔"],
        ["艾森豪威尔", "隶属于", "同盟国"],
        ["诺曼底登陆", "发生时间", "1944 年 6 月 6 日"],
        ["1944 年 6 月 6 日", "处于时期内", "第二次世界大战"],
    ],
    "gold_reasoning_paths_alt": [
        ["诺曼底登陆", "执行方", "盟军远征部队"],
        ["盟军远征部队", "指挥官", "艾森豪威尔"],
    ],
    "constraints": {"time": "第二次世界大战期间", "camp": "同盟国"},
    "difficulty": "L3",
}


def test_spec_example_parses_with_flat_alternative() -> None:
    parsed = parse_answer_record(SPEC_EXAMPLE, file="qa_answer.json", index=0)
    assert not parsed.errors and not parsed.bad_fields
    rec = parsed.record
    assert rec.answers == ("艾森豪威尔",)
    assert len(rec.main_path) == 4 and rec.main_path[2][2] == "1944 年 6 月 6 日"  # inner spaces kept verbatim
    assert len(rec.alt_paths) == 1 and len(rec.alt_paths[0]) == 2
    assert rec.difficulty == "L3"
    # the spec's example has no doc_id: a warning, not an error
    assert [p.field for p in parsed.problems] == ["doc_id"]
    assert rec.to_json()["gold_reasoning_paths_alt"] == SPEC_EXAMPLE["gold_reasoning_paths_alt"]


def test_nested_alternatives_round_trip() -> None:
    raw = dict(SPEC_EXAMPLE, doc_id="doc_01")
    raw["gold_reasoning_paths_alt"] = [[["a", "r", "b"]], [["a", "s", "c"], ["c", "t", "b"]]]
    rec = parse_answer_record(raw, file="f", index=0).record
    assert len(rec.alt_paths) == 2
    assert rec.to_json()["gold_reasoning_paths_alt"] == raw["gold_reasoning_paths_alt"]


def test_each_bad_field_is_named() -> None:
    raw = dict(SPEC_EXAMPLE, doc_id="doc_01")
    raw.update(
        answers="艾森豪威尔",
        gold_reasoning_paths_main=[["a", "b"], ["x", None, "y"]],
        constraints=["time"],
        difficulty="L9",
    )
    parsed = parse_answer_record(raw, file="result.json", index=7)
    assert parsed.bad_fields == {"answers", "gold_reasoning_paths_main", "constraints", "difficulty"}
    messages = [str(p) for p in parsed.errors]
    assert all("result.json" in m and "record #7 (query_id=doc_01_001)" in m for m in messages)
    assert any("field 'gold_reasoning_paths_main'" in m and "3 items" in m for m in messages)
    # readable fields are still there for the scorer
    assert parsed.record.answer_type == "人物"


def test_non_object_record() -> None:
    parsed = parse_answer_record(["not", "an", "object"], file="f.json", index=3)
    assert "record #3" in str(parsed.errors[0]) and "JSON object" in str(parsed.errors[0])


def test_numbers_become_text() -> None:
    raw = dict(SPEC_EXAMPLE, doc_id="doc_01", answers=[3], gold_reasoning_paths_main=[["辽宁舰", "排水量", 67500]])
    rec = parse_answer_record(raw, file="f", index=0).record
    assert rec.answers == ("3",) and rec.main_path[0][2] == "67500"
