"""`kgreason mecha ...`: the Mecha-QA dataset of spec 001 (convert, train the relevance model, rank, benchmark).

Paths come from options; `--data DIR` stands for a folder holding `kg.txt`, `train.jsonl` and `test.jsonl` (the
layout of github.com/reml-group/Mecha-QA `dataset/`, with QA files beside the KG).
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from kgreason.commands import Command
from kgreason.commands.interrupt import run_or_stop
from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import KgreasonError, Problem
from kgreason.mecha.data import SubgraphIndex, convert_mecha, load_mecha_kg, load_mecha_qa
from kgreason.text.terminal import safe_json, safe_text

mecha_app = typer.Typer(
    name="mecha",
    help="Mecha-QA (spec 001): convert to the task layout, train and evaluate the relevance model, benchmark, report.",
    no_args_is_help=True,
)

DataOpt = Annotated[Path | None, typer.Option("--data", help="Folder with kg.txt, train.jsonl and test.jsonl.")]
KgOpt = Annotated[Path | None, typer.Option("--kg", help="The KG file (default: DATA/kg.txt).")]


def _path(explicit: Path | None, data: Path | None, name: str, option: str) -> Path:
    if explicit is not None:
        return explicit
    if data is not None:
        return data / name
    raise KgreasonError(f"give {option} or --data DIR")


def _echo(message: str) -> None:
    typer.echo(safe_text(message), err=True)


def _warn(problem: Problem) -> None:
    _echo(str(problem))


@mecha_app.command("convert", cls=Command)
def convert_cmd(
    qa: Annotated[Path, typer.Option("--qa", help="A Mecha-QA JSON Lines file (e.g. test.jsonl).")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Output folder (created).")],
    kg: KgOpt = None,
    data: DataOpt = None,
    doc_id: Annotated[str, typer.Option(help="doc_id of the single document holding the KG.")] = "mecha_kg",
    prefix: Annotated[str, typer.Option(help="query_id prefix.")] = "mecha",
    keep_missing: Annotated[
        bool, typer.Option(help="Keep gold triples that are not in the KG (the folder then fails validation).")
    ] = False,
) -> None:
    """Write document.json, KG_<doc_id>.json, qa.json and qa_answer.json (gold path = the gold triples)."""
    triples = load_mecha_kg(_path(kg, data, "kg.txt", "--kg"), _warn)
    items = load_mecha_qa(qa, _warn)
    warnings = convert_mecha(
        triples, items, out, doc_id=doc_id, query_prefix=prefix, source=str(qa), drop_missing=not keep_missing
    )
    for w in warnings:
        _echo(str(w))
    left_out = sum(1 for w in warnings if "left out" in w.message)
    typer.echo(
        f"wrote {out}: {len(triples)} triples, {len(items) - left_out} questions "
        f"({left_out} left out), {len(warnings)} warning(s)"
    )


@mecha_app.command("train", cls=Command)
def train_cmd(
    out: Annotated[Path, typer.Option("-o", "--out", help="Where to write the model (.npz).")],
    kg: KgOpt = None,
    train: Annotated[Path | None, typer.Option("--train", help="Training questions (default DATA/train.jsonl).")] = (
        None
    ),
    data: DataOpt = None,
    seed: int = 0,
    hidden: Annotated[int, typer.Option(help="tanh units (0 = linear model).")] = 8,
    interaction: Annotated[bool, typer.Option(help="Also learn weights on question⊙triple vectors.")] = False,
    validation_fraction: float = 0.2,
) -> None:
    """Train the relevance model on train.jsonl only (a seeded share held out for early stopping).

    The packaged model was built with: kgreason mecha train --data DATA -o src/kgreason/resources/relevance_mecha.npz
    """
    from kgreason.mecha.training import TrainConfig, fit_mecha
    from kgreason.retrieve.embedder import load_e5_embedder

    index = SubgraphIndex(load_mecha_kg(_path(kg, data, "kg.txt", "--kg"), _warn))
    items = load_mecha_qa(_path(train, data, "train.jsonl", "--train"), _warn)
    config = TrainConfig(hidden=hidden, use_interaction=interaction, seed=seed, validation_fraction=validation_fraction)
    embedder = load_e5_embedder()
    start = time.monotonic()
    model, report = fit_mecha(items, index, embedder, config)
    embedder.flush()
    model.save(out)
    typer.echo(safe_json(report.as_dict()))
    typer.echo(f"wrote {out} ({out.stat().st_size} bytes) in {time.monotonic() - start:.1f} s")


@mecha_app.command("rank", cls=Command)
def rank_cmd(
    kg: KgOpt = None,
    qa: Annotated[Path | None, typer.Option("--qa", help="Questions to rank for (default DATA/test.jsonl).")] = None,
    data: DataOpt = None,
    model: Annotated[Path | None, typer.Option(help="Relevance model (default: the packaged one).")] = None,
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Also write the metrics as JSON.")] = None,
) -> None:
    """MRR / Recall@1 / Recall@5 / Hit@1 of gold triples in the question entities' subgraph, per scorer."""
    from kgreason.mecha.training import candidate_labels
    from kgreason.retrieve.embedder import CosineTripleScorer, load_e5_embedder
    from kgreason.retrieve.lexical import BM25TripleScorer
    from kgreason.retrieve.ranking import evaluate_scorer
    from kgreason.retrieve.relevance import load_relevance_scorer

    triples = load_mecha_kg(_path(kg, data, "kg.txt", "--kg"), _warn)
    index = SubgraphIndex(triples)
    items = load_mecha_qa(_path(qa, data, "test.jsonl", "--qa"), _warn)
    embedder = load_e5_embedder()
    questions = [it.question for it in items]
    candidates = [index.subgraph(it.entities) for it in items]
    labels = [candidate_labels(it, c) for it, c in zip(items, candidates, strict=True)]
    scorers: list[tuple[str, Any]] = [
        ("BM25 (idf over the KG)", BM25TripleScorer(triples)),
        ("BM25 (idf over the candidates)", BM25TripleScorer()),
        ("e5 cosine (untrained)", CosineTripleScorer(embedder)),
        ("trained relevance model", load_relevance_scorer(embedder, model)),
    ]
    rows: dict[str, Any] = {}
    typer.echo("| scorer | n | MRR | Recall@1 | Recall@5 | Hit@1 |")
    typer.echo("|---|---|---|---|---|---|")
    for name, scorer in scorers:
        m = evaluate_scorer(scorer, questions, candidates, labels)
        rows[name] = m.as_dict()
        typer.echo(f"| {name} | {m.n} | {m.mrr:.4f} | {m.recall_at_1:.4f} | {m.recall_at_5:.4f} | {m.hit_at_1:.4f} |")
    embedder.flush()
    skipped = next(iter(rows.values()))["n_without_gold"]
    typer.echo(f"{skipped} question(s) without any gold triple among their candidates are left out.")
    if out is not None:
        write_json_atomic(out, rows)


