"""The typed trace of one answer (`QuestionTrace`, one JSON object per question in `result.trace.jsonl`): linked
entities, constraints, the candidates with their scores and checks, the LLM's part, and the final chain with each
triple's source sentence in the document."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kgreason.data.records import DERIVED_RELATIONS, AnswerRecord, PathTriple, Question
from kgreason.kg.index import KGIndex
from kgreason.reason.analysis import Analysis
from kgreason.reason.candidate import Candidate
from kgreason.reason.generate import ScoredChain
from kgreason.reason.llm_choice import LLMDecision
from kgreason.reason.reading import QuestionReading
from kgreason.reason.textmap import map_text
from kgreason.text.normalize import normalize_text

TOP_CHAINS_IN_TRACE = 5
_SENTENCE_END = re.compile(r"[。！？；!?;\n]")


@dataclass(frozen=True, slots=True)
class Sentence:
    start: int  # character offset in the document
    text: str
    norm: str


class SentenceFinder:
    """Sentences of one document, for locating where a triple was stated."""

    def __init__(self, content: str) -> None:
        self.sentences: list[Sentence] = []
        start = 0
        for m in _SENTENCE_END.finditer(content):
            self._add(content, start, m.end())
            start = m.end()
        self._add(content, start, len(content))

    def _add(self, content: str, start: int, end: int) -> None:
        text = content[start:end]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            self.sentences.append(Sentence(start + lead, text.strip(), map_text(text.strip()).norm))

    def find(self, triple: PathTriple) -> Sentence | None:
        """The sentence that mentions both ends (best effort: else the one with the head and most of the tail)."""
        h, r, t = (normalize_text(x) for x in triple)
        best: tuple[float, Sentence] | None = None
        for s in self.sentences:
            score = 0.0
            score += 2.0 if h and h in s.norm else 0.0
            score += 2.0 if t and t in s.norm else 0.0
            score += 0.5 if r and r in s.norm else 0.0
            if score and (best is None or score > best[0]):
                best = (score, s)
        return best[1] if best and best[0] >= 2.0 else None

    @staticmethod
    def ends_named(triple: PathTriple, sentence: Sentence) -> str:
        """Which ends of `triple` the sentence names: "both", "head" or "tail" (a sentence found by `find` names
        at least one; many state a fact about an entity named in the sentence before)."""
        h, t = normalize_text(triple[0]), normalize_text(triple[2])
        has_h, has_t = bool(h) and h in sentence.norm, bool(t) and t in sentence.norm
        return "both" if has_h and has_t else "head" if has_h else "tail"


# ------------------------------------------------------------------------------------------------ the record
# One typed record per question, written as one JSON object (`to_json`, the layout of `result.trace.jsonl`) and read
# back from one (`from_json`, tolerant of fields an older version did not write).


@dataclass(frozen=True, slots=True)
class TraceLink:
    """A name the question uses and the KG node it was linked to (`how`: exact, core, partial, fuzzy, group,
    gapped)."""

    text: str
    node: str
    how: str
    score: float


@dataclass(frozen=True, slots=True)
class TraceTimeWindow:
    text: str  # the question's wording (`第二次世界大战期间`)
    relation: str  # the derived relation it asks for (`处于时期内`, `早于`, ...)
    bound: str | None  # the date or the node bounding it


@dataclass(frozen=True, slots=True)
class TraceThreshold:
    text: str
    attribute: str
    relation: str
    operand: str


@dataclass(frozen=True, slots=True)
class TraceConstraints:
    """The constraints the question states, as understood before any search."""

    time: tuple[TraceTimeWindow, ...] = ()
    numeric: tuple[TraceThreshold, ...] = ()
    order: str | None = None  # a superlative or comparison phrase
    roles: dict[str, str] = field(default_factory=dict)  # mentioned node -> its marked role (camp, place, ...)


@dataclass(frozen=True, slots=True)
class TraceChain:
    """One of the best scored chains, with the parts of its score."""

    triples: tuple[PathTriple, ...]
    score: float
    coverage: float
    relation: float
    answer_kind: float
    external: float


@dataclass(frozen=True, slots=True)
class TraceCheck:
    kind: str
    key: str | None
    value: str
    ok: bool | None  # None: no value in the KG decided it
    derived: tuple[PathTriple, ...]
    note: str


@dataclass(frozen=True, slots=True)
class TraceCandidate:
    id: str  # C1, C2, ... in the order shown to the LLM (best first)
    answers: tuple[str, ...]
    score: float
    origin: str
    path: tuple[PathTriple, ...]
    checks: tuple[TraceCheck, ...]


@dataclass(frozen=True, slots=True)
class TraceChoice:
    """The LLM's choice among the candidates, or why it was not asked."""

    asked: bool
    chosen: str | None  # a candidate id; None when there was no candidate
    reason: str
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    failure: str | None = None  # the call failed: the program's best was kept


