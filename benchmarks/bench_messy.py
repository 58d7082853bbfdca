"""The same dataset written with other tools' habits: does it load, and does it score as the original?

    .venv/bin/python benchmarks/bench_messy.py                                   # ../shared/data/ccks_ext_dev
    .venv/bin/python benchmarks/bench_messy.py --data examples/sample

Each variant changes the files only in form (`kgreason/data/shapes.py` reads them; `docs/data.md`): the encoding,
field names, wrappers, bare triple lists, numbers as ids, levels as digits or missing, dates written `2011-01-11`.
The questions are answered with `--llm none` and scored by the official metric against the original gold (for the
date variant, the gold's KG dates are rewritten the same way). A variant that cannot be loaded prints its first
error. Exits 0 with a message when the data folder is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgreason.data.loader import load_answer_file, load_dataset
from kgreason.data.records import Dataset
from kgreason.errors import DataError
from kgreason.eval.official import score_records
from kgreason.reason.reasoner import Reasoner

HERE = Path(__file__).resolve().parent.parent
DEFAULT_DATA = HERE.parent / "shared" / "data" / "ccks_ext_dev"
DATE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")


def _edit(path: Path, change: Callable[[Any], Any]) -> None:
    value = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(change(value), ensure_ascii=False), encoding="utf-8")


def _kgs(folder: Path, change: Callable[[dict[str, Any]], Any]) -> None:
    for path in folder.glob("KG_*.json"):
        _edit(path, lambda kg: [change(t) for t in kg])


def _keys(mapping: dict[str, str]) -> Callable[[dict[str, Any]], Any]:
    return lambda t: {mapping.get(k, k): v for k, v in t.items()}


def _numbered_ids(folder: Path) -> None:
    for path in folder.glob("KG_*.json"):
        _edit(path, lambda kg: [{**t, "triple_id": i + 1} for i, t in enumerate(kg)])


def _reencode(folder: Path) -> None:
    for path in folder.glob("*.json"):
        path.write_bytes(path.read_text(encoding="utf-8").encode("gb18030"))


def _iso(text: str) -> str:
    return DATE.sub(lambda m: f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}", text)


def _iso_dates(folder: Path) -> None:
    """KG dates as `2011-01-11`; in the gold, the answers and path elements that are KG values, the same way (a
    bound quoted from the question stays as the question writes it)."""
    values: set[str] = set()
    for path in folder.glob("KG_*.json"):
        values.update(x for t in json.loads(path.read_text(encoding="utf-8")) for x in (t["sub"], t["obj"]))
    _kgs(folder, lambda t: {**t, "sub": _iso(t["sub"]), "obj": _iso(t["obj"])})

    def gold_value(v: Any) -> Any:
        if isinstance(v, str):
            return _iso(v) if v in values else v
        if isinstance(v, list):
            return [gold_value(x) for x in v]
        return v

    keys = ("answers", "gold_reasoning_paths_main", "gold_reasoning_paths_alt")
    gold = folder / "qa_answer.json"
    _edit(gold, lambda items: [{k: gold_value(v) if k in keys else v for k, v in g.items()} for g in items])


VARIANTS: dict[str, Callable[[Path], None]] = {
    "original": lambda folder: None,
    "GB18030 (GBK) files": _reencode,
    "subject/predicate/object keys": lambda f: _kgs(
        f, _keys({"sub": "subject", "sub_type": "subject_type", "relation": "predicate", "obj": "object"})
    ),
    "头实体/关系/尾实体 keys": lambda f: _kgs(f, _keys({"sub": "头实体", "relation": "关系", "obj": "尾实体"})),
    "numbers as triple_id": _numbered_ids,
    "no triple_id": lambda f: _kgs(f, lambda t: {k: v for k, v in t.items() if k != "triple_id"}),
    "bare [sub, relation, obj] lists (no types)": lambda f: _kgs(f, lambda t: [t["sub"], t["relation"], t["obj"]]),
    'qa.json as {"data": [...]}': lambda f: _edit(f / "qa.json", lambda qa: {"data": qa}),
    "document.json as {doc_id: content}": lambda f: _edit(
        f / "document.json", lambda docs: {d["doc_id"]: d["content"] for d in docs}
    ),
    "levels as digits": lambda f: _edit(
        f / "qa.json", lambda qa: [{**q, "difficulty": int(q["difficulty"][1])} for q in qa]
    ),
    "no levels (answered as L2)": lambda f: _edit(
        f / "qa.json", lambda qa: [{k: v for k, v in q.items() if k != "difficulty"} for q in qa]
    ),
    "KG dates as 2011-01-11": _iso_dates,
}


def _answer(dataset: Dataset) -> dict[str, Any]:
    reasoner = Reasoner(dataset)
    return {q.query_id: reasoner.answer(q).record for q in dataset.questions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    print(f"command: .venv/bin/python benchmarks/bench_messy.py {' '.join(argv or sys.argv[1:])}".rstrip())
    if not (args.data / "qa_answer.json").is_file():
        print(f"{args.data}: no dataset folder with qa_answer.json; nothing measured")
        return 0
    print(f"{'variant':44} {'warnings':>8} {'score':>7} {'seconds':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, change in VARIANTS.items():
            folder = Path(tmp) / f"v{len(list(Path(tmp).iterdir()))}"
            shutil.copytree(args.data, folder)
            gold_folder = folder / "gold"
            gold_folder.mkdir()
            change(folder)  # the gold is rewritten too where the variant changes values (dates)
            shutil.move(folder / "qa_answer.json", gold_folder / "qa_answer.json")
            t0 = time.perf_counter()
            try:
                dataset, warnings = load_dataset(folder, check_gold=False)
            except DataError as exc:
                print(f"{name:44} refused: {exc.problems[0]}")
                continue
            gold, _ = load_answer_file(gold_folder / "qa_answer.json")
            report = score_records(_answer(dataset), {g.query_id: g for g in gold})
            print(f"{name:44} {len(warnings):8d} {report.mean:7.4f} {time.perf_counter() - t0:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
