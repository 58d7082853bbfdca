"""A comparison of two entities by an attribute of a related entity, answered by parts: "Which film has the director
born earlier, A or B?", "Which film whose director is younger, A or B?".

`textqa.comparison` leaves these to the single reader (one lookup per film would answer about the films). Here the
program makes the first hop of each: the relation the question names before the comparison ("director": an
entity-valued label of `textqa.wiki_relations`, found by `textqa.evidence`) is read in each named entity's own
paragraph — the sentence naming another paragraph's subject with a phrase of that relation nearest to the name
("directed by S. R. Puttanna Kanagal") gives the related entity. Then each related entity gets the comparisons'
lookup (`textqa.by_parts`, shown its own paragraph, never the other's), the program compares the two values, and
the answer is the named entity whose related one wins, spelled as the question spells it.

Supporting facts: the two hop sentences and each lookup's first citation; the evidence: (entity, relation, related
entity) for both, and (related entity, compared attribute, value) for both. Nothing found (no relation named, an
entity without its own paragraph, no related paragraph named with the relation) means no such comparison: the
caller goes on to the other paths; a lookup that cannot be decided falls back to the single reader as a comparison
does. Only the question's text and the paragraphs are read, never a dataset's `type` field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kgreason.llm.types import LLM
from kgreason.textqa.answers import PathAnswer, Step
from kgreason.textqa.bridge import subject
from kgreason.textqa.by_parts import ask_both, decide, lookup_context, lookup_fact
from kgreason.textqa.comparison import (
    DATE_DEFAULT,
    NUMBER_LOOKUP,
    RELATED_ENTITY,
    Comparison,
    choice_kind,
    date_lookup,
    is_choice,
    question_names,
    spelled_names,
    without_names,
)
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.evidence import blank_names, comparison_evidence, phrase_spans, relation_mentions
from kgreason.textqa.reader import is_yes_no
from kgreason.textqa.records import Paragraph
from kgreason.textqa.support import mention_span
from kgreason.textqa.wiki_relations import BY_LABEL


@dataclass(frozen=True, slots=True)
class RelatedComparison:
    """The named entities' comparison (`named`), the relation leading to the related entities, their paragraphs,
    and the lookups about the related entities (`related`: its names are theirs, its `spelled` the named ones')."""

    named: Comparison
    relation: str
    own: tuple[Paragraph, Paragraph]  # each named entity's paragraph
    hops: tuple[int, int]  # the sentence of each own paragraph naming its related entity
    targets: tuple[Paragraph, Paragraph]  # the related entities' paragraphs
    related: Comparison


def hop_relation(question: str, names: Sequence[str]) -> str | None:
    """The first entity-valued relation the question names (names blanked): the hop to the related entity."""
    for mention in relation_mentions(blank_names(question, names)):
        label = next((lb for lb in mention.labels if BY_LABEL[lb].kind == "entity"), None)
        if label is not None:
            return label
    return None


def related_paragraph(
    own: Paragraph, relation: str, paragraphs: Sequence[Paragraph], excluded: set[str]
) -> tuple[Paragraph, int] | None:
    """The paragraph `own` names with a phrase of `relation` nearest to the name, and the sentence naming it; None
    when no sentence names another paragraph's subject together with such a phrase."""
    best: tuple[int, int, int] | None = None
    found: dict[int, tuple[Paragraph, int]] = {}
    for other in paragraphs:
        name = subject(other)
        if name.lower() in excluded or name.lower() == subject(own).lower():
            continue
        for i, sentence in enumerate(own.sentences):
            span = mention_span(sentence, name)
            if span is None:
                continue
            gaps = [
                max(span[0] - end, start - span[1], 0)
                for phrase in BY_LABEL[relation].phrases
                for start, end in phrase_spans(sentence, phrase)
            ]
            if gaps:
                key = (min(gaps), i, other.index)
                found[other.index] = (other, i)
                if best is None or key < best:
                    best = key
    return found[best[2]] if best is not None else None


def detect_related_comparison(question: str, paragraphs: Sequence[Paragraph]) -> RelatedComparison | None:
    """The related-entity comparison the question asks for, or None (see the module's description)."""
    names = question_names(question, paragraphs)
    if names is None or is_yes_no(question) or not all(mention_span(question, n) for n in names):
        return None
    rest = without_names(question, names)
    kind = choice_kind(rest)
    if not RELATED_ENTITY.search(rest) or kind is None or not is_choice(question, names):
        return None
    relation = hop_relation(question, names)
    if relation is None:
        return None
    first = next((p for p in paragraphs if subject(p).lower() == names[0].lower()), None)
    second = next((p for p in paragraphs if subject(p).lower() == names[1].lower()), None)
    if first is None or second is None:
        return None
    own = (first, second)
    excluded = {n.lower() for n in names}
    hops = [related_paragraph(p, relation, paragraphs, excluded) for p in own]
    if hops[0] is None or hops[1] is None or hops[0][0].index == hops[1][0].index:
        return None
    targets = (hops[0][0], hops[1][0])
    people = (subject(targets[0]), subject(targets[1]))
    template = (date_lookup(rest) or DATE_DEFAULT) if kind in ("earlier", "later") else NUMBER_LOOKUP
    named = Comparison(kind, names, spelled_names(question, names), ("", ""), yes_no=False)
    related = Comparison(
        kind,
        people,
        named.spelled,
        (template.format(name=people[0]), template.format(name=people[1])),
        yes_no=False,
    )
    return RelatedComparison(named, relation, own, (hops[0][1], hops[1][1]), targets, related)


def related_by_parts(
    llm: LLM,
    question: str,
    found: RelatedComparison,
    sentences: Sequence[ContextSentence],
    shown: Sequence[ContextSentence],
) -> PathAnswer | None:
    """The comparison answered from the two hops and two lookups (`sentences`: all of the item's, keys `S<n>`);
    None when it cannot be decided, so the caller falls back; an empty answer with the failure when the server was
    down or slow."""
    hop_keys = [
        next((s.key for s in sentences if s.paragraph.index == p.index and s.sentence.index == i), None)
        for p, i in zip(found.own, found.hops, strict=True)
    ]
    if None in hop_keys:
        return None
    both = ask_both(llm, question, found.related, sentences, shown)
    if not isinstance(both, tuple):
        return both
    answer = decide(found.related, *both)
    if answer is None:
        return None
    position = {s.key: i for i, s in enumerate(sentences)}
    support = sorted(
        {k for k in hop_keys if k is not None} | {x.sentences[0] for x in both},
        key=lambda k: position.get(k, len(position)),
    )
    hop_steps = tuple(
        Step(f"Who is the {found.relation} of {name}?", subject(target), (key,))
        for name, target, key in zip(found.named.names, found.targets, hop_keys, strict=True)
        if key is not None
    )
    verdict = Step(
        f"Compare ({found.related.kind}): {both[0].name} = {both[0].value}; {both[1].name} = {both[1].value}",
        answer,
        (),
    )
    lookups = tuple(Step(x.question, x.value, x.sentences) for x in both)
    titles = list(dict.fromkeys(s.paragraph.title for s in sentences))
    facts = [lookup_fact(x, sentences) for x in both]
    attribute = comparison_evidence(
        question,
        [*found.named.names, *found.related.names],
        facts,
        date=found.related.kind in ("earlier", "later"),
        titles=titles,
        exclude=(found.relation,),
    )
    hops = tuple((p.title, found.relation, t.title) for p, t in zip(found.own, found.targets, strict=True))
    shown_keys = {s.key for i in (0, 1) for s in lookup_context(found.related, i, sentences, shown)}
    return PathAnswer(
        path="baseline",
        answer=answer,
        sentences=tuple(support),
        steps=(*hop_steps, *lookups, verdict),
        steps_source="comparison-by-parts",
        evidence=(*hops, *attribute),
        shown=len(shown_keys) + len(hop_keys),
    )
