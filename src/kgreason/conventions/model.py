"""The `Conventions` record: how answers, derived comparison triples and constraint keys are spelled.

Annotators of the task's data differ in names the official score matches literally: the derived relation of a
numeric comparison (`数值大于` or `大于`), how a count is written (`4` or `4艘`), the yes/no words, the
`answer_type` of a set answer (`实体集合` or `装备集合`), and the key of each kind of constraint (`order` or
`compare`). A `Conventions` value holds one such choice for each; the reasoner writes through it and the validator
reads through it. The project's defaults live in `default.json` next to this module (docs/conventions.md).

This module depends only on `kgreason.errors`, `kgreason.data.jsonio`/`problems` and `kgreason.text.normalize`, so
`kgreason.data.records` can import it (`DERIVED_RELATIONS` is the default's accepted set). Inferring conventions
from a gold file is `kgreason.conventions.learn`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeGuard, get_args

from kgreason.data.jsonio import lone_surrogate_at, parse_json, read_text
from kgreason.data.levels import LEVELS, Level
from kgreason.data.problems import describe
from kgreason.errors import DataError, Problem
from kgreason.text.normalize import normalize_text

TimeOperator = Literal["before", "after", "same", "within", "not_within"]
NumberOperator = Literal["gt", "lt", "eq", "ge", "le"]
Operator = Literal["before", "after", "same", "within", "not_within", "gt", "lt", "eq", "ge", "le"]
TIME_OPERATORS: tuple[TimeOperator, ...] = get_args(TimeOperator)
NUMBER_OPERATORS: tuple[NumberOperator, ...] = get_args(NumberOperator)
OPERATORS: tuple[Operator, ...] = get_args(Operator)
OPERATOR_MEANINGS: dict[Operator, str] = {
    "before": "left date entirely before the right one",
    "after": "left date entirely after the right one",
    "same": "the two dates overlap",
    "within": "left date within the right period",
    "not_within": "left date entirely outside the right period",
    "gt": "left number greater than the right one",
    "lt": "left number less than the right one",
    "eq": "the two numbers equal",
    "ge": "left number not less than the right one",
    "le": "left number not greater than the right one",
}
# `a` implies `b` when every comparison `a` holds for also satisfies `b`: used to pick the most specific reading.
OPERATOR_IMPLIES: frozenset[tuple[Operator, Operator]] = frozenset(
    {
        ("before", "not_within"),
        ("after", "not_within"),
        ("within", "same"),
        ("gt", "ge"),
        ("lt", "le"),
        ("eq", "ge"),
        ("eq", "le"),
    }
)

# Canonical kinds of constraint. The order is the order keys are listed in (the spec's example first).
ConstraintKind = Literal["time", "camp", "place", "numeric", "order", "type", "country", "exclude"]
CONSTRAINT_KINDS: tuple[ConstraintKind, ...] = get_args(ConstraintKind)
CONSTRAINT_KIND_MEANINGS: dict[ConstraintKind, str] = {
    "time": "a time window or point (第二次世界大战期间, 2010年以后)",
    "camp": "side, alliance, affiliation (同盟国, 北约)",
    "place": "a location (南海, 三亚)",
    "numeric": "a numeric threshold (射程超过1000公里)",
    "order": "order, superlative or comparison direction (最早, 首飞更早)",
    "type": "the category the answer must have (驱逐舰, 第五代战斗机)",
    "country": "a country of origin or ownership (美国)",
    "exclude": "the item or class a negation excludes (北约成员国 in 不是北约成员国)",
}

CountFormat = Literal["bare", "measure_word"]
COUNT_FORMATS: tuple[CountFormat, ...] = get_args(CountFormat)
SetStyle = Literal["generic", "by_member_type"]
SET_STYLES: tuple[SetStyle, ...] = get_args(SetStyle)

DEFAULT_FILE = "default.json"
_TOP_FIELDS = (
    "description",
    "derived_relations",
    "answers",
    "constraint_keys",
    "other_constraint_keys",
    "constraint_levels",
)
_ANSWER_FIELDS = ("boolean_type", "yes", "no", "number_type", "count_format", "set_type")
_SET_FIELDS = ("style", "generic", "suffix")


def is_operator(name: str) -> TypeGuard[Operator]:
    return name in OPERATORS


def is_time_operator(op: str) -> TypeGuard[TimeOperator]:
    return op in TIME_OPERATORS


def is_number_operator(op: str) -> TypeGuard[NumberOperator]:
    return op in NUMBER_OPERATORS


def is_constraint_kind(name: str) -> TypeGuard[ConstraintKind]:
    return name in CONSTRAINT_KINDS


def most_specific(ops: Iterable[Operator]) -> tuple[Operator, ...]:
    """The operators of `ops` that no other one of `ops` implies (`{gt, ge}` -> `(gt,)`), in canonical order."""
    present = set(ops)
    return tuple(op for op in OPERATORS if op in present and not any((o, op) in OPERATOR_IMPLIES for o in present))


@dataclass(frozen=True, slots=True)
class RelationNames:
    """The derived relation of one comparison operator: the name written and every name read as it."""

    operator: Operator
    write: str
    accept: tuple[str, ...]  # always contains `write`, first


@dataclass(frozen=True, slots=True)
class SetTypes:
    """`answer_type` of a set answer: one generic name (`实体集合`) or the members' type + a suffix (`装备集合`)."""

    style: SetStyle
    generic: str
    suffix: str


