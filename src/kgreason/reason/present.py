"""The assemble stage's last step: the answer written in the annotators' conventions (`kgreason.conventions`).

The stages before reason with the project's own names (`数值大于`, `是`/`否`, keys time / camp / place / numeric /
order / type / country / exclude); here they become what the conventions write: the derived relation's name for its
operator (`大于`), the yes/no words, a count with the question's measure word (`4艘`), a set type built from the
members' KG type (`国家集合`), and each constraint under the conventions' key for its kind (`compare`, `location`).
"""

from __future__ import annotations

import re

from kgreason.conventions import CONSTRAINT_KINDS, ConstraintKind, Conventions, default_conventions
from kgreason.data.records import Path, PathTriple
from kgreason.kg.index import KGIndex
from kgreason.reason.lexicon import DEMONSTRATIVES, MEASURE_WORDS

INTERNAL = default_conventions()  # the names the stages before this one write

# `那次` / `这一艘` before the noun it points at: deixis of the question, not part of what the constraint says
_DEMONSTRATIVE = re.compile(rf"[{DEMONSTRATIVES}]一?[{MEASURE_WORDS}](?=.)")


def written_path(path: Path, index: KGIndex, conv: Conventions) -> Path:
    """Derived comparison triples renamed to the conventions' name for their operator; KG triples untouched."""
    if conv == INTERNAL:
        return path
    out: list[PathTriple] = []
    for t in path:
        op = INTERNAL.operator_of(t[1]) if not index.contains_triple(t) else None
        out.append((t[0], conv.relation_for(op), t[2]) if op is not None else t)
    return tuple(out)


def written_answer(
    answer_type: str,
    answers: tuple[str, ...],
    *,
    origin: str,
    is_set: bool,
    member_types: tuple[str, ...],
    measure_word: str,
    conv: Conventions,
) -> tuple[str, tuple[str, ...]]:
    """(answer_type, answers) as the conventions write them."""
    if origin == "bool" and len(answers) == 1:
        return conv.boolean_type, (conv.yes_no(answers[0] == INTERNAL.yes),)
    if origin == "count" and len(answers) == 1 and answers[0].isdigit():
        return conv.number_type, (conv.format_count(int(answers[0]), measure_word),)
    if is_set:
        kinds = set(member_types)
        return conv.set_answer_type(member_types[0] if len(kinds) == 1 and member_types else None), answers
    return answer_type, answers


def written_constraints(constraints: dict[str, str], conv: Conventions, level: str = "") -> dict[str, str]:
    """Each constraint (keyed by its kind) under the conventions' key; a kind without a key of its own (a negation,
    when the conventions give `exclude` none) under the side's key, as `"camp": "英国以外"`. The first of two
    constraints for one key wins. A demonstrative is left out of the value (`在朱日和举行的那次阅兵` ->
    `在朱日和举行的阅兵`): the question points with it; the constraint is the description. A kind the conventions
    write at other levels only is left out for a question of `level` (`conv.writes_at`)."""
    out: dict[str, str] = {}
    kinds: dict[str, ConstraintKind] = {k: k for k in CONSTRAINT_KINDS}
    for kind, value in constraints.items():
        value = _DEMONSTRATIVE.sub("", value)
        known = kinds.get(kind)
        if known is not None and not conv.writes_at(known, level):
            continue
        key = conv.constraint_key(known) if known is not None else kind
        if key is None:
            key = conv.constraint_key("camp") or "camp"
        out.setdefault(key, value)
    return out


def member_types(index: KGIndex, keys: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(index.main_type.get(k, "") for k in keys if index.main_type.get(k))
