"""Read the model's `主语|关系|宾语` lines into raw triples; a line that does not split in three is dropped and
counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgreason.extract.prompt import Window, sentence_key

# Full-width bars and a few separators the model uses instead of `|`.
_SEPARATORS = ("｜", "丨", "│")


@dataclass(frozen=True, slots=True)
class RawTriple:
    sentence: int  # Sentence.index of the sentence it was listed under
    sub: str
    relation: str
    obj: str


def _parts(line: str) -> list[str] | None:
    for sep in _SEPARATORS:
        line = line.replace(sep, "|")
    parts = [p.strip().strip("“”\"'") for p in line.split("|")]
    if len(parts) != 3 or not all(parts):
        return None
    return parts


def read_reply(window: Window, value: Any) -> tuple[list[RawTriple], int]:
    """The triples of a schema-valid reply, and how many lines were malformed (not three non-empty parts)."""
    out: list[RawTriple] = []
    malformed = 0
    for index in window.indices:
        for line in value.get(sentence_key(index), []):
            parts = _parts(str(line))
            if parts is None:
                malformed += 1
                continue
            out.append(RawTriple(index, parts[0], parts[1], parts[2]))
    return out, malformed