@dataclass(frozen=True, slots=True)
class TraceEvidence:
    """A triple of the main path: a KG triple with the sentence that states it, or a derived comparison."""

    triple: PathTriple
    derived: bool = False
    sentence: str | None = None  # None: no sentence of the document names its ends
    offset: int | None = None  # the sentence's character offset in the document
    names: str | None = None  # which ends the sentence names: both / head / tail


@dataclass(frozen=True, slots=True)
class QuestionTrace:
    """Everything one answer rests on, stage by stage: understand (links, form, words, constraints), search (best
    chains, candidates with their checks), choose (the LLM), assemble (the record), explain (evidence sentences),
    and the seconds each stage took."""

    query_id: str
    doc_id: str
    question: str
    difficulty: str
    linked: tuple[TraceLink, ...]
    form: str
    residual: str
    constraints: TraceConstraints
    top_chains: tuple[TraceChain, ...]
    candidates: tuple[TraceCandidate, ...]
    llm: TraceChoice
    answer: AnswerRecord
    evidence: tuple[TraceEvidence, ...]
    seconds: float
    reading: QuestionReading = field(default_factory=lambda: QuestionReading(False, "", "off in the config"))
    seconds_by_stage: dict[str, float] = field(default_factory=dict)
    status: str = "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "query_id": self.query_id,
            "doc_id": self.doc_id,
            "question": self.question,
            "difficulty": self.difficulty,
            "status": self.status,
            "linked": [{"text": x.text, "node": x.node, "how": x.how, "score": x.score} for x in self.linked],
            "form": self.form,
            "residual": self.residual,
            "constraints": {
                "time": [{"text": w.text, "relation": w.relation, "bound": w.bound} for w in self.constraints.time],
                "numeric": [
                    {"text": n.text, "attribute": n.attribute, "relation": n.relation, "operand": n.operand}
                    for n in self.constraints.numeric
                ],
                "order": self.constraints.order,
                "roles": dict(self.constraints.roles),
            },
            "top_chains": [
                {
                    "triples": [list(t) for t in c.triples],
                    "score": c.score,
                    "coverage": c.coverage,
                    "relation": c.relation,
                    "answer_kind": c.answer_kind,
                    "external": c.external,
                }
                for c in self.top_chains
            ],
            "candidates": [
                {
                    "id": c.id,
                    "answers": list(c.answers),
                    "score": c.score,
                    "origin": c.origin,
                    "path": [list(t) for t in c.path],
                    "checks": [
                        {
                            "kind": k.kind,
                            "key": k.key,
                            "value": k.value,
                            "ok": k.ok,
                            "derived": [list(t) for t in k.derived],
                            "note": k.note,
                        }
                        for k in c.checks
                    ],
                }
                for c in self.candidates
            ],
            "llm": {
                "asked": self.llm.asked,
                "chosen": self.llm.chosen,
                "reason": self.llm.reason,
                "model": self.llm.model,
                "prompt_tokens": self.llm.prompt_tokens,
                "completion_tokens": self.llm.completion_tokens,
                "seconds": self.llm.seconds,
                "failure": self.llm.failure,
            },
            "answer": self.answer.to_json(),
            "evidence": [_evidence_json(e) for e in self.evidence],
            "seconds": self.seconds,
            "reading": self.reading.trace(),
            "seconds_by_stage": dict(self.seconds_by_stage),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], answer: AnswerRecord) -> QuestionTrace:
        """A written trace entry read back (with its answer record, read by the journal). Fields an older
        version did not write, or an error entry lacks, take their empty values."""
        cons = data.get("constraints") or {}
        llm = data.get("llm") or {}
        reading = data.get("reading") or {}
        return cls(
            query_id=str(data.get("query_id", answer.query_id)),
            doc_id=str(data.get("doc_id", answer.doc_id)),
            question=str(data.get("question", answer.question)),
            difficulty=str(data.get("difficulty", answer.difficulty)),
            status=str(data.get("status", "ok")),
            linked=tuple(
                TraceLink(str(x.get("text", "")), str(x.get("node", "")), str(x.get("how", "")), _num(x.get("score")))
                for x in data.get("linked") or []
            ),
            form=str(data.get("form", "")),
            residual=str(data.get("residual", "")),
            constraints=TraceConstraints(
                time=tuple(
                    TraceTimeWindow(str(w.get("text", "")), str(w.get("relation", "")), _opt_str(w.get("bound")))
                    for w in cons.get("time") or []
                ),
                numeric=tuple(
                    TraceThreshold(
                        str(n.get("text", "")),
                        str(n.get("attribute", "")),
                        str(n.get("relation", "")),
                        str(n.get("operand", "")),
                    )
                    for n in cons.get("numeric") or []
                ),
                order=_opt_str(cons.get("order")),
                roles={str(k): str(v) for k, v in (cons.get("roles") or {}).items()},
            ),
            top_chains=tuple(
                TraceChain(
                    _triples(c.get("triples")),
                    _num(c.get("score")),
                    _num(c.get("coverage")),
                    _num(c.get("relation")),
                    _num(c.get("answer_kind")),
                    _num(c.get("external")),
                )
                for c in data.get("top_chains") or []
            ),
            candidates=tuple(
                TraceCandidate(
                    str(c.get("id", "")),
                    tuple(str(a) for a in c.get("answers") or []),
                    _num(c.get("score")),
                    str(c.get("origin", "")),
                    _triples(c.get("path")),
                    tuple(
                        TraceCheck(
                            str(k.get("kind", "")),
                            _opt_str(k.get("key")),
                            str(k.get("value", "")),
                            k.get("ok") if isinstance(k.get("ok"), bool) else None,
                            _triples(k.get("derived")),
                            str(k.get("note", "")),
                        )
                        for k in c.get("checks") or []
                    ),
                )
                for c in data.get("candidates") or []
            ),
            llm=TraceChoice(
                asked=bool(llm.get("asked")),
                chosen=_opt_str(llm.get("chosen")),
                reason=str(llm.get("reason", "")),
                model=str(llm.get("model") or ""),
                prompt_tokens=int(_num(llm.get("prompt_tokens"))),
                completion_tokens=int(_num(llm.get("completion_tokens"))),
                seconds=_num(llm.get("seconds")),
                failure=_opt_str(llm.get("failure")),
            ),
            answer=answer,
            evidence=tuple(
                TraceEvidence(
                    _triple(e.get("triple")),
                    bool(e.get("derived")),
                    _opt_str(e.get("sentence")),
                    e.get("offset") if isinstance(e.get("offset"), int) else None,
                    _opt_str(e.get("names")),
                )
                for e in data.get("evidence") or []
                if _is_triple(e.get("triple"))
            ),
            seconds=_num(data.get("seconds")),
            reading=QuestionReading(
                asked=bool(reading.get("asked")),
                asked_type=str(reading.get("asked_type", "")),
                reason=str(reading.get("reason", "")),
                model=str(reading.get("model") or ""),
                prompt_tokens=int(_num(reading.get("prompt_tokens"))),
                completion_tokens=int(_num(reading.get("completion_tokens"))),
                seconds=_num(reading.get("seconds")),
            ),
            seconds_by_stage={str(k): _num(v) for k, v in (data.get("seconds_by_stage") or {}).items()},
        )


