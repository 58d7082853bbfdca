"""`kgreason extract` as a user runs it: the outputs pass `kgreason validate`, bad input exits 2 naming the file,
record and field (before any model is loaded)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from extract_fakes import scripted_reply

from kgreason.commands import extract as extract_command
from kgreason.data.validate import check_dataset
from kgreason.llm.accounting import AccountedLLM, Accounting
from kgreason.llm.fake import FakeLLM

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample"


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "extract", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=120,
        check=False,
    )


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> FakeLLM:
    fake = FakeLLM(scripted_reply)
    monkeypatch.setattr(extract_command, "open_llm", lambda spec: AccountedLLM(fake, Accounting()))
    return fake


def test_task_folder_to_a_dataset_folder_that_validates(tmp_path: Path, fake_model: FakeLLM) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copyfile(SAMPLE / "document.json", data / "document.json")
    shutil.copyfile(SAMPLE / "qa.json", data / "qa.json")
    out = tmp_path / "out"
    extract_command.extract(data, out, llm_spec="fake", window=3, max_tokens=64)
    docs = [d["doc_id"] for d in json.loads((SAMPLE / "document.json").read_text(encoding="utf-8"))]
    for doc_id in docs:
        kg = json.loads((out / f"KG_{doc_id}.json").read_text(encoding="utf-8"))
        lines = (out / f"provenance_{doc_id}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(kg)
        text = next(
            d["content"]
            for d in json.loads((out / "document.json").read_text(encoding="utf-8"))
            if d["doc_id"] == doc_id
        )
        for line, triple in zip(lines, kg, strict=True):
            p = json.loads(line)
            assert p["triple_id"] == triple["triple_id"] and p["doc_id"] == doc_id
            lo, hi = p["span"]
            assert p["sub_mention"] in text[lo:hi] and p["obj_mention"] in text[lo:hi]
            assert text.find(p["sentence_text"]) >= 0
    report = check_dataset(out, check_gold=False)
    assert report.errors == []
    record = json.loads((out / "extract.run.json").read_text(encoding="utf-8"))
    totals = record["totals"]
    asked = totals["windows"] + totals["reasked"] + totals["retried_windows"]
    assert asked == len([c for c in fake_model.calls if "types" not in c.schema["properties"]])
    assert record["llm_usage"]["total"]["calls"] == len(fake_model.calls) == record["totals"]["llm_calls"]


def test_folder_of_text_files_english_and_chinese(tmp_path: Path, fake_model: FakeLLM) -> None:
    src = tmp_path / "notes"
    src.mkdir()
    (src / "f35.txt").write_text("F-35A于2006年12月15日首飞。洛马即洛克希德·马丁公司。", encoding="utf-8")
    (src / "english.md").write_text("The F-35 was built in the U.S. by Lockheed. It flew in 2006.", encoding="utf-8")
    out = tmp_path / "out"
    extract_command.extract(src, out, llm_spec="fake", window=2, max_tokens=64)
    assert (out / "KG_f35.json").is_file() and (out / "KG_english.json").is_file()
    assert (out / "provenance_f35.jsonl").is_file()
    assert not (out / "qa.json").exists()


def test_missing_source_exits_2_naming_it(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "nowhere", "-o", tmp_path / "out")
    assert r.returncode == 2
    assert "nowhere" in r.stderr and "does not exist" in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_document_record_names_file_record_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "document.json"
    bad.write_text(json.dumps([{"doc_id": "a", "content": "文本。"}, {"doc_id": "b"}]), encoding="utf-8")
    r = run_cli(bad, "-o", tmp_path / "out")
    assert r.returncode == 2
    assert "document.json" in r.stderr and "content" in r.stderr
    assert "Traceback" not in r.stderr


def test_empty_text_file_and_unknown_input_kind_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "empty.txt").write_text("  \n", encoding="utf-8")
    r = run_cli(folder, "-o", tmp_path / "out")
    assert r.returncode == 2 and "empty.txt" in r.stderr and "empty" in r.stderr
    other = tmp_path / "data.csv"
    other.write_text("a,b\n", encoding="utf-8")
    r = run_cli(other, "-o", tmp_path / "out")
    assert r.returncode == 2 and "data.csv" in r.stderr


def test_llm_none_is_refused(tmp_path: Path) -> None:
    r = run_cli(SAMPLE, "-o", tmp_path / "out", "--llm", "none")
    assert r.returncode == 2 and "needs a model" in r.stderr


def test_sigterm_stops_extract_at_once_during_a_model_call(tmp_path: Path) -> None:
    """A model call that hangs 30 s does not hold SIGTERM: extract ends within seconds with exit 130 and says how
    to go on."""
    sys.path.insert(0, str(REPO / "tests"))
    from cli_helpers import sigterm_during_model_call

    out = tmp_path / "out"
    stopped = sigterm_during_model_call(lambda s: ["extract", str(SAMPLE), "-o", str(out), "--llm", s.spec()], tmp_path)
    stderr = stopped.stderr
    assert stopped.returncode == 130, stderr
    assert stopped.seconds < 5, stopped.seconds
    assert "interrupted: extract stopped" in stderr and "Traceback" not in stderr
