"""Loading task data for the other commands: a dataset folder, or one answer file (`result.json` /
`qa_answer.json`). Fatal problems are raised together as one `DataError`; warnings are returned.

    dataset, warnings = load_dataset(Path("examples/sample"))
    predictions, warnings = load_answer_file(Path("runs/result.json"))
"""

from __future__ import annotations

from pathlib import Path

from kgreason.data.problems import fold_repeats
from kgreason.data.readers import read_answers
from kgreason.data.records import AnswerRecord, Dataset
from kgreason.data.validate import check_dataset
from kgreason.errors import DataError, Problem


def load_dataset(root: Path, *, check_gold: bool = True) -> tuple[Dataset, list[Problem]]:
    """Load and validate a folder with document.json, KG_<doc_id>.json files, qa.json and optionally
    qa_answer.json (the gold answers, then available as `Dataset.gold`).

    Every check of docs/data.md runs; `check_gold=False` skips the gold-path checks (KG membership of path
    triples, derived triples, connectivity, answers on the path), which only the annotators need.
    Raises `DataError` with every error of every file; returns the dataset and the warnings.
    """
    report = check_dataset(root, check_gold=check_gold)
    if report.dataset is None:
        raise DataError(report.errors)
    return report.dataset, report.warnings


def load_answer_file(path: Path) -> tuple[list[AnswerRecord], list[Problem]]:
    """Load one `result.json` or `qa_answer.json` on its own (JSON array or JSON Lines), in file order.

    Each item is checked field by field (`kgreason.data.answers`); duplicate query_ids are errors. Raises
    `DataError` with every error; returns the items and the warnings (e.g. a missing optional field). A
    scorer that must keep items with bad fields uses `kgreason.data.answers.parse_answer_record` instead.
    """
    result = read_answers(path)
    problems = fold_repeats(result.problems)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise DataError(errors)
    return [item.value for item in result.items], problems
