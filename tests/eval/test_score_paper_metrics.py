"""The paper's metrics (spec 001): Accuracy, and the LLM-Score judge through a small fake `LLM`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kgreason.llm.types import LLM, ChatMessage, LLMFailure, LLMResult, LLMSuccess, Usage
from kgreason.mecha.paper_metrics import (
    JUDGE_SCHEMA,
    JudgeItem,
    accuracy,
    answer_contains,
    judge_messages,
    llm_score,
    llm_score_all,
)


def test_answer_contains_after_normalisation() -> None:
    assert answer_contains("歼-20 于 2011 年 1 月 11 日首飞。", "2011年1月11日")
    assert answer_contains("指挥诺曼底登陆的是“艾森豪威尔”", "艾森豪威尔")
    assert answer_contains("Ｆ－３５Ａ", "f-35a")
    assert not answer_contains("蒙哥马利", "艾森豪威尔")
    assert not answer_contains("任何回答", "。")  # an entity that normalises to nothing


def test_accuracy() -> None:
    pairs = [("答案是艾森豪威尔。", "艾森豪威尔"), ("蒙哥马利", "艾森豪威尔"), ("歼-20", "歼20"), ("不知道", "辽宁舰")]
    assert accuracy(pairs) == pytest.approx(0.5)
    assert accuracy([]) == 0.0
    assert accuracy(iter(pairs)) == pytest.approx(0.5)  # any iterable


class FakeJudge:
    """Replays canned replies (an int score, a raw value, or a failure kind) and records what it was asked."""

    def __init__(self, replies: Sequence[Any]) -> None:
        self._replies = list(replies)
        self.calls: list[tuple[list[ChatMessage], dict[str, Any], int]] = []

    @property
    def name(self) -> str:
        return "fake/judge"

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        self.calls.append((messages, schema, max_tokens))
        reply = self._replies[len(self.calls) - 1]
        if isinstance(reply, str):
            return LLMFailure(
                kind="timeout" if reply == "timeout" else "schema_mismatch", message=reply, model=self.name
            )
        return LLMSuccess(value=reply, model=self.name, usage=Usage())


ITEM = JudgeItem("在第二次世界大战期间指挥过诺曼底登陆的军事人物是谁？", "是艾森豪威尔。", "艾森豪威尔")


def test_fake_implements_the_protocol() -> None:
    assert isinstance(FakeJudge([]), LLM)


def test_llm_score_asks_with_the_schema_and_the_prompt() -> None:
    judge = FakeJudge([{"score": 4}])
    assert llm_score(judge, ITEM) == 4
    messages, schema, _ = judge.calls[0]
    assert schema == JUDGE_SCHEMA
    assert schema["properties"]["score"] == {"type": "integer", "enum": [1, 2, 3, 4, 5]}
    assert [m.role for m in messages] == ["system", "user"]
    assert "军事装备" in messages[0].content
    user = messages[1].content
    for text in (ITEM.question, ITEM.answer, ITEM.reference, "1 到 5", "参考答案"):
        assert text in user
    assert messages == judge_messages(ITEM)


@pytest.mark.parametrize("reply", ["timeout", "schema", {"score": 6}, {"score": 0}, {"score": True}, {"x": 3}, [3]])
def test_llm_score_failures_give_none(reply: Any) -> None:
    assert llm_score(FakeJudge([reply]), ITEM) is None


def test_llm_score_all_mean_ignores_failures() -> None:
    judge = FakeJudge([{"score": 5}, "timeout", {"score": 2}, {"score": 9}])
    summary = llm_score_all(judge, [ITEM] * 4)
    assert summary.scores == (5, None, 2, None)
    assert summary.failed == 2
    assert summary.count == 4
    assert summary.mean == pytest.approx(3.5)


def test_llm_score_all_every_call_failed() -> None:
    summary = llm_score_all(FakeJudge(["timeout", "timeout"]), [ITEM, ITEM])
    assert (summary.mean, summary.failed) == (None, 2)
    assert llm_score_all(FakeJudge([]), []).mean is None
