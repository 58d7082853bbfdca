"""The evaluation-set files of spec 002, read into typed records with every problem named (file, record, field).

Single-turn sets (`factual_qa.json`, `relation_qa.json`, `event_tracking.json`): items with id, category,
difficulty, question, expected_answer, source {file, line_range}, keywords, notes. The multi-turn set
(`multi_turn.json`): items with id, scenario and turns {turn, user, expected_points, requires_context}. One optional
field beyond the spec, on context-dependent turns: `referent`, the entity the turn refers back to (used to measure
reference resolution; readers that do not know it ignore it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import read_text
from kgreason.errors import DataError, Problem

SINGLE_TURN_SETS: tuple[str, ...] = ("factual_qa", "relation_qa", "event_tracking")
MULTI_TURN_SET = "multi_turn"
ALL_SETS: tuple[str, ...] = (*SINGLE_TURN_SETS, MULTI_TURN_SET)
CATEGORIES = frozenset({"character", "location", "event", "relation", "item"})
DIFFICULTIES = frozenset({"easy", "medium", "hard"})


@dataclass(frozen=True, slots=True)
class Source:
    file: str  # relative to the evaluation folder
    line_range: tuple[int, int]  # 1-based, inclusive


@dataclass(frozen=True, slots=True)
class EvalItem:
    id: str
    category: str
    difficulty: str
    question: str
    expected_answer: str
    source: Source
    keywords: tuple[str, ...] = ()
    notes: str = ""


@dataclass(frozen=True, slots=True)
class EvalTurn:
    turn: int
    user: str
    expected_points: tuple[str, ...]
    requires_context: bool = False
    referent: str | None = None


@dataclass(frozen=True, slots=True)
class Dialogue:
    id: str
    scenario: str
    turns: tuple[EvalTurn, ...]


@dataclass(frozen=True, slots=True)
class EvalSet:
    name: str  # file stem: factual_qa, relation_qa, event_tracking, multi_turn
    description: str
    items: tuple[EvalItem, ...] = ()
    dialogues: tuple[Dialogue, ...] = ()


class _Fields:
    """Typed field access on one record that collects problems instead of raising."""

    def __init__(self, file: str, record: str, value: Any, problems: list[Problem], prefix: str = "") -> None:
        self.file, self.record, self.value, self.problems, self.prefix = file, record, value, problems, prefix

    def problem(self, field: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, message, self.record, f"{self.prefix}{field}" if field else None))

    def text(self, key: str, *, required: bool = True) -> str:
        v = self.value.get(key)
        if v is None and not required:
            return ""
        if not isinstance(v, str) or (required and not v.strip()):
            self.problem(key, "missing" if v is None else f"must be a non-empty string, got {json.dumps(v)}")
            return ""
        return v

    def strings(self, key: str, *, required: bool = False) -> tuple[str, ...]:
        v = self.value.get(key)
        if v is None and not required:
            return ()
        if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v) or (required and not v):
            self.problem(key, "must be a non-empty list of non-empty strings")
            return ()
        return tuple(v)

    def choice(self, key: str, allowed: frozenset[str]) -> str:
        v = self.text(key)
        if v and v not in allowed:
            self.problem(key, f"must be one of {', '.join(sorted(allowed))}, got {v!r}")
        return v


def _source(f: _Fields, root: Path) -> Source:
    raw = f.value.get("source")
    if not isinstance(raw, dict):
        f.problem("source", "missing" if raw is None else "must be an object {file, line_range}")
        return Source("", (0, 0))
    file = raw.get("file")
    lines = raw.get("line_range")
    if not isinstance(file, str) or not file:
        f.problem("source.file", "must be a non-empty string")
        return Source("", (0, 0))
    if not (isinstance(lines, list) and len(lines) == 2 and all(isinstance(x, int) for x in lines)):
        f.problem("source.line_range", "must be [first, last] line numbers")
        return Source(file, (0, 0))
    first, last = lines
    path = root / file
    if not path.is_file():
        f.problem("source.file", f"{file} not found in {root}")
    else:
        count = len(path.read_text(encoding="utf-8").splitlines())
        if not 1 <= first <= last <= count:
            f.problem("source.line_range", f"[{first}, {last}] is outside {file} (lines 1-{count})")
    return Source(file, (first, last))


def read_evalset(path: Path) -> EvalSet:
    """Read one set file; `DataError` lists every problem (file, record `id=...`, field)."""
    name = str(path)
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise DataError.single(name, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise DataError.single(name, "must be an object with an 'items' list (spec 002)")
    problems: list[Problem] = []
    items: list[EvalItem] = []
    dialogues: list[Dialogue] = []
    seen: set[str] = set()
    multi = path.stem == MULTI_TURN_SET
    for i, raw in enumerate(data["items"]):
        record = f"#{i}" + (f" (id={raw.get('id')})" if isinstance(raw, dict) and raw.get("id") else "")
        if not isinstance(raw, dict):
            problems.append(Problem(name, "must be an object", f"#{i}"))
            continue
        f = _Fields(name, record, raw, problems)
        item_id = f.text("id")
        if item_id in seen:
            f.problem("id", "duplicate id")
        seen.add(item_id)
        if multi:
            dialogues.append(_dialogue(f, item_id))
        else:
            items.append(
                EvalItem(
                    item_id,
                    f.choice("category", CATEGORIES),
                    f.choice("difficulty", DIFFICULTIES),
                    f.text("question"),
                    f.text("expected_answer"),
                    _source(f, path.parent),
                    f.strings("keywords"),
                    f.text("notes", required=False),
                )
            )
    if problems:
        raise DataError(problems)
    return EvalSet(path.stem, str(data.get("description", "")), tuple(items), tuple(dialogues))


def _dialogue(f: _Fields, item_id: str) -> Dialogue:
    turns_raw = f.value.get("turns")
    if not isinstance(turns_raw, list) or not turns_raw:
        f.problem("turns", "must be a non-empty list of turns")
        return Dialogue(item_id, "", ())
    turns: list[EvalTurn] = []
    for j, t in enumerate(turns_raw):
        if not isinstance(t, dict):
            f.problem(f"turns[{j}]", "must be an object")
            continue
        tf = _Fields(f.file, f.record, t, f.problems, f"turns[{j}].")
        number = t.get("turn")
        if number != j + 1:
            f.problem(f"turns[{j}].turn", f"must be {j + 1} (turns are numbered in order), got {number!r}")
        context = t.get("requires_context", False)
        if not isinstance(context, bool):
            f.problem(f"turns[{j}].requires_context", "must be true or false")
            context = False
        referent = t.get("referent")
        if referent is not None and not isinstance(referent, str):
            f.problem(f"turns[{j}].referent", "must be a string")
            referent = None
        user = tf.text("user")
        points = tf.strings("expected_points", required=True)
        turns.append(EvalTurn(j + 1, user, points, context, referent))
    return Dialogue(item_id, f.text("scenario", required=False), tuple(turns))


def read_evalsets(root: Path) -> list[EvalSet]:
    """Every set file of an evaluation folder, in the spec's order (missing files are skipped; none is an error)."""
    paths = [root / f"{name}.json" for name in ALL_SETS if (root / f"{name}.json").is_file()]
    if not paths:
        raise DataError.single(str(root), f"no evaluation set found (expected {', '.join(ALL_SETS)} .json)")
    problems: list[Problem] = []
    sets: list[EvalSet] = []
    for path in paths:
        try:
            sets.append(read_evalset(path))
        except DataError as exc:
            problems += exc.problems
    if problems:
        raise DataError(problems)
    return sets
