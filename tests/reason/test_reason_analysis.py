"""Linking (exact, alias, longest match, near-duplicates, partial, fuzzy, gapped), answer forms and constraint
extraction."""

from __future__ import annotations

import pytest
from reason_smallkg import kg

from kgreason.data.records import KGTriple
from kgreason.kg.index import KGIndex
from kgreason.reason.analysis import Analysis, analyze
from kgreason.reason.link import NameTable, link_mentions
from kgreason.reason.textmap import map_text

EXTRA = [
    KGTriple("x1", "美国海军", "组织机构", "所属阵营", "同盟国", "阵营"),
    KGTriple("x2", "美国海军陆战队", "组织机构", "隶属于", "美国海军", "组织机构"),
    KGTriple("x3", "大黄蜂号航空母舰", "武器装备", "隶属于", "美国海军", "组织机构"),
    KGTriple("x4", "中途岛作战计划", "作战行动", "代号", "MI作战", "名称"),
    KGTriple("x5", "大黄蜂号航空母舰", "武器装备", "舰级", "约克城级航空母舰", "武器装备"),
    KGTriple("x6", "某驱逐舰", "武器装备", "满载排水量", "8500吨", "数值"),
    KGTriple("x7", "某空空导弹", "武器装备", "挂载位置", "侧弹舱", "部位"),
    KGTriple("x8", "滑动轴承", "零件", "传动效率", "0.94", "数值"),
    KGTriple("x9", "滚动轴承", "零件", "传动效率", "0.99", "数值"),
    KGTriple("x10", "甲舰遇袭事件", "事件", "使用武器", "AM39飞鱼导弹", "武器装备"),
    KGTriple("x11", "乙舰遇袭事件", "事件", "使用武器", "MM38飞鱼导弹", "武器装备"),
    KGTriple("x12", "甲舰遇袭事件", "事件", "所属战争", "马岛战争", "事件"),
    KGTriple("x13", "某机首次试飞", "事件", "试飞装备", "歼-20", "武器装备"),
    KGTriple("x14", "某机首次公开亮相", "事件", "参展装备", "歼-20", "武器装备"),
    KGTriple("x15", "加贺号", "武器装备", "沉没时间", "1942年6月4日", "时间"),
    KGTriple("x16", "约克城号航空母舰", "武器装备", "沉没时间", "1942年6月7日", "时间"),
    KGTriple("x17", "阿利·伯克级驱逐舰", "武器装备", "命名来源", "阿利·伯克", "人物"),
    KGTriple("x18", "阿利·伯克级驱逐舰", "武器装备", "首舰", "阿利·伯克号驱逐舰", "武器装备"),
]


@pytest.fixture(scope="module")
def index() -> KGIndex:
    return KGIndex("doc_01", (*kg(), *EXTRA))


def links(index: KGIndex, question: str) -> list[tuple[str, str, str]]:
    ms = link_mentions(NameTable(index), map_text(question))
    return [(m.text, index.name(m.key), m.how) for m in ms]


def run(index: KGIndex, question: str) -> Analysis:
    q = map_text(question)
    return analyze(question, q, link_mentions(NameTable(index), q), index)


# ------------------------------------------------------------------------------------------------------ linking
def test_exact_and_alias_names(index: KGIndex) -> None:
    assert links(index, "威龙的首飞时间？") == [("威龙", "威龙", "exact")]
    assert links(index, "二战期间") == [("二战", "二战", "exact")]


def test_longest_match_wins_over_a_name_inside_it(index: KGIndex) -> None:
    assert links(index, "美国海军陆战队隶属于谁？") == [("美国海军陆战队", "美国海军陆战队", "exact")]
    assert links(index, "歼-10C的首飞时间") == [("歼-10C", "歼-10C", "exact")]
    assert links(index, "歼-10的首飞时间") == [("歼-10", "歼-10", "exact")]


def test_a_name_spelled_in_full_is_not_cut_by_a_partial_link_of_another_name(index: KGIndex) -> None:
    # the KG writes `加贺号` without its kind; the tail `号航空母舰` must not link `约克城号航空母舰`
    assert links(index, "加贺号航空母舰是哪一天沉没的？") == [("加贺号", "加贺号", "exact")]
    assert links(index, "约克城号航空母舰是哪一天沉没的？") == [("约克城号航空母舰", "约克城号航空母舰", "exact")]


def test_writing_on_from_a_name_into_the_start_of_a_longer_one_links_the_longer(index: KGIndex) -> None:
    assert links(index, "阿利·伯克号是哪一天服役的？") == [("阿利·伯克号", "阿利·伯克号驱逐舰", "partial")]
    assert links(index, "阿利·伯克是哪国人？") == [("阿利·伯克", "阿利·伯克", "exact")]


