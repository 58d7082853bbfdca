"""Sentences of MuSiQue's paragraphs, which come as one text each (HotpotQA and 2Wiki give sentences): the
project's one splitter, `kgreason.extract.sentences` (Chinese and English, exact offsets), as plain strings."""

from __future__ import annotations

from kgreason.extract.sentences import split_sentences as split_with_offsets


def split_sentences(text: str) -> tuple[str, ...]:
    """The sentences of `text`, each stripped, in order."""
    return tuple(s.text for s in split_with_offsets("", text))
