"""A bridge question's structure found in its text, so that it can be answered by parts (`textqa.bridge_parts`).

HotpotQA and 2WikiMultihopQA build a bridge question over two linked Wikipedia paragraphs: the question names the
first paragraph's subject (its title) and asks about an entity that the first paragraph's text names — the subject
of the second paragraph, where the answer is ("The writer of the song "Death of Samantha" was the second wife of what
singer?": the song's paragraph names Yoko Ono, whose paragraph names John Lennon). So:

1. the *named* paragraphs: their title, without Wikipedia's parenthesis, is in the question (a name inside a longer
   named one does not count);
2. when the question names exactly two paragraphs and one's text names the other, that is the chain (the one that
   names the other first; of two naming each other, the better-ranked);
3. otherwise the first paragraph is the best-ranked named one whose text names other paragraphs' subjects that the
   question does not name; those are the candidates for the second, ranked by the sentence of the first paragraph
   that names each (the link the question describes: "made his big screen debut in Love Forecast"), then by their
   own paragraph's match (both against the question without the first one's name).

Two named subjects joined by "and" / "or" (or a closing "…, A or B?") are two parallel entities — a comparison, not a
chain — and a yes/no question is not a bridge here; neither is a question with no named paragraph that names
another. Those go to the single-call reader. Only the question's text and the paragraphs are read, never a dataset's
`type` field.
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from kgreason.textqa.comparison import OR_TAIL
from kgreason.textqa.reader import is_yes_no
from kgreason.textqa.records import Paragraph
from kgreason.textqa.retrieval import bm25_scores
from kgreason.textqa.support import entity_name, mention_span, mentions

# Words joining two parallel names ("A and B", "A or B", "A, B").
_COORDINATION = re.compile(r"^\s*(?:,\s*)?(?:and|or|&|,)\s*(?:the\s+)?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Bridge:
    first: Paragraph  # the paragraph the question names
    candidates: tuple[Paragraph, ...]  # paragraphs the first one's text names: the second hop's, best first

    @property
    def second(self) -> Paragraph:
        return self.candidates[0]


def subject(paragraph: Paragraph) -> str:
    """The paragraph's subject as text names it: the title without Wikipedia's parenthesis and HTML escapes."""
    return entity_name(html.unescape(paragraph.title))


def named_subjects(question: str, paragraphs: Sequence[Paragraph]) -> list[Paragraph]:
    """The paragraphs whose subject the question names, without those whose name is only part of a longer named
    one ("Darkon" inside "Darkon Wargaming Club")."""
    named = [p for p in paragraphs if mentions(question, subject(p))]
    names = {subject(p).lower() for p in named}
    return [p for p in named if not any(o != subject(p).lower() and subject(p).lower() in o for o in names)]


def coordinated(question: str, named: Sequence[Paragraph]) -> bool:
    """Two named subjects joined by "and" / "or" / a comma, or a closing "…, A or B?": parallel entities."""
    if OR_TAIL.search(question):
        return True
    spans = sorted(s for p in named if (s := mention_span(question, subject(p))) is not None)
    return any(_COORDINATION.match(question[a[1] : b[0]]) for a, b in itertools.pairwise(spans))


def hop_sentence(first: Paragraph, second: Paragraph) -> int | None:
    """The index of the first paragraph's sentence that names the second's subject (the first such), if any."""
    name = subject(second)
    return next((i for i, s in enumerate(first.sentences) if mentions(s, name)), None)


def _best_sentence_score(sentence_scores: Sequence[float], first: Paragraph, other: Paragraph) -> float:
    """How well the sentences of `first` naming `other` match the question (the link it describes), given each
    sentence's score against the question."""
    name = subject(other)
    return max((x for x, s in zip(sentence_scores, first.sentences, strict=True) if mentions(s, name)), default=0.0)


def _without(question: str, name: str) -> str:
    return re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", question, flags=re.IGNORECASE)


def detect_bridge(question: str, paragraphs: Sequence[Paragraph]) -> Bridge | None:
    """The question's first paragraph and the candidates for its second, or None when the text shows no bridge."""
    if is_yes_no(question) or not paragraphs:
        return None
    named = named_subjects(question, paragraphs)
    if coordinated(question, named):
        return None
    scores = bm25_scores(question, [f"{subject(p)}: {p.text}" for p in paragraphs])
    ranked = [paragraphs[i] for i in sorted(range(len(paragraphs)), key=lambda i: (-scores[i], i))]
    named_ranked = [p for p in ranked if p in named]
    if len({subject(p).lower() for p in named_ranked}) == 2:  # step 2: a chain between the two subjects named
        for first in named_ranked:
            chained = [p for p in named_ranked if subject(p).lower() != subject(first).lower() and _names(first, p)]
            if chained:
                return Bridge(first, tuple(chained))
    for first in named_ranked:  # step 3: a named paragraph and the unnamed ones it names
        linked = [p for p in ranked if p not in named and _names(first, p) and not mentions(question, subject(p))]
        if linked:
            rest = _without(question, subject(first))
            own = bm25_scores(rest, [f"{subject(p)}: {p.text}" for p in linked])
            link = bm25_scores(rest, list(first.sentences))  # once: the same sentences for every candidate
            score = {id(p): (_best_sentence_score(link, first, p) + own[i], -i) for i, p in enumerate(linked)}
            linked.sort(key=lambda p: score[id(p)], reverse=True)
            return Bridge(first, tuple(linked))
    return None


def _names(first: Paragraph, other: Paragraph) -> bool:
    return subject(other).lower() != subject(first).lower() and mentions(first.text, subject(other))
