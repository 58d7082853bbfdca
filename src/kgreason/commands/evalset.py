"""`kgreason evalset run|score|texts`: evaluation sets in the convention of spec 002."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kgreason.commands import open_llm, usable_workers
from kgreason.commands.ask import LLM_HELP
from kgreason.corpus.answer import Corpus
from kgreason.data.jsonio import read_text, write_json_atomic
from kgreason.data.loader import load_dataset
from kgreason.errors import DataError, KgreasonError
from kgreason.evalset.model import ALL_SETS, EvalSet, read_evalsets
from kgreason.evalset.run import (
    RESULTS_DIR,
    SUMMARY_FILE,
    rescore,
    run_dialogues,
    run_single,
    summarise,
    write_results,
)
from kgreason.evalset.score import judge
from kgreason.evalset.texts import TEXTS_DIR, write_texts
from kgreason.llm.factory import close_llm
from kgreason.parallel import check_workers
from kgreason.text.terminal import safe_text

HELP = (
    "Evaluation sets in the convention of spec 002 (factual_qa.json, relation_qa.json, event_tracking.json, "
    "multi_turn.json, keyword auto-scoring, a 1-5 rubric, results in results/). See docs/ask_and_chat.md."
)
RUN_HELP = "\n\n".join(
    [
        "Answer every item of an evaluation folder over DATA_DIR (multi-turn items as dialogues, in order), score the "
        "keywords (all -> 1.0, a share -> that share, none -> 0.0) and, with --judge, the 1-5 rubric; write "
        "results/<set>.json (per item: answer, evidence, keyword score) and results/summary.json (per set and "
        "category: means) and print a table.",
        "Example:",
        "    kgreason evalset run examples/sample/evalsets --data examples/sample --llm none",
    ]
)
SCORE_HELP = (
    "Re-score saved results against the evaluation folder's current keywords (and, with --judge, the 1-5 rubric) "
    "without answering again; rewrites results/ and prints the table."
)
TEXTS_HELP = (
    "Write the line-numbered text rendering of DATA_DIR's documents (one sentence per line, texts/<doc_id>.txt) "
    "that evaluation items point into with source.file and line_range."
)


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="evalset", help=HELP, no_args_is_help=True, add_completion=False)
    group.command(name="run", help=RUN_HELP, no_args_is_help=True)(run_command)
    group.command(name="score", help=SCORE_HELP, no_args_is_help=True)(score_command)
    group.command(name="texts", help=TEXTS_HELP, no_args_is_help=True)(texts_command)
    app.add_typer(group, name="evalset")


def _table(summaries: dict[str, dict[str, Any]]) -> str:
    lines = [
        f"{'set':<16} {'n':>4} {'keyword':>8} {'ans-only':>8} {'context':>8} {'resolve':>8} {'judge':>6} {'s/item':>7}"
    ]

    def f(v: Any, width: int) -> str:
        return f"{v:>{width}.3f}" if isinstance(v, float) else f"{'-':>{width}}"

    for name, s in summaries.items():
        n = s.get("items", s.get("turns", 0))
        secs = s.get("seconds_per_item", s.get("seconds_per_turn"))
        lines.append(
            f"{name:<16} {n:>4} {f(s.get('keyword'), 8)} {f(s.get('keyword_answer_only'), 8)} "
            f"{f(s.get('keyword_context_turns'), 8)} "
            f"{f(s.get('resolution_accuracy'), 8)} {f(s.get('judge'), 6)} {f(secs, 7)}"
        )
        for category, mean in s.get("by_category", {}).items():
            lines.append(f"  {category:<14} {'':>4} {f(mean, 8)}")
    return "\n".join(lines)


def run_command(
    eval_dir: Annotated[Path, typer.Argument(metavar="EVAL_DIR", help="Folder with the set files.")],
    data: Annotated[Path, typer.Option("--data", metavar="DATA_DIR", help="Dataset folder (the corpus).")],
    llm: Annotated[str, typer.Option("--llm", help=LLM_HELP)] = "none",
    judge_spec: Annotated[
        str | None, typer.Option("--judge", metavar="LLM", help="Model that gives the 1-5 rubric score.")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Results folder (default: EVAL_DIR/results).")
    ] = None,
    only: Annotated[
        list[str] | None, typer.Option("--set", metavar="NAME", help=f"Only this set ({', '.join(ALL_SETS)}).")
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            metavar="N",
            help="Items (and dialogues, each in its own session) answered at once with a served model; the results "
            "are the same for every N. The embedded model and --llm none answer one at a time. docs/scaling.md.",
        ),
    ] = 1,
) -> None:
    check_workers(workers)
    sets = _selected(read_evalsets(eval_dir), only)
    out_dir = output or eval_dir / RESULTS_DIR
    model = open_llm(llm, workers=workers)
    judge_llm = open_llm(judge_spec) if judge_spec else None
    settings = {"data": str(data), "llm": llm, "judge": judge_spec}
    try:
        workers = usable_workers(model, workers, lambda text: typer.echo(safe_text(text), err=True))
        corpus = Corpus.load(data, llm=model)
        corpus.prepare()
        summaries: dict[str, dict[str, Any]] = {}
        for evalset in sets:
            typer.echo(f"{evalset.name}: {len(evalset.items) or len(evalset.dialogues)} items", err=True)
            if evalset.dialogues:
                rows = run_dialogues(corpus, evalset, model, judge_llm, _quiet, workers=workers)
            else:
                rows = run_single(corpus, evalset, judge_llm, _quiet, workers=workers)
            summaries[evalset.name] = write_results(out_dir, evalset.name, evalset.description, rows, settings)
    finally:
        close_llm(model)
        close_llm(judge_llm)
    write_json_atomic(out_dir / SUMMARY_FILE, {"settings": settings, "sets": summaries})
    typer.echo(safe_text(_table(summaries)))
    typer.echo(f"wrote {out_dir}", err=True)


def score_command(
    eval_dir: Annotated[Path, typer.Argument(metavar="EVAL_DIR", help="Folder with the set files.")],
    results: Annotated[
        Path | None, typer.Option("--results", help="Results folder (default: EVAL_DIR/results).")
    ] = None,
    judge_spec: Annotated[
        str | None, typer.Option("--judge", metavar="LLM", help="Model that gives the 1-5 rubric score.")
    ] = None,
) -> None:
    sets = {s.name: s for s in read_evalsets(eval_dir)}
    res_dir = results or eval_dir / RESULTS_DIR
    judge_llm = open_llm(judge_spec) if judge_spec else None
    summaries: dict[str, dict[str, Any]] = {}
    settings: dict[str, Any] = {}
    try:
        for name, evalset in sets.items():
            path = res_dir / f"{name}.json"
            if not path.is_file():
                continue
            saved = _read_results(path)
            rows = saved["items"]
            rescore(rows, _keywords_of(evalset))
            if judge_llm is not None:
                _judge_rows(judge_llm, rows)
            settings = saved.get("settings", {})
            summaries[name] = write_results(res_dir, name, evalset.description, rows, settings)
    finally:
        close_llm(judge_llm)
    if not summaries:
        raise KgreasonError(f"no results in {res_dir}; run `kgreason evalset run {eval_dir} --data DATA_DIR` first")
    write_json_atomic(res_dir / SUMMARY_FILE, {"settings": settings, "sets": summaries})
    typer.echo(safe_text(_table(summaries)))


def texts_command(
    data_dir: Annotated[Path, typer.Argument(metavar="DATA_DIR", help="Dataset folder in the task's layout.")],
    output: Annotated[Path, typer.Option("-o", "--output", help=f"Folder to write (e.g. EVAL_DIR/{TEXTS_DIR}).")],
) -> None:
    dataset, _ = load_dataset(data_dir, check_gold=False)
    for path in write_texts(dataset, output):
        typer.echo(f"wrote {path}")


# ----------------------------------------------------------------------------------------------------------
def _quiet(message: str) -> None:
    del message


def _selected(sets: list[EvalSet], only: list[str] | None) -> list[EvalSet]:
    if not only:
        return sets
    unknown = sorted(set(only) - {s.name for s in sets})
    if unknown:
        raise KgreasonError(f"--set {', '.join(unknown)}: no such set; sets: {', '.join(s.name for s in sets)}")
    return [s for s in sets if s.name in only]


def _read_results(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise DataError.single(str(path), f"not valid JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise DataError.single(str(path), "not a results file of `kgreason evalset run` (no 'items' list)")
    return data


def _keywords_of(evalset: EvalSet) -> Any:
    items = {i.id: list(i.keywords) for i in evalset.items}
    turns = {(d.id, t.turn): list(t.expected_points) for d in evalset.dialogues for t in d.turns}

    def lookup(item_id: str, turn: int | None) -> list[str] | None:
        return items.get(item_id) if turn is None else turns.get((item_id, turn))

    return lookup


def _judge_rows(llm: Any, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        for r in row.get("turns", [row]):
            question = r.get("question") or "；".join(r.get("resolved", [])) or r.get("user", "")
            expected = r.get("expected_answer") or "；".join(r.get("keywords", []))
            r["judge"] = judge(llm, question, expected, r["answer"])


__all__ = ["register", "summarise"]
