"""Negation over a described group (`reason/negation.py`) and a negated predicate on one answer (`没有沉没`,
`checks.check_negated`), on an invented KG (no data set's facts): the group the clause before 中/里 describes is
answered first, and the members that have what is negated are left out."""

from __future__ import annotations

from dataclasses import replace

import pytest
from reason_smallkg import make_dataset

from kgreason.data.records import AnswerRecord, Dataset
from kgreason.kg.index import KGIndex
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.negation import find_negated_group
from kgreason.reason.reasoner import Reasoner, verify_path

ROWS: list[tuple[str, str, str, str, str]] = [
    ("第一舰队", "部队", "下辖", "甲舰", "舰艇"),
    ("第一舰队", "部队", "下辖", "乙舰", "舰艇"),
    ("第一舰队", "部队", "下辖", "丙舰", "舰艇"),
    ("第一舰队", "部队", "下辖", "丁舰", "舰艇"),
    ("第一分队", "部队", "下辖", "甲舰", "舰艇"),
    ("第一分队", "部队", "下辖", "丙舰", "舰艇"),
    ("甲舰", "舰艇", "沉没时间", "1960年6月4日", "时间"),
    ("乙舰", "舰艇", "沉没时间", "1960年6月5日", "时间"),
    ("甲舰", "舰艇", "类型", "驱逐舰", "类别"),
    ("乙舰", "舰艇", "类型", "护卫舰", "类别"),
    ("丙舰", "舰艇", "类型", "驱逐舰", "类别"),
    ("丁舰", "舰艇", "类型", "补给舰", "类别"),
    ("甲舰", "舰艇", "舷号", "101", "代号"),
    ("乙舰", "舰艇", "舷号", "102", "代号"),
    ("第一舰队", "部队", "所属国家", "云国", "国家"),
    ("雷火导弹", "装备", "研制单位", "北辰公司", "组织"),
    ("风行雷达", "装备", "研制单位", "南岳公司", "组织"),
    ("霜刃火炮", "装备", "研制单位", "东极公司", "组织"),
    ("海盾项目", "项目", "中标方", "北辰公司", "组织"),
    ("海盾项目", "项目", "竞标方", "南岳公司", "组织"),
    ("甲舰", "舰艇", "所属型号", "052型驱逐舰", "型号"),
    ("丙舰", "舰艇", "所属型号", "052型驱逐舰", "型号"),
    ("乙舰", "舰艇", "所属型号", "054型护卫舰", "型号"),
]


def dataset(question: str) -> Dataset:
    return make_dataset([(question, "L3")], rows=ROWS, document="")


def answer(question: str, config: ReasonerConfig | None = None) -> AnswerRecord:
    ds = dataset(question)
    rec = Reasoner(ds, config or ReasonerConfig()).answer(ds.questions[0]).record
    verify_path(rec.main_path, KGIndex("doc_01", ds.kgs["doc_01"]), question)
    return rec


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a relation the other members have (沉没时间)
        ("第一舰队下辖的舰艇中，哪些没有沉没？", {"丙舰", "丁舰"}),
        # a named node the members reach, by any relation (第一分队 下辖, not 编入)
        ("第一舰队下辖的舰艇中，哪些没有编入第一分队？", {"乙舰", "丁舰"}),
        # a value of a neighbour (类型 驱逐舰), the attribute named before the marker
        ("第一舰队下辖的舰艇里，类型不是驱逐舰的有哪些？", {"乙舰", "丁舰"}),
        # a date the negated words name, among the members' values
        ("第一舰队下辖的几艘舰艇中，哪些不是在1960年6月4日沉没的？", {"乙舰", "丙舰", "丁舰"}),
        # a group named by a name that starts with a number (`为052型` is no threshold `= 52 型`)
        ("所属型号为052型驱逐舰的各艘舰中，哪些没有沉没？", {"丙舰"}),
        # a name with the relation it is reached by (中标方, not 竞标方)
        ("文中各装备的研制单位里，哪些并非海盾项目的中标方？", {"南岳公司", "东极公司"}),
    ],
)
def test_members_that_lack_what_is_negated(question: str, expected: set[str]) -> None:
    rec = answer(question)
    assert set(rec.answers) == expected
    assert all(any(t[2] == a or t[0] == a for t in rec.main_path) for a in expected)  # each member's own chain
    assert not any(t[0] in ("第一分队", "海盾项目") for t in rec.main_path)  # absence has no triple


