"""Asking questions of a corpus (a dataset folder): the corpus-wide entity index, joined KGs, one-question answers,
and the dialogue state of a conversation. Entry point: `Corpus.answer(question, doc_id=None) -> CorpusAnswer`."""

from kgreason.corpus.answer import Corpus, CorpusAnswer, EvidenceStep
from kgreason.corpus.index import CorpusIndex, CorpusLink, DocumentChoice

__all__ = ["Corpus", "CorpusAnswer", "CorpusIndex", "CorpusLink", "DocumentChoice", "EvidenceStep"]
