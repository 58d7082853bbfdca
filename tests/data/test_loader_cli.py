"""`kgreason validate` run as a user runs it: a subprocess, its exit code, stdout and stderr.

Each folder under tests/fixtures/bad/ is a small dataset broken in one way; its expect.json says what is broken
and which problems (file, record, field, message) the validator must report.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
BAD_CASES = sorted(p.name for p in (FIXTURES / "bad").iterdir() if p.is_dir())


def run_validate(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "validate", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=120,
        check=False,
    )


def matching_line(text: str, expected: dict[str, Any], folder: Path) -> str | None:
    """The output line reporting the expected problem: right file, record, field and message."""
    wanted = [str(folder / expected["file"]), expected["message"]]
    if expected["record"] is not None:
        wanted.append(f"record {expected['record']}")
    if expected["field"] is not None:
        wanted.append(f"field '{expected['field']}'")
    return next((line for line in text.splitlines() if all(w in line for w in wanted)), None)


def test_there_are_enough_malformed_fixtures() -> None:
    assert len(BAD_CASES) >= 15


@pytest.mark.parametrize("case", BAD_CASES)
def test_malformed_dataset_is_rejected_with_located_messages(case: str) -> None:
    folder = Path("tests") / "fixtures" / "bad" / case
    expect = json.loads((REPO / folder / "expect.json").read_text(encoding="utf-8"))
    proc = run_validate(folder)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    for problem in expect["problems"]:
        line = matching_line(proc.stderr, problem, folder)
        assert line is not None, f"{expect['broken']}: expected {problem} in stderr:\n{proc.stderr}"
        assert line.startswith("error: ")
    # only the one thing that is broken is reported, no cascade of follow-up errors
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(expect["problems"]), proc.stderr


def test_non_utf8_bytes_generated_on_the_fly(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    (folder).mkdir()
    for f in (FIXTURES / "good" / "minimal").iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    kg = folder / "KG_doc_01.json"
    kg.write_bytes(kg.read_bytes().replace("艾森豪威尔".encode(), "艾森豪威尔".encode("gb18030"), 1))
    proc = run_validate(folder)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "KG_doc_01.json" in proc.stderr and "not valid UTF-8" in proc.stderr and "line 2" in proc.stderr


def test_missing_folder(tmp_path: Path) -> None:
    proc = run_validate(tmp_path / "nowhere")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "nowhere: folder not found" in proc.stderr


def test_all_errors_of_a_file_are_reported_together(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    for f in (FIXTURES / "good" / "minimal").iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    qa = json.loads((folder / "qa.json").read_text(encoding="utf-8"))
    qa[0]["difficulty"] = "L0"
    qa[1]["query_id"] = [12]
    del qa[3]["question"]
    (folder / "qa.json").write_text(json.dumps(qa, ensure_ascii=False), encoding="utf-8")
    proc = run_validate(folder)
    assert proc.returncode == 2
    assert "record #0 (query_id=doc_01_001), field 'difficulty'" in proc.stderr
    assert "record #1, field 'query_id': must be text (a JSON string), got an array" in proc.stderr
    assert "record #3 (query_id=doc_02_002), field 'question': missing required field" in proc.stderr


@pytest.mark.parametrize("name", ["minimal", "variants"])
def test_good_fixtures_pass_even_strictly(name: str) -> None:
    proc = run_validate(Path("tests/fixtures/good") / name, "--strict")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 documents, 13 triples, 4 questions (L1 1, L2 2, L3 1), 4 gold items" in proc.stdout
    assert "OK: no errors, 0 warnings." in proc.stdout
    assert proc.stderr == ""


def test_warnings_pass_but_fail_with_strict() -> None:
    folder = Path("tests/fixtures/good/warnings")
    proc = run_validate(folder)
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stdout.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 5, proc.stdout
    # an unknown field present in every record is listed once, with a count
    assert "field 'source': unknown field (ignored) (in 4 records)" in proc.stdout
    strict = run_validate(folder, "--strict")
    assert strict.returncode == 1
    assert "failed: 5 warnings and --strict" in strict.stderr


def test_json_report() -> None:
    proc = run_validate("tests/fixtures/good/warnings", "--json", "--strict")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["ok"] is False and report["strict"] is True
    assert report["summary"]["questions_per_level"] == {"L1": 1, "L2": 2, "L3": 1}
    assert report["errors"] == [] and len(report["warnings"]) == 5
    assert {"file", "record", "field", "message", "text"} <= set(report["warnings"][0])

    bad = run_validate("tests/fixtures/bad/bad_difficulty", "--json")
    assert bad.returncode == 2
    report = json.loads(bad.stdout)
    assert report["ok"] is False
    assert [(e["record"], e["field"]) for e in report["errors"]] == [("#1 (query_id=doc_01_002)", "difficulty")]


def test_single_answer_file() -> None:
    ok = run_validate("tests/fixtures/good/minimal/qa_answer.json")
    assert ok.returncode == 0 and "4 answer items" in ok.stdout
    bad = run_validate("tests/fixtures/bad/wrong_type_answers/qa_answer.json")
    assert bad.returncode == 2 and "field 'answers'" in bad.stderr
    wrong_file = run_validate("tests/fixtures/good/minimal/qa.json")
    assert wrong_file.returncode == 2 and "qa.json, record #0: does not hold answer items" in wrong_file.stderr


def test_help_has_an_example() -> None:
    proc = run_validate("--help")
    assert proc.returncode == 0
    assert "kgreason validate examples/sample" in proc.stdout and "--strict" in proc.stdout


def test_bundled_sample_is_valid() -> None:
    """The sample under examples/sample must stay clean: no error and no warning, gold paths included."""
    assert (REPO / "examples" / "sample" / "qa_answer.json").is_file(), "examples/sample is missing"
    proc = run_validate("examples/sample", "--strict")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "OK: no errors, 0 warnings." in proc.stdout
