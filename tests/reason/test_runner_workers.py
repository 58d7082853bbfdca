"""`run_dataset(workers=N)`: the same result.json, trace and summary for every N, model waits overlapped, and a stop
(Ctrl-C) with several questions in flight loses nothing finished and asks nothing finished again."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from reason_smallkg import make_dataset
from test_reason_runner import QUESTIONS, CountingReasoner

from kgreason.data.records import Question
from kgreason.llm.fake import FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import QuestionResult
from kgreason.reason.runner import RunSummary, read_journal, run_dataset

# The model is asked on every question that has a candidate: what makes workers pay.
ASK_ALWAYS = ReasonerConfig(llm_margin=1e9, llm_confirm_single=True)
TIMINGS = frozenset({"seconds", "seconds_by_stage"})


def first_id(messages: list[ChatMessage], schema: dict[str, Any]) -> dict[str, Any]:
    """A deterministic reply under the reasoner's schema: each enum property's first value."""
    del messages
    return {k: v["enum"][0] for k, v in schema["properties"].items() if "enum" in v}


def without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def trace(path: Path) -> list[Any]:
    return [without_timings(json.loads(x)) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def counts(summary: RunSummary) -> dict[str, Any]:
    return {k: getattr(summary, k) for k in ("questions", "answered", "failed", "llm_calls", "prompt_tokens",
                                             "fallback", "llm_asked_answers", "llm_failed_answers")}  # fmt: skip


def test_every_number_of_workers_writes_the_same_result_trace_and_summary(tmp_path: Path) -> None:
    ds = make_dataset(QUESTIONS * 2)
    runs: dict[int, tuple[bytes, list[Any], dict[str, Any], float, int]] = {}
    for workers in (1, 4):
        llm = FakeLLM(first_id, delay=0.1)
        out = tmp_path / f"n{workers}" / "result.json"
        start = time.monotonic()
        summary = run_dataset(ds, CountingReasoner(ds, ASK_ALWAYS, llm=llm), out, workers=workers, settings={"x": 1})
        seconds = time.monotonic() - start
        runs[workers] = (out.read_bytes(), trace(out.with_name("result.trace.jsonl")), counts(summary), seconds,
                         len(llm.calls))  # fmt: skip
    serial, parallel = runs[1], runs[4]
    assert serial[4] >= 10  # the model was asked on (nearly) every question
    assert parallel[:3] == serial[:3]  # result.json bytes, trace in the same order, summary counts
    assert parallel[4] == serial[4]
    assert parallel[3] < 0.6 * serial[3]  # the model's waits overlapped


class SlowOn(CountingReasoner):
    """Answers `slow` only after `hold` is set (a model call that hangs)."""

    def __init__(self, *args: Any, slow: str, hold: threading.Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slow, self.hold = slow, hold

    def answer(self, q: Question) -> QuestionResult:
        if q.query_id == self.slow:
            self.hold.wait(10)
        return super().answer(q)


def test_a_stop_with_questions_in_flight_loses_nothing_finished_and_the_resume_asks_only_the_rest(
    tmp_path: Path,
) -> None:
    ds = make_dataset(QUESTIONS * 2)
    ids = [q.query_id for q in ds.questions]
    reference = tmp_path / "ref" / "result.json"
    run_dataset(ds, CountingReasoner(ds, ASK_ALWAYS, llm=FakeLLM(first_id)), reference)

    out = tmp_path / "run" / "result.json"
    stop, hold = threading.Event(), threading.Event()
    first = SlowOn(ds, ASK_ALWAYS, llm=FakeLLM(first_id, delay=0.05), slow=ids[2], hold=hold)

    def on_question(q: Question, entry: dict[str, Any]) -> None:
        if q.query_id == ids[1]:
            time.sleep(0.5)  # the questions after the hanging one finish meanwhile
            stop.set()  # Ctrl-C while ids[2] still hangs

    summary = run_dataset(ds, first, out, workers=4, stop=stop, on_question=on_question)
    hold.set()
    journal = list(read_journal(out.with_name("result.trace.jsonl")))
    assert summary.interrupted
    assert journal[:2] == ids[:2] and ids[2] not in journal
    assert len(journal) > 2  # answers finished after the hanging question were written too, not dropped
    assert [r["query_id"] for r in json.loads(out.read_text(encoding="utf-8"))] == [i for i in ids if i in journal]

    second = CountingReasoner(ds, ASK_ALWAYS, llm=FakeLLM(first_id, delay=0.05))
    run_dataset(ds, second, out, workers=4)
    assert sorted(second.asked) == sorted(set(ids) - set(journal))  # nothing finished is asked again
    assert out.read_bytes() == reference.read_bytes()  # and the result is the uninterrupted run's


def test_no_journal_line_follows_once_the_caller_takes_the_gate(tmp_path: Path) -> None:
    # after a stop the CLI rebuilds result.json from the journal while the run's thread may still write answers
    # finished meanwhile; holding the gate, it knows no line follows (a run under load once wrote five after it)
    ds = make_dataset(QUESTIONS * 2)
    ids = [q.query_id for q in ds.questions]
    out = tmp_path / "run" / "result.json"
    trace = out.with_name("result.trace.jsonl")
    stop, hold, gate = threading.Event(), threading.Event(), threading.Lock()
    slow = SlowOn(ds, ASK_ALWAYS, llm=FakeLLM(first_id, delay=0.05), slow=ids[2], hold=hold)
    taken = threading.Event()

    def on_question(q: Question, entry: dict[str, Any]) -> None:
        if q.query_id == ids[1]:
            time.sleep(0.5)  # the questions after the hanging one finish meanwhile
            gate.acquire()  # the caller takes the gate before the run hands over what finished after the stop
            stop.set()
            taken.set()

    runner = threading.Thread(
        target=run_dataset,
        args=(ds, slow, out),
        kwargs={"workers": 4, "stop": stop, "on_question": on_question, "journal_gate": gate},
        daemon=True,
    )
    runner.start()
    assert taken.wait(30)
    lines_when_taken = len(read_journal(trace))
    time.sleep(0.5)  # the run's thread would write the answers finished after the hanging question now
    assert len(read_journal(trace)) == lines_when_taken == 2
    gate.release()
    hold.set()
    runner.join(30)
    assert len(read_journal(trace)) > 2  # released, it writes them: the gate only holds them back