@dataclass(frozen=True, slots=True)
class Conventions:
    """One annotator's spelling choices (see docs/conventions.md). Frozen and hashable; build it with
    `default_conventions()`, `load_conventions(path)` or `kgreason.conventions.learn.learn(...)`."""

    relations: tuple[RelationNames, ...]  # one per operator, in `OPERATORS` order
    boolean_type: str
    yes: str
    no: str
    number_type: str
    count_format: CountFormat
    set_types: SetTypes
    constraint_keys: tuple[tuple[ConstraintKind, str | None], ...]  # one per kind, in `CONSTRAINT_KINDS` order
    other_constraint_keys: tuple[str, ...] = ()  # keys read without a known kind (kept as they are)
    # kinds written at some levels only (kind -> those levels, in `LEVELS` order); a kind absent: at every level
    constraint_levels: tuple[tuple[ConstraintKind, tuple[Level, ...]], ...] = ()
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)  # the file it was read from, "" when built in code
    # derived relation name (normalised) -> operator, built once: looked up for every path triple checked
    _operators: dict[str, Operator] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        index = {normalize_text(n): r.operator for r in self.relations for n in r.accept}
        object.__setattr__(self, "_operators", index)

    # ------------------------------------------------------------------------------------- derived relations
    def relation_for(self, operator: Operator) -> str:
        """The derived relation name to write for `operator` (`relation_for("gt")` -> `数值大于` by default)."""
        return self.names(operator).write

    def names(self, operator: Operator) -> RelationNames:
        for r in self.relations:
            if r.operator == operator:
                return r
        raise KeyError(operator)  # cannot happen for a Conventions built by this module

    def operator_of(self, name: str) -> Operator | None:
        """The operator a derived relation name stands for (`大于` -> `gt`), None when it is not a derived name.
        Names are compared after `normalize_text` (`数值 大于` reads as `数值大于`)."""
        return self._operators.get(normalize_text(name))

    def accepted_names(self, operators: Iterable[Operator] | None = None) -> frozenset[str]:
        """Every derived relation name read (as spelled in the conventions), optionally of some operators only."""
        wanted = set(OPERATORS if operators is None else operators)
        return frozenset(n for r in self.relations if r.operator in wanted for n in r.accept)

    def is_derived_relation(self, name: str) -> bool:
        return self.operator_of(name) is not None

    # ---------------------------------------------------------------------------------------------- answers
    def is_boolean_type(self, answer_type: str) -> bool:
        """The yes/no answer type, or a longer word for it (`布尔值`, the spec's own word, for `布尔`)."""
        t = answer_type.strip()
        return bool(t) and t.startswith(self.boolean_type)

    def yes_no(self, value: bool) -> str:
        """The answer word for a yes/no question (`是` / `否` by default)."""
        return self.yes if value else self.no

    def format_count(self, count: int, measure_word: str = "") -> str:
        """A count answer: `4` (bare) or `4艘` (with the question's measure word, when there is one)."""
        if self.count_format == "measure_word" and measure_word:
            return f"{count}{measure_word}"
        return str(count)

    def set_answer_type(self, member_type: str | None = None) -> str:
        """`answer_type` of a set answer whose members have the KG type `member_type` (None: unknown/mixed)."""
        if self.set_types.style == "by_member_type" and member_type:
            return f"{member_type}{self.set_types.suffix}"
        return self.set_types.generic

    def is_set_type(self, answer_type: str) -> bool:
        """Whether `answer_type` is a set type under these conventions (the generic name, or `<type><suffix>`
        when set types are built from the members' type)."""
        t = answer_type.strip()
        if t == self.set_types.generic:
            return True
        s = self.set_types.suffix
        return self.set_types.style == "by_member_type" and t.endswith(s) and len(t) > len(s)

    # -------------------------------------------------------------------------------------- constraint keys
    def constraint_key(self, kind: ConstraintKind) -> str | None:
        """The key to write a constraint of `kind` under; None: no key of its own (a negation is then written
        under the key of what it negates, as `"camp": "英国以外"`)."""
        return dict(self.constraint_keys)[kind]

    def writes_at(self, kind: ConstraintKind, level: str) -> bool:
        """Whether a constraint of `kind` is written for a question of `level` (annotators mark a side or a kind
        at L3 and seldom on a plain multi-hop question, `constraint_levels`); every kind at an unknown level."""
        levels = dict(self.constraint_levels).get(kind)
        return levels is None or level not in LEVELS or level in levels

    def kind_of_key(self, key: str) -> ConstraintKind | None:
        """The first kind (in `CONSTRAINT_KINDS` order) written under `key`; None for other or unknown keys."""
        return next((k for k, v in self.constraint_keys if v == key), None)

    def known_constraint_keys(self) -> tuple[str, ...]:
        """Every key these conventions write or accept, each once: the kinds' keys, then the other keys."""
        keys = [v for _, v in self.constraint_keys if v is not None]
        return tuple(dict.fromkeys([*keys, *self.other_constraint_keys]))

    # ------------------------------------------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The file form (`default.json`'s layout), complete: loading it gives back an equal value."""
        out: dict[str, Any] = {}
        if self.description:
            out["description"] = self.description
        out["derived_relations"] = {r.operator: {"write": r.write, "accept": list(r.accept)} for r in self.relations}
        out["answers"] = {
            "boolean_type": self.boolean_type,
            "yes": self.yes,
            "no": self.no,
            "number_type": self.number_type,
            "count_format": self.count_format,
            "set_type": {
                "style": self.set_types.style,
                "generic": self.set_types.generic,
                "suffix": self.set_types.suffix,
            },
        }
        out["constraint_keys"] = dict(self.constraint_keys)
        out["other_constraint_keys"] = list(self.other_constraint_keys)
        out["constraint_levels"] = {kind: list(levels) for kind, levels in self.constraint_levels}
        return out


