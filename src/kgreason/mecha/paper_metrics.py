"""The answer metrics of the relevance-prompting paper (spec 001): Accuracy and the LLM-Score judge.

- **Accuracy**: the share of answers whose text contains the question's gold answer entity (spec 001, after
  reference [10]), both normalised with `normalize_text` (so `“歼-20”首飞于2011年` contains `歼20`).
- **LLM-Score**: a model grades each answer from 1 to 5 against the reference answer (spec 001, 表 4). The prompt
  below follows the paper's idea in our own words: a strict, fair grader; factual accuracy against the reference
  is the only criterion; length must not sway the grade; full marks are not given lightly. The model answers under
  a JSON schema whose `score` is an integer enum 1..5, through the `LLM` protocol. A failed call (or a value outside
  1..5) gives `None`; the mean ignores failures and says how many there were.

These are for comparing with the paper; the task's own score is `kgreason.eval.official`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kgreason.llm.types import LLM, ChatMessage
from kgreason.text.normalize import normalize_text

# ---------------------------------------------------------------------------------------------------------- Accuracy


def answer_contains(prediction: str, gold_entity: str) -> bool:
    """Whether the (normalised) prediction text contains the (normalised) gold entity. An entity that normalises to
    nothing is never contained: the empty string would otherwise match every answer."""
    gold = normalize_text(gold_entity)
    return bool(gold) and gold in normalize_text(prediction)


def accuracy(pairs: Iterable[tuple[str, str]]) -> float:
    """Accuracy over `(prediction text, gold answer entity)` pairs: the fraction where the text contains the entity
    (`answer_contains`). 0.0 for no pairs."""
    hits = total = 0
    for prediction, gold in pairs:
        total += 1
        hits += answer_contains(prediction, gold)
    return hits / total if total else 0.0


# --------------------------------------------------------------------------------------------------------- LLM-Score

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"score": {"type": "integer", "enum": [1, 2, 3, 4, 5]}},
    "required": ["score"],
    "additionalProperties": False,
}

JUDGE_SYSTEM = "你是一名严谨、公正的评审员，负责为{domain}领域问答中助手给出的回答打分。你只依据事实是否正确来评分。"

JUDGE_PROMPT = """请对照参考答案，判断下面这段问答中助手的回答在事实上是否准确，并给出 1 到 5 之间的整数分。

评分标准：
5 分：与参考答案完全一致，没有任何事实错误；
4 分：核心结论正确，只有细小的遗漏或不够精确之处；
3 分：部分正确，但缺少关键内容或含有一处明显错误；
2 分：大部分内容错误，只与参考答案有少量重合；
1 分：完全错误、答非所问或没有作答。

注意：
- 只看事实是否正确，回答写得长或短都不应影响分数；
- 保持客观，评分从严，不要轻易给 5 分；
- 只输出 JSON，例如 {{"score": 3}}，不要附加解释。

【问题】
{question}

【助手的回答】
{answer}

【参考答案】
{reference}"""


@dataclass(frozen=True, slots=True)
class JudgeItem:
    question: str
    answer: str  # the system's answer text
    reference: str  # the gold answer (text or entity)


@dataclass(frozen=True, slots=True)
class LLMScoreSummary:
    scores: tuple[int | None, ...]  # one per item, None where the judge failed
    mean: float | None  # over the successful items; None when every call failed (or there were no items)
    failed: int  # how many items got no score

    @property
    def count(self) -> int:
        return len(self.scores)


def judge_messages(item: JudgeItem, *, domain: str = "军事装备") -> list[ChatMessage]:
    """The chat the judge model sees for one answer."""
    return [
        ChatMessage("system", JUDGE_SYSTEM.format(domain=domain)),
        ChatMessage(
            "user",
            JUDGE_PROMPT.format(question=item.question, answer=item.answer, reference=item.reference),
        ),
    ]


def llm_score(llm: LLM, item: JudgeItem, *, domain: str = "军事装备") -> int | None:
    """The judge's 1..5 grade for one answer, or None when the call fails or returns anything else."""
    result = llm.complete_json(judge_messages(item, domain=domain), JUDGE_SCHEMA, max_tokens=32)
    if not result.ok:
        return None
    value = result.value.get("score") if isinstance(result.value, dict) else None
    # Checked again although the backend validates: a bool is an int in Python, and a fake may not validate.
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5:
        return value
    return None


def llm_score_all(llm: LLM, items: Sequence[JudgeItem], *, domain: str = "军事装备") -> LLMScoreSummary:
    """LLM-Score over many answers: every grade, the mean of the successful ones, the number of failures."""
    scores = tuple(llm_score(llm, item, domain=domain) for item in items)
    ok = [s for s in scores if s is not None]
    return LLMScoreSummary(scores, sum(ok) / len(ok) if ok else None, len(scores) - len(ok))
