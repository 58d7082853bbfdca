"""Mecha-QA (spec 001): loader, question subgraphs, the answer entity, and a converter to the task's layout.

Files (github.com/reml-group/Mecha-QA, `dataset/`):
- `kg.txt`: one triple per line, a Python-list literal (`['灰铸铁', '弹性模量', '0.8-1.6 (10^5 MPa)']`) or a JSON list.
  Numbers occur as values (`['T10A', '...线膨胀系数', 11]`) and are kept as their text (`"11"`).
- `train.jsonl` / `test.jsonl` / `test_3d.jsonl`: one object per line with `问题` (question), `答案` (the answer:
  free text; in test_3d.jsonl also a JSON list, a set of answers, or an object, a set of `key: value` facts),
  `实体` (question entities) and `对应的三元组` (gold triples).

Lines are parsed with `json.loads`, then `ast.literal_eval` (literals only, never `eval`). Real files are accepted as
they are where something sensible can be read: a KG line or gold triple with an empty element (`["X", "某属性", ""]`,
kg_3d.txt has 5) is skipped with one warning naming file and line (passed to `warn`). Every other bad line is
reported with its file, line and field, and all of them are raised together as one `DataError`.

The answer entity (what Accuracy looks for in a system's answer, see `answer_entities`) is defined here because the
dataset only has a free-text answer.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import bounded_int, lone_surrogate_at, parse_json, read_text, split_lines, write_json_atomic
from kgreason.data.records import PathTriple
from kgreason.errors import DataError, Problem
from kgreason.text.normalize import normalize_text

QUESTION_KEY = "问题"
ANSWER_KEY = "答案"
ENTITIES_KEY = "实体"
GOLD_KEY = "对应的三元组"
DEFAULT_DOC_ID = "mecha_kg"
# How a list answer and an object answer read as one text (the LLM-Score judge's reference).
LIST_ANSWER_SEPARATOR = "、"
FACT_SEPARATOR = "；"

Warn = Callable[[Problem], None]


@dataclass(frozen=True, slots=True)
class MechaItem:
    """One Mecha-QA question. `line` is the 1-based line in its file; `index` the 0-based position among items."""

    index: int
    line: int
    question: str
    answer: str
    entities: tuple[str, ...]
    gold: tuple[PathTriple, ...]
    # The answer entities the file itself gives: the items of a list answer, the values of an object answer
    # (`answer` then holds them as one text); empty for a free-text answer.
    answers: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------------- parsing


def _literal(text: str) -> Any:
    """A JSON value, else a Python literal; `ValueError` when it is neither."""
    try:
        value = json.loads(text, parse_int=bounded_int)
    except json.JSONDecodeError:
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
            raise ValueError(f"not a JSON or Python literal ({type(exc).__name__})") from None
    except (ValueError, RecursionError) as exc:  # a number too long, nesting too deep
        raise ValueError(f"not a usable JSON value ({type(exc).__name__}: {str(exc)[:80]})") from None
    if lone_surrogate_at(value) is not None:
        raise ValueError("holds a lone surrogate escape such as \\ud800, which is not a character")
    return value


def _as_text(value: Any) -> str:
    """A triple element as text: strings as they are, numbers as written (`11`, `10.4`); others are errors."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool) or value is None:
        raise ValueError(f"expected a string or a number, got {value!r}")
    if isinstance(value, int | float):
        return str(value)
    raise ValueError(f"expected a string or a number, got {type(value).__name__}")


class EmptyElementError(ValueError):
    """A well-formed triple with an empty head, relation or tail: nothing to use, but not a broken file."""


def parse_triple(value: Any) -> PathTriple:
    """`[s, r, o]` with non-empty elements; `EmptyElementError` for an empty element, `ValueError` saying what is
    wrong otherwise."""
    if not isinstance(value, list | tuple) or len(value) != 3:
        size = f" of {len(value)} items" if isinstance(value, list | tuple) else ""
        raise ValueError(f"expected a list [head, relation, tail], got {type(value).__name__}{size}")
    s, r, o = (_as_text(v) for v in value)
    empty = [name for name, text in (("head", s), ("relation", r), ("tail", o)) if not text]
    if empty:
        raise EmptyElementError(f"empty {' and '.join(empty)}")
    return (s, r, o)


def _skipped(name: str, lineno: int, field: str, exc: EmptyElementError, what: str) -> Problem:
    return Problem(file=name, record=f"line {lineno}", field=field, message=f"{exc}: {what}", severity="warning")


