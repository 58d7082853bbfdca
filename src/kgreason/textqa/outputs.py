"""A path's answers in the seed's answer format and in each set's official prediction format.

Answer format (spec 003): `id, original_question, ground_truth, final_answer, Inference_process, sub_questions`
(each `sub_question`, `relevant_chunks` = [{title, chunk: [sentence, …]}], `answer`), plus `sub_questions_source`:
`llm-decomposition` (the baseline's reader wrote them under a schema) or `evidence-chain` (the KG path: one per
evidence triple). Official formats: HotpotQA `{"answer": {id: a}, "sp": {id: [[title, sent_id], …]}}`, 2Wiki the
same plus `"evidence": {id: [[s, r, o], …]}`, MuSiQue one JSON line per item `{id, predicted_answer,
predicted_support_idxs, predicted_answerable}`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kgreason.textqa.answers import PathAnswer
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.records import TextQAItem
from kgreason.textqa.support import Completion

UNAVAILABLE = "Unavailable"
_UNANSWERABLE = {"", "unknown", "unanswerable", "none", "not given", "not mentioned"}


def _chunks(keys: Sequence[str], by_key: dict[str, ContextSentence]) -> list[dict[str, Any]]:
    grouped: dict[int, dict[str, Any]] = {}
    for key in keys:
        s = by_key.get(key)
        if s is None:
            continue
        entry = grouped.setdefault(s.paragraph.index, {"title": s.paragraph.title, "chunk": []})
        entry["chunk"].append(s.text)
    return list(grouped.values())


def inference_text(answer: PathAnswer) -> str:
    if answer.failure is not None or not answer.answer:
        return UNAVAILABLE
    lines = [f"{i}. {s.question} → {s.answer} [{', '.join(s.sentences)}]" for i, s in enumerate(answer.steps, 1)]
    if answer.evidence:
        lines.append("Evidence: " + "; ".join(f"({s}, {r}, {o})" for s, r, o in answer.evidence))
    lines.append(f"Answer: {answer.answer}")
    return "\n".join(lines)


def answer_record(
    item: TextQAItem, answer: PathAnswer, sentences: Sequence[ContextSentence], completion: Completion | None = None
) -> dict[str, Any]:
    by_key = {s.key: s for s in sentences}
    keys = completion.sentences if completion is not None else answer.sentences
    added = dict(completion.added) if completion is not None else {}
    return {
        "id": item.id,
        "original_question": item.question,
        "ground_truth": item.answer,
        "final_answer": answer.answer or UNAVAILABLE,
        "Inference_process": inference_text(answer),
        "sub_questions": [
            {
                "sub_question": step.question,
                "relevant_chunks": _chunks(step.sentences, by_key),
                "answer": step.answer or None,
            }
            for step in answer.steps
        ],
        "sub_questions_source": answer.steps_source,
        # The supporting sentences: cited by the path, or added by a rule of textqa.support (`added_by`).
        "supporting_sentences": [
            {
                "title": by_key[k].paragraph.title,
                "sent_id": by_key[k].sentence.index,
                "sentence": by_key[k].text,
                "added_by": added.get(k),
            }
            for k in keys
            if k in by_key
        ],
    }


def supporting_facts(answer: PathAnswer, sentences: Sequence[ContextSentence]) -> list[list[Any]]:
    """[[title, sentence index], …] of the cited sentences (HotpotQA, 2Wiki)."""
    by_key = {s.key: s for s in sentences}
    return [[by_key[k].paragraph.title, by_key[k].sentence.index] for k in answer.sentences if k in by_key]


def support_paragraphs(answer: PathAnswer, sentences: Sequence[ContextSentence]) -> list[int]:
    """Sorted paragraph idx of the cited sentences (MuSiQue)."""
    by_key = {s.key: s for s in sentences}
    return sorted({by_key[k].paragraph.index for k in answer.sentences if k in by_key})


def wiki_prediction(rows: Sequence[tuple[TextQAItem, PathAnswer, Sequence[ContextSentence]]]) -> dict[str, Any]:
    """HotpotQA's official prediction object; with `evidence` when the items are 2Wiki's."""
    out: dict[str, Any] = {"answer": {}, "sp": {}}
    if rows and rows[0][0].dataset == "2wiki":
        out["evidence"] = {}
    for item, answer, sentences in rows:
        out["answer"][item.id] = answer.answer
        out["sp"][item.id] = supporting_facts(answer, sentences)
        if "evidence" in out:
            out["evidence"][item.id] = [list(t) for t in answer.evidence]
    return out


def musique_prediction_lines(rows: Sequence[tuple[TextQAItem, PathAnswer, Sequence[ContextSentence]]]) -> str:
    lines = []
    for item, answer, sentences in rows:
        record = {
            "id": item.id,
            "predicted_answer": answer.answer,
            "predicted_support_idxs": support_paragraphs(answer, sentences),
            "predicted_answerable": answer.answer.strip().lower() not in _UNANSWERABLE,
        }
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)
