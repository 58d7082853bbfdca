"""Ranking an item's sentences for its question: BM25 over English words, e5 cosine, or both fused.

The question's paragraphs are few (10–20), so each item is its own collection: BM25's idf then tells what
distinguishes the item's sentences from each other. A sentence is ranked with its paragraph's title in front
(`title: sentence`), because a Wikipedia sentence often refers to its subject only as "he" or "the film".
Fusion is reciprocal-rank fusion (k = 60), which needs no score calibration between the two rankers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import numpy as np

from kgreason.retrieve.base import Embedder
from kgreason.retrieve.lexical import BM25
from kgreason.textqa.context import ContextSentence

RetrieverName = Literal["bm25", "embed", "hybrid"]
RETRIEVERS: tuple[RetrieverName, ...] = ("bm25", "embed", "hybrid")
RRF_K = 60

_WORD = re.compile(r"\w+", re.UNICODE)
# Words too common to tell sentences apart; the question's form words ("which", "who") match nothing useful.
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "as",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "he",
        "she",
        "they",
        "his",
        "her",
        "their",
        "them",
        "who",
        "whom",
        "whose",
        "which",
        "what",
        "when",
        "where",
        "why",
        "how",
        "did",
        "do",
        "does",
        "has",
        "have",
        "had",
        "not",
        "than",
        "then",
        "there",
        "into",
        "also",
        "but",
        "if",
        "so",
        "such",
        "about",
        "after",
        "before",
        "both",
        "either",
        "first",
    ]
)


def english_words(text: str) -> list[str]:
    """Lower-cased words without stopwords; a CJK run counts character by character (Chinese needs no stemming)."""
    out: list[str] = []
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS:
            continue
        if any("\u4e00" <= ch <= "\u9fff" for ch in word):
            out.extend(word)
        else:
            out.append(word)
    return out


def passage_text(sentence: ContextSentence) -> str:
    return f"{sentence.paragraph.title}: {sentence.text}"


def bm25_scores(question: str, texts: Sequence[str]) -> list[float]:
    if not texts:
        return []
    return BM25(list(texts), tokenize=english_words).scores(question)


def embed_scores(question: str, texts: Sequence[str], embedder: Embedder) -> list[float]:
    if not texts:
        return []
    q = embedder.embed_queries([question])[0]
    vectors = embedder.embed_passages(list(texts))
    return [float(x) for x in np.asarray(vectors @ q)]


def _ranks(scores: Sequence[float]) -> list[int]:
    """0-based rank of each position (ties keep reading order)."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    ranks = [0] * len(scores)
    for rank, i in enumerate(order):
        ranks[i] = rank
    return ranks


def rank_texts(
    question: str, texts: Sequence[str], retriever: RetrieverName, embedder: Embedder | None = None
) -> list[int]:
    """Positions of `texts`, most relevant to the question first (ties keep reading order)."""
    if retriever != "bm25" and embedder is None:
        raise ValueError(f"retriever {retriever!r} needs an embedder")
    if retriever == "bm25":
        fused = bm25_scores(question, texts)
    elif retriever == "embed":
        assert embedder is not None
        fused = embed_scores(question, texts, embedder)
    else:
        assert embedder is not None
        lexical = _ranks(bm25_scores(question, texts))
        dense = _ranks(embed_scores(question, texts, embedder))
        fused = [1.0 / (RRF_K + a) + 1.0 / (RRF_K + b) for a, b in zip(lexical, dense, strict=True)]
    return sorted(range(len(texts)), key=lambda i: (-fused[i], i))


def rank_sentences(
    question: str,
    sentences: Sequence[ContextSentence],
    retriever: RetrieverName,
    embedder: Embedder | None = None,
) -> list[ContextSentence]:
    """All sentences, most relevant first."""
    order = rank_texts(question, [passage_text(s) for s in sentences], retriever, embedder)
    return [sentences[i] for i in order]


def select_context(ranked: Sequence[ContextSentence], k: int, *, with_leads: bool = True) -> list[ContextSentence]:
    """The top `k` sentences, plus (with `with_leads`) the first sentence of each of their paragraphs — it names
    the paragraph's subject, and HotpotQA counts it as a supporting fact in most bridge questions — in reading
    order, so that a paragraph's sentences read as text."""
    chosen = list(ranked[:k])
    if with_leads:
        by_paragraph = {s.paragraph.index for s in chosen}
        leads = [s for s in ranked if s.sentence.index == _first_index(s, ranked) and s.paragraph.index in by_paragraph]
        chosen.extend(s for s in leads if s not in chosen)
    position = {s.key: int(s.key[1:]) for s in chosen}
    return sorted(chosen, key=lambda s: position[s.key])


def _first_index(sentence: ContextSentence, ranked: Sequence[ContextSentence]) -> int:
    return min(s.sentence.index for s in ranked if s.paragraph.index == sentence.paragraph.index)
