"""The trained relevance model (spec 001 §2.3, ReM) and the `TripleScorer` that applies it.

The paper fine-tunes m3e; no Chinese encoder can be fine-tuned here, so the model sits on top of the frozen e5
embedder (see `kgreason.retrieve.features`):

    score(q, t) = w · x + v · tanh(W x + b) + u · z

with x the standardised lexical features and z the question⊙triple / question⊙relation interaction vector. Scores
are logits, comparable within one question; `relevance_probabilities` turns them into the numbers shown in the
prompt. The artefact is a small `.npz` (`resources/relevance_mecha.npz`, rebuilt by `kgreason mecha train`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kgreason.data.records import PathTriple
from kgreason.errors import KgreasonError
from kgreason.retrieve.base import Embedder, FloatArray
from kgreason.retrieve.features import LEXICAL_FEATURES, PairFeatures, pair_features

FORMAT_VERSION = 1
DEFAULT_RESOURCE = "relevance_mecha.npz"


@dataclass(frozen=True, slots=True)
class RelevanceModel:
    """Weights of the relevance model. `hidden` is 0 for the purely linear form (then W, b, v are empty)."""

    mean: FloatArray  # (L,) standardisation of the lexical features
    std: FloatArray  # (L,)
    w: FloatArray  # (L,)
    big_w: FloatArray  # (L, H)
    b: FloatArray  # (H,)
    v: FloatArray  # (H,)
    u: FloatArray  # (2 * dim,) interaction weights; empty when the block is not used
    embedder_name: str
    feature_names: tuple[str, ...] = LEXICAL_FEATURES
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> int:
        return int(self.b.shape[0])

    @property
    def temperature(self) -> float:
        """The loss temperature T the model was trained with (eq. 8); 1.0 when unknown."""
        config = self.meta.get("config", {})
        value = config.get("temperature", 1.0) if isinstance(config, dict) else 1.0
        return float(value) if isinstance(value, int | float) and value > 0 else 1.0

    def logits(self, feats: PairFeatures) -> FloatArray:
        """Scores divided by the training temperature: the loss compares (s_n - s_p) / T, so softmax of these
        logits is the distribution the model was fitted for (undivided, it would look nearly flat)."""
        x = (feats.lexical - self.mean) / self.std
        out = x @ self.w
        if self.u.size:
            out = out + feats.interaction @ self.u
        if self.hidden:
            out = out + np.tanh(x @ self.big_w + self.b) @ self.v
        result: FloatArray = (out / self.temperature).astype(np.float32)
        return result

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "embedder": self.embedder_name,
            "features": list(self.feature_names),
            "meta": self.meta,
        }
        # float16 keeps the committed artefact at tens of KB; scores move by < 1e-3
        np.savez_compressed(
            path,
            header=np.array(json.dumps(header, ensure_ascii=False)),
            mean=self.mean.astype(np.float32),
            std=self.std.astype(np.float32),
            w=self.w.astype(np.float32),
            big_w=self.big_w.astype(np.float16),
            b=self.b.astype(np.float32),
            v=self.v.astype(np.float32),
            u=self.u.astype(np.float16),
        )

    @classmethod
    def load(cls, path: Path) -> RelevanceModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                arrays = {
                    k: np.asarray(data[k], dtype=np.float32) for k in ("mean", "std", "w", "big_w", "b", "v", "u")
                }
        except (OSError, ValueError, KeyError) as exc:
            raise KgreasonError(f"cannot read the relevance model {path}: {exc}") from None
        if header.get("format") != FORMAT_VERSION:
            raise KgreasonError(f"{path}: relevance model format {header.get('format')}, expected {FORMAT_VERSION}")
        if tuple(header.get("features", ())) != LEXICAL_FEATURES:
            raise KgreasonError(f"{path}: the model was trained on other features; retrain with `kgreason mecha train`")
        return cls(
            mean=arrays["mean"],
            std=arrays["std"],
            w=arrays["w"],
            big_w=arrays["big_w"],
            b=arrays["b"],
            v=arrays["v"],
            u=arrays["u"],
            embedder_name=str(header["embedder"]),
            feature_names=tuple(header["features"]),
            meta=dict(header.get("meta", {})),
        )


def default_model_path() -> Path:
    return Path(str(resources.files("kgreason.resources").joinpath(DEFAULT_RESOURCE)))


class TrainedTripleScorer:
    """`TripleScorer` applying a `RelevanceModel` to features from the same embedder it was trained with."""

    def __init__(self, embedder: Embedder, model: RelevanceModel) -> None:
        if embedder.name != model.embedder_name:
            raise KgreasonError(
                f"the relevance model was trained on embedder {model.embedder_name!r}, got {embedder.name!r}"
            )
        if model.u.shape[0] not in (0, 2 * embedder.dim):
            raise KgreasonError(f"relevance model expects {model.u.shape[0] // 2}-dim vectors, got {embedder.dim}")
        self._embedder = embedder
        self.model = model

    @property
    def name(self) -> str:
        return f"relevance:{self.model.meta.get('name', 'model')}"

    def score(self, question: str, triples: Sequence[PathTriple]) -> list[float]:
        if not triples:
            return []
        return [float(x) for x in self.model.logits(pair_features(self._embedder, question, triples))]


def load_relevance_scorer(embedder: Embedder, path: Path | None = None) -> TrainedTripleScorer:
    """The trained scorer; `path` defaults to the packaged `kgreason/resources/relevance_mecha.npz`."""
    model_path = path or default_model_path()
    if not model_path.exists():
        raise KgreasonError(f"relevance model not found: {model_path} (build it with `kgreason mecha train`)")
    return TrainedTripleScorer(embedder, RelevanceModel.load(model_path))


def relevance_probabilities(scores: Sequence[float], temperature: float = 1.0) -> list[float]:
    """Softmax of one question's logits: the share of relevance each candidate gets (sums to 1)."""
    if not scores:
        return []
    z = np.asarray(scores, dtype=np.float64) / temperature
    e = np.exp(z - z.max())
    return [float(x) for x in e / e.sum()]
