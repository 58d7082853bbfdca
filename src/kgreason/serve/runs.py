"""Finished runs for the run browser: `result.json` files that `kgreason run` wrote (with their trace and
`.run.json` beside them) under the folders given with `--runs`, scored against a served dataset's gold.

Runs are found by walking those folders; a run is named by its result file's path relative to its folder, and
requests name runs only by those names, which are looked up, never joined to a path: nothing outside the folders is
read. Files whose real location (symlinks resolved) lies outside their folder are not listed."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.records import Dataset
from kgreason.errors import DataError, KgreasonError
from kgreason.eval.metrics import gold_paths, normalize_path
from kgreason.eval.official import LoadedPredictions, QuestionScore, ScoreReport, load_predictions, score_records
from kgreason.explain import explain_trace
from kgreason.reason.runner import default_trace_path, read_journal
from kgreason.serve.models import (
    AskResponse,
    Components,
    MarkedTriple,
    RunInfo,
    RunItem,
    RunItemDetail,
    RunItems,
)

MAX_DEPTH = 4  # folders below a runs folder that are searched
MAX_RUNS = 500


class UnknownRun(KgreasonError):
    pass


@dataclass(frozen=True, slots=True)
class RunFiles:
    id: str
    result: Path
    trace: Path
    info: Path


@dataclass(frozen=True, slots=True)
class LoadedRun:
    files: RunFiles
    stamp: tuple[int, ...]
    predictions: LoadedPredictions
    journal: Mapping[str, tuple[Any, dict[str, Any]]]
    dataset: str | None
    gold: Dataset | None
    report: ScoreReport | None


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root)
    except OSError:
        return False


def find_runs(folders: list[Path]) -> dict[str, RunFiles]:
    """Every run under the folders: `X.json` with `X.trace.jsonl` or `X.run.json` beside it."""
    runs: dict[str, RunFiles] = {}
    for n, folder in enumerate(folders):
        root = folder.resolve()
        prefix = f"{n}:" if len(folders) > 1 else ""
        for here, dirs, files in os.walk(root, followlinks=False):
            depth = len(Path(here).relative_to(root).parts)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if depth < MAX_DEPTH else []
            names = set(files)
            for name in sorted(files):
                if not name.endswith(".json") or name.endswith(".run.json"):
                    continue
                stem = name[: -len(".json")]
                result = Path(here) / name
                trace, info = default_trace_path(result), result.with_name(f"{stem}.run.json")
                if trace.name not in names and info.name not in names:
                    continue
                if not all(_inside(p, root) for p in (result, trace, info) if p.name in names):
                    continue  # a symlink leading out of the served folder
                run_id = prefix + result.relative_to(root).as_posix()
                runs[run_id] = RunFiles(run_id, result, trace, info)
                if len(runs) >= MAX_RUNS:
                    return runs
    return runs


class RunCatalog:
    """The runs under the `--runs` folders, loaded and scored on first use (reloaded when their files change)."""

    def __init__(self, folders: list[Path], datasets: Mapping[str, Dataset]) -> None:
        self.folders = folders
        self.datasets = datasets
        self._loaded: dict[str, LoadedRun] = {}
        self._lock = threading.Lock()

    def list(self) -> list[RunInfo]:
        out: list[RunInfo] = []
        for run_id in find_runs(self.folders):
            try:
                run = self.load(run_id)
            except KgreasonError:
                continue  # unreadable now (being written?): not listed
            report = run.report
            out.append(
                RunInfo(
                    id=run_id,
                    dataset=run.dataset,
                    questions=len(run.predictions.by_id),
                    mean=round(report.mean, 4) if report else None,
                    total=round(report.total, 4) if report else None,
                )
            )
        return out

    def load(self, run_id: str) -> LoadedRun:
        files = find_runs(self.folders).get(run_id)
        if files is None:
            raise UnknownRun(f"no run {run_id!r} under the served runs folders; GET /api/runs lists them")
        stamp = tuple(p.stat().st_mtime_ns if p.exists() else 0 for p in (files.result, files.trace, files.info))
        with self._lock:
            cached = self._loaded.get(run_id)
            if cached is not None and cached.stamp == stamp:
                return cached
        try:
            predictions = load_predictions(files.result)
            journal = read_journal(files.trace) if files.trace.exists() else {}
        except DataError as exc:
            raise KgreasonError(f"run {run_id!r} cannot be read: {exc.problems[0]}") from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise KgreasonError(f"run {run_id!r} cannot be read: {exc}") from None
        name = self._dataset_of(files, predictions)
        gold = self.datasets[name] if name is not None else None
        report = score_records(predictions.by_id, gold.gold) if gold is not None and gold.gold else None
        run = LoadedRun(files, stamp, predictions, journal, name, gold, report)
        with self._lock:
            self._loaded[run_id] = run
        return run

    def _dataset_of(self, files: RunFiles, predictions: LoadedPredictions) -> str | None:
        """The served dataset with gold the run answered: the one its `.run.json` names, else the one whose
        questions (query_id and doc_id) the run's predictions match best (at least half of them)."""
        with_gold = {n: d for n, d in self.datasets.items() if d.gold}
        data_dir: Path | None = None
        try:
            info = json.loads(files.info.read_text(encoding="utf-8")) if files.info.exists() else {}
            if isinstance(info, dict) and isinstance(info.get("data_dir"), str):
                data_dir = Path(info["data_dir"]).resolve()
        except (OSError, ValueError):
            data_dir = None
        for name, ds in with_gold.items():
            if data_dir is not None and Path(ds.root).resolve() == data_dir:
                return name
        best, best_hits = None, 0
        for name, ds in with_gold.items():
            docs = {q.query_id: q.doc_id for q in ds.questions}
            hits = sum(1 for qid, p in predictions.by_id.items() if docs.get(qid) == p.record.doc_id)
            if hits > best_hits:
                best, best_hits = name, hits
        return best if best_hits * 2 >= max(1, len(predictions.by_id)) else None

    # ------------------------------------------------------------------------------------------- responses
    def items(self, run_id: str, level: str | None = None, answer_type: str | None = None) -> RunItems:
        run = self.load(run_id)
        rows = _rows(run)
        levels = sorted({r.level for r in rows})
        types = sorted({r.answer_type for r in rows})
        shown = [
            r
            for r in rows
            if (level is None or r.level == level) and (answer_type is None or r.answer_type == answer_type)
        ]
        scored = [r.score for r in shown if r.score is not None]
        return RunItems(
            run=run_id,
            dataset=run.dataset,
            count=len(shown),
            mean=round(sum(scored) / len(scored), 4) if scored else None,
            levels=levels,
            answer_types=types,
            items=shown,
        )

    def item(self, run_id: str, query_id: str) -> RunItemDetail:
        run = self.load(run_id)
        row = next((r for r in _rows(run) if r.query_id == query_id), None)
        if row is None:
            raise UnknownRun(f"run {run_id!r} has no question {query_id!r}")
        parsed = run.predictions.by_id.get(query_id)
        pred = parsed.record if parsed is not None else None
        gold = run.gold.gold.get(query_id) if run.gold is not None and run.gold.gold else None
        scored = _scores(run).get(query_id)
        label = scored.evidence.matched_path if scored is not None else None
        pred_path = list(pred.main_path) if pred is not None else []
        gold_path = list(dict(gold_paths(gold)).get(label or "main", gold.main_path)) if gold is not None else None
        pred_norm = set(normalize_path(pred_path))
        gold_norm = set(normalize_path(gold_path or []))
        explanation: AskResponse | None = None
        entry = run.journal.get(query_id)
        if entry is not None:
            explanation = AskResponse.of(run.dataset or "", explain_trace(entry[0], entry[1]), 0.0)
        return RunItemDetail(
            run=run_id,
            item=row,
            predicted_answers=list(pred.answers) if pred is not None else [],
            gold_answers=list(gold.answers) if gold is not None else None,
            predicted_chain=[
                MarkedTriple(triple=t, matched=n in gold_norm)
                for t, n in zip(pred_path, normalize_path(pred_path), strict=True)
            ],
            gold_chain=None
            if gold_path is None
            else [
                MarkedTriple(triple=t, matched=n in pred_norm)
                for t, n in zip(gold_path, normalize_path(gold_path), strict=True)
            ],
            gold_path_label=label,
            predicted_constraints=dict(pred.constraints) if pred is not None else {},
            gold_constraints=dict(gold.constraints) if gold is not None else None,
            explanation=explanation,
        )