def test_normalised_spelling(index: KGIndex) -> None:
    assert links(index, "歼20和歼－10哪个更早") == [("歼20", "歼-20", "exact"), ("歼－10", "歼-10", "exact")]


def test_partial_name(index: KGIndex) -> None:
    assert links(index, "大黄蜂号隶属于哪支部队？") == [("大黄蜂号", "大黄蜂号航空母舰", "partial")]
    # the longer start decides between near-duplicates
    assert ("约克城级", "约克城级航空母舰", "partial") in links(index, "哪些航空母舰属于约克城级？")


def test_fuzzy_name_in_order_only(index: KGIndex) -> None:
    assert ("中途岛的作战计划", "中途岛作战计划", "fuzzy") in links(index, "日军进攻中途岛的作战计划代号是什么？")


def test_gapped_name_the_question_spells_in_full(index: KGIndex) -> None:
    assert links(index, "机身侧面弹舱内挂载的是什么？") == [("侧面弹舱", "侧弹舱", "gapped")]
    # more than two characters inserted is no longer the name
    assert links(index, "机身侧面的那个弹舱内挂载的是什么？") == []


def test_gapped_link_loses_to_an_exact_name_it_overlaps(index: KGIndex) -> None:
    # `滑…动轴承` across `油润滑的滚动轴承` spells 滑动轴承 with two characters inserted; the exact name wins
    assert links(index, "油润滑的滚动轴承传动效率是多少？") == [("滚动轴承", "滚动轴承", "exact")]


def test_quoted_short_name_links_every_name_that_holds_it(index: KGIndex) -> None:
    got = links(index, "马岛战争中被“飞鱼”导弹击中的舰船有哪些？")
    assert ("马岛战争", "马岛战争", "exact") in got
    assert ("“飞鱼”导弹", "AM39飞鱼导弹", "group") in got and ("“飞鱼”导弹", "MM38飞鱼导弹", "group") in got
    # a group link describes: its words stay for relation matching
    assert "飞鱼导弹" in run(index, "马岛战争中被“飞鱼”导弹击中的舰船有哪些？").residual


def test_quoted_label_is_not_a_group(index: KGIndex) -> None:
    # `首次` is inside two names, but `首次训练` (the label with the noun after it) is in none
    assert [h for *_, h in links(index, "歼-20完成了哪一项“首次”训练？")] == ["exact"]


# ------------------------------------------------------------------------------------------------- answer form
@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("歼-20的研制单位是哪个？", "entity"),
        ("哪些飞机由成都飞机设计研究所研制？", "set"),
        ("成都飞机设计研究所研制了几种飞机？", "count"),
        ("歼-20是否由中国航发研制？", "bool"),
        ("歼-20是成都飞机设计研究所研制的吗", "bool"),
        ("歼-20和歼-10哪个首飞更早？", "choice"),
        ("歼-20是什么时候首飞的？", "time"),
        ("歼-20在哪一年服役？", "time"),
        ("成都飞机设计研究所位于哪里？", "place"),
        ("歼-20的最大航程是多少？", "number"),
        ("指挥诺曼底登陆的人是谁？", "entity"),
    ],
)
def test_answer_form(index: KGIndex, question: str, form: str) -> None:
    assert run(index, question).form == form


def test_person_and_type_word(index: KGIndex) -> None:
    a = run(index, "指挥诺曼底登陆的是谁？")
    assert a.person
    b = run(index, "歼-20由哪家单位研制？")
    assert not b.person
    c = run(index, "大黄蜂号属于哪个舰级？")
    assert c.type_word == "舰级"


# ------------------------------------------------------------------------------------------------- constraints
def test_time_window_on_a_period(index: KGIndex) -> None:
    a = run(index, "在第二次世界大战期间指挥诺曼底登陆的人是谁？")
    (w,) = a.times
    assert (w.text, w.relation, w.operand) == ("第二次世界大战期间", "处于时期内", "第二次世界大战")
    assert w.period_key is not None


def test_time_window_with_words_between(index: KGIndex) -> None:
    (w,) = run(index, "第二次世界大战爆发期间，诺曼底登陆的指挥官是谁？").times
    assert w.text == "第二次世界大战爆发期间"


