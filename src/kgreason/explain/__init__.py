"""One question's answer made readable for a person: evidence triples tied to their source sentences, constraints
marked satisfied or not, the candidates that lost, the LLM's cost (`answer_question`); a document's sentences with
offsets and a KG neighbourhood (`document_sentences`, `neighbourhood`). Used by `kgreason serve`; no web code here."""

from kgreason.explain.answer import (
    CandidateView,
    ConstraintView,
    EvidenceView,
    ExplainedAnswer,
    LLMUsageView,
    answer_question,
    explain_trace,
    question_for,
)
from kgreason.explain.document import Neighbourhood, SentenceSpan, document_sentences, neighbourhood

__all__ = [
    "CandidateView",
    "ConstraintView",
    "EvidenceView",
    "ExplainedAnswer",
    "LLMUsageView",
    "Neighbourhood",
    "SentenceSpan",
    "answer_question",
    "document_sentences",
    "explain_trace",
    "neighbourhood",
    "question_for",
]
