"""Things described instead of named, groups and counts, on an invented KG (no data set's facts): describe-then-ask
(`reason/described.py`), a kind word after a name (`reason/kinds.py`), `哪国` + a noun, counts over a filtered group
and stated counts, select-then-ask over a described group (`reason/select.py`), superlatives asked of a set, one
kind's head nouns, the relation named after 什么, `位于何处`, and a time bound after `早于`."""

from __future__ import annotations

from dataclasses import replace

import pytest
from reason_smallkg import make_dataset

from kgreason.data.records import AnswerRecord, Question
from kgreason.kg.index import KGIndex
from kgreason.reason.analysis import Analysis
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.described import find_described
from kgreason.reason.kinds import kind_word_after
from kgreason.reason.negation import find_filtered_group
from kgreason.reason.reasoner import Reasoner, verify_path
from kgreason.reason.select import find_selection

ROWS: list[tuple[str, str, str, str, str]] = [
    # a ship, its kind as a value, its builder and the builder's country
    ("北风号", "舰艇", "类型", "导弹驱逐舰", "类别"),
    ("北风号", "舰艇", "舷号", "171", "代号"),
    ("北风号", "舰艇", "建造单位", "江北船厂", "组织"),
    ("江北船厂", "组织", "所属国家", "云国", "国家"),
    # buyers of a gun, their blocs, and a number of the gun's no question asks
    ("甲国", "国家", "采购装备", "雷霆炮", "装备"),
    ("乙国", "国家", "采购装备", "雷霆炮", "装备"),
    ("丙国", "国家", "采购装备", "雷霆炮", "装备"),
    ("甲国", "国家", "所属阵营", "北盟", "组织"),
    ("乙国", "国家", "所属阵营", "北盟", "组织"),
    ("丙国", "国家", "所属阵营", "南盟", "组织"),
    ("雷霆炮", "装备", "发射箱数量", "1个", "数值"),
    # the gun's variants, their ranges and users
    ("雷霆炮", "装备", "包含型别", "雷霆A", "装备"),
    ("雷霆炮", "装备", "包含型别", "雷霆B", "装备"),
    ("雷霆A", "装备", "射程", "70公里", "数值"),
    ("雷霆B", "装备", "射程", "300公里", "数值"),
    ("雷霆A", "装备", "主要用户", "陆军", "组织"),
    ("雷霆B", "装备", "主要用户", "海军", "组织"),
    # two parades the ship took part in
    ("阅兵甲", "事件", "参阅装备", "北风号", "舰艇"),
    ("阅兵乙", "事件", "参阅装备", "北风号", "舰艇"),
    ("阅兵甲", "事件", "举行时间", "2017年7月30日", "时间"),
    ("阅兵乙", "事件", "举行时间", "2019年10月1日", "时间"),
    ("阅兵甲", "事件", "举行地点", "朱河基地", "地点"),
    ("阅兵乙", "事件", "举行地点", "京城", "地点"),
    # a sinking: the submarine is described by the event, its country is two triples further
    ("击沉事件", "事件", "攻击方", "征服号", "舰艇"),
    ("击沉事件", "事件", "被击沉舰船", "南星号", "舰艇"),
    ("击沉事件", "事件", "使用武器", "鱼雷", "装备"),
    ("征服号", "舰艇", "类型", "核潜艇", "类别"),
    ("征服号", "舰艇", "隶属于", "北海舰队", "组织"),
    ("北海舰队", "组织", "所属国家", "雪国", "国家"),
    ("南星号", "舰艇", "类型", "巡洋舰", "类别"),
    # attacks with one missile
    ("一号遇袭事件", "事件", "使用武器", "飞鱼弹", "装备"),
    ("二号遇袭事件", "事件", "使用武器", "飞鱼弹", "装备"),
    ("一号遇袭事件", "事件", "受袭舰船", "南星号", "舰艇"),
    ("二号遇袭事件", "事件", "受袭舰船", "北风号", "舰艇"),
    # an exercise and one of its phases, each with an end date (`A的B`: the question is about B)
    ("演习甲", "事件", "结束时间", "2018年8月2日", "时间"),
    ("演习甲", "事件", "包含阶段", "实兵阶段", "事件"),
    ("实兵阶段", "事件", "结束时间", "2018年7月20日", "时间"),
    # a drill of an exercise, its missiles, their ranges and who fired them
    ("实弹演练", "事件", "所属演习", "演习甲", "事件"),
    ("实弹演练", "事件", "使用武器", "风弹", "装备"),
    ("实弹演练", "事件", "使用武器", "火弹", "装备"),
    ("风弹", "装备", "射程", "185公里", "数值"),
    ("火弹", "装备", "射程", "200公里", "数值"),
    ("风弹", "装备", "发射方", "第十七旅", "部队"),
    ("火弹", "装备", "发射方", "岸防部队", "部队"),
    # a fleet's ships sunk on two days (two on the later one)
    ("第一舰队", "部队", "下辖", "甲舰", "舰艇"),
    ("第一舰队", "部队", "下辖", "乙舰", "舰艇"),
    ("第一舰队", "部队", "下辖", "丙舰", "舰艇"),
    ("甲舰", "舰艇", "沉没时间", "1942年6月4日", "时间"),
    ("乙舰", "舰艇", "沉没时间", "1942年6月5日", "时间"),
    ("丙舰", "舰艇", "沉没时间", "1942年6月5日", "时间"),
    # supply ships of an operation, one a 船, one a 舰
    ("海上行动", "事件", "补给舰艇", "潮汐号油船", "舰艇"),
    ("海上行动", "事件", "补给舰艇", "堡垒号补给舰", "舰艇"),
    ("潮汐号油船", "舰艇", "隶属于", "辅助舰队", "组织"),
    ("堡垒号补给舰", "舰艇", "隶属于", "辅助舰队", "组织"),
    # the ship's class and its other name; where its builder is
    ("北风号", "舰艇", "舰级", "风级驱逐舰", "类别"),
    ("风级驱逐舰", "类别", "又称", "北风级驱逐舰", "名称"),
    ("江北船厂", "组织", "位于", "江北市", "地点"),
    # the variants' dates and a rival missile
    ("雷霆A", "装备", "首飞时间", "2010年3月18日", "时间"),
    ("雷霆B", "装备", "首飞时间", "2010年6月6日", "时间"),
    ("雷霆A", "装备", "首次实弹射击时间", "2009年1月1日", "时间"),
    ("雷霆A", "装备", "初始作战能力时间", "2016年8月2日", "时间"),
    ("雷霆B", "装备", "初始作战能力时间", "2019年2月28日", "时间"),
    ("雷霆A", "装备", "竞争对手", "霜刃导弹", "装备"),
    ("霜刃导弹", "装备", "研制单位", "北辰公司", "组织"),
    ("雷霆A", "装备", "研制单位", "南岳公司", "组织"),
    # hull numbers written as codes; a count the KG states in its counter
    ("甲舰", "舰艇", "舷号", "101", "代号"),
    ("乙舰", "舰艇", "舷号", "106", "代号"),
    ("丙舰", "舰艇", "舷号", "107", "代号"),
    ("风弹", "装备", "单箱装载数量", "6枚", "数值"),
    # an exercise's host and the host's headquarters
    ("演习甲", "事件", "主办方", "东方舰队", "组织"),
    ("东方舰队", "组织", "司令部驻地", "珍珠港", "地点"),
    # the ship's weapons and the kinds the KG states of them (typed 类别)
    ("北风号", "舰艇", "装备武器", "红缨弹", "装备"),
    ("北风号", "舰艇", "装备武器", "海鹰弹", "装备"),
    ("红缨弹", "装备", "类型", "远程防空导弹", "类别"),
    ("海鹰弹", "装备", "类型", "反舰导弹", "类别"),
    ("北风号", "舰艇", "配备火炮", "雷鸣炮", "装备"),
    ("雷鸣炮", "装备", "口径", "130毫米", "数值"),
    ("甲舰", "舰艇", "编入", "第一分队", "部队"),
    ("丙舰", "舰艇", "编入", "第一分队", "部队"),
]


