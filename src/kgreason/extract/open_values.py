"""Dates and quantities a sentence states that no triple holds, attributed by the program.

A small model lists a few facts per sentence and stops: in a dense sentence (`奥地利空军订购15架，2007年开始接收；
沙特阿拉伯皇家空军订购72架…`) most values stay unlisted. Two ways of asking the embedded 1.5B model for them were
measured and gave nothing (`docs/extract.md`, "Open values"): asked again for "the other facts", it repeated the
ones listed; asked whose each value is, from a list of the sentence's names, it chose the first name for every value
and a relation at random. So the program attributes them itself, from Chinese word order: the parsers found the
value, the name that begins its clause (the clause's subject, or the previous clause's when the subject is left
out) is its owner, and what the clause says between them (or, for a date, the verb after it) is the relation. The
triples are grounded like the model's, so every one still cites its sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgreason.data.provenance import Sentence
from kgreason.extract.grounding import Grounded, pronoun_in
from kgreason.extract.lines import RawTriple
from kgreason.extract.prompt import is_chinese
from kgreason.extract.values import ORDINAL_PREFIXES, TIME_TYPE, ValueMention, value_type
from kgreason.text.normalize import normalize_text
from kgreason.text.overlap import occurrences


def open_values(sentence: str, values: Sequence[ValueMention], cited: Sequence[Grounded]) -> list[ValueMention]:
    """The values of `sentence` that no mention of its triples (`cited`) overlaps; an ordinal (`第二架原型机`) is
    no quantity."""
    spans = [(m.start, m.end) for g in cited for m in (g.sub, g.obj)]
    held = {normalize_text(g.obj.name) for g in cited}  # the same value written twice is held once
    return [
        v
        for v in values
        if not any(a < v.end and v.start < b for a, b in spans)
        and not sentence[: v.start].endswith(ORDINAL_PREFIXES)
        and normalize_text(v.text) not in held
    ]


def name_candidates(sentence: Sentence, cited: Sequence[Grounded], earlier: Sequence[Grounded]) -> list[str]:
    """The names a value of `sentence` may belong to: the names its triples use and the names of the document's
    earlier triples it spells (no values)."""
    names = [n for g in [*cited, *earlier] for n in (g.sub.name, g.obj.name) if value_type(n) is None]
    return [n for n in dict.fromkeys(names) if n in sentence.text]


def topic_before(sentence: Sentence, earlier: Sequence[Grounded]) -> str | None:
    """The subject of the latest triple of an earlier sentence: what a pronoun of `sentence` continues."""
    before = [g for g in earlier if g.sentence.index < sentence.index]
    return before[-1].sub.name if before else None


_CLAUSE_ENDS = "，,；;：:。！？!?"
# Function words trimmed off the words that name a value's relation (`订购`, `于…首飞`, `为…`, `约…`).
_LINKING = "于在为是的约达共有了将"
_DATE_RELATION_SUFFIX = "时间"  # a date's relation as annotators write it: `首飞` -> `首飞时间`
_RELATIVE = "的"  # `2014年举行的环太平洋-2014`: the date is the following name's
_OPENING_MARKS = " “”\"'「『（("
# `其中`, `其他`: words, not the pronoun `其`
NOT_PRONOUNS: tuple[str, ...] = ("其中", "其他", "其余", "其实", "其次")
ARTICLE_NUMERAL = "一"  # `一次`, `一枚`: the numeral one before a measure word is an article, not a count
MIN_RELATION_CHARS = 2
MAX_RELATION_WORDS = 8


def _mentions(text: str, names: Sequence[str], topic: str | None) -> list[tuple[int, int, str]]:
    """Where the names stand in `text` (longest first, no overlaps); a pronoun stands for the nearest name before
    it that ends with its noun (`埃拉米行动…该行动`), else for the topic."""
    taken: list[tuple[int, int, str]] = []
    for name in sorted(names, key=len, reverse=True):
        for at in occurrences(text, name):
            if not any(a < at + len(name) and at < b for a, b, _ in taken):
                taken.append((at, at + len(name), name))
    where = pronoun_in(text)
    if where is not None and text[where[0] :].startswith(NOT_PRONOUNS):
        where = None
    if where is not None and not any(a < where[1] and where[0] < b for a, b, _ in taken):
        noun = text[where[1] : where[1] + 2]
        earlier = [n for a, _, n in sorted(taken) if a < where[0] and len(noun) == 2 and n.endswith(noun)]
        meant = earlier[-1] if earlier else topic
        if meant is not None:
            taken.append((where[0], where[1] + (len(noun) if earlier else 0), meant))
    return sorted(taken)


def _clauses(text: str) -> list[tuple[int, int]]:
    """The spans between clause ends."""
    out, lo = [], 0
    for i, ch in enumerate(text):
        if ch in _CLAUSE_ENDS:
            out.append((lo, i))
            lo = i + 1
    return [*out, (lo, len(text))]


def _opening(mentions: Sequence[tuple[int, int, str]], text: str, lo: int, hi: int) -> tuple[int, str] | None:
    """(end, name) of the name that begins the clause `text[lo:hi]` (after spaces and quotes), if one does."""
    start = lo + len(text[lo:hi]) - len(text[lo:hi].lstrip(_OPENING_MARKS))
    return next(((b, n) for a, b, n in mentions if a == start and b <= hi), None)


def _relation(words: str) -> str:
    return words.strip(_LINKING + " ")


def _fits(relation: str) -> bool:
    return MIN_RELATION_CHARS <= len(relation) <= MAX_RELATION_WORDS and not any(ch.isdigit() for ch in relation)


def _dated(relation: str) -> str:
    return relation if relation.endswith(_DATE_RELATION_SUFFIX) else relation + _DATE_RELATION_SUFFIX


def attributed(
    sentence: Sentence, still_open: Sequence[ValueMention], names: Sequence[str], topic: str | None
) -> list[RawTriple]:
    """Each open value of a Chinese sentence as `name|relation|value`, from word order:
    - a date before `VERB的NAME` is that name's (`2014年举行的环太平洋-2014` -> `举行时间`);
    - else the value belongs to the name that begins its clause, or the clause before when its own names none
      before the value (`奥地利空军订购15架，2007年开始接收`); a date's relation is the verb after it
      (`开始接收时间`), else, as a quantity's, the words between the name and the value (`订购`, `满载排水量`);
    - a quantity must end its clause (`两座预警雷达站` counts the stations, it is no attribute), and `一` before a
      measure word is an article (`执行了一次`).
    A value with no such name, or whose relation words are none or too many, is left."""
    text = sentence.text
    if not is_chinese(text):
        return []
    mentions = _mentions(text, names, topic)
    clauses = _clauses(text)
    out: list[RawTriple] = []
    for v in still_open:
        if v.type != TIME_TYPE and (v.text.startswith(ARTICLE_NUMERAL) and len(v.text) == 2):
            continue
        k = next(i for i, (lo, hi) in enumerate(clauses) if lo <= v.start <= hi)
        lo, hi = clauses[k]
        after = [m for m in mentions if v.end <= m[0] < hi]
        if v.type == TIME_TYPE and after:
            words = text[v.end : after[0][0]]
            if words.endswith(_RELATIVE) and _fits(rel := _relation(words)):
                out.append(RawTriple(sentence.index, after[0][2], _dated(rel), v.text))
                continue
        if v.type != TIME_TYPE and text[v.end : hi].strip():
            continue
        # the owner begins the value's clause (a name inside it may be cut from a longer one: `阿曼皇家空军`), or the
        # clause before, whose topic goes on only into a clause without a subject of its own: no name, no `的`
        # phrase, only the value's own relation words before it (`奥地利空军订购15架，2007年开始接收`, `全长153.8米`;
        # not `但双方的合作于1982年破裂`)
        lead = _relation(text[lo : v.start])
        subjectless = not any(lo <= a and b <= v.start for a, b, _ in mentions) and _RELATIVE not in lead
        owner = _opening(mentions, text, lo, v.start) or (
            _opening(mentions, text, *clauses[k - 1]) if k and subjectless and len(lead) <= MAX_RELATION_WORDS else None
        )
        if owner is None:
            continue
        end, name = owner
        words = _relation(text[max(end, lo) : v.start])  # between the owner and the value
        if v.type == TIME_TYPE:
            verb = _relation(text[v.end : after[0][0] if after else hi])
            if verb and not _fits(verb):
                continue
            words = verb or words
        if words and _fits(words.removesuffix(_DATE_RELATION_SUFFIX) or words):
            relation = _dated(words) if v.type == TIME_TYPE else words
            out.append(RawTriple(sentence.index, name, relation, v.text))
    return out
