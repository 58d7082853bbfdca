"""Normalised text with a map back to the original, so matches found on normalised text can be reported as
verbatim substrings of the question (constraint values must be the question's own wording)."""

from __future__ import annotations

import re
from bisect import bisect_left
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

    def gap(self, end: int, start: int) -> str:
        """The original text between normalised positions `end` (exclusive end of one span) and `start` (the next
        span's start): what normalising dropped there (`、` in `A、B`), or the verbatim text when nothing was."""
        if end <= 0 or start >= len(self.origin) or start < end:
            return ""
        return self.original[self.origin[end - 1] + 1 : self.origin[start]]

    def norm_index(self, orig: int) -> int:
        """The normalised index of the first character produced by original[orig:] (len(norm) when none): with
        `norm_index(end)`, the normalised span of an original one."""
        return bisect_left(self.origin, orig)

    def verbatim(self, start: int, end: int) -> str:
        """The original text of a normalised span — with the opening quote before it when the span holds only the
        closing one (`“停止前进命令”解除的当天`, not `停止前进命令”解除的当天`)."""
        a, b = self.span(start, end)
        text = self.original[a:b]
        for opening, closing in _QUOTE_PAIRS:
            if a > 0 and self.original[a - 1] == opening and closing in text and opening not in text:
                return opening + text
        return text


_QUOTE_PAIRS = (("“", "”"), ("「", "」"), ("《", "》"), ("‘", "’"))


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


_QUOTED = re.compile(r"“[^”]{1,20}”|「[^」]{1,20}」|\"[^\"]{1,20}\"|‘[^’]{1,20}’")


def quoted_spans(q: MappedText) -> list[tuple[int, int]]:
    """Normalised spans of the words the question puts in quotes: names or labels (`哪一项“首次”训练`), never
    operators."""
    out: list[tuple[int, int]] = []
    for m in _QUOTED.finditer(q.original):
        idx = [i for i, o in enumerate(q.origin) if m.start() <= o < m.end()]
        if idx:
            out.append((idx[0], idx[-1] + 1))
    return out
