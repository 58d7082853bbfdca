"""`kgreason conventions show` / `learn`: output, files written, and bad input as located messages with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from kgreason.cli import app
from kgreason.conventions import default_conventions, load_conventions
from kgreason.errors import DataError

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample"
runner = CliRunner()

EXT_LIKE = [
    {
        "query_id": "doc_01_001",
        "doc_id": "doc_01",
        "question": "甲事件和乙事件哪次死亡人数更多？",
        "answer_type": "事件",
        "answers": ["甲事件"],
        "gold_reasoning_paths_main": [
            ["甲事件", "死亡人数", "20人"],
            ["乙事件", "死亡人数", "14人"],
            ["20人", "大于", "14人"],
        ],
        "gold_reasoning_paths_alt": [],
        "constraints": {"compare": "死亡人数更多"},
        "difficulty": "L2",
    },
    {
        "query_id": "doc_01_002",
        "doc_id": "doc_01",
        "question": "甲舰共搭载了多少架直升机？",
        "answer_type": "数值",
        "answers": ["2架"],
        "gold_reasoning_paths_main": [["甲舰", "搭载直升机数量", "2架"]],
        "gold_reasoning_paths_alt": [],
        "constraints": {},
        "difficulty": "L1",
    },
]


def write_json(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


def test_show_defaults_in_words_and_as_json() -> None:
    result = runner.invoke(app, ["conventions", "show"])
    assert result.exit_code == 0, result.output
    assert "gt: 数值大于; also reads 大于" in result.output
    assert "counts: answer_type 数值, written as a bare number (4)" in result.output
    assert "exclude: exclude" in result.output
    as_json = runner.invoke(app, ["conventions", "show", "--json"])
    assert as_json.exit_code == 0
    assert json.loads(as_json.output) == default_conventions().to_json()


def test_learn_writes_a_file_that_loads(tmp_path: Path) -> None:
    gold = write_json(tmp_path / "qa_answer.json", EXT_LIKE)
    out = tmp_path / "learned.json"
    result = runner.invoke(app, ["conventions", "learn", str(gold), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Learned from 2 gold item(s) (no KG given)." in result.output
    assert f"Conventions written to {out}" in result.output
    conv = load_conventions(out)
    assert conv.relation_for("gt") == "大于" and conv.count_format == "measure_word"
    assert conv.constraint_key("order") == "compare"
    shown = runner.invoke(app, ["conventions", "show", str(out)])
    assert shown.exit_code == 0 and "gt: 大于; also reads 数值大于" in shown.output


def test_learn_from_a_dataset_folder_uses_its_kgs() -> None:
    result = runner.invoke(app, ["conventions", "learn", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    assert "Learned from 47 gold item(s) (47 with their document's KG)." in result.output
    printed = result.output.split("Learned conventions (JSON; -o FILE writes them to a file):\n", 1)[1]
    learned = json.loads(printed)
    learned.pop("description")
    expected = default_conventions().to_json()
    expected.pop("description")
    # the levels a kind is written at are the sample's own (no L1 question has a constraint; no L2 one a place),
    # the defaults' those of the blind held-out sets
    levels = learned.pop("constraint_levels")
    expected.pop("constraint_levels")
    assert learned == expected
    assert levels["time"] == ["L2", "L3"] and levels["place"] == ["L3"] and levels["camp"] == ["L2", "L3"]


def test_bad_files_are_located_errors_with_exit_2(tmp_path: Path) -> None:
    bad_conv = write_json(tmp_path / "conv.json", {"answers": {"count_format": "words"}})
    result = runner.invoke(app, ["conventions", "show", str(bad_conv)])
    assert result.exit_code == 2
    assert f"error: {bad_conv}, field 'answers.count_format': must be one of bare, measure_word" in result.output
    assert "1 problem(s)." in result.output

    gold = write_json(tmp_path / "qa_answer.json", [{**EXT_LIKE[0], "answers": "甲事件"}])
    result = runner.invoke(app, ["conventions", "learn", str(gold)])
    assert result.exit_code == 2
    assert f"error: {gold}, record #0 (query_id=doc_01_001), field 'answers'" in result.output

    result = runner.invoke(app, ["conventions", "learn", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2 and "nowhere.json: file not found" in result.output


def test_unwritable_output_is_an_error_not_a_crash(tmp_path: Path) -> None:
    gold = write_json(tmp_path / "qa_answer.json", EXT_LIKE)
    result = runner.invoke(app, ["conventions", "learn", str(gold), "-o", str(tmp_path)])  # a folder
    assert result.exit_code == 2
    assert "error: cannot write the conventions to" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_no_traceback_from_the_installed_entry_point(tmp_path: Path) -> None:
    bad = tmp_path / "conv.json"
    bad.write_text("{not json", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "conventions", "show", str(bad)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert f"error: {bad}: invalid JSON at line 1, column 2" in proc.stderr


def test_validate_reads_gold_in_learned_conventions(tmp_path: Path) -> None:
    """A key the packaged conventions do not know is a warning; with the learned conventions it is not."""
    import shutil

    data = tmp_path / "data"
    shutil.copytree(SAMPLE, data)
    gold = json.loads((data / "qa_answer.json").read_text(encoding="utf-8"))
    renamed = [
        {**g, "constraints": {("compare" if k == "order" else k): v for k, v in (g.get("constraints") or {}).items()}}
        for g in gold
    ]
    write_json(data / "qa_answer.json", renamed)
    default = runner.invoke(app, ["validate", str(data)])
    assert default.exit_code == 0 and "unknown constraint key 'compare'" in default.output
    learned = tmp_path / "learned.json"
    assert runner.invoke(app, ["conventions", "learn", str(data / "qa_answer.json"), "-o", str(learned)]).exit_code == 0
    with_learned = runner.invoke(app, ["validate", str(data), "--conventions", str(learned)])
    assert with_learned.exit_code == 0 and "unknown constraint key 'compare'" not in with_learned.output
    bad = write_json(tmp_path / "bad.json", {"derived_relations": 5})
    broken = runner.invoke(app, ["validate", str(data), "--conventions", str(bad)])
    # a located DataError, which the installed entry point prints and exits 2 with (as for every command)
    assert isinstance(broken.exception, DataError)
    assert f"{bad}, field 'derived_relations'" in str(broken.exception)
