"""Reading each file of the task's layout on its own: every record, every field, every problem.

A reader never raises for bad data. It returns the records it could read (with the label problems use for
them) and every problem it found, so one run reports all of a file's mistakes rather than the first one.
Checks that need two files (a question's document, a KG's document, gold vs questions) live in
`kgreason.data.validate`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from kgreason.data.answers import ANSWER_FIELDS, FieldError, parse_answer_record, parse_level
from kgreason.data.jsonio import RawRecord, read_records
from kgreason.data.problems import describe, is_json_lines, label_for
from kgreason.data.records import AnswerRecord, Document, KGTriple, Level, PathTriple, Question
from kgreason.data.shapes import (
    DEFAULT_LEVEL,
    Reshaped,
    level_from_digit,
    number_as_text,
    rename_fields,
    triple_from_list,
    unwrap,
)
from kgreason.errors import DataError, Problem, Severity
from kgreason.text.terminal import control_characters, is_invisible

T = TypeVar("T")

DOCUMENT_FIELDS: tuple[str, ...] = ("doc_id", "content")
TRIPLE_FIELDS: tuple[str, ...] = ("triple_id", "sub", "sub_type", "relation", "obj", "obj_type")
QUESTION_FIELDS: tuple[str, ...] = ("query_id", "doc_id", "question", "difficulty")
LEVEL_NAMES = "L1, L2 or L3"
_INVISIBLE_HINT = " (only invisible characters such as zero-width spaces, which matching ignores)"


@dataclass(frozen=True, slots=True)
class Located(Generic[T]):
    """A record read from a file, with the label problems use for it (`#3 (query_id=doc_01_001)`)."""

    label: str
    value: T


@dataclass(slots=True)
class FileResult(Generic[T]):
    """What one reader made of one file."""

    file: str
    items: list[Located[T]] = field(default_factory=list)  # well-formed records, duplicates left out
    problems: list[Problem] = field(default_factory=list)
    readable: bool = True  # False when the file could not be read or parsed as JSON at all
    # Every well-formed id seen, including in records that have an error in another field: cross-file checks
    # use these, so one broken field does not cascade into "unknown id" errors in other files.
    ids: set[str] = field(default_factory=set)
    ids_complete: bool = True  # False when some record's own id could not be read
    levels_assumed: set[str] = field(default_factory=set)  # questions whose file gives no level (DEFAULT_LEVEL used)

    @property
    def knows_all_ids(self) -> bool:
        """Whether "no record has id X" can be said: the file was read and every record's id was readable."""
        return self.readable and self.ids_complete

    @property
    def has_errors(self) -> bool:
        return any(p.severity == "error" for p in self.problems)

    def error(self, message: str, record: str | None = None, field_name: str | None = None) -> None:
        self.problems.append(Problem(self.file, message, record, field_name, "error"))

    def warning(self, message: str, record: str | None = None, field_name: str | None = None) -> None:
        self.problems.append(Problem(self.file, message, record, field_name, "warning"))


def format_triple(triple: PathTriple | tuple[str, ...]) -> str:
    """A triple as it is written in the files: `["诺曼底登陆", "指挥官", "艾森豪威尔"]`."""
    return json.dumps(list(triple), ensure_ascii=False)


def _read_raw(
    path: Path, result: FileResult[Any], kind: str | None = None, fields: tuple[str, ...] = ()
) -> list[RawRecord] | None:
    """The file's records, or None (with the reason recorded) when the file cannot be used at all. Another
    encoding, and (for a record `kind` of the task's layout) records wrapped in an object, are read with a warning
    (`kgreason.data.shapes`)."""
    notes: list[str] = []
    try:
        records = read_records(path, notes=notes)
    except DataError as exc:
        result.problems.extend(exc.problems)
        result.readable = False
        return None
    if kind is not None:
        records, note = unwrap(records, fields, kind)
        if note is not None:
            notes.append(note)
    for note in notes:
        result.warning(note)
    return records


