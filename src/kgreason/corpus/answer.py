"""Answering one question over a corpus: the one function other parts (`kgreason ask`, `chat`, `evalset`, the HTTP
server) call.

    corpus = Corpus.load(Path("examples/sample"), llm=None)
    result = corpus.answer("F-35C的翼展是多少？")          # doc_id=None: the corpus index finds the document(s)
    result.text, result.answers, result.evidence, result.constraints, result.to_json()

Without a doc_id the corpus index (`kgreason.corpus.index`) picks the document whose KG the question's names link
to, joined with any other document that holds a name the first lacks (`kgreason.corpus.join`); the reasoner
(`kgreason.reason`) answers over that KG, and each evidence triple is traced to its document and source sentence.
A question asking how an event went (`…的经过是什么`) gets an ordered account instead (`kgreason.corpus.account`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from kgreason.conventions import Conventions
from kgreason.corpus.account import AccountStep, event_account, is_account_question
from kgreason.corpus.index import CorpusIndex, CorpusLink, DocumentChoice
from kgreason.corpus.join import JoinedKG, join_kgs
from kgreason.corpus.sentences import locate
from kgreason.corpus.words import CLOSEST_PREFIX, NO_ANSWER, NOT_FOUND
from kgreason.data.loader import load_dataset
from kgreason.data.records import Dataset, Document, Level, PathTriple, Question
from kgreason.errors import KgreasonError
from kgreason.kg.index import KGIndex
from kgreason.llm.types import LLM
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import QuestionResult, Reasoner
from kgreason.text.normalize import normalize_text

AnswerKind = Literal["fact", "account", "not_found", "no_answer", "error"]
# An analyst's question carries no difficulty label; L2 runs the reasoner's full search (L1 would restrict it to
# one hop). Measured on the sample's 14 L1 questions asked as L2: 13 answers unchanged.
ASK_LEVEL: Level = "L2"
ASK_QUERY_ID = "ask"
# How much better (reasoner candidate score) the answer over a join must be to replace the chosen documents' own.
JOIN_MARGIN = 0.3


@dataclass(frozen=True, slots=True)
class EvidenceStep:
    """One triple of the evidence chain: where it was stated and in which sentence (None for a derived comparison
    the program computed, or when no sentence names both ends)."""

    triple: PathTriple
    doc_id: str | None
    sentence: str | None
    derived: bool = False
    date: str | None = None  # the step's date, in accounts

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"triple": list(self.triple), "doc_id": self.doc_id, "sentence": self.sentence}
        if self.derived:
            out["derived"] = True
        if self.date is not None:
            out["date"] = self.date
        return out


@dataclass(frozen=True, slots=True)
class CorpusAnswer:
    """The answer to one question over a corpus, with everything needed to check it."""

    question: str
    kind: AnswerKind  # fact | account (how an event went) | not_found (no name links) | no_answer | error
    text: str  # the answer for people: answers joined, an account, or the not-found message with closest names
    answers: tuple[str, ...] = ()
    answer_type: str = ""
    doc_ids: tuple[str, ...] = ()  # documents the answer was found in (several when their KGs were joined)
    evidence: tuple[EvidenceStep, ...] = ()
    constraints: dict[str, str] = field(default_factory=dict)
    links: tuple[CorpusLink, ...] = ()
    closest: tuple[str, ...] = ()  # for not_found: corpus names closest to the question
    llm_asked: bool = False
    seconds: float = 0.0

    @property
    def found(self) -> bool:
        return self.kind in ("fact", "account")

    def entities(self) -> tuple[str, ...]:
        """Names this answer makes salient, most salient first: the answers, then the chain's entity ends."""
        names = [*self.answers]
        for step in self.evidence:
            if not step.derived:
                names += [step.triple[0], step.triple[2]]
        return tuple(dict.fromkeys(n for n in names if n))

    def scored_text(self) -> str:
        """What keyword scoring reads: the answer and the evidence triples (not the source sentences)."""
        triples = " ".join("".join(step.triple) for step in self.evidence)
        return f"{self.text} {triples}".strip()

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "kind": self.kind,
            "text": self.text,
            "answers": list(self.answers),
            "answer_type": self.answer_type,
            "doc_ids": list(self.doc_ids),
            "evidence": [s.to_json() for s in self.evidence],
            "constraints": dict(self.constraints),
            "links": [
                {"doc_id": lk.doc_id, "text": lk.text, "name": lk.name, "how": lk.how, "score": lk.score}
                for lk in self.links
            ],
            "closest": list(self.closest),
            "llm_asked": self.llm_asked,
            "seconds": round(self.seconds, 4),
        }


