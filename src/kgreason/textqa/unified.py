"""The seed's unified format of the three sets (spec 003, after Efficient_RAG): one object per item.

`chunks` are the item's paragraphs (`id` = position, MuSiQue: `idx`); `supporting_facts` are chunks too — for HotpotQA
and 2Wiki one per gold sentence (`chunk` = that sentence, plus its `sent_id`), for MuSiQue one per supporting
paragraph; `decomposition` is MuSiQue's `question_decomposition` (`question`, `answer`, `paragraph_support_idx`) and
empty for the others. Kept beyond the seed's keys so that nothing of the original is lost: `dataset`,
`answer_aliases`, `answerable` (MuSiQue) and `evidences` (2Wiki).
"""

from __future__ import annotations

from typing import Any

from kgreason.textqa.records import Paragraph, TextQAItem


def to_unified(item: TextQAItem) -> dict[str, Any]:
    by_title: dict[str, Paragraph] = {}
    for p in item.paragraphs:
        by_title.setdefault(p.title, p)
    by_index = {p.index: p for p in item.paragraphs}
    facts: list[dict[str, Any]] = []
    for title, sent_id in item.supporting_facts:
        para = by_title.get(title)
        sentence = para.sentences[sent_id] if para is not None and 0 <= sent_id < len(para.sentences) else ""
        facts.append(
            {"id": para.index if para else None, "title": title, "chunk": sentence.strip(), "sent_id": sent_id}
        )
    for idx in item.supporting_paragraphs:
        para = by_index.get(idx)
        facts.append({"id": idx, "title": para.title if para else "", "chunk": para.text if para else ""})
    out: dict[str, Any] = {
        "id": item.id,
        "hop": item.hop,
        "type": item.type,
        "question": item.question,
        "answer": item.answer,
        "chunks": [{"id": p.index, "title": p.title, "chunk": p.text} for p in item.paragraphs],
        "supporting_facts": facts,
        "decomposition": [
            {"question": s.question, "answer": s.answer, "paragraph_support_idx": s.paragraph}
            for s in item.decomposition
        ],
        "dataset": item.dataset,
        "answer_aliases": list(item.aliases),
    }
    if item.answerable is not None:
        out["answerable"] = item.answerable
    if item.evidences:
        out["evidences"] = [list(t) for t in item.evidences]
    return out