def reasoner(question: str, config: ReasonerConfig | None = None) -> tuple[Reasoner, Question]:
    ds = make_dataset([(question, "L3")], rows=ROWS, document="")
    return Reasoner(ds, config or ReasonerConfig()), ds.questions[0]


def analysed(question: str) -> Analysis:
    r, q = reasoner(question)
    return r.analyse(q)[1]


def answer(question: str, config: ReasonerConfig | None = None) -> AnswerRecord:
    r, q = reasoner(question, config)
    rec = r.answer(q).record
    verify_path(rec.main_path, r.index(q.doc_id), question)
    return rec


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # describe, then ask: the submarine that sank 南星号, then its country (two triples on)
        ("用鱼雷击沉南星号的那艘核潜艇，是哪个国家的？", ["雪国"]),
        # a possessive pronoun opens the rest
        ("用鱼雷击沉南星号的那艘核潜艇，其所属舰队是哪一支？", ["北海舰队"]),
        # 哪国 + a noun: the country of the thing the noun names, one triple past it
        ("北风号的建造单位是哪国公司？", ["云国"]),
        ("北风号由哪国企业建造？", ["云国"]),
        # a kind word after a name describes it and asks nothing (`北风号驱逐舰`)
        ("北风号驱逐舰的舷号是什么？", ["171"]),
        # a count over a group filtered by a named node; the gun's own `1个` is no count of what is asked
        ("采购雷霆炮的国家里，有几个是北盟成员国？", ["2"]),
        # `几起` counts events
        ("飞鱼弹一共参与了几起袭击事件？", ["2"]),
        # select, then ask: the members are the variants, not the users the rest asks for
        ("雷霆炮的各型别中，射程最远的那一型主要由哪个军种使用？", ["海军"]),
        # a comparison word before the verb it bears on (`较晚举行的那一次`)
        ("北风号参加过的阅兵当中，较晚举行的那一次在哪里举行？", ["京城"]),
        # two names side by side describe the group (`演习甲实弹演练中动用的导弹`); they are not the compared ones
        ("演习甲实弹演练中动用的导弹，射程最短的那种是哪支部队发射的？", ["第十七旅"]),
        # a one-character comparative before a verb, right after the group (`A和B中先首飞的那一型`)
        ("雷霆A和雷霆B中先首飞的那一型，主要由哪个军种使用？", ["陆军"]),
        # a degree word before a longer predicate (`最晚形成初始作战能力的那个型别`)
        ("雷霆A、雷霆B两个型别里，最晚形成初始作战能力的那个型别主要由哪个军种使用？", ["海军"]),
        # a description without a comma: the rest begins at its verb
        ("与雷霆A竞争的那款导弹是哪家公司研制的？", ["北辰公司"]),
        # a superlative asked of a set: every member at the extreme
        ("第一舰队下辖的舰艇中，沉没时间最晚的是哪几艘？", ["乙舰", "丙舰"]),
        # 船, 舰 and 艇 head nouns of one kind
        ("海上行动中，哪些船归辅助舰队管？", ["潮汐号油船", "堡垒号补给舰"]),
        # a noun after 什么 that ends the question names the relation asked
        ("北风号所属舰级还有什么别称？", ["北风级驱逐舰"]),
        # `位于何处` asks a place (not a time, for its `于何`)
        ("北风号的建造单位位于何处？", ["江北市"]),
        # `是否早于X的Y`: X's dated event after the comparison word bounds the first one
        ("雷霆A的首次实弹射击时间，是否早于雷霆B的首飞？", ["是"]),
        ("雷霆B首飞是否早于雷霆A首飞？", ["否"]),
        ("雷霆B首飞是否晚于雷霆A首飞？", ["是"]),
        # a bare number after an inequality is a threshold, compared with the codes of the relation it names
        ("第一舰队下辖的舰艇中，舷号超过105的有哪些？", ["乙舰", "丙舰"]),
        # … while after an equality it names the node (`舷号为106`)
        ("舷号为106的舰艇属于哪支舰队？", ["第一舰队"]),
        # a number in the very counter asked is the hop's evidence (`几枚` -> `单箱装载数量 6枚`)
        ("风弹一个发射箱能装几枚？", ["6枚"]),
        # `X的Y，…`: the rest goes on about the Y of X
        ("演习甲的东道主舰队，司令部驻哪儿？", ["珍珠港"]),
        # `…的这些国家里面`: a group to count in, not one described thing
        ("在采购了雷霆炮的这些国家里面，属于北盟的一共有几个？", ["2"]),
        # a kind said of the members asked (`属于防空导弹的是哪几型`, `哪些是防空导弹`): things of it, not the kind
        ("北风号装备的武器中，属于防空导弹的是哪几型？", ["红缨弹"]),
        ("北风号装备的武器中，哪些是防空导弹？", ["红缨弹"]),
        # the kind after the demonstrative ends on the thing's own name: it is the thing
        ("北风号舰上装的那门雷鸣炮，口径有多大？", ["130毫米"]),
        # a group filtered by a named node: the members connected to it
        ("第一舰队下辖的舰艇中，编入第一分队的有哪些？", ["甲舰", "丙舰"]),
    ],
)
def test_answers(question: str, expected: list[str]) -> None:
    assert sorted(answer(question).answers) == sorted(expected)


