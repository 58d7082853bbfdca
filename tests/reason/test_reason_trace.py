"""The typed trace record: what `kgreason run` writes per question, read back unchanged, and explained the same way
from the record or from the written line."""

from __future__ import annotations

import json

from reason_smallkg import make_dataset

from kgreason.explain import explain_trace
from kgreason.reason.reasoner import QuestionResult, Reasoner, empty_record
from kgreason.reason.trace import QuestionTrace


def _result(question: str, level: str = "L3") -> QuestionResult:
    ds = make_dataset([(question, level)])
    return Reasoner(ds).answer(ds.questions[0])


def test_written_trace_reads_back_to_the_same_line() -> None:
    result = _result("在第二次世界大战期间指挥诺曼底登陆且隶属于同盟国的人是谁？")
    line = json.loads(json.dumps(result.trace.to_json(), ensure_ascii=False))
    again = QuestionTrace.from_json(line, result.record)
    assert again.to_json() == line
    assert again.answer == result.record
    # the parts a reader needs are typed: the chosen candidate, its checks and the derived comparison they made
    chosen = next(c for c in again.candidates if c.id == again.llm.chosen)
    assert chosen.answers == ("艾森豪威尔",)
    assert any(k.kind == "time" and k.ok is True and k.derived for k in chosen.checks)
    assert any(e.derived for e in again.evidence) and any(e.sentence for e in again.evidence)
    assert set(again.seconds_by_stage) == {"understand", "search", "choose", "assemble", "explain"}


def test_explained_the_same_from_the_record_and_from_the_written_line() -> None:
    result = _result("歼-20的研制单位位于哪里？", "L2")
    typed = explain_trace(result.record, result.trace)
    written = explain_trace(result.record, json.loads(json.dumps(result.trace.to_json(), ensure_ascii=False)))
    assert typed == written
    assert typed.answers == ("四川成都",) and typed.evidence[0].sentence is not None


def test_an_error_entry_reads_with_empty_parts() -> None:
    ds = make_dataset([("歼-20的研制单位是谁？", "L2")])
    record = empty_record(ds.questions[0])
    entry = {"query_id": record.query_id, "status": "error", "error": "RuntimeError: boom", "seconds": 0.5}
    trace = QuestionTrace.from_json(entry, record)
    assert trace.status == "error" and trace.candidates == () and not trace.llm.asked and trace.seconds == 0.5
    assert explain_trace(record, entry).candidates == ()
