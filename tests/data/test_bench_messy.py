"""benchmarks/bench_messy.py runs on a small dataset: every variant loads, and those that change only the form
score as the original."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_messy  # noqa: E402


def test_every_variant_loads_and_the_form_only_ones_score_as_the_original(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_messy.main(["--data", str(ROOT / "tests" / "fixtures" / "good" / "minimal")]) == 0
    out = capsys.readouterr().out
    scores = {
        m["name"].strip(): float(m["score"])
        for m in re.finditer(r"^(?P<name>.{44}) +\d+ +(?P<score>[\d.]+) +[\d.]+$", out, re.MULTILINE)
    }
    assert set(scores) == set(bench_messy.VARIANTS), out  # none refused
    lossy = {"bare [sub, relation, obj] lists (no types)", "no levels (answered as L2)", "KG dates as 2011-01-11"}
    assert all(scores[name] == scores["original"] for name in scores if name not in lossy), out
    assert scores["original"] > 0.9


def test_missing_folder_is_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_messy.main(["--data", str(tmp_path / "nowhere")]) == 0
    assert "nothing measured" in capsys.readouterr().out
