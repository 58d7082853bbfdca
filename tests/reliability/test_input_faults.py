"""Fault catalogue, input side: hostile or broken dataset files give a message naming file, record and field and
exit code 2 — never a traceback, a hang or exhausted memory — in `validate`, `validate --json`, `run` and `score`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from faults import kgreason, load, no_traceback, sample_copy

from kgreason.data.jsonio import MAX_INT_DIGITS, read_records, read_text, split_lines
from kgreason.errors import DataError


def _break_question(data: Path, raw_value: str) -> None:
    """Record #1 of qa.json gets `raw_value` (JSON text, written as is) as its question."""
    qa = load(data / "qa.json")
    marker = "@@MARK@@"
    qa[1]["question"] = marker
    text = json.dumps(qa, ensure_ascii=False, indent=1).replace(json.dumps(marker), raw_value)
    (data / "qa.json").write_text(text, encoding="utf-8")


CASES = {
    # case: (how qa.json's record #1 question is written, what the message says, record named, field named)
    "lone_surrogate": ('"\\ud800坏"', "lone surrogate", "record #1", "field 'question'"),
    "lone_low_surrogate": ('"a\\udfffb"', "lone surrogate", "record #1", "field 'question'"),
    "huge_integer": ("1" + "9" * 5000, "a number of 5001 digits", "line ", None),
    "deep_nesting": ("[" * 100_000 + "]" * 100_000, "nested too deeply", None, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", ["validate", "validate-json", "run"])
def test_hostile_values_are_refused_with_a_message(tmp_path: Path, case: str, command: str) -> None:
    raw, message, record, field = CASES[case]
    data = sample_copy(tmp_path)
    _break_question(data, raw)
    if command == "validate":
        proc = kgreason("validate", data)
    elif command == "validate-json":
        proc = kgreason("validate", data, "--json")
        json.loads(proc.stdout)  # the report itself is valid JSON
    else:
        proc = kgreason("run", data, "-o", tmp_path / "out" / "result.json", "--llm", "none")
        assert not (tmp_path / "out" / "result.json").exists()
    no_traceback(proc)
    assert proc.returncode == 2
    assert str(data / "qa.json") in proc.stderr and message in proc.stderr
    for part in (record, field):
        if part is not None:
            assert part in proc.stderr


@pytest.mark.parametrize("case", ["lone_surrogate", "huge_integer", "deep_nesting"])
@pytest.mark.parametrize("side", ["pred", "gold"])
def test_score_refuses_hostile_files(tmp_path: Path, case: str, side: str) -> None:
    data = sample_copy(tmp_path)
    items = load(data / "qa_answer.json")
    marker = "@@MARK@@"
    items[0]["answer_type"] = marker
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(items, ensure_ascii=False).replace(json.dumps(marker), CASES[case][0]), encoding="utf-8")
    pred, gold = (bad, data / "qa_answer.json") if side == "pred" else (data / "qa_answer.json", bad)
    proc = kgreason("score", "--pred", pred, "--gold", gold)
    no_traceback(proc)
    assert proc.returncode == 2 and str(bad) in proc.stderr and CASES[case][1] in proc.stderr


def test_json_lines_keep_unicode_line_separators(tmp_path: Path) -> None:
    """U+2028, U+2029 and U+0085 are characters inside a JSON string, not line breaks."""
    data = sample_copy(tmp_path)
    qa = load(data / "qa.json")
    qa[0]["question"] += "\u2028\u2029\u0085"
    (data / "qa.json").write_text("\r\n".join(json.dumps(q, ensure_ascii=False) for q in qa), encoding="utf-8")
    records = read_records(data / "qa.json")
    assert len(records) == len(qa) and records[0].value["question"].endswith("\u2028\u2029\u0085")
    assert [n for n, _ in split_lines("a\u2028b\r\nc\u0085\nd")] == [1, 2, 3]
    proc = kgreason("validate", data)
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "directory"])
def test_irregular_files_are_refused_at_once(tmp_path: Path, kind: str) -> None:
    data = sample_copy(tmp_path)
    doc = data / "document.json"
    doc.unlink()
    if kind == "fifo":
        os.mkfifo(doc)
        expected = "is a named pipe, not a regular file"
    elif kind == "dev_zero":
        doc.symlink_to("/dev/zero")
        expected = "is a device, not a regular file"
    else:
        doc.mkdir()
        expected = "is a directory"
    for args in (("validate", data), ("run", data, "-o", tmp_path / "o" / "r.json", "--llm", "none")):
        proc = kgreason(*args, timeout=60)  # a hang fails here
        no_traceback(proc)
        assert proc.returncode == 2 and f"{doc}: {expected}" in proc.stderr


def test_files_over_the_size_limit_are_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"x": "歼" * 400_000}], ensure_ascii=False), encoding="utf-8")  # 1.2 MB
    monkeypatch.setenv("KGREASON_MAX_INPUT_MB", "1")
    with pytest.raises(DataError, match="larger than the input limit of 1 MB"):
        read_text(big)
    monkeypatch.setenv("KGREASON_MAX_INPUT_MB", "2")
    assert read_records(big)[0].value["x"].startswith("歼")
    data = sample_copy(tmp_path)
    proc = kgreason("validate", data, env={"KGREASON_MAX_INPUT_MB": "0.01"})  # document.json is ~20 KB
    no_traceback(proc)
    assert proc.returncode == 2 and "KGREASON_MAX_INPUT_MB" in proc.stderr


