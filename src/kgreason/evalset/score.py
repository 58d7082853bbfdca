"""Scoring of spec 002: keywords (all present -> 1.0, a share -> that share, none -> 0.0) and, with a judge model,
the 1-5 rubric."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kgreason.llm.request import with_system
from kgreason.llm.types import LLM, ChatMessage
from kgreason.text.normalize import normalize_text

RUBRIC = (
    "5 完全正确，信息完整；4 基本正确，有minor遗漏；3 部分正确，有明显遗漏；2 方向正确但关键信息错误；1 完全错误或无关"
)
JUDGE_SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}},
    "required": ["score"],
    "additionalProperties": False,
}
JUDGE_MAX_TOKENS = 16


@dataclass(frozen=True, slots=True)
class KeywordScore:
    score: float
    matched: tuple[str, ...]
    missing: tuple[str, ...]


def keyword_score(answer: str, keywords: Sequence[str]) -> KeywordScore | None:
    """The share of keywords the answer contains (compared normalised: width, case, spaces); None without keywords."""
    if not keywords:
        return None
    text = normalize_text(answer)
    matched = tuple(k for k in keywords if normalize_text(k) in text)
    missing = tuple(k for k in keywords if k not in matched)
    return KeywordScore(len(matched) / len(keywords), matched, missing)


def judge(llm: LLM, question: str, expected: str, answer: str) -> int | None:
    """The rubric score a model gives the answer (None when the model fails)."""
    prompt = (
        f"问题：{question}\n标准答案：{expected}\n系统回答：{answer}\n\n"
        f'按以下标准给系统回答打分（1-5）：{RUBRIC}\n以JSON回答：{{"score": 分数}}'
    )
    result = llm.complete_json(with_system([ChatMessage("user", prompt)]), JUDGE_SCHEMA, max_tokens=JUDGE_MAX_TOKENS)
    if not result.ok or not isinstance(result.value, dict):
        return None
    return int(result.value["score"])
