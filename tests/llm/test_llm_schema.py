"""The JSON-schema subset validator and reply parsing."""

from __future__ import annotations

from typing import Any

import pytest

from kgreason.llm.reply import finish_reply, parse_json_text
from kgreason.llm.schema import SchemaError, check_schema, json_equal, validate
from kgreason.llm.types import Usage

PATH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "enum": ["成都飞机工业集团", "沈阳飞机工业集团"]},
        "path": {
            "type": "array",
            "items": {"type": "integer", "enum": [0, 1, 2, 3]},
            "minItems": 1,
            "maxItems": 3,
        },
        "year": {"anyOf": [{"type": "integer", "minimum": 1900, "maximum": 2100}, {"type": "null"}]},
        "op": {"const": "晚于"},
        "sure": {"type": "boolean"},
        "score": {"type": "number"},
    },
    "required": ["answer", "path"],
    "additionalProperties": False,
}


def test_valid_object_passes() -> None:
    value = {"answer": "成都飞机工业集团", "path": [0, 1], "year": None, "op": "晚于", "sure": True, "score": 0.5}
    assert validate(value, PATH_SCHEMA) == []


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ({"answer": "歼-20", "path": [0]}, "not one of"),  # 实体不在候选列表中
        ({"path": [0]}, "missing required property 'answer'"),
        ({"answer": "成都飞机工业集团", "path": []}, "at least 1"),
        ({"answer": "成都飞机工业集团", "path": [0, 1, 2, 3]}, "at most 3"),
        ({"answer": "成都飞机工业集团", "path": [0, 9]}, "/path/1"),
        ({"answer": "成都飞机工业集团", "path": [0], "extra": 1}, "unexpected property 'extra'"),
        ({"answer": "成都飞机工业集团", "path": [0], "year": 1800}, "anyOf"),
        ({"answer": "成都飞机工业集团", "path": [0], "op": "早于"}, 'expected "晚于"'),
        ({"answer": "成都飞机工业集团", "path": [0], "sure": 1}, "expected boolean"),
        ({"answer": "成都飞机工业集团", "path": [True]}, "expected integer"),
        ({"answer": "成都飞机工业集团", "path": [0], "score": "0.5"}, "expected number"),
        (["成都飞机工业集团"], "expected object"),
    ],
)
def test_violations_are_reported_with_a_pointer(value: Any, fragment: str) -> None:
    errors = validate(value, PATH_SCHEMA)
    assert errors, value
    assert any(fragment in e for e in errors), errors


def test_integer_accepts_integral_float_and_rejects_bool() -> None:
    assert validate(3.0, {"type": "integer"}) == []
    assert validate(3.5, {"type": "integer"}) != []
    assert validate(True, {"type": "integer"}) != []
    assert validate(True, {"type": ["boolean", "null"]}) == []


def test_enum_uses_json_equality() -> None:
    assert validate(1, {"enum": [True]}) != []  # 1 and true differ in JSON
    assert validate(1.0, {"enum": [1]}) == []
    assert json_equal({"a": [1, "x"]}, {"a": [1.0, "x"]})
    assert not json_equal({"a": 1}, {"a": 1, "b": 2})


def test_additional_properties_schema() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "string"}}
    assert validate({"歼-20": "成都"}, schema) == []
    assert validate({"歼-20": 20}, schema) != []


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^a"},
        {"type": "date"},
        {"enum": []},
        {"type": "object", "properties": {"x": {"format": "date"}}},
        {"anyOf": []},
        {"type": "array", "maxItems": "3"},
        "string",
    ],
)
def test_unsupported_schemas_are_rejected_up_front(schema: Any) -> None:
    with pytest.raises(SchemaError):
        check_schema(schema)


def test_annotations_are_allowed() -> None:
    check_schema({"title": "答案", "description": "实体", "type": "string", "enum": ["歼-20"], "default": "歼-20"})


@pytest.mark.parametrize(
    "text",
    [
        '{"answer": "歼-20"}',
        '```json\n{"answer": "歼-20"}\n```',
        '答案如下：{"answer": "歼-20"} 以上。',
    ],
)
def test_parse_json_text_tolerates_fences_and_chatter(text: str) -> None:
    assert parse_json_text(text) == (True, {"answer": "歼-20"})


def test_finish_reply_types_failures() -> None:
    schema = {"type": "object", "properties": {"answer": {"enum": ["歼-20"]}}, "required": ["answer"]}
    ok = finish_reply('{"answer": "歼-20"}', schema, "m", Usage())
    assert ok.ok and ok.value == {"answer": "歼-20"}
    bad_json = finish_reply("我不知道", schema, "m", Usage())
    assert not bad_json.ok and bad_json.kind == "invalid_json"
    mismatch = finish_reply('{"answer": "歼-15"}', schema, "m", Usage())
    assert not mismatch.ok and mismatch.kind == "schema_mismatch"
    assert "not one of" in mismatch.message


def test_finish_reply_names_the_token_limit_when_cut() -> None:
    schema = {"type": "object", "properties": {"answer": {"enum": ["歼-20"]}}, "required": ["answer"]}
    cut = finish_reply('{"answer": "歼', schema, "m", Usage(), cut_at=16)
    assert not cut.ok and cut.kind == "invalid_json" and "(cut at max_tokens=16)" in cut.message
    whole = finish_reply('{"answer": "歼-20"}', schema, "m", Usage(), cut_at=16)
    assert whole.ok  # a reply that fits is fine even at the limit
