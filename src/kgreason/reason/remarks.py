"""Remarks in brackets that leave something out: `下辖参战的师团有几个（支队不算）`.

A writer's aside on what does not count; the question reads on without it, so the analysis reads the question without
it (the words of the remark would otherwise be read as the asked kind, `支队`). Remarks that take something in
(`直-10家族（含外贸型）`) or restate the words before them (`战役进行期间（10月23日至11月11日）`, `旧历（农历）`)
carry the question's meaning and stay, as does a bracket that is part of a name the KG spells
(`江南造船（集团）有限责任公司`).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from kgreason.reason.lexicon import EXCLUDING_REMARK_WORDS
from kgreason.text.normalize import normalize_text

_BRACKETED = re.compile(r"[（(]([^（）()]{1,40})[）)]")
NAME_CONTEXT_CHARS = 2  # the characters before a bracket that a name spelling it must spell too


def without_remarks(question: str, names: Collection[str]) -> str:
    """`question` without its bracketed remarks that leave something out (`names`: the KG's normalised names)."""
    out = question
    for m in reversed(list(_BRACKETED.finditer(question))):
        if not any(w in m.group(1) for w in EXCLUDING_REMARK_WORDS):
            continue
        inner = normalize_text(m.group(1))
        before = normalize_text(question[: m.start()])[-NAME_CONTEXT_CHARS:]
        if any(before + inner in name for name in names):
            continue  # part of a name
        out = out[: m.start()] + out[m.end() :]
    return out