def test_described_evidence_runs_through_the_described_thing() -> None:
    rec = answer("用鱼雷击沉南星号的那艘核潜艇，是哪个国家的？")
    path = [tuple(t) for t in rec.main_path]
    # the description's chain first, then the rest's, each a KG triple
    assert path.index(("击沉事件", "攻击方", "征服号")) < path.index(("北海舰队", "所属国家", "雪国"))
    assert ("征服号", "隶属于", "北海舰队") in path


def test_find_described_reads_clause_kind_and_pronoun() -> None:
    analysis = analysed("用鱼雷击沉南星号的那艘核潜艇，其所属舰队是哪一支？")
    found = find_described(analysis)
    assert found is not None
    assert found.description == "用鱼雷击沉南星号的是哪一艘核潜艇"
    assert (found.rest, found.noun, found.joint) == ("所属舰队是哪一支？", "核潜艇", "的")


@pytest.mark.parametrize(
    "question",
    [
        "在采购了雷霆炮的这些国家里面，属于北盟的一共有几个？",  # `这些`: a group
        "北风号参加过的阅兵的时候，雷霆A是否已经首飞？",  # a yes/no question
        "阅兵甲和阅兵乙的举行地点，分别是哪里？",  # `A和B的…`: several things, not one
        "北风号的建造单位是哪国公司？",  # no description clause
        "用鱼雷击沉南星号的那艘核潜艇，是不是云国的？",  # yes/no: answered as one question
        "哪一艘击沉了南星号的那艘核潜艇，是哪个国家的？",  # the clause asks something itself
    ],
)
def test_find_described_leaves_other_shapes(question: str) -> None:
    analysis = analysed(question)
    assert find_described(analysis) is None


