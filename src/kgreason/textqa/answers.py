"""What each path of `kgreason textqa run` concluded for one question, as stored in the run's journal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PathName = Literal["baseline", "kg"]
# Failures a later call may not repeat (the server was down or slow): a resume asks those questions again. A reply
# that breaks the schema would come back the same at temperature 0, so it stands.
RETRYABLE_FAILURES = frozenset({"unavailable", "timeout", "server_error", "circuit_open"})
# The reader's own decomposition, the KG path's evidence chain, a comparison's two lookups and the program's
# comparison (`textqa.by_parts`), or a bridge's two hops (`textqa.bridge_parts`).
SubQuestionSource = Literal["llm-decomposition", "evidence-chain", "comparison-by-parts", "bridge-by-parts"]


@dataclass(frozen=True, slots=True)
class Step:
    """A sub-question with its answer and the sentences (keys `S<n>`) that state it."""

    question: str
    answer: str
    sentences: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PathAnswer:
    path: PathName
    answer: str  # "" when the model failed
    sentences: tuple[str, ...]  # cited sentence keys: the supporting facts
    steps: tuple[Step, ...]
    steps_source: SubQuestionSource
    evidence: tuple[tuple[str, str, str], ...]  # the chosen triples (KG path; empty for the baseline)
    shown: int  # sentences (baseline) or triples (KG path) shown to the model
    failure: str | None = None  # the LLM failure kind, None when it answered
    rounds: int = 1  # reader calls that produced this answer (2 after a second retrieval round)
    # Paragraph indices shown whole to the reader, in the order the program chose them (empty: ranked sentences shown)
    paragraphs: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "answer": self.answer,
            "sentences": list(self.sentences),
            "steps": [{"question": s.question, "answer": s.answer, "sentences": list(s.sentences)} for s in self.steps],
            "steps_source": self.steps_source,
            "evidence": [list(t) for t in self.evidence],
            "shown": self.shown,
            "failure": self.failure,
            "rounds": self.rounds,
            "paragraphs": list(self.paragraphs),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PathAnswer:
        return cls(
            path=data["path"],
            answer=str(data["answer"]),
            sentences=tuple(data["sentences"]),
            steps=tuple(
                Step(str(s["question"]), str(s["answer"]), tuple(s["sentences"])) for s in data.get("steps", [])
            ),
            steps_source=data.get("steps_source", "llm-decomposition"),
            evidence=tuple((t[0], t[1], t[2]) for t in data.get("evidence", [])),
            shown=int(data.get("shown", 0)),
            failure=data.get("failure"),
            rounds=int(data.get("rounds", 1)),
            paragraphs=tuple(int(i) for i in data.get("paragraphs", [])),
        )
