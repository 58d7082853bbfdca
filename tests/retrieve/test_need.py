"""How many triples a question needs: its wording (`read_need`) and the relevance cut (`select_needed`)."""

from __future__ import annotations

from kgreason.mecha.need import (
    asked_stem,
    largest_drop,
    property_base,
    read_need,
    relevance_scale,
    select_needed,
)


def test_read_need_from_the_wording() -> None:
    one = read_need("灰铸铁的熔点是多少？", ["灰铸铁"])
    assert one.properties == 1 and not one.several and not one.compares and one.entities == 1
    two = read_need("打印机甲的激活源和供料方式分别是什么？", ["打印机甲"])
    assert two.properties == 2 and two.set_values
    asks = read_need("15Cr材料的热处理方式是什么，它的齿面硬度值是多少?", ["15Cr"])
    assert asks.properties == 2  # two question words ask two things
    listing = read_need("20CrMnTi钢材的化学成分包括哪些？", ["20CrMnTi"])
    assert listing.set_values and listing.properties == 1
    # a conjunction between two entities joins entities, not properties
    pair = read_need("灰铸铁的密度与白口铸铁的密度哪个更高？", ["灰铸铁", "白口铸铁"])
    assert pair.properties == 1 and pair.entities == 2 and pair.direction == "max" and pair.which
    same = read_need("打印机甲与打印机乙的工艺类型是否相同？", ["打印机甲", "打印机乙"])
    assert same.same and same.yes_no and same.compares and not same.over_conditions
    lowest = read_need("使用哪种铸造方法制造的16-4硅黄铜的布氏硬度最低？", ["16-4硅黄铜"])
    assert lowest.direction == "min" and lowest.over_conditions
    english = read_need("What is the density of lead?", ["lead"])
    assert english.properties == 1 and not english.compares


def test_relevance_cut_is_where_relevance_drops() -> None:
    assert largest_drop([0.98, 0.01, 0.01]) == 1
    assert largest_drop([0.45, 0.44, 0.05, 0.03]) == 2
    assert largest_drop([0.3, 0.28, 0.27, 0.1]) == 3
    assert largest_drop([0.9, 0.05], least=2) == 2  # the wording asks for two
    assert largest_drop([0.2] * 10, most=4) == 1  # flat: fewest on ties
    assert largest_drop([]) == 0
    assert relevance_scale([2.0, 4.0, 3.0]) == [0.0, 1.0, 0.5]
    assert relevance_scale([1.0, 1.0]) == [1.0, 1.0]


def test_property_base_and_stem() -> None:
    assert property_base("布氏硬度(铸造方法: S)") == "布氏硬度"
    assert property_base("理论质量（密度为7.85）") == "理论质量"
    assert property_base("密度") == "密度"
    assert asked_stem("化学成分Mn含量", "20CrMnTi钢材的化学成分包括哪些？") == "化学成分"
    assert asked_stem("用途", "它的密度是多少") == ""


CANDIDATES = [
    ("打印机甲", "工艺类型", "SLM"),  # 0
    ("打印机甲", "激活源", "激光"),  # 1
    ("打印机甲", "供料方式", "铺粉式"),  # 2
    ("打印机乙", "工艺类型", "SLM"),  # 3
    ("打印机乙", "激活源", "电子束"),  # 4
    ("材料丙", "特性", "强度高"),  # 5
    ("材料丙", "特性", "透明"),  # 6
    ("材料丙", "用途", "外壳"),  # 7
]


def test_select_several_properties_by_the_relevance_cut() -> None:
    q = "打印机甲的激活源和供料方式分别是什么？"
    relevance = [0.02, 0.5, 0.46, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert select_needed(read_need(q, ["打印机甲"]), q, CANDIDATES, ["打印机甲"], relevance, 1) == [1, 2]
    single = "打印机甲的激活源是什么？"
    assert select_needed(read_need(single, ["打印机甲"]), single, CANDIDATES, ["打印机甲"], relevance, 1) == [1]


def test_select_a_set_of_values_and_each_entity() -> None:
    q = "材料丙的特性有哪些？"
    relevance = [0.0, 0.0, 0.0, 0.0, 0.0, 0.9, 0.05, 0.05]
    assert select_needed(read_need(q, ["材料丙"]), q, CANDIDATES, ["材料丙"], relevance, 5) == [5, 6]
    both = "打印机甲与打印机乙的工艺类型是否相同？"
    relevance = [0.6, 0.1, 0.1, 0.5, 0.1, 0.0, 0.0, 0.0]
    picked = select_needed(
        read_need(both, ["打印机甲", "打印机乙"]), both, CANDIDATES, ["打印机甲", "打印机乙"], relevance, 0
    )
    assert picked == [0, 3]


def test_select_over_conditions_and_only_the_named_ones() -> None:
    triples = [
        ("铜", "布氏硬度(铸造方法: S)", "885.0 HB"),
        ("铜", "布氏硬度(铸造方法: J)", "980.0 HB"),
        ("铜", "抗拉强度(铸造方法: S)", "345.0 N/mm²"),
    ]
    q = "使用哪种铸造方法制造的铜的布氏硬度最低？"
    assert select_needed(read_need(q, ["铜"]), q, triples, ["铜"], [0.7, 0.2, 0.1], 0) == [0, 1]
    steel = [("圆钢", f"理论质量(密度为7.85, 直径{d} mm)", f"{d / 3:.2f} kg/m") for d in (45.0, 50.0, 53.0)]
    q = "圆钢在密度为7.85，直径为45.0 mm时的理论质量与直径为53.0 mm时的理论质量，哪个更大？"
    assert select_needed(read_need(q, ["圆钢"]), q, steel, ["圆钢"], [0.5, 0.1, 0.4], 0) == [0, 2]
