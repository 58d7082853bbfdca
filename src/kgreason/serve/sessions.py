"""Dialogues of `kgreason serve`: an ask with a `session_id` is resolved against the earlier turns of that session
(`kgreason.corpus`: 它 / 该舰 / 那些… / 后来呢), answered by the explaining reasoner, and remembered as a turn."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from kgreason.corpus.answer import CorpusAnswer, EvidenceStep
from kgreason.corpus.dialogue import Resolution
from kgreason.corpus.session import ChatSession
from kgreason.explain import ExplainedAnswer

MAX_SESSIONS = 256  # per server; the least recently used one is forgotten first


class Sessions:
    """Chat sessions by (dataset, session_id), each with its own lock (one turn at a time per dialogue)."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, str], tuple[ChatSession, threading.Lock]] = OrderedDict()

    def get(self, key: tuple[str, str], make: Callable[[], ChatSession]) -> tuple[ChatSession, threading.Lock]:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                found = (make(), threading.Lock())
                self._items[key] = found
                while len(self._items) > self._limit:
                    self._items.popitem(last=False)
            self._items.move_to_end(key)
            return found

    def __len__(self) -> int:
        return len(self._items)


def asked_question(resolution: Resolution) -> str:
    """The question a request answers: the resolved one (the first, when a plural reference stood for several)."""
    return resolution.resolved[0] if resolution.resolved else resolution.question


def as_turn_answer(explained: ExplainedAnswer) -> CorpusAnswer:
    """The explained answer as the dialogue state keeps a turn's answer (what it makes salient for follow-ups)."""
    return CorpusAnswer(
        question=explained.question,
        kind="fact" if explained.answers else "no_answer",
        text="、".join(explained.answers),
        answers=explained.answers,
        answer_type=explained.answer_type,
        doc_ids=(explained.doc_id,),
        evidence=tuple(
            EvidenceStep((e.head, e.relation, e.tail), explained.doc_id, e.sentence, e.derived)
            for e in explained.evidence
        ),
        constraints={c.key: c.value for c in explained.constraints},
        seconds=explained.seconds,
    )
