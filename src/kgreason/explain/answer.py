"""`answer_question`: one question on one document in, an `ExplainedAnswer` out — the answer, its evidence triples
each with its source sentence span, the constraints marked satisfied or not with their derived triples, the losing
candidates with scores, and what the LLM cost. It runs the project's reasoner (`Reasoner.answer`) unchanged and
reads its trace entry (`reason/trace.py`), so the explanation is exactly what `kgreason run` would record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kgreason.data.records import LEVELS, AnswerRecord, Dataset, Level, Question
from kgreason.errors import KgreasonError
from kgreason.reason.reasoner import Reasoner

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


def _triple(value: Any) -> tuple[str, str, str]:
    h, r, t = (str(x) for x in value)
    return (h, r, t)


def explain_trace(record: AnswerRecord, trace: dict[str, Any]) -> ExplainedAnswer:
    """The explanation of a finished question from its record and trace entry (also those a run wrote)."""
    evidence = tuple(_evidence(item) for item in trace.get("evidence", []))
    llm = trace.get("llm") or {}
    chosen_id = llm.get("chosen")
    cands = trace.get("candidates", [])
    chosen = next((c for c in cands if c.get("id") == chosen_id), cands[0] if cands else None)
    checks = chosen.get("checks", []) if chosen else []
    constraints = tuple(_constraint(k, v, checks) for k, v in record.constraints.items())
    candidates = tuple(
        CandidateView(
            id=str(c.get("id")),
            answers=tuple(str(a) for a in c.get("answers", [])),
            score=float(c.get("score", 0.0)),
            origin=str(c.get("origin", "")),
            chosen=c is chosen,
            checks_failed=sum(1 for k in c.get("checks", []) if k.get("ok") is False),
            path=tuple(_triple(t) for t in c.get("path", [])),
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
        evidence=evidence,
        alt_paths=record.alt_paths,
        constraints=constraints,
        candidates=candidates,
        llm=_usage(llm),
        reading=_usage(trace.get("reading") or {}),
        read_type=str((trace.get("reading") or {}).get("asked_type", "")),
        seconds=float(trace.get("seconds", 0.0)),
        seconds_by_stage={str(k): float(v) for k, v in (trace.get("seconds_by_stage") or {}).items()},
        record=record.to_json(),
    )


def _usage(llm: dict[str, Any]) -> LLMUsageView:
    return LLMUsageView(
        asked=bool(llm.get("asked")),
        model=llm.get("model"),
        reason=str(llm.get("reason", "")),
        prompt_tokens=int(llm.get("prompt_tokens", 0)),
        completion_tokens=int(llm.get("completion_tokens", 0)),
        seconds=float(llm.get("seconds", 0.0)),
    )


def _evidence(item: dict[str, Any]) -> EvidenceView:
    h, r, t = _triple(item["triple"])
    sentence, offset = item.get("sentence"), item.get("offset")
    located = isinstance(sentence, str) and isinstance(offset, int)
    return EvidenceView(
        head=h,
        relation=r,
        tail=t,
        derived=bool(item.get("derived")),
        sentence=sentence if isinstance(sentence, str) and located else None,
        start=offset if isinstance(offset, int) and located else None,
        end=offset + len(sentence) if isinstance(offset, int) and isinstance(sentence, str) else None,
    )


def _constraint(key: str, value: str, checks: list[dict[str, Any]]) -> ConstraintView:
    """A constraint of the answer and the chosen candidate's checks that tested it: those with the same wording
    (a time constraint may span several windows, each checked apart), else those under the same key."""
    mine = [c for c in checks if c.get("value") and str(c["value"]) in value]
    if not mine:
        mine = [c for c in checks if c.get("key") == key]
    oks = [c.get("ok") for c in mine]
    satisfied: bool | None
    if not mine or any(ok is None for ok in oks):
        satisfied = None if not any(ok is False for ok in oks) else False
    else:
        satisfied = all(ok is True for ok in oks)
    derived = tuple(dict.fromkeys(_triple(t) for c in mine for t in c.get("derived", [])))
    notes = tuple(dict.fromkeys(str(c["note"]) for c in mine if c.get("note")))
    return ConstraintView(key, value, satisfied, derived, notes)
