"""The LLM's part with a deterministic fake model: it chooses among close candidates under a schema whose enum is
the candidate ids; garbage, failures and exceptions fall back to the program's best."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from reason_smallkg import make_dataset

from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.types import ChatMessage, LLMResult
from kgreason.reason.candidate import Candidate
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.llm_choice import SYSTEM_PROMPT, build_messages, choose, offered, relevance, should_ask
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.trace import QuestionTrace

# Close candidates (an ambiguous single-answer question): 歼-20 has two 研制单位-like facts reachable.
QUESTION = "歼-20是由哪个单位研制的？"
ALWAYS = ReasonerConfig(llm_margin=100.0)  # ask whenever there are two candidates


def cand(answer: str, score: float) -> Candidate:
    return Candidate((answer,), (answer,), "实体", (("歼-20", "研制单位", answer),), score)


def run(llm: Any, config: ReasonerConfig = ALWAYS) -> tuple[Any, QuestionTrace]:
    ds = make_dataset([(QUESTION, "L2")])
    result = Reasoner(ds, config, llm=llm).answer(ds.questions[0])
    return result.record, result.trace


def ids_in(schema: dict[str, Any]) -> list[str]:
    return list(schema["properties"]["choice"]["enum"])


def test_prompt_sorted_ascending_with_relevance_and_enum() -> None:
    ds = make_dataset([(QUESTION, "L2")])
    r = Reasoner(ds)
    _, analysis = r.analyse(ds.questions[0])
    cands = [cand("成都飞机设计研究所", 2.0), cand("中国航发", 1.0), cand("四川成都", 0.5)]
    messages, ids = build_messages(analysis, cands, {})
    assert ids == ["C1", "C2", "C3"]
    assert messages[0] == ChatMessage("system", SYSTEM_PROMPT)  # shared prefix first
    user = messages[1].content
    assert user.startswith(f'问题："{QUESTION}"')  # untrusted text is quoted
    # most relevant last: C3 (lowest) first, C1 (best) last
    assert user.index("C3 ") < user.index("C2 ") < user.index("C1 ")
    assert '["歼-20", "研制单位", "成都飞机设计研究所"]' in user and "与问题的相关性" in user
    assert abs(sum(relevance([2.0, 1.0, 0.5])) - 1.0) < 1e-9


def test_ask_only_when_close() -> None:
    assert should_ask([cand("a", 2.0), cand("b", 1.9)], 0.3, False)[0]
    assert not should_ask([cand("a", 2.0), cand("b", 1.0)], 0.3, False)[0]
    assert not should_ask([cand("a", 2.0)], 0.3, False)[0]
    assert should_ask([cand("a", 2.0)], 0.3, True)[0]


def test_llm_choice_is_used() -> None:
    def pick_last(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        return {"choice": ids_in(schema)[-1]}

    fake = FakeLLM(pick_last)
    rec, trace = run(fake)
    assert len(fake.calls) == 1
    chosen = trace.llm.chosen
    assert trace.llm.asked and chosen != "C1"
    picked = next(c for c in trace.candidates if c.id == chosen)
    assert rec.answers == picked.answers
    assert "overrides" in trace.llm.reason


@pytest.mark.parametrize(("picked", "chosen"), [("C2", 1), ("C3", 0)])
def test_the_model_decides_only_among_near_ties(picked: str, chosen: int) -> None:
    """Asked because the best two are within the margin, the model may still pick a candidate far below them (shown
    as context): that pick is refused and the program's best stands."""
    ds = make_dataset([(QUESTION, "L2")])
    _, analysis = Reasoner(ds).analyse(ds.questions[0])
    cands = [cand("成都飞机设计研究所", 2.0), cand("中国航发", 1.9), cand("四川成都", 1.0)]
    decision = choose(FakeLLM([{"choice": picked}]), analysis, cands, {}, margin=0.3, max_tokens=8)
    assert decision.asked and decision.chosen == chosen
    assert ("overrides" if chosen else "its score is 1.00 below the best's") in decision.reason


def test_a_candidate_of_a_ruled_out_kind_is_not_offered() -> None:
    def pick_last(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        return {"choice": ids_in(schema)[-1]}

    fake = FakeLLM(pick_last)
    rec, trace = run(fake)
    prompt = fake.calls[0].messages[-1].content
    # `哪个单位研制`: a plane (歼-10) or a place (四川成都) is not a 单位 — the type check said so; the model never
    # sees them, while the trace (and the explanation) still lists them as losing candidates
    shown = [c.answers for c in trace.candidates]
    assert ("歼-10",) in shown and "歼-10" not in prompt and "四川成都" not in prompt
    assert rec.answers == ("中国航发",)
    chosen = next(c for c in trace.candidates if c.id == trace.llm.chosen)
    assert chosen.answers == ("中国航发",) and trace.llm.reason.endswith(chosen.id)


def test_offered_keeps_the_best_and_all_when_the_best_is_of_a_ruled_out_kind() -> None:
    def kind(answer: str, score: float, k: float) -> Candidate:
        return replace(cand(answer, score), features={"answer_kind": k})

    good, bad, unknown = kind("a", 2.0, 0.6), kind("b", 1.9, -0.6), kind("c", 1.8, 0.0)
    assert offered([good, bad, unknown]) == [0, 2]
    assert offered([bad, good, unknown]) == [0, 1, 2]
    assert offered([]) == []


@pytest.mark.parametrize(
    "reply",
    [
        "not json at all",  # invalid JSON
        {"choice": "C99"},  # not one of the ids (schema mismatch)
        {"answer": "歼-10"},  # wrong key
        FakeFailure("timeout", "too slow"),
        FakeFailure("unavailable"),
    ],
)
def test_garbage_or_failure_falls_back_to_the_program(reply: Any) -> None:
    baseline, _ = run(None)
    rec, trace = run(FakeLLM([reply]))
    assert rec.answers == baseline.answers
    assert rec.main_path == baseline.main_path
    assert trace.llm.asked and trace.llm.chosen == "C1"
    assert "fail" in trace.llm.reason or "not one of" in trace.llm.reason


class Exploding:
    name = "exploding"

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        raise RuntimeError("backend bug")


def test_backend_exception_falls_back() -> None:
    baseline, _ = run(None)
    rec, trace = run(Exploding())
    assert rec.answers == baseline.answers
    assert "RuntimeError" in trace.llm.reason


def test_not_asked_when_clear_or_none() -> None:
    fake = FakeLLM([])
    _, trace = run(fake, replace(ALWAYS, llm_margin=0.0))
    assert fake.calls == [] and not trace.llm.asked
    _, trace = run(None)
    assert trace.llm.reason == "no LLM configured"


def test_choose_never_raises_on_empty() -> None:
    ds = make_dataset([(QUESTION, "L2")])
    _, analysis = Reasoner(ds).analyse(ds.questions[0])
    d = choose(FakeLLM([]), analysis, [], {}, margin=1.0, max_tokens=8)
    assert not d.asked and d.chosen == 0
