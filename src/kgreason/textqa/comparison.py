"""Two-entity comparisons found in a question's text, so that they can be answered by parts (`textqa.by_parts`).

HotpotQA's comparison questions name two subjects and ask which one wins on an attribute ("Which magazine was
published first, Guitar World or Science News?"), whether a property holds for both ("Are Medici and Senet both board
games?") or whether the two share a value ("Are Nantong and Jingdezhen in the same province?"). A small reader looks
up one entity's attribute well and compares two poorly, so such a question becomes one lookup per entity and a
comparison made by the program.

Only the question's text is read, never a dataset's `type` field. The two names are the subjects of the paragraphs
the question names (`paragraphs.named_paragraphs`), else the two ends of a closing "…, A or B?"; the kind of
comparison comes from the English word lists below (data, kept in this one place). A question that names its two
entities but has none of these shapes is not a comparison here (the single-call reader answers it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kgreason.textqa.paragraphs import named_paragraphs
from kgreason.textqa.reader import is_yes_no
from kgreason.textqa.records import Paragraph
from kgreason.textqa.support import entity_name

Kind = Literal["earlier", "later", "more", "less", "both", "same"]
CHOICE_KINDS: tuple[Kind, ...] = ("earlier", "later", "more", "less")

# Comparative words of a choice between the two; phrases are tried before single words ("more recent" is later).
CHOICE_WORDS: dict[Kind, tuple[str, ...]] = {
    "later": (
        "more recent",
        "more recently",
        "most recent",
        "most recently",
        "later",
        "latest",
        "last",
        "younger",
        "youngest",
        "newer",
        "newest",
        "after",
    ),
    "earlier": ("first", "earlier", "earliest", "older", "oldest", "before", "sooner"),
    "more": (
        "more",
        "most",
        "larger",
        "largest",
        "bigger",
        "biggest",
        "higher",
        "highest",
        "longer",
        "longest",
        "taller",
        "tallest",
        "greater",
        "greatest",
        "heavier",
        "wider",
        "deeper",
    ),
    "less": (
        "fewer",
        "fewest",
        "less",
        "least",
        "smaller",
        "smallest",
        "lower",
        "lowest",
        "shorter",
        "shortest",
        "lighter",
        "narrower",
    ),
}
# Comparative words that compare a number only before a counted noun, and plurals without an "s".
COUNTING_WORDS = frozenset({"more", "most", "fewer", "fewest", "less", "least"})
IRREGULAR_PLURALS = frozenset({"people", "children", "men", "women", "staff", "personnel", "feet", "teeth"})
# The event whose date a date comparison reads, by a word of the question; without one the lookup asks for the
# date the entity began (born, founded, formed, first released or published).
DATE_EVENTS: dict[str, str] = {
    "born": "When was {name} born?",
    "birth": "When was {name} born?",
    "died": "When did {name} die?",
    "death": "When did {name} die?",
    "founded": "When was {name} founded?",
    "founding": "When was {name} founded?",
    "formed": "When was {name} formed?",
    "forming": "When was {name} formed?",
    "formation": "When was {name} formed?",
    "established": "When was {name} established?",
    "released": "When was {name} released?",
    "release": "When was {name} released?",
    "published": "When was {name} first published?",
    "publication": "When was {name} first published?",
    "opened": "When did {name} open?",
    "started": "When was {name} started?",
    "began": "When did {name} begin?",
    "built": "When was {name} built?",
    "created": "When was {name} created?",
    "launched": "When was {name} launched?",
    "introduced": "When was {name} introduced?",
    "premiered": "When did {name} premiere?",
    "written": "When was {name} written?",
    "discovered": "When was {name} discovered?",
}
DATE_DEFAULT = "When did {name} begin (born, founded, formed, or first released or published)?"
NUMBER_LOOKUP = "What is the number for {name} that the question compares?"
SAME_LOOKUP = "What is the {attribute} of {name}?"
# A yes/no question asked about one of the two: its auxiliary verb in the singular.
SINGULAR_AUXILIARY = {"are": "is", "were": "was", "do": "does", "have": "has"}
# The attribute belongs to a related entity ("Which film has the director born earlier", "whose director is
# younger"): a two-hop comparison that one lookup per named entity would answer about the wrong one.
RELATED_ENTITY = re.compile(
    r"\bwhose\b|\b(?:has|had|with)\s+the\s+\w+\s+(?:who|that|born|died|was|is)\b", re.IGNORECASE
)
WHICH_START = re.compile(r"^(which|who|whom|what)\b", re.IGNORECASE)
_SAME_ATTRIBUTE = re.compile(r"\bsame\s+([a-z][a-z\- ]*?)\s*(?:\?|$|\bas\b|\bin\b|\bof\b|\bfor\b|,)", re.IGNORECASE)
# The closing "…, A or B?" of a choice between two things (used by textqa.bridge too: such a question is no chain).
OR_TAIL = re.compile(r"[,:]\s*(?:the\s+)?([^,:?]+?)\s+or\s+(?:the\s+)?([^,:?]+?)\s*\??\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Comparison:
    """A comparison of two named entities: which wins (`earlier`, `later`, `more`, `less`), whether a property holds
    for both (`both`), or whether they share a value (`same`)."""

    kind: Kind
    names: tuple[str, str]  # in the question's order
    spelled: tuple[str, str]  # as the question spells them, with a parenthesis right after ("Hold On Me (song)")
    lookups: tuple[str, str]  # the sub-question asked about each name
    yes_no: bool  # answered yes/no ("Is A older than B?", both, same) rather than with a name
    attribute: str = ""  # `both`: the property ("American directors"); `same`: the shared attribute ("province")


def _spans(question: str, name: str) -> list[tuple[int, int]]:
    return [
        (m.start(), m.end())
        for m in re.finditer(rf"(?<!\w){re.escape(name.lower())}(?!\w)", question.lower())
        if len(name) >= 3
    ]


def question_names(question: str, paragraphs: Sequence[Paragraph]) -> tuple[str, str] | None:
    """The two entities the question compares, in its order: the subjects of the paragraphs it names (a name inside
    a longer named one does not count), else the ends of a closing "…, A or B?"."""
    names: dict[str, str] = {}
    for p in named_paragraphs(question, paragraphs):
        name = entity_name(p.title)
        names.setdefault(name.lower(), name)
    found = [n for k, n in names.items() if not any(k != o and k in o for o in names)]
    if len(found) != 2:
        tail = OR_TAIL.search(question)
        if tail is None:
            return None
        found = [tail.group(1).strip(), tail.group(2).strip()]
    first, second = sorted(found, key=lambda n: _spans(question, n)[0][0] if _spans(question, n) else len(question))
    if first.lower() == second.lower():
        return None
    return first, second


def without_names(question: str, names: Sequence[str]) -> str:
    text = question
    for name in names:
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text, flags=re.IGNORECASE)
    return text


def _has(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text, re.IGNORECASE) is not None


def choice_kind(text: str) -> Kind | None:
    """The kind of a choice by the first comparative word of `text` (phrases first), or None. "more" / "fewer" count
    only before a plural noun ("more members"): "more popular" compares no number the program could read."""
    found: list[tuple[int, int, Kind]] = []
    for kind, words in CHOICE_WORDS.items():
        for word in words:
            for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE):
                if word in COUNTING_WORDS and not _counted(text[m.end() :]):
                    continue
                found.append((m.start(), -len(word), kind))
                break
    return min(found)[2] if found else None


def _counted(after: str) -> bool:
    """The next word is a plural noun: ends in "s" but not "ss" / "ous" (populous), or an irregular plural."""
    m = re.match(r"\s+([a-z]+)", after, re.IGNORECASE)
    if m is None:
        return False
    word = m.group(1).lower()
    return word in IRREGULAR_PLURALS or (word.endswith("s") and not word.endswith(("ss", "ous", "us", "is")))


def is_choice(question: str, names: tuple[str, str]) -> bool:
    """The question asks which of the two: "A or B" between them, or a which/who sentence after naming both."""
    a_end = _spans(question, names[0])[0][1]
    b_start = _spans(question, names[1])[0][0]
    if re.fullmatch(r"[\s,]*or\s+(?:the\s+)?", question[a_end:b_start], re.IGNORECASE):
        return True
    last = re.split(r"(?<=[.!?])\s+", question.strip())[-1]
    return bool(WHICH_START.match(last)) or bool(WHICH_START.match(question.strip()))


def date_lookup(text: str) -> str | None:
    """The date question for the last event word of `text`, or None."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    return next((DATE_EVENTS[w] for w in reversed(words) if w in DATE_EVENTS), None)


