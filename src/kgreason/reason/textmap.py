"""Normalised text with a map back to the original, so matches found on normalised text can be reported as
verbatim substrings of the question (constraint values must be the question's own wording)."""

from __future__ import annotations

from dataclasses import dataclass

from kgreason.text.normalize import normalize_text


@dataclass(frozen=True, slots=True)
class MappedText:
    original: str
    norm: str
    origin: tuple[int, ...]  # origin[i] = index in `original` of the character that produced norm[i]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original [start, end) of the normalised range [start, end)."""
        if start >= end:
            o = self.origin[start] if start < len(self.origin) else len(self.original)
            return o, o
        return self.origin[start], self.origin[end - 1] + 1

    def verbatim(self, start: int, end: int) -> str:
        a, b = self.span(start, end)
        return self.original[a:b]


def map_text(text: str) -> MappedText:
    """Normalise character by character (same rules as `normalize_text`, except that the digit-dot rule looks at
    the neighbours in the original)."""
    norm: list[str] = []
    origin: list[int] = []
    n = len(text)
    for i, ch in enumerate(text):
        if ch == "." and 0 < i < n - 1 and text[i - 1].isdigit() and text[i + 1].isdigit():
            piece = "."
        else:
            piece = normalize_text(ch)
        for c in piece:
            norm.append(c)
            origin.append(i)
    return MappedText(text, "".join(norm), tuple(origin))
