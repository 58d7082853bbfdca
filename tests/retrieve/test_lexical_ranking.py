"""BM25 over characters/bigrams, overlap features, ranking metrics."""

from __future__ import annotations

import pytest

from kgreason.retrieve.base import TripleScorer
from kgreason.retrieve.lexical import (
    BM25,
    BM25TripleScorer,
    bigram_overlap,
    char_overlap,
    longest_common_substring,
    terms,
)
from kgreason.retrieve.ranking import rank_metrics, ranking


def test_terms_chars_bigrams_ascii_runs() -> None:
    t = terms("HT200的密度")
    assert "密" in t and "密度" in t and "ht200" in t


def test_overlaps() -> None:
    assert char_overlap("熔点", "灰铸铁的熔点是多少") == 1.0
    assert char_overlap("", "x") == 0.0
    assert bigram_overlap("熔点温度", "灰铸铁的熔点是多少") == pytest.approx(1 / 3)
    assert longest_common_substring("屈服强度(铸造方法: S)", "S铸造方法的屈服强度") == 4


def test_bm25_prefers_matching_document() -> None:
    bm = BM25(["灰铸铁 熔点 1200℃", "灰铸铁 密度 7", "灰铸铁 代号 HT"])
    s = bm.scores("灰铸铁的熔点是多少")
    assert s[0] > s[1] and s[0] > s[2]
    assert BM25([]).scores("x") == []


def test_bm25_triple_scorer_kg_and_local() -> None:
    kg = [("灰铸铁", "熔点", "1200℃"), ("灰铸铁", "密度", "7"), ("铅", "熔点", "327℃")]
    for scorer in (BM25TripleScorer(kg), BM25TripleScorer()):
        assert isinstance(scorer, TripleScorer)
        s = scorer.score("灰铸铁的熔点是多少", kg[:2])
        assert s[0] > s[1]
    assert BM25TripleScorer(kg).score("x", [("not", "in", "kg")]) == [0.0]  # falls back to local idf
    assert BM25TripleScorer().score("x", []) == []


def test_ranking_ties_keep_order() -> None:
    assert ranking([0.5, 0.9, 0.5]) == [1, 0, 2]


def test_rank_metrics() -> None:
    m = rank_metrics(
        [[0.9, 0.1, 0.5], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [1.0], [0.3, 0.2]],
        [[True, False, False], [True, False, False, False, False, True], [False], [False, True]],
    )
    assert m.n == 3 and m.n_without_gold == 1
    assert m.mrr == pytest.approx((1 + 1 + 0.5) / 3)
    assert m.recall_at_1 == pytest.approx((1 + 0.5 + 0) / 3)
    assert m.recall_at_5 == pytest.approx((1 + 0.5 + 1) / 3)
    assert m.hit_at_1 == pytest.approx(2 / 3)
    assert rank_metrics([], []).n == 0
