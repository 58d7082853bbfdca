"""A second retrieval round (after IRCoT): retrieve again with the question plus what the first reading found.

A two-hop question names its first hop only ("the director of The Hi-Jackers"); the second hop's sentences name the
bridge entity ("Jim O'Connolly … died in Hythe"), which the question does not contain, so the first ranking misses
them. The reader's first answer and sub-answers usually name that entity, so the sentences are ranked again against
the question plus those answers; the best-ranked sentences not shown yet (at most `NEW_SENTENCES`, with their
paragraphs' first sentences) are added to what was shown and the reader is asked once more. Bounded to one extra call,
and no call at all when the new ranking brings nothing new or the first call failed.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgreason.retrieve.base import Embedder
from kgreason.textqa.answers import PathAnswer
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.retrieval import RetrieverName, rank_sentences, select_context

NEW_SENTENCES = 3


def bridge_query(question: str, first: PathAnswer) -> str:
    """The question followed by the first reading's sub-answers and answer (each once)."""
    found = dict.fromkeys(a for a in [*(s.answer for s in first.steps), first.answer] if a)
    return " ".join([question, *found])


def second_round_context(
    question: str,
    first: PathAnswer,
    sentences: Sequence[ContextSentence],
    shown: Sequence[ContextSentence],
    retriever: RetrieverName,
    embedder: Embedder | None = None,
) -> list[ContextSentence] | None:
    """What to show the reader in a second round (reading order), or None when there is nothing new to show."""
    if first.failure is not None or not first.answer:
        return None
    seen = {s.key for s in shown}
    ranked = rank_sentences(bridge_query(question, first), sentences, retriever, embedder)
    new = [s for s in ranked if s.key not in seen][:NEW_SENTENCES]
    if not new:
        return None
    new_keys = {s.key for s in new}
    # The new sentences first, so that select_context takes them as its top and adds their paragraphs' leads.
    chosen = select_context([*new, *(s for s in ranked if s.key not in new_keys)], len(new))
    extra = {s.key: s for s in chosen if s.key not in seen}
    position = {s.key: i for i, s in enumerate(sentences)}
    return sorted([*shown, *extra.values()], key=lambda s: position[s.key])