@pytest.mark.parametrize(
    ("question", "text", "relation", "operand"),
    [
        ("2010年以后首飞的飞机有哪些？", "2010年以后", "晚于", "2010年"),
        ("2010 年之前首飞的飞机有哪些？", "2010 年之前", "早于", "2010 年"),
        ("1990年代服役的飞机有哪些？", "1990年代", "处于时期内", "1990年代"),
        ("2008年至2012年间首飞的飞机有哪些？", "2008年至2012年间", "处于时期内", "2008年至2012年"),
    ],
)
def test_time_window_from_dates(index: KGIndex, question: str, text: str, relation: str, operand: str) -> None:
    (w,) = run(index, question).times
    assert (w.text, w.relation, w.operand) == (text, relation, operand)
    assert w.text in question


def test_time_window_anchored_on_an_event(index: KGIndex) -> None:
    (w,) = run(index, "歼-10首飞之后首飞的飞机有哪些？").times
    assert (w.text, w.relation) == ("歼-10首飞之后", "晚于")
    assert w.anchor_key is not None and w.hint == "首飞"


def test_no_time_window_for_an_exercise_mentioned_with_zhong(index: KGIndex) -> None:
    assert run(index, "在第二次世界大战中指挥诺曼底登陆的是谁？").times == ()


@pytest.mark.parametrize(
    ("question", "text", "relation", "operand"),
    [
        ("最大航程超过4000公里的飞机有哪些？", "最大航程超过4000公里", "数值大于", "4000公里"),
        ("满载排水量不低于8000吨的舰艇", "满载排水量不低于8000吨", "数值不小于", "8000吨"),
        ("航程在3000公里以上的飞机", "航程在3000公里以上", "数值不小于", "3000公里"),
        ("航程低于3,000 km的飞机", "航程低于3,000 km", "数值小于", "3,000 km"),
    ],
)
def test_numeric_threshold(index: KGIndex, question: str, text: str, relation: str, operand: str) -> None:
    (n,) = run(index, question).numerics
    assert (n.text, n.relation, n.operand) == (text, relation, operand)
    assert n.text in question


def test_plain_quantity_is_not_a_threshold(index: KGIndex) -> None:
    assert run(index, "最大航程5500公里的飞机是哪个？").numerics == ()


def test_order_word_outside_mentions_only(index: KGIndex) -> None:
    a = run(index, "成都飞机设计研究所最早研制的飞机是哪个？")
    assert a.order is not None and (a.order.text, a.order.direction) == ("最早", "min")


def test_camp_marker_role(index: KGIndex) -> None:
    a = run(index, "隶属于同盟国的指挥官是谁？")
    assert list(a.roles.values()) == ["camp"]
    assert "隶属于" not in a.residual


def test_comparison_phrase_is_the_order_value(index: KGIndex) -> None:
    assert run(index, "歼-20和歼-10哪个首飞更早？").comparative_text == "首飞更早"
    assert run(index, "歼-20与歼-10相比，哪一个的最大航程更远？").comparative_text == "最大航程更远"
    assert run(index, "歼-20和歼-10，哪一个先首飞？").comparative_text == "先首飞"


def test_a_category_word_shared_by_names_is_not_a_partial_link() -> None:
    idx = KGIndex(
        "d",
        (
            KGTriple("a", "第一舰队", "组织机构", "下辖", "甲号驱逐舰", "武器装备"),
            KGTriple("b", "第一舰队", "组织机构", "下辖", "乙号驱逐舰", "武器装备"),
        ),
    )
    assert links(idx, "第一舰队下辖的驱逐舰有哪些？") == [("第一舰队", "第一舰队", "exact")]


def test_a_word_inside_the_names_of_one_thing_links_to_it() -> None:
    # `机动部队` ends two names, but they are aliases of one unit: the word names that unit (the node with the most
    # triples), not a category
    idx = KGIndex(
        "d",
        (
            KGTriple("a", "第一突击部队", "部队", "别称", "张氏突击部队", "部队"),
            KGTriple("b", "第一突击部队", "部队", "指挥官", "张三", "人物"),
            KGTriple("c", "第一突击部队", "部队", "下辖", "第一战队", "部队"),
            KGTriple("d", "甲岛", "地点", "类型", "环礁", "地理类别"),
        ),
    )
    assert ("突击部队", "第一突击部队", "partial") in links(idx, "率领北方突击部队进攻甲岛的指挥官是谁？")
    # two different units ending in the word: still a category word, no link
    two = KGIndex("d", (*idx.triples, KGTriple("e", "第二突击部队", "部队", "指挥官", "李四", "人物")))
    assert all(text != "突击部队" for text, _, _ in links(two, "率领北方突击部队进攻甲岛的指挥官是谁？"))