def _date_lookups(question: str, names: tuple[str, str]) -> tuple[str, str]:
    """Each name's date question: the event word just before it ("the forming of A or the birth of B"), else the
    question's, else the default."""
    a_start, a_end = _spans(question, names[0])[0]
    b_start = _spans(question, names[1])[0][0]
    common = date_lookup(without_names(question, names)) or DATE_DEFAULT
    own = (date_lookup(question[:a_start]), date_lookup(question[a_end:b_start]))
    return (own[0] or common).format(name=names[0]), (own[1] or common).format(name=names[1])


def detect_comparison(question: str, paragraphs: Sequence[Paragraph]) -> Comparison | None:
    """The comparison the question asks for, from its text only; None when it is not one of the shapes above."""
    names = question_names(question, paragraphs)
    if names is None or not all(_spans(question, n) for n in names):
        return None
    rest = without_names(question, names)
    if RELATED_ENTITY.search(rest):
        return None
    if is_yes_no(question):
        return _yes_no_comparison(question, names, rest)
    kind = choice_kind(rest)
    if kind is None or not is_choice(question, names):
        return None
    return Comparison(kind, names, spelled_names(question, names), _lookups(question, kind, names), yes_no=False)


def spelled_names(question: str, names: tuple[str, str]) -> tuple[str, str]:
    out = []
    for name in names:
        start, end = _spans(question, name)[0]
        qualifier = re.match(r"\s*\([^()]*\)", question[end:])
        out.append(question[start : end + (qualifier.end() if qualifier else 0)])
    return out[0], out[1]


