"""The state of a conversation: its turns, and the entities each turn mentioned and answered.

`DialogueState` is plain data; `kgreason.corpus.resolve` reads it to resolve references and
`kgreason.corpus.session` updates it after each answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from kgreason.corpus.answer import CorpusAnswer

Role = Literal["mentioned", "answered"]
ResolutionHow = Literal["none", "pronoun", "demonstrative", "ellipsis", "ordinal", "continue"]
ResolvedBy = Literal["program", "llm", "default"]


@dataclass(frozen=True, slots=True)
class Salient:
    """An entity the conversation has brought up."""

    name: str
    types: tuple[str, ...]  # its KG types
    role: Role  # named in the question (mentioned) or given as an answer (answered)


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a turn was read: the question(s) actually answered (several when a plural reference stands for several
    entities), what kind of reference was resolved, to what, and by whom (the program when the state leaves one
    choice, the LLM choosing among the state's entities when it leaves several, else the default: the topic)."""

    question: str
    resolved: tuple[str, ...]
    how: ResolutionHow = "none"
    referents: tuple[str, ...] = ()
    by: ResolvedBy = "program"
    unresolved: tuple[str, ...] = ()  # referring words nothing in the state could stand for

    @property
    def changed(self) -> bool:
        return self.resolved != (self.question,)

    @property
    def text(self) -> str:
        return "；".join(self.resolved)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "resolved": list(self.resolved),
            "how": self.how,
            "referents": list(self.referents),
            "by": self.by,
            "unresolved": list(self.unresolved),
        }


@dataclass(frozen=True, slots=True)
class Turn:
    number: int  # from 1
    resolution: Resolution
    answer: CorpusAnswer
    entities: tuple[Salient, ...]  # mentioned first (question order), then answered

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.number,
            "resolution": self.resolution.to_json(),
            "answer": self.answer.to_json(),
            "entities": [{"name": e.name, "types": list(e.types), "role": e.role} for e in self.entities],
        }


@dataclass(slots=True)
class DialogueState:
    turns: list[Turn] = field(default_factory=list)

    def add(self, resolution: Resolution, answer: CorpusAnswer, entities: tuple[Salient, ...]) -> Turn:
        turn = Turn(len(self.turns) + 1, resolution, answer, entities)
        self.turns.append(turn)
        return turn

    def reset(self) -> None:
        self.turns.clear()

    @property
    def last(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    def topic(self) -> Salient | None:
        """The entity the conversation is about: the first entity the latest turn that has one mentioned."""
        for turn in reversed(self.turns):
            for e in turn.entities:
                if e.role == "mentioned":
                    return e
        return None

    def to_json(self) -> list[dict[str, Any]]:
        return [t.to_json() for t in self.turns]