def test_a_name_then_a_noun_is_continued() -> None:
    analysis = analysed("演习甲的东道主舰队，司令部驻哪儿？")
    found = find_described(analysis)
    assert found is not None
    assert (found.description, found.rest, found.joint) == ("演习甲的东道主舰队是什么", "司令部驻哪儿？", "的")


def test_described_then_ask_can_be_turned_off() -> None:
    config = replace(ReasonerConfig(), described_then_ask=False)
    # (the country is found without it too, the chain's end being of the asked coarse kind; the fleet is not)
    assert answer("用鱼雷击沉南星号的那艘核潜艇，其所属舰队是哪一支？", config).answers != ("北海舰队",)


def test_kind_word_after_a_name_is_a_stated_kind_only() -> None:
    r, q = reasoner("北风号驱逐舰的舷号是什么？")
    index: KGIndex = r.index(q.doc_id)
    assert kind_word_after(index, "北风号", "驱逐舰的舷号是什么") == 3
    # its KG type (`舰艇`) is a broad word, not taken; nor is a word the node's kinds do not end with
    assert kind_word_after(index, "北风号", "舰艇的舷号") == 0
    assert kind_word_after(index, "北风号", "参加过的阅兵") == 0
    _, analysis = r.analyse(q)
    assert [m.text for m in analysis.mentions] == ["北风号驱逐舰"]


