"""Check that a triple's subject and object are written in the sentence it cites, repairing near misses.

A model asked to copy names still rewrites them (`F-35A战斗机` for `F-35A`, `约1093公里` for `1093公里`). The rule,
per end, first match wins:
1. the name occurs in the sentence as written (not inside a longer number), or once spaces are ignored
   (`1942年6月4日` in a text writing `1942 年 6 月 4 日`): the end becomes the sentence's spelling;
2. a date or quantity the program found in the sentence lies inside the name: the end becomes that value's text;
3. the longest part of the name (at least 2 characters and 60% of it) that the sentence spells: the end becomes
   that part (the text's own spelling) — never for a date or quantity (a value the sentence does not hold is
   another sentence's: `1982年6月14日` must not become `1982年6月1` of `1982年6月12日`), and never a part that cuts a
   run of digits, in the name or in the sentence;
4. subject only: the sentence refers back with a pronoun or a demonstrative (`它`, `该舰`, `该中队`, `本届演习`,
   `此次`, `its`, …) and the name occurs earlier in the document: the subject is kept and the pronoun is its
   mention (the model resolved it; the text confirms the antecedent exists).
Anything else is dropped and counted. The span is the smallest stretch of the sentence holding both mentions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgreason.data.provenance import Sentence
from kgreason.extract.lines import RawTriple
from kgreason.extract.values import ValueMention, value_type

MIN_PART_CHARS = 2
MIN_PART_SHARE = 0.6
# Words that refer back to a named thing; longest first so `该系列` wins over `该`.
PRONOUNS: tuple[str, ...] = (
    "该系列", "该型机", "该舰", "该机", "该艇", "该型", "该部", "该炮", "该弹", "该项目", "这一项目", "该公司",
    "该国", "该战役", "该演习", "它们", "它", "其",
)  # fmt: skip
# Demonstratives that refer back to a named thing: `该` before any noun (not in `应该`), `本届`, `此次`, `这次`, `此战`.
DEMONSTRATIVES = re.compile(r"(?<!应)该(?=[\u4e00-\u9fff])|本届|此次|这次|此战")
_ENGLISH_PRONOUNS = re.compile(r"\b(?:it|its|they|their|the ship|the aircraft|the company|he|she|his|her)\b", re.I)


@dataclass(frozen=True, slots=True)
class Mention:
    name: str  # the name as it will stand in the KG
    start: int  # offsets in the sentence
    end: int
    how: str  # "exact" | "value" | "part" | "pronoun"


@dataclass(frozen=True, slots=True)
class Grounded:
    sentence: Sentence
    sub: Mention
    relation: str
    obj: Mention

    @property
    def doc_span(self) -> tuple[int, int]:
        lo = min(self.sub.start, self.obj.start)
        hi = max(self.sub.end, self.obj.end)
        return self.sentence.start + lo, self.sentence.start + hi


def _cuts_digits(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] begins or ends inside a run of digits of `text`."""
    before = start > 0 and text[start - 1].isdigit() and text[start].isdigit()
    after = end < len(text) and text[end].isdigit() and text[end - 1].isdigit()
    return before or after


def _whole_part_in(part: str, sentence: str) -> int:
    """Where `part` occurs in `sentence` without cutting a number there, or -1."""
    pos = sentence.find(part)
    while pos >= 0 and _cuts_digits(sentence, pos, pos + len(part)):
        pos = sentence.find(part, pos + 1)
    return pos


def _longest_part(name: str, sentence: str) -> tuple[str, int] | None:
    for length in range(len(name), MIN_PART_CHARS - 1, -1):
        if length < MIN_PART_SHARE * len(name):
            return None
        for i in range(len(name) - length + 1):
            part = name[i : i + length].strip(" ，,、的")
            if len(part) != length or _cuts_digits(name, i, i + length):
                continue
            if (pos := _whole_part_in(part, sentence)) >= 0:
                return part, pos
    return None


def pronoun_in(sentence: str) -> tuple[int, int] | None:
    """Where the sentence's first pronoun is, if any."""
    best: tuple[int, int] | None = None
    for p in PRONOUNS:
        pos = sentence.find(p)
        if pos >= 0 and (best is None or pos < best[0]):
            best = (pos, pos + len(p))
    for pattern in (DEMONSTRATIVES, _ENGLISH_PRONOUNS):
        m = pattern.search(sentence)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), m.end())
    return best


def _find_ignoring_spaces(name: str, sentence: str) -> tuple[int, int] | None:
    """Where `name` is in `sentence` when spaces are left out of both (a span of the sentence), or None."""
    bare = "".join(name.split())
    if not bare:
        return None
    kept = [i for i, ch in enumerate(sentence) if not ch.isspace()]
    pos = _whole_part_in(bare, "".join(sentence[i] for i in kept))
    if pos < 0:
        return None
    return kept[pos], kept[pos + len(bare) - 1] + 1


def locate(name: str, sentence: str, values: list[ValueMention]) -> Mention | None:
    """Rules 1–3 of the module docstring."""
    pos = _whole_part_in(name, sentence)
    if pos >= 0:
        return Mention(name, pos, pos + len(name), "exact")
    if (span := _find_ignoring_spaces(name, sentence)) is not None:
        return Mention(sentence[span[0] : span[1]], span[0], span[1], "exact")
    for v in values:
        if v.text in name:
            return Mention(v.text, v.start, v.end, "value")
    if value_type(name) is not None:
        return None
    part = _longest_part(name, sentence)
    if part is not None:
        text, pos = part
        return Mention(text, pos, pos + len(text), "part")
    return None


def ground(raw: RawTriple, sentence: Sentence, values: list[ValueMention], before: str) -> Grounded | None:
    """`raw` tied to spans of `sentence` (None when an end cannot be found: rule 5). `before` is the document's
    text before the sentence (for rule 4)."""
    if raw.sub == raw.obj:
        return None
    obj = locate(raw.obj, sentence.text, values)
    sub = locate(raw.sub, sentence.text, values)
    if sub is None and raw.sub in before:
        where = pronoun_in(sentence.text)
        if where is not None:
            sub = Mention(raw.sub, where[0], where[1], "pronoun")
    if sub is None or obj is None or sub.name == obj.name:
        return None
    return Grounded(sentence, sub, raw.relation, obj)
