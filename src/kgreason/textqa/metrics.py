"""The official metrics of HotpotQA, 2WikiMultihopQA and MuSiQue, per question.

Formulas as in each set's evaluation script: answers are compared after HotpotQA's `normalize_answer` (SQuAD's:
lower case, punctuation and articles dropped, spaces collapsed); token F1 is 0 when exactly one side is
`yes`/`no`/`noanswer` (HotpotQA and 2Wiki; MuSiQue's SQuAD F1 has no such rule); MuSiQue takes the best score over the
answer and its aliases. Supporting facts and evidence triples are compared as sets (2Wiki lower-cases the titles of
supporting facts and normalises each evidence element); EM is 1 only when the sets are equal. Joint precision and
recall are products of the components' (answer × sp for HotpotQA, × evidence too for 2Wiki); joint EM the product of
their EMs.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string.punctuation)
_SPECIAL_ANSWERS = ("yes", "no", "noanswer")


def normalize_answer(text: str) -> str:
    """HotpotQA's (= SQuAD's) answer normalisation."""
    lowered = text.lower()
    no_punc = "".join(ch for ch in lowered if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", no_punc).split())


@dataclass(frozen=True, slots=True)
class PRF:
    """Exact match, precision, recall and F1 of one comparison."""

    em: float
    precision: float
    recall: float

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r > 0 else 0.0


ZERO = PRF(0.0, 0.0, 0.0)


def answer_prf(prediction: str, gold: str, *, special_answers: bool = True) -> PRF:
    """Answer EM and token precision/recall; `special_answers`: HotpotQA's rule for yes/no/noanswer."""
    pred, ref = normalize_answer(prediction), normalize_answer(gold)
    em = 1.0 if pred == ref else 0.0
    if special_answers and pred != ref and (pred in _SPECIAL_ANSWERS or ref in _SPECIAL_ANSWERS):
        return PRF(em, 0.0, 0.0)
    pred_tokens, ref_tokens = pred.split(), ref.split()
    same = sum((Counter(pred_tokens) & Counter(ref_tokens)).values())
    if same == 0:
        return PRF(em, 0.0, 0.0)
    return PRF(em, same / len(pred_tokens), same / len(ref_tokens))


def best_answer_prf(prediction: str, golds: Sequence[str], *, special_answers: bool = True) -> tuple[float, float]:
    """(EM, F1), each the maximum over the gold answer and its aliases (MuSiQue; 2Wiki with aliases)."""
    scores = [answer_prf(prediction, g, special_answers=special_answers) for g in golds if g]
    if not scores:
        return 0.0, 0.0
    return max(s.em for s in scores), max(s.f1 for s in scores)


def set_prf(predicted: Iterable[object], gold: Iterable[object]) -> PRF:
    """Set comparison as in the official scripts: precision over predicted, recall over gold, EM on equality."""
    pred, ref = set(predicted), set(gold)
    tp = len(pred & ref)
    fp, fn = len(pred - ref), len(ref - pred)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return PRF(1.0 if fp + fn == 0 else 0.0, precision, recall)


def normalize_evidence_part(text: str) -> str:
    """2Wiki's evidence normalisation: lower case, punctuation dropped, spaces collapsed (articles kept)."""
    return " ".join("".join(ch for ch in text.lower() if ch not in _PUNCTUATION).split())


def evidence_prf(predicted: Iterable[Sequence[str]], gold: Iterable[Sequence[str]]) -> PRF:
    """2Wiki evidence triples. Gold aliases are not available in the shared files, so each gold triple is itself
    only; a predicted triple matches when all three normalised parts are equal."""
    pred = {tuple(normalize_evidence_part(p) for p in t) for t in predicted}
    ref = [tuple(normalize_evidence_part(p) for p in t) for t in gold]
    matches = sum(1 for t in pred if t in set(ref))
    precision = matches / len(pred) if pred else 0.0
    recall = matches / len(ref) if ref else 0.0
    em = 1.0 if matches == len(pred) == len(ref) else 0.0
    return PRF(em, precision, recall)


def joint_prf(*parts: PRF) -> PRF:
    """Joint metric: products of the parts' precision, recall and EM."""
    em, precision, recall = 1.0, 1.0, 1.0
    for part in parts:
        em, precision, recall = em * part.em, precision * part.precision, recall * part.recall
    return PRF(em, precision, recall)
