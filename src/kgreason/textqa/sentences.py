"""Sentences of MuSiQue's paragraphs, which come as one text each (HotpotQA and 2Wiki give sentences).

A plain English rule: a sentence ends at `.`, `!` or `?` (optionally followed by a closing quote or bracket) before
white space and a capital letter, a digit or an opening quote; a few abbreviations (`Mr.`, `St.`, `U.S.`, an initial
like `J.`) do not end one. Chinese `。！？` end a sentence too. `kgreason extract`'s splitter replaces this once
merged (the lead wires it in); the support metric of MuSiQue is per paragraph, so only sentence choice depends on it.
"""

from __future__ import annotations

import re

_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(])|(?<=[。！？])")
_NO_END = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Gen|Col|Lt|Mt|No|vs|etc|Inc|Co|Ltd)|\b[A-Z]|\b(?:[A-Z]\.)+[A-Z])\.$"
)


def split_sentences(text: str) -> tuple[str, ...]:
    """The sentences of `text`, each stripped; joining them with spaces gives the text back up to white space."""
    out: list[str] = []
    pending = ""
    start = 0
    for match in _BOUNDARY.finditer(text):
        piece = text[start : match.start()] + match.group(0).strip()
        start = match.end()
        pending = f"{pending} {piece.strip()}".strip() if pending else piece.strip()
        if not _NO_END.search(pending.rstrip("\"')]")):
            out.append(pending)
            pending = ""
    tail = text[start:].strip()
    pending = f"{pending} {tail}".strip() if pending else tail
    if pending:
        out.append(pending)
    return tuple(s for s in out if s)
