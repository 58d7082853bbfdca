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
- A question whose model call failed keeps the program's best answer and is marked in the trace
  (`llm.failure`); a resumed run asks it again (`retry_failed`), so a model that was down does not leave its
  fallback answers in the result for good.
- `stop` (an event set from another thread, e.g. on Ctrl-C) ends the run after the question in flight; what is
  done is written.
- `workers` > 1 answers that many questions at once (for a served model: while one waits for the server, another
  runs; `kgreason.parallel`). The journal, `result.json` and the summary are still written in question order from
  this thread, so they are the same for every number of workers; on `stop`, answers finished after a question still
  in flight are written too (nothing done is lost, nothing is asked twice on the resume), until the caller takes
  `journal_gate` to rebuild `result.json` from the journal: no line is written after that.
- A failed write (disk full, permissions) is a `KgreasonError` naming the file; the trace keeps what was answered.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from kgreason.data.answers import parse_answer_record
from kgreason.data.jsonio import remove_stray_temporaries, write_json_atomic, write_text_atomic
from kgreason.data.outlock import exclusive_outputs
from kgreason.data.records import AnswerRecord, Dataset, Question
from kgreason.errors import KgreasonError
from kgreason.parallel import check_workers, ordered_map
from kgreason.reason.reasoner import Reasoner, empty_record

SETTINGS_KIND = "run-settings"
ProgressFn = Callable[[Question, dict[str, Any]], None]
StartFn = Callable[[int, int], None]  # (questions selected, already answered by an earlier run)
BeginFn = Callable[[Question], None]  # a question is about to be answered


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
    fallback: int = 0  # selected questions whose answer is the program's because the model call failed
    retried: int = 0  # earlier fallback answers asked again now
    interrupted: bool = False  # stopped before every selected question was answered
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
        """One human line. Tokens are left to the model accounting's line: it counts what the models processed
        (a cached reply costs none), while this summary's token fields count the replies used."""
        s = (
            f"{self.questions} questions: {self.answered} answered, {self.resumed} resumed, {self.failed} failed; "
            f"{self.seconds:.1f} s ({self.per_second:.1f} q/s)"
        )
        if self.retried:
            s += f"; {self.retried} fallback answers asked again"
        if self.llm_calls:
            s += f"; {self.llm_calls} LLM calls (reading questions and choosing answers)"
        if self.llm_failed_answers:
            s += (
                f"; the LLM failed on {self.llm_failed_answers} of the {self.llm_asked_answers} answers it was asked "
                "about (resumed ones included): the program's own choice stands there"
            )
        return s


# Failures that a later call may not repeat: the backend down or overloaded, too slow, raising, or not asked because
# the circuit breaker was open. A reply that is not
# valid JSON or breaks the schema comes from the model itself (greedy decoding would give it again): the program's
# best answer stands and the question is not asked again.
RETRIED_FAILURES = frozenset({"unavailable", "timeout", "server_error", "circuit_open", "raised"})


def llm_failure(entry: dict[str, Any]) -> str | None:
    """The failure kind when the question's model call failed in a way a later call may not (`RETRIED_FAILURES`)
    and the program's best answer was kept; else None. Traces written before the `failure` field are read from the
    reason text."""
    llm = entry.get("llm")
    if not isinstance(llm, dict) or not llm.get("asked"):
        return None
    if "failure" in llm:
        kind = str(llm["failure"]) if llm["failure"] else None
    elif m := re.match(r"LLM failed \((\w+)\)", str(llm.get("reason", ""))):
        kind = m.group(1)
    else:
        kind = "raised" if str(llm.get("reason", "")).startswith("LLM raised") else None
    return kind if kind in RETRIED_FAILURES else None


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
    raise KgreasonError(
        f"{path} was written by a run with other settings ({settings_diff(earlier, settings)}); "
        "use --no-resume to start over, or -o to write the new run elsewhere"
    )


MAX_CHANGES_SHOWN = 8