def test_off_in_the_config_the_group_is_not_tested() -> None:
    question = "第一舰队下辖的舰艇中，哪些没有编入第一分队？"
    assert set(answer(question, ReasonerConfig(negated_groups=False)).answers) != {"乙舰", "丁舰"}


def test_one_member_asked() -> None:
    rec = answer("第一分队下辖的舰艇里，哪一艘没有沉没？")
    assert rec.answers == ("丙舰",)


def test_the_negated_words_are_the_constraint() -> None:
    rec = answer("第一舰队下辖的舰艇中，哪些没有编入第一分队？")
    assert "第一分队" in rec.constraints.values() or "编入第一分队" in rec.constraints.values()


def _neg(question: str) -> object:
    ds = dataset(question)
    _, analysis = Reasoner(ds).analyse(ds.questions[0])
    return find_negated_group(analysis)


def test_the_shape_is_read_from_the_wording() -> None:
    neg = _neg("第一舰队下辖的几艘舰艇里，类型不是驱逐舰的有哪些？")
    assert neg is not None
    assert neg.group_text == "第一舰队下辖的舰艇"  # type: ignore[attr-defined]  # `几艘` describes, it does not ask
    assert neg.negated_text == "驱逐舰" and neg.form == "set"  # type: ignore[attr-defined]
    one = _neg("第一舰队下辖的舰艇里哪一艘没有沉没？")  # no comma: the question word ends the group clause
    assert one is not None and one.form == "entity" and one.negated_text == "沉没"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "question",
    [
        "第一舰队下辖的舰艇中，有没有沉没的？",  # `有没有` asks yes or no
        "第一舰队下辖的舰艇有哪些没有沉没？",  # no among-word: no group clause
        "第一舰队下辖的舰艇中，哪些沉没了？",  # nothing negated
        "第一舰队下辖的舰艇中，哪些没有了？",  # a negated word too short to mean anything
    ],
)
def test_no_negated_group(question: str) -> None:
    assert _neg(question) is None


def test_a_negated_predicate_on_one_answer_is_checked() -> None:
    """Without a group clause, `没有沉没` is a check on each answer: the ships with a 沉没时间 fail it."""
    ds = dataset("第一分队下辖的哪艘舰艇没有沉没？")
    result = Reasoner(ds, replace(ReasonerConfig(), negated_groups=False)).answer(ds.questions[0])
    assert result.record.answers == ("丙舰",)


def test_a_number_inside_a_linked_name_is_no_threshold() -> None:
    """`所属型号为052型驱逐舰`: the number begins a name the question links, so it is no `= 52 型` threshold."""

    def numerics(question: str) -> tuple[str, ...]:
        ds = dataset(question)
        _, analysis = Reasoner(ds).analyse(ds.questions[0])
        return tuple(t.text for t in analysis.numerics)

    assert numerics("所属型号为052型驱逐舰的舰艇有哪些？") == ()
    assert numerics("沉没时间为1960年6月4日、所属型号为052型驱逐舰的舰艇有哪些？") == ()  # a date is a window


def test_listed_starts_of_a_set_question_are_a_union_unless_shared() -> None:
    """`A和B下辖的舰艇有哪些` asks for the members of each (`respectively.union_parts`); `A和B都下辖的` for the ones
    they share (the chain search's own reading, unchanged)."""
    assert set(answer("第一舰队和第一分队下辖的舰艇有哪些？").answers) == {"甲舰", "乙舰", "丙舰", "丁舰"}
    assert set(answer("第一舰队和第一分队都下辖的舰艇有哪些？").answers) == {"甲舰", "丙舰"}
    # the group of a negation may be such a union
    assert set(answer("第一分队和第一舰队下辖的舰艇里，哪几艘没有沉没？").answers) == {"丙舰", "丁舰"}
