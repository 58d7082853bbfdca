"""The API's request and response bodies (pydantic): what the OpenAPI page documents and what is validated.

Requests forbid unknown fields and bound every string, so a wrong or oversized request gets a 422 that names the
field; responses mirror the typed records of `kgreason.explain` and `kgreason.eval.official`."""

from __future__ import annotations

from dataclasses import asdict
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kgreason.explain import ExplainedAnswer, Neighbourhood, SentenceSpan

MAX_QUESTION_CHARS = 1000
MAX_NAME_CHARS = 200

Triple = tuple[str, str, str]


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset: str | None = Field(
        None,
        max_length=MAX_NAME_CHARS,
        description="A served dataset's name (GET /api/datasets); may be omitted when one dataset is served.",
    )
    question: str = Field(..., min_length=1, max_length=MAX_QUESTION_CHARS, description="The question, verbatim.")
    doc_id: str | None = Field(
        None,
        max_length=MAX_NAME_CHARS,
        description="The document the question is about; omitted: the document whose KG names most of the question.",
    )
    difficulty: Literal["L1", "L2", "L3"] | None = Field(
        None, description="Level: default the question's in qa.json when it is there, else L2."
    )
    session_id: str | None = Field(
        None,
        min_length=1,
        max_length=MAX_NAME_CHARS,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="A dialogue of your choosing: a follow-up (它的舷号呢？ 该舰… 那些导弹… 后来呢？) is resolved "
        "against the earlier turns of the same session; `resolved_questions` shows what was answered.",
    )


class ErrorBody(BaseModel):
    detail: str


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    llm: str
    datasets: int
    runs: int


class DatasetInfo(BaseModel):
    name: str
    documents: int
    questions: int
    has_gold: bool


class DocumentInfo(BaseModel):
    doc_id: str
    chars: int
    triples: int
    questions: int


class QuestionInfo(BaseModel):
    query_id: str
    doc_id: str
    question: str
    difficulty: str


class Sentence(BaseModel):
    index: int
    start: int
    end: int
    text: str

    @classmethod
    def of(cls, s: SentenceSpan) -> Sentence:
        return cls(index=s.index, start=s.start, end=s.end, text=s.text)


class DocumentText(BaseModel):
    doc_id: str
    content: str
    sentences: list[Sentence]


class NeighbourhoodOut(BaseModel):
    center: str
    nodes: list[str]
    triples: list[Triple]
    truncated: bool

    @classmethod
    def of(cls, n: Neighbourhood) -> NeighbourhoodOut:
        return cls(center=n.center, nodes=list(n.nodes), triples=list(n.triples), truncated=n.truncated)


class Evidence(BaseModel):
    head: str
    relation: str
    tail: str
    derived: bool = Field(description="A comparison computed by the program; head and tail are the values compared.")
    sentence: str | None
    start: int | None = Field(description="Offset of the source sentence in the document (content[start:end]).")
    end: int | None


class ConstraintOut(BaseModel):
    key: str
    value: str
    satisfied: bool | None = Field(description="None: no check decided it.")
    derived: list[Triple]
    notes: list[str]


class CandidateOut(BaseModel):
    id: str
    answers: list[str]
    score: float
    origin: str
    chosen: bool
    checks_failed: int
    path: list[Triple]


class LLMUsage(BaseModel):
    asked: bool
    model: str | None
    reason: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float


class AskResponse(BaseModel):
    dataset: str
    query_id: str
    doc_id: str
    question: str
    difficulty: str
    answer_type: str
    answers: list[str]
    evidence: list[Evidence]
    alt_paths: list[list[Triple]]
    constraints: list[ConstraintOut]
    candidates: list[CandidateOut]
    llm: LLMUsage = Field(description="The LLM choosing among close candidates.")
    reading: LLMUsage = Field(description="The LLM reading the asked type among the KG's node types.")
    read_type: str = Field(description="The KG node type it read as the asked one; empty when none.")
    seconds: float = Field(description="The reasoner's time for this question.")
    server_seconds: float = Field(description="Time in the server for this request, queueing included.")
    seconds_by_stage: dict[str, float]
    record: dict[str, object] = Field(description="The result.json item, as `kgreason run` writes it.")
    session_id: str | None = Field(None, description="The dialogue this turn belongs to, as asked.")
    resolved_questions: list[str] = Field(
        default_factory=list,
        description="In a session: the follow-up as resolved against the dialogue (the first is the one answered; "
        "a plural reference lists one question per entity).",
    )

    @classmethod
    def of(
        cls,
        dataset: str,
        a: ExplainedAnswer,
        server_seconds: float,
        session_id: str | None = None,
        resolved: tuple[str, ...] = (),
    ) -> AskResponse:
        """The explained answer as the API returns it: its fields validated into this model (same names)."""
        extra = {"dataset": dataset, "server_seconds": server_seconds, "session_id": session_id}
        return cls.model_validate({**asdict(a), **extra, "resolved_questions": list(resolved)})


class RunInfo(BaseModel):
    id: str = Field(description="Pass as `run` to the other run endpoints.")
    dataset: str | None = Field(description="The served dataset whose gold scores it; None: not scored.")
    questions: int
    mean: float | None
    total: float | None


class Components(BaseModel):
    answer: float
    evidence: float
    reasoning: float
    constraint: float


class RunItem(BaseModel):
    query_id: str
    doc_id: str
    question: str
    level: str
    answer_type: str = Field(description="The gold answer type (the prediction's when there is no gold).")
    kind: str | None = Field(description="single / set (from the gold answer); None without gold.")
    status: str = Field(description="scored / missing (no prediction) / unscored (no gold)")
    score: float | None
    components: Components | None


class RunItems(BaseModel):
    run: str
    dataset: str | None
    count: int
    mean: float | None
    levels: list[str]
    answer_types: list[str]
    items: list[RunItem]


class MarkedTriple(BaseModel):
    triple: Triple
    matched: bool = Field(description="Also on the other side (normalised, as the official score compares).")


class RunItemDetail(BaseModel):
    run: str
    item: RunItem
    predicted_answers: list[str]
    gold_answers: list[str] | None
    predicted_chain: list[MarkedTriple]
    gold_chain: list[MarkedTriple] | None
    gold_path_label: str | None = Field(description="The gold path the prediction was scored against (main, alt[i]).")
    predicted_constraints: dict[str, str]
    gold_constraints: dict[str, str] | None
    explanation: AskResponse | None = Field(description="The trace's explanation, when the run's trace has it.")
