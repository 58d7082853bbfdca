"""Which KG relation does a question ask about? A matcher learned from CCKS CKBQA questions and their SPARQL.

The KGs met at test time have their own relation vocabulary (研制单位, 首飞时间, 舷号, 所属型号 …), so the matcher
never looks a relation up by name: it compares the question with the relation *name*, through the frozen
multilingual-e5-small embedder and character overlaps:

    score(q, r) = s · e(q)ᵀ W e(r) + Σ_k w_k · f_k(q, r)

- e(q): e5 `query:` vector of the question; e(r): e5 vector of the relation name (the kind, `query` or `passage`, is
  stored in the artefact); both unit length. W starts at the identity (plain cosine) and is trained with an L2 pull
  back to it, so it re-weights directions of the e5 space rather than memorising the training relations.
- f(q, r): `LEXICAL_FEATURES` — share of the relation's characters / character bigrams that the question spells,
  whether the whole name occurs in the question, and log length of the name.
- s (a learned inverse temperature) and w are part of the artefact; scores are logits, comparable within one
  question: `relation_probabilities` turns them into a distribution over the candidates.

Trained by `kgreason.retrieve.relation_training` (contrastive, every other relation of the training vocabulary is a
negative); the packaged artefact is `resources/relmatch_ckbqa.npz`. See docs/relation_matcher.md for the data, the
rebuild command and the measured figures.

Calls are cheap after the first: relation names are embedded once per matcher (and kept on disk by the embedder's
vector cache), and their projections `W e(r)` are kept in memory, so scoring 50 known relations costs one question
embedding plus a (50 × 384) product.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np

from kgreason.errors import KgreasonError
from kgreason.retrieve.base import Embedder, FloatArray
from kgreason.retrieve.lexical import BM25
from kgreason.retrieve.relevance import relevance_probabilities
from kgreason.text.normalize import normalize_text

FORMAT_VERSION = 1
DEFAULT_RESOURCE = "relmatch_ckbqa.npz"
LEXICAL_FEATURES: tuple[str, ...] = ("char_overlap", "bigram_overlap", "in_question", "log_length")
RelationKind = Literal["query", "passage"]


# --------------------------------------------------------------------------------------------- lexical features


class RelationLexicon:
    """Character and bigram inverted indexes of a fixed list of relation names: the lexical features of one question
    against all of them in a few vectorised operations (used for whole training vocabularies and for one call's
    candidates alike, so training and scoring compute the same numbers).

    - `char_overlap`: share of the name's distinct characters that occur in the question (`lexical.char_overlap`);
    - `bigram_overlap`: share of its distinct character bigrams (a one-character name counts as one gram) that occur
      in the question (`lexical.bigram_overlap`);
    - `in_question`: 1 when the whole name occurs in the question;
    - `log_length`: log(1 + name length).
    All after `normalize_text`; a name that normalises to nothing gets zeros (and log_length 0).
    """

    def __init__(self, relations: Sequence[str]) -> None:
        self.relations = tuple(relations)
        self._norms = [normalize_text(r) for r in self.relations]
        n = len(self._norms)
        char_ids: dict[str, list[int]] = {}
        gram_ids: dict[str, list[int]] = {}
        self._n_chars = np.zeros(n, np.float32)
        self._n_grams = np.zeros(n, np.float32)
        for i, rel in enumerate(self._norms):
            chars = set(rel)
            grams = {rel[k : k + 2] for k in range(len(rel) - 1)} or ({rel} if rel else set())
            self._n_chars[i] = len(chars)
            self._n_grams[i] = len(grams)
            for c in chars:
                char_ids.setdefault(c, []).append(i)
            for g in grams:
                gram_ids.setdefault(g, []).append(i)
        self._char_ids = {k: np.asarray(v, np.int64) for k, v in char_ids.items()}
        self._gram_ids = {k: np.asarray(v, np.int64) for k, v in gram_ids.items()}
        self._log_len = np.log1p(np.asarray([len(r) for r in self._norms], np.float32)).astype(np.float32)
        self._safe_chars = np.maximum(self._n_chars, 1.0)
        self._safe_grams = np.maximum(self._n_grams, 1.0)

    def __len__(self) -> int:
        return len(self.relations)

    def features(self, question: str) -> FloatArray:
        """(len(relations), len(LEXICAL_FEATURES)) features of the question against every name."""
        q = normalize_text(question)
        n = len(self.relations)
        out = np.zeros((n, len(LEXICAL_FEATURES)), np.float32)
        if n == 0:
            return out
        out[:, 3] = self._log_len
        if not q:
            return out
        qgrams = {q[k : k + 2] for k in range(len(q) - 1)} | set(q)  # one-character names are one-character grams
        char_hits = [self._char_ids[c] for c in set(q) if c in self._char_ids]
        gram_hits = [self._gram_ids[g] for g in qgrams if g in self._gram_ids]
        chars = np.bincount(np.concatenate(char_hits), minlength=n) if char_hits else np.zeros(n)
        grams = np.bincount(np.concatenate(gram_hits), minlength=n) if gram_hits else np.zeros(n)
        out[:, 0] = chars / self._safe_chars
        out[:, 1] = grams / self._safe_grams
        for i in np.flatnonzero((grams >= self._n_grams) & (self._n_grams > 0)):
            out[i, 2] = 1.0 if self._norms[i] in q else 0.0
        return out


# --------------------------------------------------------------------------------------------- the model


@dataclass(frozen=True, slots=True)
class RelationMatcherModel:
    """Weights: score = scale · e(q)ᵀ W e(r) + lexical · f(q, r)."""

    w: FloatArray  # (dim, dim)
    scale: float
    lexical: FloatArray  # (len(feature_names),); zeros when the model does not use them
    embedder_name: str
    relation_kind: RelationKind = "passage"
    feature_names: tuple[str, ...] = LEXICAL_FEATURES
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def dim(self) -> int:
        return int(self.w.shape[0])

    def project(self, relation_vectors: FloatArray) -> FloatArray:
        """scale · W e(r) for each row (what `logits` multiplies the question vector with)."""
        out: FloatArray = (self.scale * (relation_vectors @ self.w.T)).astype(np.float32)
        return out

    def logits(self, question_vector: FloatArray, projected: FloatArray, lexical: FloatArray) -> FloatArray:
        """One question's scores from `project`ed relation vectors (n, dim) and lexical features (n, F)."""
        out: FloatArray = (projected @ question_vector + lexical @ self.lexical).astype(np.float32)
        return out

    def save(self, path: Path) -> None:
        """A compressed `.npz`: W in float16 (scores move by < 1e-2 logits), the rest in float32."""
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT_VERSION,
            "embedder": self.embedder_name,
            "relation_kind": self.relation_kind,
            "features": list(self.feature_names),
            "scale": self.scale,
            "meta": self.meta,
        }
        np.savez_compressed(
            path,
            header=np.array(json.dumps(header, ensure_ascii=False, sort_keys=True)),
            w=self.w.astype(np.float16),
            lexical=self.lexical.astype(np.float32),
        )

    @classmethod
    def load(cls, path: Path) -> RelationMatcherModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                w = np.asarray(data["w"], dtype=np.float32)
                lexical = np.asarray(data["lexical"], dtype=np.float32)
        except (OSError, ValueError, KeyError) as exc:
            raise KgreasonError(f"cannot read the relation matcher {path}: {exc}") from None
        if header.get("format") != FORMAT_VERSION:
            raise KgreasonError(f"{path}: relation matcher format {header.get('format')}, expected {FORMAT_VERSION}")
        if tuple(header.get("features", ())) != LEXICAL_FEATURES:
            raise KgreasonError(f"{path}: the matcher was trained on other lexical features; rebuild it")
        kind = header.get("relation_kind")
        if kind not in ("query", "passage"):
            raise KgreasonError(f"{path}: unknown relation_kind {kind!r}")
        if w.ndim != 2 or w.shape[0] != w.shape[1] or lexical.shape != (len(LEXICAL_FEATURES),):
            raise KgreasonError(f"{path}: weights have the wrong shape {w.shape} / {lexical.shape}")
        return cls(
            w=w,
            scale=float(header["scale"]),
            lexical=lexical,
            embedder_name=str(header["embedder"]),
            relation_kind=kind,
            feature_names=tuple(header["features"]),
            meta=dict(header.get("meta", {})),
        )


