"""Attribute questions on KGs whose relation names carry parameters and whose values are descriptions (as in
engineering handbooks): an invented KG, so no rule can be fitted to a real one."""

from __future__ import annotations

from kgreason.data.records import Dataset, Document, KGTriple, Question
from kgreason.kg.index import KGIndex
from kgreason.reason.reasoner import Reasoner
from kgreason.reason.scoring import node_match, parameter_values, relation_match

ROWS = [
    ("甲合金", "实体", "硬度(工艺: S)", "590.0 HB", "属性值"),
    ("甲合金", "实体", "硬度(工艺: J)", "685.0 HB", "属性值"),
    ("甲合金", "实体", "伸长率(工艺: J)", "13.0 %", "属性值"),
    ("乙钢", "实体", "基本特性", "强度较高，冷弯性能良好，焊接性较差，常用于制造受力不大的零件", "属性值"),
    ("乙钢", "实体", "牌号示例", "B2、B2A", "属性值"),
    ("乙钢", "实体", "密度", "7.85", "属性值"),
    ("丁车床", "实体", "配套刀具", "戊刀具", "实体"),
    ("戊刀具", "实体", "类型", "硬质合金车刀", "属性值"),
    ("丁车床", "实体", "配套刀具", "己刀具", "实体"),
    ("己刀具", "实体", "类型", "高速钢钻头", "属性值"),
    ("新型舰", "实体", "前序型号", "旧型舰", "实体"),
    ("新型舰", "实体", "垂发单元数量", "112单元", "属性值"),
    ("新型舰", "实体", "舰艏垂发单元", "64单元", "属性值"),
    ("旧型舰", "实体", "垂发单元数量", "64单元", "属性值"),
]


def kg() -> tuple[KGTriple, ...]:
    return tuple(KGTriple(f"t{i}", *row) for i, row in enumerate(ROWS, start=1))


def ask(question: str) -> tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]:
    ds = Dataset(
        root="memory",
        documents={"d": Document("d", "")},
        kgs={"d": kg()},
        questions=(Question("d_001", "d", question, "L1"),),
    )
    rec = Reasoner(ds).answer(ds.questions[0]).record
    return rec.answers, rec.main_path


def test_parameter_values_are_the_values_not_the_parameter_name() -> None:
    assert parameter_values("布氏硬度(铸造方法: SB,RB,KB)") == ("sb", "rb", "kb")
    assert parameter_values("硬度（工艺：J）") == ("j",)
    assert parameter_values("抗拉强度(铸件壁厚为10 mm时)") == ()  # no `name: value`
    assert parameter_values("射程") == ()


def test_a_parameter_value_the_question_spells_as_a_word_picks_the_relation() -> None:
    residual = "用j工艺制造|硬度"
    assert relation_match("硬度(工艺: J)", residual).score > relation_match("硬度(工艺: S)", residual).score
    # inside a longer Latin word it is not that value
    assert (
        relation_match("硬度(工艺: J)", "用jb工艺|硬度").score == relation_match("硬度(工艺: S)", "用jb工艺|硬度").score
    )
    assert ask("用J工艺制造的甲合金的硬度是多少？") == (("685.0 HB",), (("甲合金", "硬度(工艺: J)", "685.0 HB"),))


def test_a_description_that_spells_what_is_asked_answers_it() -> None:
    index = KGIndex("d", kg())
    description = next(k for k in index.nodes if k.startswith("强度较高"))
    assert node_match(index, description, "|焊接性如何") == frozenset({1, 2, 3})
    assert node_match(index, description, "|热处理方式") == frozenset()  # spells nothing asked
    answers, path = ask("乙钢的焊接性如何？")
    assert answers == (ROWS[3][3],)
    assert path == (("乙钢", "基本特性", ROWS[3][3]),)
    # a value that is a quantity is never read as a description
    assert node_match(index, "590.0hb", "|590.0hb") == frozenset()


def test_a_kind_the_kg_states_as_a_value_filters_a_set() -> None:
    # `哪些是车刀`: no node type or name says it; the 类型 triple does, and it is the evidence
    answers, path = ask("丁车床的配套刀具中，哪些是车刀？")
    assert answers == ("戊刀具",)
    assert path == (("丁车床", "配套刀具", "戊刀具"), ("戊刀具", "类型", "硬质合金车刀"))


def test_compared_names_do_not_borrow_each_others_values() -> None:
    # one hop from 旧型舰 (back along 前序型号) is 新型舰: its 舰艏垂发单元 is not 旧型舰's; `多` compares (not in 多少)
    answers, path = ask("新型舰与旧型舰相比，谁的垂发单元多？")
    assert answers == ("新型舰",)
    assert path[-1] == ("112单元", "数值大于", "64单元")
