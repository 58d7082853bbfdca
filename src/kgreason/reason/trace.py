"""One JSON object per question explaining the answer: linked entities, constraints, the candidates with their
scores, the LLM's part, and the final chain with each triple's source sentence in the document."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kgreason.data.records import DERIVED_RELATIONS, AnswerRecord, PathTriple, Question
from kgreason.kg.index import KGIndex
from kgreason.reason.analysis import Analysis
from kgreason.reason.candidate import Candidate
from kgreason.reason.generate import ScoredChain
from kgreason.reason.llm_choice import LLMDecision
from kgreason.reason.textmap import map_text
from kgreason.text.normalize import normalize_text

TOP_CHAINS_IN_TRACE = 5
_SENTENCE_END = re.compile(r"[。！？；!?;\n]")


@dataclass(frozen=True, slots=True)
class Sentence:
    start: int  # character offset in the document
    text: str
    norm: str


class SentenceFinder:
    """Sentences of one document, for locating where a triple was stated."""

    def __init__(self, content: str) -> None:
        self.sentences: list[Sentence] = []
        start = 0
        for m in _SENTENCE_END.finditer(content):
            self._add(content, start, m.end())
            start = m.end()
        self._add(content, start, len(content))

    def _add(self, content: str, start: int, end: int) -> None:
        text = content[start:end]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            self.sentences.append(Sentence(start + lead, text.strip(), map_text(text.strip()).norm))

    def find(self, triple: PathTriple) -> Sentence | None:
        """The sentence that mentions both ends (best effort: else the one with the head and most of the tail)."""
        h, r, t = (normalize_text(x) for x in triple)
        best: tuple[float, Sentence] | None = None
        for s in self.sentences:
            score = 0.0
            score += 2.0 if h and h in s.norm else 0.0
            score += 2.0 if t and t in s.norm else 0.0
            score += 0.5 if r and r in s.norm else 0.0
            if score and (best is None or score > best[0]):
                best = (score, s)
        return best[1] if best and best[0] >= 2.0 else None

    @staticmethod
    def ends_named(triple: PathTriple, sentence: Sentence) -> str:
        """Which ends of `triple` the sentence names: "both", "head" or "tail" (a sentence found by `find` names
        at least one; many state a fact about an entity named in the sentence before)."""
        h, t = normalize_text(triple[0]), normalize_text(triple[2])
        has_h, has_t = bool(h) and h in sentence.norm, bool(t) and t in sentence.norm
        return "both" if has_h and has_t else "head" if has_h else "tail"


def _chain_json(sc: ScoredChain) -> dict[str, Any]:
    return {
        "triples": [list(t) for t in sc.chain.triples],
        "score": round(sc.score.total, 4),
        "coverage": round(sc.score.coverage, 3),
        "relation": round(sc.score.mean_relation, 3),
        "answer_kind": sc.score.answer_kind,
        "external": round(sc.score.external, 3),
    }


def _candidate_json(i: int, c: Candidate) -> dict[str, Any]:
    return {
        "id": f"C{i + 1}",
        "answers": list(c.answers),
        "score": round(c.score, 4),
        "origin": c.origin,
        "path": [list(t) for t in c.main],
        "checks": [
            {
                "kind": k.kind,
                "key": k.key,
                "value": k.value,
                "ok": k.ok,
                "derived": [list(t) for t in k.derived],
                "note": k.note,
            }
            for k in c.checks
        ],
    }


def trace_entry(
    q: Question,
    index: KGIndex,
    analysis: Analysis,
    scored: list[ScoredChain],
    shown: list[Candidate],
    decision: LLMDecision,
    record: AnswerRecord,
    sentences: SentenceFinder,
    seconds: float,
) -> dict[str, Any]:
    evidence: list[dict[str, Any]] = []
    for t in record.main_path:
        item: dict[str, Any] = {"triple": list(t)}
        if t[1] in DERIVED_RELATIONS and not index.contains_triple(t):
            item["derived"] = True
        else:
            s = sentences.find(t)
            item["sentence"] = s.text if s else None
            item["offset"] = s.start if s else None
            item["names"] = sentences.ends_named(t, s) if s else None
        evidence.append(item)
    return {
        "query_id": q.query_id,
        "doc_id": q.doc_id,
        "question": q.question,
        "difficulty": q.difficulty,
        "status": "ok",
        "linked": [
            {"text": m.text, "node": index.name(m.key), "how": m.how, "score": m.score} for m in analysis.mentions
        ],
        "form": analysis.form,
        "residual": analysis.residual,
        "constraints": {
            "time": [
                {"text": w.text, "relation": w.relation, "bound": w.operand or w.anchor_key} for w in analysis.times
            ],
            "numeric": [
                {"text": n.text, "attribute": n.attribute, "relation": n.relation, "operand": n.operand}
                for n in analysis.numerics
            ],
            "order": analysis.order.text if analysis.order else (analysis.comparative_text or None),
            "roles": dict(analysis.roles),
        },
        "top_chains": [_chain_json(sc) for sc in scored[:TOP_CHAINS_IN_TRACE]],
        "candidates": [_candidate_json(i, c) for i, c in enumerate(shown)],
        "llm": {
            "asked": decision.asked,
            "chosen": f"C{decision.chosen + 1}" if shown else None,
            "reason": decision.reason,
            "model": decision.model,
            "prompt_tokens": decision.prompt_tokens,
            "completion_tokens": decision.completion_tokens,
            "seconds": round(decision.seconds, 3),
            "failure": decision.failure,
        },
        "answer": record.to_json(),
        "evidence": evidence,
        "seconds": round(seconds, 4),
    }
