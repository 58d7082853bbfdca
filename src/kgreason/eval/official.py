"""The official score of the CCKS 2026 task (spec 000, section 3): per question, per group, per file.

    Score = α·AnswerScore + β·EvidenceScore + γ·ReasoningScore + δ·ConstraintScore

with the weights of the gold record's level (`WEIGHTS`). The task ranks by the sum over the questions (`total`);
`mean` is that sum over the number of scored questions. The components live in `kgreason.eval.metrics`;
`docs/scoring.md` gives every definition.

Messy submissions are scored, not rejected: a gold question without a prediction scores 0 (`missing`); predictions
for unknown questions are listed (`unknown`); a repeated query_id keeps its first record (`duplicates`); a
malformed field zeroes only the components that read it (answers -> Answer; gold_reasoning_paths_main -> Evidence
and Reasoning; constraints -> Constraint), and every problem is reported with file, record and field. A malformed
gold item is reported and left out of the totals (`skipped_gold`). Only an unreadable file raises `DataError`.

Public API: `score_files(pred_path, gold_path)`, `score_records(preds, gold)`, `score_question(pred, gold)`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from kgreason.data.answers import ParsedAnswer, parse_answer_record, record_label
from kgreason.data.jsonio import read_records
from kgreason.data.records import LEVELS, AnswerRecord, Level
from kgreason.errors import DataError, Problem
from kgreason.eval.metrics import (
    NO_CONSTRAINT,
    NO_EVIDENCE,
    NO_REASONING,
    AnswerKind,
    AnswerResult,
    ConstraintResult,
    EvidenceResult,
    GoldView,
    ReasoningResult,
    answer_score,
    constraint_score,
    evidence_normalized,
    is_set_answer,
    normalize_answers,
    normalize_path,
    reasoning_normalized,
    view_gold,
)


@dataclass(frozen=True, slots=True)
class Weights:
    answer: float  # α
    evidence: float  # β
    reasoning: float  # γ
    constraint: float  # δ


WEIGHTS: Mapping[Level, Weights] = {
    "L1": Weights(0.65, 0.2, 0.1, 0.05),  # 事实查询: answer first
    "L2": Weights(0.45, 0.3, 0.15, 0.1),  # 标准多跳: answer and path balanced
    "L3": Weights(0.3, 0.25, 0.25, 0.2),  # 多约束复合: constraints and reasoning
}

Status = Literal["scored", "missing"]
NO_ANSWER_TYPE = "(none)"

# The prediction fields each component reads; a malformed one zeroes that component only.
ANSWER_FIELD = "answers"
PATH_FIELD = "gold_reasoning_paths_main"
CONSTRAINT_FIELD = "constraints"
SCORED_FIELDS = frozenset({"query_id", ANSWER_FIELD, PATH_FIELD, CONSTRAINT_FIELD})


# --------------------------------------------------------------------------------------------------- question level
@dataclass(frozen=True, slots=True)
class QuestionScore:
    query_id: str
    level: Level  # the gold record's
    answer_type: str  # the gold record's, verbatim
    status: Status  # "missing": no prediction, every component 0
    score: float
    answer: AnswerResult
    evidence: EvidenceResult
    reasoning: ReasoningResult
    constraint: ConstraintResult
    zeroed: tuple[str, ...] = ()  # prediction fields that were malformed, so their components scored 0

    @property
    def kind(self) -> AnswerKind:
        return self.answer.kind

    def metrics(self) -> dict[str, float]:
        """Every number of the question, flat, under the names the report uses."""
        return {
            "score": self.score,
            "answer": self.answer.score,
            "evidence": self.evidence.score,
            "reasoning": self.reasoning.score,
            "constraint": self.constraint.f1,
            "em": self.answer.em,
            "answer_p": self.answer.precision,
            "answer_r": self.answer.recall,
            "answer_f1": self.answer.f1,
            "p_t": self.evidence.precision,
            "r_t": self.evidence.recall,
            "triple_match": self.evidence.triple_match,
            "parsimony": self.evidence.parsimony,
            "node_coverage": self.reasoning.node_coverage,
            "edge_order": self.reasoning.edge_order,
            "hop_match": self.reasoning.hop_match,
            "p_c": self.constraint.precision,
            "r_c": self.constraint.recall,
            "constraint_f1": self.constraint.f1,
        }


# The names of `QuestionScore.metrics()`, in report order.
METRIC_NAMES: tuple[str, ...] = (
    "score",
    "answer",
    "evidence",
    "reasoning",
    "constraint",
    "em",
    "answer_p",
    "answer_r",
    "answer_f1",
    "p_t",
    "r_t",
    "triple_match",
    "parsimony",
    "node_coverage",
    "edge_order",
    "hop_match",
    "p_c",
    "r_c",
    "constraint_f1",
)


def _weighted(level: Level, a: float, e: float, r: float, c: float) -> float:
    w = WEIGHTS[level]
    return w.answer * a + w.evidence * e + w.reasoning * r + w.constraint * c


def missing_score(gold: AnswerRecord) -> QuestionScore:
    """A gold question without a prediction: 0 on everything."""
    kind: AnswerKind = "set" if is_set_answer(gold) else "single"
    no_answer = AnswerResult(kind, 0.0, 0.0, 0.0, 0.0, 0.0)
    return QuestionScore(
        gold.query_id,
        gold.difficulty,
        gold.answer_type,
        "missing",
        0.0,
        no_answer,
        NO_EVIDENCE,
        NO_REASONING,
        NO_CONSTRAINT,
    )


def score_question(pred: ParsedAnswer | AnswerRecord | None, gold: AnswerRecord | GoldView) -> QuestionScore:
    """Score one prediction (None: missing) against its gold record. Fields listed in `ParsedAnswer.bad_fields`
    zero the components that read them; the prediction's own `difficulty` and `answer_type` are ignored."""
    if pred is None:
        return missing_score(gold.record if isinstance(gold, GoldView) else gold)
    view = view_gold(gold)
    gold = view.record
    if isinstance(pred, AnswerRecord):
        record, bad = pred, frozenset[str]()
    else:
        record, bad = pred.record, pred.bad_fields

    answer = answer_score(record.answers, view)
    if ANSWER_FIELD in bad:
        answer = AnswerResult(answer.kind, 0.0, 0.0, 0.0, 0.0, 0.0)
    if PATH_FIELD in bad:
        evidence, reasoning = NO_EVIDENCE, NO_REASONING
    else:
        pred_path = normalize_path(record.main_path)  # once for both components
        evidence = evidence_normalized(pred_path, view)
        reasoning = reasoning_normalized(pred_path, view, evidence.matched_path or "main")
    constraint = NO_CONSTRAINT if CONSTRAINT_FIELD in bad else constraint_score(record.constraints, gold.constraints)

    total = _weighted(gold.difficulty, answer.score, evidence.score, reasoning.score, constraint.f1)
    zeroed = tuple(f for f in (ANSWER_FIELD, PATH_FIELD, CONSTRAINT_FIELD) if f in bad)
    return QuestionScore(
        gold.query_id,
        gold.difficulty,
        gold.answer_type,
        "scored",
        total,
        answer,
        evidence,
        reasoning,
        constraint,
        zeroed,
    )


