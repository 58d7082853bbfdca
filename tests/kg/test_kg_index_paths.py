"""The KG index (normalised nodes, alias groups, both directions, typed values) and chain enumeration."""

from __future__ import annotations

from kgreason.data.records import KGTriple
from kgreason.kg.index import KGIndex
from kgreason.kg.paths import Chain, connect, effective_hops, follow_signature, search_chains


def t(i: int, s: str, r: str, o: str, st: str = "实体", ot: str = "实体") -> KGTriple:
    return KGTriple(f"t{i}", s, st, r, o, ot)


KG = (
    t(1, "歼-20", "别名", "威龙", "武器装备", "名称"),
    t(2, "歼-20", "研制单位", "成都所", "武器装备", "组织机构"),
    t(3, "成都所", "位于", "成都", "组织机构", "地点"),
    t(4, "歼-20", "首飞时间", "2011 年 1 月 11 日", "武器装备", "时间"),
    t(5, "歼-10", "研制单位", "成都所", "武器装备", "组织机构"),
    t(6, "歼-10", "首飞时间", "2011年1月11日", "武器装备", "时间"),  # same day, other spelling
    t(7, "歼-20", "最大航程", "5500公里", "武器装备", "数值"),
    t(8, "战争甲", "开始时间", "1950年", "战争", "时间"),
    t(9, "战争甲", "结束时间", "1953年7月", "战争", "时间"),
    t(10, "战争甲", "简称", "甲战", "战争", "名称"),
)


def test_nodes_are_normalised_and_keep_the_kg_spelling() -> None:
    index = KGIndex("d", KG)
    node = index.node("2011年1月11日")
    assert node is not None and node.kind == "date"
    assert index.node("2011 年 1 月 11 日") is node
    assert index.name("歼20") == "歼-20"
    assert index.main_type["歼20"] == "武器装备"


def test_edges_in_both_directions_in_kg_direction() -> None:
    index = KGIndex("d", KG)
    back = [e for e in index.edges("成都所") if not e.forward]
    assert {e.src for e in back} == {"成都所"}
    assert {e.triple.spo for e in back} == {("歼-20", "研制单位", "成都所"), ("歼-10", "研制单位", "成都所")}


def test_alias_groups_and_periods() -> None:
    index = KGIndex("d", KG)
    assert index.alias_group("威龙") == frozenset({"歼20", "威龙"})
    p = index.period("甲战")
    assert p is not None and (p.lo, p.hi) == ((1950, 1, 1), (1953, 7, 31))
    assert index.period("歼20") is None


def test_typed_values() -> None:
    index = KGIndex("d", KG)
    q = index.quantity("5500公里")
    assert q is not None and q.dimension == "length"
    assert index.date("1950年") is not None
    assert index.is_literal("5500公里") and not index.is_literal("歼20")
    assert index.contains_triple(("歼-20", "首飞时间", "2011年1月11日"))  # normalised comparison
    assert not index.contains_triple(("2011年1月11日", "首飞时间", "歼-20"))  # direction matters


def test_chains_do_not_walk_through_literals_and_alias_hop_is_free() -> None:
    index = KGIndex("d", KG)
    chains = search_chains(index, ["威龙"], max_hops=2, beam=100, prefix_score=lambda c: 0.0)
    ends = {c.end for c in chains}
    assert "成都" in ends  # 威龙 -别名- 歼-20 -研制单位- 成都所 -位于- 成都 (alias hop free)
    # two events on the same day are not joined through the date
    assert not any(c.nodes[1:-1] and any(index.is_literal(n) for n in c.nodes[1:-1]) for c in chains)
    assert all(effective_hops(c) <= 2 for c in chains)
    for c in chains:
        for tr in c.triples:
            assert index.contains_triple(tr)


def test_follow_signature_and_connect() -> None:
    index = KGIndex("d", KG)
    start = Chain("成都所", ())
    (edge,) = [e for e in index.edges("成都所") if not e.forward][:1]
    sig = start.extend(edge).signature
    members = follow_signature(index, "成都所", sig)
    assert {m.end for m in members} == {"歼20", "歼10"}
    via = connect(index, ["歼10"], "成都")
    assert via is not None and via.triples == (("歼-10", "研制单位", "成都所"), ("成都所", "位于", "成都"))
    assert connect(index, ["歼10"], "甲战") is None


def test_a_relation_ending_in_an_alias_word_is_an_alias() -> None:
    from kgreason.kg.vocab import is_alias_relation

    assert is_alias_relation("别名") and is_alias_relation("中文音译名") and is_alias_relation("行动代号")
    assert not is_alias_relation("研制型号") and not is_alias_relation("命名来源") and not is_alias_relation("名")
