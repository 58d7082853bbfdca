"""The line-numbered text rendering of a corpus that evaluation items point into (`source.file`, `line_range`).

One file per document (`texts/<doc_id>.txt`): the document's own lines, each further split after every sentence end
(。！？；), so a line is one sentence and a line range is a handful of sentences. Blank lines are dropped.
"""

from __future__ import annotations

import re
from pathlib import Path

from kgreason.data.records import Dataset

_SENTENCE = re.compile(r"[^。！？；!?;]*[。！？；!?;]|[^。！？；!?;]+$")
TEXTS_DIR = "texts"


def document_lines(content: str) -> list[str]:
    lines: list[str] = []
    for raw in content.splitlines():
        lines += [s.strip() for s in _SENTENCE.findall(raw.strip()) if s.strip()]
    return lines


def write_texts(dataset: Dataset, out_dir: Path) -> list[Path]:
    """Write `<doc_id>.txt` per document (atomically per file); returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for doc_id, doc in dataset.documents.items():
        path = out_dir / f"{doc_id}.txt"
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text("\n".join(document_lines(doc.content)) + "\n", encoding="utf-8")
        tmp.replace(path)
        paths.append(path)
    return paths
