"""`answer_question`: one question on one document in, an `ExplainedAnswer` out — the answer, its evidence triples
each with its source sentence span, the constraints marked satisfied or not with their derived triples, the losing
candidates with scores, and what the LLM cost. It runs the project's reasoner (`Reasoner.answer`) unchanged and
reads its trace entry (`reason/trace.py`), so the explanation is exactly what `kgreason run` would record."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kgreason.data.records import LEVELS, AnswerRecord, Dataset, Level, Question
from kgreason.errors import KgreasonError
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.trace import QuestionTrace, TraceCheck, TraceEvidence

DEFAULT_LEVEL: Level = "L2"  # a typed question not in qa.json: multi-hop search with constraint checks
ASKED_QUERY_ID = "ask"


class QuestionError(KgreasonError):
    """The question cannot be asked as given (unknown or missing document, empty text, bad level)."""


@dataclass(frozen=True, slots=True)
class EvidenceView:
    head: str
    relation: str
    tail: str
    derived: bool  # a comparison the program computed (not a KG triple): head and tail are the values compared
    sentence: str | None  # the source sentence in the document (KG triples only; None when not found)
    start: int | None  # its character offsets in the document: content[start:end] == sentence
    end: int | None


@dataclass(frozen=True, slots=True)
class ConstraintView:
    key: str  # as written in the answer's `constraints` (the conventions' key)
    value: str  # the question's wording
    satisfied: bool | None  # None: no check decided it (no value in the KG, or a constraint the search applied)
    derived: tuple[tuple[str, str, str], ...]  # the derived comparison triples that justify it
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CandidateView:
    id: str  # C1, C2, ... as in the trace
    answers: tuple[str, ...]
    score: float
    origin: str
    chosen: bool
    checks_failed: int
    path: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class LLMUsageView:
    asked: bool
    model: str | None
    reason: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float


@dataclass(frozen=True, slots=True)
class ExplainedAnswer:
    query_id: str
    doc_id: str
    question: str
    difficulty: str
    answer_type: str
    answers: tuple[str, ...]
    evidence: tuple[EvidenceView, ...]
    alt_paths: tuple[tuple[tuple[str, str, str], ...], ...]
    constraints: tuple[ConstraintView, ...]
    candidates: tuple[CandidateView, ...]  # every candidate shown to the chooser, the chosen one marked
    llm: LLMUsageView  # the choice among candidates
    reading: LLMUsageView  # the LLM reading the asked type (reason/reading.py)
    read_type: str  # the KG type it read, "" when none
    seconds: float  # the reasoner's time for this question
    seconds_by_stage: dict[str, float]
    record: dict[str, Any]  # the result.json item, exactly as `kgreason run` writes it


def question_for(
    dataset: Dataset,
    text: str,
    doc_id: str | None = None,
    difficulty: str | None = None,
    *,
    find_document: Callable[[str], str | None] | None = None,
) -> Question:
    """The `Question` to ask. Without `doc_id`: the dataset's only document, else the one `find_document` picks
    for the question (the corpus index of `kgreason.corpus`: the document whose KG names most of it). A question
    that is in qa.json for that document keeps its query_id and level (so it is answered as `kgreason run` answers
    it); another gets query_id `ask` and `difficulty`, default L2."""
    text = text.strip()
    if not text:
        raise QuestionError("the question is empty")
    if doc_id is None and len(dataset.documents) != 1 and find_document is not None:
        doc_id = find_document(text)
        if doc_id is None:
            raise QuestionError(
                f"no document of dataset {dataset.root} names anything the question mentions; give doc_id to ask "
                "one document"
            )
    if doc_id is None:
        if len(dataset.documents) != 1:
            raise QuestionError(
                f"doc_id is needed: dataset {dataset.root} has {len(dataset.documents)} documents "
                f"({', '.join(sorted(dataset.documents)[:5])}{', ...' if len(dataset.documents) > 5 else ''})"
            )
        doc_id = next(iter(dataset.documents))
    elif doc_id not in dataset.documents:
        raise QuestionError(f"no document {doc_id!r} in dataset {dataset.root}")
    known = next((q for q in dataset.questions if q.doc_id == doc_id and q.question.strip() == text), None)
    if known is not None:
        return Question(known.query_id, doc_id, known.question, _level(difficulty, known.difficulty))
    return Question(ASKED_QUERY_ID, doc_id, text, _level(difficulty, DEFAULT_LEVEL))


def _level(difficulty: str | None, default: Level) -> Level:
    if difficulty is None:
        return default
    for level in LEVELS:
        if level == difficulty:
            return level
    raise QuestionError(f"difficulty must be one of {', '.join(LEVELS)}, got {difficulty!r}")


def answer_question(reasoner: Reasoner, question: Question) -> ExplainedAnswer:
    """Answer with the reasoner and explain the result (see the module docstring)."""
    result = reasoner.answer(question)
    return explain_trace(result.record, result.trace)


def explain_trace(record: AnswerRecord, trace: QuestionTrace | Mapping[str, Any]) -> ExplainedAnswer:
    """The explanation of a finished question from its record and trace (typed, or an entry a run wrote)."""
    if not isinstance(trace, QuestionTrace):
        trace = QuestionTrace.from_json(trace, record)
    cands = trace.candidates
    chosen = next((c for c in cands if c.id == trace.llm.chosen), cands[0] if cands else None)
    checks = chosen.checks if chosen else ()
    constraints = tuple(_constraint(k, v, checks) for k, v in record.constraints.items())
    candidates = tuple(
        CandidateView(
            id=c.id,
            answers=c.answers,
            score=c.score,
            origin=c.origin,
            chosen=c is chosen,
            checks_failed=sum(1 for k in c.checks if k.ok is False),
            path=c.path,
        )
        for c in cands
    )
    return ExplainedAnswer(
        query_id=record.query_id,
        doc_id=record.doc_id,
        question=record.question,
        difficulty=record.difficulty,
        answer_type=record.answer_type,
        answers=record.answers,
        evidence=tuple(_evidence(e) for e in trace.evidence),
        alt_paths=record.alt_paths,
        constraints=constraints,
        candidates=candidates,
        llm=LLMUsageView(
            trace.llm.asked,
            trace.llm.model,
            trace.llm.reason,
            trace.llm.prompt_tokens,
            trace.llm.completion_tokens,
            trace.llm.seconds,
        ),
        reading=LLMUsageView(
            trace.reading.asked,
            trace.reading.model,
            trace.reading.reason,
            trace.reading.prompt_tokens,
            trace.reading.completion_tokens,
            trace.reading.seconds,
        ),
        read_type=trace.reading.asked_type,
        seconds=trace.seconds,
        seconds_by_stage=dict(trace.seconds_by_stage),
        record=record.to_json(),
    )


def _evidence(e: TraceEvidence) -> EvidenceView:
    h, r, t = e.triple
    located = e.sentence is not None and e.offset is not None
    return EvidenceView(
        head=h,
        relation=r,
        tail=t,
        derived=e.derived,
        sentence=e.sentence if located else None,
        start=e.offset if located else None,
        end=e.offset + len(e.sentence) if e.offset is not None and e.sentence is not None else None,
    )


def _constraint(key: str, value: str, checks: tuple[TraceCheck, ...]) -> ConstraintView:
    """A constraint of the answer and the chosen candidate's checks that tested it: those with the same wording
    (a time constraint may span several windows, each checked apart), else those under the same key."""
    mine = [c for c in checks if c.value and c.value in value]
    if not mine:
        mine = [c for c in checks if c.key == key]
    oks = [c.ok for c in mine]
    satisfied: bool | None
    if not mine or any(ok is None for ok in oks):
        satisfied = None if not any(ok is False for ok in oks) else False
    else:
        satisfied = all(ok is True for ok in oks)
    derived = tuple(dict.fromkeys(t for c in mine for t in c.derived))
    notes = tuple(dict.fromkeys(c.note for c in mine if c.note))
    return ConstraintView(key, value, satisfied, derived, notes)
