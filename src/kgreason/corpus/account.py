"""How an event went (`黑海对峙事件的经过是什么？`): the event's triples in time order.

The event is the linked node the KG types as an event (`kgreason.reason.lexicon.names_event_type`), else the first
linked node. Its steps are its own triples and, for each entity it reaches, that entity's dated triples within the
event's period when the KG gives one (a ship the battle lost -> when it sank). A step's time is the date it states;
steps without one (who took part, where) belong to the event's start. Ties keep the KG's order. A long account
keeps every dated step before undated ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgreason.corpus.words import ACCOUNT_WORDS
from kgreason.data.records import PathTriple
from kgreason.kg.dates import Day
from kgreason.kg.index import KGIndex
from kgreason.reason.lexicon import names_event_type
from kgreason.text.normalize import normalize_text

MAX_ACCOUNT_STEPS = 20


@dataclass(frozen=True, slots=True)
class AccountStep:
    focus: str  # the event's name
    triple: PathTriple
    date: str | None  # the date the step states, as the KG spells it


def is_account_question(question: str) -> bool:
    q = normalize_text(question)
    return any(word in q for word in ACCOUNT_WORDS)


def _focus(index: KGIndex, names: list[str]) -> str | None:
    keys = [k for k in (normalize_text(n) for n in names) if k in index.nodes and not index.is_literal(k)]
    for key in keys:
        if names_event_type(index.types_text(key)):
            return key
    return keys[0] if keys else None


def event_account(index: KGIndex, linked_names: list[str]) -> list[AccountStep]:
    """The ordered steps of the event among `linked_names` (empty when none of them is in this KG)."""
    focus = _focus(index, linked_names)
    if focus is None:
        return []
    name = index.name(focus)
    seen: set[PathTriple] = set()
    rows: list[tuple[Day | None, int, AccountStep]] = []  # (day, KG order, step)

    def add(triple: PathTriple, date_key: str | None, order: int) -> None:
        if triple in seen:
            return
        seen.add(triple)
        value = index.date(date_key) if date_key else None
        day = value.lo if value is not None else None
        rows.append((day, order, AccountStep(name, triple, value.text if value else None)))

    period = index.period(focus)
    order = 0
    for member in sorted(index.alias_group(focus)):
        for edge in index.edges(member):
            order += 1
            add(edge.triple.spo, edge.dst, order)
            if index.is_literal(edge.dst):
                continue
            for value_edge in index.value_edges(edge.dst):
                when = index.date(value_edge.dst)
                # a reached entity's date belongs to the account when it falls in the event's period (if known)
                if when is not None and (period is None or period.start.lo <= when.lo <= period.end.hi):
                    order += 1
                    add(value_edge.triple.spo, value_edge.dst, order)
    start: Day = period.start.lo if period else min((d for d, _, _ in rows if d is not None), default=(0, 0, 0))
    # a long account keeps its timeline: dated steps first, then undated ones in KG order, up to the limit
    kept = sorted(rows, key=lambda r: (r[0] is None, r[1]))[:MAX_ACCOUNT_STEPS]
    kept.sort(key=lambda r: (r[0] if r[0] is not None else start, r[1]))
    return [step for _, _, step in kept]
