"""Annotation conventions: how derived relations, counts, yes/no, set types and constraint keys are spelled.

from kgreason.conventions import Conventions, default_conventions, load_conventions
conv = default_conventions()               # the packaged default.json
conv.relation_for("gt")                    # '数值大于'
conv.operator_of("大于")                   # 'gt'
from kgreason.conventions.learn import learn
learned, report = learn(gold_items)        # inferred from a gold qa_answer.json

`learn` is a submodule of its own (not imported here): it reads typed values (`kgreason.kg.dates`,
`kgreason.kg.quantities`), which import `kgreason.data.records`, which imports this package for `DERIVED_RELATIONS`.
"""

from kgreason.conventions.model import (
    CONSTRAINT_KINDS,
    NUMBER_OPERATORS,
    OPERATORS,
    TIME_OPERATORS,
    ConstraintKind,
    Conventions,
    CountFormat,
    NumberOperator,
    Operator,
    RelationNames,
    SetStyle,
    SetTypes,
    TimeOperator,
    default_conventions,
    load_conventions,
    parse_conventions,
)

__all__ = [
    "CONSTRAINT_KINDS",
    "NUMBER_OPERATORS",
    "OPERATORS",
    "TIME_OPERATORS",
    "ConstraintKind",
    "Conventions",
    "CountFormat",
    "NumberOperator",
    "Operator",
    "RelationNames",
    "SetStyle",
    "SetTypes",
    "TimeOperator",
    "default_conventions",
    "load_conventions",
    "parse_conventions",
]
