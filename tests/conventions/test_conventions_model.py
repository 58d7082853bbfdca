"""The `Conventions` record: the packaged defaults, its methods, the loader's errors, derived names read through it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kgreason.conventions import OPERATORS, Conventions, default_conventions, load_conventions
from kgreason.conventions.model import SetTypes, most_specific
from kgreason.data.records import DERIVED_RELATIONS, KGTriple
from kgreason.errors import DataError
from kgreason.kg.compare import check_derived_triple, date_holds, number_holds
from kgreason.kg.dates import parse_date
from kgreason.kg.quantities import parse_quantity


def write(tmp_path: Path, value: Any, name: str = "conv.json") -> Path:
    path = tmp_path / name
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[tuple[str | None, str]]:
    with pytest.raises(DataError) as info:
        load_conventions(path)
    assert all(p.file == str(path) for p in info.value.problems)
    return [(p.field, p.message) for p in info.value.problems]


def test_defaults_follow_the_spec_example_and_the_sample() -> None:
    conv = default_conventions()
    assert [conv.relation_for(op) for op in ("before", "after", "within", "gt", "ge")] == [
        "早于",
        "晚于",
        "处于时期内",
        "数值大于",
        "数值不小于",
    ]
    assert conv.operator_of("大于") == "gt" and conv.operator_of("数值大于") == "gt"
    assert conv.operator_of("数值 大于") == "gt"  # compared after normalisation
    assert conv.operator_of("指挥官") is None
    assert (conv.yes_no(True), conv.yes_no(False)) == ("是", "否")
    assert conv.format_count(4, "艘") == "4"  # bare numbers
    assert conv.set_answer_type("装备") == "实体集合"
    assert conv.is_set_type("实体集合") and not conv.is_set_type("装备集合")
    assert conv.constraint_key("order") == "order" and conv.constraint_key("country") == "camp"
    assert conv.constraint_key("exclude") == "exclude"  # what independent annotators write, not the sample's camp
    assert conv.known_constraint_keys() == ("time", "camp", "place", "numeric", "order", "type", "exclude")
    assert conv.kind_of_key("camp") == "camp" and conv.kind_of_key("compare") is None


def test_derived_relations_are_the_defaults_accepted_names() -> None:
    old = {
        "晚于",
        "早于",
        "同时",
        "处于时期内",
        "不处于时期内",
        "数值大于",
        "数值小于",
        "数值等于",
        "数值不小于",
        "数值不大于",
    }
    assert old <= DERIVED_RELATIONS
    assert "大于" in DERIVED_RELATIONS
    assert default_conventions().accepted_names() == DERIVED_RELATIONS


def test_short_numeric_name_is_checked_as_a_number_comparison() -> None:
    kg = [
        KGTriple("t1", "甲事件", "事件", "死亡人数", "20人", "数值"),
        KGTriple("t2", "乙事件", "事件", "死亡人数", "14人", "数值"),
    ]
    assert check_derived_triple(("20人", "大于", "14人"), kg, "哪次死亡人数最多？") is None
    reason = check_derived_triple(("14人", "大于", "20人"), kg, "哪次死亡人数最多？")
    assert reason is not None and reason.startswith("false")
    assert number_holds("大于", parse_quantity("5公里") or _fail(), parse_quantity("3公里") or _fail())
    d1, d2 = parse_date("1944年"), parse_date("1939年")
    assert d1 is not None and d2 is not None and date_holds("晚于", d1, d2)
    with pytest.raises(ValueError):
        date_holds("大于", d1, d2)


def _fail() -> Any:
    raise AssertionError("did not parse")


def test_a_name_the_conventions_do_not_know_is_not_checked() -> None:
    conv = replace(
        default_conventions(),
        relations=tuple(
            replace(r, accept=(r.write,)) if r.operator == "gt" else r for r in default_conventions().relations
        ),
    )
    kg = [KGTriple("t1", "甲", "事件", "人数", "20人", "数值"), KGTriple("t2", "乙", "事件", "人数", "14人", "数值")]
    assert check_derived_triple(("20人", "大于", "14人"), kg, "", conv) == "'大于' is not a derived comparison relation"
    assert check_derived_triple(("20人", "数值大于", "14人"), kg, "", conv) is None


def test_most_specific_operator() -> None:
    assert most_specific(["ge", "gt"]) == ("gt",)
    assert most_specific(["eq", "ge", "le"]) == ("eq",)
    assert most_specific(["same", "within"]) == ("within",)
    assert most_specific(["before", "not_within"]) == ("before",)


def test_methods_follow_other_choices() -> None:
    conv = replace(
        default_conventions(),
        count_format="measure_word",
        set_types=SetTypes("by_member_type", "实体集合", "集合"),
        constraint_keys=(*default_conventions().constraint_keys[:-1], ("exclude", "exclude")),
        other_constraint_keys=("extra",),
    )
    assert conv.format_count(4, "艘") == "4艘" and conv.format_count(4) == "4"
    assert conv.set_answer_type("装备") == "装备集合" and conv.set_answer_type(None) == "实体集合"
    assert conv.is_set_type("国家集合") and not conv.is_set_type("集合") and not conv.is_set_type("国家")
    assert conv.constraint_key("exclude") == "exclude"
    assert conv.known_constraint_keys()[-2:] == ("exclude", "extra")


def test_json_round_trip(tmp_path: Path) -> None:
    conv = default_conventions()
    again = load_conventions(write(tmp_path, conv.to_json()))
    assert again == conv and isinstance(again, Conventions)
    assert again.source == str(tmp_path / "conv.json")
    assert set(conv.to_json()["derived_relations"]) == set(OPERATORS)


def test_a_partial_file_is_completed_from_the_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {
            "derived_relations": {"gt": {"write": "大于", "accept": ["数值大于"]}},
            "answers": {"count_format": "measure_word"},
            "constraint_keys": {"order": "compare", "place": "location", "exclude": "exclude"},
        },
    )
    conv = load_conventions(path)
    assert conv.relation_for("gt") == "大于" and conv.operator_of("数值大于") == "gt"
    assert conv.relation_for("lt") == "数值小于"
    assert conv.count_format == "measure_word" and conv.yes == "是"
    assert conv.constraint_key("order") == "compare" and conv.constraint_key("time") == "time"
    assert conv.known_constraint_keys() == ("time", "camp", "location", "numeric", "compare", "type", "exclude")


def test_load_errors_name_the_file_and_the_field(tmp_path: Path) -> None:
    bad = {
        "derived_relations": {
            "gt": {"write": "", "accept": ["大于", 3]},
            "greater": {"write": "大于"},
            "lt": {"write": "早于"},
        },
        "answers": {"count_format": "words", "yes": "是", "no": "是", "colour": "red"},
        "constraint_keys": {"time": 5, "when": "time"},
        "other_constraint_keys": "compare",
        "extra": 1,
    }
    found = problems_of(write(tmp_path, bad))
    fields = [f for f, _ in found]
    assert "extra" in fields
    assert "derived_relations.greater" in fields
    assert "derived_relations.gt.write" in fields
    assert "derived_relations.gt.accept[1]" in fields
    assert (
        "derived_relations.lt.accept",
        "'早于' is also a name of 'before' (derived_relations.before); a name means one operator",
    ) in found
    assert "answers.count_format" in fields and "answers.colour" in fields
    assert ("answers.no", "is the same word as answers.yes ('是'); yes and no must differ") in found
    assert "constraint_keys.time" in fields and "constraint_keys.when" in fields
    assert "other_constraint_keys" in fields


def test_unreadable_files(tmp_path: Path) -> None:
    assert problems_of(write(tmp_path, '{"answers": {"yes": "是",}}')) == [
        (None, "invalid JSON at line 1, column 25: Expecting property name enclosed in double quotes")
    ]
    assert problems_of(write(tmp_path, "[1, 2]")) == [(None, "must be a JSON object, got an array")]
    assert problems_of(write(tmp_path, "  ")) == [(None, "file is empty")]
    assert problems_of(tmp_path / "missing.json") == [(None, "file not found")]


def test_constraint_levels_say_at_which_levels_a_kind_is_written(tmp_path: Path) -> None:
    conv = default_conventions()
    # annotators mark a side or a kind on L3 questions and seldom on a plain multi-hop one (the blind sets)
    assert not conv.writes_at("camp", "L2") and conv.writes_at("camp", "L3") and not conv.writes_at("type", "L1")
    assert conv.writes_at("time", "L1") and conv.writes_at("place", "L2")
    assert conv.writes_at("camp", "")  # a question of no known level: every kind
    every = load_conventions(write(tmp_path, {"constraint_levels": {}}))
    assert every.writes_at("camp", "L2") and every.constraint_levels == ()
    some = load_conventions(write(tmp_path, {"constraint_levels": {"time": ["L3", "L2"]}}, "some.json"))
    assert some.constraint_levels == (("time", ("L2", "L3")),)  # in level order
    assert load_conventions(write(tmp_path, some.to_json(), "again.json")) == some
    bad = {"constraint_levels": {"time": ["L4"], "camp": [], "colour": ["L1"], "type": "L3"}}
    found = problems_of(write(tmp_path, bad, "bad.json"))
    assert {f for f, _ in found} == {
        "constraint_levels.time",
        "constraint_levels.camp",
        "constraint_levels.colour",
        "constraint_levels.type",
    }
    assert any(f == "constraint_levels.time" and "a non-empty array of levels (L1, L2, L3)" in m for f, m in found)
