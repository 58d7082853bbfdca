"""Shared data for the scorer's tests: the spec's own example (spec 000, section 2) and a record builder.

A plain module (not a conftest), imported by name: pytest puts this folder on sys.path for its test files."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from kgreason.data.answers import parse_answer_record
from kgreason.data.records import AnswerRecord

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "score"

SPEC_EXAMPLE: dict[str, Any] = {
    "query_id": "doc_01_001",
    "doc_id": "doc_01",
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
        ["盟军远征部队", "隶属于", "同盟国"],
        ["诺曼底登陆", "发生时间", "1944 年 6 月 6 日"],
        ["第二次世界大战", "开始时间", "1939 年 9 月 1 日"],
        ["第二次世界大战", "结束时间", "1945 年 9 月 2 日"],
        ["1944 年 6 月 6 日", "晚于", "1939 年 9 月 1 日"],
        ["1944 年 6 月 6 日", "早于", "1945 年 9 月 2 日"],
    ],
    "constraints": {"time": "第二次世界大战期间", "camp": "同盟国"},
    "difficulty": "L3",
}


def spec_example(**changes: Any) -> dict[str, Any]:
    """A deep copy of the spec's example item with some fields replaced."""
    item = copy.deepcopy(SPEC_EXAMPLE)
    item.update(changes)
    return item


def record(**fields: Any) -> AnswerRecord:
    """An AnswerRecord from JSON-like fields (defaults: an L2 single-answer item with no constraints)."""
    raw: dict[str, Any] = {
        "query_id": "q1",
        "doc_id": "d1",
        "question": "",
        "answer_type": "实体",
        "answers": [],
        "gold_reasoning_paths_main": [],
        "gold_reasoning_paths_alt": [],
        "constraints": {},
        "difficulty": "L2",
    }
    raw.update(fields)
    parsed = parse_answer_record(raw, file="test", index=0)
    assert not parsed.bad_fields, parsed.problems
    return parsed.record
