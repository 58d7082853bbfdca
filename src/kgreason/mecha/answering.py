"""From a question's scored candidates to an answer: by the best score alone, or by an LLM's schema-bound choice.

The answer text is written by the program from the chosen triples (never by the model): for one triple, its end
that is not a question entity (`answer_side`), the paper's m3e baseline rule; for several, one clause per triple,
`<question-side end>的<relation>是<answer end>`, joined with `；`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from kgreason.data.records import PathTriple
from kgreason.llm.types import LLM, Usage
from kgreason.mecha.data import answer_side
from kgreason.mecha.prompts import LabelStyle, build_choice_request
from kgreason.text.normalize import normalize_text


def answer_text(chosen: Sequence[PathTriple], entities: Sequence[str]) -> str:
    """The answer the program states for the chosen triples (empty when nothing was chosen)."""
    if not chosen:
        return ""
    if len(chosen) == 1:
        side = answer_side(chosen[0], entities)
        return side if side is not None else chosen[0][2]
    clauses = []
    for s, r, o in chosen:
        side = answer_side((s, r, o), entities)
        if side is None or side == o:
            clauses.append(f"{s}的{r}是{o}")
        else:  # the question names the tail: state the triple from that end
            clauses.append(f"{o}是{s}的{r}")
    return "；".join(clauses)


@dataclass(frozen=True, slots=True)
class Choice:
    """What a selection step picked: candidate indices (best first), and what it cost."""

    indices: tuple[int, ...]
    usage: Usage = field(default_factory=Usage)
    failure: str | None = None  # the LLM failure kind and message, when the call failed


def choose_top(scores: Sequence[float]) -> Choice:
    """The best-scored candidate (first one on ties)."""
    if not scores:
        return Choice(())
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return Choice((best,))


def choose_with_llm(
    llm: LLM,
    question: str,
    triples: Sequence[PathTriple],
    display_scores: Sequence[float] | None,
    *,
    sort: bool = True,
    show_scores: bool = True,
    max_select: int = 1,
    min_select: int = 1,
    max_chars: int | None = 80,
    label_style: LabelStyle = "id",
    label_chars: int = 40,
    ids_descending: bool = False,
) -> Choice:
    """Ask `llm` to pick the triples that answer `question`, under a schema whose enum is the candidates.

    A failed call chooses nothing (the question then counts as unanswered); it is not replaced by the ranker's
    choice, so the LLM configurations measure the LLM. A single candidate is chosen without a call (its enum would
    force the same answer). With `max_select` > 1 the reply is a set of `min_select`..`max_select` triples."""
    if not triples:
        return Choice(())
    if len(triples) == 1:
        return Choice((0,))
    request = build_choice_request(
        question,
        triples,
        display_scores,
        sort=sort,
        show_scores=show_scores,
        max_select=max_select,
        min_select=min_select,
        max_chars=max_chars,
        label_style=label_style,
        label_chars=label_chars,
        ids_descending=ids_descending,
    )
    # room for the JSON around the labels; a Chinese character is about one token
    per_label = {"id": 8, "relation": 2 * label_chars + 8, "triple": 3 * label_chars + 8}[label_style]
    start = time.monotonic()
    result = llm.complete_json(request.messages, request.schema, max_tokens=16 + per_label * max_select)
    if not result.ok:
        usage = Usage(result.usage.prompt_tokens, result.usage.completion_tokens, time.monotonic() - start)
        return Choice((), usage, f"{result.kind}: {result.message}")
    return Choice(tuple(request.chosen(result.value)), result.usage)


def expand_comparison(
    chosen: Sequence[int],
    triples: Sequence[PathTriple],
    entities: Sequence[str],
    scores: Sequence[float] | None = None,
) -> list[int]:
    """Add, for a question naming several entities, the same relation's triple of each other entity.

    A comparison ("灰铸铁和白口铸铁的密度哪个更高") needs one value per entity, and its gold path holds one triple
    per entity; the chooser picks one triple, the program adds its siblings: for every other question entity, the
    candidate with the same relation that has that entity on the same side (the best-scored one, else the first).
    Questions with one entity are left as they are."""
    out = list(chosen)
    if len(entities) < 2 or not chosen:
        return out
    s0, r0, o0 = triples[chosen[0]]
    ents = [normalize_text(e) for e in entities]
    head_side = normalize_text(s0) in ents
    anchor = normalize_text(s0) if head_side else normalize_text(o0)
    for ent in dict.fromkeys(ents):
        if ent == anchor:
            continue
        matches = [
            i
            for i, (s, r, o) in enumerate(triples)
            if normalize_text(r) == normalize_text(r0) and normalize_text(s if head_side else o) == ent
        ]
        if not matches:
            continue
        best = max(matches, key=lambda i: (scores[i], -i)) if scores is not None else matches[0]
        if best not in out:
            out.append(best)
    return out
