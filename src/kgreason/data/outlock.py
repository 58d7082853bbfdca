"""An exclusive lock per output file, so two runs never write the same result or trace at once.

The lock is `flock` on `<output>.lock` beside the output: the kernel releases it when its process ends however it
ends (kill -9 included), so a stale lock file from a killed run is simply taken over by the next run. The file
holds who holds the lock (pid, host, start time, command), which the refusal names.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from kgreason.errors import KgreasonError


def lock_path_for(output: Path) -> Path:
    return output.with_name(f"{output.name}.lock")


def _holder(fd: int) -> str:
    """Who holds the lock, in words, from the lock file's contents."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        info = json.loads(os.read(fd, 4096).decode("utf-8"))
        return f"pid {info['pid']} on {info['host']}, started {info['started']}: {info['command']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "a run that is still starting"


def _open_locked(lock_path: Path, output: Path) -> int:
    """A descriptor of `lock_path`, exclusively locked; `KgreasonError` naming the holder when another run has it."""
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KgreasonError(
            f"cannot create the folder {lock_path.parent} for {output}: {exc.strerror or exc}"
        ) from None
    while True:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise KgreasonError(f"cannot create the lock file {lock_path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise KgreasonError(
                f"{output} is being written by another run ({holder}); wait for it to finish, or write this run "
                f"elsewhere with -o (if no such run exists, delete {lock_path})"
            ) from None
        # A finishing run unlinks its lock file: make sure the file locked is still the one at the path.
        try:
            current = os.stat(lock_path)
        except FileNotFoundError:
            current = None
        mine = os.fstat(fd)
        if current is not None and (current.st_ino, current.st_dev) == (mine.st_ino, mine.st_dev):
            return fd
        os.close(fd)


@contextmanager
def _locked(output: Path) -> Iterator[None]:
    lock_path = lock_path_for(output)
    fd = _open_locked(lock_path, output)
    try:
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
            "command": " ".join(sys.argv)[:300],
        }
        try:
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(info, ensure_ascii=False).encode("utf-8", "backslashreplace"))
        except OSError as exc:  # a full disk: the lock holds, only who holds it cannot be recorded
            raise KgreasonError(
                f"cannot write the lock file {lock_path}: {exc.strerror or exc}; free the space (or fix the "
                "permissions) and rerun the same command to resume"
            ) from None
        yield
    finally:
        lock_path.unlink(missing_ok=True)  # before unlocking: a waiting run then re-opens a fresh file
        os.close(fd)


@contextmanager
def exclusive_outputs(*outputs: Path) -> Iterator[None]:
    """Hold an exclusive lock on each output (each taken once, in a fixed order) for the duration of the block."""
    unique = sorted({p.absolute() for p in outputs}, key=str)
    with ExitStack() as stack:
        for output in unique:
            stack.enter_context(_locked(output))
        yield


def check_not_locked(*outputs: Path) -> None:
    """Refuse at once (`KgreasonError` naming the other run) when another run holds a lock on one of `outputs`;
    used before slow work such as loading a model. The lock that counts is taken by `exclusive_outputs`."""
    with exclusive_outputs(*outputs):
        pass
