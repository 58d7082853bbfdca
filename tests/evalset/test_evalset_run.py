"""Keyword scoring as spec 002 defines it, the judge, and `kgreason evalset run|score|texts` end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from kgreason.evalset.score import JUDGE_SCHEMA, judge, keyword_score
from kgreason.llm import FakeFailure, FakeLLM

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "corpus"))
from corpus_support import write_corpus  # noqa: E402


def test_keyword_score_all_share_none_and_normalised() -> None:
    assert keyword_score("F-35C 翼展 13.1米", ["F-35C", "13.1米"]).score == 1.0  # type: ignore[union-attr]
    partial = keyword_score("答案是 13.1米", ["F-35C", "13.1米"])
    assert partial is not None and partial.score == 0.5 and partial.missing == ("F-35C",)
    assert keyword_score("无关", ["F-35C"]).score == 0.0  # type: ignore[union-attr]
    assert keyword_score("1942 年 6 月 7 日", ["1942年6月7日"]).score == 1.0  # type: ignore[union-attr]
    assert keyword_score("x", []) is None


def test_judge_returns_the_rubric_score_or_none() -> None:
    llm = FakeLLM([{"score": 4}, {"score": 9}, FakeFailure("timeout")])
    assert judge(llm, "问", "标准", "回答") == 4
    assert judge(llm, "问", "标准", "回答") is None  # outside 1-5: rejected by the schema
    assert judge(llm, "问", "标准", "回答") is None
    assert llm.calls[0].schema == JUDGE_SCHEMA


def kgreason(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=180,
        check=False,
    )


def _evalset(root: Path) -> Path:
    ev = root / "eval"
    ev.mkdir()
    assert kgreason("evalset", "texts", root / "corpus", "-o", ev / "texts").returncode == 0

    def item(i: int, q: str, kws: list[str]) -> dict[str, Any]:
        return {
            "id": f"fact_{i:03d}",
            "category": "item",
            "difficulty": "easy",
            "question": q,
            "expected_answer": kws[-1],
            "source": {"file": "texts/d2.txt", "line_range": [1, 1]},
            "keywords": kws,
        }

    items = [
        item(1, "海鹰号航空母舰的舷号是什么？", ["海鹰号航空母舰", "H01"]),
        item(2, "大和号的舷号？", ["大和号", "Y1"]),
    ]
    (ev / "factual_qa.json").write_text(json.dumps({"items": items}, ensure_ascii=False), encoding="utf-8")
    turns = [
        {"turn": 1, "user": "海鹰号航空母舰的舷号是什么？", "expected_points": ["H01"]},
        {"turn": 2, "user": "它何时服役？", "expected_points": ["2010年5月1日"], "requires_context": True,
         "referent": "海鹰号航空母舰"},
        {"turn": 3, "user": "舰长是谁？", "expected_points": ["张海"], "requires_context": True,
         "referent": "海鹰号航空母舰"},
    ]  # fmt: skip
    dialogues = {"items": [{"id": "mt_001", "scenario": "s", "turns": turns}]}
    (ev / "multi_turn.json").write_text(json.dumps(dialogues, ensure_ascii=False), encoding="utf-8")
    return ev


def test_evalset_run_writes_results_and_score_rescores(tmp_path: Path) -> None:
    write_corpus(tmp_path / "corpus")
    ev = _evalset(tmp_path)
    out = kgreason("evalset", "run", ev, "--data", tmp_path / "corpus", "--llm", "none")
    assert out.returncode == 0, out.stderr
    assert "factual_qa" in out.stdout and "multi_turn" in out.stdout
    summary = json.loads((ev / "results" / "summary.json").read_text(encoding="utf-8"))
    assert summary["sets"]["factual_qa"]["keyword"] == 0.5  # one right (1.0), one not in the corpus (0.0)
    mt = summary["sets"]["multi_turn"]
    assert mt["resolution_accuracy"] == 1.0 and mt["referring_turns"] == 2
    assert mt["keyword_context_turns"] == 1.0
    rows = json.loads((ev / "results" / "factual_qa.json").read_text(encoding="utf-8"))["items"]
    assert rows[0]["evidence"][0]["doc_id"] == "d2" and rows[0]["matched"] == ["海鹰号航空母舰", "H01"]
    assert rows[1]["kind"] == "not_found"
    # edit a keyword and re-score without answering again
    data = json.loads((ev / "factual_qa.json").read_text(encoding="utf-8"))
    data["items"][1]["keywords"] = ["在语料中未找到"]
    (ev / "factual_qa.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    again = kgreason("evalset", "score", ev)
    assert again.returncode == 0, again.stderr
    summary = json.loads((ev / "results" / "summary.json").read_text(encoding="utf-8"))
    assert summary["sets"]["factual_qa"]["keyword"] == 1.0


def test_evalset_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    write_corpus(tmp_path / "corpus")
    ev = _evalset(tmp_path)
    missing = kgreason("evalset", "score", ev)
    assert missing.returncode == 2 and "no results" in missing.stderr
    unknown = kgreason("evalset", "run", ev, "--data", tmp_path / "corpus", "--set", "nope")
    assert unknown.returncode == 2 and "--set nope" in unknown.stderr and "Traceback" not in unknown.stderr


def test_an_item_that_raises_is_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    from kgreason.corpus.answer import Corpus
    from kgreason.evalset.model import read_evalset
    from kgreason.evalset.run import run_dialogues, run_single, summarise

    corpus = Corpus.load(write_corpus(tmp_path / "corpus"))
    ev = _evalset(tmp_path)
    real = corpus.answer

    def flaky(question: str, doc_id: str | None = None) -> Any:
        if question.startswith("海鹰号"):
            raise RuntimeError("boom")
        return real(question, doc_id)

    corpus.answer = flaky  # type: ignore[method-assign]
    rows = run_single(corpus, read_evalset(ev / "factual_qa.json"), None, lambda _: None)
    assert [r["kind"] for r in rows] == ["error", "not_found"]
    assert "RuntimeError: boom" in rows[0]["answer"] and rows[0]["keyword_score"] == 0.0
    dialogue = run_dialogues(corpus, read_evalset(ev / "multi_turn.json"), None, None, lambda _: None)
    assert dialogue[0]["turns"][0]["kind"] == "error"
    assert summarise("multi_turn", dialogue)["turns"] == 3


def test_workers_give_the_rows_one_worker_gives() -> None:
    """`evalset run --workers N`: single items and dialogues (each its own session) at once, rows in set order."""
    from kgreason.corpus.answer import Corpus
    from kgreason.evalset.model import read_evalsets
    from kgreason.evalset.run import run_dialogues, run_single

    def first_id(messages: Any, schema: dict[str, Any]) -> dict[str, Any]:
        return {k: v["enum"][0] for k, v in schema.get("properties", {}).items() if "enum" in v}

    def timeless(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if k != "seconds"}
        return [timeless(v) for v in value] if isinstance(value, list) else value

    sample = REPO / "examples" / "sample"
    sets = {s.name: s for s in read_evalsets(sample / "evalsets")}
    out = {}
    for workers in (1, 4):
        corpus = Corpus.load(sample, llm=FakeLLM(first_id, delay=0.05))
        corpus.prepare()
        single = run_single(corpus, sets["relation_qa"], None, lambda _: None, workers=workers)
        dialogues = run_dialogues(corpus, sets["multi_turn"], corpus.reasoner.llm, None, lambda _: None,
                                  workers=workers)  # fmt: skip
        out[workers] = (timeless(single), timeless(dialogues))
    assert [r["id"] for r in out[4][0]] == [i.id for i in sets["relation_qa"].items]
    assert out[4] == out[1]
