"""Running kgreason on evaluation sets and summarising: per item the answer, its evidence and its keyword score; per
set and category the means; for dialogues also the context-dependent turns and the resolution of referring turns.

Single-turn items are asked of the whole corpus (the sets carry no doc_id). Each multi-turn item is one dialogue, its
turns in order, in a fresh `ChatSession`. A turn's keywords are its `expected_points`. What is scored is the answer
text with its evidence triples (`CorpusAnswer.scored_text`), not the source sentences.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kgreason.corpus.answer import Corpus, CorpusAnswer, failed_answer
from kgreason.corpus.dialogue import Resolution, Turn
from kgreason.corpus.session import ChatSession
from kgreason.data.jsonio import write_json_atomic
from kgreason.evalset.model import Dialogue, EvalItem, EvalSet
from kgreason.evalset.score import judge, keyword_score
from kgreason.llm.types import LLM
from kgreason.parallel import ordered_map
from kgreason.text.normalize import normalize_text

RESULTS_DIR = "results"
SUMMARY_FILE = "summary.json"
ProgressFn = Callable[[str], None]


def _mean(values: Iterable[float]) -> float | None:
    vs = list(values)
    return round(sum(vs) / len(vs), 4) if vs else None


def _answer_row(answer: CorpusAnswer) -> dict[str, Any]:
    return {
        "answer": answer.text,
        "answers": list(answer.answers),
        "kind": answer.kind,
        "doc_ids": list(answer.doc_ids),
        "evidence": [s.to_json() for s in answer.evidence],
        "constraints": dict(answer.constraints),
        "scored_text": answer.scored_text(),
        "llm_asked": answer.llm_asked,
        "seconds": round(answer.seconds, 4),
    }


def _score_row(row: dict[str, Any], keywords: list[str], question: str, expected: str, llm: LLM | None) -> None:
    """Add the keyword score (and the judge's rubric score) to a result row in place."""
    _keywords(row, keywords)
    if llm is not None:
        row["judge"] = judge(llm, question, expected, row["answer"])


def run_single(
    corpus: Corpus, evalset: EvalSet, judge_llm: LLM | None, progress: ProgressFn, *, workers: int = 1
) -> list[dict[str, Any]]:
    """One row per item, in the set's order; `workers` items at once (`kgreason.parallel`)."""

    def one(item: EvalItem) -> dict[str, Any]:
        try:
            answer = corpus.answer(item.question)
        except Exception as exc:  # one failing item must not end the evaluation; the row says why
            answer = failed_answer(item.question, exc)
        row = {
            "id": item.id,
            "category": item.category,
            "difficulty": item.difficulty,
            "question": item.question,
            "expected_answer": item.expected_answer,
            **_answer_row(answer),
        }
        _score_row(row, list(item.keywords), item.question, item.expected_answer, judge_llm)
        return row

    rows: list[dict[str, Any]] = []
    for item, row in ordered_map(one, evalset.items, workers=workers):
        rows.append(row)
        progress(f"{item.id}: {row['keyword_score']}")
    return rows


def run_dialogues(
    corpus: Corpus,
    evalset: EvalSet,
    llm: LLM | None,
    judge_llm: LLM | None,
    progress: ProgressFn,
    *,
    workers: int = 1,
) -> list[dict[str, Any]]:
    """One row per dialogue, in the set's order, its turns in order; `workers` dialogues at once (each has its own
    session)."""

    def one(dialogue: Dialogue) -> dict[str, Any]:
        session = ChatSession(corpus, llm=llm)
        turns: list[dict[str, Any]] = []
        for t in dialogue.turns:
            t0 = time.monotonic()
            try:
                turn = session.ask(t.user)
            except Exception as exc:  # the turn scores 0 and the dialogue goes on without it in the state
                turn = Turn(t.turn, Resolution(t.user, (t.user,)), failed_answer(t.user, exc), ())
            row = {
                "turn": t.turn,
                "user": t.user,
                "requires_context": t.requires_context,
                "resolved": list(turn.resolution.resolved),
                "resolution": turn.resolution.how,
                "resolved_by": turn.resolution.by,
                **_answer_row(turn.answer),
                "seconds": round(time.monotonic() - t0, 4),
            }
            if t.referent is not None:
                row["referent"] = t.referent
                row["resolution_correct"] = normalize_text(t.referent) in normalize_text(turn.resolution.text)
            _score_row(row, list(t.expected_points), turn.resolution.text, "；".join(t.expected_points), judge_llm)
            turns.append(row)
        return {"id": dialogue.id, "scenario": dialogue.scenario, "turns": turns}

    rows: list[dict[str, Any]] = []
    for dialogue, row in ordered_map(one, evalset.dialogues, workers=workers):
        rows.append(row)
        progress(f"{dialogue.id}: {[r['keyword_score'] for r in row['turns']]}")
    return rows


def summarise(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Means per set, per category and difficulty (single-turn), or per kind of turn (multi-turn)."""
    if name == "multi_turn":
        turns = [t for d in rows for t in d["turns"]]
        referring = [t for t in turns if "resolution_correct" in t]
        return {
            "dialogues": len(rows),
            "turns": len(turns),
            "keyword": _mean(t["keyword_score"] for t in turns if t["keyword_score"] is not None),
            "keyword_context_turns": _mean(
                t["keyword_score"] for t in turns if t["requires_context"] and t["keyword_score"] is not None
            ),
            "keyword_first_turns": _mean(t["keyword_score"] for t in turns if not t["requires_context"]),
            "keyword_answer_only": _mean(
                t["keyword_score_answer_only"] for t in turns if t["keyword_score_answer_only"] is not None
            ),
            "context_turns": sum(1 for t in turns if t["requires_context"]),
            "resolution_accuracy": _mean(1.0 if t["resolution_correct"] else 0.0 for t in referring),
            "referring_turns": len(referring),
            "judge": _mean(t["judge"] for t in turns if t.get("judge") is not None),
            "seconds_per_turn": _mean(t["seconds"] for t in turns),
            "max_seconds_per_turn": max((t["seconds"] for t in turns), default=None),
        }
    by_category: dict[str, list[float]] = defaultdict(list)
    by_difficulty: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r["keyword_score"] is not None:
            by_category[r["category"]].append(r["keyword_score"])
            by_difficulty[r["difficulty"]].append(r["keyword_score"])
    return {
        "items": len(rows),
        "keyword": _mean(r["keyword_score"] for r in rows if r["keyword_score"] is not None),
        "keyword_answer_only": _mean(
            r["keyword_score_answer_only"] for r in rows if r["keyword_score_answer_only"] is not None
        ),
        "by_category": {k: _mean(v) for k, v in sorted(by_category.items())},
        "by_difficulty": {k: _mean(v) for k, v in sorted(by_difficulty.items())},
        "judge": _mean(r["judge"] for r in rows if r.get("judge") is not None),
        "seconds_per_item": _mean(r["seconds"] for r in rows),
        "max_seconds_per_item": max((r["seconds"] for r in rows), default=None),
    }


def write_results(
    out_dir: Path, name: str, description: str, rows: list[dict[str, Any]], settings: dict[str, Any]
) -> dict[str, Any]:
    summary = summarise(name, rows)
    write_json_atomic(
        out_dir / f"{name}.json",
        {"set": name, "description": description, "settings": settings, "summary": summary, "items": rows},
    )
    return summary


def _keywords(row: dict[str, Any], keywords: list[str]) -> None:
    """Keyword scores of a row: of the answer with its evidence triples, and (stricter) of the answer text alone."""
    ks = keyword_score(row["scored_text"], keywords)
    alone = keyword_score(row["answer"], keywords)
    row["keywords"] = keywords
    row["matched"] = list(ks.matched) if ks else []
    row["keyword_score"] = ks.score if ks else None
    row["keyword_score_answer_only"] = alone.score if alone else None


def rescore(rows: list[dict[str, Any]], keywords_of: Callable[[str, int | None], list[str] | None]) -> None:
    """Recompute keyword scores of saved rows against the sets' current keywords (dialogue rows: per turn)."""
    for row in rows:
        if "turns" in row:
            for t in row["turns"]:
                kws = keywords_of(row["id"], t["turn"])
                if kws is not None:
                    _keywords(t, kws)
        else:
            kws = keywords_of(row["id"], None)
            if kws is not None:
                _keywords(row, kws)
