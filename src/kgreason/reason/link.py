"""Entity linking: which KG nodes the question mentions.

No segmenter is needed: node names (normalised) are looked up as substrings of the normalised question; the
longest, most specific matches win and a shorter name inside an accepted longer one is not linked (`歼-20` inside
`歼-20S`). Names with a bracketed part also match without it (`辽宁舰（16）` ~ `辽宁舰`). Names the question spells
a little differently are found by character-bigram coverage (fuzzy, lower confidence).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from kgreason.kg.index import KGIndex
from kgreason.reason.textmap import MappedText
from kgreason.text.normalize import normalize_text

LinkHow = Literal["exact", "core", "fuzzy"]

MIN_NAME_CHARS = 2  # a one-character name would match almost any question
FUZZY_MIN_COVERAGE = 0.67
FUZZY_MIN_NAME_CHARS = 4

_BRACKETED = re.compile(r"[（(\[【「『〈《][^）)\]】」』〉》]*[）)\]】」』〉》]")


@dataclass(frozen=True, slots=True)
class Mention:
    start: int  # in the normalised question
    end: int
    text: str  # verbatim substring of the original question
    key: str  # the node's normalised name
    how: LinkHow
    score: float  # 1 exact, 0.95 without brackets, lower for fuzzy


def _core(name: str) -> str:
    return normalize_text(_BRACKETED.sub("", name))


def _is_cjk_or_word(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch).startswith("L")


def _bigrams(s: str) -> list[str]:
    return [s[i : i + 2] for i in range(len(s) - 1)]


def link_mentions(index: KGIndex, q: MappedText, *, fuzzy: bool = True) -> list[Mention]:
    """Non-overlapping mentions of KG nodes in the question, in question order."""
    nq = q.norm
    found: list[Mention] = []
    for key, node in index.nodes.items():
        if node.kind == "text":
            continue
        for cand, how, score in ((key, "exact", 1.0), (_core(node.name), "core", 0.95)):
            if len(cand) < MIN_NAME_CHARS or (how == "core" and cand == key):
                continue
            if cand.isdigit() and len(cand) < 4:  # bare small numbers are not mentions
                continue
            start = nq.find(cand)
            while start >= 0:
                end = start + len(cand)
                if not _splits_alnum(nq, start, end):
                    found.append(Mention(start, end, q.verbatim(start, end), key, how, score))  # type: ignore[arg-type]
                start = nq.find(cand, start + 1)
    accepted = _select(found)
    if fuzzy:
        accepted = _select(accepted + _fuzzy(index, q, accepted))
    return sorted(accepted, key=lambda m: m.start)


def _splits_alnum(nq: str, start: int, end: int) -> bool:
    """A Latin/digit name must not cut a longer Latin/digit token (`f35` inside `f35a`, `20` inside `2020`)."""
    first, last = nq[start], nq[end - 1]
    if first.isascii() and first.isalnum() and start > 0 and nq[start - 1].isascii() and nq[start - 1].isalnum():
        return True
    return bool(last.isascii() and last.isalnum() and end < len(nq) and nq[end].isascii() and nq[end].isalnum())


def _select(cands: list[Mention]) -> list[Mention]:
    """Greedy: longest first, then better link, then entities' degree order is left to the caller; no overlaps."""
    taken: list[Mention] = []
    for m in sorted(cands, key=lambda m: (-(m.end - m.start), -m.score, m.start)):
        if any(m.start < t.end and t.start < m.end for t in taken):
            continue
        taken.append(m)
    return taken


def _fuzzy(index: KGIndex, q: MappedText, accepted: list[Mention]) -> list[Mention]:
    nq = q.norm
    covered = [False] * len(nq)
    for m in accepted:
        for i in range(m.start, m.end):
            covered[i] = True
    positions: dict[str, list[int]] = {}
    for i, bg in enumerate(_bigrams(nq)):
        if not covered[i] and not covered[i + 1]:
            positions.setdefault(bg, []).append(i)
    accepted_keys = {m.key for m in accepted}
    out: list[Mention] = []
    for key, node in index.nodes.items():
        if node.kind != "entity" or key in accepted_keys or len(key) < FUZZY_MIN_NAME_CHARS:
            continue
        bgs = _bigrams(_core(node.name) or key)
        if len(bgs) < 2:
            continue
        hits = [positions[b][0] for b in bgs if b in positions]
        if len(hits) < 2 or len(hits) / len(bgs) < FUZZY_MIN_COVERAGE:
            continue
        start, end = min(hits), max(hits) + 2
        if end - start > 1.5 * len(key) + 1:
            continue
        cov = len(hits) / len(bgs)
        out.append(Mention(start, end, q.verbatim(start, end), key, "fuzzy", round(0.9 * cov, 3)))
    return out
