"""Where `kgreason run` writes: `-o` as a folder or a file, checked before any work, and the run record.

`-o` names a folder when it is an existing folder, ends with a path separator, or has no file extension
(`-o runs/x/none`): `result.json`, `result.trace.jsonl` and `result.run.json` go inside it. Otherwise it names the
result file itself (`-o runs/x/result.json`), its companions beside it.

The run record (`result.run.json`) keeps every attempt of a run (the first run, each resume or rerun) with its
own counts and model accounting, and the totals over them, so a rerun that answers nothing does not erase what the
run before it cost. It starts over with the journal (`--no-resume`, or a new output).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import KgreasonError
from kgreason.llm.accounting import merge_summaries

RESULT_NAME = "result.json"


def resolve_output(raw: str) -> Path:
    """The result file `-o raw` means (see the module's note)."""
    path = Path(raw)
    if path.is_dir() or raw.endswith(("/", os.sep)) or not path.suffix:
        return path / RESULT_NAME
    return path


def check_writable(path: Path, option: str) -> None:
    """Fail now, before any model is loaded or question answered, when `path` (a file to write) cannot be
    written: a file where a folder is needed, a folder where the file should be, no permission, a read-only disk."""
    if path.is_dir():
        raise KgreasonError(f"{option} {path}: is a folder, expected a file to write")
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise KgreasonError(f"{option} {path}: {existing} is a file, not a folder")
    try:
        # The real test (permissions, read-only file systems, root's exemptions): create a file there and remove it.
        fd, probe = tempfile.mkstemp(prefix=".kgreason-probe.", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise KgreasonError(f"{option} {path}: cannot write in {existing}: {exc.strerror or exc}") from None


def run_record_path(output: Path) -> Path:
    """`result.json` -> `result.run.json`, beside it."""
    return output.with_name(f"{output.stem}.run.json")


# Counts that add up over attempts; the others (questions, failed, fallback, interrupted) describe the latest.
_ADDED = ("answered", "seconds", "llm_calls", "prompt_tokens", "completion_tokens", "llm_seconds", "retried")


def write_run_record(path: Path, base: dict[str, Any], attempt: dict[str, Any], *, fresh: bool) -> dict[str, Any]:
    """Append `attempt` to the record at `path` (a new record when `fresh`, or when the one there was written with
    other settings) and write it atomically. `base` holds what every attempt shares (data folder, settings);
    `attempt` its `summary` (a `RunSummary` as a dict), `llm_accounting`, `status` and `exit_code`."""
    attempts = [] if fresh else _earlier_attempts(path, base.get("settings"))
    attempts.append(attempt)
    latest = attempt["summary"]
    summary = {**latest, **{k: _sum(a["summary"].get(k, 0) for a in attempts) for k in _ADDED}}
    record = {
        **base,
        "status": attempt["status"],
        "exit_code": attempt["exit_code"],
        "summary": summary,
        "failures": attempt.get("failures", []),
        "llm_accounting": merge_summaries([a.get("llm_accounting") for a in attempts]),
        "attempts": attempts,
    }
    try:
        write_json_atomic(path, record)
    except OSError as exc:
        raise KgreasonError(f"cannot write {path}: {exc.strerror or exc}") from None
    return record


def _sum(values: Any) -> float | int:
    total = sum(values)
    return round(total, 3) if isinstance(total, float) else int(total)


def _earlier_attempts(path: Path, settings: Any) -> list[dict[str, Any]]:
    """The attempts recorded at `path` for the same settings; a record of the earlier one-attempt format becomes
    one attempt; anything unreadable or of other settings is not continued."""
    with contextlib.suppress(OSError, ValueError):
        earlier = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(earlier, dict) or earlier.get("settings") != json.loads(json.dumps(settings)):
            return []
        attempts = earlier.get("attempts")
        if isinstance(attempts, list):
            return [a for a in attempts if isinstance(a, dict) and isinstance(a.get("summary"), dict)]
        if isinstance(earlier.get("summary"), dict):
            return [
                {
                    "status": "complete",
                    "summary": earlier["summary"],
                    "failures": earlier.get("failures", []),
                    "llm_accounting": earlier.get("llm_accounting"),
                }
            ]
    return []
