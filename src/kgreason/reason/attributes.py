"""Attributes of a node to compare (which-of-two, superlatives): a date or a number the node has, or that a node
one hop away has (`苏-57 -原型机-> T-50 -首飞时间-> …`, `罗马尼亚 <-采购方- 合同 -采购数量-> 54辆`), scored by how
the question names them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgreason.data.records import PathTriple
from kgreason.kg.compare import compare_quantities, date_holds
from kgreason.kg.dates import DateValue
from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.paths import Chain
from kgreason.kg.quantities import Quantity, parse_quantity
from kgreason.reason.scoring import node_match, relation_match
from kgreason.text.overlap import longest_common_substring


@dataclass(frozen=True, slots=True)
class AttributeOption:
    holder: str  # the node that has the attribute (the mention, an alias, or a node one hop away)
    lead: tuple[PathTriple, ...]  # triples from the mention to the holder (alias step or bridge hop), if any
    edge: Edge
    value: DateValue | Quantity
    bridge: Edge | None = None  # the hop to a holder that is not the mention itself (`苏-57 -原型机-> T-50`)

    @property
    def chain(self) -> Chain:
        """The chain to the value: through the bridge when there is one, else from the holder."""
        if self.bridge is not None:
            return Chain(self.bridge.src, (self.bridge, self.edge))
        return Chain(self.holder, (self.edge,))


def _attribute_value(index: KGIndex, e: Edge, aspect: str) -> DateValue | Quantity | None:
    if not e.forward:
        return None
    if aspect == "time":
        return index.date(e.dst)
    if index.date(e.dst) is not None:
        return None  # a year is a date, not an amount (`2007年` is not more than `75门`)
    # values with a unit the index does not know still compare with the same unit — values only: a thing the KG
    # describes (`12式岸舰导弹` is the subject of triples) is no quantity, whatever its name starts with
    if (q := index.quantity(e.dst)) is not None:
        return q
    described = any(out.forward for out in index.edges(e.dst))
    return None if described else parse_quantity(e.triple.obj, lenient=True)


def attribute_options(index: KGIndex, key: str, aspect: str) -> list[AttributeOption]:
    """The mention's dated / numeric attributes: its own (or an alias's), else those of a node one hop away in
    either direction (`X <-受袭舰船- 遇袭事件 -发生时间-> date`, `罗马尼亚 <-采购方- 合同 -采购数量-> 54辆`)."""
    out: list[AttributeOption] = []
    group = index.alias_group(key)
    for holder in sorted(group):
        lead: tuple[PathTriple, ...] = ()
        if holder != key:
            step = next((e for e in index.edges(key) if e.is_alias and e.dst == holder), None)
            if step is None:
                continue
            lead = (step.triple.spo,)
        for e in index.edges(holder):
            v = _attribute_value(index, e, aspect)
            if v is not None:
                out.append(AttributeOption(holder, lead, e, v))
    for hop in index.edges(key):
        if hop.is_alias or hop.dst in group or index.is_literal(hop.dst):
            continue
        for e in index.edges(hop.dst):
            v = _attribute_value(index, e, aspect)
            if v is not None:
                out.append(AttributeOption(hop.dst, (hop.triple.spo,), e, v, bridge=hop))
    return out


TWO_HOP_PENALTY = 0.6  # an attribute one hop away must be better named than the mention's own
# `合同签得早`, `哪艘造得快`: the verb before 得 and a degree word is the first character of the attribute compared
# (`签订时间`): weaker than a relation word the question spells, stronger than none
_VERB_THEN_DEGREE = re.compile(r"([\u4e00-\u9fff])得(?:更|最)?[早晚快慢多少大小高低远近长短]")
VERB_NAMED = 0.5


def option_score(index: KGIndex, o: AttributeOption, residual: str) -> float:
    s = 2.0 * relation_match(o.edge.relation, residual).score
    verb = _VERB_THEN_DEGREE.search(residual)
    if verb and s < VERB_NAMED and o.edge.relation.startswith(verb.group(1)):
        s = VERB_NAMED
    if o.bridge is not None:
        # the hop is named by the question (`原型机`), or the node it reaches is described by it (`飞鱼导弹` next to
        # the attack event)
        named = relation_match(o.bridge.relation, residual).score
        described = longest_common_substring(o.holder, residual)[0] >= 2 or any(
            node_match(index, e.dst, residual) for e in index.edges(o.holder)
        )
        s += max(named, 0.6 if described else 0.0) - TWO_HOP_PENALTY
    return s


def value_less(x: DateValue | Quantity, y: DateValue | Quantity) -> bool | None:
    """x before / below y; None when they do not compare (a date and a number, other dimensions)."""
    if isinstance(x, DateValue) and isinstance(y, DateValue):
        return date_holds("早于", x, y)
    if isinstance(x, Quantity) and isinstance(y, Quantity):
        return compare_quantities("数值小于", x, y)
    return None