def load_mecha_kg(path: Path, warn: Warn | None = None) -> tuple[PathTriple, ...]:
    """The KG's triples in file order, exact duplicates dropped (kg.txt repeats 53 lines); a line with an empty
    element is skipped and reported to `warn`."""
    name = str(path)
    problems: list[Problem] = []
    seen: set[PathTriple] = set()
    triples: list[PathTriple] = []
    for lineno, line in split_lines(read_text(path)):
        if not line.strip():
            continue
        try:
            triple = parse_triple(_literal(line.strip()))
        except EmptyElementError as exc:
            if warn is not None:
                warn(_skipped(name, lineno, "triple", exc, "line skipped"))
            continue
        except ValueError as exc:
            problems.append(Problem(file=name, record=f"line {lineno}", field="triple", message=str(exc)))
            continue
        if triple not in seen:
            seen.add(triple)
            triples.append(triple)
    if problems:
        raise DataError(problems)
    if not triples:
        raise DataError.single(name, "no triples in the file")
    return tuple(triples)


def load_mecha_qa(path: Path, warn: Warn | None = None) -> list[MechaItem]:
    """Questions of a Mecha-QA JSON Lines file; every bad line/field is reported, then raised together. A gold
    triple with an empty element is dropped (and a question left without gold triples skipped), reported to
    `warn`."""
    name = str(path)
    problems: list[Problem] = []
    items: list[MechaItem] = []
    for lineno, line in split_lines(read_text(path)):
        if not line.strip():
            continue
        where = f"line {lineno}"
        try:
            raw = parse_json(name, line, record=where)
        except json.JSONDecodeError as exc:
            problems.append(Problem(file=name, record=where, message=f"invalid JSON at column {exc.colno}: {exc.msg}"))
            continue
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if lone_surrogate_at(raw) is not None:
            problems.append(Problem(file=name, record=where, message="holds a lone surrogate escape such as \\ud800"))
            continue
        if not isinstance(raw, dict):
            problems.append(Problem(file=name, record=where, message=f"expected an object, got {type(raw).__name__}"))
            continue
        item = _parse_item(raw, len(items), lineno, name, problems, warn)
        if item is not None:
            items.append(item)
    if problems:
        raise DataError(problems)
    if not items:
        raise DataError.single(name, "no questions in the file")
    return items


def parse_answer(value: Any) -> tuple[str, tuple[str, ...]]:
    """The `答案` field as (text, answer entities): free text -> (text, ()); a list -> its items (a set of answers);
    an object -> its `key: value` facts as the text and its values as the entities. `ValueError` when it is none of
    these or holds nothing."""
    if isinstance(value, list):
        items = tuple(dict.fromkeys(t for t in (_as_text(v) for v in value) if t))
        if not items:
            raise ValueError("an empty list")
        return LIST_ANSWER_SEPARATOR.join(items), items
    if isinstance(value, dict):
        facts = {_as_text(k): _as_text(v) for k, v in value.items()}
        facts = {k: v for k, v in facts.items() if v}
        if not facts:
            raise ValueError("an object without any non-empty value")
        text = FACT_SEPARATOR.join(f"{k}: {v}" if k else v for k, v in facts.items())
        return text, tuple(dict.fromkeys(facts.values()))
    text = _as_text(value)
    if not text:
        raise ValueError("empty")
    return text, ()


def _parse_item(
    raw: dict[str, Any], index: int, lineno: int, name: str, problems: list[Problem], warn: Warn | None
) -> MechaItem | None:
    where = f"line {lineno}"
    before = len(problems)

    def text_field(key: str) -> str:
        value = raw.get(key)
        if value is None:
            problems.append(Problem(file=name, record=where, field=key, message="missing"))
            return ""
        try:
            text = _as_text(value)
        except ValueError as exc:
            problems.append(Problem(file=name, record=where, field=key, message=str(exc)))
            return ""
        if not text:
            problems.append(Problem(file=name, record=where, field=key, message="empty"))
        return text

    question = text_field(QUESTION_KEY)
    answer: str = ""
    answers: tuple[str, ...] = ()
    if raw.get(ANSWER_KEY) is None:
        problems.append(Problem(file=name, record=where, field=ANSWER_KEY, message="missing"))
    else:
        try:
            answer, answers = parse_answer(raw[ANSWER_KEY])
        except ValueError as exc:
            problems.append(Problem(file=name, record=where, field=ANSWER_KEY, message=str(exc)))
    entities: list[str] = []
    raw_entities = raw.get(ENTITIES_KEY)
    if isinstance(raw_entities, str):  # a single entity written as a string
        raw_entities = [raw_entities]
    if not isinstance(raw_entities, list) or not raw_entities:
        problems.append(Problem(file=name, record=where, field=ENTITIES_KEY, message="expected a non-empty list"))
    else:
        for i, value in enumerate(raw_entities):
            try:
                entities.append(_as_text(value))
            except ValueError as exc:
                problems.append(Problem(file=name, record=where, field=f"{ENTITIES_KEY}[{i}]", message=str(exc)))
    gold: list[PathTriple] = []
    raw_gold = raw.get(GOLD_KEY)
    if not isinstance(raw_gold, list) or not raw_gold:
        problems.append(
            Problem(file=name, record=where, field=GOLD_KEY, message="expected a non-empty list of triples")
        )
    else:
        for i, value in enumerate(raw_gold):
            try:
                gold.append(parse_triple(value))
            except EmptyElementError as exc:
                if warn is not None:
                    warn(_skipped(name, lineno, f"{GOLD_KEY}[{i}]", exc, "gold triple dropped"))
            except ValueError as exc:
                problems.append(Problem(file=name, record=where, field=f"{GOLD_KEY}[{i}]", message=str(exc)))
    if len(problems) > before:
        return None
    if not gold:
        if warn is not None:
            warn(Problem(name, "no usable gold triple: question skipped", where, GOLD_KEY, "warning"))
        return None
    return MechaItem(index, lineno, question, answer, tuple(entities), tuple(dict.fromkeys(gold)), answers)


