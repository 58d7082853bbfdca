"""Gold checks of qa_answer.json items: KG membership, derived triples, connectivity, answers, constraints."""

from __future__ import annotations

from dataclasses import replace

from kgreason.data.gold import GoldContext, KGLookup, check_gold_item, is_derived
from kgreason.data.records import AnswerRecord, KGTriple, Question
from kgreason.errors import Problem
from kgreason.kg.values import check_derived_triple


def kg() -> KGLookup:
    rows = [
        ("歼-20", "首飞时间", "2011年1月11日"),
        ("歼-10", "首飞时间", "1998年3月23日"),
        ("歼-20", "研制单位", "成都飞机工业集团"),
        ("成都飞机工业集团", "隶属于", "中国航空工业集团"),
        ("歼-20", "最大航程", "5500公里"),
        ("辽宁舰", "舰载机", "歼-15"),
        ("辽宁舰", "舰载机", "直-18"),
    ]
    triples = [KGTriple(f"t{i}", s, "实体", r, o, "实体") for i, (s, r, o) in enumerate(rows)]
    return KGLookup.build("KG_doc_01.json", triples)


def check(question: str, **fields: object) -> list[Problem]:
    record = AnswerRecord(
        query_id="doc_01_001",
        doc_id="doc_01",
        question=question,
        answer_type="人物",
        answers=(),
        main_path=(),
    )
    record = replace(record, **fields)  # type: ignore[arg-type]
    ctx = GoldContext(
        file="qa_answer.json",
        label="#0 (query_id=doc_01_001)",
        question=Question("doc_01_001", "doc_01", question, "L2"),
        kg=kg(),
        check_derived=check_derived_triple,
    )
    return check_gold_item(record, ctx)


def messages(problems: list[Problem]) -> list[str]:
    return [f"{p.severity} {p.field}: {p.message}" for p in problems]


def test_clean_item_has_no_problem() -> None:
    problems = check(
        "歼-20的研制单位隶属于哪个集团？",
        answer_type="组织机构",
        answers=("中国航空工业集团",),
        main_path=(("歼-20", "研制单位", "成都飞机工业集团"), ("成都飞机工业集团", "隶属于", "中国航空工业集团")),
    )
    assert problems == []


def test_missing_triple_hints_at_reversed_direction_and_other_relation() -> None:
    problems = check(
        "歼-20的研制单位是什么？",
        answer_type="组织机构",
        answers=("成都飞机工业集团",),
        main_path=(("成都飞机工业集团", "研制单位", "歼-20"),),
        alt_paths=((("歼-20", "制造商", "成都飞机工业集团"),), (("歼-20", "研制单位", "沈阳飞机工业集团"),)),
    )
    assert messages(problems) == [
        'error gold_reasoning_paths_main[0]: triple ["成都飞机工业集团", "研制单位", "歼-20"] is not in '
        "KG_doc_01.json; "
        'the KG has it the other way round: ["歼-20", "研制单位", "成都飞机工业集团"]',
        'error gold_reasoning_paths_alt[0][0]: triple ["歼-20", "制造商", "成都飞机工业集团"] is not in '
        "KG_doc_01.json; the KG links these two with the relation 研制单位",
        'error gold_reasoning_paths_alt[1][0]: triple ["歼-20", "研制单位", "沈阳飞机工业集团"] is not in '
        "KG_doc_01.json; not a node of the KG: 沈阳飞机工业集团",
    ]


def test_comparison_of_two_entities_named_in_the_question_is_connected() -> None:
    problems = check(
        "歼-20和歼-10哪个首飞更早？",
        answer_type="武器装备",
        answers=("歼-10",),
        main_path=(
            ("歼-20", "首飞时间", "2011年1月11日"),
            ("歼-10", "首飞时间", "1998年3月23日"),
            ("1998年3月23日", "早于", "2011年1月11日"),
        ),
    )
    assert problems == []


def test_false_derived_triple_and_one_before_its_value() -> None:
    problems = check(
        "歼-20和歼-10哪个首飞更早？",
        answer_type="武器装备",
        answers=("歼-10",),
        main_path=(
            ("2011年1月11日", "早于", "1998年3月23日"),
            ("歼-20", "首飞时间", "2011年1月11日"),
            ("歼-10", "首飞时间", "1998年3月23日"),
        ),
    )
    assert [p.field for p in problems] == ["gold_reasoning_paths_main[0]", "gold_reasoning_paths_main[0]"]
    assert "fails its check" in problems[0].message
    assert "none of which appears in an earlier triple" in problems[1].message


def test_yes_no_and_count_answers() -> None:
    path = (("歼-20", "最大航程", "5500公里"), ("5500公里", "数值大于", "3000公里"))
    ok = check("歼-20的最大航程是否超过3000公里？", answer_type="布尔", answers=("是",), main_path=path)
    assert ok == []
    bad = check("歼-20的最大航程是否超过3000公里？", answer_type="布尔", answers=("对",), main_path=path)
    assert messages(bad) == ['error answers: a yes/no answer must be ["是"] or ["否"], got ["对"]']

    carriers = (("辽宁舰", "舰载机", "歼-15"), ("辽宁舰", "舰载机", "直-18"))
    assert check("辽宁舰有几种舰载机？", answer_type="数值", answers=("2",), main_path=carriers) == []
    words = check("辽宁舰有几种舰载机？", answer_type="数值", answers=("两种",), main_path=carriers)
    assert "neither a node of the main path nor a count in Arabic digits" in words[0].message


def test_constraints_quote_the_question() -> None:
    problems = check(
        "2010年以后首飞的、由成都飞机工业集团研制的战斗机是哪个？",
        answer_type="武器装备",
        answers=("歼-20",),
        main_path=(
            ("歼-20", "研制单位", "成都飞机工业集团"),
            ("歼-20", "首飞时间", "2011年1月11日"),
            ("2011年1月11日", "晚于", "2010年"),
        ),
        constraints={"time": "2010年以后", "maker": "成都飞机工业集团", "place": "2010 年以后", "order": " "},
    )
    assert messages(problems) == [
        "warning constraints.maker: unknown constraint key 'maker' (the conventions use time, camp, place, numeric, "
        "order, type)",
        "warning constraints.place: value '2010 年以后' is not a verbatim part of the question; constraints quote the "
        "question's own wording",
        "error constraints.order: is empty; a constraint needs a value",
    ]


def test_empty_paths_and_answers() -> None:
    problems = check("歼-20的研制单位是什么？", answers=(), main_path=(), alt_paths=((), ()))
    assert [p.field for p in problems] == [
        "gold_reasoning_paths_main",
        "gold_reasoning_paths_alt[0]",
        "gold_reasoning_paths_alt[1]",
        "answers",
    ]


def test_is_derived() -> None:
    assert is_derived(("1944 年 6 月 6 日", "处于时期内", "第二次世界大战"))
    assert is_derived(("1500公里", "数值大于", "1000公里"))
    assert not is_derived(("诺曼底登陆", "指挥官", "艾森豪威尔"))
