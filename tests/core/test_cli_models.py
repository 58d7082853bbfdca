"""`kgreason models` and the CLI's handling of usage errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _kgreason(*args: str, env_cache: Path) -> subprocess.CompletedProcess[str]:
    env = {"KGREASON_CACHE_DIR": str(env_cache), "PATH": "/usr/bin:/bin", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_models_list_reports_unassembled_cache(tmp_path: Path) -> None:
    res = _kgreason("models", "list", env_cache=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "embedded-small" in res.stdout and "no" in res.stdout


def test_models_prepare_rejects_unknown_spec(tmp_path: Path) -> None:
    res = _kgreason("models", "prepare", "--spec", "gpt-4", env_cache=tmp_path)
    assert res.returncode == 2
    assert "unknown model 'gpt-4'" in res.stderr and "Traceback" not in res.stderr


def test_unknown_command_is_a_usage_error(tmp_path: Path) -> None:
    res = _kgreason("frobnicate", env_cache=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
