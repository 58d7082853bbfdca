"""Training and evaluating the question ↔ relation matcher (`relation_matcher.RelationMatcherModel`) with numpy.

Examples are (question, gold relations) pairs: CKBQA questions with the constant predicates of their SPARQL
(`data.ckbqa`), optionally Mecha-QA questions with the relations of their gold triples. Every question is scored
against the whole training relation vocabulary; its gold relations are the positives and every other relation is a
negative (in-batch and hard negatives at once: the vocabulary holds ~1,800 names, so there is no need to sample).
The loss of one question, with P its gold relations and N the rest of the vocabulary, is

    L_q = 1/|P| Σ_{p∈P} −log( exp(z_p) / (exp(z_p) + Σ_{n∈N} exp(z_n)) )

(a multi-positive InfoNCE: the other gold relations are neither positives nor negatives of p), averaged over the
questions of a mini-batch, plus an L2 penalty (weight `l2`) on W's departure from the identity, which keeps the
model near the untrained cosine. Adam; the inverse temperature s is learned (as log s). W is I + U Vᵀ (`w_form`
"lowrank", rank `rank`; penalty on U and V), or I + A (full) or a diagonal (penalty on A / on diag − 1).

Model selection uses only training data. Relations used by at most `heldout_max_frequency` training
questions are sampled (share `heldout_relation_share`, fixed seed); every question using one of them is held out
("unseen": as for a new KG, their relation names never occur in training) and a further random share of the other
questions is held out as well ("seen"). The unseen questions are ranked against the names training never saw,
the seen ones against the whole vocabulary.

Training the lexical weights jointly with W on the training vocabulary under-weights spelling: for a name it has
learnt, W's similarity is the better evidence; for a new name it is not. So after each epoch s and the lexical
weights are re-fitted with W fixed on the unseen held-out questions (`calibrate`: 5 numbers on ~1,000 questions),
and the epoch with the best calibrated unseen MRR is kept. Then (`refit`) W is trained again on all examples for
that many epochs and combined with the calibrated s and lexical weights. Everything is seeded and deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from kgreason.data.ckbqa import CkbqaQuestion
from kgreason.mecha.data import MechaItem
from kgreason.retrieve.base import Embedder, FloatArray, RelationScorer
from kgreason.retrieve.ranking import RankingMetrics, rank_metrics
from kgreason.retrieve.relation_matcher import (
    LEXICAL_FEATURES,
    RelationKind,
    RelationLexicon,
    RelationMatcherModel,
    embed_relations,
)
from kgreason.text.normalize import normalize_text

BoolArray = npt.NDArray[np.bool_]
Progress = Callable[[str], None]
WForm = Literal["full", "diagonal", "lowrank"]


@dataclass(frozen=True, slots=True)
class RelationExample:
    """A question and the relations it asks about (`source` names the data set, for reports)."""

    question: str
    relations: tuple[str, ...]
    source: str = ""


def examples_from_ckbqa(records: Iterable[CkbqaQuestion], source: str = "ckbqa") -> list[RelationExample]:
    return [RelationExample(r.question, r.relations, source) for r in records if r.relations]


def examples_from_mecha(items: Iterable[MechaItem], source: str = "mecha") -> list[RelationExample]:
    """Mecha-QA questions with the relations of their gold triples."""
    out: list[RelationExample] = []
    for item in items:
        rels = tuple(dict.fromkeys(t[1] for t in item.gold if t[1].strip()))
        if rels:
            out.append(RelationExample(item.question, rels, source))
    return out


@dataclass(frozen=True, slots=True)
class Deduplicated:
    examples: list[RelationExample]
    duplicates: int  # same normalised question as an earlier kept example
    excluded: int  # same normalised question (or SPARQL) as an evaluation question


def ckbqa_training_set(
    train: Sequence[CkbqaQuestion], evaluation: Sequence[CkbqaQuestion], source: str = "ckbqa"
) -> Deduplicated:
    """Training examples from CKBQA train files without repeats and without anything of the evaluation questions.

    CCKS 2023 train holds CCKS 2021 train and ~1,100 questions of CCKS 2021 valid: a training record is dropped
    when its normalised question or its SPARQL (whitespace removed) equals an evaluation record's.
    """
    eval_questions = {normalize_text(r.question) for r in evaluation}
    eval_queries = {_query_key(r.sparql) for r in evaluation}
    seen: set[str] = set()
    kept: list[RelationExample] = []
    duplicates = excluded = 0
    for r in train:
        key = normalize_text(r.question)
        if key in eval_questions or _query_key(r.sparql) in eval_queries:
            excluded += 1
            continue
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        kept.extend(examples_from_ckbqa([r], source))
    return Deduplicated(kept, duplicates, excluded)


def _query_key(sparql: str) -> str:
    return "".join(sparql.split()).lower()


def merge_examples(*groups: Sequence[RelationExample]) -> Deduplicated:
    """Concatenate example lists, dropping repeated (normalised) questions after their first occurrence."""
    seen: set[str] = set()
    kept: list[RelationExample] = []
    duplicates = 0
    for group in groups:
        for ex in group:
            key = normalize_text(ex.question)
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            kept.append(ex)
    return Deduplicated(kept, duplicates, 0)


def vocabulary(examples: Iterable[RelationExample]) -> list[str]:
    """Distinct relation names in order of first use."""
    return list(dict.fromkeys(r for ex in examples for r in ex.relations))


# --------------------------------------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class RelationTrainConfig:
    """Defaults chosen by the calibrated MRR of the unseen held-out questions (training data only): W = I 0.771,
    low-rank 32 (l2 0.01) 0.785, low-rank 32 (l2 0.1) 0.785, low-rank 64 0.781, full (l2 1) 0.782, low-rank 32
    with relation names embedded as `query` 0.785 (differences below ~0.005 are noise). See
    docs/relation_matcher.md."""

    relation_kind: RelationKind = "passage"
    use_lexical: bool = True
    w_form: WForm = "lowrank"
    rank: int = 32  # for w_form="lowrank"
    l2: float = 0.01  # pull of W towards the identity
    learning_rate: float = 5e-3
    lr_decay: float = 0.85  # learning rate of epoch e: learning_rate · lr_decay^(e−1)
    batch_size: int = 128
    epochs: int = 15
    patience: int = 4  # epochs without a better validation MRR before stopping
    init_scale: float = 50.0  # s at the start (1 / temperature); learned
    heldout_relation_share: float = 0.15
    heldout_max_frequency: int = 20
    validation_share: float = 0.1
    refit: bool = True
    calibrate: bool = True  # refit s and the lexical weights on the held-out unseen questions (`calibrate`)
    calibration_steps: int = 300
    calibration_lr: float = 0.05
    seed: int = 0


@dataclass(slots=True)
class RelationTrainReport:
    config: RelationTrainConfig
    n_examples: int
    n_relations: int
    n_train: int  # questions trained on during selection
    n_unseen: int  # held-out questions with a relation that never occurs in training
    n_new_relations: int  # those relations: the candidates the unseen questions are ranked against
    n_seen: int  # other held-out questions
    best_epoch: int
    unseen: RankingMetrics
    seen: RankingMetrics
    seconds: float
    history: list[tuple[int, float, float, float]] = field(default_factory=list)  # epoch, loss, unseen, seen MRR

    def as_dict(self) -> dict[str, object]:
        return {
            "config": asdict(self.config),
            "n_examples": self.n_examples,
            "n_relations": self.n_relations,
            "n_train": self.n_train,
            "n_unseen": self.n_unseen,
            "n_new_relations": self.n_new_relations,
            "n_seen": self.n_seen,
            "best_epoch": self.best_epoch,
            "heldout_unseen": self.unseen.as_dict(),
            "heldout_seen": self.seen.as_dict(),
            "seconds": round(self.seconds, 1),
        }


# --------------------------------------------------------------------------------------------- tensors


@dataclass(frozen=True, slots=True)
class EncodedSet:
    """Questions (n, dim) against a relation list (v, dim): positives (n, v) and lexical features (n, v, F)."""

    questions: FloatArray
    relations: FloatArray
    positive: BoolArray
    lexical: npt.NDArray[np.float16]

    def __len__(self) -> int:
        return int(self.questions.shape[0])


class VectorStore:
    """Question and relation vectors of a list of examples, embedded once (batched, through the embedder's cache)."""

    def __init__(
        self,
        embedder: Embedder,
        examples: Sequence[RelationExample],
        relations: Sequence[str],
        kind: RelationKind,
        *,
        progress: Progress | None = None,
        chunk: int = 512,
    ) -> None:
        self.embedder = embedder
        self.kind: RelationKind = kind
        questions = list(dict.fromkeys(ex.question for ex in examples))
        self._q_row = {q: i for i, q in enumerate(questions)}
        parts = []
        for start in range(0, len(questions), chunk):
            parts.append(embedder.embed_queries(questions[start : start + chunk]))
            if progress is not None:
                progress(f"embedded {min(start + chunk, len(questions))}/{len(questions)} questions")
        self._q = np.concatenate(parts) if parts else np.zeros((0, embedder.dim), np.float32)
        self._r_row: dict[str, int] = {}
        self._r = np.zeros((0, embedder.dim), np.float32)
        self.add_relations(relations)

    def add_relations(self, relations: Sequence[str]) -> None:
        new = [r for r in dict.fromkeys(relations) if r not in self._r_row]
        if new:
            vecs = embed_relations(self.embedder, new, self.kind)
            self._r_row.update({r: len(self._r_row) + i for i, r in enumerate(new)})
            self._r = np.concatenate([self._r, vecs]).astype(np.float32)

    def questions(self, texts: Sequence[str]) -> FloatArray:
        out: FloatArray = self._q[[self._q_row[t] for t in texts]]
        return out

    def relations(self, names: Sequence[str]) -> FloatArray:
        self.add_relations(names)
        out: FloatArray = self._r[[self._r_row[r] for r in names]]
        return out


def encode(
    store: VectorStore, examples: Sequence[RelationExample], relations: Sequence[str], *, lexical: bool = True
) -> EncodedSet:
    """Every example against the whole `relations` list (gold relations missing from it are simply not marked)."""
    index = {r: i for i, r in enumerate(relations)}
    positive = np.zeros((len(examples), len(relations)), bool)
    for i, ex in enumerate(examples):
        for r in ex.relations:
            if r in index:
                positive[i, index[r]] = True
    lex = np.zeros((len(examples), len(relations), len(LEXICAL_FEATURES)), np.float16)
    if lexical:
        lexicon = RelationLexicon(relations)
        for i, ex in enumerate(examples):
            lex[i] = lexicon.features(ex.question)
    return EncodedSet(store.questions([ex.question for ex in examples]), store.relations(relations), positive, lex)


# --------------------------------------------------------------------------------------------- loss and metrics


@dataclass(slots=True)
class Params:
    """Trainable parameters. `a` holds W in the form of `form`: "full": W − I (d, d); "diagonal": diag(W) − 1 (d,);
    "lowrank": [U | V] (d, 2k) with W = I + U Vᵀ. The L2 penalty is on `a`, i.e. on W's distance from I."""

    form: WForm
    a: FloatArray
    log_scale: float
    lexical: FloatArray

    @property
    def dim(self) -> int:
        return int(self.a.shape[0])

    @property
    def w(self) -> FloatArray:
        eye = np.eye(self.dim, dtype=self.a.dtype)  # float32 in training; float64 in the gradient test
        if self.form == "full":
            out: FloatArray = eye + self.a
        elif self.form == "diagonal":
            out = np.diag(1.0 + self.a)
        else:
            k = self.a.shape[1] // 2
            out = eye + self.a[:, :k] @ self.a[:, k:].T
        return out

    def copy(self) -> Params:
        return Params(self.form, self.a.copy(), self.log_scale, self.lexical.copy())


def logits(p: Params, q: FloatArray, r: FloatArray, lex: FloatArray, w: FloatArray | None = None) -> FloatArray:
    """(n, v) scores of questions q (n, d) against relations r (v, d) with lexical features lex (n, v, F)."""
    w = p.w if w is None else w
    out: FloatArray = (np.exp(p.log_scale) * ((q @ w) @ r.T) + lex @ p.lexical).astype(np.float32)
    return out


def loss_and_grads(
    p: Params, q: FloatArray, r: FloatArray, lex: FloatArray, positive: BoolArray, l2: float
) -> tuple[float, Params]:
    """Multi-positive InfoNCE over the vocabulary (module docstring) and its gradients (in `p`'s form); questions
    without a positive among the relations contribute nothing."""
    scale = float(np.exp(p.log_scale))
    w = p.w
    sim = (q @ w) @ r.T  # (n, v)
    z = (scale * sim + lex @ p.lexical).astype(np.float64)
    n_pos = positive.sum(axis=1)
    rows = n_pos > 0
    n = max(int(rows.sum()), 1)
    zn = np.where(positive, -np.inf, z)
    top = zn.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e_neg = np.where(positive, 0.0, np.exp(zn - top))
    sum_neg = e_neg.sum(axis=1, keepdims=True)
    lse_neg = top + np.log(np.maximum(sum_neg, 1e-300))  # (n, 1)
    margin = lse_neg - z  # per positive p: loss softplus(lse_neg − z_p)
    per = np.logaddexp(0.0, margin)
    weight = np.where(positive & rows[:, None], 1.0 / np.maximum(n_pos, 1)[:, None], 0.0) / n
    loss = float((per * weight).sum())
    sig = 1.0 / (1.0 + np.exp(-margin))  # d softplus(m) / dm
    coef = np.where(positive, sig * weight, 0.0)
    g = -coef + coef.sum(axis=1, keepdims=True) * (e_neg / np.maximum(sum_neg, 1e-300))  # dL/dz
    g32 = g.astype(q.dtype)
    grad_w = scale * (q.T @ (g32 @ r))
    grad_log_scale = scale * float((g * sim).sum())
    grad_lex = np.einsum("nv,nvf->f", g32, lex)
    if p.form == "full":
        grad_a = grad_w
    elif p.form == "diagonal":
        grad_a = np.diag(grad_w).copy()
    else:
        k = p.a.shape[1] // 2
        u, v = p.a[:, :k], p.a[:, k:]
        grad_a = np.concatenate([grad_w @ v, grad_w.T @ u], axis=1)
    loss += 0.5 * l2 * float((p.a**2).sum())
    grad_a = grad_a + l2 * p.a
    return loss, Params(p.form, grad_a.astype(p.a.dtype), grad_log_scale, grad_lex.astype(p.lexical.dtype))


def vocabulary_metrics(scores: FloatArray, positive: BoolArray) -> RankingMetrics:
    """`ranking.rank_metrics` for a dense (questions × candidates) score matrix, vectorised: ties go to the earlier
    candidate; questions without a positive are counted in `n_without_gold`."""
    n = skipped = 0
    mrr = r1 = r5 = hit = 0.0
    idx = np.arange(scores.shape[1])
    for s, pos in zip(scores, positive, strict=True):
        gold = np.flatnonzero(pos)
        if gold.size == 0:
            skipped += 1
            continue
        sg = s[gold]
        ranks = 1 + ((s[None, :] > sg[:, None]) | ((s[None, :] == sg[:, None]) & (idx[None, :] < gold[:, None]))).sum(
            axis=1
        )
        n += 1
        mrr += 1.0 / float(ranks.min())
        r1 += float((ranks <= 1).sum()) / gold.size
        r5 += float((ranks <= 5).sum()) / gold.size
        hit += 1.0 if ranks.min() == 1 else 0.0
    if n == 0:
        return RankingMetrics(0, 0.0, 0.0, 0.0, skipped)
    return RankingMetrics(n, mrr / n, r1 / n, r5 / n, skipped, hit / n)


def evaluate(p: Params, data: EncodedSet, *, chunk: int = 512) -> RankingMetrics:
    scores = (
        np.concatenate(
            [
                logits(p, data.questions[s : s + chunk], data.relations, data.lexical[s : s + chunk].astype(np.float32))
                for s in range(0, len(data), chunk)
            ]
        )
        if len(data)
        else np.zeros((0, data.relations.shape[0]), np.float32)
    )
    return vocabulary_metrics(scores, data.positive)


# --------------------------------------------------------------------------------------------- training


def initial_params(dim: int, config: RelationTrainConfig) -> Params:
    """W = I (the untrained cosine), s = `init_scale`, lexical weights 0; a low-rank W starts from small seeded
    factors (both zero would have no gradient)."""
    a: FloatArray
    if config.w_form == "full":
        a = np.zeros((dim, dim), np.float32)
    elif config.w_form == "diagonal":
        a = np.zeros(dim, np.float32)
    else:
        a = (np.random.default_rng(config.seed).normal(size=(dim, 2 * config.rank)) * 0.01).astype(np.float32)
    return Params(config.w_form, a, float(np.log(config.init_scale)), np.zeros(len(LEXICAL_FEATURES), np.float32))


def train_params(
    train: EncodedSet,
    config: RelationTrainConfig,
    *,
    epochs: int,
    validation: Callable[[Params], tuple[float, ...]] | None = None,
    progress: Progress | None = None,
) -> tuple[Params, int, list[tuple[int, float, float, float]]]:
    """Adam on mini-batches (seeded shuffles). With `validation` (returns (criterion, other) MRRs), keep the epoch
    with the best criterion and stop after `patience` epochs without improvement; else train `epochs` epochs."""
    rng = np.random.default_rng(config.seed)
    p = initial_params(train.questions.shape[1], config)
    m1 = Params(p.form, np.zeros_like(p.a), 0.0, np.zeros_like(p.lexical))
    m2 = Params(p.form, np.zeros_like(p.a), 0.0, np.zeros_like(p.lexical))
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    best: tuple[float, int, Params] = (-1.0, 0, p.copy())
    history: list[tuple[int, float, float, float]] = []
    for epoch in range(1, epochs + 1):
        lr = config.learning_rate * config.lr_decay ** (epoch - 1)
        order = rng.permutation(len(train))
        total = 0.0
        for start in range(0, len(order), config.batch_size):
            rows = np.sort(order[start : start + config.batch_size])
            lex = train.lexical[rows].astype(np.float32)
            loss, g = loss_and_grads(p, train.questions[rows], train.relations, lex, train.positive[rows], config.l2)
            if not config.use_lexical:
                g.lexical[:] = 0.0
            total += loss * len(rows)
            step += 1
            c1, c2 = 1 - beta1**step, 1 - beta2**step
            m1.a = beta1 * m1.a + (1 - beta1) * g.a
            m2.a = beta2 * m2.a + (1 - beta2) * g.a**2
            p.a = (p.a - lr * (m1.a / c1) / (np.sqrt(m2.a / c2) + eps)).astype(np.float32)
            m1.lexical = beta1 * m1.lexical + (1 - beta1) * g.lexical
            m2.lexical = beta2 * m2.lexical + (1 - beta2) * g.lexical**2
            p.lexical = (p.lexical - lr * (m1.lexical / c1) / (np.sqrt(m2.lexical / c2) + eps)).astype(np.float32)
            m1.log_scale = beta1 * m1.log_scale + (1 - beta1) * g.log_scale
            m2.log_scale = beta2 * m2.log_scale + (1 - beta2) * g.log_scale**2
            p.log_scale = p.log_scale - lr * (m1.log_scale / c1) / (np.sqrt(m2.log_scale / c2) + eps)
        mean_loss = total / max(len(train), 1)
        if validation is None:
            history.append((epoch, mean_loss, float("nan"), float("nan")))
            best = (0.0, epoch, p)
            continue
        crit, other = validation(p)[:2]
        history.append((epoch, mean_loss, crit, other))
        if progress is not None:
            progress(f"epoch {epoch}: loss {mean_loss:.4f}, held-out MRR unseen {crit:.4f} / seen {other:.4f}")
        if crit > best[0] + 1e-9:
            best = (crit, epoch, p.copy())
        elif epoch - best[1] >= config.patience:
            break
    return best[2], best[1], history


def calibrate(p: Params, data: EncodedSet, config: RelationTrainConfig) -> Params:
    """Refit only the combination of the bilinear similarity and the lexical features (s and the lexical weights,
    W fixed) on `data`: full-batch Adam, `calibration_steps` steps. With the held-out questions ranked against
    relation names training never saw, this sets how much to trust W's similarity against the spelling of a
    *new* name, which the joint training on the training vocabulary cannot tell."""
    out = p.copy()
    if len(data) == 0 or config.calibration_steps <= 0:
        return out
    q = (data.questions @ p.w).astype(np.float32)  # W folded into the questions once
    dim = q.shape[1]
    cur = Params("diagonal", np.zeros(dim, np.float32), out.log_scale, out.lexical.copy())  # W = I
    lex = data.lexical.astype(np.float32)
    m = np.zeros(len(LEXICAL_FEATURES) + 1)
    v = np.zeros(len(LEXICAL_FEATURES) + 1)
    for step in range(1, config.calibration_steps + 1):
        _, g = loss_and_grads(cur, q, data.relations, lex, data.positive, 0.0)
        grad = np.concatenate([[g.log_scale], g.lexical])
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        delta = config.calibration_lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        cur.log_scale -= float(delta[0])
        cur.lexical = (cur.lexical - delta[1:]).astype(np.float32)
    out.log_scale, out.lexical = cur.log_scale, cur.lexical
    return out


def heldout_split(
    examples: Sequence[RelationExample], config: RelationTrainConfig
) -> tuple[list[RelationExample], list[RelationExample], list[RelationExample]]:
    """(train, unseen, seen): see the module docstring."""
    rng = np.random.default_rng(config.seed)
    freq: dict[str, int] = {}
    for ex in examples:
        for r in ex.relations:
            freq[r] = freq.get(r, 0) + 1
    eligible = sorted(r for r, f in freq.items() if f <= config.heldout_max_frequency)
    n_held = round(len(eligible) * config.heldout_relation_share)
    held = set(rng.choice(eligible, size=n_held, replace=False).tolist()) if n_held else set()
    unseen = [ex for ex in examples if held & set(ex.relations)]
    rest = [ex for ex in examples if not held & set(ex.relations)]
    order = rng.permutation(len(rest))
    n_seen = round(len(rest) * config.validation_share)
    seen_idx = set(order[:n_seen].tolist())
    seen = [ex for i, ex in enumerate(rest) if i in seen_idx]
    train = [ex for i, ex in enumerate(rest) if i not in seen_idx]
    return train, unseen, seen


def to_model(
    p: Params, embedder_name: str, config: RelationTrainConfig, meta: dict[str, object]
) -> RelationMatcherModel:
    return RelationMatcherModel(
        w=p.w.astype(np.float32),
        scale=float(np.exp(p.log_scale)),
        lexical=(p.lexical if config.use_lexical else np.zeros_like(p.lexical)).astype(np.float32),
        embedder_name=embedder_name,
        relation_kind=config.relation_kind,
        meta=dict(meta),
    )


def fit_relation_matcher(
    examples: Sequence[RelationExample],
    embedder: Embedder,
    config: RelationTrainConfig = RelationTrainConfig(),
    *,
    name: str = "ckbqa",
    store: VectorStore | None = None,
    progress: Progress | None = None,
) -> tuple[RelationMatcherModel, RelationTrainReport]:
    """Select the epoch on held-out training questions, then (config.refit) train on all `examples`."""
    started = time.perf_counter()
    vocab = vocabulary(examples)
    if store is None or store.kind != config.relation_kind:
        store = VectorStore(embedder, examples, vocab, config.relation_kind, progress=progress)
    train, unseen, seen = heldout_split(examples, config)
    if not train or not unseen:
        raise ValueError("training needs training questions and held-out questions with unseen relations")
    train_vocab = vocabulary(train)
    known = set(train_vocab)
    # unseen questions against the names training never saw (a new KG's vocabulary: every candidate is new);
    # seen questions against every relation of the examples
    new_vocab = [r for r in vocabulary(unseen) if r not in known]
    train_set = encode(store, train, train_vocab, lexical=config.use_lexical)
    unseen_set = encode(store, unseen, new_vocab, lexical=config.use_lexical)
    seen_set = encode(store, seen, vocab, lexical=config.use_lexical)

    def validation(p: Params) -> tuple[float, float]:
        if config.calibrate:
            p = calibrate(p, unseen_set, config)
        return evaluate(p, unseen_set).mrr, evaluate(p, seen_set).mrr if len(seen_set) else 0.0

    params, best_epoch, history = train_params(
        train_set, config, epochs=config.epochs, validation=validation, progress=progress
    )
    if config.calibrate:
        params = calibrate(params, unseen_set, config)
    unseen_metrics, seen_metrics = evaluate(params, unseen_set), evaluate(params, seen_set)
    if config.refit:
        full = encode(store, examples, vocab, lexical=config.use_lexical)
        refit, _, _ = train_params(full, config, epochs=best_epoch)
        params = Params(refit.form, refit.a, params.log_scale, params.lexical) if config.calibrate else refit
    seconds = time.perf_counter() - started
    meta: dict[str, object] = {
        "name": name,
        "best_epoch": best_epoch,
        "config": asdict(config),
        "n_examples": len(examples),
        "n_relations": len(vocab),
        "heldout_unseen_mrr": round(unseen_metrics.mrr, 4),
        "heldout_seen_mrr": round(seen_metrics.mrr, 4),
    }
    model = to_model(params, embedder.name, config, meta)
    report = RelationTrainReport(
        config=config,
        n_examples=len(examples),
        n_relations=len(vocab),
        n_train=len(train),
        n_unseen=len(unseen),
        n_new_relations=len(new_vocab),
        n_seen=len(seen),
        best_epoch=best_epoch,
        unseen=unseen_metrics,
        seen=seen_metrics,
        seconds=seconds,
        history=history,
    )
    return model, report


# --------------------------------------------------------------------------------------------- evaluation


@dataclass(frozen=True, slots=True)
class RankingTask:
    """Questions, each with its candidate relations and gold relations (gold outside the candidates is ignored)."""

    questions: tuple[str, ...]
    candidates: tuple[tuple[str, ...], ...]
    gold: tuple[tuple[str, ...], ...]

    def labels(self) -> list[list[bool]]:
        return [[c in set(g) for c in cands] for cands, g in zip(self.candidates, self.gold, strict=True)]

    def subset(self, keep: Sequence[bool]) -> RankingTask:
        rows = [i for i, k in enumerate(keep) if k]
        return RankingTask(
            tuple(self.questions[i] for i in rows),
            tuple(self.candidates[i] for i in rows),
            tuple(self.gold[i] for i in rows),
        )


def global_task(examples: Sequence[RelationExample], relations: Sequence[str], *, seed: int = 0) -> RankingTask:
    """Every question against the whole `relations` list, in one seeded random order (ties between candidates are
    broken by position, so the order must not favour the gold relations)."""
    order = np.random.default_rng(seed).permutation(len(relations))
    shuffled = tuple(relations[i] for i in order)
    return RankingTask(
        tuple(ex.question for ex in examples), tuple(shuffled for _ in examples), tuple(ex.relations for ex in examples)
    )


def sampled_task(
    examples: Sequence[RelationExample], relations: Sequence[str], *, negatives: int = 49, seed: int = 0
) -> RankingTask:
    """Every question against its gold relations plus `negatives` other relations of `relations`, sampled uniformly
    with a fixed seed, in a seeded random order (a KG-sized candidate list)."""
    rng = np.random.default_rng(seed)
    pool = list(dict.fromkeys(relations))
    candidates: list[tuple[str, ...]] = []
    for ex in examples:
        gold = set(ex.relations)
        others = [r for r in pool if r not in gold]
        picked = rng.choice(len(others), size=min(negatives, len(others)), replace=False)
        cands = [*ex.relations, *(others[i] for i in sorted(picked.tolist()))]
        candidates.append(tuple(cands[i] for i in rng.permutation(len(cands))))
    return RankingTask(tuple(ex.question for ex in examples), tuple(candidates), tuple(ex.relations for ex in examples))


def score_task(scorer: RelationScorer, task: RankingTask) -> list[list[float]]:
    """Scores of every question's candidates; questions sharing one candidate list go through `score_many` when the
    scorer has it (the trained matcher)."""
    many = getattr(scorer, "score_many", None)
    if many is not None and task.candidates and all(c is task.candidates[0] for c in task.candidates):
        matrix = many(list(task.questions), list(task.candidates[0]))
        return [[float(x) for x in row] for row in matrix]
    return [scorer.score(q, list(c)) for q, c in zip(task.questions, task.candidates, strict=True)]


def evaluate_task(scorer: RelationScorer, task: RankingTask) -> RankingMetrics:
    return rank_metrics(score_task(scorer, task), task.labels())
