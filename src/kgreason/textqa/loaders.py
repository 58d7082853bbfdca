"""HotpotQA, 2WikiMultihopQA and MuSiQue in their original formats (JSON array or JSON Lines) → `TextQAItem`s.

Real copies of these sets are messy: some store nested fields (`context`, `supporting_facts`, `paragraphs`, …) as
Python-literal or JSON strings, sentence ids as strings, `answerable` as `"True"`. What can be read sensibly is read,
with one warning per kind of leniency for the whole file; what cannot is an error naming the file, the record and
the field (all errors of a file are reported together).
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import RawRecord, read_records
from kgreason.errors import DataError, Problem
from kgreason.textqa.records import (
    DATASETS,
    DatasetName,
    Paragraph,
    SubQuestion,
    TextQAItem,
    TextQASet,
)
from kgreason.textqa.sentences import split_sentences

FORMATS = ("auto", *DATASETS)
_2WIKI_TYPES = {"compositional", "inference", "bridge_comparison"}


class _Bad(Exception):
    """One unreadable field of one record."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass
class _Reader:
    """Reads fields of one file's records, counting lenient readings (reported once per kind)."""

    lenient: Counter[str] = field(default_factory=Counter)
    first_record: dict[str, str] = field(default_factory=dict)
    record: str = ""

    def note(self, kind: str) -> None:
        self.lenient[kind] += 1
        self.first_record.setdefault(kind, self.record)

    def decode(self, name: str, value: Any, expected: type) -> Any:
        """`value`, or the structure a string holds when the field should be a list/dict/bool."""
        if isinstance(value, str) and expected is not str:
            parsed: Any = None
            text = value.strip()
            for parse in (json.loads, ast.literal_eval):
                try:
                    parsed = parse(text)
                    break
                except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                    continue
            if isinstance(parsed, expected):
                self.note(f"'{name}' stored as a string (Python literal or JSON); read as its value")
                return parsed
        if expected is bool and isinstance(value, int) and value in (0, 1) and not isinstance(value, bool):
            self.note(f"'{name}' given as 0/1; read as false/true")
            return bool(value)
        if not isinstance(value, expected):
            raise _Bad(name, f"expected {_kind(expected)}, got {_kind(type(value))}")
        return value

    def text(self, raw: dict[str, Any], name: str, *, required: bool = True) -> str | None:
        if name not in raw or raw[name] is None:
            if required:
                raise _Bad(name, "missing")
            return None
        value = raw[name]
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.note(f"'{name}' given as a number; read as text")
            return str(value)
        if not isinstance(value, str):
            raise _Bad(name, f"expected text, got {_kind(type(value))}")
        return value

    def integer(self, name: str, value: Any) -> int:
        if isinstance(value, bool):
            raise _Bad(name, "expected an integer, got true/false")
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            self.note(f"'{name}' given as a string of digits; read as an integer")
            return int(value)
        raise _Bad(name, f"expected an integer, got {value!r:.40}")


def _kind(t: type) -> str:
    return {list: "a list", dict: "an object", bool: "true/false", str: "text", int: "an integer"}.get(t, t.__name__)


def detect_format(records: list[RawRecord]) -> DatasetName | None:
    """The set a file's records come from, by their keys (None when they look like none of them)."""
    for raw in records[:20]:
        value = raw.value
        if not isinstance(value, dict):
            continue
        if "paragraphs" in value:
            return "musique"
        if "context" in value:
            if "evidences" in value or "entity_ids" in value or str(value.get("type")) in _2WIKI_TYPES:
                return "2wiki"
            return "hotpotqa"
    return None