# ------------------------------------------------------------------------------------------------------ aggregates
@dataclass(frozen=True, slots=True)
class GroupSummary:
    """Sum and means over a group of questions; `metrics` holds the mean of every name in `METRIC_NAMES`."""

    count: int
    total: float  # sum of Score
    mean: float  # total / count (0 for an empty group)
    metrics: Mapping[str, float]


def summarize(questions: Sequence[QuestionScore]) -> GroupSummary:
    return _summarize([tuple(q.metrics().values()) for q in questions])


def _summarize(rows: Sequence[tuple[float, ...]]) -> GroupSummary:
    """Rows of `QuestionScore.metrics()` values, in `METRIC_NAMES` order."""
    n = len(rows)
    sums = [math.fsum(col) for col in zip(*rows, strict=True)] if rows else [0.0] * len(METRIC_NAMES)
    means = {k: (v / n if n else 0.0) for k, v in zip(METRIC_NAMES, sums, strict=True)}
    return GroupSummary(n, sums[0], means["score"], means)


@dataclass(frozen=True, slots=True)
class ScoreReport:
    total: float  # the task's ranking figure: sum of per-question scores
    mean: float
    count: int  # gold questions scored (missing predictions included, skipped gold items not)
    overall: GroupSummary
    by_level: Mapping[str, GroupSummary]  # "L1", "L2", "L3" (levels present only)
    by_answer_type: Mapping[str, GroupSummary]  # gold answer_type verbatim; "(none)" when empty
    by_answer_kind: Mapping[str, GroupSummary]  # "single", "set"
    per_question: tuple[QuestionScore, ...]  # in gold order
    missing: tuple[str, ...]  # gold query_ids without a prediction (scored 0)
    unknown: tuple[str, ...]  # predicted query_ids that are not gold questions (ignored)
    duplicates: tuple[str, ...] = ()  # predicted query_ids given more than once (the first record was scored)
    skipped_gold: tuple[str, ...] = ()  # malformed gold items left out of the totals (query_id, or "#index")
    problems: tuple[Problem, ...] = ()  # everything found in both files, errors and warnings
    pred_file: str | None = None
    gold_file: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Everything, JSON-ready (floats rounded to 6 decimals)."""

        def group(g: GroupSummary) -> dict[str, Any]:
            return {"count": g.count, "total": _r(g.total), "mean": _r(g.mean), "means": _rmap(g.metrics)}

        return {
            "files": {"pred": self.pred_file, "gold": self.gold_file},
            "total": _r(self.total),
            "mean": _r(self.mean),
            "count": self.count,
            "weights": {lvl: dataclasses.asdict(WEIGHTS[lvl]) for lvl in LEVELS},
            "overall": group(self.overall),
            "by_level": {k: group(v) for k, v in self.by_level.items()},
            "by_answer_type": {k: group(v) for k, v in self.by_answer_type.items()},
            "by_answer_kind": {k: group(v) for k, v in self.by_answer_kind.items()},
            "missing": list(self.missing),
            "unknown": list(self.unknown),
            "duplicates": list(self.duplicates),
            "skipped_gold": list(self.skipped_gold),
            "problems": [dataclasses.asdict(p) for p in self.problems],
            "per_question": [question_json(q) for q in self.per_question],
        }


def _r(x: float) -> float:
    return round(x, 6)


def _rmap(m: Mapping[str, float]) -> dict[str, float]:
    return {k: _r(v) for k, v in m.items()}


def question_json(q: QuestionScore) -> dict[str, Any]:
    def comp(obj: Any) -> dict[str, Any]:
        d = dataclasses.asdict(obj)
        return {k: (_r(v) if isinstance(v, float) else list(v) if isinstance(v, tuple) else v) for k, v in d.items()}

    return {
        "query_id": q.query_id,
        "level": q.level,
        "answer_type": q.answer_type,
        "kind": q.kind,
        "status": q.status,
        "score": _r(q.score),
        "answer": comp(q.answer),
        "evidence": comp(q.evidence),
        "reasoning": comp(q.reasoning),
        "constraint": comp(q.constraint),
        "zeroed": list(q.zeroed),
    }


def _group_by(
    questions: Sequence[QuestionScore], rows: Sequence[tuple[float, ...]], key: Callable[[QuestionScore], str]
) -> dict[str, GroupSummary]:
    groups: dict[str, list[tuple[float, ...]]] = {}
    for q, row in zip(questions, rows, strict=True):
        groups.setdefault(key(q), []).append(row)
    return {k: _summarize(groups[k]) for k in sorted(groups)}


def score_records(preds: Mapping[str, ParsedAnswer | AnswerRecord], gold: Mapping[str, AnswerRecord]) -> ScoreReport:
    """Score predictions (query_id -> parsed item) against gold records (query_id -> record), in gold order.

    Gold questions without a prediction score 0 and are listed in `missing`; predictions for query_ids that are not
    in `gold` are listed in `unknown` and ignored. `score_files` adds what only the files can tell (duplicates,
    skipped gold items, parse problems).
    """
    per_question = tuple(score_question(preds.get(qid), g) for qid, g in gold.items())
    rows = [tuple(q.metrics().values()) for q in per_question]
    overall = _summarize(rows)
    return ScoreReport(
        total=overall.total,
        mean=overall.mean,
        count=overall.count,
        overall=overall,
        by_level=_group_by(per_question, rows, lambda q: q.level),
        by_answer_type=_group_by(per_question, rows, lambda q: q.answer_type.strip() or NO_ANSWER_TYPE),
        by_answer_kind=_group_by(per_question, rows, lambda q: q.kind),
        per_question=per_question,
        missing=tuple(q.query_id for q in per_question if q.status == "missing"),
        unknown=tuple(qid for qid in preds if qid not in gold),
    )


# ----------------------------------------------------------------------------------------------------------- files
@dataclass(frozen=True, slots=True)
class LoadedPredictions:
    by_id: Mapping[str, ParsedAnswer]  # first record of each query_id, in file order
    duplicates: tuple[str, ...]  # query_ids seen again (later records ignored), once each
    problems: tuple[Problem, ...]


@dataclass(frozen=True, slots=True)
class LoadedGold:
    by_id: Mapping[str, AnswerRecord]  # usable gold records, in file order
    skipped: tuple[str, ...]  # malformed items left out: their query_id, or "#index" without one
    problems: tuple[Problem, ...]


def load_predictions(path: Path) -> LoadedPredictions:
    """Read a `result.json`. Raises `DataError` only when the file cannot be read or parsed as JSON at all."""
    name = str(path)
    by_id: dict[str, ParsedAnswer] = {}
    duplicates: dict[str, None] = {}
    problems: list[Problem] = []
    for raw in read_records(path):  # the input policy's errors (nesting, numbers, ...) included
        parsed = parse_answer_record(raw.value, file=name, index=raw.index)
        problems.extend(_as_scored(p) for p in parsed.problems)
        qid = parsed.record.query_id
        label = record_label(raw.value, raw.index)
        if not qid:
            problems.append(Problem(name, "record without a usable query_id was not scored", label))
        elif qid in by_id:
            duplicates.setdefault(qid, None)
            problems.append(
                Problem(name, f"duplicate query_id {qid!r}: the first record was scored, this one ignored", label)
            )
        else:
            by_id[qid] = parsed
    return LoadedPredictions(by_id, tuple(duplicates), tuple(problems))


def _as_scored(problem: Problem) -> Problem:
    """A prediction's problem in a field the score does not read (answer_type, difficulty, doc_id, question,
    gold_reasoning_paths_alt: the gold record's level and type are used) costs nothing: it becomes a warning."""
    if problem.severity == "error" and problem.field is not None and problem.field not in SCORED_FIELDS:
        return dataclasses.replace(problem, message=f"{problem.message} (not used by the score)", severity="warning")
    return problem


