"""`kgreason textqa run --llm openai:URL#MODEL` against a real llama_cpp.server (the 0.5B model) on 2 questions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from llm_support import needs_llama
from test_llm_real_slow import llama_server  # noqa: F401  (the fixture that starts the server)

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "textqa"))
sys.path.insert(0, str(TESTS))
from textqa_samples import HOTPOT, write_json  # noqa: E402

from cli_helpers import REPO, child_env, kgreason_argv  # noqa: E402

pytestmark = [pytest.mark.slow, needs_llama, pytest.mark.timeout(1800)]


def test_textqa_run_against_llama_cpp_server(llama_server: str, tmp_path: Path) -> None:  # noqa: F811
    data = write_json(tmp_path / "hotpot.json", HOTPOT)
    spec = f"openai:{llama_server}#small?dialect=llamacpp"
    argv = kgreason_argv("textqa", "run", str(data), "-o", str(tmp_path / "out"), "--llm", spec, "--top-k", "4")
    proc = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        # a shared 2-core machine under load takes minutes per reply; the default 120 s per call is for servers
        env=child_env(tmp_path, KGREASON_LLM_TIMEOUT="900"),
        timeout=1700,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[2/2] h2" in proc.stderr and "hotpotqa: 2 question(s)" in proc.stdout
    prediction = json.loads((tmp_path / "out/baseline/prediction.json").read_text(encoding="utf-8"))
    assert set(prediction["answer"]) == {"h1", "h2"} and prediction["answer"]["h2"] in {"yes", "no"}
    titles = {"Film X", "Anne Dupont", "Lyon", "Film Y"}
    assert all(sp and all(t in titles for t, _ in sp) for sp in prediction["sp"].values())
    answers = json.loads((tmp_path / "out/baseline/answers.json").read_text(encoding="utf-8"))
    assert all(a["final_answer"] != "Unavailable" and a["sub_questions"] for a in answers)