def settings_diff(earlier: dict[str, Any], now: dict[str, Any]) -> str:
    """Exactly the settings that differ, as dotted keys with both values: `config.max_hops: 3 -> 2`."""
    before, after = _flatten(earlier), _flatten(now)
    changed = sorted(k for k in {*before, *after} if before.get(k, _MISSING) != after.get(k, _MISSING))
    shown = [f"{k}: {_brief(before.get(k, _MISSING))} -> {_brief(after.get(k, _MISSING))}" for k in changed]
    more = len(shown) - MAX_CHANGES_SHOWN
    return "; ".join(shown[:MAX_CHANGES_SHOWN]) + (f"; and {more} more" if more > 0 else "")


_MISSING = object()


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value:
        flat: dict[str, Any] = {}
        for k, v in value.items():
            flat.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return flat
    return {prefix: value}


def _brief(value: Any) -> str:
    if value is _MISSING:
        return "(not set)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


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


@dataclass(frozen=True, slots=True)
class Shard:
    """Part `index` (1-based) of `count`: every `count`-th question of the dataset, starting at the `index`-th."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`K/N` with 1 <= K <= N; `KgreasonError` otherwise."""
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if m is None or not 1 <= int(m.group(1)) <= int(m.group(2)):
            raise KgreasonError(f"--shard must be K/N with 1 <= K <= N (e.g. 2/4), got {text!r}")
        return cls(int(m.group(1)), int(m.group(2)))

    def holds(self, position: int) -> bool:
        """Whether the question at 0-based `position` of the dataset is in this part."""
        return position % self.count == self.index - 1


def select_questions(
    dataset: Dataset, only: list[str] | None, limit: int | None, shard: Shard | None = None
) -> list[Question]:
    """The questions of this run: `only` (query ids) if given, then those of `shard`, then the first `limit`."""
    qs = list(dataset.questions)
    if only:
        wanted = set(only)
        unknown = sorted(wanted - {q.query_id for q in qs})
        if unknown:
            raise KgreasonError(f"--only {', '.join(unknown)}: no such query_id in {dataset.root}/qa.json")
        qs = [q for q in qs if q.query_id in wanted]
    if shard is not None:
        position = {q.query_id: i for i, q in enumerate(dataset.questions)}
        qs = [q for q in qs if shard.holds(position[q.query_id])]
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
    retry_failed: bool = True,
    save_every: int = 20,
    on_question: ProgressFn | None = None,
    on_start: StartFn | None = None,
    on_begin: BeginFn | None = None,
    settings: dict[str, Any] | None = None,
    stop: threading.Event | None = None,
    summary: RunSummary | None = None,
    workers: int = 1,
    shard: Shard | None = None,
    journal_gate: threading.Lock | None = None,
) -> RunSummary:
    """Answer the selected questions, appending to the trace and writing `output` atomically.

    `settings` (JSON-serialisable) identify the configuration: recorded in a new journal, and checked against an
    existing one before resuming (`KgreasonError` when they differ). `retry_failed` asks again the resumed
    questions whose model call had failed. `summary`, when given, is filled in place as the run goes (a caller on
    another thread can read the counts of an interrupted run). `workers` questions are answered at once (the
    reasoner's LLM calls then overlap; see the module's note). Each journal line is written holding `journal_gate`:
    a caller that takes it (and keeps it) after a stop can rebuild `output` from the journal knowing that no line
    will follow."""
    check_workers(workers)
    trace_path = trace_path or default_trace_path(output)
    with exclusive_outputs(output, trace_path):  # a second run to the same output is refused, naming this one
        remove_stray_temporaries(output)  # a run killed while saving left them; under the lock none is live
        return _run_locked(
            dataset,
            reasoner,
            output,
            trace_path,
            only=only,
            limit=limit,
            resume=resume,
            retry_failed=retry_failed,
            save_every=save_every,
            on_question=on_question,
            on_start=on_start,
            on_begin=on_begin,
            settings=settings,
            stop=stop,
            summary=summary,
            workers=workers,
            shard=shard,
            journal_gate=journal_gate,
        )


