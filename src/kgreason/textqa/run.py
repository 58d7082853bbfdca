"""`kgreason textqa run`: per question, rank the sentences, answer by the baseline path (and the KG path when a
`TripleSource` is given), journal the answers, and write each path's outputs.

The journal `textqa.journal.jsonl` (first line: the run's settings) gets one line per finished question, flushed at
once, so an interrupted run resumes where it stopped; a rerun with other settings is refused (the shared helpers of
`kgreason.reason.runner`). Outputs are rewritten atomically from the journal at the end (and on interruption):
`<path>/answers.json` (the seed's answer format) and `<path>/prediction.json` (HotpotQA, 2Wiki) or
`<path>/prediction.jsonl` (MuSiQue), for `<path>` in `baseline`, `kg`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal

from kgreason.data.jsonio import write_json_atomic, write_text_atomic
from kgreason.data.outlock import exclusive_outputs
from kgreason.llm.accounting import Accounting
from kgreason.llm.types import LLM
from kgreason.reason.runner import check_resumable, journal_line
from kgreason.retrieve.base import Embedder
from kgreason.textqa.answers import RETRYABLE_FAILURES, PathAnswer, PathName
from kgreason.textqa.bridge import detect_bridge
from kgreason.textqa.bridge_parts import bridge_by_parts
from kgreason.textqa.by_parts import compare_by_parts
from kgreason.textqa.comparison import detect_comparison
from kgreason.textqa.context import ContextSentence, context_sentences
from kgreason.textqa.kgpath import TripleSource, kg_answer
from kgreason.textqa.outputs import answer_record, musique_prediction_lines, wiki_prediction
from kgreason.textqa.paragraphs import DEFAULT_PARAGRAPHS, choose_paragraphs, paragraph_context
from kgreason.textqa.reader import read_answer
from kgreason.textqa.records import TextQAItem, TextQASet
from kgreason.textqa.related import detect_related_comparison, related_by_parts
from kgreason.textqa.retrieval import RetrieverName, rank_sentences, select_context
from kgreason.textqa.second_round import second_round_context
from kgreason.textqa.support import Completion, complete_support

JOURNAL = "textqa.journal.jsonl"
SETTINGS_KIND = "run-settings"
# What the reader is shown: whole paragraphs chosen by `textqa.paragraphs`, or the top-ranked sentences with their
# paragraphs' first sentences (`retrieval.select_context`).
ContextName = Literal["paragraphs", "sentences"]
CONTEXTS: tuple[ContextName, ...] = ("paragraphs", "sentences")
# Comparisons are answered by parts unless a run says otherwise: on HotpotQA items 50-99 (design) and 0-49 (held out)
# it raised the comparisons' answer F1 0.446 -> 0.975 and 0.667 -> 1.000 (docs/textqa.md, Measured).
COMPARE_BY_PARTS_DEFAULT = True
# Bridge questions found in the text are answered by parts (textqa.bridge_parts) unless a run says otherwise: on
# HotpotQA items 50-99 (design) and 0-49 (held out) it raised the detected bridges' answer F1 0.323 -> 0.799 and
# 0.241 -> 0.744 (docs/textqa.md, Measured).
BRIDGE_BY_PARTS_DEFAULT = True
# A comparison by an attribute of a related entity ("Which film has the director born earlier, A or B?") is answered
# by parts (textqa.related): the program finds each entity's related one, one lookup each, compared in code.
COMPARE_RELATED_BY_PARTS_DEFAULT = True


@dataclass(frozen=True, slots=True)
class TextQASettings:
    dataset: str
    llm: str
    retriever: RetrieverName
    top_k: int  # sentences ranked first; their paragraphs' first sentences are added
    kg_path: bool
    second_round: bool = False  # retrieve again with the first reading's answers and ask once more (second_round.py)
    # Ranked sentences by default: whole paragraphs improved the supporting facts on the development slice only, and
    # cost answer F1 on both halves of HotpotQA (docs/textqa.md, Measured).
    context: ContextName = "sentences"
    paragraphs: int = DEFAULT_PARAGRAPHS  # paragraphs shown whole (context "paragraphs"; top_k is then unused)
    # A two-entity comparison found in the question: one lookup per entity, compared in code (textqa.by_parts).
    compare_by_parts: bool = COMPARE_BY_PARTS_DEFAULT
    # A bridge found in the question: the program makes the first hop, one lookup over the second paragraph.
    bridge_by_parts: bool = BRIDGE_BY_PARTS_DEFAULT
    # A comparison of two entities' related entities ("the director born earlier"): a hop and a lookup each.
    compare_related_by_parts: bool = COMPARE_RELATED_BY_PARTS_DEFAULT


@dataclass(frozen=True, slots=True)
class QuestionOutcome:
    id: str
    answers: dict[PathName, PathAnswer]
    seconds: float
    prompt_tokens: int
    completion_tokens: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "answers": {k: v.as_dict() for k, v in self.answers.items()},
            "seconds": round(self.seconds, 3),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QuestionOutcome:
        answers: dict[PathName, PathAnswer] = {}
        for value in data["answers"].values():
            parsed = PathAnswer.from_dict(value)
            answers[parsed.path] = parsed
        return cls(
            id=str(data["id"]),
            answers=answers,
            seconds=float(data["seconds"]),
            prompt_tokens=int(data["prompt_tokens"]),
            completion_tokens=int(data["completion_tokens"]),
        )


@dataclass(frozen=True, slots=True)
class RunSummary:
    outcomes: list[QuestionOutcome]  # in the data's order
    resumed: int  # questions taken from an earlier run's journal
    failures: int  # answers whose LLM call failed (any path)
    written: list[Path]


@dataclass(frozen=True, slots=True)
class ShownContext:
    sentences: list[ContextSentence]  # in reading order
    paragraphs: tuple[int, ...]  # paragraph indices shown whole, in the order chosen; () for ranked sentences


def shown_context(item: TextQAItem, settings: TextQASettings, embedder: Embedder | None) -> ShownContext:
    sentences = context_sentences(item)
    if settings.context == "paragraphs":
        chosen = choose_paragraphs(item.question, item.paragraphs, settings.paragraphs, settings.retriever, embedder)
        return ShownContext(paragraph_context(sentences, chosen), tuple(p.index for p in chosen))
    ranked = rank_sentences(item.question, sentences, settings.retriever, embedder)
    return ShownContext(select_context(ranked, settings.top_k), ())


def shown_sentences(item: TextQAItem, settings: TextQASettings, embedder: Embedder | None) -> list[ContextSentence]:
    return shown_context(item, settings, embedder).sentences


def baseline_answer(
    item: TextQAItem,
    shown: Sequence[ContextSentence],
    settings: TextQASettings,
    llm: LLM,
    embedder: Embedder | None,
) -> PathAnswer:
    """The baseline reader's answer to the shown sentences, read again over more of them after a second round; a
    comparison is answered by parts when that is on and decides it, a bridge likewise."""
    sentences = context_sentences(item)
    if settings.compare_by_parts:
        comparison = detect_comparison(item.question, item.paragraphs)
        if comparison is not None:
            parts = compare_by_parts(llm, item.question, comparison, sentences, shown)
            if parts is not None:
                return parts
    if settings.compare_related_by_parts:
        related = detect_related_comparison(item.question, item.paragraphs)
        if related is not None:
            answer = related_by_parts(llm, item.question, related, sentences, shown)
            if answer is not None:
                return answer
    if settings.bridge_by_parts:
        bridge = detect_bridge(item.question, item.paragraphs)
        if bridge is not None:
            hops = bridge_by_parts(llm, item.question, bridge, sentences)
            if hops is not None:
                return hops
    first = read_answer(llm, item.question, shown)
    if not settings.second_round:
        return first
    wider = second_round_context(item.question, first, sentences, shown, settings.retriever, embedder)
    if wider is None:
        return first
    second = read_answer(llm, item.question, wider)
    if second.failure is not None or not second.answer:
        return first  # the first reading stands when the second call fails
    return replace(second, rounds=2)


def answer_item(
    item: TextQAItem,
    settings: TextQASettings,
    llm: LLM,
    embedder: Embedder | None,
    triple_source: TripleSource | None,
    accounting: Accounting | None,
) -> QuestionOutcome:
    start = time.monotonic()
    before = accounting.total() if accounting is not None else None
    shown = shown_context(item, settings, embedder)
    sentences = shown.sentences
    answers: dict[PathName, PathAnswer] = {"baseline": baseline_answer(item, sentences, settings, llm, embedder)}
    if settings.kg_path and triple_source is not None:
        answers["kg"] = kg_answer(llm, item.question, sentences, triple_source, embedder)
    if shown.paragraphs:  # the support completion reads the program's choice of paragraphs (textqa.support)
        answers = {k: replace(v, paragraphs=shown.paragraphs) for k, v in answers.items()}
    prompt = completion = 0
    if accounting is not None and before is not None:
        after = accounting.total()
        prompt, completion = (
            after.prompt_tokens - before.prompt_tokens,
            after.completion_tokens - before.completion_tokens,
        )
    return QuestionOutcome(item.id, answers, time.monotonic() - start, prompt, completion)


def read_done(path: Path) -> dict[str, QuestionOutcome]:
    """Questions an earlier run finished; damaged or unreadable lines are skipped (their questions run again)."""
    done: dict[str, QuestionOutcome] = {}
    if not path.exists():
        return done
    with path.open("rb") as fh:
        for line in fh:
            try:
                entry = json.loads(line.decode("utf-8"))
                if isinstance(entry, dict) and entry.get("kind") == "question":
                    outcome = QuestionOutcome.from_dict(entry)
                    if not any(a.failure in RETRYABLE_FAILURES for a in outcome.answers.values()):
                        done[outcome.id] = outcome
            except (UnicodeDecodeError, ValueError, KeyError, TypeError, IndexError):
                continue
    return done


def run_textqa(
    data: TextQASet,
    out_dir: Path,
    settings: TextQASettings,
    llm: LLM,
    *,
    embedder: Embedder | None = None,
    triple_source: TripleSource | None = None,
    accounting: Accounting | None = None,
    resume: bool = True,
    limit: int | None = None,
    progress: Callable[[str], None] = lambda _msg: None,
) -> RunSummary:
    items = list(data.items[:limit] if limit is not None else data.items)
    journal = out_dir / JOURNAL
    with exclusive_outputs(journal):
        settings_dict = asdict(settings)
        if resume:
            check_resumable(journal, settings_dict)
        elif journal.exists():
            journal.unlink()
        done = read_done(journal) if resume else {}
        resumed = sum(1 for it in items if it.id in done)
        if resumed:
            progress(f"resuming: {resumed} of {len(items)} question(s) done by an earlier run")
        out_dir.mkdir(parents=True, exist_ok=True)
        fresh = not journal.exists() or journal.stat().st_size == 0
        try:
            with journal.open("a", encoding="utf-8") as fh:
                if fresh:
                    fh.write(journal_line({"kind": SETTINGS_KIND, "settings": settings_dict}))
                    fh.flush()
                todo = [it for it in items if it.id not in done]
                for n, item in enumerate(todo, start=1):
                    outcome = answer_item(item, settings, llm, embedder, triple_source, accounting)
                    fh.write(journal_line({"kind": "question", **outcome.as_dict()}))
                    fh.flush()
                    done[item.id] = outcome
                    base = outcome.answers["baseline"]
                    progress(
                        f"[{resumed + n}/{len(items)}] {item.id}: {base.answer or base.failure or '-'!s:.60} "
                        f"({outcome.seconds:.1f} s, {outcome.prompt_tokens}+{outcome.completion_tokens} tokens)"
                    )
        finally:
            written = write_outputs(data, items, done, out_dir)
    outcomes = [done[it.id] for it in items if it.id in done]
    failures = sum(1 for o in outcomes for a in o.answers.values() if a.failure is not None)
    return RunSummary(outcomes, resumed, failures, written)


def write_outputs(
    data: TextQASet,
    items: Sequence[TextQAItem],
    done: dict[str, QuestionOutcome],
    out_dir: Path,
) -> list[Path]:
    """Each path's answer file and official prediction files, for the questions answered so far: `prediction.*`
    with the supporting facts completed by the program (`textqa.support`), `prediction.cited.*` with the sentences
    the path cited only, so that the completion's effect is a measured number."""
    paths: list[PathName] = ["baseline", "kg"]
    written: list[Path] = []
    for path in paths:
        rows: list[tuple[TextQAItem, PathAnswer, Sequence[ContextSentence]]] = []
        completions: list[Completion] = []
        for item in items:
            outcome = done.get(item.id)
            if outcome is None or path not in outcome.answers:
                continue
            # The keys S<n> are positions in the item's full sentence list, so the list is rebuilt, not re-ranked.
            sentences = context_sentences(item)
            answer = outcome.answers[path]
            rows.append((item, answer, sentences))
            completions.append(complete_support(item.question, answer, sentences))
        if not rows:
            continue
        completed = [
            (item, replace(answer, sentences=done_.sentences), sents)
            for (item, answer, sents), done_ in zip(rows, completions, strict=True)
        ]
        folder = out_dir / path
        answers_file = folder / "answers.json"
        records = [
            answer_record(item, ans, sents, completion)
            for (item, ans, sents), completion in zip(rows, completions, strict=True)
        ]
        write_json_atomic(answers_file, records)
        written.append(answers_file)
        for name, chosen in (("prediction", completed), ("prediction.cited", rows)):
            if data.dataset == "musique":
                prediction = folder / f"{name}.jsonl"
                write_text_atomic(prediction, musique_prediction_lines(chosen))
            else:
                prediction = folder / f"{name}.json"
                write_json_atomic(prediction, wiki_prediction(chosen))
            written.append(prediction)
    return written
