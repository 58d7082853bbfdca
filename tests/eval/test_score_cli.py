"""`kgreason score` as a user runs it: a subprocess, its output, its exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from score_helpers import FIXTURES

GOLD = FIXTURES / "gold.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "score", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def test_score_prints_tables_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "reports" / "report.json"
    proc = run("--pred", str(FIXTURES / "pred_messy.json"), "--gold", str(GOLD), "--json", str(out), "--per-question")
    assert proc.returncode == 0, proc.stderr
    assert "Total score 1.3833 over 4 question(s)" in proc.stdout
    for text in ("Overall and per level", "Per answer type", "Per question", "实体集合", "doc_03_001", "L3"):
        assert text in proc.stdout
    assert "Missing predictions, scored 0 (1): doc_02_002" in proc.stdout
    assert "Unknown query_ids, ignored (1): doc_99_001" in proc.stdout
    assert "Duplicate query_ids, first record scored (1): doc_01_001" in proc.stdout
    assert "field 'answers'" in proc.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["total"] == 1.383333
    assert len(data["per_question"]) == 4


def test_without_per_question_no_question_table() -> None:
    proc = run("--pred", str(FIXTURES / "pred_good.json"), "--gold", str(GOLD))
    assert proc.returncode == 0, proc.stderr
    assert "Total score 4.0000 over 4 question(s), mean 1.0000" in proc.stdout
    assert "Per question" not in proc.stdout


def test_unreadable_file_exits_2_naming_the_file_without_traceback() -> None:
    broken = FIXTURES / "broken.json"
    proc = run("--pred", str(broken), "--gold", str(GOLD))
    assert proc.returncode == 2
    assert str(broken) in proc.stderr
    assert "invalid JSON at line 2" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_missing_file_exits_2(tmp_path: Path) -> None:
    proc = run("--pred", str(tmp_path / "result.json"), "--gold", str(GOLD))
    assert proc.returncode == 2
    assert f"{tmp_path / 'result.json'}: file not found" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_usage_error_is_not_a_crash() -> None:
    proc = run("--pred", str(GOLD))
    assert proc.returncode == 2
    assert "--gold" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_markup_like_text_in_the_files_is_printed_verbatim(tmp_path: Path) -> None:
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    gold[0]["query_id"] = "[/]doc[bold]"
    gold[0]["answer_type"] = "[red]人物[/red]"
    gold_path = tmp_path / "gold.json"
    gold_path.write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
    proc = run("--pred", str(gold_path), "--gold", str(gold_path), "--per-question")
    assert proc.returncode == 0, proc.stderr
    assert "[/]doc[bold]" in proc.stdout
    assert "[red]人物[/red]" in proc.stdout


def test_unwritable_report_path_exits_2_without_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    proc = run("--pred", str(GOLD), "--gold", str(GOLD), "--json", str(blocker / "report.json"))
    assert proc.returncode == 2
    assert "cannot write the report" in proc.stderr
    assert "Traceback" not in proc.stderr
