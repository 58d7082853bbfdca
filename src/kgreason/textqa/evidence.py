"""Evidence triples written by the by-parts paths: what they already know, named with 2WikiMultihopQA's relations.

A comparison by parts knows its two entities (their paragraphs' titles), the attribute compared and each lookup's
value with the sentence stating it; a bridge by parts knows the first entity, the bridge entity and the answer; a
comparison of related entities (`textqa.related`) knows each entity, its related one and the latter's value. These
are the evidence triples `[subject, relation, object]` of 2Wiki's prediction file, the relation a Wikidata property
label of the vocabulary kept as data in `textqa.wiki_relations`. How a relation is found:

1. **Mentions.** The question (with the entities' names blanked) is searched for every phrase of the vocabulary, as
   whole words; overlapping matches keep the longest ("place of death" rather than its "death"); one phrase may
   name several labels ("born": date or place of birth) and a kinship phrase a chain of two ("paternal
   grandfather": father, father).
2. **Order.** English nests a chain of relations towards the entity asked about — "the place of death of the
   director of film X", "X's mother die" — so the mention nearest the first entity's name is the first hop.
3. **One label.** Of the labels one mention names, those whose kind fits the value read (a date or not) are kept,
   then those the question word asks for ("where": a place), then the one Wikipedia's life-span parenthesis ("(1
   May 1900 – 2 June 1980)": birth before the dash, death after it) or the stating sentence's other phrases point
   to; otherwise the first in the vocabulary's order.

Subjects and objects are written as the paragraphs write them: an entity with a paragraph by its title, a value as
the stating sentence spells it (the reader's value when the sentence contains it, else the sentence's date equal to
it). Nothing is invented: a hop whose relation the question does not name gets no triple.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgreason.textqa.answers import Step
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.support import entity_name, mention_span
from kgreason.textqa.values import english_date, english_dates
from kgreason.textqa.wiki_relations import BY_LABEL, COMPOSED, LIFESPAN, QUESTION_WORD_KINDS, RELATIONS, ValueKind

Triple = tuple[str, str, str]
# A date range inside one parenthesis, "(12 June 1929 – 2 June 2015)": the life-span convention (LIFESPAN).
_RANGE = re.compile(r"\(([^()]*?)\s*[–—]\s*([^()]*)\)")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class RelationMention:
    """A phrase of the vocabulary found in a text: the labels it can name, or the chain a kinship phrase composes."""

    start: int
    end: int
    labels: tuple[str, ...]  # in the vocabulary's order; empty for a kinship chain
    chain: tuple[str, str] | None = None


def phrase_spans(text: str, phrase: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", text, re.IGNORECASE)]


def relation_mentions(text: str) -> list[RelationMention]:
    """The vocabulary's phrases in `text`, in reading order; overlapping matches keep the longest."""
    labels: dict[tuple[int, int], list[str]] = {}
    chains: dict[tuple[int, int], tuple[str, str]] = {}
    for relation in RELATIONS:
        for phrase in relation.phrases:
            for span in phrase_spans(text, phrase):
                found = labels.setdefault(span, [])
                if relation.label not in found:
                    found.append(relation.label)
    for phrase, chain in COMPOSED.items():
        for span in phrase_spans(text, phrase):
            chains[span] = chain
    kept: list[tuple[int, int]] = []
    for span in sorted({*labels, *chains}, key=lambda s: (s[0] - s[1], s[0])):
        if not any(span[0] < e and s < span[1] for s, e in kept):
            kept.append(span)
    return [
        RelationMention(s, e, (), chains[(s, e)]) if (s, e) in chains else RelationMention(s, e, tuple(labels[(s, e)]))
        for s, e in sorted(kept)
    ]


def name_spans(text: str, name: str) -> list[tuple[int, int]]:
    """Where `text` names `name` (case-insensitive, whole words); when some of those start with a capital letter,
    only those ("the director of The Director": the second)."""
    if not name.strip():
        return []
    spans = phrase_spans(text, name)
    capital = [(s, e) for s, e in spans if text[s : s + 1].isupper()]
    return capital or spans


def blank_names(text: str, names: Sequence[str]) -> str:
    """`text` with each name's mentions (`name_spans`) replaced by spaces, positions kept, so that a name's words
    ("The Director") are not read as relations."""
    out = text
    for name in names:
        for start, end in name_spans(text, name):
            out = out[:start] + " " * (end - start) + out[end:]
    return out


def question_relations(question: str, names: Sequence[str]) -> list[RelationMention]:
    """The relations the question names (its entities' names blanked), nearest the first name first; in reading
    order when the first name is not in the question."""
    mentions = relation_mentions(blank_names(question, names))
    spans = name_spans(question, names[0]) if names else []
    if not spans:
        return mentions
    anchor = spans[0]

    def distance(m: RelationMention) -> int:
        return m.start - anchor[1] if m.start >= anchor[1] else anchor[0] - m.end

    return sorted(mentions, key=lambda m: (distance(m), m.start))


