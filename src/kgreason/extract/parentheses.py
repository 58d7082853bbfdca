"""Facts the text states in a parenthesis after a name: `捍卫者号驱逐舰（舷号D36）`, `成都飞机设计研究所（又称611所）`,
`“海波”情报站（简称海波站，又称HYPO站）`. Encyclopedic text puts codes, designations and other names there, and a
small model reading a long sentence often leaves them out (it lists the sentence's main facts), so the program reads
them itself.

Each part of the parenthesis (split at `，,；;`) gives one triple `(name, attribute, value)` when it is
- an attribute word and a code (`舷号D36`, `编号2001`, `英文代号J-20`: a run of Chinese characters, then a value
  starting with a Latin letter or a digit), or
- an alias word and another name (`简称海波站`, `又称“HYPO站”`; the words of `canonical.ALIAS_RELATIONS`).
Anything else (`（集团）`, `（DSI）`, `（102）`, `（英国称福克兰群岛）`) gives nothing: without an attribute word
there is no relation to name. The name is the longest node name the model's triples already hold that the text
before the parenthesis ends with, not a bare head noun (`驱逐舰` in `即捍卫者号驱逐舰（舷号D36）`); without one, the
clause before it (back to a comma, `、`, `即`, `和`, …) when it is a short bare name. A triple the model listed
already (same name, relation and value) is not added twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgreason.data.provenance import Sentence
from kgreason.extract.canonical import ALIAS_RELATIONS, HEAD_NOUNS
from kgreason.extract.grounding import Grounded, Mention

_PARENTHESIS = re.compile(r"[（(]([^（()）]{1,40})[）)]")
_PART_SEPARATORS = re.compile(r"[，,；;]")
_CODE = re.compile(r"^([\u4e00-\u9fff]{1,6}?)[：:]?\s*([A-Za-z0-9][A-Za-z0-9\-./]*[\u4e00-\u9fff]?)$")
_QUOTES = "“”\"'‘’「」《》"
# The text before a parenthesis is cut back to the last of these when no known name ends it.
_CLAUSE_BREAK = re.compile(r"[，,。；;：:、\s]|即|和|与|及|或")
MAX_BARE_NAME_CHARS = 12  # a clause longer than this is a phrase, not a name
MIN_NAME_CHARS = 2


def _attribute_and_value(part: str) -> tuple[str, str] | None:
    part = part.strip().strip(_QUOTES)
    for alias in sorted(ALIAS_RELATIONS, key=len, reverse=True):
        if part.startswith(alias):
            value = part[len(alias) :].lstrip("为是：:").strip().strip(_QUOTES)
            return (alias, value) if len(value) >= MIN_NAME_CHARS else None
    m = _CODE.match(part)
    if m is None:
        return None
    return m.group(1), m.group(2)


def _name_before(text: str, end: int, known: Iterable[str]) -> tuple[str, int] | None:
    """The name that the text ends with at `end` (its start too): the longest known one, else the bare clause."""
    before = text[:end]
    names = (n for n in known if len(n) >= MIN_NAME_CHARS and n not in HEAD_NOUNS and before.endswith(n))
    best = max(names, key=len, default=None)
    if best is not None:
        return best, end - len(best)
    breaks = list(_CLAUSE_BREAK.finditer(before))
    start = breaks[-1].end() if breaks else 0
    name = before[start:].strip(_QUOTES)
    if MIN_NAME_CHARS <= len(name) <= MAX_BARE_NAME_CHARS and "的" not in name:
        return name, end - len(name)
    return None


def parenthetical_facts(sentences: Iterable[Sentence], known: list[Grounded]) -> list[Grounded]:
    """The triples the sentences' parentheses state (module docstring), those not in `known` already."""
    names = {n for g in known for n in (g.sub.name, g.obj.name)}
    seen = {(g.sub.name, g.relation, g.obj.name) for g in known}
    out: list[Grounded] = []
    for s in sentences:
        for m in _PARENTHESIS.finditer(s.text):
            found = _name_before(s.text, m.start(), names)
            if found is None:
                continue
            name, start = found
            cursor = m.start(1)
            for part in _PART_SEPARATORS.split(m.group(1)):
                pair = _attribute_and_value(part)
                if pair is not None:
                    attribute, value = pair
                    at = s.text.find(value, cursor)
                    key = (name, attribute, value)
                    if at >= 0 and key not in seen and value != name:
                        seen.add(key)
                        sub = Mention(name, start, start + len(name), "exact")
                        out.append(Grounded(s, sub, attribute, Mention(value, at, at + len(value), "exact")))
                cursor += len(part) + 1
    return out
