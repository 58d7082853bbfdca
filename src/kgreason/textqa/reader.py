"""The baseline path: retrieved sentences + an LLM reader, no KG.

One call per question under a JSON schema: the model writes its decomposition (at most three sub-questions, each
with its answer and the ids of the sentences that state it — a closed list: the ids shown), then the final answer.
The supporting facts are the cited sentences. Yes/no questions (the question's first word is an auxiliary verb) are
told so, and their answer is held to `yes`/`no` by the schema; for comparisons the prompt asks for the name of the
entity chosen, which is what HotpotQA and 2Wiki expect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kgreason.llm.types import LLM, ChatMessage
from kgreason.textqa.answers import PathAnswer, Step
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.evidence import step_evidence

MAX_STEPS = 3
MAX_CITED_PER_STEP = 3
ANSWER_CHARS = 80
_YES_NO_START = re.compile(
    r"^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might)\b", re.IGNORECASE
)

SYSTEM = (
    "You answer multi-hop questions using only the numbered sentences given. Reply with JSON only. "
    "Keep answers short: an entity name, date, number or short phrase copied from the sentences."
)


def is_yes_no(question: str) -> bool:
    return bool(_YES_NO_START.match(question.strip()))


def render_sentences(sentences: Sequence[ContextSentence]) -> str:
    return "\n".join(f"[{s.key}] ({s.paragraph.title}) {s.text}" for s in sentences)


def cited_ids_schema(keys: Sequence[str]) -> dict[str, Any]:
    """The ids of the sentences a reply cites: a closed list of those shown, so nothing else can be cited."""
    return {
        "type": "array",
        "items": {"type": "string", "enum": list(keys)},
        "minItems": 1,
        "maxItems": MAX_CITED_PER_STEP,
    }


def reader_schema(keys: Sequence[str], *, yes_no: bool) -> dict[str, Any]:
    step = {
        "type": "object",
        "properties": {
            "question": {"type": "string", "maxLength": 160},
            "answer": {"type": "string", "maxLength": ANSWER_CHARS},
            "sentences": cited_ids_schema(keys),
        },
        "required": ["question", "answer", "sentences"],
        "additionalProperties": False,
    }
    answer: dict[str, Any] = (
        {"type": "string", "enum": ["yes", "no"]} if yes_no else {"type": "string", "maxLength": ANSWER_CHARS}
    )
    return {
        "type": "object",
        "properties": {
            "steps": {"type": "array", "items": step, "minItems": 1, "maxItems": MAX_STEPS},
            "answer": answer,
        },
        "required": ["steps", "answer"],
        "additionalProperties": False,
    }


def reader_messages(question: str, sentences: Sequence[ContextSentence], *, yes_no: bool) -> list[ChatMessage]:
    kind = (
        'This is a yes/no question: the final answer is "yes" or "no".'
        if yes_no
        else "If the question compares two things (which one, who, first, older, …), answer with the name of the "
        "one chosen."
    )
    user = (
        f"Sentences:\n{render_sentences(sentences)}\n\n"
        f"Question: {question}\n{kind}\n"
        "Answer step by step: each step is a sub-question you answer from the sentences, with the ids of the "
        f"sentences that state its answer (at most {MAX_STEPS} steps); then the final answer."
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]


def clean_answer(text: str) -> str:
    return text.strip().strip(" .;,").strip()


def read_answer(llm: LLM, question: str, sentences: Sequence[ContextSentence]) -> PathAnswer:
    """The baseline's answer; a failed call gives an empty answer with the failure kind."""
    keys = [s.key for s in sentences]
    yes_no = is_yes_no(question)
    result = llm.complete_json(
        reader_messages(question, sentences, yes_no=yes_no), reader_schema(keys, yes_no=yes_no), max_tokens=320
    )
    if not result.ok:
        return PathAnswer("baseline", "", (), (), "llm-decomposition", (), len(sentences), failure=result.kind)
    steps = tuple(
        Step(str(s["question"]).strip(), clean_answer(str(s["answer"])), tuple(dict.fromkeys(s["sentences"])))
        for s in result.value["steps"]
    )
    cited = tuple(dict.fromkeys(k for s in steps for k in s.sentences))
    order = {k: i for i, k in enumerate(keys)}
    return PathAnswer(
        path="baseline",
        answer=clean_answer(str(result.value["answer"])),
        sentences=tuple(sorted(cited, key=order.__getitem__)),
        steps=steps,
        steps_source="llm-decomposition",
        evidence=step_evidence(steps, sentences),
        shown=len(sentences),
    )
