"""Training the relevance model with numpy: contrastive loss in the form of spec 001 eq. 8–9, Adam, early stopping.

Per question q with positives P (its gold triples) and negatives N (other triples of its entities' 1-hop subgraph,
at most `max_negatives`, sampled with a fixed seed, as eq. 7 samples them):

    L_q = log(1 + Σ_{p∈P, n∈N} exp((s_n − s_p) / T))

which is eq. 8–9 (CoSENT) with the model's logits in place of the fine-tuned encoder's cosines. The loss is averaged
over questions, with L2 on the weights. A fixed share of the training questions (chosen with the seed) is held out;
training keeps the weights of the epoch with the best validation MRR. Everything is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from kgreason.data.records import PathTriple
from kgreason.mecha.data import MechaItem, SubgraphIndex, same_triple
from kgreason.retrieve.base import Embedder, FloatArray
from kgreason.retrieve.features import LEXICAL_FEATURES, PairFeatures, pair_features
from kgreason.retrieve.ranking import RankingMetrics, rank_metrics
from kgreason.retrieve.relevance import RelevanceModel


@dataclass(frozen=True, slots=True)
class Group:
    """One question with its candidates (the subgraph), gold labels and features."""

    question: str
    triples: tuple[PathTriple, ...]
    labels: tuple[bool, ...]
    features: PairFeatures


@dataclass(frozen=True, slots=True)
class TrainConfig:
    hidden: int = 8  # tanh units on the lexical features; 0 = linear
    # The question⊙triple / question⊙relation block: off by default, it did not improve validation MRR on Mecha-QA
    # (0.978 with and without) and would make the artefact 30x larger.
    use_interaction: bool = False
    temperature: float = 0.1
    l2_lexical: float = 1e-3
    l2_interaction: float = 3e-2
    learning_rate: float = 0.02
    epochs: int = 400
    eval_every: int = 5
    patience: int = 80  # epochs without a better validation MRR before stopping
    max_negatives: int = 32
    validation_fraction: float = 0.2
    seed: int = 0


@dataclass(slots=True)
class TrainReport:
    config: TrainConfig
    n_train: int
    n_validation: int
    best_epoch: int
    validation: RankingMetrics
    history: list[tuple[int, float, float]] = field(default_factory=list)  # (epoch, train loss, validation MRR)

    def as_dict(self) -> dict[str, object]:
        return {
            "config": asdict(self.config),
            "n_train": self.n_train,
            "n_validation": self.n_validation,
            "best_epoch": self.best_epoch,
            "validation": self.validation.as_dict(),
        }


def candidate_labels(item: MechaItem, candidates: Sequence[PathTriple]) -> tuple[bool, ...]:
    return tuple(any(same_triple(c, g) for g in item.gold) for c in candidates)


def build_groups(
    items: Sequence[MechaItem],
    index: SubgraphIndex,
    embedder: Embedder,
    *,
    max_negatives: int | None = None,
    seed: int = 0,
    require_both: bool = True,
) -> list[Group]:
    """Groups for training (`max_negatives` set: negatives sampled; questions without a positive or a negative
    dropped) or evaluation (`max_negatives=None`, `require_both=False`: the whole subgraph, every question)."""
    rng = np.random.default_rng(seed)
    groups: list[Group] = []
    for item in items:
        cands = index.subgraph(item.entities)
        labels = candidate_labels(item, cands)
        pos = [i for i, x in enumerate(labels) if x]
        neg = [i for i, x in enumerate(labels) if not x]
        if require_both and (not pos or not neg):
            continue
        if max_negatives is not None and len(neg) > max_negatives:
            neg = sorted(rng.choice(neg, size=max_negatives, replace=False).tolist())
        keep = sorted(pos + neg)
        triples = tuple(cands[i] for i in keep)
        groups.append(
            Group(
                question=item.question,
                triples=triples,
                labels=tuple(labels[i] for i in keep),
                features=pair_features(embedder, item.question, triples),
            )
        )
    return groups


# --------------------------------------------------------------------------------------------- batched tensors


@dataclass(frozen=True, slots=True)
class _Batch:
    """Groups padded to a common size M: lexical (G, M, L), interaction (G, M, D), masks (G, M)."""

    lexical: FloatArray
    interaction: FloatArray
    valid: np.ndarray
    positive: np.ndarray


def _batch(groups: Sequence[Group], dim: int) -> _Batch:
    g, m = len(groups), max(len(gr.triples) for gr in groups)
    lex = np.zeros((g, m, len(LEXICAL_FEATURES)), np.float32)
    inter = np.zeros((g, m, dim), np.float32)
    valid = np.zeros((g, m), bool)
    pos = np.zeros((g, m), bool)
    for i, gr in enumerate(groups):
        k = len(gr.triples)
        lex[i, :k] = gr.features.lexical
        inter[i, :k] = gr.features.interaction[:, :dim]
        valid[i, :k] = True
        pos[i, :k] = gr.labels
    return _Batch(lex, inter, valid, pos)


_PARAMS = ("w", "big_w", "b", "v", "u")


def _forward(p: dict[str, FloatArray], x: FloatArray, z: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Logits (G, M) and the hidden activations (G, M, H)."""
    hid = np.tanh(x @ p["big_w"] + p["b"])
    return x @ p["w"] + hid @ p["v"] + z @ p["u"], hid


