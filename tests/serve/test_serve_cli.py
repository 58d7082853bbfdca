"""`kgreason serve`'s command line: bad folders, clashing dataset names and a missing serve extra are clear
errors (exit 2, no traceback); a busy port too."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from serve_support import SAMPLE
from typer.testing import CliRunner

from kgreason.cli import app
from kgreason.commands.serve import dataset_names
from kgreason.errors import KgreasonError


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "kgreason.cli", "serve", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("/nonexistent/data", "--llm", "none"), "folder not found"),
        ((str(SAMPLE), "--llm", "none", "--runs", "/nonexistent/runs"), "--runs /nonexistent/runs: not a folder"),
        ((str(SAMPLE), str(SAMPLE), "--llm", "none"), "two datasets are named 'sample'"),
        ((str(SAMPLE), "--llm", "bogus"), "bad LLM spec"),
    ],
)
def test_bad_command_lines(args: tuple[str, ...], words: str) -> None:
    res = _serve(*args)
    assert res.returncode == 2, res.stderr
    assert words in res.stderr and "Traceback" not in res.stderr


def test_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = _serve(str(SAMPLE), "--llm", "none", "--port", str(port))
    assert res.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in res.stderr


def test_dataset_names() -> None:
    assert dataset_names([Path("a/x"), Path("b/y")]) == ["x", "y"]
    with pytest.raises(KgreasonError, match="two datasets are named 'x'"):
        dataset_names([Path("a/x"), Path("b/x")])


def test_missing_serve_extra_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a))
    result = CliRunner().invoke(app, ["serve", str(SAMPLE), "--llm", "none"])
    assert isinstance(result.exception, KgreasonError)
    assert "needs FastAPI and uvicorn" in str(result.exception)
