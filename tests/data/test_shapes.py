"""Files that differ from the spec but have one reading (`kgreason.data.shapes`): each variant of the minimal
dataset loads into the same records as the original, with a warning that says what was read how."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kgreason.data.jsonio import RawRecord
from kgreason.data.loader import load_dataset
from kgreason.data.records import Dataset
from kgreason.data.shapes import (
    level_from_digit,
    number_as_text,
    rename_fields,
    triple_from_list,
    unwrap,
)
from kgreason.errors import DataError

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "good" / "minimal"
KG_FILES = ("KG_doc_01.json", "KG_doc_02.json")


# ------------------------------------------------------------------------------------------------ the functions


def test_rename_fields_takes_the_first_alias_only_when_the_spec_name_is_absent() -> None:
    r = rename_fields("triple", {"subject": "A", "predicate": "r", "object": "B", "obj": "kept"})
    assert r.value == {"sub": "A", "relation": "r", "obj": "kept", "object": "B"}
    assert r.notes == (
        "field 'subject' read as 'sub' (the spec's name)",
        "field 'predicate' read as 'relation' (the spec's name)",
    )
    assert rename_fields("question", {"问题": "谁？", "id": "q1"}).value == {"question": "谁？", "query_id": "q1"}
    assert rename_fields("document", "not a record").value == "not a record"


def test_bare_triple_lists() -> None:
    r = triple_from_list(["A", "r", 3])
    assert r.value == {"sub": "A", "relation": "r", "obj": 3, "sub_type": "", "obj_type": ""} and r.notes
    for other in (["A", "B"], ["A", "r", "B", "x"], ["A", "r", None], {"sub": "A"}):
        assert triple_from_list(other).value == other and not triple_from_list(other).notes


def test_unwrap() -> None:
    def recs(*values: Any) -> list[RawRecord]:
        return [RawRecord(i, 0, v) for i, v in enumerate(values)]

    rows = [{"query_id": "q1"}, {"query_id": "q2"}]
    inner, note = unwrap(recs({"data": rows, "version": "1.0"}), ("query_id",), "question")
    assert [r.value for r in inner] == rows and note == "records read from the list under the key 'data'"
    inner, note = unwrap(recs({"题目": rows}), ("query_id",), "question")  # any single list
    assert [r.value for r in inner] == rows and note is not None
    docs, note = unwrap(recs({"doc_01": "正文一", "doc_02": "正文二"}), ("doc_id", "content"), "document")
    assert [r.value for r in docs] == [
        {"doc_id": "doc_01", "content": "正文一"},
        {"doc_id": "doc_02", "content": "正文二"},
    ]
    # a file of one record of its own kind, several records, or two lists: unchanged
    one = recs({"doc_id": "doc_01", "content": "x"})
    assert unwrap(one, ("doc_id", "content"), "document") == (one, None)
    two = recs({"query_id": "a"}, {"query_id": "b"})
    assert unwrap(two, ("query_id",), "question") == (two, None)
    lists = recs({"a": [1], "b": [2]})
    assert unwrap(lists, ("query_id",), "question") == (lists, None)


def test_numbers_and_levels() -> None:
    assert number_as_text(3) == "3" and number_as_text(7.85) == "7.85" and number_as_text(-2.0) == "-2.0"
    assert number_as_text(True) is None and number_as_text("3") is None and number_as_text(math.nan) is None
    assert [level_from_digit(v) for v in (1, "2", " 3 ", "三级", "二", 4, "L4", 2.5, True)] == [
        "L1",
        "L2",
        "L3",
        "L3",
        "L2",
        None,
        None,
        None,
        None,
    ]


# ------------------------------------------------------------------------------------------------ whole datasets


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(MINIMAL, folder)
    return folder


def _edit(folder: Path, name: str, change: Callable[[Any], Any]) -> None:
    path = folder / name
    value = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(change(value), ensure_ascii=False), encoding="utf-8")


def _spo(dataset: Dataset, *, types: bool = True) -> dict[str, list[tuple[str, ...]]]:
    return {
        d: [(t.sub, t.relation, t.obj, *((t.sub_type, t.obj_type) if types else ())) for t in kg]
        for d, kg in dataset.kgs.items()
    }


def _questions(dataset: Dataset) -> list[tuple[str, str, str, str]]:
    return [(q.query_id, q.doc_id, q.question, q.difficulty) for q in dataset.questions]


def _all_kgs(change: Callable[[Any], Any]) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        for name in KG_FILES:
            _edit(folder, name, change)

    return apply


def _reencode(encoding: str) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        for path in folder.glob("*.json"):
            path.write_bytes(path.read_text(encoding="utf-8").encode(encoding))

    return apply


SPO_KEYS = {"triple_id": "id", "sub": "subject", "sub_type": "subject_type", "relation": "predicate", "obj": "object"}
CHINESE_KEYS = {
    "sub": "头实体",
    "relation": "关系",
    "obj": "尾实体",
    "sub_type": "头实体类型",
    "obj_type": "尾实体类型",
}

VARIANTS: dict[str, tuple[Callable[[Path], None], str, bool]] = {
    # name: (how the files are changed, a warning the load must give, whether the KG keeps its types)
    "gb18030": (_reencode("gb18030"), "not UTF-8: read as GB18030 (GBK)", True),
    "utf16": (_reencode("utf-16"), "not UTF-8: read as UTF-16", True),
    "numeric_ids": (
        _all_kgs(lambda kg: [{**t, "triple_id": i + 1} for i, t in enumerate(kg)]),
        "is a number, not text: read as the text it was written as",
        True,
    ),
    "subject_predicate_object": (
        _all_kgs(lambda kg: [{SPO_KEYS.get(k, k): v for k, v in t.items()} for t in kg]),
        "field 'predicate' read as 'relation' (the spec's name)",
        True,
    ),
    "chinese_keys": (
        _all_kgs(lambda kg: [{CHINESE_KEYS.get(k, k): v for k, v in t.items()} for t in kg]),
        "field '头实体' read as 'sub' (the spec's name)",
        True,
    ),
    "bare_lists": (
        _all_kgs(lambda kg: [[t["sub"], t["relation"], t["obj"]] for t in kg]),
        "a bare [sub, relation, obj] list read as a triple (no types)",
        False,
    ),
    "no_triple_ids": (
        _all_kgs(lambda kg: [{k: v for k, v in t.items() if k != "triple_id"} for t in kg]),
        "no triple_id: numbered by position in the file (t1, t2, ...)",
        True,
    ),
    "wrapped": (
        lambda folder: _edit(folder, "qa.json", lambda qa: {"version": "1", "data": qa}),
        "records read from the list under the key 'data'",
        True,
    ),
    "wrapped_gold": (
        lambda folder: _edit(folder, "qa_answer.json", lambda gold: {"answers_of_2026": gold}),
        "records read from the list under the key 'answers_of_2026'",
        True,
    ),
    "documents_map": (
        lambda folder: _edit(folder, "document.json", lambda docs: {d["doc_id"]: d["content"] for d in docs}),
        "a {doc_id: content} object read as one document per key",
        True,
    ),
    "level_digits": (
        lambda folder: _edit(folder, "qa.json", lambda qa: [{**q, "difficulty": int(q["difficulty"][1])} for q in qa]),
        "written without the L: L1, L2 or L3 expected",
        True,
    ),
    "question_keys": (
        lambda folder: _edit(
            folder, "qa.json", lambda qa: [{("问题" if k == "question" else k): v for k, v in q.items()} for q in qa]
        ),
        "field '问题' read as 'question' (the spec's name)",
        True,
    ),
    "no_levels_gold_known": (
        lambda folder: _edit(
            folder, "qa.json", lambda qa: [{k: v for k, v in q.items() if k != "difficulty"} for q in qa]
        ),
        "missing: the question is answered as L2 (a gold file's level is used when there is one)",
        True,
    ),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_variant_loads_into_the_same_records(tmp_path: Path, variant: str) -> None:
    clean, clean_warnings = load_dataset(MINIMAL)
    assert clean_warnings == []
    folder = _copy(tmp_path)
    change, warning, typed = VARIANTS[variant]
    change(folder)
    dataset, warnings = load_dataset(folder)
    assert any(warning in w.message for w in warnings), [str(w) for w in warnings]
    assert all(w.severity == "warning" for w in warnings)
    assert dataset.documents == clean.documents
    assert _spo(dataset, types=typed) == _spo(clean, types=typed)
    assert _questions(dataset) == _questions(clean)  # levels included: digits read, missing ones from the gold
    assert dataset.gold == clean.gold


def test_missing_levels_without_gold_default_to_l2(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "qa_answer.json").unlink()
    _edit(folder, "qa.json", lambda qa: [{k: v for k, v in q.items() if k != "difficulty"} for q in qa])
    dataset, warnings = load_dataset(folder)
    assert {q.difficulty for q in dataset.questions} == {"L2"}
    assert [w.field for w in warnings] == ["difficulty"]  # one warning for the whole file


def test_damaged_utf8_is_still_an_error(tmp_path: Path) -> None:
    """A UTF-8 file with some GBK bytes pasted in also decodes as GB18030 — into nonsense: refused, not guessed."""
    folder = _copy(tmp_path)
    qa = folder / "qa.json"
    text = qa.read_text(encoding="utf-8")
    qa.write_bytes(text.encode("utf-8").replace("诺曼底登陆".encode(), "诺曼底登陆".encode("gb18030"), 1))
    with pytest.raises(DataError) as exc:
        load_dataset(folder)
    assert "qa.json: not valid UTF-8" in str(exc.value)


def test_unreadable_shapes_stay_errors(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "KG_doc_01.json", lambda kg: [{**kg[0], "subject": "两个名字"}, *kg[1:]])  # sub given: alias ignored
    _edit(folder, "qa.json", lambda qa: [{**qa[0], "difficulty": 4}, *qa[1:]])
    with pytest.raises(DataError) as exc:
        load_dataset(folder)
    assert [(p.field, p.message) for p in exc.value.problems] == [
        ("difficulty", "must be L1, L2 or L3, got the number 4")
    ]


def test_run_answers_a_messy_dataset_like_the_clean_one(tmp_path: Path) -> None:
    """End to end: GBK files with other field names give the same result.json as the spec's files."""
    folder = _copy(tmp_path)
    VARIANTS["subject_predicate_object"][0](folder)
    VARIANTS["wrapped"][0](folder)
    _reencode("gb18030")(folder)
    outputs = {}
    for name, data in (("clean", MINIMAL), ("messy", folder)):
        out = tmp_path / f"{name}.json"
        proc = subprocess.run(
            [sys.executable, "-m", "kgreason.cli", "run", str(data), "-o", str(out), "--llm", "none", "--no-resume"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        outputs[name] = json.loads(out.read_text(encoding="utf-8"))
    assert outputs["messy"] == outputs["clean"] and len(outputs["clean"]) == 4


@pytest.mark.parametrize("name", ["kg_doc_01.json", "KG_doc_01.jsonl"])
def test_kg_file_names_in_other_case_or_as_json_lines(tmp_path: Path, name: str) -> None:
    clean, _ = load_dataset(MINIMAL)
    folder = _copy(tmp_path)
    kg = json.loads((folder / "KG_doc_01.json").read_text(encoding="utf-8"))
    (folder / "KG_doc_01.json").unlink()
    text = "\n".join(json.dumps(t, ensure_ascii=False) for t in kg) if name.endswith("l") else json.dumps(kg)
    (folder / name).write_text(text, encoding="utf-8")
    dataset, warnings = load_dataset(folder)
    assert warnings == [] and _spo(dataset) == _spo(clean)