def _loss_and_grads(
    p: dict[str, FloatArray], batch: _Batch, x: FloatArray, cfg: TrainConfig
) -> tuple[float, dict[str, FloatArray]]:
    s, hid = _forward(p, x, batch.interaction)
    neg = batch.valid & ~batch.positive
    pair = batch.positive[:, :, None] & neg[:, None, :]  # [g, p, n]
    diff = (s[:, None, :] - s[:, :, None]) / cfg.temperature  # s_n - s_p
    diff = np.where(pair, diff, -np.inf)
    top = np.maximum(diff.max(axis=(1, 2)), 0.0)  # log-sum-exp shift, with the "+1" term as exp(0)
    e = np.where(pair, np.exp(diff - top[:, None, None]), 0.0)
    total = e.sum(axis=(1, 2)) + np.exp(-top)
    loss = float(np.mean(top + np.log(total)))
    g = len(s)
    de = e / total[:, None, None] / cfg.temperature / g  # dL/d(s_n - s_p)
    ds = de.sum(axis=1) - de.sum(axis=2)  # + for negatives (column), − for positives (row)
    grads = {
        "w": np.einsum("gm,gml->l", ds, x),
        "v": np.einsum("gm,gmh->h", ds, hid),
        "u": np.einsum("gm,gmd->d", ds, batch.interaction),
    }
    dpre = ds[:, :, None] * p["v"] * (1.0 - hid**2)
    grads["big_w"] = np.einsum("gmh,gml->lh", dpre, x)
    grads["b"] = dpre.sum(axis=(0, 1))
    for name, lam in (("w", cfg.l2_lexical), ("big_w", cfg.l2_lexical), ("u", cfg.l2_interaction)):
        loss += 0.5 * lam * float(np.sum(p[name] ** 2))
        grads[name] = grads[name] + lam * p[name]
    return loss, {k: v.astype(np.float32) for k, v in grads.items()}


def _scores(p: dict[str, FloatArray], batch: _Batch, x: FloatArray) -> list[list[float]]:
    s, _ = _forward(p, x, batch.interaction)
    return [[float(v) for v in row[mask]] for row, mask in zip(s, batch.valid, strict=True)]


def _labels(batch: _Batch) -> list[list[bool]]:
    return [[bool(v) for v in row[mask]] for row, mask in zip(batch.positive, batch.valid, strict=True)]


def split_items(items: Sequence[MechaItem], fraction: float, seed: int) -> tuple[list[MechaItem], list[MechaItem]]:
    """Deterministic train / validation split of questions (a seeded permutation)."""
    order = np.random.default_rng(seed).permutation(len(items))
    n_val = round(len(items) * fraction)
    val_idx = set(order[:n_val].tolist())
    return [x for i, x in enumerate(items) if i not in val_idx], [x for i, x in enumerate(items) if i in val_idx]


