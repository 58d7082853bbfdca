"""Lexical matching for Chinese without a segmenter: character unigrams + bigrams, BM25, and overlap ratios.

Chinese has no spaces and no word segmenter ships here, so a text's terms are its normalised characters and
character bigrams (the usual n-gram substitute); runs of ASCII letters and digits are kept whole as well, so `HT200`
or `20CrMnTi` match as one term.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence

from kgreason.data.records import PathTriple
from kgreason.text.normalize import normalize_text
from kgreason.text.overlap import longest_common_substring as common_substring

_ASCII_RUN = re.compile(r"[a-z0-9.]{2,}")


def terms(text: str) -> list[str]:
    """Character unigrams, bigrams and whole ASCII runs of the normalised text."""
    s = normalize_text(text)
    out = list(s)
    out.extend(s[i : i + 2] for i in range(len(s) - 1))
    out.extend(_ASCII_RUN.findall(s))
    return out


def char_overlap(part: str, question: str) -> float:
    """Share of `part`'s distinct characters that occur in the question (0 for an empty part)."""
    p, q = set(normalize_text(part)), set(normalize_text(question))
    return len(p & q) / len(p) if p else 0.0


def bigram_overlap(part: str, question: str) -> float:
    """Share of `part`'s distinct character bigrams that occur in the question; single characters count as one."""
    p, q = normalize_text(part), normalize_text(question)
    grams = {p[i : i + 2] for i in range(len(p) - 1)} or ({p} if p else set())
    return sum(1 for g in grams if g in q) / len(grams) if grams else 0.0


def longest_common_substring(a: str, b: str) -> int:
    """Length of the longest common substring of the normalised texts."""
    return common_substring(normalize_text(a), normalize_text(b))[0]


def triple_text(triple: PathTriple) -> str:
    return f"{triple[0]} {triple[1]} {triple[2]}"


class BM25:
    """Okapi BM25 over the terms of a fixed document collection: `terms()` (Chinese characters and bigrams) unless
    another `tokenize` is given (English words: `kgreason.textqa.retrieval`)."""

    def __init__(
        self,
        documents: Sequence[str],
        *,
        k1: float = 1.2,
        b: float = 0.75,
        tokenize: Callable[[str], list[str]] = terms,
    ) -> None:
        self.k1, self.b = k1, b
        self._tokenize = tokenize
        self._docs = [Counter(tokenize(d)) for d in documents]
        self._lengths = [sum(c.values()) for c in self._docs]
        self._avg = (sum(self._lengths) / len(self._lengths)) if self._lengths else 0.0
        df: Counter[str] = Counter()
        for c in self._docs:
            df.update(c.keys())
        n = len(self._docs)
        # the "+1" form of idf keeps every weight positive, so a term shared by most documents never counts against
        self._idf = {t: math.log(1.0 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def score(self, query: str, index: int) -> float:
        doc, length = self._docs[index], self._lengths[index]
        norm = self.k1 * (1.0 - self.b + self.b * length / self._avg) if self._avg else self.k1
        total = 0.0
        for t in set(self._tokenize(query)):
            f = doc.get(t, 0)
            if f:
                total += self._idf.get(t, 0.0) * f * (self.k1 + 1.0) / (f + norm)
        return total

    def scores(self, query: str) -> list[float]:
        return [self.score(query, i) for i in range(len(self._docs))]


class BM25TripleScorer:
    """BM25 of the question against `[s r o]`; the collection is a whole KG when given, else the triples of each
    call (then idf reflects what distinguishes the candidates from each other)."""

    def __init__(self, kg: Sequence[PathTriple] | None = None) -> None:
        self._kg_index: dict[PathTriple, int] = {}
        self._bm25: BM25 | None = None
        if kg is not None:
            self._kg_index = {t: i for i, t in enumerate(kg)}
            self._bm25 = BM25([triple_text(t) for t in kg])

    @property
    def name(self) -> str:
        return "bm25-kg" if self._bm25 is not None else "bm25-local"

    def score(self, question: str, triples: Sequence[PathTriple]) -> list[float]:
        if self._bm25 is not None and all(t in self._kg_index for t in triples):
            return [self._bm25.score(question, self._kg_index[t]) for t in triples]
        return BM25([triple_text(t) for t in triples]).scores(question) if triples else []
