"""One triple per member when the model wrote a list as one name:
`南云舰队 下辖 赤城号、加贺号、苍龙号和飞龙号4艘航空母舰` becomes four `下辖` triples, as the task's KGs write them
(one member per triple; a question counting or listing the members needs them apart).

A subject or object is split at `、`, and at a conjunction (`和`, `与`, `及`, `以及`) when every part keeps at least
MIN_PART_CHARS characters (`中华人民共和国` is not split: `国` would be a part). A count closing the last member
(`飞龙号4艘航空母舰`: `4艘…`) is dropped from it. Every member must be written in the cited sentence, else the
triple stays whole. Values (dates, quantities), lists of dates and English names are never split.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kgreason.data.provenance import Sentence
from kgreason.extract.grounding import Grounded, Mention
from kgreason.extract.prompt import is_chinese
from kgreason.extract.values import NUMBER_TYPE, TIME_TYPE, find_values, value_type

LIST_MARK = "、"
CONJUNCTIONS: tuple[str, ...] = ("以及", "和", "与", "及")  # longest first
MIN_PART_CHARS = 2
_SPLIT = re.compile("|".join(re.escape(w) for w in (LIST_MARK, *CONJUNCTIONS)))


def _drop_closing_count(part: str) -> str:
    """`飞龙号4艘航空母舰` → `飞龙号`: the member before a count that sums up the list."""
    for v in find_values(part):
        if v.type == NUMBER_TYPE and v.start >= MIN_PART_CHARS:
            return part[: v.start]
    return part


def members(name: str) -> list[str] | None:
    """The members of a name written as a list, or None when it is not one."""
    if value_type(name) is not None or not is_chinese(name) or not _SPLIT.search(name):
        return None
    parts = [p.strip() for p in _SPLIT.split(name)]
    if LIST_MARK not in name and any(len(p) < MIN_PART_CHARS for p in parts):
        return None
    parts[-1] = _drop_closing_count(parts[-1])
    if len(parts) < 2 or any(len(p) < MIN_PART_CHARS or value_type(p) == TIME_TYPE for p in parts):
        return None  # `2021年5月和6月`: the second date is not whole without the first
    return parts


def _mentions(m: Mention, sentence: Sentence) -> list[Mention] | None:
    names = members(m.name)
    if names is None:
        return None
    out = []
    for name in names:
        pos = sentence.text.find(name)
        if pos < 0:
            return None
        out.append(Mention(name, pos, pos + len(name), m.how))
    return out


def split_enumerations(triples: list[Grounded]) -> tuple[list[Grounded], int]:
    """Every triple with a list for subject or object as one triple per member (rules in the module docstring), and
    how many triples were split."""
    out: list[Grounded] = []
    split = 0
    for g in triples:
        subs = _mentions(g.sub, g.sentence) or [g.sub]
        objs = _mentions(g.obj, g.sentence) or [g.obj]
        if len(subs) == 1 and len(objs) == 1:
            out.append(g)
            continue
        split += 1
        out.extend(replace(g, sub=s, obj=o) for s in subs for o in objs if s.name != o.name)
    return out, split