# --------------------------------------------------------------------------------------------- subgraphs


class SubgraphIndex:
    """The 1-hop subgraph of question entities: every KG triple whose head or tail equals an entity, compared after
    `normalize_text` (the paper's G_s, eq. 2). Triples come back in KG order, without duplicates."""

    def __init__(self, triples: Sequence[PathTriple]) -> None:
        self.triples = tuple(triples)
        self._by_node: dict[str, list[int]] = {}
        for i, (s, _, o) in enumerate(self.triples):
            for node in {normalize_text(s), normalize_text(o)}:
                self._by_node.setdefault(node, []).append(i)
        self._normalised = {_norm_triple(t): i for i, t in enumerate(self.triples)}

    def subgraph(self, entities: Iterable[str]) -> list[PathTriple]:
        rows: set[int] = set()
        for entity in entities:
            rows.update(self._by_node.get(normalize_text(entity), ()))
        return [self.triples[i] for i in sorted(rows)]

    def find(self, triple: PathTriple) -> PathTriple | None:
        """The KG's own spelling of a triple equal to `triple` after normalisation, or None."""
        i = self._normalised.get(_norm_triple(triple))
        return None if i is None else self.triples[i]

    def is_node(self, text: str) -> bool:
        return normalize_text(text) in self._by_node


def _norm_triple(t: PathTriple) -> PathTriple:
    return (normalize_text(t[0]), normalize_text(t[1]), normalize_text(t[2]))


def same_triple(a: PathTriple, b: PathTriple) -> bool:
    return _norm_triple(a) == _norm_triple(b)


# --------------------------------------------------------------------------------------------- answer entity


def answer_side(triple: PathTriple, entities: Iterable[str]) -> str | None:
    """The end of `triple` that is not a question entity: the tail when the head is one (or neither end is), the
    head when only the tail is; None when both ends are question entities (the triple links two of them)."""
    ents = {normalize_text(e) for e in entities}
    head_q, tail_q = normalize_text(triple[0]) in ents, normalize_text(triple[2]) in ents
    if head_q and tail_q:
        return None
    if tail_q:
        return triple[0]
    return triple[2]


def answer_entities(item: MechaItem) -> tuple[str, ...]:
    """What a correct answer must contain (Accuracy, spec 001 §4.2: "生成的答案中包含问题对应的答案实体").

    1. One gold triple: its end that is not a question entity (`answer_side`); when both ends are question
       entities, the free-text answer.
    2. Several gold triples (comparisons, "分别是多少", lists): the non-question ends that the free-text answer
       mentions (normalised containment). Several ends mean all of them must appear.
    3. If the answer mentions none of them: the gold-triple ends of any kind it mentions (a comparison answered by
       naming the winner, `38黄铜的伸长率更高` -> `38黄铜`), longest first so a contained shorter name is dropped.
    4. Otherwise the free-text answer itself.

    An answer given as a list or an object (`item.answers`) is its own set of answer entities: all must appear.
    """
    if item.answers:
        return item.answers
    ends = [a for t in item.gold if (a := answer_side(t, item.entities)) is not None]
    if len(item.gold) == 1:
        return (ends[0],) if ends else (item.answer,)
    answer = normalize_text(item.answer)
    mentioned = _dedupe([e for e in ends if normalize_text(e) and normalize_text(e) in answer])
    if mentioned:
        return mentioned
    all_ends = [x for t in item.gold for x in (t[0], t[2])]
    mentioned = _dedupe([e for e in all_ends if normalize_text(e) and normalize_text(e) in answer])
    return mentioned if mentioned else (item.answer,)