def _lookups(question: str, kind: Kind, names: tuple[str, str]) -> tuple[str, str]:
    if kind in ("earlier", "later"):
        return _date_lookups(question, names)
    return NUMBER_LOOKUP.format(name=names[0]), NUMBER_LOOKUP.format(name=names[1])


def _yes_no_comparison(question: str, names: tuple[str, str], rest: str) -> Comparison | None:
    same = _SAME_ATTRIBUTE.search(rest)
    if same is not None:
        attribute = same.group(1).strip()
        lookups = (
            SAME_LOOKUP.format(attribute=attribute, name=names[0]),
            SAME_LOOKUP.format(attribute=attribute, name=names[1]),
        )
        return Comparison("same", names, names, lookups, yes_no=True, attribute=attribute)
    if _has(rest, "than"):  # "Is A older than B?": yes when the first one wins
        kind = choice_kind(rest)
        if kind is None:
            return None
        return Comparison(kind, names, names, _lookups(question, kind, names), yes_no=True)
    a_end = _spans(question, names[0])[0][1]
    b_start, b_end = _spans(question, names[1])[0]
    joined = re.fullmatch(r"\s*,?\s*and\s+(?:the\s+)?", question[a_end:b_start], re.IGNORECASE)
    if not (_has(rest, "both") or joined):
        return None
    predicate = re.sub(r"^\s*both\b", "", question[b_end:], flags=re.IGNORECASE).strip(" ?.,")
    if not predicate or not joined:
        return None
    auxiliary = question.split()[0].lower()
    verb = SINGULAR_AUXILIARY.get(auxiliary, auxiliary).capitalize()
    lookups = (f"{verb} {names[0]} {predicate}?", f"{verb} {names[1]} {predicate}?")
    return Comparison("both", names, names, lookups, yes_no=True, attribute=predicate)
