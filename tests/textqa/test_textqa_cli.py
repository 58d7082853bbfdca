"""`kgreason textqa convert|score|run` as a user runs them: a subprocess, its exit code, stdout and stderr."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from textqa_samples import HOTPOT, write_json

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cli_helpers import REPO, chat_server, child_env, kgreason_argv


def kgreason(tmp: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        kgreason_argv("textqa", *map(str, args)),
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        env=child_env(tmp),
        timeout=180,
        check=False,
    )


def test_convert_writes_the_unified_format_and_warns_once(tmp_path: Path) -> None:
    records = copy.deepcopy(HOTPOT)
    for r in records:
        r["context"] = repr(r["context"])
    proc = kgreason(tmp_path, "convert", write_json(tmp_path / "h.json", records), tmp_path / "u.json")
    assert proc.returncode == 0, proc.stderr
    assert "2 hotpotqa item(s)" in proc.stdout
    assert proc.stderr.count("warning:") == 1 and "'context' stored as a string" in proc.stderr
    unified = json.loads((tmp_path / "u.json").read_text(encoding="utf-8"))
    assert [u["id"] for u in unified] == ["h1", "h2"] and set(unified[0]) >= {"hop", "chunks", "supporting_facts"}


def test_bad_input_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    records = copy.deepcopy(HOTPOT)
    records[1]["context"] = [["Film X"]]
    proc = kgreason(tmp_path, "convert", write_json(tmp_path / "bad.json", records), tmp_path / "u.json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "bad.json, record #1, field 'context[0]'" in proc.stderr
    assert not (tmp_path / "u.json").exists()


def test_score_prints_and_writes_json(tmp_path: Path) -> None:
    gold = write_json(tmp_path / "gold.json", HOTPOT)
    pred = write_json(
        tmp_path / "pred.json",
        {"answer": {"h1": "Lyon", "h2": "no"}, "sp": {"h1": [["Film X", 0], ["Anne Dupont", 1]], "h2": []}},
    )
    proc = kgreason(tmp_path, "score", pred, gold, "--json", tmp_path / "s.json")
    assert proc.returncode == 0, proc.stderr
    assert "hotpotqa: 2 question(s)" in proc.stdout and "em 0.500" in proc.stdout and "sp_f1 0.500" in proc.stdout
    assert json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["metrics"]["joint_em"] == 0.5


def test_run_needs_a_model_and_says_the_kg_path_needs_the_extractor(tmp_path: Path) -> None:
    data = write_json(tmp_path / "h.json", HOTPOT)
    proc = kgreason(tmp_path, "run", data, "-o", tmp_path / "out", "--llm", "none")
    assert proc.returncode == 2 and "needs a model" in proc.stderr
    # A server whose replies do not fit the reader's schema: every answer fails, the run says so and exits 3, and
    # the outputs are written (Unavailable).
    with chat_server(lambda n: "ok") as server:
        proc = kgreason(tmp_path, "run", data, "-o", tmp_path / "out", "--llm", server.spec(), "--retriever", "bm25")
    assert proc.returncode == 3, proc.stderr
    assert "KG path (b) not run" in proc.stderr and "[2/2] h2" in proc.stderr
    answers = json.loads((tmp_path / "out/baseline/answers.json").read_text(encoding="utf-8"))
    assert [a["final_answer"] for a in answers] == ["Unavailable", "Unavailable"]
    assert "2 answer(s) without a model reply" in proc.stdout


def test_run_second_round_and_by_parts_options_reach_the_journal(tmp_path: Path) -> None:
    # The reader's behaviour is tested with a fake model (test_textqa_support.py, test_textqa_by_parts.py); here:
    # the options are the run's.
    data = write_json(tmp_path / "h.json", HOTPOT)
    with chat_server(lambda n: "ok") as server:
        args = ["run", data, "-o", tmp_path / "out", "--llm", server.spec(), "--limit", "1"]
        proc = kgreason(tmp_path, *args, "--second-round", "--compare-by-parts")
        again = kgreason(tmp_path, *args, "--compare-by-parts")
        other = kgreason(tmp_path, *args, "--second-round", "--no-compare-by-parts")
        bridge = kgreason(tmp_path, *args, "--second-round", "--compare-by-parts", "--no-bridge-by-parts")
    assert proc.returncode == 3, proc.stderr
    first = json.loads((tmp_path / "out/textqa.journal.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["settings"]["second_round"] is True and first["settings"]["compare_by_parts"] is True
    assert first["settings"]["bridge_by_parts"] is True
    assert again.returncode == 2 and "second_round: true -> false" in again.stderr
    assert other.returncode == 2 and "compare_by_parts: true -> false" in other.stderr
    assert bridge.returncode == 2 and "bridge_by_parts: true -> false" in bridge.stderr


def test_run_refuses_an_unknown_context(tmp_path: Path) -> None:
    data = write_json(tmp_path / "h.json", HOTPOT)
    proc = kgreason(tmp_path, "run", data, "-o", tmp_path / "out", "--context", "chapters")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--context must be one of paragraphs, sentences, got 'chapters'" in proc.stderr
    assert not (tmp_path / "out").exists()
