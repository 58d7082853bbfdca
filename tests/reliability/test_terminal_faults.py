"""Fault catalogue, what reaches the user's terminal: escape sequences and other control characters in data are
shown escaped by `validate`, `validate --json`, `run` and `score` (one function, kgreason.text.terminal), and names
made only of invisible characters are refused like empty ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from faults import kgreason, load, no_traceback, sample_copy

from kgreason.text.terminal import control_characters, is_invisible, safe_json, safe_text

TITLE = "\x1b]0;pwned\x07"  # would retitle the terminal
CLEAR = "\x1b[2J\x1b[H"  # would clear it
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _assert_clean(*texts: str) -> None:
    for text in texts:
        for ch in RAW:
            assert ch not in text, f"raw {ch!r} printed"


def _poisoned(tmp_path: Path) -> Path:
    data = sample_copy(tmp_path)
    qa = load(data / "qa.json")
    qa[0][f"x{TITLE}"] = "an unknown field whose name is an escape sequence"
    qa[1]["question"] += CLEAR + "\x9b\u202e"
    (data / "qa.json").write_text(json.dumps(qa, ensure_ascii=False), encoding="utf-8")
    return data


def test_validate_shows_escapes_escaped(tmp_path: Path) -> None:
    data = _poisoned(tmp_path)
    proc = kgreason("validate", data)
    no_traceback(proc)
    _assert_clean(proc.stdout, proc.stderr)
    assert "x\\x1b]0;pwned\\x07" in proc.stdout  # the user still sees what is there
    assert "contains the control character(s) \\x1b, \\x9b" in proc.stdout
    report = kgreason("validate", data, "--json")
    _assert_clean(report.stdout, report.stderr)
    fields = {w["field"] for w in json.loads(report.stdout)["warnings"]}
    assert f"x{TITLE}" in fields  # the JSON report keeps the exact value, escaped as JSON


def test_run_and_score_show_escapes_escaped(tmp_path: Path) -> None:
    data = _poisoned(tmp_path)
    gold = load(data / "qa_answer.json")
    gold[0]["answer_type"] = CLEAR + "实体"
    (data / "qa_answer.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "r" / "result.json"
    run = kgreason("run", data, "-o", out, "--llm", "none")
    no_traceback(run)
    _assert_clean(run.stdout, run.stderr)
    pred = load(out)
    pred[0]["query_id"] = TITLE + pred[0]["query_id"]  # an unknown id, listed by score
    (tmp_path / "p.json").write_text(json.dumps(pred, ensure_ascii=False), encoding="utf-8")
    score = kgreason("score", "--pred", tmp_path / "p.json", "--gold", data / "qa_answer.json", "--per-question")
    no_traceback(score)
    _assert_clean(score.stdout, score.stderr)
    assert "\\x1b]0;pwned\\x07" in score.stdout and "\\x1b[2J" in score.stdout


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200c\ufeff", " \u2060 "])
def test_invisible_names_are_refused_like_empty_ones(tmp_path: Path, name: str) -> None:
    data = sample_copy(tmp_path)
    kg_file = data / "KG_doc_01.json"
    kg = load(kg_file)
    kg[2]["relation"] = name
    kg_file.write_text(json.dumps(kg, ensure_ascii=False), encoding="utf-8")
    proc = kgreason("validate", data)
    no_traceback(proc)
    assert proc.returncode == 2
    assert f"{kg_file}, record #2" in proc.stderr and "field 'relation': is empty (only invisible" in proc.stderr


def test_the_sanitiser() -> None:
    assert safe_text("歼-20\x1b[31m\ud800\u202e\n") == "歼-20\\x1b[31m\\ud800\\u202e\n"
    assert safe_text("a\nb\r", newlines=False) == "a\\nb\\x0d"  # a carriage return could overwrite the line
    value = {"k\x9b": ["\x1b", "\u2028", "\ud800", "歼-20"]}
    text = safe_json(value)
    assert json.loads(text) == value and text.isprintable() is False  # newlines of the indentation only
    assert not any(ch in text for ch in ("\x9b", "\x1b", "\u2028", "\ud800"))
    assert control_characters("a\tb\r\n\x1b\x00") == ["\\x00", "\\x1b"]
    assert is_invisible("\u200b \u200d") and not is_invisible("歼\u200b")
