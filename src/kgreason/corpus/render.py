"""Plain-text rendering of a `CorpusAnswer` for people (`kgreason ask`, `kgreason chat`)."""

from __future__ import annotations

from kgreason.corpus.answer import CorpusAnswer

CONSTRAINT_NONE = "无"


def render_answer(result: CorpusAnswer) -> str:
    """The answer, the evidence chain with each triple's document and source sentence, and the constraints."""
    lines: list[str] = []
    if result.kind == "account":
        lines.append(f"经过（{result.answers[0] if result.answers else ''}，按时间顺序）：")
    else:
        lines.append(f"答案：{result.text}")
    if result.evidence:
        if result.kind != "account":
            lines.append("证据链：")
        for i, step in enumerate(result.evidence, start=1):
            when = f"{step.date} " if step.date else ""
            where = "推导" if step.derived else (step.doc_id or "?")
            lines.append(f"  {i}. {when}({step.triple[0]}, {step.triple[1]}, {step.triple[2]})  [{where}]")
            if step.sentence:
                lines.append(f"     原文：{step.sentence}")
    if result.kind in ("fact", "no_answer"):
        items = [f"{k}={v}" for k, v in result.constraints.items()]
        lines.append(f"约束：{'；'.join(items) if items else CONSTRAINT_NONE}")
    if result.doc_ids:
        lines.append(f"文档：{', '.join(result.doc_ids)}")
    return "\n".join(lines)
