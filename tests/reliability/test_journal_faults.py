"""Fault catalogue, the run's journal: a trace cut inside a UTF-8 character (disk full, power loss) or inside its
JSON keeps every finished answer on resume; only the damaged line's question is answered again, with one warning."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from faults import SAMPLE, kgreason, load, no_traceback, sample_copy

from kgreason.reason.runner import journal_line, read_journal_full


def _finished_run(tmp_path: Path) -> tuple[Path, Path, Path]:
    data = sample_copy(tmp_path)
    out = tmp_path / "run" / "result.json"
    proc = kgreason("run", data, "-o", out, "--llm", "none", "--limit", "6")
    assert proc.returncode == 0, proc.stderr
    return data, out, out.with_name("result.trace.jsonl")


@pytest.mark.parametrize("cut", ["inside_utf8", "inside_json", "garbage_tail"])
def test_torn_last_line_is_dropped_and_only_its_question_redone(tmp_path: Path, cut: str) -> None:
    data, out, trace = _finished_run(tmp_path)
    raw = trace.read_bytes()
    lines = raw.splitlines(keepends=True)
    last = lines[-1]
    lost_qid = json.loads(last)["query_id"]
    if cut == "inside_utf8":
        at = last.index("的".encode()) + 1  # inside the 3 bytes of a Chinese character
        damaged = last[:at]
    elif cut == "inside_json":
        damaged = last[: len(last) // 2]
    else:
        damaged = b"\x00\x00\xff\xfe" * 8 + b"\n"
    trace.write_bytes(b"".join(lines[:-1]) + damaged)
    kept = {json.loads(line)["query_id"]: json.loads(line) for line in lines[1:-1]}

    proc = kgreason("run", data, "-o", out, "--llm", "none", "--limit", "6")
    no_traceback(proc)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("damaged line") == 1 and f"line {len(lines)}" in proc.stderr
    assert "1 answered, 5 resumed" in proc.stderr  # only the torn question was answered again
    entries = [json.loads(line) for line in trace.read_bytes().splitlines()]  # every line is valid again
    answers = [e["query_id"] for e in entries if e.get("status") == "ok"]
    assert sorted(answers) == sorted([*kept, lost_qid]) and len(answers) == len(set(answers)) == 6
    for qid, entry in kept.items():  # finished answers kept as they were
        assert next(e for e in entries if e.get("query_id") == qid) == entry
    assert len(load(out)) == 6

    again = kgreason("run", data, "-o", out, "--llm", "none", "--limit", "6")  # the damage is gone: no warning
    assert again.returncode == 0 and "damaged" not in again.stderr and "0 answered, 6 resumed" in again.stderr


def test_damaged_line_in_the_middle_is_listed_and_its_neighbours_kept(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    answer = load(SAMPLE / "qa_answer.json")[0]
    good = {"query_id": answer["query_id"], "status": "ok", "answer": answer}
    trace.write_bytes(b"\xe6\xad\n" + journal_line(good).encode())
    journal = read_journal_full(trace)
    assert journal.damaged == [1] and journal.torn_tail_at is None
    assert list(journal.done) == [answer["query_id"]]


def test_journal_line_survives_a_lone_surrogate_from_a_model() -> None:
    line = journal_line({"query_id": "q", "llm": {"reason": "reply \ud800"}})
    line.encode("utf-8")  # no UnicodeEncodeError
    assert json.loads(line)["llm"]["reason"] == "reply \ud800"


def test_atomic_json_survives_a_lone_surrogate(tmp_path: Path) -> None:
    from kgreason.data.jsonio import write_json_atomic

    out = tmp_path / "r.json"
    write_json_atomic(out, {"failures": ["model said \ud800"]})
    assert json.loads(out.read_bytes().decode("utf-8")) == {"failures": ["model said \ud800"]}


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    from kgreason.data.jsonio import write_json_atomic

    old = os.umask(umask)
    try:
        write_json_atomic(tmp_path / "r.json", [1])
        with (tmp_path / "t.jsonl").open("a") as fh:  # how the trace is opened
            fh.write("x\n")
    finally:
        os.umask(old)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == mode
    assert (tmp_path / "t.jsonl").stat().st_mode & 0o777 == mode  # the same as the trace


def test_a_run_removes_temporaries_left_by_a_killed_save(tmp_path: Path) -> None:
    data = sample_copy(tmp_path)
    out = tmp_path / "run" / "result.json"
    out.parent.mkdir()
    stray = out.parent / ".result.json.abc123.tmp"
    stray.write_text("[", encoding="utf-8")
    other = out.parent / ".other.json.abc123.tmp"  # not this output's: left alone
    other.write_text("[", encoding="utf-8")
    proc = kgreason("run", data, "-o", out, "--llm", "none", "--limit", "2")
    assert proc.returncode == 0, proc.stderr
    assert not stray.exists() and other.exists() and len(load(out)) == 2
