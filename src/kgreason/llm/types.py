"""The contract between callers (reasoner, judge, benchmarks) and model backends.

Callers always pass a JSON schema and get back either a validated object (`LLMSuccess.value`) or a typed
`LLMFailure` — never raw text to parse downstream, never an exception for an ordinary model/server problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]

FailureKind = Literal[
    "unavailable",  # backend cannot be reached / model not installed
    "timeout",  # no answer within the configured time
    "invalid_json",  # reply was not JSON
    "schema_mismatch",  # JSON that does not satisfy the schema (wrong enum, missing key, ...)
    "server_error",  # HTTP error or runtime error inside the backend
    "circuit_open",  # not asked: the backend failed repeatedly just before (kgreason.llm.breaker)
]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False


@dataclass(frozen=True, slots=True)
class Ballot:
    """One ensemble member's contribution to a vote (see `kgreason.llm.ensemble`)."""

    model: str
    ok: bool
    key: str | None = None  # canonical JSON of what the member voted for; None when it failed
    agrees: bool = False  # voted for the winner
    failure_kind: FailureKind | None = None


@dataclass(frozen=True, slots=True)
class LLMSuccess:
    value: Any  # the parsed JSON object, validated against the caller's schema
    model: str
    usage: Usage
    raw_text: str = ""
    ok: Literal[True] = True
    # Fraction of models that agree with this value: 1.0 for a single model, winner's votes / members for an ensemble.
    confidence: float = 1.0
    ballots: tuple[Ballot, ...] = ()  # one per ensemble member, in member order; empty for a single model


@dataclass(frozen=True, slots=True)
class LLMFailure:
    kind: FailureKind
    message: str
    model: str
    usage: Usage = Usage()
    ok: Literal[False] = False


LLMResult = LLMSuccess | LLMFailure


@runtime_checkable
class LLM(Protocol):
    """A model that answers chat messages under a JSON schema."""

    @property
    def name(self) -> str:
        """A stable identifier (backend + model), used in traces and cache keys."""
        ...

    def complete_json(
        self,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        *,
        max_tokens: int = 256,
    ) -> LLMResult:
        """Answer under `schema` (temperature 0). Returns a validated object or a typed failure."""
        ...
