"""Validation of a dataset folder: each file on its own, then across files, then the gold items.

`check_dataset` never raises for bad data: it returns a `ValidationReport` with every problem found (errors and
warnings) and the `Dataset` when there is no error. `kgreason.data.loader.load_dataset` turns the errors into
one `DataError`; `kgreason validate` prints the report. Every check is listed in docs/data.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from kgreason.conventions.model import Conventions, default_conventions
from kgreason.data.gold import DerivedCheck, GoldContext, KGLookup, check_gold_item
from kgreason.data.problems import fold_repeats
from kgreason.data.readers import (
    FileResult,
    read_answers,
    read_documents,
    read_kg,
    read_questions,
)
from kgreason.data.records import LEVELS, AnswerRecord, Dataset, Document, KGTriple, PathTriple, Question
from kgreason.errors import Problem

DOCUMENT_FILE = "document.json"
QUESTION_FILE = "qa.json"
GOLD_FILE = "qa_answer.json"
T = TypeVar("T")
# the spec's `KG_<doc_id>.json`; also `kg_…`, and `.jsonl` for a KG written as JSON Lines
_KG_NAME = re.compile(r"^KG_(.+)\.jsonl?$", re.IGNORECASE)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def kg_file_key(name: str) -> str | None:
    """The `<doc_id>` part of a KG file's name (`KG_doc_01.json`, `kg_doc_01.jsonl`), or None for another file."""
    match = _KG_NAME.match(name)
    return match.group(1) if match else None


