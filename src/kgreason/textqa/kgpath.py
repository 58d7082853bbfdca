"""The KG path: triples read from the retrieved sentences, ranked by relevance, and an LLM that picks the evidence
triples and the answer from a closed list of their ids.

Triples come from a `TripleSource`: `kgreason extract`'s reader (`extract.source.ExtractorSource`), or a fake in tests.
Nothing here invents triples: without a source the path does not run. The supporting facts are the sentences of the
chosen triples, 2Wiki's `evidence` the chosen triples themselves, and the sub-questions are the evidence chain (one
per triple: "<relation> of <subject>?" answered by its object).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from kgreason.data.provenance import Sentence, SourcedTriple
from kgreason.llm.types import LLM, ChatMessage
from kgreason.retrieve.base import Embedder
from kgreason.retrieve.lexical import BM25
from kgreason.textqa.answers import PathAnswer, Step
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.reader import ANSWER_CHARS, clean_answer, is_yes_no
from kgreason.textqa.retrieval import english_words

MAX_TRIPLES_SHOWN = 24
MAX_EVIDENCE = 4


@runtime_checkable
class TripleSource(Protocol):
    """Reads triples from sentences; every triple cites one of the given sentences (doc_id and index)."""

    def extract(self, sentences: Sequence[Sentence]) -> list[SourcedTriple]: ...


def _triple_text(t: SourcedTriple) -> str:
    return f"{t.triple.sub} {t.triple.relation} {t.triple.obj}"


def rank_triples(
    question: str, triples: Sequence[SourcedTriple], embedder: Embedder | None = None
) -> list[SourcedTriple]:
    """Most relevant first: BM25 over English words, plus e5 cosine when an embedder is given (scores summed after
    scaling each to [0, 1])."""
    if not triples:
        return []
    texts = [_triple_text(t) for t in triples]
    scores = _unit(BM25(texts, tokenize=english_words).scores(question))
    if embedder is not None:
        q = embedder.embed_queries([question])[0]
        dense = _unit([float(x) for x in embedder.embed_passages(texts) @ q])
        scores = [a + b for a, b in zip(scores, dense, strict=True)]
    order = sorted(range(len(triples)), key=lambda i: (-scores[i], i))
    return [triples[i] for i in order]


def _unit(values: list[float]) -> list[float]:
    low, high = min(values), max(values)
    return [(v - low) / (high - low) if high > low else 0.0 for v in values]


def kg_schema(ids: Sequence[str], *, yes_no: bool) -> dict[str, Any]:
    answer: dict[str, Any] = (
        {"type": "string", "enum": ["yes", "no"]} if yes_no else {"type": "string", "maxLength": ANSWER_CHARS}
    )
    return {
        "type": "object",
        "properties": {
            "triples": {
                "type": "array",
                "items": {"type": "string", "enum": list(ids)},
                "minItems": 1,
                "maxItems": MAX_EVIDENCE,
            },
            "answer": answer,
        },
        "required": ["triples", "answer"],
        "additionalProperties": False,
    }


def kg_messages(question: str, shown: Sequence[SourcedTriple], *, yes_no: bool) -> list[ChatMessage]:
    lines = "\n".join(
        f"[T{i}] ({t.triple.sub}; {t.triple.relation}; {t.triple.obj})" for i, t in enumerate(shown, start=1)
    )
    kind = 'The final answer is "yes" or "no".' if yes_no else "The answer is an entity, date or number."
    user = (
        f"Knowledge graph triples:\n{lines}\n\nQuestion: {question}\n{kind}\n"
        f"Choose the triples that together answer the question, in order from the question's entity to the answer "
        f"(at most {MAX_EVIDENCE}), then give the answer."
    )
    system = "You answer multi-hop questions using only the given knowledge graph triples. Reply with JSON only."
    return [ChatMessage("system", system), ChatMessage("user", user)]


def kg_answer(
    llm: LLM,
    question: str,
    sentences: Sequence[ContextSentence],
    source: TripleSource,
    embedder: Embedder | None = None,
) -> PathAnswer:
    by_ref = {(s.sentence.doc_id, s.sentence.index): s for s in sentences}
    triples = [t for t in source.extract([s.sentence for s in sentences]) if (t.doc_id, t.sentence) in by_ref]
    shown = rank_triples(question, triples, embedder)[:MAX_TRIPLES_SHOWN]
    if not shown:
        return PathAnswer("kg", "", (), (), "evidence-chain", (), 0)
    yes_no = is_yes_no(question)
    ids = [f"T{i}" for i in range(1, len(shown) + 1)]
    result = llm.complete_json(
        kg_messages(question, shown, yes_no=yes_no), kg_schema(ids, yes_no=yes_no), max_tokens=160
    )
    if not result.ok:
        return PathAnswer("kg", "", (), (), "evidence-chain", (), len(shown), failure=result.kind)
    chosen = [shown[ids.index(k)] for k in dict.fromkeys(result.value["triples"])]
    keys = [by_ref[(t.doc_id, t.sentence)].key for t in chosen]
    steps = tuple(
        Step(f"{t.triple.relation} of {t.triple.sub}?", t.triple.obj, (key,))
        for t, key in zip(chosen, keys, strict=True)
    )
    order = {s.key: i for i, s in enumerate(sentences)}
    return PathAnswer(
        path="kg",
        answer=clean_answer(str(result.value["answer"])),
        sentences=tuple(sorted(dict.fromkeys(keys), key=order.__getitem__)),
        steps=steps,
        steps_source="evidence-chain",
        evidence=tuple(t.triple.spo for t in chosen),
        shown=len(shown),
    )