def gold_problems(gold: AnswerRecord, file: str, label: str) -> list[Problem]:
    """What makes a well-formed gold item unscoreable: no answer, or an empty main path."""
    out: list[Problem] = []
    if not normalize_answers(gold.answers):
        out.append(Problem(file, "gold item has no answer; skipped", label, ANSWER_FIELD))
    if not gold.main_path:
        out.append(Problem(file, "gold item has an empty main path; skipped", label, PATH_FIELD))
    return out


def load_gold(path: Path) -> LoadedGold:
    """Read a `qa_answer.json`. A malformed item (any bad field, no answer, empty main path, a repeated query_id)
    is reported and skipped. Raises `DataError` only when the file cannot be read or parsed as JSON at all."""
    name = str(path)
    by_id: dict[str, AnswerRecord] = {}
    skipped: list[str] = []
    problems: list[Problem] = []
    for raw in read_records(path):  # the input policy's errors (nesting, numbers, ...) included
        parsed = parse_answer_record(raw.value, file=name, index=raw.index)
        label = record_label(raw.value, raw.index)
        qid = parsed.record.query_id
        extra = [] if parsed.bad_fields else gold_problems(parsed.record, name, label)
        if qid and qid in by_id:
            extra.append(Problem(name, f"duplicate gold query_id {qid!r}; the first item is used", label))
            problems.extend(p for p in parsed.problems if p.severity == "error")
            problems.extend(extra)
            continue
        problems.extend(parsed.problems)
        problems.extend(extra)
        if parsed.bad_fields or extra:
            problems.append(Problem(name, "malformed gold item left out of the totals", label))
            skipped.append(qid or f"#{raw.index}")
        else:
            by_id[qid] = parsed.record
    return LoadedGold(by_id, tuple(skipped), tuple(problems))


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Scoring builds hundreds of thousands of small, acyclic objects; Python's cycle collector would walk them
    again and again (about 15% of the time for 10,000 questions). Pause it for the call and restore it after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def score_files(pred_path: Path | str, gold_path: Path | str) -> ScoreReport:
    """Score a `result.json` against a `qa_answer.json` (JSON array, JSON Lines, BOM accepted).

    Raises `DataError` (file and line/column) only when a file cannot be read or parsed at all; everything else is
    scored and reported.
    """
    with _gc_paused():
        return _score_files(Path(pred_path), Path(gold_path))


def _score_files(pred_path: Path, gold_path: Path) -> ScoreReport:
    unreadable: list[Problem] = []
    try:
        gold = load_gold(Path(gold_path))
    except DataError as exc:
        unreadable.extend(exc.problems)
    try:
        preds = load_predictions(Path(pred_path))
    except DataError as exc:
        unreadable.extend(exc.problems)
    if unreadable:  # both files' problems at once
        raise DataError(unreadable)
    report = score_records(preds.by_id, gold.by_id)
    skipped_ids = set(gold.skipped)
    return dataclasses.replace(
        report,
        unknown=tuple(q for q in report.unknown if q not in skipped_ids),
        duplicates=preds.duplicates,
        skipped_gold=gold.skipped,
        problems=gold.problems + preds.problems,
        pred_file=str(pred_path),
        gold_file=str(gold_path),
    )