def question_kind(question: str) -> ValueKind | None:
    """The kind of value the question word asks for ("where": a place), if its first word says it."""
    words = question.strip().split(maxsplit=1)
    return QUESTION_WORD_KINDS.get(words[0].lower().strip(",?")) if words else None


def lifespan_role(value: str, texts: Sequence[str]) -> str | None:
    """The label Wikipedia's life-span parenthesis gives the date `value` in one of `texts`: the date of birth before
    the dash, the date of death after it; None when no such parenthesis holds it (or both sides do)."""
    date = english_date(value)
    if date is None:
        return None
    roles: set[str] = set()
    for text in texts:
        for m in _RANGE.finditer(text):
            before, after = english_dates(m.group(1)), english_dates(m.group(2))
            if before and before[-1].overlaps(date):  # the date right before the dash
                roles.add(LIFESPAN[0])
            if after and after[0].overlaps(date):  # the date right after it
                roles.add(LIFESPAN[1])
    return next(iter(roles)) if len(roles) == 1 else None


def resolve(
    labels: Sequence[str], *, value: str | None = None, texts: Sequence[str] = (), wanted: ValueKind | None = None
) -> str | None:
    """One label of those a mention names (step 3 of the module's description); None when it names none, or none
    whose kind fits the value (a date or not)."""
    candidates = [BY_LABEL[label] for label in labels if label in BY_LABEL]
    if value:  # a date relation needs a date, another relation something else ("published by" a house: no date)
        is_date = english_date(value) is not None
        candidates = [r for r in candidates if (r.kind == "date") == is_date]
    if len(candidates) > 1 and wanted is not None:
        candidates = [r for r in candidates if r.kind == wanted] or candidates
    if len(candidates) > 1 and value:
        role = lifespan_role(value, texts)
        candidates = [r for r in candidates if r.label == role] or candidates
    if len(candidates) > 1 and texts:
        shared = {p for r in candidates for p in r.phrases if sum(p in o.phrases for o in candidates) > 1}
        stated = [r for r in candidates if any(phrase_spans(t, p) for t in texts for p in r.phrases if p not in shared)]
        candidates = stated or candidates
    return candidates[0].label if candidates else None


