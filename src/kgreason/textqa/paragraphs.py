"""Choosing the paragraphs a multi-hop question rests on, to show them to the reader whole.

HotpotQA's questions are built over two linked Wikipedia paragraphs: a *comparison* names both subjects (the two
paragraphs' titles) in the question; a *bridge* question names the first paragraph's subject, whose text names the
second paragraph's subject (or the other way round). So the choice is:

1. rank the paragraphs against the question (`title: text`, by the run's retriever);
2. when the question names the titles of two or more paragraphs, the best-ranked two of those come first;
3. otherwise the best-ranked paragraph comes first, followed by the best-ranked other paragraph *linked* to it — its
   title (without Wikipedia's parenthesis) is named in the first's text, or it names the first's title;
4. then the rest of the ranking; the first `n` are shown.

Measured without a model on HotpotQA (both gold paragraphs among the first two): BM25 alone 0.30 / 0.50 on items 50-99
/ 0-49, with steps 2-3 0.64 / 0.72 (the rule was designed on 50-99 and 2Wiki; `docs/textqa.md`). General mechanisms
only: titles, names and the ranking, no words of particular questions.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgreason.retrieve.base import Embedder
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.records import Paragraph
from kgreason.textqa.retrieval import RetrieverName, rank_texts
from kgreason.textqa.support import entity_name, mentions

DEFAULT_PARAGRAPHS = 3


def paragraph_text(paragraph: Paragraph) -> str:
    return f"{paragraph.title}: {paragraph.text}"


def linked(first: Paragraph, other: Paragraph) -> bool:
    """One paragraph names the other's subject (its title without the parenthesised qualifier)."""
    return mentions(first.text, entity_name(other.title)) or mentions(other.text, entity_name(first.title))


def named_paragraphs(question: str, paragraphs: Sequence[Paragraph]) -> list[Paragraph]:
    """The paragraphs whose subject (title without the parenthesised qualifier) the question names, in the given
    order."""
    return [p for p in paragraphs if mentions(question, entity_name(p.title))]


def order_paragraphs(question: str, ranked: Sequence[Paragraph]) -> list[Paragraph]:
    """The ranking with the question's pair first: two paragraphs the question names by title, else the best-ranked
    one and the best-ranked paragraph linked to it (steps 2-3 of the module's description)."""
    if not ranked:
        return []
    named = named_paragraphs(question, ranked)
    if len(named) >= 2:
        head = named[:2]
    else:
        first = ranked[0]
        partner = next((p for p in ranked[1:] if linked(first, p)), None)
        head = [first] if partner is None else [first, partner]
    return [*head, *(p for p in ranked if p not in head)]


def choose_paragraphs(
    question: str,
    paragraphs: Sequence[Paragraph],
    n: int,
    retriever: RetrieverName,
    embedder: Embedder | None = None,
) -> list[Paragraph]:
    """The `n` paragraphs to show, in the order chosen (the first two are the likeliest pair)."""
    order = rank_texts(question, [paragraph_text(p) for p in paragraphs], retriever, embedder)
    return order_paragraphs(question, [paragraphs[i] for i in order])[:n]


def paragraph_context(sentences: Sequence[ContextSentence], chosen: Sequence[Paragraph]) -> list[ContextSentence]:
    """Every sentence of the chosen paragraphs, in reading order (keys keep their positions in the item)."""
    wanted = {p.index for p in chosen}
    return [s for s in sentences if s.paragraph.index in wanted]