def _reshaped(result: FileResult[Any], label: str, reshaped: Reshaped) -> Any:
    """The record `shapes` made readable; each change it made is a warning (folded per file and kind)."""
    for note in reshaped.notes:
        result.warning(note, label)
    return reshaped.value


class _Fields:
    """Reads the fields of one record object, noting each problem instead of stopping at the first."""

    def __init__(self, result: FileResult[Any], label: str, raw: dict[str, Any]) -> None:
        self._result = result
        self._label = label
        self._raw = raw
        self.ok = True  # False once any field has an error
        self.level_assumed = False  # True when the level was missing and DEFAULT_LEVEL stands in

    def _error(self, name: str, message: str) -> None:
        self._result.error(message, self._label, name)
        self.ok = False

    def _string(self, name: str) -> str | None:
        if name not in self._raw:
            self._error(name, "missing required field")
            return None
        value = self._raw[name]
        if not isinstance(value, str):
            as_text = number_as_text(value)
            if as_text is not None:  # `"triple_id": 3`: one reading, the text it was written as
                self._result.warning("is a number, not text: read as the text it was written as", self._label, name)
                return as_text
            self._error(name, f"must be text (a JSON string), got {describe(value)}")
            return None
        controls = control_characters(value)
        if controls:
            self._result.warning(
                f"contains the control character(s) {', '.join(controls)}: shown escaped, kept as they are",
                self._label,
                name,
            )
        return value

    def ident(self, name: str) -> str:
        """An id: required, non-empty; surrounding spaces are dropped (they are never meant)."""
        value = self._string(name)
        if value is None:
            return ""
        if is_invisible(value):
            self._error(name, f"is empty{_INVISIBLE_HINT if value.strip() else ''}; an id is required")
        return value.strip()

    def text(self, name: str, *, empty: Severity = "error") -> str:
        """A value kept verbatim, inner and outer spaces included; `empty` says how bad a blank one is."""
        value = self._string(name)
        if value is None:
            return ""
        if is_invisible(value):
            hint = _INVISIBLE_HINT if value.strip() else ""
            if empty == "error":
                self._error(name, f"is empty{hint}; a value is required")
            else:
                self._result.warning(f"is empty{hint}", self._label, name)
        return value

    def level(self, name: str) -> Level:
        if name not in self._raw:
            # the level steers no search but L1's single-fact policy: a question without one is still answered
            self._result.warning(
                f"missing: the question is answered as {DEFAULT_LEVEL} (a gold file's level is used when there is one)",
                self._label,
                name,
            )
            self.level_assumed = True
            return cast(Level, DEFAULT_LEVEL)
        try:
            return parse_level(self._raw[name])
        except FieldError:
            digit = level_from_digit(self._raw[name])
            if digit is not None:
                self._result.warning(f"written without the L: {LEVEL_NAMES} expected", self._label, name)
                return cast(Level, digit)
            self._error(name, f"must be {LEVEL_NAMES}, got {describe(self._raw[name])}")
            return "L1"

    def unknown(self, known: Iterable[str]) -> None:
        """Extra fields are ignored, but said: they are often a misspelt required field, so say which."""
        known_list = list(known)
        missing = [k for k in known_list if k not in self._raw]
        for key in self._raw:
            if key in known_list:
                continue
            close = difflib.get_close_matches(str(key), missing, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self._result.warning(f"unknown field (ignored){hint}", self._label, str(key))


def _object_or_error(result: FileResult[Any], raw: RawRecord, label: str, fields: tuple[str, ...]) -> bool:
    if isinstance(raw.value, dict):
        return True
    result.ids_complete = False
    result.error(f"must be a JSON object with the fields {', '.join(fields)}; got {describe(raw.value)}", label)
    return False


def _note_id(result: FileResult[Any], ident: str) -> None:
    if ident:
        result.ids.add(ident)
    else:
        result.ids_complete = False


def _drop_duplicates(result: FileResult[T], key: Callable[[T], str], id_field: str) -> None:
    """Keep the first record of each id; every later one is an error that names the first."""
    first: dict[str, str] = {}
    kept: list[Located[T]] = []
    for item in result.items:
        k = key(item.value)
        if k in first:
            result.error(f"duplicate {id_field} {k!r}: already used by record {first[k]}", item.label, id_field)
            continue
        first[k] = item.label
        kept.append(item)
    result.items = kept


def read_documents(path: Path) -> FileResult[Document]:
    """`document.json`: `{doc_id, content}` records."""
    result: FileResult[Document] = FileResult(str(path))
    records = _read_raw(path, result, "document", DOCUMENT_FIELDS)
    if records is None:
        return result
    if not records:
        result.error("contains no documents (an empty array)")
    lines = is_json_lines(records)
    for raw in records:
        label = label_for(raw, "doc_id", from_lines=lines)
        if not _object_or_error(result, raw, label, DOCUMENT_FIELDS):
            continue
        f = _Fields(result, label, _reshaped(result, label, rename_fields("document", raw.value)))
        # Reasoning runs on the KG, so a document without text can still be used: a warning.
        doc = Document(doc_id=f.ident("doc_id"), content=f.text("content", empty="warning"))
        _note_id(result, doc.doc_id)
        f.unknown(DOCUMENT_FIELDS)
        if f.ok:
            result.items.append(Located(label, doc))
    _drop_duplicates(result, lambda d: d.doc_id, "doc_id")
    return result


def _looks_like_triple(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in ("sub", "relation", "obj"))


def _spec_triple(raw: RawRecord) -> tuple[RawRecord, list[str]]:
    """The KG record under the spec's field names where `shapes` finds one reading (`subject` for `sub`, a bare
    `[sub, relation, obj]`, no `triple_id`: numbered by position), and a note for each change."""
    listed = triple_from_list(raw.value)
    renamed = rename_fields("triple", listed.value)
    value = renamed.value
    notes = [*listed.notes, *renamed.notes]
    if _looks_like_triple(value) and "triple_id" not in value:
        value = {**value, "triple_id": f"t{raw.index + 1}"}
        notes.append("no triple_id: numbered by position in the file (t1, t2, ...)")
    return RawRecord(raw.index, raw.line, value), notes


def _what_it_is(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(str(k) for k in list(value)[:8]) or "no fields"
        return f"an object with the fields {keys}"
    return describe(value)


def read_kg(path: Path) -> FileResult[KGTriple]:
    """`KG_<doc_id>.json`: `{triple_id, sub, sub_type, relation, obj, obj_type}` records."""
    result: FileResult[KGTriple] = FileResult(str(path))
    records = _read_raw(path, result, "triple", TRIPLE_FIELDS)
    if records is None:
        return result
    expected = ", ".join(TRIPLE_FIELDS)
    if not records:
        result.error("contains no triples (an empty array)")
        return result
    reshaped = [_spec_triple(raw) for raw in records]
    records = [r for r, _notes in reshaped]
    if not any(_looks_like_triple(r.value) for r in records):
        # The whole file is something else (questions, documents, bare lists): one message, not one per record.
        result.error(
            f"does not hold KG triples: record #0 is {_what_it_is(records[0].value)}; each record must be an "
            f"object with the fields {expected}",
            "#0",
        )
        return result
    lines = is_json_lines(records)
    for raw, notes in reshaped:
        label = label_for(raw, "triple_id", from_lines=lines)
        for note in notes:
            result.warning(note, label)
        if not _looks_like_triple(raw.value):
            result.error(f"is not a triple: it is {_what_it_is(raw.value)}; expected an object with {expected}", label)
            continue
        value = raw.value
        blank = [k for k in ("sub", "relation", "obj") if isinstance(value.get(k), str) and not value[k].strip()]
        if blank:
            # Real KGs have such lines (a property without a value): nothing to reason with, but no broken file.
            result.warning("is empty: the triple is skipped", label, blank[0])
            continue
        f = _Fields(result, label, value)
        triple = KGTriple(
            triple_id=f.ident("triple_id"),
            sub=f.text("sub"),
            sub_type=f.text("sub_type", empty="warning"),  # a missing category weakens linking, nothing more
            relation=f.text("relation"),
            obj=f.text("obj"),
            obj_type=f.text("obj_type", empty="warning"),
        )
        _note_id(result, triple.triple_id)
        f.unknown(TRIPLE_FIELDS)
        if f.ok:
            result.items.append(Located(label, triple))
    _drop_duplicates(result, lambda t: t.triple_id, "triple_id")
    _warn_repeated_triples(result)
    return result


def _warn_repeated_triples(result: FileResult[KGTriple]) -> None:
    """The same (sub, relation, obj) under two ids is harmless for reasoning (it counts once): a warning.

    Compared verbatim, which keeps a 10k-triple KG fast; near-duplicates that differ only in spacing are
    the gold check's business (it compares normalised text).
    """
    first: dict[PathTriple, str] = {}
    for item in result.items:
        spo = item.value.spo
        if spo in first:
            result.warning(f"the same triple {format_triple(spo)} as record {first[spo]}, under another id", item.label)
        else:
            first[spo] = item.label


def read_questions(path: Path) -> FileResult[Question]:
    """`qa.json`: `{query_id, doc_id, question, difficulty}` records."""
    result: FileResult[Question] = FileResult(str(path))
    records = _read_raw(path, result, "question", QUESTION_FIELDS)
    if records is None:
        return result
    if not records:
        result.error("contains no questions (an empty array)")
    lines = is_json_lines(records)
    for raw in records:
        label = label_for(raw, "query_id", from_lines=lines)
        if not _object_or_error(result, raw, label, QUESTION_FIELDS):
            continue
        f = _Fields(result, label, _reshaped(result, label, rename_fields("question", raw.value)))
        question = Question(
            query_id=f.ident("query_id"),
            doc_id=f.ident("doc_id"),
            question=f.text("question"),
            difficulty=f.level("difficulty"),
        )
        _note_id(result, question.query_id)
        if f.level_assumed:
            result.levels_assumed.add(question.query_id)
        f.unknown(QUESTION_FIELDS)
        if f.ok:
            result.items.append(Located(label, question))
    _drop_duplicates(result, lambda q: q.query_id, "query_id")
    return result


def _looks_like_answer(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in ("answers", "gold_reasoning_paths_main"))


def read_answers(path: Path) -> FileResult[AnswerRecord]:
    """`qa_answer.json` or `result.json`: answer items, parsed field by field (`parse_answer_record`).

    Items with an error in any field are reported and left out of `items`.
    """
    result: FileResult[AnswerRecord] = FileResult(str(path))
    records = _read_raw(path, result, "answer", ANSWER_FIELDS)
    if records is None:
        return result
    if not records:
        result.error("contains no answer items (an empty array)")
    elif not any(_looks_like_answer(r.value) for r in records):
        # Another file given by mistake (qa.json, a KG): one message, not every field of every record.
        result.error(
            f"does not hold answer items: record #0 is {_what_it_is(records[0].value)}; each item must be an object "
            f"with the fields {', '.join(ANSWER_FIELDS)}",
            "#0",
        )
        result.ids_complete = False
        return result
    for raw in records:
        parsed = parse_answer_record(raw.value, file=result.file, index=raw.index)
        result.problems.extend(parsed.problems)
        _note_id(result, "" if "query_id" in parsed.bad_fields else parsed.record.query_id)
        if not parsed.errors:
            label = label_for(raw, "query_id", from_lines=False)
            result.items.append(Located(label, parsed.record))
    _drop_duplicates(result, lambda a: a.query_id, "query_id")
    return result