class Corpus:
    """A dataset folder's documents and KGs, ready for questions. Build once; `answer` is cheap afterwards."""

    def __init__(
        self,
        dataset: Dataset,
        *,
        llm: LLM | None = None,
        config: ReasonerConfig | None = None,
        conventions: Conventions | None = None,
    ) -> None:
        # Own copies of the document and KG tables: joined documents are added to them, never to the caller's.
        self._documents: dict[str, Document] = dict(dataset.documents)
        self._kgs = dict(dataset.kgs)
        self.doc_ids: tuple[str, ...] = tuple(d for d in dataset.documents if d in dataset.kgs)
        view = Dataset(dataset.root, self._documents, self._kgs, (), None)
        self.reasoner = Reasoner(view, config, llm=llm, conventions=conventions)
        self.index = CorpusIndex(list(self.doc_ids), self.reasoner.index, self.reasoner.names)
        self._joined: dict[str, JoinedKG] = {}
        # Joined KGs are added while answering; threads (`evalset run --workers`, the web server) must not see one
        # half-added (its document registered before its triples would give the reasoner an empty index).
        self._joining = threading.Lock()

    @classmethod
    def load(cls, root: Path, **kwargs: Any) -> Corpus:
        """Load and validate a dataset folder in the task's layout (`kgreason.data.loader`)."""
        dataset, _ = load_dataset(root, check_gold=False)
        return cls(dataset, **kwargs)

    def describe(self, name: str) -> tuple[str, tuple[str, ...]] | None:
        """An entity's KG name and types (from the first document that has it); None for values, unknown names and
        nodes the KG says nothing about (only an object: `R08`, `第三舰队司令`): nothing to ask a follow-up about."""
        for doc_id in self.index.documents_with(name):
            index = self.reasoner.index(doc_id)
            node = index.node(name)
            if node is None or index.is_literal(node.key):
                continue
            # its own triples only: an alias (`威克岛复仇者`) shares its entity's triples but is not another entity
            if any(edge.forward for edge in index.edges(node.key)):
                return node.name, node.types
        return None

    def relations_of(self, name: str) -> frozenset[str]:
        """The relation names (normalised) of the triples at an entity, in every document that has it."""
        out: set[str] = set()
        for doc_id in self.index.documents_with(name):
            index = self.reasoner.index(doc_id)
            node = index.node(name)
            if node is not None:
                out.update(normalize_text(e.relation) for k in index.alias_group(node.key) for e in index.edges(k))
        return frozenset(out)

    def prepare(self) -> None:
        """Build every document's index up front (otherwise built on first use)."""
        self.reasoner.prepare(list(self.doc_ids))

    def answer(self, question: str, doc_id: str | None = None) -> CorpusAnswer:
        """Answer `question` over `doc_id`'s KG, or over the documents it links to when `doc_id` is None."""
        t0 = time.monotonic()
        question = question.strip()
        if doc_id is not None and doc_id not in self.doc_ids:
            raise KgreasonError(f"no document {doc_id!r} in the corpus; documents: {', '.join(self.doc_ids)}")
        if doc_id is not None:
            choice = DocumentChoice((doc_id,), tuple(lk for lk in self.index.link(question) if lk.doc_id == doc_id))
        else:
            choice = self.index.choose(question)
        if not choice.found:
            closest = tuple(self.index.closest_names(question))
            text = NOT_FOUND + (f"。{CLOSEST_PREFIX}：{'、'.join(closest)}" if closest else "")
            return CorpusAnswer(question, "not_found", text, closest=closest, seconds=time.monotonic() - t0)
        target = self._target(choice.doc_ids)
        if is_account_question(question):
            result = self._account(question, target, choice)
        else:
            result = self._fact(question, target, choice)
        return replace(result, seconds=time.monotonic() - t0)

    # ------------------------------------------------------------------------------------------------------
    def _target(self, doc_ids: tuple[str, ...]) -> str:
        """The document id the reasoner answers over: the document itself, or the join of several."""
        if len(doc_ids) == 1:
            return doc_ids[0]
        with self._joining:
            joined = join_kgs(self._kgs, doc_ids)
            if joined.doc_id not in self._joined:
                self._kgs[joined.doc_id] = joined.triples
                text = "\n".join(self._documents[d].content for d in doc_ids if d in self._documents)
                self._documents[joined.doc_id] = Document(joined.doc_id, text)
                self._joined[joined.doc_id] = joined
        return joined.doc_id

    def _documents_of(self, target: str, triple: PathTriple) -> tuple[str, ...]:
        joined = self._joined.get(target)
        return joined.documents_of(triple) if joined is not None else (target,)

    def _step(self, target: str, index: KGIndex, triple: PathTriple, question: str) -> EvidenceStep:
        if self.reasoner.conventions.is_derived_relation(triple[1]) and not index.contains_triple(triple):
            return EvidenceStep(triple, None, None, derived=True)
        docs = self._documents_of(target, triple)
        for doc in docs:
            sentence = locate(self.reasoner.sentences(doc), triple)
            if sentence is not None:
                return EvidenceStep(triple, doc, sentence.text)
        return EvidenceStep(triple, docs[0] if docs else None, None)

    def _reason(self, question: str, target: str) -> tuple[QuestionResult, float]:
        result = self.reasoner.answer(Question(ASK_QUERY_ID, target, question, ASK_LEVEL))
        candidates = result.trace.candidates
        return result, candidates[0].score if candidates else float("-inf")

    def _fact(self, question: str, target: str, choice: DocumentChoice) -> CorpusAnswer:
        result, score = self._reason(question, target)
        if choice.bridges:
            # Another document knows one of the question's names: a chain may need both (`伊丽莎白女王号搭载的F-35B
            # 何时首飞` joins doc_04's carrier with doc_01's F-35B). The join wins only when clearly better.
            joined_target = self._target((*choice.doc_ids, *choice.bridges))
            joined, joined_score = self._reason(question, joined_target)
            if joined.record.answers and joined_score >= score + JOIN_MARGIN:
                result, target = joined, joined_target
        record = result.record
        index = self.reasoner.index(target)
        steps = tuple(self._step(target, index, t, question) for t in record.main_path)
        used = tuple(dict.fromkeys(s.doc_id for s in steps if s.doc_id)) or choice.doc_ids
        asked = result.trace.llm.asked
        if not record.answers:
            return CorpusAnswer(
                question,
                "no_answer",
                NO_ANSWER,
                doc_ids=choice.doc_ids,
                constraints=dict(record.constraints),
                links=choice.links,
                llm_asked=asked,
            )
        return CorpusAnswer(
            question,
            "fact",
            "、".join(record.answers),
            answers=record.answers,
            answer_type=record.answer_type,
            doc_ids=used,
            evidence=steps,
            constraints=dict(record.constraints),
            links=choice.links,
            llm_asked=asked,
        )

    def _account(self, question: str, target: str, choice: DocumentChoice) -> CorpusAnswer:
        index = self.reasoner.index(target)
        names = [lk.name for lk in choice.links]
        account = event_account(index, names)
        if not account:
            return self._fact(question, target, choice)
        steps = tuple(self._dated(self._step(target, index, s.triple, question), s) for s in account)
        sentences = list(dict.fromkeys(s.sentence for s in steps if s.sentence))
        text = "".join(sentences) or "；".join("".join(s.triple) for s in steps)
        used = tuple(dict.fromkeys(s.doc_id for s in steps if s.doc_id)) or choice.doc_ids
        return CorpusAnswer(
            question,
            "account",
            text,
            answers=(account[0].focus,),
            answer_type="事件经过",
            doc_ids=used,
            evidence=steps,
            links=choice.links,
        )

    @staticmethod
    def _dated(step: EvidenceStep, account_step: AccountStep) -> EvidenceStep:
        return EvidenceStep(step.triple, step.doc_id, step.sentence, step.derived, account_step.date)


def failed_answer(question: str, exc: Exception) -> CorpusAnswer:
    """The answer recorded when answering raised (a bug): callers that must go on (a batch, a dialogue) use it."""
    return CorpusAnswer(question, "error", f"{NO_ANSWER}（内部错误：{type(exc).__name__}: {exc}）")