def test_a_partial_name_is_not_cut_before_another_number() -> None:
    # `甲军第3、第11师团`: `甲军第` begins `甲军第10军`, but the question goes on with another number
    idx = KGIndex(
        "d",
        (
            KGTriple("a", "甲军第10军", "部队", "登陆地点", "南湾", "地点"),
            KGTriple("b", "北岸登陆", "事件", "登陆部队", "第11师团", "部队"),
        ),
    )
    assert all(name != "甲军第10军" for _, name, _ in links(idx, "甲军第3、第11师团在哪里登陆？"))
    assert ("甲军第1", "甲军第10军", "partial") not in links(idx, "甲军第11师团在哪里登陆？")
    assert ("甲军第", "甲军第10军", "partial") in links(idx, "甲军第的部队在哪里登陆？")


def test_a_short_number_links_when_the_question_says_whose_it_is() -> None:
    idx = KGIndex(
        "d",
        (
            KGTriple("a", "甲号驱逐舰", "武器装备", "舷号", "105", "代号"),
            KGTriple("b", "乙号驱逐舰", "武器装备", "舷号", "106", "代号"),
            KGTriple("c", "乙号驱逐舰", "武器装备", "乘员", "105人", "数值"),
        ),
    )
    assert links(idx, "舷号为105的是哪艘驱逐舰？") == [("105", "105", "exact")]
    assert links(idx, "哪艘驱逐舰的舷号是106？") == [("106", "106", "exact")]
    # a bare number says nothing about whose it is: `105` alone is not a name
    assert all(text != "105" for text, _, _ in links(idx, "哪艘驱逐舰在105天内建成？"))
    # nor is `1051`: a longer number is another number
    assert all(not text.startswith("105") for text, _, _ in links(idx, "舷号为1051的是哪艘驱逐舰？"))


def test_a_partial_name_does_not_cut_a_word_of_the_kg() -> None:
    idx = KGIndex(
        "d",
        (
            KGTriple("a", "东海舰船研究设计中心", "组织机构", "设计", "甲号驱逐舰", "武器装备"),
            KGTriple("b", "联合巡航", "事件", "参加舰艇", "甲号驱逐舰", "武器装备"),
        ),
    )
    # `东海舰|艇`: the question says 舰艇 (a word of the KG's relation names), not the design centre's name
    assert links(idx, "参加联合巡航的东海舰艇有哪些？") == [("联合巡航", "联合巡航", "exact")]
    assert links(idx, "东海舰船研究设计了什么？")[0][1] == "东海舰船研究设计中心"


def test_the_noun_before_which_one_is_the_asked_type_unless_it_is_a_relation(index: KGIndex) -> None:
    assert run(index, "隶属于美国海军的航空母舰是哪一艘？").type_word == "航空母舰"
    # `是哪一型` asks for a kind: the noun before it does not become the asked type by this rule
    assert run(index, "隶属于美国海军的航空母舰是哪一型？").type_word != "航空母舰"
    # a relation's name before `是哪一个` is what is asked of the thing, matched against relations
    assert run(index, "大黄蜂号航空母舰的舰级是哪一个？").type_word == ""
    # a group named before 中 gives the kind of its member asked for
    assert run(index, "隶属于美国海军的航空母舰中，哪一艘最早服役？").type_word == "航空母舰"


def test_a_separator_dropped_by_normalising_still_ends_a_latin_name() -> None:
    idx = KGIndex(
        "d",
        (
            KGTriple("a", "J-20", "武器装备", "首飞时间", "2011年1月11日", "时间"),
            KGTriple("b", "F-22", "武器装备", "首飞时间", "1997年9月7日", "时间"),
            KGTriple("c", "F-22A", "武器装备", "首飞时间", "2003年1月1日", "时间"),
        ),
    )
    assert [t for t, _, _ in links(idx, "J-20、F-22和F-22A中，哪一个首飞最早？")] == ["J-20", "F-22", "F-22A"]
    # a hyphen inside a designation is no separator: `F-22A` is not `F-22`
    assert [n for _, n, _ in links(idx, "F-22A的首飞时间是什么？")] == ["F-22A"]


def test_an_elliptical_question_ending_on_time_asks_a_date(index: KGIndex) -> None:
    # `…的时间是？` asks a date though no question word follows; a duration (`多长时间`) does not
    assert run(index, "大黄蜂号航空母舰访问珍珠港的时间是？").form == "time"
    assert run(index, "中途岛作战计划持续了多长时间？").form != "time"


def test_verbatim_spans_keep_the_opening_quote_of_a_closing_one_they_hold() -> None:
    # a name links without its quotes; the constraint value written from it quotes the question as it is
    q = map_text("德军“停止前进命令”解除的当天，哪座城市失守？")
    start = q.norm.index("停止")
    end = q.norm.index("当天") + 2
    assert q.verbatim(start, end) == "“停止前进命令”解除的当天"
    assert q.verbatim(start, start + 6) == "停止前进命令"