def default_matcher_path() -> Path:
    return Path(str(resources.files("kgreason.resources").joinpath(DEFAULT_RESOURCE)))


def embed_relations(embedder: Embedder, relations: Sequence[str], kind: RelationKind) -> FloatArray:
    """e5 vectors of relation names as the matcher sees them (the plain name, with the e5 prefix of `kind`)."""
    return embedder.embed_queries(relations) if kind == "query" else embedder.embed_passages(relations)


# --------------------------------------------------------------------------------------------- scorers


class RelationMatcher:
    """`RelationScorer` applying a `RelationMatcherModel`; relation projections are cached in memory."""

    def __init__(self, embedder: Embedder, model: RelationMatcherModel, *, max_cached: int = 100_000) -> None:
        if embedder.name != model.embedder_name:
            raise KgreasonError(
                f"the relation matcher was trained on embedder {model.embedder_name!r}, got {embedder.name!r}"
            )
        if model.dim != embedder.dim:
            raise KgreasonError(f"the relation matcher expects {model.dim}-dim vectors, got {embedder.dim}")
        self._embedder = embedder
        self.model = model
        self._max_cached = max_cached
        self._projected: dict[str, FloatArray] = {}
        self._lock = threading.Lock()  # threads share the projections (`kgreason run --workers`)

    @property
    def name(self) -> str:
        return f"relmatch:{self.model.meta.get('name', 'model')}"

    def projected(self, relations: Sequence[str]) -> FloatArray:
        """(len(relations), dim) projections, embedding the names not seen before in one batch."""
        with self._lock:
            return self._projected_locked(relations)

    def _projected_locked(self, relations: Sequence[str]) -> FloatArray:
        missing = list(dict.fromkeys(r for r in relations if r not in self._projected))
        if missing:
            if len(self._projected) + len(missing) > self._max_cached:
                self._projected.clear()
            vecs = self.model.project(embed_relations(self._embedder, missing, self.model.relation_kind))
            self._projected.update(zip(missing, vecs, strict=True))
        if not relations:
            return np.zeros((0, self.model.dim), np.float32)
        return np.stack([self._projected[r] for r in relations]).astype(np.float32)

    def score(self, question: str, relations: Sequence[str]) -> list[float]:
        if not relations:
            return []
        q = self._embedder.embed_queries([question])[0]
        lexical = RelationLexicon(relations).features(question)
        return [float(x) for x in self.model.logits(q, self.projected(relations), lexical)]

    def score_many(self, questions: Sequence[str], relations: Sequence[str]) -> FloatArray:
        """(len(questions), len(relations)) scores of every question against one shared relation list (batched
        question embedding; used by the benchmark's whole-vocabulary ranking)."""
        out = np.zeros((len(questions), len(relations)), np.float32)
        if not questions or not relations:
            return out
        qs = self._embedder.embed_queries(questions)
        proj = self.projected(relations)
        lexicon = RelationLexicon(relations)
        for i, question in enumerate(questions):
            out[i] = self.model.logits(qs[i], proj, lexicon.features(question))
        return out