def test_number_limit_names_the_line_of_a_json_lines_record(tmp_path: Path) -> None:
    p = tmp_path / "q.jsonl"
    p.write_text('{"a": 1}\n{"a": ' + "7" * (MAX_INT_DIGITS + 1) + "}\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_records(p)
    assert str(exc.value.problems[0]).startswith(f"error: {p}, record #1 (line 2): a number of {MAX_INT_DIGITS + 1}")


def test_surrogate_pairs_are_characters_not_errors(tmp_path: Path) -> None:
    p = tmp_path / "ok.json"
    p.write_text('[{"q": "\\ud83d\\ude00 歼-20"}]', encoding="utf-8")
    assert read_records(p)[0].value["q"] == "\U0001f600 歼-20"


@pytest.mark.parametrize("kind", ["kg", "mecha_qa", "conventions"])
def test_other_readers_share_the_policy(tmp_path: Path, kind: str) -> None:
    from kgreason.conventions import load_conventions
    from kgreason.mecha.data import load_mecha_kg, load_mecha_qa

    p = tmp_path / "f.jsonl"
    if kind == "kg":
        p.write_text('["灰铸铁", "弹性模量", ' + "9" * 5000 + "]\n", encoding="utf-8")
        with pytest.raises(DataError, match="line 1"):
            load_mecha_kg(p)
    elif kind == "mecha_qa":
        p.write_text('{"问题": "\\ud800", "答案": "x"}\n' + "[" * 50_000 + "\n", encoding="utf-8")
        with pytest.raises(DataError) as exc:
            load_mecha_qa(p)
        text = str(exc.value)
        assert "line 1" in text and "surrogate" in text and "line 2" in text and "nested too deeply" in text
    else:
        p.write_text('{"derived": {"\\udc00": 1}}', encoding="utf-8")
        with pytest.raises(DataError, match="surrogate"):
            load_conventions(p)


FILE_KINDS = ["document.json", "KG_doc_01.json", "qa.json", "qa_answer.json"]


@pytest.mark.parametrize("fault", ["invalid_utf8", "truncated", "truncated_in_char"])
@pytest.mark.parametrize("file_name", FILE_KINDS)
def test_each_dataset_file_kind_broken(tmp_path: Path, file_name: str, fault: str) -> None:
    """Invalid UTF-8 or a file cut short (a copy interrupted) in each file of a dataset: named, exit 2."""
    data = sample_copy(tmp_path)
    target = data / file_name
    raw = target.read_bytes()
    first_wide = next(i for i, b in enumerate(raw) if b >= 0xC0)  # the first byte of a multi-byte character
    if fault == "invalid_utf8":
        target.write_bytes(raw[:first_wide] + b"\xff" + raw[first_wide + 1 :])
        expected = "not valid UTF-8 (byte 0xff"
    elif fault == "truncated":
        target.write_bytes(raw[: raw.rindex(b'"', 0, len(raw) * 2 // 3)])
        expected = "invalid JSON at line"
    else:
        target.write_bytes(raw[: first_wide + 1])
        expected = "ends inside a UTF-8 character (cut short?)"
    proc = kgreason("validate", data)
    no_traceback(proc)
    assert proc.returncode == 2 and f"{target}: {expected}" in proc.stderr


@pytest.mark.parametrize("fault", ["invalid_utf8", "truncated", "fifo"])
@pytest.mark.parametrize("side", ["--pred", "--gold", "--conventions"])
def test_score_and_conventions_files_broken(tmp_path: Path, side: str, fault: str) -> None:
    data = sample_copy(tmp_path)
    bad = tmp_path / "bad.json"
    good = (data / "qa_answer.json").read_bytes()
    if fault == "invalid_utf8":
        bad.write_bytes(good[:50] + b"\xc3\x28" + good[50:])
        expected = "not valid UTF-8"
    elif fault == "truncated":
        bad.write_bytes(good[: good.rindex(b'"', 0, len(good) - 40)])
        expected = "invalid JSON"
    else:
        os.mkfifo(bad)
        expected = "is a named pipe"
    if side == "--conventions":
        proc = kgreason("run", data, "-o", tmp_path / "o" / "r.json", "--llm", "none", "--conventions", bad, timeout=60)
    else:
        other = "--gold" if side == "--pred" else "--pred"
        proc = kgreason("score", side, bad, other, data / "qa_answer.json", timeout=60)
    no_traceback(proc)
    assert proc.returncode == 2 and str(bad) in proc.stderr and expected in proc.stderr


def test_validate_given_a_pipe_or_device_names_it(tmp_path: Path) -> None:
    fifo = tmp_path / "answers.json"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a named pipe"), (Path("/dev/zero"), "a device")):
        proc = kgreason("validate", path, timeout=60)
        no_traceback(proc)
        assert proc.returncode == 2 and f"{path}: is {kind}, not a regular file" in proc.stderr


def test_negative_limit_is_refused(tmp_path: Path) -> None:
    data = sample_copy(tmp_path)
    proc = kgreason("run", data, "-o", tmp_path / "o" / "r.json", "--llm", "none", "--limit", "-3")
    no_traceback(proc)
    assert proc.returncode == 2 and "--limit must be 0 or more, got -3" in proc.stderr
    assert not (tmp_path / "o" / "r.json").exists()
