"""benchmarks/bench_holdouts.py prints each blind held-out set's official mean beside its recorded first run, and
the mean over the sets; a missing set exits 2."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_holdouts  # noqa: E402


def test_it_prints_each_set_beside_its_first_run_and_the_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_holdouts.main(["--sets", "a", "b"]) == 0
    out = capsys.readouterr().out
    lines = re.findall(r"extract_holdout_(\w): ([\d.]+) \|.*right (\d+)/24 \| first run ([\d.]+)", out)
    assert [(s, float(first)) for s, _, _, first in lines] == [("a", 0.7959), ("b", 0.8516)]
    means = [float(m) for _, m, _, _ in lines]
    printed = re.search(r"mean over 2 sets ([\d.]+)", out)
    assert printed is not None, out
    assert float(printed.group(1)) == pytest.approx(sum(means) / 2, abs=1e-4)


def test_a_set_that_is_not_there_exits_2() -> None:
    assert bench_holdouts.main(["--sets", "zz"]) == 2
