"""Ctrl-C that stops a long job at once, even while a model call is in flight.

A model call can sit in native code (llama.cpp evaluating a prompt) or in a blocking socket read for many seconds,
and Python only raises `KeyboardInterrupt` once it returns. So the job runs on a worker thread and the main thread
waits: Ctrl-C reaches the main thread at once, which asks the job to stop after its question (`stop`), waits a
moment, and otherwise leaves the worker behind (the caller then writes what is done and ends the process).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from kgreason.errors import UserInterrupt

T = TypeVar("T")

EXIT_INTERRUPTED = 130  # the shell's status for a process ended by Ctrl-C


class Interrupted(Exception):
    """Ctrl-C during `run_in_worker`. `value` is the job's result when it stopped within the grace period
    (`stopped`), else None: the worker is still busy and the process should end without waiting for it."""

    def __init__(self, stopped: bool, value: object) -> None:
        super().__init__("interrupted")
        self.stopped = stopped
        self.value = value


@dataclass(slots=True)
class _Outcome(Generic[T]):
    value: T | None = None
    error: BaseException | None = None
    finished: bool = False


def run_in_worker(job: Callable[[], T], stop: threading.Event, *, grace: float = 1.0) -> T:
    """Run `job` on a daemon thread and return its result (or raise its exception). On Ctrl-C: set `stop`,
    wait up to `grace` seconds (a second Ctrl-C ends the wait), and raise `Interrupted`."""
    outcome: _Outcome[T] = _Outcome()

    def target() -> None:
        try:
            outcome.value = job()
        except BaseException as exc:  # handed to the main thread, which raises it there
            outcome.error = exc
        outcome.finished = True

    worker = threading.Thread(target=target, name="kgreason-job", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except (KeyboardInterrupt, UserInterrupt):
        stop.set()
        with contextlib.suppress(KeyboardInterrupt, UserInterrupt):  # a second Ctrl-C: stop waiting
            worker.join(grace)
        stopped = outcome.finished
        raise Interrupted(stopped, outcome.value if stopped and outcome.error is None else None) from None
    if outcome.error is not None:
        raise outcome.error
    return cast(T, outcome.value)


def run_or_stop(job: Callable[[], T], say: Callable[[str], None], what: str, exit_code: int = EXIT_INTERRUPTED) -> T:
    """`job` on a worker thread, for commands whose work is saved as it goes (caches, journals): on Ctrl-C or
    SIGTERM, say `what` ("… stopped; rerun to continue") and end the process with `exit_code` at once — also when
    a model call is still in flight, which would otherwise hold the signal until it returns."""
    try:
        return run_in_worker(job, threading.Event())
    except Interrupted:
        say(what)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(exit_code)  # do not wait for the worker's model call, nor tear it down
