"""`kgreason run --workers N` as a person runs it: against a served model the output is the same as with one worker,
the progress shows the questions in flight, and with no served model it says once that it answers one at a time."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_helpers import SAMPLE, chat_server, child_env, kgreason_argv


def run(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        kgreason_argv("run", str(SAMPLE), *args),
        env=child_env(tmp, KGREASON_LLM_CACHE="off", **env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_served_model_with_workers_writes_what_one_worker_writes(tmp_path: Path) -> None:
    with chat_server(lambda n: 0.05) as server:
        one = run(tmp_path, "-o", str(tmp_path / "one"), "--llm", server.spec(), "--limit", "20")
        asked_by_one = len(server.questions)
        four = run(tmp_path, "-o", str(tmp_path / "four"), "--llm", server.spec(), "--limit", "20", "--workers", "4")
    assert one.returncode == 0 and four.returncode == 0, four.stderr
    assert asked_by_one >= 2 and len(server.questions) == 2 * asked_by_one  # the same calls, none repeated
    assert (tmp_path / "four" / "result.json").read_bytes() == (tmp_path / "one" / "result.json").read_bytes()
    record = json.loads((tmp_path / "four" / "result.run.json").read_text(encoding="utf-8"))
    assert record["summary"]["answered"] == 20 and record["status"] == "complete"
    assert "one at a time" not in four.stderr


def test_workers_without_a_served_model_say_so_once_and_answer_serially(tmp_path: Path) -> None:
    done = run(tmp_path, "-o", str(tmp_path / "x"), "--llm", "none", "--limit", "5", "--workers", "4")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("--workers 4: --llm none: no model to wait for") == 1
    assert len(json.loads((tmp_path / "x" / "result.json").read_text(encoding="utf-8"))) == 5


def test_zero_workers_is_refused(tmp_path: Path) -> None:
    done = run(tmp_path, "-o", str(tmp_path / "x"), "--llm", "none", "--workers", "0")
    assert done.returncode == 2
    assert "--workers must be 1 or more, got 0" in done.stderr and "Traceback" not in done.stderr


def test_progress_shows_the_oldest_question_in_flight_and_how_many_more() -> None:
    import io

    from rich.console import Console

    from kgreason.commands.run_progress import RunProgress
    from kgreason.data.records import Question

    qs = [Question(f"q{i}", "doc_01", f"问题{i}是什么？", "L1") for i in range(3)]
    progress = RunProgress(Console(file=io.StringIO(), width=100), live=False)
    progress.start(3, 0)
    for q in qs:
        progress.begin(q)
    assert progress.status_line().endswith("now q0 问题0是什么？ (+2 more in flight)")
    progress.finished(qs[0], {})
    assert progress.status_line().endswith("now q1 问题1是什么？ (+1 more in flight)")
    assert progress.status_line().startswith("answered 1/3")


def test_shards_run_apart_merge_into_the_single_runs_output(tmp_path: Path) -> None:
    whole = run(tmp_path, "-o", str(tmp_path / "whole"), "--llm", "none")
    assert whole.returncode == 0, whole.stderr
    parts = []
    for k in (1, 2, 3):
        part = run(tmp_path, "-o", str(tmp_path / f"part{k}"), "--llm", "none", "--shard", f"{k}/3")
        assert part.returncode == 0, part.stderr
        parts.append(str(tmp_path / f"part{k}"))
    sizes = [len(json.loads((Path(p) / "result.json").read_text(encoding="utf-8"))) for p in parts]
    assert sum(sizes) == 47 and max(sizes) - min(sizes) <= 1
    env = child_env(tmp_path)
    merged = subprocess.run(kgreason_argv("merge", str(SAMPLE), *parts[:2], "-o", str(tmp_path / "all")),
                            env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert merged.returncode == 0, merged.stderr
    assert f"{sizes[2]} question(s) not answered by any shard" in merged.stderr
    merged = subprocess.run(kgreason_argv("merge", str(SAMPLE), *parts, "-o", str(tmp_path / "all")),
                            env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert merged.returncode == 0 and "merged 47 of 47 questions from 3 shard(s)" in merged.stderr
    assert (tmp_path / "all" / "result.json").read_bytes() == (tmp_path / "whole" / "result.json").read_bytes()
    again = run(tmp_path, "-o", str(tmp_path / "all"), "--llm", "none")  # a resume of the merged journal
    assert again.returncode == 0 and "0 answered, 47 resumed" in again.stderr


def test_merge_refuses_shards_of_other_settings(tmp_path: Path) -> None:
    a = run(tmp_path, "-o", str(tmp_path / "a"), "--llm", "none", "--shard", "1/2")
    b = run(tmp_path, "-o", str(tmp_path / "b"), "--llm", "none", "--shard", "2/2", "--max-hops", "2")
    assert a.returncode == 0 and b.returncode == 0
    merged = subprocess.run(kgreason_argv("merge", str(SAMPLE), str(tmp_path / "a"), str(tmp_path / "b"), "-o",
                                          str(tmp_path / "all")), env=child_env(tmp_path), capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    assert merged.returncode == 2 and "config.max_hops: 4 -> 2" in merged.stderr
    assert not (tmp_path / "all").exists()
    bad = run(tmp_path, "-o", str(tmp_path / "c"), "--llm", "none", "--shard", "3/2")
    assert bad.returncode == 2 and "--shard must be K/N with 1 <= K <= N" in bad.stderr


def test_sigterm_with_questions_in_flight_writes_what_finished_and_the_resume_asks_only_the_rest(
    tmp_path: Path,
) -> None:
    import signal
    import time

    with chat_server(lambda n: 0.0) as server:
        reference = run(tmp_path, "-o", str(tmp_path / "ref"), "--llm", server.spec())
        calls_for_all = len(server.questions)
    assert reference.returncode == 0 and calls_for_all >= 4
    out = tmp_path / "out"
    slow = [True]  # the first run's model hangs from its 3rd call on; the resumed run's answers at once
    with chat_server(lambda n: 20.0 if slow[0] and n >= 2 else 0.0) as server:
        env = child_env(tmp_path, KGREASON_LLM_CACHE="off")
        argv = kgreason_argv("run", str(SAMPLE), "-o", str(out), "--llm", server.spec(), "--workers", "4")
        first = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        while len(server.questions) < 3:  # one call hangs now
            time.sleep(0.05)
        time.sleep(1.0)  # the questions after it finish meanwhile
        sent = time.monotonic()
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=60)
        assert first.returncode == 130 and time.monotonic() - sent < 5.0, stderr
        lines = [json.loads(x) for x in (out / "result.trace.jsonl").read_text(encoding="utf-8").splitlines()]
        done = [e["query_id"] for e in lines if e.get("status") == "ok"]
        written = [r["query_id"] for r in json.loads((out / "result.json").read_text(encoding="utf-8"))]
        assert sorted(written) == sorted(done) and 2 < len(done) < 47
        asked_first = len(server.questions)
        slow[0] = False
        resumed = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        assert resumed.returncode == 0, resumed.stderr
        assert f"{len(done)} resumed" in resumed.stderr
        asked_again = server.questions[asked_first:]
    # Only questions the first run did not finish are asked again. (How many calls that is depends on timing: on a
    # loaded machine a question whose reply came before the stop may still have been finishing its own work.)
    texts = {q["query_id"]: q["question"] for q in json.loads((SAMPLE / "qa.json").read_text(encoding="utf-8"))}
    finished = {texts[query_id] for query_id in done}
    again = {json.loads(line.removeprefix("问题：")) for line in asked_again if line.startswith("问题：")}
    assert again and not again & finished, again & finished
    assert (out / "result.json").read_bytes() == (tmp_path / "ref" / "result.json").read_bytes()
