"""Records that tie a KG triple to the sentence it was read from (text → KG, and text multi-hop QA).

One home for both users: `kgreason extract` writes them next to a document's KG; `kgreason textqa` turns the
sentences of a question's evidence triples into each data set's supporting facts. Offsets are character offsets in
the document's text (Python string indices), end exclusive, so `text[start:end]` is the sentence itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgreason.data.records import KGTriple


@dataclass(frozen=True, slots=True)
class Sentence:
    doc_id: str  # the task's doc_id, a file's stem, or a paragraph's title in text QA
    index: int  # position of the sentence in its document, from 0
    text: str
    start: int  # character offset of the sentence in the document's text
    end: int  # exclusive


@dataclass(frozen=True, slots=True)
class SourcedTriple:
    """A KG triple with the sentence that states it; `span` is the part of that sentence read for it."""

    triple: KGTriple
    doc_id: str
    sentence: int  # Sentence.index of the sentence that states it
    span: tuple[int, int]  # character offsets in the document's text, end exclusive
