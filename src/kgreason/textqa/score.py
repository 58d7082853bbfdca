"""`kgreason textqa score`: a prediction file in a set's official format against that set's gold (original format).

HotpotQA and 2Wiki predictions are one JSON object `{"answer": {id: text}, "sp": {id: [[title, sent_id], …]}}` (2Wiki
adds `"evidence": {id: [[s, r, o], …]}`); MuSiQue predictions are JSON Lines `{"id", "predicted_answer",
"predicted_support_idxs", "predicted_answerable"}`. Every gold item counts: one without a prediction scores 0 (and is
counted as missing), as in the official scripts. Figures are means over the gold items, in [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import read_records
from kgreason.errors import DataError
from kgreason.textqa.metrics import (
    PRF,
    ZERO,
    answer_prf,
    best_answer_prf,
    evidence_prf,
    joint_prf,
    set_prf,
)
from kgreason.textqa.records import TextQAItem, TextQASet


@dataclass(frozen=True, slots=True)
class TextQAScore:
    dataset: str
    questions: int
    missing: int  # gold items without a prediction
    metrics: dict[str, float]  # name -> mean over the gold items


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def score_wiki_style(gold: TextQASet, prediction: dict[str, Any], *, file: str = "prediction") -> TextQAScore:
    """HotpotQA (answer, sp, joint) and 2Wiki (answer, sp, evidence, joint over all three)."""
    answers = _mapping(prediction, "answer", file)
    sps = _mapping(prediction, "sp", file)
    is_2wiki = gold.dataset == "2wiki"
    evidence = _mapping(prediction, "evidence", file) if is_2wiki else {}
    rows: dict[str, list[float]] = {}
    missing = 0
    for item in gold.items:
        have = item.id in answers and item.id in sps and (not is_2wiki or item.id in evidence)
        missing += 0 if have else 1
        ans = answer_prf(str(answers[item.id]), item.answer or "") if item.id in answers else ZERO
        sp = _sp_prf(item, sps[item.id], is_2wiki, file) if item.id in sps else ZERO
        parts: list[tuple[str, PRF]] = [("answer", ans), ("sp", sp)]
        if is_2wiki:
            evi = (
                evidence_prf(_triples(evidence[item.id], item.id, file), item.evidences)
                if item.id in evidence
                else ZERO
            )
            parts.append(("evidence", evi))
        parts.append(("joint", joint_prf(*(p for _, p in parts)) if have else ZERO))
        for name, prf in parts:
            prefix = "" if name == "answer" else f"{name}_"
            for key, value in (("em", prf.em), ("f1", prf.f1), ("prec", prf.precision), ("recall", prf.recall)):
                rows.setdefault(prefix + key, []).append(value)
    return TextQAScore(gold.dataset, len(gold.items), missing, {k: _mean(v) for k, v in rows.items()})


def _sp_prf(item: TextQAItem, predicted: Any, lower_titles: bool, file: str) -> PRF:
    if not isinstance(predicted, list) or not all(
        isinstance(f, list) and len(f) == 2 and isinstance(f[0], str) and isinstance(f[1], int) for f in predicted
    ):
        raise DataError.single(file, "expected a list of [title, sentence index]", record=item.id, field="sp")

    def key(title: str, sent: int) -> tuple[str, int]:
        return (title.lower() if lower_titles else title, sent)

    return set_prf((key(t, s) for t, s in predicted), (key(t, s) for t, s in item.supporting_facts))


def _triples(value: Any, item_id: str, file: str) -> list[tuple[str, str, str]]:
    if not isinstance(value, list) or not all(
        isinstance(t, list) and len(t) == 3 and all(isinstance(p, str) for p in t) for t in value
    ):
        raise DataError.single(file, "expected a list of [subject, relation, object]", record=item_id, field="evidence")
    return [(t[0], t[1], t[2]) for t in value]


def _mapping(prediction: dict[str, Any], key: str, file: str) -> dict[str, Any]:
    value = prediction.get(key)
    if not isinstance(value, dict):
        raise DataError.single(file, f"expected an object {{id: …}} under {key!r}", field=key)
    return value


@dataclass(frozen=True, slots=True)
class MusiquePrediction:
    answer: str
    support: tuple[int, ...]
    answerable: bool | None


def score_musique(gold: TextQASet, predictions: dict[str, MusiquePrediction]) -> TextQAScore:
    """Answer EM/F1 (best over the answer and its aliases, SQuAD normalisation), support EM/F1 over paragraph
    idx sets, and answerability accuracy when predictions state it."""
    rows: dict[str, list[float]] = {}
    missing = 0
    for item in gold.items:
        pred = predictions.get(item.id)
        if pred is None:
            missing += 1
        em, f1 = best_answer_prf(pred.answer, item.gold_answers, special_answers=False) if pred else (0.0, 0.0)
        support = set_prf(pred.support, item.supporting_paragraphs) if pred else ZERO
        rows.setdefault("answer_em", []).append(em)
        rows.setdefault("answer_f1", []).append(f1)
        rows.setdefault("support_em", []).append(support.em)
        rows.setdefault("support_f1", []).append(support.f1)
        if item.answerable is not None and pred is not None and pred.answerable is not None:
            rows.setdefault("answerable_acc", []).append(1.0 if pred.answerable == item.answerable else 0.0)
    metrics = {k: _mean(v) for k, v in rows.items() if k != "answerable_acc"}
    if "answerable_acc" in rows:
        metrics["answerable_acc"] = _mean(rows["answerable_acc"])
    return TextQAScore("musique", len(gold.items), missing, metrics)


def read_musique_predictions(path: Path) -> dict[str, MusiquePrediction]:
    out: dict[str, MusiquePrediction] = {}
    for raw in read_records(path):
        record = f"#{raw.index}"
        value = raw.value
        if not isinstance(value, dict) or not isinstance(value.get("id"), str):
            raise DataError.single(str(path), "expected an object with an 'id' text", record=record, field="id")
        answer = value.get("predicted_answer", "")
        support = value.get("predicted_support_idxs", [])
        answerable = value.get("predicted_answerable")
        if not isinstance(answer, str):
            raise DataError.single(str(path), "expected text", record=record, field="predicted_answer")
        if not isinstance(support, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in support):
            raise DataError.single(
                str(path), "expected a list of integers", record=record, field="predicted_support_idxs"
            )
        if answerable is not None and not isinstance(answerable, bool):
            raise DataError.single(str(path), "expected true/false", record=record, field="predicted_answerable")
        out[value["id"]] = MusiquePrediction(answer, tuple(support), answerable)
    return out


def score_file(prediction_path: Path, gold: TextQASet) -> TextQAScore:
    """Score a prediction file in the gold set's official format."""
    if gold.dataset == "musique":
        return score_musique(gold, read_musique_predictions(prediction_path))
    records = read_records(prediction_path)
    if len(records) != 1 or not isinstance(records[0].value, dict):
        raise DataError.single(
            str(prediction_path), 'expected one JSON object {"answer": {…}, "sp": {…}} (the official format)'
        )
    return score_wiki_style(gold, records[0].value, file=str(prediction_path))
