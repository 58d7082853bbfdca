"""Helpers for the fault catalogue: a copy of the sample to break, and the CLI run as a user runs it.

Imported by the tests as `faults` (this folder is on sys.path under pytest's default import mode)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample"


def sample_copy(tmp_path: Path, name: str = "data") -> Path:
    """A private copy of examples/sample to break."""
    target = tmp_path / name
    shutil.copytree(SAMPLE, target)
    return target


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def kgreason(
    *args: str | Path, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`kgreason ARGS` in a subprocess (stdout, stderr, exit code), with this checkout's sources first."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "KGREASON_LLM_CACHE": "off", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="backslashreplace",
        cwd=REPO,
        timeout=timeout,
        check=False,
        env=full_env,
    )


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stdout, proc.stdout[-2000:]