def kg_file_name(doc_id: str) -> str:
    """The spec's naming: "KG_" + doc_id + ".json"."""
    return f"KG_{doc_id}.json"


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts of what was read (records with errors left out)."""

    documents: int = 0
    triples: int = 0
    questions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))  # level -> count
    gold_items: int | None = None  # None when the folder has no qa_answer.json

    def __str__(self) -> str:
        levels = ", ".join(f"{level} {n}" for level, n in self.questions.items())
        text = (
            f"{self.documents} documents, {self.triples} triples, {sum(self.questions.values())} questions ({levels})"
        )
        if self.gold_items is None:
            return text + f", no {GOLD_FILE}"
        return text + f", {self.gold_items} gold items"

    def to_json(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "triples": self.triples,
            "questions": sum(self.questions.values()),
            "questions_per_level": dict(self.questions),
            "gold_items": self.gold_items,
        }


@dataclass(frozen=True, slots=True)
class AnswerFileSummary:
    """Counts for a single answer file checked on its own."""

    answer_items: int = 0

    def __str__(self) -> str:
        return plural(self.answer_items, "answer item")

    def to_json(self) -> dict[str, Any]:
        return {"answer_items": self.answer_items}


@dataclass(frozen=True, slots=True)
class ValidationReport:
    root: str
    summary: Summary | AnswerFileSummary
    problems: tuple[Problem, ...]
    dataset: Dataset | None  # None when there is any error

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def to_json(self) -> dict[str, Any]:
        def as_json(p: Problem) -> dict[str, Any]:
            return {"file": p.file, "record": p.record, "field": p.field, "message": p.message, "text": str(p)}

        return {
            "root": self.root,
            "ok": not self.errors,
            "summary": self.summary.to_json(),
            "errors": [as_json(p) for p in self.errors],
            "warnings": [as_json(p) for p in self.warnings],
        }


@dataclass(slots=True)
class _Files:
    """Every file of the folder as read, before cross-file checks."""

    documents: FileResult[Document]
    kgs: dict[str, FileResult[KGTriple]]  # doc_id -> its KG file
    questions: FileResult[Question]
    gold: FileResult[AnswerRecord] | None
    problems: list[Problem] = field(default_factory=list)  # folder-level and cross-file problems


def check_dataset(
    root: Path,
    *,
    check_gold: bool = True,
    check_derived: DerivedCheck | None = None,
    conventions: Conventions | None = None,
) -> ValidationReport:
    """Read and check a dataset folder (see docs/data.md for every check and whether it is fatal).

    `check_gold=False` skips the gold-path checks (KG membership, derived triples, connectivity, answers on
    the path); `check_derived` replaces `kgreason.kg.compare.check_derived_triple` (tests use this);
    `conventions` (default: the project's, `kgreason/conventions/default.json`) says which derived relation
    names, answer formats and constraint keys are known (others are warnings, see docs/conventions.md).
    """
    if not root.is_dir():
        what = "is a file" if root.exists() else "folder not found"
        message = f"{what}; expected a dataset folder with {DOCUMENT_FILE}, KG_<doc_id>.json files and {QUESTION_FILE}"
        return ValidationReport(str(root), Summary(), (Problem(str(root), message),), None)

    files = _read_files(root)
    files.problems += _check_documents_kgs_questions(files)
    gold: dict[str, AnswerRecord] | None = None
    if files.gold is not None:
        gold = _check_gold_against_questions(files.gold, files.questions, files.problems)
        if check_gold:
            conv = conventions or default_conventions()
            derived = check_derived or _default_derived_check(conv)
            files.problems += _check_gold_paths(files, files.gold, gold, derived, conv)

    problems = _ordered(files)
    has_errors = any(p.severity == "error" for p in problems)
    dataset = None if has_errors else _dataset(root, files, gold)
    return ValidationReport(str(root), _summary(files), tuple(problems), dataset)


def check_answer_file(path: Path) -> ValidationReport:
    """Check one `result.json` / `qa_answer.json` on its own: records, fields, duplicate query_ids."""
    result = read_answers(path)
    return ValidationReport(str(path), AnswerFileSummary(len(result.items)), tuple(fold_repeats(result.problems)), None)


def _default_derived_check(conventions: Conventions) -> DerivedCheck:
    # Imported here, not at the top: typed-value parsing is only needed when a folder has gold items, and the
    # KG layer must stay free to import the data layer without a cycle.
    from kgreason.kg.compare import check_derived_triple

    def check(triple: PathTriple, kg: Sequence[KGTriple], question: str) -> str | None:
        return check_derived_triple(triple, kg, question, conventions)

    return check


def _read_required(path: Path, what: str, reader: Callable[[Path], FileResult[T]]) -> FileResult[T]:
    if not path.exists():
        result: FileResult[T] = FileResult(str(path), readable=False)
        result.error(f"file not found; a dataset folder needs {path.name} ({what})")
        return result
    return reader(path)


def _read_files(root: Path) -> _Files:
    documents = _read_required(root / DOCUMENT_FILE, "the texts", read_documents)
    questions = _read_required(root / QUESTION_FILE, "the questions", read_questions)
    gold_path = root / GOLD_FILE
    gold = read_answers(gold_path) if gold_path.exists() else None
    files = _Files(documents, {}, questions, gold)
    _read_kgs(root, files)
    return files


def _kg_doc_id(key: str, documents: FileResult[Document]) -> str | None:
    """Which document a `KG_<key>.json` belongs to.

    The spec names KG files "KG_" + doc_id + ".json" but also lists `KG_01.json` for `doc_01`; both are
    accepted. When document.json could not be read, the name is taken at its word.
    """
    if not documents.knows_all_ids or key in documents.ids:
        return key
    if f"doc_{key}" in documents.ids:
        return f"doc_{key}"
    return None


def _read_kgs(root: Path, files: _Files) -> None:
    for path in sorted(root.iterdir()):
        key = kg_file_key(path.name)
        if key is None:
            continue
        result = read_kg(path)
        doc_id = _kg_doc_id(key, files.documents)
        if doc_id is None:
            result.error(
                f"KG file for an unknown document: {DOCUMENT_FILE} has no doc_id {key!r} "
                f"(KG files are named KG_<doc_id>.json)"
            )
            files.problems += result.problems
            continue
        if doc_id in files.kgs:
            first = Path(files.kgs[doc_id].file).name
            result.error(f"a second KG file for document {doc_id!r} ({first} is the first); keep only one")
            files.problems += result.problems
            continue
        files.kgs[doc_id] = result


def _check_documents_kgs_questions(files: _Files) -> list[Problem]:
    """Questions point at a document with a KG; every KG and document is used by some question."""
    problems: list[Problem] = []
    docs, qs = files.documents, files.questions
    for q in qs.items:
        doc_id = q.value.doc_id
        if docs.knows_all_ids and doc_id not in docs.ids:
            problems.append(
                Problem(qs.file, f"no document with doc_id {doc_id!r} in {DOCUMENT_FILE}", q.label, "doc_id")
            )
        elif doc_id not in files.kgs:
            message = f"document {doc_id!r} has no KG file (expected {kg_file_name(doc_id)} in the same folder)"
            problems.append(Problem(qs.file, message, q.label, "doc_id"))
    if qs.has_errors:
        return problems  # which documents the broken questions use is unknown: no "unused" warnings
    asked = {q.value.doc_id for q in qs.items}
    for d in docs.items:
        doc_id = d.value.doc_id
        if doc_id not in files.kgs and doc_id not in asked:
            message = f"unused document: it has no KG file ({kg_file_name(doc_id)}) and no question in {QUESTION_FILE}"
            problems.append(Problem(docs.file, message, d.label, "doc_id", "warning"))
    for doc_id, kg in files.kgs.items():
        if doc_id not in asked:
            message = f"unused KG: no question in {QUESTION_FILE} is about document {doc_id!r}"
            problems.append(Problem(kg.file, message, None, None, "warning"))
    return problems


def _check_gold_against_questions(
    gold: FileResult[AnswerRecord], qs: FileResult[Question], problems: list[Problem]
) -> dict[str, AnswerRecord]:
    """Gold items and questions match one to one and agree; returns the gold items completed from qa.json.

    A gold item may leave out doc_id and question (the spec's example has no doc_id); they are filled in from
    qa.json, whose wording is authoritative.
    """
    by_id = {q.value.query_id: q.value for q in qs.items}
    out: dict[str, AnswerRecord] = {}
    for item in gold.items:
        rec = item.value
        q = by_id.get(rec.query_id)
        if q is None:
            if qs.knows_all_ids and rec.query_id not in qs.ids:
                message = f"no question with query_id {rec.query_id!r} in {QUESTION_FILE}"
                problems.append(Problem(gold.file, message, item.label, "query_id"))
            continue
        if rec.doc_id and rec.doc_id != q.doc_id:
            message = f"is {rec.doc_id!r}, but {QUESTION_FILE} gives doc_id {q.doc_id!r} for this question"
            problems.append(Problem(gold.file, message, item.label, "doc_id"))
        if rec.question and rec.question != q.question:
            message = f"differs from the wording in {QUESTION_FILE} ({q.question!r}), which is used"
            problems.append(Problem(gold.file, message, item.label, "question", "warning"))
        if rec.difficulty != q.difficulty and rec.query_id in qs.levels_assumed:
            # qa.json gives no level for this question: the gold item's is the one known
            q = replace(q, difficulty=rec.difficulty)
            by_id[rec.query_id] = q
            qs.items = [replace(x, value=q) if x.value.query_id == q.query_id else x for x in qs.items]
        elif rec.difficulty != q.difficulty:
            message = f"is {rec.difficulty}, but {QUESTION_FILE} gives {q.difficulty} for this question"
            problems.append(Problem(gold.file, message, item.label, "difficulty"))
        out[rec.query_id] = replace(rec, doc_id=q.doc_id, question=q.question)
    if gold.knows_all_ids:
        for asked in qs.items:
            if asked.value.query_id not in gold.ids:
                message = f"this question has no gold item in {GOLD_FILE}"
                problems.append(Problem(qs.file, message, asked.label, "query_id"))
    return out


def _check_gold_paths(
    files: _Files,
    gold_file: FileResult[AnswerRecord],
    gold: dict[str, AnswerRecord],
    check_derived: DerivedCheck,
    conventions: Conventions,
) -> list[Problem]:
    """Gold-path checks for every item whose document's KG read without error (else its errors come first)."""
    questions = {q.value.query_id: q.value for q in files.questions.items}
    labels = {item.value.query_id: item.label for item in gold_file.items}
    lookups: dict[str, KGLookup] = {}
    problems: list[Problem] = []
    for query_id, rec in gold.items():
        kg = files.kgs.get(rec.doc_id)
        if kg is None or not kg.readable or kg.has_errors:
            continue
        if rec.doc_id not in lookups:
            lookups[rec.doc_id] = KGLookup.build(Path(kg.file).name, [t.value for t in kg.items])
        ctx = GoldContext(
            gold_file.file, labels[query_id], questions[query_id], lookups[rec.doc_id], check_derived, conventions
        )
        problems += check_gold_item(rec, ctx)
    return problems


def _ordered(files: _Files) -> list[Problem]:
    """All problems, grouped by file in reading order (documents, KGs, questions, gold), repeats folded."""
    kg_results = sorted(files.kgs.values(), key=lambda r: r.file)
    every: list[Problem] = [*files.documents.problems]
    for kg in kg_results:
        every += kg.problems
    every += files.questions.problems
    if files.gold is not None:
        every += files.gold.problems
    every += files.problems
    order: dict[str, int] = {}
    for name in (files.documents.file, *(kg.file for kg in kg_results), files.questions.file):
        order.setdefault(name, len(order))
    for p in every:
        order.setdefault(p.file, len(order))
    return fold_repeats(sorted(every, key=lambda p: order[p.file]))


def _dataset(root: Path, files: _Files, gold: dict[str, AnswerRecord] | None) -> Dataset:
    kgs: dict[str, tuple[KGTriple, ...]] = {
        doc_id: tuple(t.value for t in kg.items) for doc_id, kg in sorted(files.kgs.items())
    }
    return Dataset(
        root=str(root),
        documents={d.value.doc_id: d.value for d in files.documents.items},
        kgs=kgs,
        questions=tuple(q.value for q in files.questions.items),
        gold=gold,
    )


def _summary(files: _Files) -> Summary:
    levels: dict[str, int] = dict.fromkeys(LEVELS, 0)
    for q in files.questions.items:
        levels[q.value.difficulty] += 1
    return Summary(
        documents=len(files.documents.items),
        triples=sum(len(kg.items) for kg in files.kgs.values()),
        questions=levels,
        gold_items=None if files.gold is None else len(files.gold.items),
    )