def load_relation_matcher(embedder: Embedder, path: Path | None = None) -> RelationMatcher:
    """The trained matcher; `path` defaults to the packaged `kgreason/resources/relmatch_ckbqa.npz`."""
    model_path = path or default_matcher_path()
    if not model_path.exists():
        raise KgreasonError(
            f"relation matcher not found: {model_path} (rebuild it with `benchmarks/bench_relmatch.py --train`)"
        )
    return RelationMatcher(embedder, RelationMatcherModel.load(model_path))


class CosineRelationScorer:
    """Untrained baseline: e5 cosine between the question (`query:`) and the relation name (`kind`)."""

    def __init__(self, embedder: Embedder, kind: RelationKind = "passage") -> None:
        self._embedder = embedder
        self._kind: RelationKind = kind

    @property
    def name(self) -> str:
        return f"cosine-{self._kind}:{self._embedder.name}"

    def score(self, question: str, relations: Sequence[str]) -> list[float]:
        if not relations:
            return []
        q = self._embedder.embed_queries([question])[0]
        return [float(x) for x in embed_relations(self._embedder, relations, self._kind) @ q]


class BM25RelationScorer:
    """Lexical baseline: BM25 (character unigrams + bigrams, `lexical.BM25`) of the question against the relation
    names, the candidates of the call being the collection."""

    @property
    def name(self) -> str:
        return "bm25-relations"

    def score(self, question: str, relations: Sequence[str]) -> list[float]:
        # rounded: `BM25` sums over a set of terms, whose order (and so the last bits of a sum) changes between
        # processes; equal scores must stay equal for the tie-breaking of rankings to be reproducible
        return [round(x, 9) for x in BM25(list(relations)).scores(question)] if relations else []


class CharOverlapRelationScorer:
    """Lexical baseline: bigram overlap, then character overlap as a tie-breaker (`RelationLexicon`)."""

    @property
    def name(self) -> str:
        return "char-overlap"

    def score(self, question: str, relations: Sequence[str]) -> list[float]:
        f = RelationLexicon(relations).features(question)
        return [float(x) for x in f[:, 1] + 0.1 * f[:, 0] + 0.01 * f[:, 2]]


def relation_probabilities(scores: Sequence[float]) -> list[float]:
    """Softmax of one question's matcher logits (they were trained as softmax logits, no temperature to apply)."""
    return relevance_probabilities(scores)
