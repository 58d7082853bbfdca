"""`kgreason.explain`: the question to ask (doc_id rules, levels), the explanation of an answer (sentence spans,
constraint status from the chosen candidate's checks), a document's sentences and a KG neighbourhood."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kgreason.data.loader import load_dataset
from kgreason.data.records import AnswerRecord, Dataset
from kgreason.explain import answer_question, document_sentences, explain_trace, neighbourhood, question_for
from kgreason.explain.answer import QuestionError
from kgreason.reason.reasoner import Reasoner

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample"


@pytest.fixture(scope="module")
def sample() -> Dataset:
    return load_dataset(SAMPLE, check_gold=False)[0]


def test_question_for_rules(sample: Dataset) -> None:
    with pytest.raises(QuestionError, match="doc_id is needed"):
        question_for(sample, "F-35C的翼展是多少？")
    with pytest.raises(QuestionError, match="no document 'doc_99'"):
        question_for(sample, "F-35C的翼展是多少？", "doc_99")
    with pytest.raises(QuestionError, match="empty"):
        question_for(sample, "  ", "doc_01")
    with pytest.raises(QuestionError, match="difficulty must be one of"):
        question_for(sample, "问题", "doc_01", "L7")
    known = question_for(sample, " F-35C的翼展是多少？ ", "doc_01")
    assert (known.query_id, known.difficulty) == ("doc_01_001", "L1")
    assert question_for(sample, "F-35C的翼展是多少？", "doc_01", "L2").difficulty == "L2"
    new = question_for(sample, "F-35A的绰号是什么？", "doc_01")
    assert (new.query_id, new.doc_id, new.difficulty) == ("ask", "doc_01", "L2")
    one = replace(sample, documents={"doc_02": sample.documents["doc_02"]})
    assert question_for(one, "随便问问", None).doc_id == "doc_02"


def test_answer_question_ties_evidence_to_sentences(sample: Dataset) -> None:
    reasoner = Reasoner(sample)
    q = next(q for q in sample.questions if q.query_id == "doc_01_009")
    a = answer_question(reasoner, q)
    assert a.record == reasoner.answer(q).record.to_json()
    content = sample.documents["doc_01"].content
    starts = {s.start for s in document_sentences(content)}
    for e in a.evidence:
        if e.derived:
            assert e.sentence is None and e.start is None
        else:
            assert e.start is not None and e.end is not None and content[e.start : e.end] == e.sentence
            assert e.start in starts
    assert [c.satisfied for c in a.constraints] == [True, True]
    assert sum(c.chosen for c in a.candidates) == 1


def _record(constraints: dict[str, str]) -> AnswerRecord:
    return AnswerRecord("q", "d", "问题", "实体", ("甲",), (("A", "r", "甲"),), (), constraints, "L2")


def _trace(checks: list[dict[str, Any]], chosen: str = "C2") -> dict[str, Any]:
    other = {"id": "C1", "answers": ["乙"], "score": 0.2, "origin": "chain", "path": [], "checks": []}
    mine = {
        "id": "C2",
        "answers": ["甲"],
        "score": 0.9,
        "origin": "chain",
        "path": [["A", "r", "甲"]],
        "checks": checks,
    }
    return {
        "candidates": [other, mine],
        "llm": {"asked": True, "chosen": chosen, "model": "m", "prompt_tokens": 10, "completion_tokens": 2},
        "evidence": [{"triple": ["A", "r", "甲"], "sentence": "A r 甲。", "offset": 7}],
        "seconds": 0.5,
    }


def test_constraint_status_comes_from_the_chosen_candidates_checks() -> None:
    ok = {"kind": "time", "key": "time", "value": "战争期间", "ok": True, "derived": [["1990年", "处于时期内", "战争"]]}
    bad = {"kind": "numeric", "key": "numeric", "value": "超过10吨", "ok": False, "derived": [], "note": "8吨"}
    unknown = {"kind": "entity", "key": "camp", "value": "英国", "ok": None, "derived": []}
    rec = _record({"time": "在战争期间", "numeric": "超过10吨", "camp": "英国", "order": "最早"})
    a = explain_trace(rec, _trace([ok, bad, unknown]))
    by_key = {c.key: c for c in a.constraints}
    assert by_key["time"].satisfied is True and by_key["time"].derived == (("1990年", "处于时期内", "战争"),)
    assert by_key["numeric"].satisfied is False and by_key["numeric"].notes == ("8吨",)
    assert by_key["camp"].satisfied is None
    assert by_key["order"].satisfied is None and by_key["order"].derived == ()
    assert [c.id for c in a.candidates if c.chosen] == ["C2"]
    assert a.llm.asked and a.llm.prompt_tokens == 10
    assert (a.evidence[0].start, a.evidence[0].end) == (7, 7 + len("A r 甲。"))
    # the LLM's choice decides which candidate's checks count
    assert explain_trace(rec, _trace([ok], chosen="C1")).constraints[0].satisfied is None


def test_sentences_and_neighbourhood(sample: Dataset) -> None:
    text = "第一句。第二句！\n  第三句"
    spans = document_sentences(text)
    assert [s.text for s in spans] == ["第一句。", "第二句！", "第三句"]
    assert all(text[s.start : s.end] == s.text for s in spans)
    index = Reasoner(sample).index("doc_01")
    n = neighbourhood(index, "f-35", hops=1)
    assert n is not None and n.center == "F-35" and not n.truncated
    assert ("F-35", "包含型别", "F-35A") in n.triples
    small = neighbourhood(index, "F-35", hops=2, max_triples=3)
    assert small is not None and len(small.triples) == 3 and small.truncated
    assert neighbourhood(index, "不存在的节点") is None
