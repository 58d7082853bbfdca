"""Comparisons and yes/no answered by the program from the chosen triples (`mecha.verdict`)."""

from __future__ import annotations

from kgreason.mecha.need import read_need
from kgreason.mecha.verdict import compare_chosen

DENSITY = [("灰铸铁", "密度", "7 (10^3kg/m^3)"), ("白口铸铁", "密度", "7.55 (10^3kg/m^3)")]


def test_which_is_higher_names_the_winner_and_shows_the_comparison() -> None:
    q = "灰铸铁的密度与白口铸铁的密度哪个更高？"
    entities = ["灰铸铁", "白口铸铁"]
    verdict = compare_chosen(read_need(q, entities), DENSITY, entities)
    assert verdict is not None and verdict.kind == "max" and verdict.winners == (DENSITY[1],)
    assert verdict.text.startswith("白口铸铁的密度更高")
    assert verdict.explanation == "白口铸铁 7.55 (10^3kg/m^3) > 灰铸铁 7 (10^3kg/m^3)"
    lower = compare_chosen(read_need("灰铸铁和白口铸铁哪个密度更低？", entities), DENSITY, entities)
    assert lower is not None and lower.winners == (DENSITY[0],)


def test_ranges_units_and_ties() -> None:
    entities = ["甲", "乙", "丙"]
    triples = [("甲", "密度", "8.7-8.9 (10^3kg/m^3)"), ("乙", "密度", "7.5-8.2 (10^3kg/m^3)"), ("丙", "密度", "8.8")]
    q = "在甲、乙和丙中，密度最低的是哪种材料？"
    # a bare number and a number with a unit are not compared
    assert compare_chosen(read_need(q, entities), triples, entities) is None
    same_unit = [*triples[:2], ("丙", "密度", "7.5-8.2 (10^3kg/m^3)")]
    verdict = compare_chosen(read_need(q, entities), same_unit, entities)
    assert verdict is not None and [w[0] for w in verdict.winners] == ["乙", "丙"] and "（并列）" in verdict.text
    assert "乙 7.5-8.2 (10^3kg/m^3) = 丙 7.5-8.2 (10^3kg/m^3) < 甲" in verdict.explanation


def test_same_or_different_and_over_conditions() -> None:
    entities = ["打印机甲", "打印机乙"]
    q = "打印机甲与打印机乙的工艺类型是否相同？"
    same = [("打印机甲", "工艺类型", "SLM"), ("打印机乙", "工艺类型", "slm")]
    verdict = compare_chosen(read_need(q, entities), same, entities)
    assert verdict is not None and verdict.kind == "same"
    assert verdict.text == "打印机甲与打印机乙的工艺类型相同，都是SLM"
    other = [("打印机甲", "工艺类型", "SLM"), ("打印机乙", "工艺类型", "DED")]
    verdict = compare_chosen(read_need(q, entities), other, entities)
    assert verdict is not None and verdict.kind == "different" and "打印机乙是DED" in verdict.text
    q = "使用哪种铸造方法制造的铜的布氏硬度最低？"
    conditions = [("铜", "布氏硬度(铸造方法: J)", "980.0 HB"), ("铜", "布氏硬度(铸造方法: S)", "885.0 HB")]
    verdict = compare_chosen(read_need(q, ["铜"]), conditions, ["铜"])
    assert verdict is not None and verdict.text.startswith("布氏硬度最低的是铸造方法: S")


def test_no_verdict_without_a_comparison() -> None:
    assert compare_chosen(read_need("灰铸铁的密度是多少？", ["灰铸铁"]), DENSITY[:1], ["灰铸铁"]) is None
    entities = ["灰铸铁", "白口铸铁"]
    q = "灰铸铁和白口铸铁的密度分别是多少？"
    assert compare_chosen(read_need(q, entities), DENSITY, entities) is None
    words = [("甲", "颜色", "红"), ("乙", "颜色", "蓝")]
    assert compare_chosen(read_need("甲和乙哪个颜色更高？", ["甲", "乙"]), words, ["甲", "乙"]) is None