def test_a_comparison_word_before_a_verb_only_when_it_compares() -> None:
    analysis = analysed("北风号参加过的阅兵当中，较晚举行的那一次在哪里举行？")
    sel = find_selection(analysis)
    assert sel is not None and sel.text == "较晚举行" and sel.direction == "max"
    # `首次` before a verb describes one event; it picks nothing out of a group
    analysis = analysed("北风号首次参加的那次阅兵，在哪里举行？")
    assert find_selection(analysis) is None


def test_names_not_listed_describe_the_group_instead_of_being_compared() -> None:
    analysis = analysed("雷霆炮的各型别中，射程最远的那一型主要由哪个军种使用？")
    sel = find_selection(analysis)
    assert sel is not None and sel.listed and sel.group == ("雷霆炮",)
    analysis = analysed("雷霆A与雷霆B中射程较远的那一型主要由哪个军种使用？")
    sel = find_selection(analysis)
    assert sel is not None and sel.listed and set(sel.group) == {"雷霆a", "雷霆b"}
    analysis = analysed("演习甲实弹演练中动用的导弹，射程最短的那种是哪支部队发射的？")
    sel = find_selection(analysis)
    assert sel is not None and not sel.listed and sel.text == "射程最短"


def test_a_bare_number_is_a_threshold_only_without_a_unit() -> None:
    analysis = analysed("第一舰队下辖的舰艇中，舷号超过105的有哪些？")
    assert [(n.attribute, n.relation, n.operand) for n in analysis.numerics] == [("舷号", "数值大于", "105")]
    analysis = analysed("北风号服役是否已经超过10年？")  # a duration: no bare-number threshold
    assert all(n.operand != "10" for n in analysis.numerics)


def test_a_kind_is_predicated_only_of_members_asked() -> None:
    for question, predicated in [
        ("北风号装备的武器中，哪些是防空导弹？", True),
        ("北风号装备的武器中，属于防空导弹的是哪几型？", True),
        ("红缨弹是一种什么导弹？", False),  # the kind is asked
    ]:
        analysis = analysed(question)
        assert analysis.kind_predicated is predicated, question


def test_a_name_ending_the_kind_is_the_thing_unless_it_is_a_kind() -> None:
    analysis = analysed("北风号舰上装的那门雷鸣炮，口径有多大？")
    found = find_described(analysis)
    assert found is not None and found.named == "雷鸣炮"
    # a kind the KG states (`征服号 类型 核潜艇`) is named too, but the description is still searched for the thing
    analysis = analysed("用鱼雷击沉南星号的那艘核潜艇，是哪个国家的？")
    found = find_described(analysis)
    assert found is not None and found.named == "核潜艇"
    assert answer("用鱼雷击沉南星号的那艘核潜艇，是哪个国家的？").answers == ("雪国",)


def test_a_filtered_group_needs_a_clause_that_describes_members() -> None:
    analysis = analysed("第一舰队下辖的舰艇中，编入第一分队的有哪些？")
    found = find_filtered_group(analysis)
    assert found is not None and found.keep_having and found.negated_text == "编入第一分队"
    rec = answer("第一舰队下辖的舰艇中，编入第一分队的有哪些？")
    assert ("甲舰", "编入", "第一分队") in [tuple(t) for t in rec.main_path]
    # a name alone before 中 sets the scene (`海上行动中，…`); it describes no members to filter
    analysis = analysed("海上行动中，隶属于辅助舰队的舰艇有哪些？")
    assert find_filtered_group(analysis) is None


def test_a_name_written_before_another_with_de_modifies_it() -> None:
    assert answer("演习甲的实兵阶段是哪天结束的？").answers == ("2018年7月20日",)
    assert answer("演习甲是哪天结束的？").answers == ("2018年8月2日",)
