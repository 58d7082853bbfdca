"""Ranking quality of triple scorers: MRR, Recall@1 and Recall@5 of gold triples within a question's subgraph."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kgreason.data.records import PathTriple
from kgreason.retrieve.base import TripleScorer


@dataclass(frozen=True, slots=True)
class RankingMetrics:
    """Averages over the questions that have at least one gold triple among their candidates (`n`);
    `n_without_gold` questions have none (their gold triple is missing from the KG) and are left out."""

    n: int
    mrr: float
    recall_at_1: float
    recall_at_5: float
    n_without_gold: int = 0
    hit_at_1: float = 0.0  # share of questions whose top-ranked candidate is a gold triple

    def as_dict(self) -> dict[str, float | int]:
        return {
            "n": self.n,
            "mrr": round(self.mrr, 4),
            "recall@1": round(self.recall_at_1, 4),
            "recall@5": round(self.recall_at_5, 4),
            "hit@1": round(self.hit_at_1, 4),
            "n_without_gold": self.n_without_gold,
        }


def ranking(scores: Sequence[float]) -> list[int]:
    """Candidate indices, best first; ties keep candidate order (KG order), so results are deterministic."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def rank_metrics(scores: Sequence[Sequence[float]], labels: Sequence[Sequence[bool]]) -> RankingMetrics:
    """Recall@k = gold triples in the top k / gold triples among the candidates; MRR uses the best-ranked gold."""
    n = skipped = 0
    mrr = r1 = r5 = hit = 0.0
    for s, lab in zip(scores, labels, strict=True):
        gold = sum(1 for x in lab if x)
        if gold == 0:
            skipped += 1
            continue
        order = ranking(s)
        ranks = [pos for pos, i in enumerate(order, start=1) if lab[i]]
        n += 1
        mrr += 1.0 / ranks[0]
        r1 += sum(1 for r in ranks if r <= 1) / gold
        r5 += sum(1 for r in ranks if r <= 5) / gold
        hit += 1.0 if ranks[0] == 1 else 0.0
    if n == 0:
        return RankingMetrics(0, 0.0, 0.0, 0.0, skipped)
    return RankingMetrics(n, mrr / n, r1 / n, r5 / n, skipped, hit / n)


def evaluate_scorer(
    scorer: TripleScorer,
    questions: Sequence[str],
    candidates: Sequence[Sequence[PathTriple]],
    labels: Sequence[Sequence[bool]],
) -> RankingMetrics:
    scores = [scorer.score(q, c) for q, c in zip(questions, candidates, strict=True)]
    return rank_metrics(scores, labels)
