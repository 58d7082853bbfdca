"""Differences computed in code (reason/arithmetic.py), on invented KGs."""

from __future__ import annotations

from dataclasses import replace

from kgreason.data.records import AnswerRecord, Dataset, Document, KGTriple, Question
from kgreason.kg.index import KGIndex
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner, verify_path

ROWS: list[tuple[str, str, str, str, str]] = [
    ("甲国乙机采购", "合同", "采购方", "甲国", "国家"),
    ("甲国乙机采购", "合同", "采购数量", "36架", "数量"),
    ("丙国空军乙机采购", "合同", "采购方", "丙国空军", "部队"),
    ("丙国空军乙机采购", "合同", "采购数量", "22架", "数量"),
    ("丁将军", "人物", "殉国时间", "1938年3月17日", "时间"),
    ("丁将军", "人物", "殉国于", "戊城保卫战", "战斗"),
    ("戊城保卫战", "战斗", "开始时间", "1938年3月14日", "时间"),
    ("己城巷战", "战斗", "起因", "敌军突入己城", "事件"),
    ("己城巷战", "战斗", "开始时间", "1938年3月27日", "时间"),
    ("庚舰", "舰艇", "管带", "辛管带", "人物"),
    ("辛管带", "人物", "被处斩时间", "1894年9月24日", "时间"),
    ("壬海战", "战役", "发生时间", "1894年9月17日", "时间"),
    ("壬海战", "战役", "参战舰艇", "庚舰", "舰艇"),
]


def _answer(question: str, cfg: ReasonerConfig | None = None) -> AnswerRecord:
    triples = tuple(KGTriple(f"t{i}", s, st, r, o, ot) for i, (s, st, r, o, ot) in enumerate(ROWS))
    ds = Dataset("memory", {"doc_01": Document("doc_01", "")}, {"doc_01": triples},
                 (Question("doc_01_001", "doc_01", question, "L2"),))  # type: ignore[arg-type]  # fmt: skip
    rec = Reasoner(ds, cfg or ReasonerConfig()).answer(ds.questions[0]).record
    verify_path(rec.main_path, KGIndex("doc_01", triples), question)
    return rec


def test_how_many_more_is_the_difference_of_one_attribute_of_the_two_sides() -> None:
    rec = _answer("甲国采购的乙机比丙国空军订购的多出几架？")
    assert rec.answers == ("14",)  # a count, written bare by the default conventions
    assert rec.main_path[-1] == ("36架", "数值大于", "22架")
    assert ("丙国空军乙机采购", "采购数量", "22架") in rec.main_path


def test_days_between_two_events_each_by_its_own_date() -> None:
    # `X殉国之后过了几天，Y`: 丁将军's own date (not the start of the battle he fell in), and the event Y's
    rec = _answer("丁将军殉国之后过了几天，敌军突入己城？")
    assert rec.answers == ("10",)
    assert rec.main_path[-1] == ("1938年3月27日", "晚于", "1938年3月17日")
    # `X时，距离Y过去了几天`: the sides either side of `距离`
    assert _answer("庚舰管带辛管带被处斩时，距离壬海战过去了几天？").answers == ("7",)


def test_without_the_policy_or_two_comparable_values_no_difference_is_computed() -> None:
    assert _answer(
        "甲国采购的乙机比丙国空军订购的多出几架？", replace(ReasonerConfig(), differences=False)
    ).answers != ("14",)
    # one side has no number of the kind: nothing to subtract, the question is answered as any other
    assert _answer("丁将军比甲国多出几架？").answers != ("14",)