def _dedupe(values: Sequence[str]) -> tuple[str, ...]:
    """Distinct values (by normalised form), dropping ones contained in a longer kept one; original order."""
    keep: list[str] = []
    norms: list[str] = []
    for v in sorted(dict.fromkeys(values), key=lambda x: -len(normalize_text(x))):
        n = normalize_text(v)
        if any(n in k for k in norms):
            continue
        keep.append(v)
        norms.append(n)
    return tuple(sorted(keep, key=values.index))


def answer_is_correct(system_answer: str, entities: Sequence[str]) -> bool:
    """Accuracy of one question: the normalised system answer contains every normalised answer entity."""
    text = normalize_text(system_answer)
    return bool(entities) and all(normalize_text(e) in text for e in entities)


# --------------------------------------------------------------------------------------------- converter


def triple_sentence(triple: PathTriple) -> str:
    """The sentence standing for a triple in the converted document (one line each, so it can be traced)."""
    return f"{triple[0]}的{triple[1]}是{triple[2]}。"


def difficulty(item: MechaItem) -> str:
    return "L1" if len(item.gold) == 1 else "L2"


def convert_mecha(
    kg: Sequence[PathTriple],
    items: Sequence[MechaItem],
    out_dir: Path,
    *,
    doc_id: str = DEFAULT_DOC_ID,
    query_prefix: str = "mecha",
    source: str = "qa",
    drop_missing: bool = True,
) -> list[Problem]:
    """Write `document.json`, `KG_<doc_id>.json`, `qa.json` and `qa_answer.json` for `kgreason run` / scoring,
    plus `mecha_meta.json` (per query: source line, question entities `实体`, free-text answer `答案`).

    The whole KG is one document whose content lists every triple as a sentence (`triple_sentence`), one per
    line in KG order. Gold triples are written with the KG's own spelling. Gold triples that are not in the KG
    (6 in test.jsonl) are dropped from the path (`drop_missing`, so `kgreason validate` accepts the folder) or kept
    as written; a question left without any gold triple is left out (2 in test.jsonl). Each case is a warning naming
    `source` (the QA file). query_ids keep the question's position in the QA file. Returns the warnings.
    """
    index = SubgraphIndex(kg)
    warnings: list[Problem] = []
    heads = {normalize_text(t[0]) for t in kg}
    documents = [{"doc_id": doc_id, "content": "\n".join(triple_sentence(t) for t in kg)}]
    width = max(4, len(str(len(kg))))
    kg_rows = [
        {
            "triple_id": f"triple_{i:0{width}d}",
            "sub": s,
            "sub_type": "实体",
            "relation": r,
            "obj": o,
            "obj_type": "实体" if normalize_text(o) in heads else "属性值",
        }
        for i, (s, r, o) in enumerate(kg, start=1)
    ]
    questions: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []
    meta: list[dict[str, Any]] = []
    qwidth = max(3, len(str(len(items))))
    for item in items:
        query_id = f"{query_prefix}_{item.index + 1:0{qwidth}d}"
        path: list[list[str]] = []
        for triple in item.gold:
            found = index.find(triple)
            if found is None:
                what = "dropped from the gold path" if drop_missing else "kept as written"
                warnings.append(
                    Problem(
                        file=source,
                        record=f"line {item.line}",
                        field=GOLD_KEY,
                        message=f"gold triple {list(triple)} is not in the KG; {what}",
                        severity="warning",
                    )
                )
                if drop_missing:
                    continue
            path.append(list(found or triple))
        if not path:
            warnings.append(
                Problem(
                    file=source,
                    record=f"line {item.line}",
                    field=GOLD_KEY,
                    message="no gold triple is in the KG: question left out",
                    severity="warning",
                )
            )
            continue
        ents = answer_entities(item)
        level = difficulty(item)
        questions.append({"query_id": query_id, "doc_id": doc_id, "question": item.question, "difficulty": level})
        answers.append(
            {
                "query_id": query_id,
                "doc_id": doc_id,
                "question": item.question,
                "answer_type": "实体集合" if len(ents) > 1 else ("实体" if index.is_node(ents[0]) else "属性值"),
                "answers": list(ents),
                "gold_reasoning_paths_main": path,
                "gold_reasoning_paths_alt": [],
                "constraints": {},
                "difficulty": level,
            }
        )
        # What the task's fields have no place for, kept beside them for benchmarks and inspection.
        meta.append({"query_id": query_id, "line": item.line, "entities": list(item.entities), "answer": item.answer})
    write_json_atomic(out_dir / "document.json", documents)
    write_json_atomic(out_dir / f"KG_{doc_id}.json", kg_rows)
    write_json_atomic(out_dir / "qa.json", questions)
    write_json_atomic(out_dir / "qa_answer.json", answers)
    write_json_atomic(out_dir / "mecha_meta.json", meta)
    return warnings
