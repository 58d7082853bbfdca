"""Dialogues of `kgreason serve`: one per (dataset, session_id), the least recently used forgotten first, and the
explained answer kept as the turn's answer (what follow-ups refer back to)."""

from __future__ import annotations

from pathlib import Path

from kgreason.corpus.answer import Corpus
from kgreason.corpus.dialogue import Resolution
from kgreason.corpus.session import ChatSession
from kgreason.data.loader import load_dataset
from kgreason.explain import answer_question, question_for
from kgreason.reason.reasoner import Reasoner
from kgreason.serve.sessions import Sessions, as_turn_answer, asked_question

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample"


def test_sessions_are_kept_per_key_and_the_least_recently_used_goes_first() -> None:
    corpus = Corpus(load_dataset(SAMPLE, check_gold=False)[0])
    sessions = Sessions(limit=2)
    a, _ = sessions.get(("sample", "a"), lambda: ChatSession(corpus))
    sessions.get(("sample", "b"), lambda: ChatSession(corpus))
    assert sessions.get(("sample", "a"), lambda: ChatSession(corpus))[0] is a  # a is now the most recent
    sessions.get(("sample", "c"), lambda: ChatSession(corpus))  # b goes
    assert len(sessions) == 2
    assert sessions.get(("sample", "a"), lambda: ChatSession(corpus))[0] is a
    assert sessions.get(("other", "a"), lambda: ChatSession(corpus))[0] is not a  # keyed by dataset too


def test_an_explained_answer_becomes_the_turn_a_follow_up_refers_to() -> None:
    dataset = load_dataset(SAMPLE, check_gold=False)[0]
    session = ChatSession(Corpus(dataset))
    reasoner = Reasoner(dataset)
    question = "伊丽莎白女王号航空母舰是哪一天服役的？"
    explained = answer_question(reasoner, question_for(dataset, question, "doc_04"))
    session.record(Resolution(question, (question,)), as_turn_answer(explained))
    follow = session.resolve("它的舷号是什么？")
    assert follow.changed and "伊丽莎白女王号" in asked_question(follow)
