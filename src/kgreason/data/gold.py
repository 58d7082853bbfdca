"""Checks of gold answer items (`qa_answer.json`) against the KG and the question.

What cannot be read sensibly is an error: a triple that is not in the KG and is no comparison, a false or
unreadable derived triple, an answer the path does not lead to, a disconnected path. Where the item only follows
other conventions than the checked ones (`kgreason.conventions`: the project's defaults unless given) it is a
warning: an unknown constraint key or answer_type, a comparison triple whose relation name is not a known derived
one, a count with (or without) a measure word, a comparison written as one chain per compared item, a constraint
value that is not the question's own wording. Each problem names the file, the record, the field (with the path
and triple index, e.g. `gold_reasoning_paths_main[2]`) and the triple.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kgreason.conventions.model import OPERATOR_MEANINGS, Conventions, default_conventions, most_specific
from kgreason.data.readers import format_triple
from kgreason.data.records import AnswerRecord, KGTriple, Path, PathTriple, Question
from kgreason.errors import Problem
from kgreason.text.normalize import normalize_text, normalize_triple

if TYPE_CHECKING:
    from kgreason.kg.compare import Reading

# `kgreason.kg.compare.check_derived_triple(triple, kg_triples, question_text)`: None when the comparison a
# derived triple states holds against the KG's typed values, else the reason in words.
DerivedCheck = Callable[[PathTriple, Sequence[KGTriple], str], str | None]

# The default conventions' keys and yes/no words (kept for callers of the earlier constants).
CONSTRAINT_KEYS: tuple[str, ...] = default_conventions().known_constraint_keys()
BOOLEAN_ANSWERS: frozenset[str] = frozenset({default_conventions().yes, default_conventions().no})


def is_derived(triple: PathTriple, conventions: Conventions | None = None) -> bool:
    """A comparison triple the reasoner derives (not a KG fact), by its relation: a name the conventions (default:
    the project's) read as a comparison operator."""
    return (conventions or default_conventions()).is_derived_relation(triple[1])


@dataclass(frozen=True, slots=True)
class KGLookup:
    """One document's KG in normalised form, for membership tests and for hints when a triple is missing."""

    file: str
    triples: tuple[KGTriple, ...]
    facts: frozenset[PathTriple]
    nodes: frozenset[str]
    relations_between: dict[tuple[str, str], tuple[str, ...]]  # (sub, obj) -> relations as the KG spells them
    relations: frozenset[str] = frozenset()  # every relation, normalised
    node_types: frozenset[str] = frozenset()  # every sub_type / obj_type, as spelled

    @classmethod
    def build(cls, file: str, triples: Sequence[KGTriple]) -> KGLookup:
        facts: set[PathTriple] = set()
        nodes: set[str] = set()
        between: dict[tuple[str, str], list[str]] = {}
        types: set[str] = set()
        for t in triples:
            s, r, o = normalize_triple(t.spo)
            facts.add((s, r, o))
            nodes.update((s, o))
            between.setdefault((s, o), []).append(t.relation)
            types.update((t.sub_type.strip(), t.obj_type.strip()))
        return cls(
            file=file,
            triples=tuple(triples),
            facts=frozenset(facts),
            nodes=frozenset(nodes),
            relations_between={k: tuple(dict.fromkeys(v)) for k, v in between.items()},
            relations=frozenset(r for _, r, _ in facts),
            node_types=frozenset(types - {""}),
        )

    def contains(self, triple: PathTriple) -> bool:
        return normalize_triple(triple) in self.facts

    def why_missing(self, triple: PathTriple) -> str:
        """A hint for a triple that is not in the KG: reversed, another relation, or unknown nodes."""
        s, r, o = normalize_triple(triple)
        if (o, r, s) in self.facts:
            return f"; the KG has it the other way round: {format_triple((triple[2], triple[1], triple[0]))}"
        if (s, o) in self.relations_between:
            rels = "、".join(self.relations_between[(s, o)])
            return f"; the KG links these two with the relation {rels}"
        unknown = [name for name, norm in ((triple[0], s), (triple[2], o)) if norm not in self.nodes]
        if unknown:
            return f"; not a node of the KG: {'、'.join(unknown)}"
        return ""


def _path_field(kind: str, path_index: int | None, triple_index: int) -> str:
    """`gold_reasoning_paths_main[2]`, or for alternatives `…_alt[2]` (one, flat) / `…_alt[1][2]` (several)."""
    if path_index is None:
        return f"{kind}[{triple_index}]"
    return f"{kind}[{path_index}][{triple_index}]"


@dataclass(frozen=True, slots=True)
class GoldContext:
    """Everything one gold item is checked against."""

    file: str  # qa_answer.json
    label: str  # the item's record label
    question: Question  # from qa.json: its wording is authoritative
    kg: KGLookup
    check_derived: DerivedCheck
    conventions: Conventions = field(default_factory=default_conventions)


def check_gold_item(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """Every gold check for one item (see docs/data.md, "Gold checks")."""
    problems: list[Problem] = []
    problems += _check_path(item.main_path, "gold_reasoning_paths_main", None, ctx)
    several = len(item.alt_paths) > 1
    for i, alt in enumerate(item.alt_paths):
        problems += _check_path(alt, "gold_reasoning_paths_alt", i if several else None, ctx)
    problems += _check_connected(item.main_path, ctx)
    problems += _check_answer_type(item, ctx)
    problems += _check_answers(item, ctx)
    problems += _check_constraints(item, ctx)
    return problems


def _comparison_reading(triple: PathTriple, ctx: GoldContext) -> Reading | None:
    """How a triple that is neither a KG fact nor a known derived relation reads as a comparison: its operands
    are two comparable values (two dates, a date and a KG period, two quantities of one dimension) and its
    relation is no relation of the KG. None when it does not read as one."""
    if normalize_text(triple[1]) in ctx.kg.relations or ctx.kg.contains(triple):
        return None
    from kgreason.kg.compare import holding_operators  # typed values: see validate._default_derived_check

    return holding_operators(triple[0].strip(), triple[2].strip(), ctx.kg.triples)


def _reading_text(reading: Reading, ctx: GoldContext) -> str:
    ops = most_specific(reading.holds)
    if not ops:
        return f"it compares two {reading.kind} values, but no comparison of them holds"
    held = "; ".join(f"{OPERATOR_MEANINGS[op]} ({ctx.conventions.relation_for(op)})" for op in ops)
    return f"it reads as a comparison of two {reading.kind} values: {held}"


def _check_path(path: Path, kind: str, path_index: int | None, ctx: GoldContext) -> list[Problem]:
    """Each KG triple is in the document's KG; each derived triple is well-formed and true."""
    problems: list[Problem] = []
    if not path:
        where = kind if path_index is None else f"{kind}[{path_index}]"
        what = "the main path" if kind.endswith("main") else "an alternative path"
        problems.append(Problem(ctx.file, f"{what} is empty; it needs at least one triple", ctx.label, where))
    for j, triple in enumerate(path):
        field = _path_field(kind, path_index, j)
        shown = format_triple(triple)
        if any(not part.strip() for part in triple):
            problems.append(Problem(ctx.file, f"triple {shown} has an empty part", ctx.label, field))
            continue
        if is_derived(triple, ctx.conventions):
            reason = ctx.check_derived(triple, ctx.kg.triples, ctx.question.question)
            if reason is not None:
                problems.append(
                    Problem(ctx.file, f"derived triple {shown} fails its check: {reason}", ctx.label, field)
                )
        elif not ctx.kg.contains(triple):
            reading = _comparison_reading(triple, ctx)
            if reading is not None:
                message = (
                    f"triple {shown} is not in {ctx.kg.file} and {triple[1]!r} is not a derived relation the "
                    f"conventions know; {_reading_text(reading, ctx)} (add the name to the conventions' "
                    "derived_relations to check it)"
                )
                problems.append(Problem(ctx.file, message, ctx.label, field, "warning"))
                continue
            hint = ctx.kg.why_missing(triple)
            problems.append(Problem(ctx.file, f"triple {shown} is not in {ctx.kg.file}{hint}", ctx.label, field))
    return problems


def _joined_by_comparisons(path: Path, ctx: GoldContext) -> bool:
    """The path has a comparison triple and, with it, is one connected whole: separate chains, one per compared
    item, that the comparison joins (a convention of some annotators for "A和B哪个更早")."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    has_comparison = False
    for triple in path:
        if any(not part.strip() for part in triple):
            continue
        head, _, tail = normalize_triple(triple)
        parent[find(head)] = find(tail)
        if not has_comparison:
            has_comparison = is_derived(triple, ctx.conventions) or _comparison_reading(triple, ctx) is not None
    return has_comparison and len({find(n) for n in list(parent)}) == 1


def _check_connected(path: Path, ctx: GoldContext) -> list[Problem]:
    """The main path is one connected explanation.

    A KG triple after the first must share a node with an earlier triple, or start from a node the question
    itself names (a second key entity, as in "A和B哪个更早"). A derived triple must compare a value that is
    already on the path (its other operand may be a threshold from the question).
    """
    problems: list[Problem] = []
    question = normalize_text(ctx.question.question)
    seen: set[str] = set()
    joined: bool | None = None  # computed on the first disconnected triple
    for j, triple in enumerate(path):
        if any(not part.strip() for part in triple):
            continue  # reported by _check_path
        head, _, tail = normalize_triple(triple)
        field = _path_field("gold_reasoning_paths_main", None, j)
        shown = format_triple(triple)
        if is_derived(triple, ctx.conventions):
            if head not in seen and tail not in seen:
                problems.append(
                    Problem(
                        ctx.file,
                        f"derived triple {shown} compares values none of which appears in an earlier triple of the "
                        "main path; put the triple that gives the value before it",
                        ctx.label,
                        field,
                    )
                )
        elif seen and head not in seen and tail not in seen and head not in question and tail not in question:
            if joined is None:
                joined = _joined_by_comparisons(path, ctx)
            if joined:
                message = (
                    f"triple {shown} starts a second chain: neither end appears in an earlier triple or in the "
                    "question; accepted because a comparison triple later joins the chains (one chain per "
                    "compared item)"
                )
                problems.append(Problem(ctx.file, message, ctx.label, field, "warning"))
            else:
                problems.append(
                    Problem(
                        ctx.file,
                        f"triple {shown} is not connected to the rest of the main path: neither end appears in an "
                        "earlier triple or in the question",
                        ctx.label,
                        field,
                    )
                )
        seen.update((head, tail))
    return problems


def _check_answer_type(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """An answer_type that is neither a node type of the KG nor one the conventions write is a warning."""
    conv = ctx.conventions
    answer_type = item.answer_type.strip()
    if not answer_type or answer_type in (conv.boolean_type, conv.number_type) or conv.is_set_type(answer_type):
        return []
    if conv.is_boolean_type(answer_type):
        message = f"answer_type {answer_type!r} is read as the yes/no type; the conventions write {conv.boolean_type!r}"
        return [Problem(ctx.file, message, ctx.label, "answer_type", "warning")]
    if answer_type in ctx.kg.node_types:
        return []
    suffix = conv.set_types.suffix
    if answer_type.endswith(suffix) or len(item.answers) > 1:
        if conv.set_types.style == "generic":
            message = f"set answer type {answer_type!r} differs from the conventions' {conv.set_types.generic!r}"
        else:
            message = f"set answer type {answer_type!r} is not written as the members' type + {suffix!r}"
    else:
        known = ", ".join((conv.boolean_type, conv.number_type, conv.set_answer_type()))
        message = (
            f"unknown answer_type {answer_type!r}: neither a node type of {ctx.kg.file} nor one of the conventions' "
            f"answer types ({known})"
        )
    return [Problem(ctx.file, message, ctx.label, "answer_type", "warning")]


def _check_answers(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """Answers are present and lie on the main path (yes/no answers, counts and values with a unit computed from the
    path's excepted)."""
    conv = ctx.conventions
    if not item.answers:
        return [Problem(ctx.file, "no answers; at least one is required", ctx.label, "answers")]
    if any(not a.strip() for a in item.answers):
        return [Problem(ctx.file, "an answer is empty", ctx.label, "answers")]
    if conv.is_boolean_type(item.answer_type):
        if len(item.answers) != 1 or item.answers[0].strip() not in (conv.yes, conv.no):
            shown = format_triple(item.answers)
            message = f'a yes/no answer must be ["{conv.yes}"] or ["{conv.no}"], got {shown}'
            return [Problem(ctx.file, message, ctx.label, "answers")]
        return []
    nodes = {n for t in item.main_path for n in (normalize_text(t[0]), normalize_text(t[2]))}
    problems: list[Problem] = []
    for answer in item.answers:
        if normalize_text(answer) in nodes:
            continue
        if item.answer_type.strip() == conv.number_type:
            from kgreason.kg.quantities import parse_count  # typed values: see validate._default_derived_check

            count = parse_count(answer)
            if count is None and _computed_from_path(answer, item.main_path):
                continue
            if count is not None and count[1] and conv.count_format == "bare":
                message = (
                    f"count {answer!r} carries a measure word; the conventions write counts as bare numbers "
                    f'("{count[0]}")'
                )
                problems.append(Problem(ctx.file, message, ctx.label, "answers", "warning"))
            elif count is not None and not count[1] and conv.count_format == "measure_word":
                message = f'count {answer!r} has no measure word; the conventions write counts with one (such as "3艘")'
                problems.append(Problem(ctx.file, message, ctx.label, "answers", "warning"))
            elif count is None:
                problems.append(
                    Problem(
                        ctx.file,
                        f"answer {answer!r} is neither a node of the main path nor a count in Arabic digits "
                        '(such as "3") nor a value with a unit (such as "175马力")',
                        ctx.label,
                        "answers",
                    )
                )
            continue
        problems.append(
            Problem(
                ctx.file,
                f"answer {answer!r} does not appear as a node of the main path; the main path must lead to it",
                ctx.label,
                "answers",
            )
        )
    return problems


def _computed_from_path(answer: str, path: Sequence[PathTriple]) -> bool:
    """`answer` is a value with a unit computed from the path's values: a difference or sum of its quantities of the
    same dimension (`多多少马力` -> `175马力`), or a span between its dates (`相隔几天` -> `10天`)."""
    from kgreason.kg.dates import parse_date
    from kgreason.kg.quantities import parse_quantity

    value = parse_quantity(answer)
    if value is None or not value.dimension or value.dimension.startswith("count:"):
        return False
    nodes = [n for t in path for n in (t[0], t[2])]
    if value.dimension == "duration" and any(parse_date(n) is not None for n in nodes):
        return True
    return any((q := parse_quantity(n)) is not None and q.dimension == value.dimension for n in nodes)


def _check_constraints(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """Constraint values quote the question; an unknown key or a reworded value is a warning."""
    problems: list[Problem] = []
    question = ctx.question.question
    known = ctx.conventions.known_constraint_keys()
    for key, value in item.constraints.items():
        field = f"constraints.{key}"
        if not value.strip():
            problems.append(Problem(ctx.file, "is empty; a constraint needs a value", ctx.label, field))
            continue
        if key not in known:
            problems.append(
                Problem(
                    ctx.file,
                    f"unknown constraint key {key!r} (the conventions use {', '.join(known)})",
                    ctx.label,
                    field,
                    "warning",
                )
            )
        if value not in question:
            problems.append(
                Problem(
                    ctx.file,
                    f"value {value!r} is not a verbatim part of the question; constraints quote the question's "
                    "own wording",
                    ctx.label,
                    field,
                    "warning",
                )
            )
    return problems