@mecha_app.command("bench", cls=Command)
def bench_cmd(
    kg: KgOpt = None,
    qa: Annotated[Path | None, typer.Option("--qa", help="Questions (default DATA/test.jsonl).")] = None,
    data: DataOpt = None,
    llm: Annotated[str, typer.Option("--llm", help="LLM spec (embedded, embedded-small, openai:..., none).")] = "none",
    judge: Annotated[str | None, typer.Option("--judge", help="LLM spec of the LLM-Score judge.")] = None,
    setups: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated setups (default: all): emb-cosine, bm25, rem, rem-top1, llm-kg, ours, "
            "ours-wo-scores, ours-wo-sort, ours-ids-down, ours-top5, ours-set, rem-gated, ours-set-gated, ours-gated "
            "(see docs/mecha_qa.md)."
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N questions (a fixed subset).")] = None,
    min_gold: Annotated[
        int, typer.Option(help="Only questions with at least this many gold triples (2: the multi-triple ones).")
    ] = 1,
    model: Annotated[Path | None, typer.Option(help="Relevance model (default: the packaged one).")] = None,
    out: Annotated[Path, typer.Option("-o", "--out", help="Results JSON.")] = Path("mecha_bench.json"),
    max_chars: Annotated[int, typer.Option(help="Clip displayed triple parts to this many characters.")] = 80,
    labels: Annotated[
        str, typer.Option(help="What the LLM's enum lists: id (T1..Tn, default), triple ([s, r, o]) or relation.")
    ] = "id",
) -> None:
    """Reproduce spec 001's 表 5 / 表 7 on Mecha-QA with the models that run here; LLM replies are cached."""
    from kgreason.mecha.bench import DEFAULT_SETUPS, run_bench_cli

    job = partial(
        run_bench_cli,
        kg=_path(kg, data, "kg.txt", "--kg"),
        qa=_path(qa, data, "test.jsonl", "--qa"),
        llm_spec=llm,
        judge_spec=judge,
        setup_names=[s.strip() for s in setups.split(",") if s.strip()] if setups else list(DEFAULT_SETUPS),
        limit=limit,
        min_gold=min_gold,
        model_path=model,
        out=out,
        max_chars=max_chars,
        labels=_label_style(labels),
        echo=typer.echo,
        progress=_echo,
    )
    run_or_stop(
        job,
        _echo,
        "interrupted: mecha bench stopped; LLM replies so far are cached, so the same command goes on quickly",
    )


@mecha_app.command("report", cls=Command)
def report_cmd(
    results: Annotated[list[Path], typer.Argument(metavar="RESULTS.json...", help="Files written by mecha bench.")],
    baseline: Annotated[
        str | None, typer.Option(help="Count per setup the questions it fixes and breaks against this setup.")
    ] = "rem",
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Also write the rows as JSON.")] = None,
) -> None:
    """One table from several bench result files (e.g. one per setup), with fixes/breaks against a baseline setup
    and how well the LLM-Score judge separates right answers from wrong ones."""
    from dataclasses import asdict

    from kgreason.mecha.report import format_report, judge_separation, load_results, setup_rows

    loaded = load_results(results)
    base = baseline if baseline else None
    if base is not None and base not in loaded:
        _echo(f"baseline {base!r} is not in these files: no fixed / broken columns")
        base = None
    rows = setup_rows(loaded, base)
    separation = judge_separation(loaded)
    typer.echo(format_report(rows, separation, base))
    if out is not None:
        write_json_atomic(out, {"baseline": base, "rows": [asdict(r) for r in rows], "judge": asdict(separation)})


def _label_style(value: str) -> Literal["triple", "id", "relation"]:
    if value == "triple":
        return "triple"
    if value == "id":
        return "id"
    if value == "relation":
        return "relation"
    raise KgreasonError(f"--labels must be triple, id or relation, got {value!r}")


def register(app: typer.Typer) -> None:
    app.add_typer(mecha_app, name="mecha")
