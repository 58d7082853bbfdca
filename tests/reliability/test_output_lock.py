"""Fault catalogue, concurrent runs: one output, one writer. A second run to the same output (same or other
settings) is refused with a message naming the running one; a lock left by a killed run is taken over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from faults import REPO, kgreason, load, no_traceback, sample_copy

from kgreason.data.outlock import exclusive_outputs, lock_path_for
from kgreason.errors import KgreasonError


@pytest.mark.parametrize("other_settings", [False, True])
def test_second_run_is_refused_and_names_the_first(tmp_path: Path, other_settings: bool) -> None:
    data = sample_copy(tmp_path)
    out = tmp_path / "run" / "result.json"
    trace = out.with_name("result.trace.jsonl")
    with exclusive_outputs(out, trace):  # "the first run", holding the output
        args = ["run", data, "-o", out, "--llm", "none"] + (["--beam", "3"] if other_settings else [])
        proc = kgreason(*args)
    no_traceback(proc)
    assert proc.returncode == 2
    assert f"{out} is being written by another run (pid {os.getpid()}" in proc.stderr
    assert not trace.exists() and not out.exists()  # the refused run wrote nothing
    assert not lock_path_for(out).exists()  # released by the holder
    ok = kgreason("run", data, "-o", out, "--llm", "none")  # once the first run is over, the output is free
    assert ok.returncode == 0, ok.stderr
    assert len(load(out)) == len(load(data / "qa.json"))


def test_a_shared_trace_is_locked_too(tmp_path: Path) -> None:
    data = sample_copy(tmp_path)
    trace = tmp_path / "shared.trace.jsonl"
    with exclusive_outputs(tmp_path / "a.json", trace):
        proc = kgreason("run", data, "-o", tmp_path / "b.json", "--trace", trace, "--llm", "none")
    assert proc.returncode == 2 and f"{trace} is being written by another run" in proc.stderr


def test_lock_of_a_killed_run_is_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from kgreason.data.outlock import exclusive_outputs\n"
            "with exclusive_outputs(Path(sys.argv[1])):\n    print('locked', flush=True); time.sleep(60)",
            str(out),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    with pytest.raises(KgreasonError, match=f"pid {holder.pid}"), exclusive_outputs(out):
        pass
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    assert lock_path_for(out).exists()  # the killed run could not clean up
    started = time.monotonic()
    with exclusive_outputs(out):  # taken over at once: the kernel released the dead run's lock
        assert str(os.getpid()) in lock_path_for(out).read_text(encoding="utf-8")
    assert time.monotonic() - started < 2 and not lock_path_for(out).exists()


def test_run_dataset_refuses_under_a_held_lock(tmp_path: Path) -> None:
    from kgreason.data.loader import load_dataset
    from kgreason.reason.reasoner import Reasoner
    from kgreason.reason.runner import run_dataset

    ds, _ = load_dataset(sample_copy(tmp_path), check_gold=False)
    out = tmp_path / "result.json"
    with (
        exclusive_outputs(out.with_name("result.trace.jsonl")),
        pytest.raises(KgreasonError, match="being written by another run"),
    ):
        run_dataset(ds, Reasoner(ds), out, limit=1)
    assert run_dataset(ds, Reasoner(ds), out, limit=1).answered == 1
