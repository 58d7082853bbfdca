"""`load_dataset` / `load_answer_file` in process: accepted variants, warnings, errors, speed, atomic writes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from kgreason.data import jsonio
from kgreason.data.jsonio import write_json_atomic
from kgreason.data.loader import load_answer_file, load_dataset
from kgreason.data.validate import check_dataset
from kgreason.errors import DataError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MINIMAL = FIXTURES / "good" / "minimal"


def copy_minimal(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(MINIMAL, folder)
    return folder


def read(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def write(folder: Path, name: str, value: Any) -> None:
    (folder / name).write_text(json.dumps(value, ensure_ascii=False, indent=1), encoding="utf-8")


def test_minimal_dataset_loads() -> None:
    dataset, warnings = load_dataset(MINIMAL)
    assert warnings == []
    assert set(dataset.documents) == {"doc_01", "doc_02"}
    assert [len(dataset.kgs[d]) for d in ("doc_01", "doc_02")] == [8, 5]
    assert [q.difficulty for q in dataset.questions] == ["L1", "L3", "L2", "L2"]
    assert dataset.gold is not None and set(dataset.gold) == {q.query_id for q in dataset.questions}
    l3 = dataset.gold["doc_01_002"]
    assert len(l3.main_path) == 4 and len(l3.alt_paths) == 1  # the spec's flat alternative is one path
    assert l3.constraints == {"time": "第二次世界大战期间", "camp": "同盟国"}


def test_values_with_inner_spaces_are_kept_verbatim() -> None:
    dataset, _ = load_dataset(MINIMAL)
    assert dataset.kgs["doc_01"][2].obj == "1944 年 6 月 6 日"
    assert dataset.questions[1].question.startswith("在第二次世界大战期间 指挥过")
    assert dataset.gold is not None
    assert dataset.gold["doc_01_002"].main_path[3] == ("1944 年 6 月 6 日", "处于时期内", "第二次世界大战")


def test_variants_jsonl_bom_kg_naming_flat_and_nested_alternatives() -> None:
    folder = FIXTURES / "good" / "variants"
    assert (folder / "document.json").read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 BOM
    assert (folder / "qa.json").read_text(encoding="utf-8").startswith('{"query_id"')  # JSON Lines
    assert (folder / "KG_02.json").exists()  # the spec's `KG_01.json` naming for doc_01
    dataset, warnings = load_dataset(folder)
    assert warnings == []
    assert len(dataset.kgs["doc_02"]) == 5
    assert dataset.gold is not None
    assert len(dataset.gold["doc_01_002"].alt_paths) == 2  # nested: two alternative paths
    assert len(dataset.gold["doc_02_001"].alt_paths) == 1  # flat: one alternative path
    # a path value spelled without the KG's inner spaces still matches it (normalised comparison), verbatim kept
    assert dataset.gold["doc_01_002"].main_path[2][2] == "1944年6月6日"


def test_gold_item_without_doc_id_and_question_is_completed_from_qa(tmp_path: Path) -> None:
    folder = copy_minimal(tmp_path)
    gold = read(folder, "qa_answer.json")
    del gold[0]["doc_id"], gold[0]["question"]  # the spec's example has no doc_id
    write(folder, "qa_answer.json", gold)
    dataset, warnings = load_dataset(folder)
    assert dataset.gold is not None
    assert dataset.gold["doc_01_001"].doc_id == "doc_01"
    assert dataset.gold["doc_01_001"].question == "诺曼底登陆的指挥官是谁？"
    assert {(w.field, w.message) for w in warnings} == {
        ("doc_id", "missing (treated as empty)"),
        ("question", "missing (treated as empty)"),
    }


def test_recoverable_problems_are_warnings_listed_once() -> None:
    dataset, warnings = load_dataset(FIXTURES / "good" / "warnings")
    assert all(w.severity == "warning" for w in warnings)
    text = "\n".join(str(w) for w in warnings)
    assert 'the same triple ["歼-20", "别名", "威龙"] as record #0 (triple_id=triple_01)' in text
    assert "KG_doc_03.json: unused KG" in text
    assert "field 'question': differs from the wording in qa.json" in text
    assert "field 'constraints.time': value '二战期间' is not a verbatim part of the question" in text
    unknown = [w for w in warnings if w.field == "source"]
    assert len(unknown) == 1 and unknown[0].record == "#0 (query_id=doc_01_001) and 3 more"
    assert len(warnings) == 5
    assert len(dataset.kgs["doc_02"]) == 6  # the duplicate triple is kept


def test_errors_are_raised_together(tmp_path: Path) -> None:
    folder = copy_minimal(tmp_path)
    kg = read(folder, "KG_doc_02.json")
    kg[0]["triple_id"] = [1]  # a number would be read as its text (a warning)
    kg[1]["sub"] = True  # a blank one is only a warning (the triple is skipped)
    kg[2]["extra"] = "x"  # a warning: not part of the raised errors
    kg[3] = ["歼-20", "2011年1月11日"]  # [sub, relation, obj] would be read as a triple
    write(folder, "KG_doc_02.json", kg)
    questions = read(folder, "qa.json")
    questions[0]["difficulty"] = "L5"  # 1 would be read as L1
    write(folder, "qa.json", questions)
    with pytest.raises(DataError) as exc:
        load_dataset(folder)
    where = [(p.file.rsplit("/", 1)[-1], p.record, p.field) for p in exc.value.problems]
    assert where == [
        ("KG_doc_02.json", "#0", "triple_id"),
        ("KG_doc_02.json", "#1 (triple_id=triple_02)", "sub"),
        ("KG_doc_02.json", "#3", None),
        ("qa.json", "#0 (query_id=doc_01_001)", "difficulty"),
    ]
    assert all(p.severity == "error" for p in exc.value.problems)


def test_gold_checks_can_be_skipped(tmp_path: Path) -> None:
    folder = copy_minimal(tmp_path)
    gold = read(folder, "qa_answer.json")
    gold[0]["gold_reasoning_paths_main"] = [["诺曼底登陆", "指挥者", "艾森豪威尔"]]
    write(folder, "qa_answer.json", gold)
    with pytest.raises(DataError, match=r"is not in KG_doc_01\.json"):
        load_dataset(folder)
    dataset, _ = load_dataset(folder, check_gold=False)
    assert dataset.gold is not None


def test_without_gold_file(tmp_path: Path) -> None:
    folder = copy_minimal(tmp_path)
    (folder / "qa_answer.json").unlink()
    dataset, warnings = load_dataset(folder)
    assert dataset.gold is None and warnings == []
    assert str(check_dataset(folder).summary).endswith("no qa_answer.json")


def test_load_answer_file() -> None:
    records, warnings = load_answer_file(MINIMAL / "qa_answer.json")
    assert [r.query_id for r in records] == ["doc_01_001", "doc_01_002", "doc_02_001", "doc_02_002"]
    assert warnings == []


def test_load_answer_file_jsonl_and_errors(tmp_path: Path) -> None:
    items = read(MINIMAL, "qa_answer.json")
    path = tmp_path / "result.json"
    path.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in items), encoding="utf-8")
    records, _ = load_answer_file(path)
    assert len(records) == 4
    items[2]["query_id"] = "doc_01_001"
    items[3]["difficulty"] = "hard"
    write(tmp_path, "result.json", items)
    with pytest.raises(DataError) as exc:
        load_answer_file(path)
    assert [(p.record, p.field) for p in exc.value.problems] == [
        ("#3 (query_id=doc_02_002)", "difficulty"),
        ("#2 (query_id=doc_01_001)", "query_id"),
    ]
    assert "duplicate query_id 'doc_01_001'" in exc.value.problems[1].message


def test_a_10k_triple_kg_loads_whole(tmp_path: Path) -> None:
    # its speed is a benchmark's business (timed unit tests fail on shared machines)
    folder = copy_minimal(tmp_path)
    (folder / "qa_answer.json").unlink()
    relations = ("研制单位", "首飞时间", "最大航程", "隶属于")
    kg = [
        {
            "triple_id": f"triple_{i:05d}",
            "sub": f"装备 {i % 3000} 号",
            "sub_type": "武器装备",
            "relation": relations[i % 4],
            "obj": f"值 {i}",
            "obj_type": "数值",
        }
        for i in range(10_000)
    ]
    write(folder, "KG_doc_02.json", kg)
    dataset, _ = load_dataset(folder)
    assert len(dataset.kgs["doc_02"]) == 10_000
    assert dataset.kgs["doc_02"][9_999].obj == "值 9999"


def test_atomic_write_target_is_never_half_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "result.json"
    write_json_atomic(target, [{"answers": ["艾森豪威尔"]}])
    before = target.read_bytes()
    seen: list[tuple[bytes, Any]] = []
    real_replace = os.replace

    def spy_replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        # at the moment of the swap the target still holds the old file, the new one is complete
        seen.append((target.read_bytes(), json.loads(Path(src).read_text(encoding="utf-8"))))
        real_replace(src, dst)

    monkeypatch.setattr(jsonio.os, "replace", spy_replace)
    new = [{"answers": ["同盟国"], "gold_reasoning_paths_main": [["艾森豪威尔", "隶属于", "同盟国"]]}]
    write_json_atomic(target, new)
    assert seen == [(before, new)]
    text = target.read_text(encoding="utf-8")
    assert "同盟国" in text and "\\u" not in text  # Chinese written as is, not \u-escaped
    assert json.loads(text) == new
    assert sorted(os.listdir(tmp_path)) == ["result.json"]


def test_atomic_write_interrupted_mid_file_keeps_old_target(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "result.json"
    write_json_atomic(target, {"answers": ["艾森豪威尔"]})

    def broken_dump(value: Any, fh: Any, **kwargs: Any) -> None:
        fh.write('{"answers": ["同')  # half a file, then the process is interrupted
        raise KeyboardInterrupt

    monkeypatch.setattr(jsonio.json, "dump", broken_dump)
    with pytest.raises(KeyboardInterrupt):
        write_json_atomic(target, {"answers": ["同盟国"]})
    monkeypatch.undo()
    assert json.loads(target.read_text(encoding="utf-8")) == {"answers": ["艾森豪威尔"]}
    assert os.listdir(tmp_path) == ["result.json"]


def test_bundled_sample_loads_with_gold_for_every_question() -> None:
    dataset, warnings = load_dataset(FIXTURES.parents[1] / "examples" / "sample")
    assert warnings == []
    assert {q.difficulty for q in dataset.questions} == {"L1", "L2", "L3"}
    assert dataset.gold is not None and set(dataset.gold) == {q.query_id for q in dataset.questions}
    assert set(dataset.kgs) == set(dataset.documents)


def test_a_kg_triple_with_a_blank_element_is_skipped_with_one_warning(tmp_path: Path) -> None:
    folder = copy_minimal(tmp_path)
    kg_name = next(p.name for p in folder.glob("KG_*.json"))
    rows = read(folder, kg_name)
    before = len(rows)
    rows.append({**rows[0], "triple_id": "triple_blank", "obj": " "})
    rows.append({**rows[0], "triple_id": "triple_blank2", "relation": ""})
    write(folder, kg_name, rows)
    dataset, warnings = load_dataset(folder)
    skipped = [w for w in warnings if "the triple is skipped" in w.message]
    assert [(w.record, w.field, w.severity) for w in skipped] == [
        (f"#{before} (triple_id=triple_blank)", "obj", "warning"),
        (f"#{before + 1} (triple_id=triple_blank2)", "relation", "warning"),
    ]
    assert all(w.file.endswith(kg_name) for w in skipped)
    assert len(dataset.kgs[kg_name.removeprefix("KG_").removesuffix(".json")]) == before