def load_textqa(path: Path, fmt: str = "auto") -> TextQASet:
    """All items of one file. Raises `DataError` listing every unreadable field (file, record, field)."""
    if fmt not in FORMATS:
        raise DataError.single(str(path), f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    records = read_records(path)
    dataset: DatasetName | None = detect_format(records) if fmt == "auto" else fmt  # type: ignore[assignment]
    if dataset is None:
        raise DataError.single(
            str(path),
            "cannot tell the data set: no record has 'context' (HotpotQA, 2Wiki) or 'paragraphs' (MuSiQue); "
            "pass --format",
        )
    reader = _Reader()
    items: list[TextQAItem] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for raw in records:
        reader.record = f"#{raw.index}" + (f" (line {raw.line})" if raw.line > 1 else "")
        try:
            if not isinstance(raw.value, dict):
                raise _Bad("(record)", f"expected an object, got {_kind(type(raw.value))}")
            item = _read_item(reader, dataset, raw.value)
        except _Bad as bad:
            problems.append(Problem(file=str(path), message=bad.message, record=reader.record, field=bad.field))
            continue
        if item.id in seen:
            problems.append(
                Problem(str(path), f"duplicate id {item.id!r} (first at record {seen[item.id]})", reader.record, "id")
            )
            continue
        seen[item.id] = reader.record
        items.append(item)
    if problems:
        raise DataError(problems)
    warnings = tuple(
        f"{path}: {count} record(s): {kind} (first: record {reader.first_record[kind]})"
        for kind, count in reader.lenient.items()
    )
    return TextQASet(dataset=dataset, items=tuple(items), warnings=warnings)


def _read_item(reader: _Reader, dataset: DatasetName, raw: dict[str, Any]) -> TextQAItem:
    if dataset == "musique":
        return _read_musique(reader, raw)
    return _read_wiki_style(reader, dataset, raw)


def _id(reader: _Reader, raw: dict[str, Any], keys: tuple[str, ...]) -> str:
    for key in keys:
        if key in raw:
            value = reader.text(raw, key)
            if not value:
                raise _Bad(key, "empty id")
            return value
    raise _Bad(keys[0], "missing")


def _read_wiki_style(reader: _Reader, dataset: DatasetName, raw: dict[str, Any]) -> TextQAItem:
    """HotpotQA and 2Wiki share `context` = [[title, [sentence, …]], …] and `supporting_facts` = [[title, i], …]."""
    item_id = _id(reader, raw, ("_id", "id"))
    question = reader.text(raw, "question") or ""
    paragraphs: list[Paragraph] = []
    for i, entry in enumerate(reader.decode("context", raw.get("context"), list)):
        where = f"context[{i}]"
        if not (isinstance(entry, list | tuple) and len(entry) == 2 and isinstance(entry[0], str)):
            raise _Bad(where, "expected [title, [sentence, …]]")
        sentences = entry[1]
        if isinstance(sentences, str):  # a paragraph given whole
            reader.note("a context paragraph given as one text; split into sentences")
            sentences = list(split_sentences(sentences))
        if not isinstance(sentences, list | tuple) or not all(isinstance(s, str) for s in sentences):
            raise _Bad(where, "expected a list of sentences (text)")
        paragraphs.append(Paragraph(index=i, title=entry[0], sentences=tuple(sentences)))
    facts: list[tuple[str, int]] = []
    for i, fact in enumerate(reader.decode("supporting_facts", raw.get("supporting_facts", []), list)):
        if not (isinstance(fact, list | tuple) and len(fact) == 2 and isinstance(fact[0], str)):
            raise _Bad(f"supporting_facts[{i}]", "expected [title, sentence index]")
        facts.append((fact[0], reader.integer(f"supporting_facts[{i}]", fact[1])))
    evidences: list[tuple[str, str, str]] = []
    for i, triple in enumerate(reader.decode("evidences", raw.get("evidences", []), list)):
        if not (isinstance(triple, list | tuple) and len(triple) == 3 and all(isinstance(p, str) for p in triple)):
            raise _Bad(f"evidences[{i}]", "expected [subject, relation, object] (text)")
        evidences.append((triple[0], triple[1], triple[2]))
    qtype = raw.get("type") or ""
    return TextQAItem(
        dataset=dataset,
        id=item_id,
        question=question,
        answer=reader.text(raw, "answer", required=False),
        aliases=(),
        type=str(qtype),
        hop=max(2, len(evidences)) if dataset == "2wiki" else 2,
        paragraphs=tuple(paragraphs),
        supporting_facts=tuple(facts),
        supporting_paragraphs=(),
        evidences=tuple(evidences),
        decomposition=(),
        answerable=None,
    )


def _read_musique(reader: _Reader, raw: dict[str, Any]) -> TextQAItem:
    item_id = _id(reader, raw, ("id", "_id"))
    question = reader.text(raw, "question") or ""
    paragraphs: list[Paragraph] = []
    supporting: list[int] = []
    for i, entry in enumerate(reader.decode("paragraphs", raw.get("paragraphs"), list)):
        where = f"paragraphs[{i}]"
        if not isinstance(entry, dict):
            raise _Bad(where, "expected an object with idx, title, paragraph_text")
        text = entry.get("paragraph_text")
        if not isinstance(text, str):
            raise _Bad(f"{where}.paragraph_text", "missing or not text")
        idx = reader.integer(f"{where}.idx", entry.get("idx", i))
        title = entry.get("title", "")
        if not isinstance(title, str):
            raise _Bad(f"{where}.title", "expected text")
        paragraphs.append(Paragraph(index=idx, title=title, sentences=split_sentences(text)))
        if "is_supporting" in entry and reader.decode(f"{where}.is_supporting", entry["is_supporting"], bool):
            supporting.append(idx)
    steps: list[SubQuestion] = []
    for i, step in enumerate(reader.decode("question_decomposition", raw.get("question_decomposition", []), list)):
        where = f"question_decomposition[{i}]"
        if not isinstance(step, dict) or not isinstance(step.get("question"), str):
            raise _Bad(where, "expected an object with a 'question' text")
        support = step.get("paragraph_support_idx")
        steps.append(
            SubQuestion(
                question=step["question"],
                answer=str(step.get("answer") or ""),
                paragraph=None if support is None else reader.integer(f"{where}.paragraph_support_idx", support),
            )
        )
    aliases = reader.decode("answer_aliases", raw.get("answer_aliases", []), list)
    if not all(isinstance(a, str) for a in aliases):
        raise _Bad("answer_aliases", "expected a list of texts")
    answerable = raw.get("answerable")
    hop_text = item_id.split("hop", 1)[0]
    return TextQAItem(
        dataset="musique",
        id=item_id,
        question=question,
        answer=reader.text(raw, "answer", required=False),
        aliases=tuple(aliases),
        type=f"{hop_text}hop" if hop_text.isdigit() else "",
        hop=int(hop_text) if hop_text.isdigit() else max(2, len(steps)),
        paragraphs=tuple(paragraphs),
        supporting_facts=(),
        supporting_paragraphs=tuple(supporting),
        evidences=(),
        decomposition=tuple(steps),
        answerable=None if answerable is None else reader.decode("answerable", answerable, bool),
    )
