"""Field-by-field parsing of `qa_answer.json` / `result.json` items into `AnswerRecord`s.

Each field is parsed on its own, so a caller can decide what a bad field means: the loader treats any error as
fatal, the scorer keeps the record and scores the affected component 0. Every problem names the file, the
record and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from kgreason.data.records import LEVELS, AnswerRecord, Level, Path, PathTriple
from kgreason.errors import Problem

ANSWER_FIELDS: tuple[str, ...] = (
    "query_id",
    "doc_id",
    "question",
    "answer_type",
    "answers",
    "gold_reasoning_paths_main",
    "gold_reasoning_paths_alt",
    "constraints",
    "difficulty",
)
# Fields the spec's own example leaves out (it has no doc_id): missing ones are warnings, not errors.
OPTIONAL_FIELDS: frozenset[str] = frozenset({"doc_id", "question", "gold_reasoning_paths_alt", "constraints"})


class FieldError(ValueError):
    """A field's value has the wrong shape; the message says what was expected."""


T = TypeVar("T")


def _scalar_text(value: Any, what: str) -> str:
    """A string, or a number written as text; anything else is an error."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        raise FieldError(f"{what} must be a string, got {_type_name(value)}")
    if isinstance(value, int | float):
        return str(value)
    raise FieldError(f"{what} must be a string, got {_type_name(value)}")


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number"}.get(
        type(value), type(value).__name__
    )


def parse_id(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError(f"must be a non-empty string, got {_type_name(value)} {value!r}"[:200])
    return value.strip()


def parse_text(value: Any) -> str:
    if not isinstance(value, str):
        raise FieldError(f"must be a string, got {_type_name(value)}")
    return value


def parse_level(value: Any) -> Level:
    if isinstance(value, str) and value.strip().upper() in LEVELS:
        return cast(Level, value.strip().upper())
    raise FieldError(f"must be one of L1, L2, L3, got {value!r}"[:200])


def parse_answers(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        raise FieldError('must be an array of strings (e.g. ["艾森豪威尔"]), got a single string')
    if not isinstance(value, list):
        raise FieldError(f"must be an array of strings, got {_type_name(value)}")
    return tuple(_scalar_text(v, f"answers[{i}]") for i, v in enumerate(value))


def parse_triple(value: Any, where: str) -> PathTriple:
    # Fast path for the common case (three strings): scoring 10,000 records parses ~50,000 triples.
    if type(value) is list and len(value) == 3:
        h, r, t = value
        if type(h) is str and type(r) is str and type(t) is str:
            return (h, r, t)
    if not isinstance(value, list | tuple):
        raise FieldError(f"{where} must be a triple [head, relation, tail], got {_type_name(value)}")
    if len(value) != 3:
        raise FieldError(f"{where} must have 3 items [head, relation, tail], got {len(value)}")
    h, r, t = (_scalar_text(v, f"{where}[{i}]") for i, v in enumerate(value))
    return (h, r, t)


def parse_path(value: Any) -> Path:
    if not isinstance(value, list):
        raise FieldError(f"must be an array of triples, got {_type_name(value)}")
    return tuple([parse_triple(v, f"[{i}]") for i, v in enumerate(value)])


def _is_triple_like(value: Any) -> bool:
    if not isinstance(value, list) or len(value) != 3:
        return False
    a, b, c = value
    return not (isinstance(a, list | dict) or isinstance(b, list | dict) or isinstance(c, list | dict))


def parse_alt_paths(value: Any) -> tuple[Path, ...]:
    """`[]`, one flat list of triples (one alternative path, the spec's form) or a list of paths."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise FieldError(f"must be an array (of triples, or of paths), got {_type_name(value)}")
    if not value:
        return ()
    if all(_is_triple_like(v) for v in value):
        return (parse_path(value),)
    paths: list[Path] = []
    for i, p in enumerate(value):
        if not isinstance(p, list):
            raise FieldError(f"[{i}] must be a triple or a path (array of triples), got {_type_name(p)}")
        try:
            paths.append(parse_path(p))
        except FieldError as exc:
            raise FieldError(f"path [{i}]{exc}") from None
    return tuple(paths)


def parse_constraints(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FieldError(f'must be an object of key -> value (e.g. {{"time": "二战期间"}}), got {_type_name(value)}')
    out: dict[str, str] = {}
    for k, v in value.items():
        out[str(k)] = _scalar_text(v, f"constraints[{k!r}]")
    return out


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    """An answer record with every readable field, plus what was wrong with the others."""

    record: AnswerRecord  # unreadable fields hold empty defaults
    problems: tuple[Problem, ...]
    bad_fields: frozenset[str]  # fields that were present but malformed, or required and missing

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")


def record_label(raw: Any, index: int) -> str:
    """How problems name a record: its query_id when it has a usable one, else its 0-based position."""
    if isinstance(raw, dict):
        qid = raw.get("query_id")
        if isinstance(qid, str) and qid.strip():
            return f"#{index} (query_id={qid.strip()})"
    return f"#{index}"


def parse_answer_record(raw: Any, *, file: str, index: int) -> ParsedAnswer:
    """Parse one item; never raises for bad data (problems are returned instead)."""
    label = record_label(raw, index)
    problems: list[Problem] = []
    bad: set[str] = set()

    if not isinstance(raw, dict):
        problems.append(Problem(file, f"must be a JSON object, got {_type_name(raw)}", record=label))
        empty = AnswerRecord("", "", "", "", (), ())
        return ParsedAnswer(empty, tuple(problems), frozenset(ANSWER_FIELDS))

    def get(name: str, parse: Callable[[Any], T], default: T) -> T:
        if name not in raw:
            if name in OPTIONAL_FIELDS:
                problems.append(Problem(file, "missing (treated as empty)", label, name, severity="warning"))
            else:
                problems.append(Problem(file, "missing required field", label, name))
                bad.add(name)
            return default
        try:
            return parse(raw[name])
        except FieldError as exc:
            problems.append(Problem(file, str(exc), label, name))
            bad.add(name)
            return default

    record = AnswerRecord(
        query_id=get("query_id", parse_id, ""),
        doc_id=get("doc_id", parse_id, ""),
        question=get("question", parse_text, ""),
        answer_type=get("answer_type", parse_text, ""),
        answers=get("answers", parse_answers, ()),
        main_path=get("gold_reasoning_paths_main", parse_path, ()),
        alt_paths=get("gold_reasoning_paths_alt", parse_alt_paths, ()),
        constraints=get("constraints", parse_constraints, {}),
        difficulty=get("difficulty", parse_level, "L1"),
    )
    for key in raw:
        if key not in ANSWER_FIELDS:
            problems.append(Problem(file, "unknown field (ignored)", label, str(key), severity="warning"))
    return ParsedAnswer(record, tuple(problems), frozenset(bad))