# ---------------------------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def default_conventions() -> Conventions:
    """The project's conventions, from the packaged `default.json` (read once)."""
    ref = resources.files("kgreason.conventions").joinpath(DEFAULT_FILE)
    text = ref.read_text(encoding="utf-8")
    return parse_conventions(_json_or_error(text, f"kgreason/conventions/{DEFAULT_FILE}"), DEFAULT_FILE, base=None)


def load_conventions(path: Path, base: Conventions | None = None) -> Conventions:
    """Conventions from a JSON file. Fields the file leaves out are taken from `base` (default: the project's
    defaults). Raises `DataError` naming the file and the field of every problem."""
    text = read_text(path)
    if not text.strip():
        raise DataError.single(str(path), "file is empty")
    conv = parse_conventions(_json_or_error(text, str(path)), str(path), base=base or default_conventions())
    return replace(conv, source=str(path))


def _json_or_error(text: str, file: str) -> Any:
    try:
        value = parse_json(file, text)
    except json.JSONDecodeError as exc:
        raise DataError.single(file, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    where = lone_surrogate_at(value)
    if where is not None:
        raise DataError.single(file, f"holds a lone surrogate escape such as \\ud800 (at {where or 'the top'})")
    return value


class _Reader:
    """Collects problems while reading the file form; `base` fills fields the file leaves out (None: required)."""

    def __init__(self, file: str, base: Conventions | None) -> None:
        self.file = file
        self.base = base
        self.problems: list[Problem] = []

    def error(self, field_name: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, message, None, field_name))

    def obj(self, value: Any, field_name: str | None) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.error(field_name, f"must be a JSON object, got {describe(value)}")
        return None

    def unknown(self, data: Mapping[str, Any], known: Iterable[str], prefix: str) -> None:
        allowed = tuple(known)
        for k in data:
            if k not in allowed:
                self.error(f"{prefix}{k}", f"unknown field (expected one of {', '.join(allowed)})")

    def text(self, data: Mapping[str, Any], name: str, prefix: str, fallback: str | None) -> str | None:
        """A non-empty string field; `fallback` when absent (an error when there is no fallback)."""
        if name not in data:
            if fallback is None:
                self.error(f"{prefix}{name}", "is missing")
            return fallback
        value = data[name]
        if not isinstance(value, str) or not value.strip():
            self.error(f"{prefix}{name}", f"must be a non-empty text, got {describe(value)}")
            return fallback
        return value.strip()

    def choice(
        self, data: Mapping[str, Any], name: str, prefix: str, allowed: tuple[str, ...], fallback: str | None
    ) -> str | None:
        value = self.text(data, name, prefix, fallback)
        if value is not None and value not in allowed:
            self.error(f"{prefix}{name}", f"must be one of {', '.join(allowed)}, got {describe(value)}")
            return fallback
        return value


