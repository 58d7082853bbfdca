"""A bridge question answered by parts: the program finds the chain, the reader makes one small lookup at its end.

The 1.5B reader, shown the ranked sentences of both hops, answers the bridge entity instead of what is asked (asked
the city of the band that released X, it answers the band) and cites one paragraph of a two-paragraph answer. For a
bridge found in the question's text (`textqa.bridge`) the program has already made the first hop: the first
paragraph's sentence that names the second paragraph's subject. The reader is then shown that sentence and the
second paragraph — nothing else — told which entity the question's description leads to, and asked for the value the
question asks with the ids of the sentences stating it (one call under a JSON schema). If the question asks for the
bridge entity itself ("starred which Canadian actress…?"), that entity is the answer.

The supporting facts are the hop sentence and the reader's first citation in the second paragraph
(`SUPPORT_CITATIONS`), else that paragraph's first sentence; the answer's steps are the two hops. When the reply is
unusable (no answer, or a call failing for a reason a retry would repeat) the answer is None and the caller falls
back to the single-call reader; a server down or slow gives an empty answer with its failure, as the single reader's
would, so a resume asks again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgreason.llm.types import LLM, ChatMessage
from kgreason.textqa.answers import RETRYABLE_FAILURES, PathAnswer, Step
from kgreason.textqa.bridge import Bridge, hop_sentence, subject
from kgreason.textqa.context import ContextSentence
from kgreason.textqa.evidence import bridge_evidence
from kgreason.textqa.reader import ANSWER_CHARS, SYSTEM, cited_ids_schema, clean_answer, render_sentences

OWN_SENTENCES = 8  # of the second paragraph (HotpotQA's paragraphs have 3-6)
# The reader's citations kept as supporting facts besides the hop sentence: its first only (one value, one sentence;
# the reader tends to add the paragraph's other sentences), as the comparisons' lookups measured best.
SUPPORT_CITATIONS = 1


def hop_context(
    bridge: Bridge, sentences: Sequence[ContextSentence]
) -> tuple[ContextSentence, list[ContextSentence]] | None:
    """The first paragraph's sentence naming the bridge entity, and the second paragraph's sentences; None when
    either is missing from the item's sentences."""
    index = hop_sentence(bridge.first, bridge.second)
    hop = next(
        (s for s in sentences if s.paragraph.index == bridge.first.index and s.sentence.index == index),
        None,
    )
    second = [s for s in sentences if s.paragraph.index == bridge.second.index and s.sentence.index < OWN_SENTENCES]
    if hop is None or not second:
        return None
    return hop, second


def bridge_schema(keys: Sequence[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "answer": {"type": "string", "maxLength": ANSWER_CHARS},
            "sentences": cited_ids_schema(keys),
        },
        "required": ["answer", "sentences"],
        "additionalProperties": False,
    }


def bridge_messages(
    question: str, bridge: Bridge, hop: ContextSentence, second: Sequence[ContextSentence]
) -> list[ChatMessage]:
    entity, first = subject(bridge.second), subject(bridge.first)
    user = (
        f"Sentences:\n{render_sentences([hop, *second])}\n\n"
        f"Question: {question}\n"
        f"The question goes from {first} to {entity}: sentence [{hop.key}] about {first} names {entity}, and the "
        f"other sentences are about {entity}. Answer what the question asks, as the sentences about {entity} "
        f'state it; if the question asks for {entity} itself, answer "{entity}".\n'
        "Reply with answer: a short answer copied from the sentences; sentences: the ids of the sentences that "
        "state it."
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]


def bridge_by_parts(llm: LLM, question: str, bridge: Bridge, sentences: Sequence[ContextSentence]) -> PathAnswer | None:
    """The bridge question answered over its second paragraph (`sentences`: all of the item's, keys `S<n>`); None
    when it cannot be, so the caller falls back."""
    context = hop_context(bridge, sentences)
    if context is None:
        return None
    hop, second = context
    shown = [hop, *second]
    result = llm.complete_json(
        bridge_messages(question, bridge, hop, second), bridge_schema([s.key for s in shown]), max_tokens=120
    )
    if not result.ok:
        if result.kind in RETRYABLE_FAILURES:
            return PathAnswer("baseline", "", (), (), "bridge-by-parts", (), len(shown), failure=result.kind)
        return None
    answer = clean_answer(str(result.value["answer"]))
    cited = tuple(dict.fromkeys(str(k) for k in result.value["sentences"]))
    if not answer or not cited:
        return None
    # Supporting facts: the hop sentence and the reader's first citation(s) about the bridge entity; when it cites
    # none of those (the answer read in the hop sentence, or the entity itself asked), the second paragraph's first
    # sentence, which names the entity the answer rests on.
    own = {s.key for s in second}
    kept = [k for k in cited if k in own][:SUPPORT_CITATIONS] or [second[0].key]
    position = {s.key: i for i, s in enumerate(sentences)}
    support = sorted({hop.key, *kept}, key=lambda k: position.get(k, len(position)))
    entity = subject(bridge.second)
    steps = (
        Step(f"Which entity named by {subject(bridge.first)} does the question lead to?", entity, (hop.key,)),
        Step(question, answer, cited),
    )
    by_key = {s.key: s for s in shown}
    evidence = bridge_evidence(
        question,
        (bridge.first.title, subject(bridge.first)),
        (bridge.second.title, entity),
        answer,
        hop.text,
        [by_key[k].text for k in cited if k in by_key],
        list(dict.fromkeys(s.paragraph.title for s in sentences)),
    )
    return PathAnswer(
        path="baseline",
        answer=answer,
        sentences=tuple(support),
        steps=steps,
        steps_source="bridge-by-parts",
        evidence=evidence,
        shown=len(shown),
    )
