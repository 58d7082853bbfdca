"""Mecha-QA loader, subgraphs, the answer entity and the converter (tiny fixtures in tests/fixtures/mecha)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgreason.errors import DataError
from kgreason.mecha.data import (
    SubgraphIndex,
    answer_entities,
    answer_is_correct,
    answer_side,
    convert_mecha,
    load_mecha_kg,
    load_mecha_qa,
)

FIX = Path(__file__).parent / "fixtures" / "mecha"


def test_kg_python_and_json_literals_numbers_and_duplicates() -> None:
    kg = load_mecha_kg(FIX / "kg.txt")
    assert len(kg) == 7  # the repeated line is dropped, the blank line skipped
    assert ("铅", "熔点", "327℃") in kg  # a JSON line
    assert ("T10A", "在温度范围20~100℃时的线膨胀系数", "11") in kg  # a number kept as its text


def test_bad_kg_lines_are_reported_with_line_and_never_evaluated() -> None:
    with pytest.raises(DataError) as err:
        load_mecha_kg(FIX / "bad_kg.txt")
    where = [(p.record, p.field) for p in err.value.problems]
    assert where == [("line 2", "triple"), ("line 3", "triple"), ("line 4", "triple"), ("line 5", "triple")]
    assert all(p.file.endswith("bad_kg.txt") for p in err.value.problems)
    assert "3 items" not in str(err.value) and "2 items" in str(err.value)


def test_qa_items() -> None:
    items = load_mecha_qa(FIX / "qa.jsonl")
    assert [it.line for it in items] == [1, 2, 3, 4]
    assert items[2].entities == ("灰铸铁", "白口铸铁") and len(items[2].gold) == 2
    assert items[3].gold[0][2] == "11"


def test_bad_qa_fields_are_reported() -> None:
    with pytest.raises(DataError) as err:
        load_mecha_qa(FIX / "bad_qa.jsonl")
    found = {(p.record, p.field) for p in err.value.problems}
    assert ("line 2", "问题") in found
    assert ("line 3", "问题") in found
    assert ("line 3", "实体") in found
    assert ("line 3", "对应的三元组[0]") in found
    assert ("line 4", None) in found


def test_subgraph_matches_head_or_tail_after_normalisation() -> None:
    index = SubgraphIndex(load_mecha_kg(FIX / "kg.txt"))
    assert [t[1] for t in index.subgraph(["灰铸铁"])] == ["密度", "熔点", "代号"]
    assert index.subgraph(["ht"]) == [("灰铸铁", "代号", "HT")]  # the tail, lower case
    assert len(index.subgraph(["灰铸铁", "白口铸铁"])) == 4
    assert index.find(("灰铸铁 ", "熔点", "1200 ℃")) == ("灰铸铁", "熔点", "1200℃")


def test_answer_side() -> None:
    assert answer_side(("灰铸铁", "代号", "HT"), ["HT"]) == "灰铸铁"
    assert answer_side(("灰铸铁", "代号", "HT"), ["灰铸铁"]) == "HT"
    assert answer_side(("灰铸铁", "代号", "HT"), ["x"]) == "HT"
    assert answer_side(("灰铸铁", "代号", "HT"), ["灰铸铁", "HT"]) is None


def test_answer_entities() -> None:
    items = load_mecha_qa(FIX / "qa.jsonl")
    assert answer_entities(items[0]) == ("1200℃",)
    assert answer_entities(items[1]) == ("灰铸铁",)
    # several gold triples: the non-question ends the free-text answer mentions
    assert answer_entities(items[2]) == ("7.55 (10^3kg/m^3)",)
    assert answer_is_correct("1200 ℃", ["1200℃"])
    assert answer_is_correct("灰铸铁的熔点是1200℃", ["1200℃"])
    assert not answer_is_correct("1300℃", ["1200℃"])
    assert not answer_is_correct("anything", [])


def test_answer_entities_fallbacks() -> None:
    from kgreason.mecha.data import MechaItem

    gold = (("38黄铜", "伸长率", "28.0 %"), ("38-2-2锰黄铜", "伸长率", "15.0 %"))
    winner = MechaItem(0, 1, "哪个伸长率更高？", "38黄铜的伸长率更高。", ("38黄铜", "38-2-2锰黄铜"), gold)
    assert answer_entities(winner) == ("38黄铜",)
    nothing = MechaItem(0, 1, "q", "不知道", ("38黄铜", "38-2-2锰黄铜"), gold)
    assert answer_entities(nothing) == ("不知道",)


def test_convert(tmp_path: Path) -> None:
    kg = load_mecha_kg(FIX / "kg.txt")
    items = load_mecha_qa(FIX / "qa.jsonl")
    warnings = convert_mecha(kg, items, tmp_path)
    assert warnings == []
    docs = json.loads((tmp_path / "document.json").read_text(encoding="utf-8"))
    assert len(docs) == 1 and "灰铸铁的熔点是1200℃。" in docs[0]["content"].splitlines()
    rows = json.loads((tmp_path / "KG_mecha_kg.json").read_text(encoding="utf-8"))
    assert len(rows) == 7 and rows[0]["triple_id"] == "triple_0001"
    qa = json.loads((tmp_path / "qa.json").read_text(encoding="utf-8"))
    assert [q["difficulty"] for q in qa] == ["L1", "L1", "L2", "L1"]
    gold = json.loads((tmp_path / "qa_answer.json").read_text(encoding="utf-8"))
    assert gold[1]["answers"] == ["灰铸铁"] and gold[1]["gold_reasoning_paths_main"] == [["灰铸铁", "代号", "HT"]]
    assert gold[3]["gold_reasoning_paths_main"] == [["T10A", "在温度范围20~100℃时的线膨胀系数", "11"]]
    meta = json.loads((tmp_path / "mecha_meta.json").read_text(encoding="utf-8"))
    assert meta[2]["entities"] == ["灰铸铁", "白口铸铁"]


def test_convert_warns_on_gold_outside_the_kg(tmp_path: Path) -> None:
    kg = load_mecha_kg(FIX / "kg.txt")
    record = {"问题": "q", "答案": "a", "实体": ["铅"], "对应的三元组": [["铅", "硬度", "软"]]}
    (tmp_path / "q.jsonl").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    items = load_mecha_qa(tmp_path / "q.jsonl")
    warnings = convert_mecha(kg, items, tmp_path / "out", source="q.jsonl")
    assert [w.severity for w in warnings] == ["warning", "warning"] and warnings[0].file == "q.jsonl"
    assert "left out" in warnings[1].message
    assert json.loads((tmp_path / "out" / "qa.json").read_text(encoding="utf-8")) == []
    kept = convert_mecha(kg, items, tmp_path / "kept", drop_missing=False)
    assert len(kept) == 1 and "kept as written" in kept[0].message
    gold = json.loads((tmp_path / "kept" / "qa_answer.json").read_text(encoding="utf-8"))
    assert gold[0]["gold_reasoning_paths_main"] == [["铅", "硬度", "软"]]


def test_real_files_empty_elements_are_skipped_with_one_warning_each() -> None:
    from kgreason.errors import Problem

    warnings: list[Problem] = []
    kg = load_mecha_kg(FIX / "real_kg.txt", warnings.append)
    assert len(kg) == 8 and all(all(x for x in t) for t in kg)
    assert [(w.file.endswith("real_kg.txt"), w.record, w.severity) for w in warnings] == [(True, "line 6", "warning")]
    assert "empty tail" in warnings[0].message
    warnings.clear()
    items = load_mecha_qa(FIX / "real_qa.jsonl", warnings.append)
    assert [it.line for it in items] == [1, 2, 3, 5]  # line 4's only gold triple is empty: skipped
    assert [(w.record, w.field) for w in warnings] == [
        ("line 4", "对应的三元组[0]"),
        ("line 4", "对应的三元组"),
        ("line 5", "对应的三元组[1]"),
    ]
    assert items[3].gold == (("打印机乙", "激活源", "电子束"),)
    # the loader works without a warning sink too
    assert len(load_mecha_kg(FIX / "real_kg.txt")) == 8


def test_list_and_object_answers() -> None:
    items = load_mecha_qa(FIX / "real_qa.jsonl")
    facts, listed, text = items[0], items[1], items[2]
    assert facts.answer == "激活源: 激光；供料方式: 铺粉式" and facts.answers == ("激光", "铺粉式")
    assert answer_entities(facts) == ("激光", "铺粉式")
    assert listed.answer == "强度高、透明、质轻" and answer_entities(listed) == ("强度高", "透明", "质轻")
    assert text.answers == ()
    assert not answer_is_correct("强度高、透明", answer_entities(listed))  # every listed answer must appear


def test_bad_answers_stay_errors(tmp_path: Path) -> None:
    rows = [
        {"问题": "q", "答案": [], "实体": ["a"], "对应的三元组": [["a", "b", "c"]]},
        {"问题": "q", "答案": {"k": ""}, "实体": ["a"], "对应的三元组": [["a", "b", "c"]]},
        {"问题": "q", "答案": [["nested"]], "实体": ["a"], "对应的三元组": [["a", "b", "c"]]},
        {"问题": "q", "实体": ["a"], "对应的三元组": [["a", "b", "c"]]},
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_mecha_qa(path)
    assert [(p.record, p.field) for p in err.value.problems] == [(f"line {i}", "答案") for i in (1, 2, 3, 4)]