def parse_conventions(data: Any, file: str, base: Conventions | None) -> Conventions:
    """The file form (see `Conventions.to_json`) as a `Conventions`; `base` fills left-out fields (None: every
    field is required, as for `default.json`). Raises `DataError` with every problem found."""
    r = _Reader(file, base)
    top = r.obj(data, None)
    if top is None:
        raise DataError(r.problems)
    r.unknown(top, _TOP_FIELDS, "")
    description = top.get("description", "")
    if not isinstance(description, str):
        r.error("description", f"must be a text, got {describe(description)}")
        description = ""
    relations = _parse_relations(r, top)
    answers = _parse_answers(r, top)
    keys, others = _parse_keys(r, top)
    levels = _parse_levels(r, top)
    if r.problems or relations is None or answers is None or keys is None:
        raise DataError(r.problems)
    boolean_type, yes, no, number_type, count_format, set_types = answers
    return Conventions(
        relations=relations,
        boolean_type=boolean_type,
        yes=yes,
        no=no,
        number_type=number_type,
        count_format=count_format,
        set_types=set_types,
        constraint_keys=keys,
        other_constraint_keys=others,
        constraint_levels=levels,
        description=description,
    )


def _parse_relations(r: _Reader, top: Mapping[str, Any]) -> tuple[RelationNames, ...] | None:
    section = "derived_relations"
    given: dict[str, Any] = {}
    if section in top:
        obj = r.obj(top[section], section)
        if obj is None:
            return None
        given = obj
    elif r.base is None:
        r.error(section, "is missing")
        return None
    r.unknown(given, OPERATORS, f"{section}.")
    out: list[RelationNames] = []
    owner: dict[str, tuple[Operator, str]] = {}  # normalised name -> (operator, field) that accepts it
    for op in OPERATORS:
        prefix = f"{section}.{op}."
        if op not in given:
            if r.base is None:
                r.error(f"{section}.{op}", "is missing")
                continue
            entry = r.base.names(op)
        else:
            obj = r.obj(given[op], f"{section}.{op}")
            if obj is None:
                continue
            r.unknown(obj, ("write", "accept"), prefix)
            write = r.text(obj, "write", prefix, None)
            accept_raw = obj.get("accept", [])
            names: list[str] = []
            if not isinstance(accept_raw, list):
                r.error(f"{prefix}accept", f"must be an array of texts, got {describe(accept_raw)}")
            else:
                for i, n in enumerate(accept_raw):
                    if not isinstance(n, str) or not n.strip():
                        r.error(f"{prefix}accept[{i}]", f"must be a non-empty text, got {describe(n)}")
                    else:
                        names.append(n.strip())
            if write is None:
                continue
            entry = RelationNames(op, write, tuple(dict.fromkeys([write, *names])))
        for name in entry.accept:
            norm = normalize_text(name)
            if norm in owner and owner[norm][0] != op:
                other, where = owner[norm]
                r.error(f"{prefix}accept", f"{name!r} is also a name of {other!r} ({where}); a name means one operator")
            owner.setdefault(norm, (op, f"{section}.{op}"))
        out.append(entry)
    return tuple(out) if len(out) == len(OPERATORS) else None


