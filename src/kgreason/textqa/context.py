"""An item's sentences as the shared `Sentence` records, each with the short id the LLM sees (`S1`, `S2`, …) and the
paragraph it belongs to, so that a cited sentence maps back to each set's supporting fact."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kgreason.data.provenance import Sentence
from kgreason.textqa.records import Paragraph, TextQAItem


@dataclass(frozen=True, slots=True)
class ContextSentence:
    key: str  # "S<n>", the id shown to the LLM, from 1 in reading order
    paragraph: Paragraph
    sentence: Sentence  # doc_id: the paragraph's title (with "#idx" when a title repeats); index: sentence number

    @property
    def text(self) -> str:
        return self.sentence.text


def context_sentences(item: TextQAItem) -> list[ContextSentence]:
    """Every non-empty sentence of every paragraph, in reading order. Offsets are in the paragraph's text."""
    repeated = {t for t, n in Counter(p.title for p in item.paragraphs).items() if n > 1}
    out: list[ContextSentence] = []
    for para in item.paragraphs:
        doc_id = f"{para.title}#{para.index}" if para.title in repeated else para.title
        offset = 0
        for i, raw in enumerate(para.sentences):
            if offset and not raw[:1].isspace():
                offset += 1  # join_sentences adds one space between 2Wiki's sentences
            text = raw.strip()
            start = offset + (len(raw) - len(raw.lstrip()))
            offset += len(raw)
            if text:
                sentence = Sentence(doc_id=doc_id, index=i, text=text, start=start, end=start + len(text))
                out.append(ContextSentence(f"S{len(out) + 1}", para, sentence))
    return out
