"""Split a document's text into sentences with exact character offsets (Chinese and English).

A sentence ends at `。！？!?` (a run of them counts once; `?`/`!` not when a lower-case word follows: `"Why?" she
asked`) or at a line break; an English `.` ends one only when followed by white space and then a capital, a digit,
a quote or CJK text, and not after a known abbreviation (`Dr.`, `U.S.`, `e.g.`), a single capital initial
(`J. Smith`) or between digits (`1.6`). Closing quotes and brackets right after an ender stay with the sentence
they close. Offsets are Python string indices into the document's text, end exclusive, with the sentence's own
leading and trailing white space left out.
"""

from __future__ import annotations

import re

from kgreason.data.provenance import Sentence

_HARD_ENDERS = "。！？!?"
_CLOSERS = "”’」』）)]】\"'》"
# Lowercase forms, without their final dot. Initials of several letters (`U.S.`) are handled by the pattern below.
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e", "no", "fig", "inc", "ltd",
     "co", "corp", "gen", "col", "lt", "capt", "cmdr", "adm", "sgt", "maj", "rev", "mt", "jan", "feb", "mar",
     "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "approx", "est", "dept", "univ"}
)  # fmt: skip
_WORD_BEFORE_DOT = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_INITIALS = re.compile(r"^(?:[A-Za-z]\.)*[A-Za-z]$")  # `U.S`, `J` (the last dot is the candidate ender)


def _is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def _continues_lower(text: str, i: int) -> bool:
    """Whether a lower-case ASCII word follows position `i` after closing quotes and spaces (`"Why?" she asked`)."""
    j = i
    while j < len(text) and text[j] in _CLOSERS:
        j += 1
    rest = text[j:].lstrip(" \t")
    return bool(rest) and rest[0].isascii() and rest[0].islower()


def _dot_ends_sentence(text: str, i: int) -> bool:
    """Whether the `.` at `text[i]` ends an English sentence."""
    before = text[:i]
    after = text[i + 1 :]
    if before[-1:].isdigit() and after[:1].isdigit():
        return False  # a decimal point: 1.6
    if after[:1] and not after[0].isspace() and not _is_cjk(after[0]) and after[0] not in _CLOSERS:
        return False  # inside a token: example.com, F.35
    rest = after.lstrip(" \t")
    if after[:1] and after[0] in _CLOSERS:
        rest = after[1:].lstrip(" \t")
    if rest and not (rest[0].isupper() or rest[0].isdigit() or rest[0] in "\n\"“‘'(" or _is_cjk(rest[0])):
        return False  # `approx. three`: a lower-case word continues the sentence
    word = _WORD_BEFORE_DOT.search(before)
    if word:
        w = word.group(1)
        if w.lower() in _ABBREVIATIONS or w.lower().rstrip(".") in _ABBREVIATIONS:
            return False
        if _INITIALS.match(w) and (len(w) == 1 or "." in w) and w[0].isupper():
            return not rest  # `U.S.` or `J.` mid-text; at the very end of the text it still ends the sentence
    return True


def _boundaries(text: str) -> list[int]:
    """End offsets (exclusive) of the sentences of `text`, before white space is trimmed."""
    ends: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        end = -1
        if ch in _HARD_ENDERS:
            end = i + 1
            while end < n and text[end] in _HARD_ENDERS:
                end += 1
            if ch in "!?" and _continues_lower(text, end):
                end = -1
        elif ch == "." and _dot_ends_sentence(text, i):
            end = i + 1
            while end < n and text[end] == ".":
                end += 1
        elif ch == "\n":
            end = i + 1
        if end < 0:
            i += 1
            continue
        while end < n and text[end] in _CLOSERS:
            end += 1
        ends.append(end)
        i = end
    if not ends or ends[-1] < n:
        ends.append(n)
    return ends


def split_sentences(doc_id: str, text: str) -> list[Sentence]:
    """The non-empty sentences of `text`, numbered from 0, each with `text[start:end] == sentence.text`."""
    out: list[Sentence] = []
    start = 0
    for end in _boundaries(text):
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        body = piece.strip()
        if body:
            s = start + lead
            out.append(Sentence(doc_id=doc_id, index=len(out), text=body, start=s, end=s + len(body)))
        start = end
    return out
