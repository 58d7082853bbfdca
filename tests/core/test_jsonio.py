"""JSON / JSON Lines reading with located errors, and atomic writing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kgreason.data.jsonio import read_records, write_json_atomic
from kgreason.errors import DataError


def _problem(exc: pytest.ExceptionInfo[DataError]) -> str:
    assert len(exc.value.problems) == 1
    return str(exc.value.problems[0])


def test_reads_array_object_and_jsonl(tmp_path: Path) -> None:
    arr = tmp_path / "a.json"
    arr.write_text(json.dumps([{"x": 1}, {"x": 2}]), encoding="utf-8")
    assert [r.value["x"] for r in read_records(arr)] == [1, 2]

    obj = tmp_path / "o.json"
    obj.write_text('{"doc_id": "doc_01"}', encoding="utf-8")
    assert read_records(obj)[0].value == {"doc_id": "doc_01"}

    jsonl = tmp_path / "l.jsonl"
    jsonl.write_text('{"q": "歼-20"}\n\n{"q": "辽宁舰"}\n', encoding="utf-8")
    records = read_records(jsonl)
    assert [(r.index, r.line, r.value["q"]) for r in records] == [(0, 1, "歼-20"), (1, 3, "辽宁舰")]


def test_bom_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.json"
    p.write_bytes("\ufeff".encode() + json.dumps([{"名称": "辽宁舰"}], ensure_ascii=False).encode())
    assert read_records(p)[0].value == {"名称": "辽宁舰"}


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text('[\n  {"a": 1},\n  {"a": }\n]', encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_records(p)
    msg = _problem(exc)
    assert "bad.json" in msg and "line 3, column 9" in msg


def test_invalid_jsonl_line_names_record(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text('{"a": 1}\n{"a": 2}\n{"a": \n', encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_records(p)
    msg = _problem(exc)
    assert "line 3" in msg and "record #2" in msg


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "file is empty"),
        (b"   \n", "file is empty"),
        (b'"just a string"', "expected a JSON array"),
        (b'[{"a": "\xff\xfe"}]', "not valid UTF-8"),
    ],
)
def test_unusable_files(tmp_path: Path, content: bytes, expected: str) -> None:
    p = tmp_path / "f.json"
    p.write_bytes(content)
    with pytest.raises(DataError) as exc:
        read_records(p)
    assert expected in _problem(exc)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="file not found"):
        read_records(tmp_path / "nope.json")
    with pytest.raises(DataError, match="is a directory"):
        read_records(tmp_path)


def test_atomic_write_keeps_chinese_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out" / "result.json"
    write_json_atomic(target, [{"answers": ["艾森豪威尔"]}])
    text = target.read_text(encoding="utf-8")
    assert "艾森豪威尔" in text and "\\u" not in text
    write_json_atomic(target, [{"answers": ["同盟国"]}])
    assert json.loads(target.read_text(encoding="utf-8")) == [{"answers": ["同盟国"]}]
    assert os.listdir(target.parent) == ["result.json"]  # no temporary file left behind


def test_atomic_write_failure_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "result.json"
    write_json_atomic(target, {"ok": True})
    with pytest.raises(TypeError):
        write_json_atomic(target, {"bad": object()})
    assert json.loads(target.read_text(encoding="utf-8")) == {"ok": True}
    assert os.listdir(tmp_path) == ["result.json"]


def test_written_json_gets_the_mode_of_any_new_file(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_json_atomic(tmp_path / "out.json", {"a": 1})
        (tmp_path / "plain.txt").write_text("x", encoding="utf-8")
    finally:
        os.umask(old)
    mode = (tmp_path / "out.json").stat().st_mode & 0o777
    assert mode == (tmp_path / "plain.txt").stat().st_mode & 0o777 == 0o644
