"""Checks of gold answer items (`qa_answer.json`) against the KG and the question.

The sample data must be clean, so every finding here is an error, except a constraint value that is not the
question's own wording (a warning: the constraint still says the right thing). Each problem names the file,
the record, the field (with the path and triple index, e.g. `gold_reasoning_paths_main[2]`) and the triple.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kgreason.data.readers import format_triple
from kgreason.data.records import DERIVED_RELATIONS, AnswerRecord, KGTriple, Path, PathTriple, Question
from kgreason.errors import Problem
from kgreason.text.normalize import normalize_text, normalize_triple

# `kgreason.kg.values.check_derived_triple(triple, kg_triples, question_text)`: None when the comparison a
# derived triple states holds against the KG's typed values, else the reason in words.
DerivedCheck = Callable[[PathTriple, Sequence[KGTriple], str], str | None]

CONSTRAINT_KEYS: tuple[str, ...] = ("time", "camp", "place", "numeric", "order", "type")
BOOLEAN_ANSWERS: frozenset[str] = frozenset({"是", "否"})
_DERIVED_NORMALISED: frozenset[str] = frozenset(normalize_text(r) for r in DERIVED_RELATIONS)


def is_derived(triple: PathTriple) -> bool:
    """A comparison triple the reasoner derives (not a KG fact), by its relation."""
    return normalize_text(triple[1]) in _DERIVED_NORMALISED


@dataclass(frozen=True, slots=True)
class KGLookup:
    """One document's KG in normalised form, for membership tests and for hints when a triple is missing."""

    file: str
    triples: tuple[KGTriple, ...]
    facts: frozenset[PathTriple]
    nodes: frozenset[str]
    relations_between: dict[tuple[str, str], tuple[str, ...]]  # (sub, obj) -> relations as the KG spells them

    @classmethod
    def build(cls, file: str, triples: Sequence[KGTriple]) -> KGLookup:
        facts: set[PathTriple] = set()
        nodes: set[str] = set()
        between: dict[tuple[str, str], list[str]] = {}
        for t in triples:
            s, r, o = normalize_triple(t.spo)
            facts.add((s, r, o))
            nodes.update((s, o))
            between.setdefault((s, o), []).append(t.relation)
        return cls(
            file=file,
            triples=tuple(triples),
            facts=frozenset(facts),
            nodes=frozenset(nodes),
            relations_between={k: tuple(dict.fromkeys(v)) for k, v in between.items()},
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


def check_gold_item(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """Every gold check for one item (see docs/data.md, "Gold checks")."""
    problems: list[Problem] = []
    problems += _check_path(item.main_path, "gold_reasoning_paths_main", None, ctx)
    several = len(item.alt_paths) > 1
    for i, alt in enumerate(item.alt_paths):
        problems += _check_path(alt, "gold_reasoning_paths_alt", i if several else None, ctx)
    problems += _check_connected(item.main_path, ctx)
    problems += _check_answers(item, ctx)
    problems += _check_constraints(item, ctx)
    return problems


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
        if is_derived(triple):
            reason = ctx.check_derived(triple, ctx.kg.triples, ctx.question.question)
            if reason is not None:
                problems.append(
                    Problem(ctx.file, f"derived triple {shown} fails its check: {reason}", ctx.label, field)
                )
        elif not ctx.kg.contains(triple):
            hint = ctx.kg.why_missing(triple)
            problems.append(Problem(ctx.file, f"triple {shown} is not in {ctx.kg.file}{hint}", ctx.label, field))
    return problems


def _check_connected(path: Path, ctx: GoldContext) -> list[Problem]:
    """The main path is one connected explanation.

    A KG triple after the first must share a node with an earlier triple, or start from a node the question
    itself names (a second key entity, as in "A和B哪个更早"). A derived triple must compare a value that is
    already on the path (its other operand may be a threshold from the question).
    """
    problems: list[Problem] = []
    question = normalize_text(ctx.question.question)
    seen: set[str] = set()
    for j, triple in enumerate(path):
        if any(not part.strip() for part in triple):
            continue  # reported by _check_path
        head, _, tail = normalize_triple(triple)
        field = _path_field("gold_reasoning_paths_main", None, j)
        shown = format_triple(triple)
        if is_derived(triple):
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


def _check_answers(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """Answers are present and lie on the main path (yes/no answers and counts excepted)."""
    if not item.answers:
        return [Problem(ctx.file, "no answers; at least one is required", ctx.label, "answers")]
    if any(not a.strip() for a in item.answers):
        return [Problem(ctx.file, "an answer is empty", ctx.label, "answers")]
    if item.answer_type.strip() == "布尔":
        if len(item.answers) != 1 or item.answers[0].strip() not in BOOLEAN_ANSWERS:
            shown = format_triple(item.answers)
            return [Problem(ctx.file, f'a yes/no answer must be ["是"] or ["否"], got {shown}', ctx.label, "answers")]
        return []
    nodes = {n for t in item.main_path for n in (normalize_text(t[0]), normalize_text(t[2]))}
    problems: list[Problem] = []
    for answer in item.answers:
        if normalize_text(answer) in nodes:
            continue
        if item.answer_type.strip() == "数值":
            if not answer.strip().isdigit():
                problems.append(
                    Problem(
                        ctx.file,
                        f"answer {answer!r} is neither a node of the main path nor a count in Arabic digits "
                        '(such as "3")',
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


def _check_constraints(item: AnswerRecord, ctx: GoldContext) -> list[Problem]:
    """Constraint values quote the question; an unknown key or a reworded value is a warning."""
    problems: list[Problem] = []
    question = ctx.question.question
    for key, value in item.constraints.items():
        field = f"constraints.{key}"
        if not value.strip():
            problems.append(Problem(ctx.file, "is empty; a constraint needs a value", ctx.label, field))
            continue
        if key not in CONSTRAINT_KEYS:
            problems.append(
                Problem(
                    ctx.file,
                    f"unknown constraint key {key!r} (the conventions use {', '.join(CONSTRAINT_KEYS)})",
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