def _normal(text: str) -> str:
    return _SPACES.sub(" ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


def entity_title(name: str, titles: Sequence[str]) -> str | None:
    """The paragraph title naming the entity `name`: the title itself or without its parenthesis equal to it, else
    the one title `name` contains with at most two words besides ("S. R. Puttanna Kanagal": "Puttanna Kanagal")."""
    normal = _normal(name)
    if not normal:
        return None
    exact = [t for t in titles if normal in (_normal(t), _normal(entity_name(t)))]
    if exact:
        return exact[0]
    inside = {
        t
        for t in titles
        if len(entity_name(t)) >= 3
        and mention_span(name, entity_name(t)) is not None
        and len(normal.split()) <= len(_normal(entity_name(t)).split()) + 2
    }
    return next(iter(inside)) if len(inside) == 1 else None


def spelled_value(value: str, texts: Sequence[str], titles: Sequence[str] = ()) -> str:
    """The value as the paragraphs write it: an entity's paragraph title; for a date, the stating sentence's date as
    precise as the sentence states it (the reader often keeps the year only); else the reader's words as the
    sentence spells them; else the reader's value."""
    value = value.strip().strip(".")
    title = entity_title(value, titles)
    if title is not None:
        return title
    date = english_date(value)
    if date is not None:  # the sentence's date within the reader's ("1933": "1 December 1933"), else overlapping it
        for text in texts:
            dates = english_dates(text)
            inside = [d for d in dates if date.lo <= d.lo and d.hi <= date.hi]
            overlapping = [d for d in dates if d.overlaps(date)]
            if inside or overlapping:
                return (inside or overlapping)[0].text
    for text in texts:
        at = text.lower().find(value.lower())
        if value and at >= 0:
            return text[at : at + len(value)]
    return value


@dataclass(frozen=True, slots=True)
class Fact:
    """One entity's value as a lookup read it: the entity's title, the value, the texts of the cited sentences."""

    title: str
    value: str
    texts: tuple[str, ...]
    lookup: str = ""  # the sub-question asked about the entity ("When was Ann Lee born?")


def attribute_relation(
    question: str, names: Sequence[str], facts: Sequence[Fact], *, date: bool, exclude: Sequence[str] = ()
) -> str | None:
    """The relation a comparison compares: the first the question names (names blanked) that fits a date
    comparison when `date`, resolved with the values read and their sentences; labels in `exclude` are skipped (a
    related-entity comparison's first hop)."""
    values = [f.value for f in facts if f.value]
    texts = [t for f in facts for t in f.texts]
    for mention in relation_mentions(blank_names(question, names)):
        labels = [label for label in mention.labels if label not in exclude]
        if date:
            labels = [label for label in labels if BY_LABEL[label].kind == "date"]
        label = resolve(labels, value=values[0] if values else None, texts=texts)
        if label is not None:
            return label
    return None


def fact_relation(fact: Fact, names: Sequence[str], *, date: bool, exclude: Sequence[str] = ()) -> str | None:
    """The relation the entity's own sub-question names, when it names exactly one that fits ("the forming of A or
    the birth of B": each its own); None otherwise (the question's then stands for both)."""
    found = set()
    for mention in relation_mentions(blank_names(fact.lookup, names)):
        labels = [label for label in mention.labels if label not in exclude]
        if date:
            labels = [label for label in labels if BY_LABEL[label].kind == "date"]
        label = resolve(labels, value=fact.value or None, texts=fact.texts)
        if label is not None:
            found.add(label)
    return next(iter(found)) if len(found) == 1 else None


def comparison_evidence(
    question: str,
    names: Sequence[str],
    facts: Sequence[Fact],
    *,
    date: bool,
    titles: Sequence[str],
    exclude: Sequence[str] = (),
) -> tuple[Triple, ...]:
    """One triple per entity: its title, the compared attribute's label (the one its own sub-question names, else
    the question's), its value as written; none for an entity whose relation is not in the vocabulary (`exclude`:
    labels that are not the attribute)."""
    common = attribute_relation(question, names, facts, date=date, exclude=exclude)
    triples = []
    for fact in facts:
        label = fact_relation(fact, names, date=date, exclude=exclude) or common
        if label is not None and fact.value:
            triples.append((fact.title, label, spelled_value(fact.value, fact.texts, titles)))
    return tuple(triples)


def bridge_evidence(
    question: str,
    first: tuple[str, str],
    second: tuple[str, str],
    answer: str,
    hop_text: str,
    cited: Sequence[str],
    titles: Sequence[str],
) -> tuple[Triple, ...]:
    """The chain's triples: (first, r1, bridge entity) and (bridge entity, r2, answer); `first` and `second` are
    (title, name as the text names it). Only the hops whose relation the question names; the second hop is left
    out when the answer is the bridge entity itself."""
    mentions = question_relations(question, [first[1]])
    itself = _normal(answer) in (_normal(second[1]), _normal(second[0]))
    r1: str | None
    r2: str | None
    if mentions and mentions[0].chain is not None:
        r1, r2 = mentions[0].chain
    elif itself:
        r1 = resolve(mentions[0].labels, value=second[1], texts=[hop_text]) if mentions else None
        r2 = None
    else:
        r1 = resolve(mentions[0].labels, value=second[1], texts=[hop_text]) if len(mentions) >= 2 else None
        last = mentions[1] if len(mentions) >= 2 else (mentions[0] if mentions else None)
        r2 = None
        if last is not None and last.labels:
            r2 = resolve(last.labels, value=answer, texts=cited, wanted=question_kind(question))
    triples: list[Triple] = []
    if r1 is not None:
        triples.append((first[0], r1, second[0]))
    if r2 is not None and not itself:
        triples.append((second[0], r2, spelled_value(answer, cited, titles)))
    return tuple(triples)


def step_evidence(steps: Sequence[Step], sentences: Sequence[ContextSentence]) -> tuple[Triple, ...]:
    """The single reader's steps that name a triple: a sub-question naming one paragraph's subject and one relation
    of the vocabulary, with an answer — (that title, the relation, the answer as the cited sentences spell it).
    A step naming two relations (the question restated) or none, or no subject, gives none."""
    titles = list(dict.fromkeys(s.paragraph.title for s in sentences))
    by_key = {s.key: s for s in sentences}
    triples: list[Triple] = []
    for step in steps:
        named = {entity_name(t).lower(): t for t in titles if mention_span(step.question, entity_name(t)) is not None}
        named = {k: t for k, t in named.items() if not any(k != o and k in o for o in named)}
        if len(named) != 1 or not step.answer:
            continue
        title = next(iter(named.values()))
        mentions = relation_mentions(blank_names(step.question, [entity_name(title)]))
        if len(mentions) != 1 or not mentions[0].labels:
            continue
        texts = [by_key[k].text for k in step.sentences if k in by_key]
        label = resolve(mentions[0].labels, value=step.answer, texts=texts, wanted=question_kind(step.question))
        triple = (title, label, spelled_value(step.answer, texts, titles)) if label is not None else None
        if triple is not None and triple not in triples:
            triples.append(triple)
    return tuple(triples)
