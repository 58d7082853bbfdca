"""`kgreason textqa convert|score|run`: text multi-hop QA (HotpotQA, 2WikiMultihopQA, MuSiQue; docs/textqa.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kgreason.commands import Command, open_llm
from kgreason.data.jsonio import write_json_atomic
from kgreason.errors import KgreasonError
from kgreason.extract.source import ExtractorSource
from kgreason.llm.factory import close_llm, llm_accounting
from kgreason.retrieve.base import Embedder
from kgreason.text.terminal import safe_text
from kgreason.textqa.loaders import FORMATS, load_textqa
from kgreason.textqa.paragraphs import DEFAULT_PARAGRAPHS
from kgreason.textqa.records import TextQASet
from kgreason.textqa.retrieval import RETRIEVERS, RetrieverName
from kgreason.textqa.run import (
    BRIDGE_BY_PARTS_DEFAULT,
    COMPARE_BY_PARTS_DEFAULT,
    COMPARE_RELATED_BY_PARTS_DEFAULT,
    CONTEXTS,
    RunSummary,
    TextQASettings,
    run_textqa,
)
from kgreason.textqa.score import TextQAScore, score_file
from kgreason.textqa.unified import to_unified

HELP = "Text multi-hop QA: HotpotQA, 2WikiMultihopQA and MuSiQue files, their official metrics, and answering them."
FORMAT_HELP = f"The data set of the file: {' | '.join(FORMATS)} (auto: by the records' keys)."
LLM_HELP = "Model that reads the sentences: embedded | embedded-small | openai:URL#MODEL | ensemble:SPEC,SPEC."
KG_PATH_NOTE = (
    "KG path (b) not run (add --kg-path): it reads triples from the retrieved sentences with `kgreason extract`'s "
    "extractor, several model calls per question."
)


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="textqa", help=HELP, no_args_is_help=True, add_completion=False)
    group.command(name="convert", cls=Command, no_args_is_help=True)(convert_command)
    group.command(name="score", cls=Command, no_args_is_help=True)(score_command)
    group.command(name="run", cls=Command, no_args_is_help=True)(run_command)
    app.add_typer(group, name="textqa")


def _load(path: Path, fmt: str) -> TextQASet:
    data = load_textqa(path, fmt)
    err = _err()
    for warning in data.warnings:
        err.print(safe_text(f"warning: {warning}"), markup=False)
    return data


def convert_command(
    source: Annotated[Path, typer.Argument(metavar="IN", help="HotpotQA / 2Wiki / MuSiQue file (JSON or JSONL).")],
    target: Annotated[Path, typer.Argument(metavar="OUT", help="Unified-format JSON file to write.")],
    fmt: Annotated[str, typer.Option("--format", help=FORMAT_HELP)] = "auto",
) -> None:
    """Convert a file in its set's original format into the seed's unified format (id, hop, type, question,
    answer, chunks, supporting_facts, decomposition).

    \b
    Example:
        kgreason textqa convert hotpotqa_train.json hotpot.unified.json
    """
    data = _load(source, fmt)
    write_json_atomic(target, [to_unified(item) for item in data.items])
    typer.echo(f"{len(data.items)} {data.dataset} item(s) -> {target}")


def format_score(score: TextQAScore, label: str = "") -> str:
    head = f"{label}{score.dataset}: {score.questions} question(s)" + (
        f", {score.missing} without a prediction" if score.missing else ""
    )
    shown = [k for k in score.metrics if not k.endswith(("prec", "recall"))]
    return head + "\n" + "  ".join(f"{k} {score.metrics[k]:.3f}" for k in shown)


def score_command(
    prediction: Annotated[Path, typer.Argument(metavar="PRED", help="Predictions in the set's official format.")],
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="The set's file with gold answers (original format).")],
    fmt: Annotated[str, typer.Option("--format", help=FORMAT_HELP)] = "auto",
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the figures to this JSON file.")] = None,
) -> None:
    """Official metrics: answer EM/F1, supporting-fact EM/F1 and joint EM/F1 (HotpotQA, 2Wiki), evidence EM/F1
    (2Wiki), MuSiQue answer and support EM/F1 (and answerability accuracy when predictions state it)."""
    result = score_file(prediction, _load(gold, fmt))
    typer.echo(format_score(result))
    if json_out is not None:
        write_json_atomic(json_out, dataclasses.asdict(result))


def run_command(
    data_file: Annotated[Path, typer.Argument(metavar="DATA", help="HotpotQA / 2Wiki / MuSiQue file.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for the journal and the outputs.")],
    llm: Annotated[str, typer.Option("--llm", help=LLM_HELP)] = "embedded",
    fmt: Annotated[str, typer.Option("--format", help=FORMAT_HELP)] = "auto",
    retriever: Annotated[
        str, typer.Option("--retriever", help=f"Ranking of paragraphs or sentences: {' | '.join(RETRIEVERS)}.")
    ] = "bm25",
    context: Annotated[
        str,
        typer.Option(
            "--context",
            help="What the model reads: 'paragraphs' (the question's likeliest paragraphs whole) or 'sentences' "
            "(the top-ranked sentences with their paragraphs' first).",
        ),
    ] = "sentences",
    paragraphs: Annotated[
        int, typer.Option("--paragraphs", min=1, help="Paragraphs shown whole (--context paragraphs).")
    ] = DEFAULT_PARAGRAPHS,
    top_k: Annotated[
        int,
        typer.Option(
            "--top-k", min=1, help="Sentences shown (--context sentences), plus their paragraphs' first ones."
        ),
    ] = 6,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N questions.")] = None,
    no_resume: Annotated[bool, typer.Option("--no-resume", help="Start over instead of resuming.")] = False,
    kg_path: Annotated[
        bool,
        typer.Option(
            "--kg-path",
            help="Also answer by the KG path: triples extracted from the retrieved sentences (kgreason extract's "
            "reader, cached), the model picks evidence triples; outputs in kg/. Several model calls per question.",
        ),
    ] = False,
    second_round: Annotated[
        bool,
        typer.Option(
            "--second-round",
            help="Baseline: rank the sentences again with the question plus the first answers and ask the model "
            "once more over the new ones (one extra call at most).",
        ),
    ] = False,
    compare_by_parts: Annotated[
        bool,
        typer.Option(
            "--compare-by-parts/--no-compare-by-parts",
            help="Baseline: a two-entity comparison found in the question (which came first / is larger, are both "
            "…, the same …) is answered by one lookup per entity, compared by the program; the single reading "
            "when that cannot decide it.",
        ),
    ] = COMPARE_BY_PARTS_DEFAULT,
    bridge_by_parts: Annotated[
        bool,
        typer.Option(
            "--bridge-by-parts/--no-bridge-by-parts",
            help="Baseline: a bridge question (it names a paragraph whose text names the entity it asks about) is "
            "answered by one lookup over that entity's paragraph, shown the sentence linking the two; the single "
            "reading when no such chain is found.",
        ),
    ] = BRIDGE_BY_PARTS_DEFAULT,
    compare_related_by_parts: Annotated[
        bool,
        typer.Option(
            "--compare-related-by-parts/--no-compare-related-by-parts",
            help="Baseline: a comparison by a related entity's attribute (which film has the director born "
            "earlier, A or B?) is answered by finding each entity's related one in its paragraph, one lookup each, "
            "compared by the program; the single reading when that cannot decide it.",
        ),
    ] = COMPARE_RELATED_BY_PARTS_DEFAULT,
) -> None:
    """Answer every question: rank its sentences, answer with the LLM reader (baseline path), and write
    baseline/answers.json (the seed's answer format) and baseline/prediction.json (HotpotQA, 2Wiki) or
    prediction.jsonl (MuSiQue); print the official scores when the file has gold answers. Resumes if interrupted."""
    if retriever not in RETRIEVERS:
        raise KgreasonError(f"--retriever must be one of {', '.join(RETRIEVERS)}, got {retriever!r}")
    if context not in CONTEXTS:
        raise KgreasonError(f"--context must be one of {', '.join(CONTEXTS)}, got {context!r}")
    if llm.strip() == "none":
        raise KgreasonError("textqa run needs a model to read the sentences: --llm embedded | openai:URL#MODEL | …")
    data = _load(data_file, fmt)
    err = _err()
    settings = TextQASettings(
        data.dataset,
        llm,
        _retriever(retriever),
        top_k,
        kg_path=kg_path,
        second_round=second_round,
        context="sentences" if context == "sentences" else "paragraphs",
        paragraphs=paragraphs,
        compare_by_parts=compare_by_parts,
        bridge_by_parts=bridge_by_parts,
        compare_related_by_parts=compare_related_by_parts,
    )
    embedder = _embedder(settings.retriever)
    model = open_llm(llm)
    if model is None:  # parse_spec gave "none" for a spelling of it
        raise KgreasonError("textqa run needs a model")
    source = ExtractorSource(model) if kg_path else None
    if source is None:
        err.print(KG_PATH_NOTE, markup=False)
    try:
        summary = run_textqa(
            data,
            output,
            settings,
            model,
            embedder=embedder,
            triple_source=source,
            accounting=llm_accounting(model),
            resume=not no_resume,
            limit=limit,
            progress=lambda msg: err.print(safe_text(msg), markup=False),
        )
    finally:
        accounting = llm_accounting(model)
        if accounting is not None:
            err.print(accounting.line(), markup=False)
        close_llm(model)
    _report(data, summary)
    if summary.failures:
        raise typer.Exit(3)


def _retriever(name: str) -> RetrieverName:
    for r in RETRIEVERS:
        if r == name:
            return r
    raise KgreasonError(f"unknown retriever {name!r}")


def _embedder(retriever: RetrieverName) -> Embedder | None:
    if retriever == "bm25":
        return None
    from kgreason.retrieve.embedder import load_e5_embedder

    return load_e5_embedder()


def _report(data: TextQASet, summary: RunSummary) -> None:
    for path in summary.written:
        typer.echo(f"wrote {path}")
    answered = {o.id for o in summary.outcomes}
    gold = dataclasses.replace(data, items=tuple(i for i in data.items if i.id in answered and i.answer is not None))
    if not gold.items:
        return
    for path in summary.written:
        if path.name.startswith("prediction"):
            typer.echo(format_score(score_file(path, gold), label=f"{path.parent.name} "))
    n = len(summary.outcomes)
    seconds = sum(o.seconds for o in summary.outcomes) / n
    tokens = sum(o.prompt_tokens + o.completion_tokens for o in summary.outcomes) / n
    typer.echo(f"{n} question(s): {seconds:.1f} s and {tokens:.0f} LLM tokens per question (resumed ones included)")
    if summary.failures:
        typer.echo(
            f"{summary.failures} answer(s) without a model reply (a rerun asks again those whose server was "
            "unavailable, slow or failing)"
        )
