"""`kgreason mecha report`: one table from several bench result files, fixes/breaks against a baseline, judge
separation, and located errors for files that are not bench results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kgreason.errors import DataError, KgreasonError
from kgreason.mecha.report import format_report, judge_separation, load_results, setup_rows

GOLD = ["灰铸铁", "熔点", "1200℃"]
OTHER = ["灰铸铁", "密度", "7"]


def item(setup: str, index: int, correct: bool, *, llm: bool = False, score: int | None = None) -> dict[str, Any]:
    return {
        "setup": setup,
        "index": index,
        "question": f"问题{index}",
        "answer": "1200℃" if correct else "7",
        "correct": correct,
        "chosen": [GOLD if correct else OTHER],
        "gold_recall": 1.0 if correct else 0.0,
        "precision": 1.0 if correct else 0.0,
        "seconds": 2.0 if llm else 0.001,
        "prompt_tokens": 100 if llm else 0,
        "completion_tokens": 5 if llm else 0,
        "llm_cached": False,
        "llm_score": score,
    }


def write(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"meta": {}, "summary": [], "items": items}, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    # rem: right on 0, 1, 2; wrong on 3.  ours: breaks 2, fixes 3; keeps rem's choice on 2 of its 4 calls.
    rem = [item("rem", i, c, score=s) for i, (c, s) in enumerate([(True, 5), (True, 4), (True, 5), (False, 2)])]
    ours = [
        item("ours", i, c, llm=True, score=s) for i, (c, s) in enumerate([(True, 5), (True, 5), (False, 3), (True, 4)])
    ]
    return [write(tmp_path / "rem.json", rem), write(tmp_path / "ours.json", ours)]


def test_rows_fixes_breaks_and_judge_separation(files: list[Path]) -> None:
    loaded = load_results(files)
    rows = {r.setup: r for r in setup_rows(loaded, "rem")}
    assert rows["rem"].accuracy == 0.75 and rows["rem"].fixed is None and rows["rem"].llm_calls == 0
    ours = rows["ours"]
    assert (ours.fixed, ours.broken) == (1, 1)
    assert ours.same_choice == 0.5 and ours.llm_calls == 4
    assert ours.seconds_per_question == 2.0 and ours.tokens_per_question == 105
    assert ours.llm_score == 4.25 and ours.source.endswith("ours.json")
    sep = judge_separation(loaded)
    assert (sep.right_n, sep.wrong_n) == (6, 2)
    assert sep.right_mean == pytest.approx(28 / 6) and sep.wrong_mean == 2.5
    table = format_report(list(rows.values()), sep, "rem")
    assert "| ours | 4 | 75.00% | 75.0% | 75.0% | 4.250 | 4 | 2.00 | 105 | 1 / 1 | 50% |" in table
    assert "judge: mean LLM-Score 4.667 over 6 right answers, 2.500 over 2 wrong ones" in table
    with pytest.raises(KgreasonError, match="no results for the baseline setup 'bm25'"):
        setup_rows(loaded, "bm25")


def test_bad_result_files_are_located(tmp_path: Path, files: list[Path]) -> None:
    broken = item("x", 0, True)
    broken["correct"] = "yes"
    del broken["seconds"]
    bad = write(tmp_path / "bad.json", [broken, item("x", 1, True, score=9), 3])
    with pytest.raises(DataError) as err:
        load_results([bad])
    where = [(p.record, p.field) for p in err.value.problems]
    assert where == [("item 0", "correct"), ("item 0", "seconds"), ("item 1", "llm_score"), ("item 2", None)]
    assert all(p.file == str(bad) for p in err.value.problems)

    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(DataError, match="not a kgreason mecha bench result"):
        load_results([tmp_path / "list.json"])
    twice = write(tmp_path / "again.json", [item("rem", 0, True)])
    with pytest.raises(DataError, match=r"setup 'rem' is also in .*rem\.json"):
        load_results([*files, twice])


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "mecha", "report", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def test_cli_report_and_errors(tmp_path: Path, files: list[Path]) -> None:
    out = tmp_path / "report.json"
    proc = cli(*map(str, files), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "| ours | 4 | 75.00% |" in proc.stdout and "vs rem: fixed / broken" in proc.stdout
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["baseline"] == "rem" and [r["setup"] for r in saved["rows"]] == ["rem", "ours"]

    only_ours = cli(str(files[1]))  # the default baseline is missing: said, and the columns left out
    assert only_ours.returncode == 0 and "baseline 'rem' is not in these files" in only_ours.stderr
    assert "fixed / broken" not in only_ours.stdout

    (tmp_path / "cut.json").write_text('{"items": [', encoding="utf-8")
    bad = cli(str(tmp_path / "cut.json"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "cut.json" in bad.stderr and "invalid JSON at line 1" in bad.stderr
    missing = cli(str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "nope.json: file not found" in missing.stderr
