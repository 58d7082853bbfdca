"""Fixtures for the `kgreason serve` tests: servers started on 127.0.0.1 and stopped after each test, and a finished
run of the sample to browse (helpers in `serve_support`)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="kgreason serve needs the serve extra (pip install 'kgreason[serve]')")
pytest.importorskip("uvicorn", reason="kgreason serve needs the serve extra (pip install 'kgreason[serve]')")

from serve_support import SAMPLE, Served, ServerFactory, start_server, stop_server


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A runs folder with `r1/result.json`: the whole sample answered by `kgreason run --llm none`."""
    runs = tmp_path_factory.mktemp("runs")
    out = runs / "r1" / "result.json"
    res = subprocess.run(
        [sys.executable, "-m", "kgreason.cli", "run", str(SAMPLE), "-o", str(out), "--llm", "none"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    return runs


@pytest.fixture(scope="session")
def single_doc_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's first document alone, as a dataset of its own (a question may then omit doc_id)."""
    root = tmp_path_factory.mktemp("data") / "single"
    root.mkdir()
    docs = json.loads((SAMPLE / "document.json").read_text(encoding="utf-8"))
    keep = docs[0]["doc_id"]
    (root / "document.json").write_text(json.dumps(docs[:1], ensure_ascii=False), encoding="utf-8")
    (root / f"KG_{keep}.json").write_text((SAMPLE / f"KG_{keep}.json").read_text(encoding="utf-8"), encoding="utf-8")
    qa = [q for q in json.loads((SAMPLE / "qa.json").read_text(encoding="utf-8")) if q["doc_id"] == keep]
    (root / "qa.json").write_text(json.dumps(qa, ensure_ascii=False), encoding="utf-8")
    return root


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[ServerFactory]:
    started: list[Served] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Served:
        served = start_server(list(args), tmp_path / f"serve{len(started)}.log", env)
        started.append(served)
        return served

    yield start
    for s in started:
        stop_server(s)