def _evidence_json(e: TraceEvidence) -> dict[str, Any]:
    if e.derived:
        return {"triple": list(e.triple), "derived": True}
    return {"triple": list(e.triple), "sentence": e.sentence, "offset": e.offset, "names": e.names}


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _is_triple(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 3


def _triple(value: Any) -> PathTriple:
    h, r, t = (str(x) for x in value)
    return (h, r, t)


def _triples(value: Any) -> tuple[PathTriple, ...]:
    return tuple(_triple(t) for t in value or [] if _is_triple(t))


# ------------------------------------------------------------------------------------------------- building it
def _chain(sc: ScoredChain) -> TraceChain:
    return TraceChain(
        sc.chain.triples,
        round(sc.score.total, 4),
        round(sc.score.coverage, 3),
        round(sc.score.mean_relation, 3),
        sc.score.answer_kind,
        round(sc.score.external, 3),
    )


def _candidate(i: int, c: Candidate) -> TraceCandidate:
    return TraceCandidate(
        f"C{i + 1}",
        c.answers,
        round(c.score, 4),
        c.origin,
        c.main,
        tuple(TraceCheck(k.kind, k.key, k.value, k.ok, k.derived, k.note) for k in c.checks),
    )


def trace_entry(
    q: Question,
    index: KGIndex,
    analysis: Analysis,
    scored: list[ScoredChain],
    shown: list[Candidate],
    decision: LLMDecision,
    record: AnswerRecord,
    sentences: SentenceFinder,
    seconds: float,
) -> QuestionTrace:
    evidence: list[TraceEvidence] = []
    for t in record.main_path:
        if t[1] in DERIVED_RELATIONS and not index.contains_triple(t):
            evidence.append(TraceEvidence(t, derived=True))
            continue
        s = sentences.find(t)
        evidence.append(
            TraceEvidence(
                t,
                sentence=s.text if s else None,
                offset=s.start if s else None,
                names=sentences.ends_named(t, s) if s else None,
            )
        )
    return QuestionTrace(
        query_id=q.query_id,
        doc_id=q.doc_id,
        question=q.question,
        difficulty=q.difficulty,
        linked=tuple(TraceLink(m.text, index.name(m.key), m.how, m.score) for m in analysis.mentions),
        form=analysis.form,
        residual=analysis.residual,
        constraints=TraceConstraints(
            time=tuple(TraceTimeWindow(w.text, w.relation, w.operand or w.anchor_key) for w in analysis.times),
            numeric=tuple(TraceThreshold(n.text, n.attribute, n.relation, n.operand) for n in analysis.numerics),
            order=analysis.order.text if analysis.order else (analysis.comparative_text or None),
            roles=dict(analysis.roles),
        ),
        top_chains=tuple(_chain(sc) for sc in scored[:TOP_CHAINS_IN_TRACE]),
        candidates=tuple(_candidate(i, c) for i, c in enumerate(shown)),
        llm=TraceChoice(
            asked=decision.asked,
            chosen=f"C{decision.chosen + 1}" if shown else None,
            reason=decision.reason,
            model=decision.model,
            prompt_tokens=decision.prompt_tokens,
            completion_tokens=decision.completion_tokens,
            seconds=round(decision.seconds, 3),
            failure=decision.failure,
        ),
        answer=record,
        evidence=tuple(evidence),
        seconds=round(seconds, 4),
    )
