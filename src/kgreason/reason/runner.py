"""Running the reasoner over a dataset: resumable, error-isolated, with atomic output.

- The trace (JSON Lines) is the run's journal: one line per finished question, appended and flushed at once.
- `result.json` is rewritten atomically from the journal every `save_every` questions and at the end, in the
  dataset's question order; an interrupted run loses at most the question in flight.
- Rerunning reads the journal and skips questions already answered (`resume=False` starts over); questions that
  failed with an error are tried again.
- When the caller passes the run's `settings` (the model spec, the relevance model, the reasoner config), the
  journal's first line records them (`{"kind": "run-settings", "settings": {...}}`), and a rerun with other
  settings is refused instead of mixing answers of two configurations in one result.json.
- A question that raises gets a valid empty answer and an `error` entry in the trace; the run goes on.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kgreason.data.answers import parse_answer_record
from kgreason.data.jsonio import remove_stray_temporaries, write_json_atomic
from kgreason.data.outlock import exclusive_outputs
from kgreason.data.records import AnswerRecord, Dataset, Question
from kgreason.errors import KgreasonError
from kgreason.reason.reasoner import Reasoner, empty_record

SETTINGS_KIND = "run-settings"
ProgressFn = Callable[[Question, dict[str, Any]], None]
StartFn = Callable[[int, int], None]  # (questions selected, already answered by an earlier run)


def default_trace_path(output: Path) -> Path:
    """`result.json` -> `result.trace.jsonl`, beside it."""
    return output.with_name(f"{output.stem}.trace.jsonl")


@dataclass(slots=True)
class RunSummary:
    questions: int = 0  # selected for this run
    resumed: int = 0  # already answered by an earlier run
    answered: int = 0  # answered now
    failed: int = 0  # raised an error now
    seconds: float = 0.0  # answering time now (after loading)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    damaged_lines: list[int] = field(default_factory=list)  # trace lines of an earlier run that could not be read
    # Over every answer of the selected questions, resumed ones included (so they survive a resume):
    llm_asked_answers: int = 0  # answers for which the LLM was asked
    llm_failed_answers: int = 0  # ... and failed (or was not asked, breaker open): the program's choice stands

    @property
    def per_second(self) -> float:
        done = self.answered + self.failed
        return done / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        s = (
            f"{self.questions} questions: {self.answered} answered, {self.resumed} resumed, {self.failed} failed; "
            f"{self.seconds:.1f} s ({self.per_second:.1f} q/s)"
        )
        if self.llm_calls:
            s += f"; LLM {self.llm_calls} calls, {self.prompt_tokens:,}+{self.completion_tokens:,} tokens, "
            s += f"{self.llm_seconds:.1f} s"
        if self.llm_failed_answers:
            s += (
                f"; the LLM failed on {self.llm_failed_answers} of the {self.llm_asked_answers} answers it was asked "
                "about (resumed ones included): the program's own choice stands there"
            )
        return s


@dataclass(slots=True)
class Journal:
    """What an earlier run left in the trace: finished questions and the lines that could not be read."""

    done: dict[str, tuple[AnswerRecord, dict[str, Any]]] = field(default_factory=dict)
    damaged: list[int] = field(default_factory=list)  # 1-based line numbers (a write cut short: disk full, power)
    torn_tail_at: int | None = None  # byte offset of a damaged last line, which a resume cuts off before appending


def _journal_lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(1-based line number, byte offset, bytes) of the journal's lines, split on `\\n` only, blank ones left out."""
    offset = 0
    with path.open("rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            if line.strip():
                yield lineno, offset, line
            offset += len(line)


def _entry(line: bytes) -> Any:
    """A journal line as JSON, or None when it is damaged (cut inside a UTF-8 character or inside the JSON)."""
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def read_journal_full(path: Path) -> Journal:
    """The journal of an earlier run. Damaged lines are listed and skipped, so only their questions run again;
    error entries are skipped too (those questions are tried again)."""
    journal = Journal()
    if not path.exists():
        return journal
    for lineno, offset, line in _journal_lines(path):
        entry = _entry(line)
        journal.torn_tail_at = None  # only the last line can be a torn tail
        if entry is None:
            journal.damaged.append(lineno)
            journal.torn_tail_at = offset
            continue
        if not isinstance(entry, dict) or entry.get("status") != "ok" or "answer" not in entry:
            continue
        parsed = parse_answer_record(entry["answer"], file=str(path), index=lineno - 1)
        if parsed.errors:
            journal.damaged.append(lineno)
            continue
        journal.done[parsed.record.query_id] = (parsed.record, entry)
    return journal


def read_journal(path: Path) -> dict[str, tuple[AnswerRecord, dict[str, Any]]]:
    """Finished questions of an earlier run: query_id -> (record, trace entry) (see `read_journal_full`)."""
    return read_journal_full(path).done


def journal_settings(path: Path) -> dict[str, Any] | None:
    """The settings recorded on the journal's first line, or None (no journal, or one written without them)."""
    if not path.exists():
        return None
    with path.open("rb") as fh:
        first = fh.readline()
    entry = _entry(first) if first.strip() else None
    if isinstance(entry, dict) and entry.get("kind") == SETTINGS_KIND and isinstance(entry.get("settings"), dict):
        return dict(entry["settings"])
    return None


def journal_line(entry: dict[str, Any]) -> str:
    """One journal line. Text that cannot be UTF-8 (a lone surrogate from a model's reply) is written as a JSON
    escape instead of failing the run: the line stays valid JSON and valid UTF-8."""
    text = json.dumps(entry, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(entry, ensure_ascii=True)
    return text + "\n"


def check_resumable(path: Path, settings: dict[str, Any]) -> None:
    """Refuse to resume a journal written with other settings: its answers would be mixed with this run's."""
    earlier = journal_settings(path)
    settings = json.loads(json.dumps(settings))  # as the journal holds them (tuples become lists)
    if earlier is None or earlier == settings:
        return
    changed = sorted(k for k in {*earlier, *settings} if earlier.get(k) != settings.get(k))
    details = "; ".join(f"{k}: {_brief(earlier.get(k))} -> {_brief(settings.get(k))}" for k in changed)
    raise KgreasonError(
        f"{path} was written by a run with other settings ({details}); "
        "use --no-resume to start over, or -o to write the new run elsewhere"
    )


def _brief(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


@contextmanager
def _journal(path: Path, resume: bool, settings: dict[str, Any] | None, cut_at: int | None = None) -> Iterator[IO[str]]:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not resume and path.exists():
        path.unlink()
    if resume and cut_at is not None and path.exists():
        os.truncate(path, cut_at)  # a torn last line goes; its question is answered again and appended
    fresh = not path.exists() or path.stat().st_size == 0
    needs_newline = not fresh and not _ends_with_newline(path)
    with path.open("a", encoding="utf-8") as fh:
        if needs_newline:  # the last line of an interrupted run was cut short: do not glue onto it
            fh.write("\n")
        if fresh and settings is not None:
            fh.write(journal_line({"kind": SETTINGS_KIND, "settings": settings}))
            fh.flush()
        yield fh


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def select_questions(dataset: Dataset, only: list[str] | None, limit: int | None) -> list[Question]:
    """The questions of this run: `only` (query ids) if given, then the first `limit` of them."""
    qs = list(dataset.questions)
    if only:
        wanted = set(only)
        unknown = sorted(wanted - {q.query_id for q in qs})
        if unknown:
            raise KgreasonError(f"--only {', '.join(unknown)}: no such query_id in {dataset.root}/qa.json")
        qs = [q for q in qs if q.query_id in wanted]
    if limit is not None:
        if limit < 0:
            raise KgreasonError(f"--limit must be 0 or more, got {limit}")
        qs = qs[:limit]
    return qs


def run_dataset(
    dataset: Dataset,
    reasoner: Reasoner,
    output: Path,
    *,
    trace_path: Path | None = None,
    only: list[str] | None = None,
    limit: int | None = None,
    resume: bool = True,
    save_every: int = 20,
    on_question: ProgressFn | None = None,
    on_start: StartFn | None = None,
    settings: dict[str, Any] | None = None,
) -> RunSummary:
    """Answer the selected questions, appending to the trace and writing `output` atomically.

    `settings` (JSON-serialisable) identify the configuration: recorded in a new journal, and checked against an
    existing one before resuming (`KgreasonError` when they differ)."""
    trace_path = trace_path or default_trace_path(output)
    with exclusive_outputs(output, trace_path):  # a second run to the same output is refused, naming this one
        remove_stray_temporaries(output)  # a run killed while saving left them; under the lock none is live
        return _run_locked(
            dataset, reasoner, output, trace_path, only, limit, resume, save_every, on_question, on_start, settings
        )


def _run_locked(
    dataset: Dataset,
    reasoner: Reasoner,
    output: Path,
    trace_path: Path,
    only: list[str] | None,
    limit: int | None,
    resume: bool,
    save_every: int,
    on_question: ProgressFn | None,
    on_start: StartFn | None,
    settings: dict[str, Any] | None,
) -> RunSummary:
    selected = select_questions(dataset, only, limit)
    summary = RunSummary(questions=len(selected))
    if resume and settings is not None:  # again, under the lock: another run may have started the journal since
        check_resumable(trace_path, settings)
    journal = read_journal_full(trace_path) if resume else Journal()
    done = journal.done
    summary.damaged_lines = list(journal.damaged)
    known = {q.query_id for q in dataset.questions}
    records: dict[str, AnswerRecord] = {qid: rec for qid, (rec, _) in done.items() if qid in known}
    todo = [q for q in selected if q.query_id not in done]
    summary.resumed = len(selected) - len(todo)
    order = [q.query_id for q in dataset.questions]

    def save() -> None:
        write_json_atomic(output, [records[qid].to_json() for qid in order if qid in records])

    if on_start is not None:
        on_start(len(selected), summary.resumed)
    reasoner.prepare(sorted({q.doc_id for q in todo}))
    t0 = time.monotonic()
    entries = {qid: entry for qid, (_, entry) in done.items()}
    with _journal(trace_path, resume, settings, journal.torn_tail_at) as fh:
        for n, q in enumerate(todo, start=1):
            entry = _answer_one(reasoner, q, records, summary)
            entries[q.query_id] = entry
            fh.write(journal_line(entry))
            fh.flush()
            if on_question is not None:
                on_question(q, entry)
            if n % save_every == 0:
                save()
    summary.seconds = time.monotonic() - t0
    for q in selected:
        asked, failed = llm_outcome(entries.get(q.query_id, {}))
        summary.llm_asked_answers += asked
        summary.llm_failed_answers += failed
    save()
    return summary


# How `reason.llm_choice.choose` and `reason.reading.read_question` word a call that gave nothing usable.
_LLM_FAILED_PREFIXES = ("LLM failed", "LLM raised", "reply not")


def llm_outcome(entry: dict[str, Any]) -> tuple[bool, bool]:
    """(the LLM was asked, a call gave nothing usable) for one trace entry: its reading or its choice."""
    asked = failed = False
    for part in ("reading", "llm"):
        llm = entry.get(part)
        if not isinstance(llm, dict) or not llm.get("asked"):
            continue
        asked = True
        reason = llm.get("reason")
        failed = failed or (isinstance(reason, str) and reason.startswith(_LLM_FAILED_PREFIXES))
    return asked, failed


def _answer_one(
    reasoner: Reasoner, q: Question, records: dict[str, AnswerRecord], summary: RunSummary
) -> dict[str, Any]:
    t0 = time.monotonic()
    try:
        result = reasoner.answer(q)
    except Exception as exc:  # one bad question must not end the run
        records[q.query_id] = empty_record(q)
        summary.failed += 1
        summary.failures.append(f"{q.query_id}: {type(exc).__name__}: {exc}")
        return {
            "query_id": q.query_id,
            "doc_id": q.doc_id,
            "question": q.question,
            "status": "error",
            "error": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc(limit=6),
            "answer": empty_record(q).to_json(),
            "seconds": round(time.monotonic() - t0, 4),
        }
    records[q.query_id] = result.record
    summary.answered += 1
    for part in ("reading", "llm"):  # the LLM's two parts: reading the question, choosing a candidate
        llm = result.trace.get(part, {})
        if llm.get("asked"):
            summary.llm_calls += 1
            summary.prompt_tokens += max(0, int(llm.get("prompt_tokens", 0)))
            summary.completion_tokens += max(0, int(llm.get("completion_tokens", 0)))
            summary.llm_seconds += float(llm.get("seconds", 0.0))
    return result.trace
