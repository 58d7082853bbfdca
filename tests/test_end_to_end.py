"""End to end with the real embedded default model (Qwen2.5-Coder-1.5B via llama.cpp): `kgreason run` on sample
questions where the program's top candidates are close, so the model is really consulted, then `kgreason score`.

Slow (model load + a few prompts on 2 cores); CI runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kgreason.data.loader import load_dataset
from kgreason.data.records import DERIVED_RELATIONS
from kgreason.eval.official import score_files
from kgreason.text.normalize import normalize_triple

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (pip install 'kgreason[llm]')")

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample"
# Questions whose two best candidates score within the reasoner's ask-margin with --llm none (see the trace), plus
# one clear-cut question where the model must not be asked.
AMBIGUOUS = ("doc_01_004", "doc_04_005")
CLEAR = "doc_01_001"


def _kgreason(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KGREASON_LLM_CACHE="off")  # really call the model, not the response cache
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", *args], capture_output=True, text=True, env=env, timeout=1200
    )


@pytest.mark.slow
def test_run_with_embedded_model_then_score(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    only = [a for q in (*AMBIGUOUS, CLEAR) for a in ("--only", q)]
    res = _kgreason("run", str(SAMPLE), "-o", str(out), "--llm", "embedded", *only)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    # the load is announced before it starts (seconds of silence otherwise) and timed after
    assert "loading the model qwen2.5-coder-1.5b" in res.stderr and "model loaded in" in res.stderr

    lines = list(map(json.loads, out.with_name("result.trace.jsonl").read_text().splitlines()))
    assert lines[0]["kind"] == "run-settings" and lines[0]["settings"]["llm"] == "embedded"
    trace = {d["query_id"]: d for d in lines[1:]}
    assert set(trace) == {*AMBIGUOUS, CLEAR}
    for qid in AMBIGUOUS:
        llm = trace[qid]["llm"]
        assert llm["asked"] is True, llm
        assert "qwen2.5-coder-1.5b" in llm["model"]
        assert llm["prompt_tokens"] > 0 and llm["completion_tokens"] > 0
        # whatever the model chose, the program verified it: it is one of the offered candidates
        assert llm["chosen"] in {c["id"] for c in trace[qid]["candidates"]}
    assert trace[CLEAR]["llm"]["asked"] is False

    # every non-derived evidence triple is a KG triple of the question's document
    dataset, _ = load_dataset(SAMPLE)
    results = json.loads(out.read_text(encoding="utf-8"))
    for item in results:
        kg = {normalize_triple(t.spo) for t in dataset.kgs[item["doc_id"]]}
        for path in [item["gold_reasoning_paths_main"]]:
            for triple in path:
                assert triple[1] in DERIVED_RELATIONS or normalize_triple(tuple(triple)) in kg, triple

    # and the answers are right: the official score of these three questions against the sample's gold
    gold = tmp_path / "gold.json"
    all_gold = json.loads((SAMPLE / "qa_answer.json").read_text(encoding="utf-8"))
    gold.write_text(json.dumps([g for g in all_gold if g["query_id"] in trace], ensure_ascii=False), encoding="utf-8")
    report = score_files(out, gold)
    assert report.count == 3 and not report.missing
    assert report.mean >= 0.9, report.per_question