def _parse_answers(r: _Reader, top: Mapping[str, Any]) -> tuple[str, str, str, str, CountFormat, SetTypes] | None:
    section = "answers"
    b = r.base
    given: dict[str, Any] = {}
    if section in top:
        obj = r.obj(top[section], section)
        if obj is None:
            return None
        given = obj
    elif b is None:
        r.error(section, "is missing")
        return None
    p = f"{section}."
    r.unknown(given, _ANSWER_FIELDS, p)
    boolean_type = r.text(given, "boolean_type", p, b.boolean_type if b else None)
    yes = r.text(given, "yes", p, b.yes if b else None)
    no = r.text(given, "no", p, b.no if b else None)
    number_type = r.text(given, "number_type", p, b.number_type if b else None)
    count_format = r.choice(given, "count_format", p, COUNT_FORMATS, b.count_format if b else None)
    if yes is not None and yes == no:
        r.error(f"{p}no", f"is the same word as answers.yes ({yes!r}); yes and no must differ")
    set_types: SetTypes | None = b.set_types if b else None
    if "set_type" in given:
        obj = r.obj(given["set_type"], f"{p}set_type")
        if obj is not None:
            sp = f"{p}set_type."
            r.unknown(obj, _SET_FIELDS, sp)
            style = r.choice(obj, "style", sp, SET_STYLES, b.set_types.style if b else None)
            generic = r.text(obj, "generic", sp, b.set_types.generic if b else None)
            suffix = r.text(obj, "suffix", sp, b.set_types.suffix if b else None)
            if style is not None and generic is not None and suffix is not None:
                set_types = SetTypes("generic" if style == "generic" else "by_member_type", generic, suffix)
    elif b is None:
        r.error(f"{p}set_type", "is missing")
    if boolean_type is None or yes is None or no is None or number_type is None or set_types is None:
        return None
    if count_format is None:
        return None
    return boolean_type, yes, no, number_type, "bare" if count_format == "bare" else "measure_word", set_types


def _parse_keys(
    r: _Reader, top: Mapping[str, Any]
) -> tuple[tuple[tuple[ConstraintKind, str | None], ...] | None, tuple[str, ...]]:
    section = "constraint_keys"
    b = r.base
    given: dict[str, Any] = {}
    if section in top:
        obj = r.obj(top[section], section)
        if obj is None:
            return None, ()
        given = obj
    elif b is None:
        r.error(section, "is missing")
        return None, ()
    r.unknown(given, CONSTRAINT_KINDS, f"{section}.")
    keys: list[tuple[ConstraintKind, str | None]] = []
    ok = True
    for kind in CONSTRAINT_KINDS:
        where = f"{section}.{kind}"
        if kind not in given:
            if b is None:
                r.error(where, "is missing (a key, or null for no key of its own)")
                ok = False
                continue
            keys.append((kind, b.constraint_key(kind)))
            continue
        value = given[kind]
        if value is None:
            keys.append((kind, None))
        elif isinstance(value, str) and value.strip():
            keys.append((kind, value.strip()))
        else:
            r.error(where, f"must be a non-empty text or null, got {describe(value)}")
            ok = False
    others: tuple[str, ...] = b.other_constraint_keys if b else ()
    name = "other_constraint_keys"
    if name in top:
        raw = top[name]
        if not isinstance(raw, list):
            r.error(name, f"must be an array of texts, got {describe(raw)}")
        else:
            found: list[str] = []
            for i, k in enumerate(raw):
                if not isinstance(k, str) or not k.strip():
                    r.error(f"{name}[{i}]", f"must be a non-empty text, got {describe(k)}")
                else:
                    found.append(k.strip())
            others = tuple(dict.fromkeys(found))
    elif b is None:
        r.error(name, "is missing (an empty array when there are none)")
    return (tuple(keys) if ok else None), others


def _parse_levels(r: _Reader, top: Mapping[str, Any]) -> tuple[tuple[ConstraintKind, tuple[Level, ...]], ...]:
    """`constraint_levels`: kind -> the levels its constraints are written at (absent: the base's, or none)."""
    section = "constraint_levels"
    if section not in top:
        return r.base.constraint_levels if r.base else ()
    obj = r.obj(top[section], section)
    if obj is None:
        return ()
    r.unknown(obj, CONSTRAINT_KINDS, f"{section}.")
    out: list[tuple[ConstraintKind, tuple[Level, ...]]] = []
    for kind in CONSTRAINT_KINDS:
        if kind not in obj:
            continue
        raw = obj[kind]
        where = f"{section}.{kind}"
        if not isinstance(raw, list) or not raw or any(v not in LEVELS for v in raw):
            r.error(where, f"must be a non-empty array of levels ({', '.join(LEVELS)}), got {describe(raw)}")
            continue
        out.append((kind, tuple(lv for lv in LEVELS if lv in raw)))
    return tuple(out)