def _run_locked(
    dataset: Dataset,
    reasoner: Reasoner,
    output: Path,
    trace_path: Path,
    *,
    only: list[str] | None,
    limit: int | None,
    resume: bool,
    retry_failed: bool,
    save_every: int,
    on_question: ProgressFn | None,
    on_start: StartFn | None,
    on_begin: BeginFn | None,
    settings: dict[str, Any] | None,
    stop: threading.Event | None,
    summary: RunSummary | None,
    workers: int,
    shard: Shard | None,
    journal_gate: threading.Lock | None,
) -> RunSummary:
    selected = select_questions(dataset, only, limit, shard)
    if resume and settings is not None:  # again, under the lock: another run may have started the journal since
        check_resumable(trace_path, settings)
    journal = read_journal_full(trace_path) if resume else Journal()
    done = journal.done
    fresh_journal = not resume or not trace_path.exists()
    known = {q.query_id for q in dataset.questions}
    summary = summary if summary is not None else RunSummary()
    summary.questions = len(selected)
    summary.damaged_lines = list(journal.damaged)
    records: dict[str, AnswerRecord] = {qid: rec for qid, (rec, _) in done.items() if qid in known}
    fell_back = {qid for qid, (_, entry) in done.items() if llm_failure(entry)}
    again = fell_back if retry_failed else set()
    todo = [q for q in selected if q.query_id not in done or q.query_id in again]
    summary.resumed = len(selected) - len(todo)
    summary.retried = sum(q.query_id in again for q in todo)
    summary.fallback = sum(q.query_id in fell_back and q.query_id not in again for q in selected)
    order = [q.query_id for q in dataset.questions]

    def save() -> None:
        try:
            write_json_atomic(output, [records[qid].to_json() for qid in order if qid in records])
        except OSError as exc:
            raise KgreasonError(
                f"cannot write {output}: {exc.strerror or exc}; the answers so far are kept in {trace_path}: "
                "free the space (or fix the permissions) and rerun the same command to resume"
            ) from None

    if on_start is not None:
        on_start(len(selected), summary.resumed)
    reasoner.prepare(sorted({q.doc_id for q in todo}))
    t0 = time.monotonic()
    entries = {qid: entry for qid, (_, entry) in done.items()}
    written = 0  # questions whose trace line is on disk
    try:
        with _journal(trace_path, resume, settings, journal.torn_tail_at) as fh:
            answers = ordered_map(lambda q: _answer(reasoner, q), todo, workers=workers, stop=stop, on_start=on_begin)
            gate = journal_gate or nullcontext()
            for q, answered in answers:
                with gate:
                    entries[q.query_id] = answered.entry
                    _tally(q, answered, records, summary)
                    fh.write(journal_line(answered.entry))
                    fh.flush()
                    written += 1
                if on_question is not None:
                    on_question(q, answered.entry)
                if written % save_every == 0:
                    save()
        if written < len(todo):
            summary.interrupted = True  # only `stop` ends the answers early
    except OSError as exc:
        if fresh_journal and written == 0:
            trace_path.unlink(missing_ok=True)  # nothing in it worth resuming: leave no stray file
        raise KgreasonError(
            f"cannot write {trace_path}: {exc.strerror or exc}; free the space (or fix the permissions) and rerun "
            "the same command to resume"
        ) from None
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


def write_result_from_journal(dataset: Dataset, output: Path, trace_path: Path) -> int:
    """Rewrite `output` from the journal alone (dataset order); the number of answers written. For a run stopped
    while a question is still in flight on another thread."""
    done = read_journal(trace_path)
    items = [done[q.query_id][0].to_json() for q in dataset.questions if q.query_id in done]
    write_json_atomic(output, items)
    return len(items)


@dataclass(frozen=True, slots=True)
class _Answered:
    """One question's outcome, made on a worker thread; counted and written by the runner's own thread."""

    record: AnswerRecord
    entry: dict[str, Any]  # the trace line
    error: str | None = None  # "Type: message" when the reasoner raised


