"""The documents `kgreason extract` reads: the task's `document.json` (or a folder holding one), or a folder of
`.txt`/`.md` files (doc_id = the file's stem). Problems are raised together as one `DataError` naming file, record
and field."""

from __future__ import annotations

from pathlib import Path

from kgreason.data.jsonio import read_text
from kgreason.data.readers import read_documents
from kgreason.data.records import Document
from kgreason.errors import DataError, Problem

TEXT_SUFFIXES = (".txt", ".md")


def _from_text_folder(folder: Path) -> list[Document]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in TEXT_SUFFIXES and p.is_file())
    if not files:
        raise DataError.single(str(folder), "holds neither document.json nor any .txt or .md file")
    problems: list[Problem] = []
    docs: list[Document] = []
    seen: dict[str, Path] = {}
    for path in files:
        if path.stem in seen:
            problems.append(Problem(str(path), f"doc_id {path.stem!r} is also the stem of {seen[path.stem].name}"))
            continue
        seen[path.stem] = path
        try:
            text = read_text(path)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if not text.strip():
            problems.append(Problem(str(path), "is empty: no text to extract from"))
            continue
        docs.append(Document(doc_id=path.stem, content=text))
    if problems:
        raise DataError(problems)
    return docs


def _from_document_json(path: Path) -> list[Document]:
    result = read_documents(path)
    errors = [p for p in result.problems if p.severity == "error"]
    empty = [
        Problem(result.file, "content is empty: no text to extract from", item.label, "content")
        for item in result.items
        if not item.value.content.strip()
    ]
    if errors or empty or not result.items:
        raise DataError(errors + empty or [Problem(result.file, "contains no documents")])
    return [item.value for item in result.items]


def read_inputs(source: Path) -> list[Document]:
    """The documents of `source`: a `document.json`, a folder with one, or a folder of text files."""
    if not source.exists():
        raise DataError.single(str(source), "does not exist")
    if source.is_dir():
        if (source / "document.json").is_file():
            return _from_document_json(source / "document.json")
        return _from_text_folder(source)
    if source.suffix.lower() == ".json":
        return _from_document_json(source)
    if source.suffix.lower() in TEXT_SUFFIXES:
        return _from_text_folder_file(source)
    raise DataError.single(str(source), "is neither a document.json, a .txt/.md file nor a folder of them")


def _from_text_folder_file(path: Path) -> list[Document]:
    text = read_text(path)
    if not text.strip():
        raise DataError.single(str(path), "is empty: no text to extract from")
    return [Document(doc_id=path.stem, content=text)]
