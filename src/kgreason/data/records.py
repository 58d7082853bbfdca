"""Typed records of the task's files (spec 000, section 2).

Reasoning-path triples are plain `(head, relation, tail)` tuples of strings, exactly as they appear in
`qa_answer.json` / `result.json`. Values keep their original spelling (`1944 年 6 月 6 日` stays as is);
normalisation happens where things are compared (`kgreason.text.normalize`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kgreason.conventions.model import default_conventions
from kgreason.data.levels import LEVELS as LEVELS  # the levels' home; importable from here as before
from kgreason.data.levels import Level as Level

PathTriple = tuple[str, str, str]
Path = tuple[PathTriple, ...]

# Relations of the comparison triples a reasoner derives itself (spec 000 example: `晚于`, `早于`, `处于时期内`); they
# are not in the KG and are justified by comparing two typed values. Every name the default conventions read
# (`kgreason/conventions/default.json`: `数值大于` and also `大于`, ...); the name to write for a comparison is
# `Conventions.relation_for(operator)`, the operator of a name `Conventions.operator_of(name)`.
DERIVED_RELATIONS: frozenset[str] = default_conventions().accepted_names()


@dataclass(frozen=True, slots=True)
class Document:
    doc_id: str
    content: str


@dataclass(frozen=True, slots=True)
class KGTriple:
    triple_id: str
    sub: str
    sub_type: str
    relation: str
    obj: str
    obj_type: str

    @property
    def spo(self) -> PathTriple:
        return (self.sub, self.relation, self.obj)


@dataclass(frozen=True, slots=True)
class Question:
    query_id: str
    doc_id: str
    question: str
    difficulty: Level


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """A `qa_answer.json` item (gold) or a `result.json` item (prediction): the same fields.

    `alt_paths` holds zero or more alternative paths. Files may give `gold_reasoning_paths_alt` as one flat
    list of triples (one alternative path, as in the spec's example) or as a list of paths; both load here.
    """

    query_id: str
    doc_id: str
    question: str
    answer_type: str
    answers: tuple[str, ...]
    main_path: Path
    alt_paths: tuple[Path, ...] = ()
    constraints: dict[str, str] = field(default_factory=dict)
    difficulty: Level = "L1"

    def to_json(self) -> dict[str, Any]:
        """The spec's output item. One alternative path is written flat (the spec's form), several nested."""
        alt: list[Any]
        if len(self.alt_paths) == 1:
            alt = [list(t) for t in self.alt_paths[0]]
        else:
            alt = [[list(t) for t in p] for p in self.alt_paths]
        return {
            "query_id": self.query_id,
            "doc_id": self.doc_id,
            "question": self.question,
            "answer_type": self.answer_type,
            "answers": list(self.answers),
            "gold_reasoning_paths_main": [list(t) for t in self.main_path],
            "gold_reasoning_paths_alt": alt,
            "constraints": dict(self.constraints),
            "difficulty": self.difficulty,
        }


@dataclass(frozen=True, slots=True)
class Dataset:
    """A folder in the task's layout, loaded and validated."""

    root: str
    documents: dict[str, Document]
    kgs: dict[str, tuple[KGTriple, ...]]  # doc_id -> triples, in file order
    questions: tuple[Question, ...]
    gold: dict[str, AnswerRecord] | None = None  # query_id -> gold answer, when qa_answer.json is present