def _scores(run: LoadedRun) -> dict[str, QuestionScore]:
    return {q.query_id: q for q in run.report.per_question} if run.report is not None else {}


def _rows(run: LoadedRun) -> list[RunItem]:
    preds = run.predictions.by_id
    if run.report is None or run.gold is None or run.gold.gold is None:
        return [
            RunItem(
                query_id=qid,
                doc_id=p.record.doc_id,
                question=p.record.question,
                level=p.record.difficulty,
                answer_type=p.record.answer_type,
                kind=None,
                status="unscored",
                score=None,
                components=None,
            )
            for qid, p in preds.items()
        ]
    gold = run.gold.gold
    rows: list[RunItem] = []
    for q in run.report.per_question:
        g = gold[q.query_id]
        m = q.metrics()
        rows.append(
            RunItem(
                query_id=q.query_id,
                doc_id=g.doc_id,
                question=g.question,
                level=q.level,
                answer_type=q.answer_type,
                kind=q.kind,
                status="missing" if q.status == "missing" else "scored",
                score=round(q.score, 4),
                components=Components(
                    answer=round(m["answer"], 4),
                    evidence=round(m["evidence"], 4),
                    reasoning=round(m["reasoning"], 4),
                    constraint=round(m["constraint"], 4),
                ),
            )
        )
    return rows