def _answer(reasoner: Reasoner, q: Question) -> _Answered:
    t0 = time.monotonic()
    try:
        result = reasoner.answer(q)
    except Exception as exc:  # one bad question must not end the run
        error = f"{type(exc).__name__}: {exc}"
        entry = {
            "query_id": q.query_id,
            "doc_id": q.doc_id,
            "question": q.question,
            "status": "error",
            "error": error,
            "traceback": traceback.format_exc(limit=6),
            "answer": empty_record(q).to_json(),
            "seconds": round(time.monotonic() - t0, 4),
        }
        return _Answered(empty_record(q), entry, error)
    return _Answered(result.record, result.trace.to_json())


def _tally(q: Question, answered: _Answered, records: dict[str, AnswerRecord], summary: RunSummary) -> None:
    records[q.query_id] = answered.record
    if answered.error is not None:
        summary.failed += 1
        summary.failures.append(f"{q.query_id}: {answered.error}")
        return
    summary.answered += 1
    trace = answered.entry
    if llm_failure(trace):
        summary.fallback += 1
    for part in ("reading", "llm"):  # the LLM's two parts: reading the question, choosing a candidate
        llm = trace.get(part, {})
        if llm.get("asked"):
            summary.llm_calls += 1
            summary.prompt_tokens += max(0, int(llm.get("prompt_tokens", 0)))
            summary.completion_tokens += max(0, int(llm.get("completion_tokens", 0)))
            summary.llm_seconds += float(llm.get("seconds", 0.0))


@dataclass(slots=True)
class MergeSummary:
    merged: int = 0  # questions answered in some shard, written once
    missing: list[str] = field(default_factory=list)  # questions no shard answered (a resume answers them)
    duplicates: int = 0  # questions answered in more than one shard (the first shard's answer is kept)
    damaged: dict[str, list[int]] = field(default_factory=dict)  # shard trace -> its damaged lines


def merge_journals(dataset: Dataset, shards: list[Path], output: Path, trace_path: Path | None = None) -> MergeSummary:
    """Join the journals of runs over parts of `dataset` (machines given different `--only`/`--shard` sets, the
    same settings) into one: `trace_path` holds the settings line and every question's entry once, in dataset order,
    and `output` its result.json. The shards must have been written with identical settings (`KgreasonError`
    naming the first that differs). A later `kgreason run` with those settings to the same output resumes the
    questions no shard answered."""
    trace_path = trace_path or default_trace_path(output)
    if not shards:
        raise KgreasonError("no shard to merge: name the outputs (or traces) of the shard runs")
    settings: dict[str, Any] | None = None
    journals: list[Journal] = []
    for i, shard in enumerate(shards):
        if not shard.is_file():
            raise KgreasonError(f"{shard}: no such trace (a shard's result.trace.jsonl)")
        mine = journal_settings(shard)
        if mine is None:
            raise KgreasonError(f"{shard}: its first line holds no run settings, so it cannot be merged safely")
        if i == 0:
            settings = mine
        elif mine != settings:
            assert settings is not None
            raise KgreasonError(
                f"{shard} was written with other settings than {shards[0]} ({settings_diff(settings, mine)}); "
                "shards must be run with the same settings"
            )
        journals.append(read_journal_full(shard))
    summary = MergeSummary()
    lines = [journal_line({"kind": SETTINGS_KIND, "settings": settings})]
    records: list[dict[str, Any]] = []
    for q in dataset.questions:
        found = [j.done[q.query_id] for j in journals if q.query_id in j.done]
        if not found:
            summary.missing.append(q.query_id)
            continue
        record, entry = found[0]
        summary.merged += 1
        summary.duplicates += len(found) > 1
        lines.append(journal_line(entry))
        records.append(record.to_json())
    summary.damaged = {str(s): j.damaged for s, j in zip(shards, journals, strict=True) if j.damaged}
    with exclusive_outputs(output, trace_path):
        try:
            write_text_atomic(trace_path, "".join(lines))
            write_json_atomic(output, records)
        except OSError as exc:
            raise KgreasonError(f"cannot write {output} or {trace_path}: {exc.strerror or exc}") from None
    return summary
