"""`kgreason extract`'s reading as a `TripleSource` for text QA (`kgreason textqa run`, the KG path): triples of
just the sentences a retriever ranked, read lazily per question, each citing its sentence.

The sentences come grouped by paragraph (`Sentence.doc_id`); each paragraph's sentences are read in windows under
the paragraph's title, exactly as `kgreason extract` reads a document. Only those sentences are known, so the text
the offsets index is rebuilt from them (blank elsewhere): a pronoun finds its antecedent only in an earlier
*given* sentence. Node types come from the rules alone (no typing call): the KG path ranks triples by their text.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgreason.data.provenance import Sentence, SourcedTriple
from kgreason.extract.pipeline import ExtractSettings, ExtractStats, extract_sentences
from kgreason.llm.types import LLM

LAZY_MAX_TOKENS = 320  # per window of two sentences
LAZY_MAX_LINES = 6  # triples per sentence


def known_text(sentences: Sequence[Sentence]) -> str:
    """A text in which every given sentence sits at its offsets, blank elsewhere."""
    chars = [" "] * max((s.end for s in sentences), default=0)
    for s in sentences:
        chars[s.start : s.end] = s.text
    return "".join(chars)


class ExtractorSource:
    """Reads triples from the given sentences with an LLM (replies cached like every call); `stats` adds up what
    every call cost."""

    def __init__(self, llm: LLM, settings: ExtractSettings | None = None) -> None:
        self.llm = llm
        # no second asking of silent sentences: text QA reads per question and pays for every call it waits on
        # (and the measured figures of docs/textqa.md were made so); open values cost no call (and English text,
        # that of the measured sets, has none attributed)
        self.settings = settings or ExtractSettings(
            window=2, max_tokens=LAZY_MAX_TOKENS, reask_silent=False, max_lines=LAZY_MAX_LINES
        )
        self.stats = ExtractStats()

    def extract(self, sentences: Sequence[Sentence]) -> list[SourcedTriple]:
        by_paragraph: dict[str, list[Sentence]] = {}
        for s in sentences:
            by_paragraph.setdefault(s.doc_id, []).append(s)
        out: list[SourcedTriple] = []
        for doc_id, group in by_paragraph.items():
            group.sort(key=lambda s: s.index)
            kg = extract_sentences(
                self.llm, doc_id, group, known_text(group), self.settings, title=doc_id.split("#")[0], typed=False
            )
            self.stats.add(kg.stats)
            out.extend(p.sourced for p in kg.triples)
        return out
