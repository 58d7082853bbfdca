"""The `constraints` dict of an answer: keys of docs/annotation.md, values verbatim from the question."""

from __future__ import annotations

from kgreason.reason.analysis import Analysis
from kgreason.reason.candidate import Candidate
from kgreason.reason.lexicon import TIME_WITHIN_WORDS


def constraints_dict(analysis: Analysis, cand: Candidate | None, single_fact: bool = False) -> dict[str, str]:
    """Time, numeric and order constraints come from the question's wording; camp / place / type from the
    entity checks the chosen candidate made (an entity the chain starts from is a key entity, not a constraint).

    One value per key (the dict's shape): the first time window, the first threshold.
    """
    out: dict[str, str] = {}
    if analysis.times:
        out["time"] = time_value(analysis)
    if analysis.numerics:
        out["numeric"] = analysis.numerics[0].text
    # A superlative word is an order constraint when the answer was picked by it (`最早具备…的型别`); otherwise it
    # was part of a relation (`第一次参加` ~ `首次参演国家`).
    if analysis.order is not None and cand is not None and cand.origin == "order":
        out["order"] = analysis.order.text
    if analysis.comparative_text:
        out["order"] = analysis.comparative_text
    if cand is not None and cand.features.get("type_filtered") and analysis.type_text:
        out["type"] = analysis.type_text
    if cand is not None and not single_fact:
        for chk in cand.checks:
            if chk.kind == "entity" and chk.ok and chk.key and chk.key not in out and chk.value:
                out[chk.key] = chk.value
            elif chk.kind == "time" and chk.key == "time" and chk.ok and "time" not in out and chk.value:
                out["time"] = _with_within_word(analysis.question, chk.value)  # a period mention read as a window
    return {k: v for k, v in out.items() if v and v in analysis.question}


def _with_within_word(question: str, name: str) -> str:
    """`马岛战争` -> `马岛战争中` when the question says so: the window's wording, as annotators write it."""
    at = question.find(name)
    if at < 0:
        return name
    after = question[at + len(name) :]
    word = next((w for w in sorted(TIME_WITHIN_WORDS, key=len, reverse=True) if after.startswith(w)), "")
    return name + word


def time_value(analysis: Analysis) -> str:
    """The time constraint's wording: the first window, extended over the windows that follow it in the same
    clause (`开始列装之后、参加阅兵之前` is one constraint with two bounds)."""
    times = sorted(analysis.times, key=lambda t: t.start)
    first = times[0]
    end = first.end
    for t in times[1:]:
        gap = analysis.mapped.verbatim(end, t.start) if t.start > end else ""
        if t.start < end or len(gap) > 4 or any(p in gap for p in "，,。；;？?"):
            break
        end = t.end
    return analysis.mapped.verbatim(first.start, end)
