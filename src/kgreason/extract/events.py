"""Event nodes the text names: `……，这一事件被称为“黑海对峙事件”` makes `黑海对峙事件` a node, as annotators write
them (the task's KGs hang an event's time, place and participants on the event, and questions go through it).

In a sentence holding a naming phrase (an anaphor for an event — `这一事件`, `此事`, `这起事故`, `这次行动` … —
then `被称为/被视为/称为/称作` and the name), every triple the model listed for that sentence with a time or place
relation (`发生时间`, `发生地点`, … or a date object) moves to the event as subject, and each other subject of the
sentence's triples is linked to the event by `PARTICIPANT_RELATION`. Nothing is done for a sentence without such a
phrase, or whose triples already have the event as subject.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kgreason.data.provenance import Sentence
from kgreason.extract.grounding import Grounded, Mention
from kgreason.extract.values import TIME_TYPE, value_type

EVENT_ANAPHORS: tuple[str, ...] = (
    "这一事件", "该事件", "此事件", "此事", "这起事故", "该事故", "此次事故", "这次行动", "此次行动", "这一行动",
    "这次事件", "这起事件",
)  # fmt: skip
NAMING_VERBS: tuple[str, ...] = ("被称为", "被视为", "被称作", "称为", "视为", "称作")
EVENT_RELATIONS = frozenset({"发生时间", "发生地点", "时间", "地点", "开始时间", "结束时间"})
PARTICIPANT_RELATION = "参与方"
_NAMING = re.compile(
    "(?:" + "|".join(map(re.escape, EVENT_ANAPHORS)) + ")(?:也)?(?:" + "|".join(map(re.escape, NAMING_VERBS)) + ")"
    r"“?([^，。；！？“”]{2,30}?)”?(?=[，。；！？]|$)"
)


def event_name(sentence: str) -> tuple[str, int, int] | None:
    """The event the sentence names and its span, or None."""
    m = _NAMING.search(sentence)
    if m is None:
        return None
    name = m.group(1).removeprefix("的").strip()
    if len(name) < 2:
        return None
    start = sentence.find(name, m.start())
    return name, start, start + len(name)


def _is_event_fact(g: Grounded) -> bool:
    return g.relation in EVENT_RELATIONS or value_type(g.obj.name) == TIME_TYPE


def event_nodes(triples: list[Grounded]) -> tuple[list[Grounded], int]:
    """The triples with the named events as nodes (rules in the module docstring), and how many events were made."""
    by_sentence: dict[int, list[Grounded]] = {}
    for g in triples:
        by_sentence.setdefault(g.sentence.index, []).append(g)
    out: list[Grounded] = []
    made = 0
    for group in by_sentence.values():
        sentence: Sentence = group[0].sentence
        found = event_name(sentence.text)
        if found is None or any(g.sub.name == found[0] for g in group):
            out.extend(group)
            continue
        made += 1
        event = Mention(found[0], found[1], found[2], "exact")
        participants: dict[str, Mention] = {}
        for g in group:
            if _is_event_fact(g) and g.obj.name != event.name:
                out.append(replace(g, sub=event))
            else:
                out.append(g)
            if g.sub.name != event.name and value_type(g.sub.name) is None:
                participants.setdefault(g.sub.name, g.sub)
        out.extend(Grounded(sentence, event, PARTICIPANT_RELATION, p) for p in participants.values())
    return out, made
