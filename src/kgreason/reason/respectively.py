"""Questions that ask for several things at once, "respectively": several attributes of one entity
(`青岚号的下水时间和建造单位分别是什么`) or one attribute of several entities (`青岚号和白沙号的建造单位分别是什么`).

Each part is answered as a question of its own — the same chain search with the other parts' words (or names) taken
out — and the answers are joined in the question's order, each with its own chain as evidence. The trigger is a
word that says "respectively" (`lexicon.RESPECTIVELY_WORDS`); the parts are split at coordinating words
(`lexicon.PART_JOINERS`). Yes/no and which-of-two questions (`各自…哪个更多`) are left to their own builders.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from kgreason.kg.index import KGIndex
from kgreason.reason.analysis import Analysis, Form, listed_names, residual_words
from kgreason.reason.candidate import Candidate, joined
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.generate import ExternalScore, ScoredChain, chain_candidates, key_starts
from kgreason.reason.lexicon import PART_JOINERS, RESPECTIVELY_WORDS, TIME_PART_ENDINGS, TOGETHER_WORDS
from kgreason.text.normalize import normalize_text

_PART_JOINER = re.compile("|".join(re.escape(w) for w in sorted(PART_JOINERS, key=len, reverse=True)))
MIN_PART_CHARS = 2  # a part of one character is no relation word (`和平` split at `和` leaves `平`)


@dataclass(frozen=True, slots=True)
class Part:
    """One thing a "respectively" question asks: its analysis, and for `X和Y的A` the name it is about (its chain must
    pass through that name and through none of the other listed names)."""

    analysis: Analysis
    member: str | None = None
    others: frozenset[str] = frozenset()

    def owns(self, cand: Candidate) -> bool:
        if self.member is None:
            return True
        return any(self.member in ch.nodes and not self.others.intersection(ch.nodes) for ch in cand.chains)


def respective_parts(analysis: Analysis) -> list[Part]:
    """One part per thing the question asks for "respectively", in the question's order; [] when it does not."""
    nq = analysis.mapped.norm
    if analysis.form in ("bool", "choice") or not any(w in nq for w in RESPECTIVELY_WORDS):
        return []
    form = "entity" if analysis.form == "set" else analysis.form  # each part asks for one thing
    by_entity = _entity_parts(analysis)
    if by_entity:
        return [replace(p, analysis=replace(p.analysis, form=_part_form("", form))) for p in by_entity]
    return [
        Part(replace(analysis, residual=residual, asked=words, form=_part_form(words, form)))
        for words, residual in _residual_parts(analysis)
    ]


def union_parts(analysis: Analysis) -> list[Part]:
    """`第16特混舰队和第17特混舰队下辖的航空母舰有哪些`: a set question whose starts are names joined by a coordinating
    word asks for the members of each, together (one part per name, answered as a set); [] when it is no such
    question, or when its words say the names share what is asked (`都`, `共同`: an intersection, the chain search's
    own reading)."""
    nq = analysis.mapped.norm
    if analysis.form != "set" or any(w in nq for w in (*TOGETHER_WORDS, *RESPECTIVELY_WORDS)):
        return []
    return _entity_parts(analysis)


def _part_form(words: str, form: Form) -> Form:
    """What one part asks for: the question word's kind, unless that is only "a thing" and the part's own words name
    a date (`下水时间和建造单位分别是什么`)."""
    if form == "entity" and words.endswith(TIME_PART_ENDINGS):
        return "time"
    # `射程、装载数量分别是多少`: each part's value, not how many chains reach one
    return "number" if form == "count" else form


def _entity_parts(analysis: Analysis) -> list[Part]:
    """`X和Y的A`, `X、Y的A`: names joined by nothing but a coordinating word, each asked about on its own."""
    starts = set(key_starts(analysis))
    groups = listed_names(analysis.mapped.norm, [m for m in analysis.mentions if m.key in starts], analysis.mapped)
    if not groups:
        return []
    listed = frozenset(m.key for m in groups[0])
    return [
        Part(
            replace(analysis, mentions=tuple(x for x in analysis.mentions if x.key not in listed or x.key == m.key)),
            m.key,
            listed - {m.key},
        )
        for m in groups[0]
    ]


def _residual_parts(analysis: Analysis) -> list[tuple[str, str]]:
    """`青岚号的下水时间和建造单位分别是什么` -> the residual with only `下水时间`, then with only `建造单位`: the words
    between the last name and the "respectively" word, split at coordinating words; the other parts' characters are
    masked with `|`, so positions stay those of the full residual. Each part as (its words, its residual)."""
    nq, residual = analysis.mapped.norm, analysis.residual
    at = min(nq.find(w) for w in RESPECTIVELY_WORDS if w in nq)
    cut = max((m.end for m in analysis.mentions if m.end <= at), default=0)
    # split the question's own wording: normalising drops the `、` of `射程、单箱装载数量`
    pieces = _PART_JOINER.split(analysis.mapped.verbatim(cut, at))
    words = [residual_words(normalize_text(p)).strip("|") for p in pieces]
    if len(words) < 2 or any(len(w) < MIN_PART_CHARS or w not in residual for w in words):
        return []
    spans = [(residual.find(w), residual.find(w) + len(w)) for w in words]
    noise = [(m.start(), m.end()) for w in RESPECTIVELY_WORDS for m in re.finditer(re.escape(w), residual)]
    out = []
    for i in range(len(spans)):
        masked = [*spans[:i], *spans[i + 1 :], *noise]
        out.append(
            (words[i], "".join("|" if any(a <= k < b for a, b in masked) else ch for k, ch in enumerate(residual)))
        )
    return out


def respectively_candidates(
    index: KGIndex,
    parts: list[Part],
    cfg: ReasonerConfig,
    external: ExternalScore | None = None,
    relation_prior: Mapping[str, float] | None = None,
) -> tuple[list[Candidate], list[ScoredChain]]:
    """One candidate joining each part's best answer and chain, in the question's order ([] when a part has no
    answer: then the question is not answered part by part)."""
    best: list[Candidate] = []
    scored_all: list[ScoredChain] = []
    for part in parts:
        cands, scored = chain_candidates(index, part.analysis, cfg, external, relation_prior)
        scored_all.extend(scored[:5])
        cands = [c for c in cands if part.owns(c)]
        if not cands:
            return [], scored_all
        best.append(cands[0])
    answers = tuple(dict.fromkeys(a for c in best for a in c.answers))
    keys = tuple(dict.fromkeys(k for c in best for k in c.answer_keys))
    return [joined(best, answers, keys, best[0].answer_type, "respectively")], scored_all