def fit_mecha(
    items: Sequence[MechaItem],
    index: SubgraphIndex,
    embedder: Embedder,
    config: TrainConfig = TrainConfig(),
    *,
    name: str = "mecha",
) -> tuple[RelevanceModel, TrainReport]:
    """Split `items` (train.jsonl) into training and validation questions, build their groups, train."""
    train_items, val_items = split_items(items, config.validation_fraction, config.seed)
    train = build_groups(train_items, index, embedder, max_negatives=config.max_negatives, seed=config.seed)
    # validation ranks whole subgraphs, as at test time
    validation = build_groups(val_items, index, embedder, require_both=False)
    return train_relevance(train, validation, embedder.name, config, name=name)


def train_relevance(
    train: Sequence[Group],
    validation: Sequence[Group],
    embedder_name: str,
    config: TrainConfig = TrainConfig(),
    *,
    name: str = "mecha",
) -> tuple[RelevanceModel, TrainReport]:
    """Fit on `train`, keep the epoch with the best MRR on `validation` (full subgraphs)."""
    if not train or not validation:
        raise ValueError("training needs at least one training and one validation question")
    dim = train[0].features.interaction.shape[1] if config.use_interaction else 0
    tb, vb = _batch(train, dim), _batch(validation, dim)
    flat = tb.lexical[tb.valid]
    mean = flat.mean(axis=0)
    std = flat.std(axis=0)
    std[std < 1e-6] = 1.0
    xt, xv = (tb.lexical - mean) / std, (vb.lexical - mean) / std
    rng = np.random.default_rng(config.seed)
    n_lex, h = len(LEXICAL_FEATURES), config.hidden
    p: dict[str, FloatArray] = {
        "w": np.zeros(n_lex, np.float32),
        "big_w": (rng.normal(size=(n_lex, h)) * 0.1).astype(np.float32),
        "b": np.zeros(h, np.float32),
        "v": np.zeros(h, np.float32),
        "u": np.zeros(dim, np.float32),
    }
    m1 = {k: np.zeros_like(v) for k, v in p.items()}
    m2 = {k: np.zeros_like(v) for k, v in p.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    val_labels = _labels(vb)
    best = (-1.0, 0, {k: v.copy() for k, v in p.items()})
    history: list[tuple[int, float, float]] = []
    for epoch in range(1, config.epochs + 1):
        loss, grads = _loss_and_grads(p, tb, xt, config)
        for k in _PARAMS:
            m1[k] = beta1 * m1[k] + (1 - beta1) * grads[k]
            m2[k] = beta2 * m2[k] + (1 - beta2) * grads[k] ** 2
            step = config.learning_rate * (m1[k] / (1 - beta1**epoch)) / (np.sqrt(m2[k] / (1 - beta2**epoch)) + eps)
            p[k] = (p[k] - step).astype(np.float32)
        if epoch % config.eval_every == 0:
            mrr = rank_metrics(_scores(p, vb, xv), val_labels).mrr
            history.append((epoch, loss, mrr))
            if mrr > best[0] + 1e-9:
                best = (mrr, epoch, {k: v.copy() for k, v in p.items()})
            elif epoch - best[1] >= config.patience:
                break
    _, best_epoch, params = best
    model = RelevanceModel(
        mean=mean.astype(np.float32),
        std=std.astype(np.float32),
        w=params["w"],
        big_w=params["big_w"],
        b=params["b"],
        v=params["v"],
        u=params["u"],
        embedder_name=embedder_name,
        meta={"name": name, "best_epoch": best_epoch, "config": asdict(config)},
    )
    val_metrics = rank_metrics(_scores(params, vb, xv), val_labels)
    report = TrainReport(config, len(train), len(validation), best_epoch, val_metrics, history)
    return model, report
