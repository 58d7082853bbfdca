"""`kgreason run` as a newcomer meets it: where -o writes, what happens when the model is down, Ctrl-C, the run
record across reruns, and what the progress shows — through the real command (pipes or a pseudo-terminal)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.cells import cell_len

from cli_helpers import SAMPLE, chat_server, child_env, kgreason_argv, run_in_pty
from kgreason.commands.run_output import resolve_output
from kgreason.reason.runner import settings_diff

pytestmark = pytest.mark.timeout(300)


def kgreason(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(kgreason_argv(*args), capture_output=True, text=True, timeout=240, env=child_env(tmp, **env))


def files_under(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


# --- -o: a folder or a file, checked before any work -------------------------------------------------------------


def test_o_naming_an_existing_folder_writes_inside_it(tmp_path: Path) -> None:
    out = tmp_path / "runs" / "x" / "none"
    out.mkdir(parents=True)  # as an earlier demo leaves it
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", "none", "--limit", "25")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    assert files_under(out) == ["result.json", "result.run.json", "result.trace.jsonl"]
    assert len(json.loads((out / "result.json").read_text(encoding="utf-8"))) == 25


def test_o_without_extension_is_a_new_folder(tmp_path: Path) -> None:
    out = tmp_path / "runs" / "sample"
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", "none", "--limit", "2")
    assert p.returncode == 0, p.stderr
    assert (out / "result.json").is_file() and (out / "result.trace.jsonl").is_file()


def test_resolve_output_rules(tmp_path: Path) -> None:
    (tmp_path / "d.json").mkdir()
    assert resolve_output(str(tmp_path / "r.json")) == tmp_path / "r.json"
    assert resolve_output(str(tmp_path / "runs" / "none")) == tmp_path / "runs" / "none" / "result.json"
    assert resolve_output(str(tmp_path / "v1.2") + "/") == tmp_path / "v1.2" / "result.json"
    assert resolve_output(str(tmp_path / "d.json")) == tmp_path / "d.json" / "result.json"


def test_o_under_a_file_fails_at_once_and_creates_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x", encoding="utf-8")
    t0 = time.monotonic()
    # an unreachable model: had the path check come after loading it, this would fail otherwise (or later)
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(blocker / "run" / "result.json"), "--llm", "embedded")
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert f"{blocker} is a file, not a folder" in p.stderr
    assert time.monotonic() - t0 < 30
    assert files_under(tmp_path) == ["cache", "notes.txt"] or files_under(tmp_path) == ["notes.txt"]


@pytest.mark.skipif(os.access("/sys", os.W_OK) and not Path("/sys/class").exists(), reason="no read-only /sys here")
def test_unwritable_output_is_a_clear_error(tmp_path: Path) -> None:
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", "/sys/kgreason-test/out", "--llm", "none")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "-o /sys/kgreason-test/out/result.json: cannot write in /sys" in p.stderr


def _mount_tiny_tmpfs(path: Path, size: str) -> bool:
    path.mkdir()
    if os.geteuid() != 0:
        return False
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True)
    return res.returncode == 0


def _fill(disk: Path) -> None:
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"x" * 4096):
            pass
    except OSError:
        pass  # full
    finally:
        os.close(fd)


@pytest.mark.parametrize("when", ["at-start", "mid-run"])
def test_disk_full_while_writing_is_a_clear_error_without_stray_files(tmp_path: Path, when: str) -> None:
    disk = tmp_path / "disk"
    if not _mount_tiny_tmpfs(disk, "48k"):
        pytest.skip("needs root to mount a tiny tmpfs (a full disk)")
    try:
        if when == "at-start":
            _fill(disk)
        p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(disk / "out"), "--llm", "none")
        assert p.returncode == 2, p.stderr
        assert "Traceback" not in p.stderr
        assert "No space left on device" in p.stderr and "rerun the same command to resume" in p.stderr
        left = files_under(disk)
        assert not [f for f in left if f.endswith(".tmp") or "probe" in f]  # no half-written temporary files
        if when == "at-start":  # full before the first answer: nothing worth keeping is left behind
            assert [f for f in left if f.endswith(".jsonl")] == []
        else:  # full mid-run: the trace keeps the answers for the resume the message offers
            assert "out/result.trace.jsonl" in left
    finally:
        subprocess.run(["umount", str(disk)], check=False)


# --- a model that is down: exit status, retry on resume, the run record ------------------------------------------


def test_model_down_exits_3_and_a_rerun_asks_the_fallback_questions_again(tmp_path: Path) -> None:
    state = {"down": True}
    out = tmp_path / "out"
    with chat_server(lambda n: "down" if state["down"] else "ok") as server:
        env = {"KGREASON_LLM_CACHE": "off"}
        p1 = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", server.spec(), **env)
        assert p1.returncode == 3, p1.stderr
        assert "answer(s) are the program's fallback because the model call failed" in p1.stderr
        asked = len(server.questions)
        assert asked > 0
        fallback = json.loads((out / "result.run.json").read_text(encoding="utf-8"))["summary"]["fallback"]
        assert fallback > 0

        # the same command, --no-retry-failed: nothing asked, and the status still says the answers fell back
        p2 = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", server.spec(), "--no-retry-failed", **env)
        assert p2.returncode == 3 and len(server.questions) == asked, p2.stderr

        state["down"] = False  # the server is back: the same command asks those questions again
        p3 = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", server.spec(), **env)
        assert p3.returncode == 0, p3.stderr
        assert f"{fallback} fallback answers asked again" in p3.stderr
        assert len(server.questions) > asked

        p4 = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", server.spec(), **env)
        assert p4.returncode == 0 and "47 resumed" in p4.stderr, p4.stderr

    record = json.loads((out / "result.run.json").read_text(encoding="utf-8"))
    assert [a["exit_code"] for a in record["attempts"]] == [3, 3, 0, 0]
    assert record["status"] == "complete" and record["summary"]["fallback"] == 0
    # the first attempt's accounting is kept, and the totals add every attempt's calls up
    calls = [a["llm_accounting"]["total"]["calls"] for a in record["attempts"]]
    assert calls[0] > 0 and calls[1] == 0 and calls[3] == 0
    assert record["llm_accounting"]["total"]["calls"] == sum(calls)
    # every call failed: at the server, or not sent once the circuit breaker opened (kgreason.llm.breaker)
    by_kind = record["llm_accounting"]["total"]["failures_by_kind"]
    assert set(by_kind) <= {"server_error", "circuit_open"} and sum(by_kind.values()) == calls[0]
    assert record["summary"]["answered"] == sum(a["summary"]["answered"] for a in record["attempts"])


def test_no_resume_starts_a_new_run_record(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for extra in ([], [], ["--no-resume"]):
        p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", "none", "--limit", "3", *extra)
        assert p.returncode == 0, p.stderr
    record = json.loads((out / "result.run.json").read_text(encoding="utf-8"))
    assert len(record["attempts"]) == 1 and record["summary"]["answered"] == 3


def test_settings_diff_names_exactly_the_changed_keys() -> None:
    conv = {"derived": {"greater": "数值大于", "less": "数值小于"}, "count_unit": True}
    earlier = {"llm": "none", "config": {"max_hops": 3, "beam": 48}, "conventions": conv}
    now = {
        "llm": "none",
        "config": {"max_hops": 3, "beam": 32},
        "conventions": {**conv, "derived": {**conv["derived"], "greater": "大于"}},
    }
    assert settings_diff(earlier, now) == 'config.beam: 48 -> 32; conventions.derived.greater: "数值大于" -> "大于"'
    assert settings_diff({"llm": "none"}, {"llm": "none", "relations": "learned"}) == (
        'relations: (not set) -> "learned"'
    )


# --- a pseudo-terminal: progress, Ctrl-C ------------------------------------------------------------------------


def _first_question_line(server_question: str) -> str:
    return server_question.removeprefix("问题：").lstrip('"')[:6]  # prompts quote the question as JSON


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_ctrl_c_mid_run_stops_at_once_and_writes_what_is_done(tmp_path: Path) -> None:
    out = tmp_path / "out"
    state = {"resumed": False}
    # the first model call answers, the second hangs (a model call in flight when the user presses Ctrl-C)
    with chat_server(lambda n: "ok" if n == 0 or state["resumed"] else 120.0) as server:
        argv = kgreason_argv("run", str(SAMPLE), "-o", str(out), "--llm", server.spec())
        env = child_env(tmp_path, KGREASON_LLM_CACHE="off")
        with run_in_pty(argv, env, cols=80) as term:
            hanging = lambda: len(server.questions) >= 2  # noqa: E731
            deadline = time.monotonic() + 120
            while not hanging() and time.monotonic() < deadline:
                term.read(0.2)
            assert hanging(), term.text
            in_flight = _first_question_line(server.questions[1])
            # the progress shows the question being worked on, not the last one finished
            assert term.read_until(lambda t: in_flight in t, 10), term.text
            t0 = time.monotonic()
            term.ctrl_c()
            status = term.wait(10)
            stopped_in = time.monotonic() - t0
            screen = term.text
        items = json.loads((out / "result.json").read_text(encoding="utf-8"))
        state["resumed"] = True  # the same command resumes: what was written is not asked again
        p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", server.spec(), KGREASON_LLM_CACHE="off")
    assert status == 130, screen
    assert stopped_in < 5, stopped_in
    assert "interrupted:" in screen and "rerun the same command to resume" in screen
    assert "Traceback" not in screen
    assert 0 < len(items) < 20  # fewer than the periodic save: written because of the interruption
    assert p.returncode == 0, p.stderr
    assert f"{len(items)} resumed" in p.stderr
    record = json.loads((out / "result.run.json").read_text(encoding="utf-8"))
    assert [(a["status"], a["exit_code"]) for a in record["attempts"]] == [("interrupted", 130), ("complete", 0)]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
def test_ctrl_c_without_a_model_call_in_flight_stops_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with chat_server(lambda n: 0.3) as server:  # every call takes 0.3 s: it ends within the grace period
        argv = kgreason_argv("run", str(SAMPLE), "-o", str(out), "--llm", server.spec())
        with run_in_pty(argv, child_env(tmp_path, KGREASON_LLM_CACHE="off"), cols=100) as term:
            assert term.read_until(lambda t: "answering" in t, 60), term.text
            deadline = time.monotonic() + 60
            while len(server.questions) < 2 and time.monotonic() < deadline:
                term.read(0.2)
            term.ctrl_c()
            status = term.wait(10)
            screen = term.text
    assert status == 130, screen
    assert "interrupted:" in screen
    assert json.loads((out / "result.json").read_text(encoding="utf-8"))
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", "none")
    assert p.returncode == 2  # other settings are still refused after an interruption


def test_sigterm_mid_run_writes_what_is_done_and_the_rerun_loses_nothing(tmp_path: Path) -> None:
    """A scheduler's SIGTERM in the middle of a run (a model call in flight): handled as Ctrl-C — the answers so far
    are in result.json, and the same command resumes without asking any of them again."""
    out = tmp_path / "run"
    with chat_server(lambda n: 0.4) as server:  # every model call takes 0.4 s
        argv = kgreason_argv("run", str(SAMPLE), "-o", str(out), "--llm", server.spec())
        env = child_env(tmp_path, KGREASON_LLM_CACHE="off")
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while len(server.questions) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 130, stderr
        assert "interrupted:" in stderr and "Traceback" not in stderr
        written = json.loads((out / "result.json").read_text(encoding="utf-8"))
        traced = [json.loads(line) for line in (out / "result.trace.jsonl").read_text(encoding="utf-8").splitlines()]
        answered = {e["query_id"] for e in traced if e.get("status") == "ok"}
        assert 0 < len(written) < 47 and {item["query_id"] for item in written} == answered
        asked_before = len(server.questions)
        again = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"{len(answered)} resumed" in again.stderr
    final = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert len(final) == 47 and len(server.questions) > asked_before


def test_progress_lines_without_a_terminal_name_the_question_in_flight(tmp_path: Path) -> None:
    with chat_server(lambda n: 0.2) as server:
        p = kgreason(
            tmp_path, "run", str(SAMPLE), "-o", str(tmp_path / "out"), "--llm", server.spec(), KGREASON_LLM_CACHE="off"
        )
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert lines[0].startswith("answering 47 question(s)")
    assert any(line.startswith("answered 0/47") and "now doc_01_001 " in line for line in lines)
    assert any(line.startswith("answered 47/47") and "LLM " in line for line in lines)
    # tokens are stated once, by the model accounting (the summary line used to count cached replies' tokens too)
    assert len([line for line in lines if "tokens" in line]) == 1
    assert next(line for line in lines if "tokens" in line).startswith("LLM: ")


# --- kgreason score in an 80-column terminal ----------------------------------------------------------------------


def _lines_wider_than(text: str, cols: int) -> list[str]:
    return [line for line in text.splitlines() if cell_len(line) > cols]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")
@pytest.mark.parametrize("extra", [[], ["--per-question"]])
def test_score_tables_fit_80_columns(tmp_path: Path, extra: list[str]) -> None:
    gold = SAMPLE / "qa_answer.json"
    argv = kgreason_argv("score", "--pred", str(gold), "--gold", str(gold), *extra)
    with run_in_pty(argv, child_env(tmp_path), cols=80, rows=200) as term:
        assert term.wait(60) == 0, term.text
        screen = term.text
    assert "Total score 47.0000 over 47 question(s)" in screen
    for title in ("Overall and per level", "Per answer type", "Answer and evidence", "Reasoning and constraint"):
        assert title in screen
    assert "实体集合" in screen  # a Chinese group name, two cells a character
    assert not _lines_wider_than(screen, 80)
    assert "…" not in screen  # no cell cut short
    assert screen.count("1.000") > 50
    if extra:
        assert "doc_04_008" in screen and "Evid." in screen


def test_score_wide_shows_every_column(tmp_path: Path) -> None:
    gold = SAMPLE / "qa_answer.json"
    p = kgreason(tmp_path, "score", "--pred", str(gold), "--gold", str(gold), "--per-question", "--wide")
    assert p.returncode == 0, p.stderr
    assert "Sub-metrics (means)" in p.stdout
    header = next(line for line in p.stdout.splitlines() if "query_id" in line)
    for head in ("type", "P_t", "R_t", "TM", "Pars", "path", "Node", "Order", "Hop", "P_c", "R_c", "F1_c"):
        assert head in header


# --- help, version, validate ---------------------------------------------------------------------------------------


def test_version_flag(tmp_path: Path) -> None:
    p = kgreason(tmp_path, "--version")
    assert p.returncode == 0 and p.stdout.startswith("kgreason ") and p.stdout.split()[1][0].isdigit()


def test_help_shows_flags_without_type_tags_and_keeps_brackets(tmp_path: Path) -> None:
    run_help = kgreason(tmp_path, "run", "--help", COLUMNS="120").stdout
    assert "<bool>" not in run_help
    assert run_help.splitlines()[0].endswith(" run [OPTIONS] DATA_DIR")  # not {DATA_DIR}
    assert "--no-resume " in run_help and "--retry-failed / --no-retry-failed" in run_help
    assert "    kgreason run examples/sample -o runs/sample --llm none\n" in run_help  # examples not re-wrapped
    bench_help = kgreason(tmp_path, "mecha", "bench", "--help", COLUMNS="120").stdout
    assert "[s, r, o]" in bench_help


def test_validate_a_missing_folder_prints_only_the_error(tmp_path: Path) -> None:
    p = kgreason(tmp_path, "validate", str(tmp_path / "nowhere"))
    assert p.returncode == 2
    assert "folder not found" in p.stderr
    assert "0 documents" not in p.stdout + p.stderr


def test_ctrl_c_in_any_command_says_interrupted_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI framework would turn Ctrl-C into a silent exit; the entry point says what happened."""
    from kgreason import cli
    from kgreason.commands import validate

    def ctrl_c(*args: object, **kwargs: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the signal arrives before this ends

    monkeypatch.setattr(validate, "check_dataset", ctrl_c)
    monkeypatch.setattr(sys, "argv", ["kgreason", "validate", str(SAMPLE)])
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 130
    assert "interrupted" in capsys.readouterr().err
    assert signal.getsignal(signal.SIGINT) is before  # the handler is put back


def test_read_question_is_a_run_setting(tmp_path: Path) -> None:
    out = tmp_path / "out"
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", "none", "--limit", "1", "--read-question")
    assert p.returncode == 0, p.stderr
    record = json.loads((out / "result.run.json").read_text(encoding="utf-8"))
    assert record["settings"]["config"]["llm_reads_question"] is True
    # another setting: a resume without the flag is refused rather than mixing the two
    p = kgreason(tmp_path, "run", str(SAMPLE), "-o", str(out), "--llm", "none", "--limit", "1")
    assert p.returncode == 2 and "config.llm_reads_question: true -> false" in p.stderr, p.stderr
