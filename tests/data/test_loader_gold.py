"""Gold checks of qa_answer.json items: KG membership, derived triples, connectivity, answers, constraints."""

from __future__ import annotations

from dataclasses import replace

from kgreason.conventions import Conventions, default_conventions
from kgreason.conventions.model import SetTypes
from kgreason.data.gold import GoldContext, KGLookup, check_gold_item, is_derived
from kgreason.data.records import AnswerRecord, KGTriple, Question
from kgreason.errors import Problem
from kgreason.kg.compare import check_derived_triple


def kg() -> KGLookup:
    rows = [
        ("歼-20", "首飞时间", "2011年1月11日", "时间"),
        ("歼-10", "首飞时间", "1998年3月23日", "时间"),
        ("歼-20", "研制单位", "成都飞机工业集团", "组织机构"),
        ("成都飞机工业集团", "隶属于", "中国航空工业集团", "组织机构"),
        ("歼-20", "最大航程", "5500公里", "数值"),
        ("辽宁舰", "舰载机", "歼-15", "武器装备"),
        ("辽宁舰", "舰载机", "直-18", "武器装备"),
        ("歼-20", "总设计师", "杨伟", "人物"),
    ]
    # Node types as a real KG gives them: an answer_type that is none of them (nor 布尔/数值/实体集合) is a warning.
    sub_types = {"成都飞机工业集团": "组织机构"}
    triples = [KGTriple(f"t{i}", s, sub_types.get(s, "武器装备"), r, o, t) for i, (s, r, o, t) in enumerate(rows)]
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
    # the spec's own word for the type, `布尔值`, is the yes/no type too: a warning, not an error on the answer
    spec_word = check("歼-20的最大航程是否超过3000公里？", answer_type="布尔值", answers=("是",), main_path=path)
    assert messages(spec_word) == [
        "warning answer_type: answer_type '布尔值' is read as the yes/no type; the conventions write '布尔'"
    ]

    carriers = (("辽宁舰", "舰载机", "歼-15"), ("辽宁舰", "舰载机", "直-18"))
    assert check("辽宁舰有几种舰载机？", answer_type="数值", answers=("2",), main_path=carriers) == []
    words = check("辽宁舰有几种舰载机？", answer_type="数值", answers=("两种",), main_path=carriers)
    assert "neither a node of the main path nor a count in Arabic digits" in words[0].message
    # a value with a unit computed from the path's values (a difference, a span between dates): read, not refused
    ranges = (("歼-20", "最大航程", "5500公里"),)
    assert check("歼-20的最大航程比3000公里多多少？", answer_type="数值", answers=("2500公里",), main_path=ranges) == []
    flights = (("歼-20", "首飞时间", "2011年1月11日"), ("歼-10", "首飞时间", "1998年3月23日"))
    assert check("歼-20比歼-10晚多少天首飞？", answer_type="数值", answers=("4677天",), main_path=flights) == []
    assert check("歼-20比歼-10晚多少天首飞？", answer_type="数值", answers=("很多",), main_path=flights) != []
    # … in months or weeks too (`前后一共花了几个月` -> `14个月`)
    assert check("歼-20比歼-10晚多少个月首飞？", answer_type="数值", answers=("154个月",), main_path=flights) == []
    assert check("歼-20比歼-10晚多少周首飞？", answer_type="数值", answers=("668周",), main_path=flights) == []


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
        "order, type, exclude)",
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


# ----------------------------------------------------------------------- other annotators' conventions: warnings


def check_with(question: str, conventions: Conventions | None = None, **fields: object) -> list[Problem]:
    """`check` with other conventions than the defaults."""
    record = replace(
        AnswerRecord(
            "doc_01_001", "doc_01", question, "武器装备", ("歼-20",), (("歼-20", "首飞时间", "2011年1月11日"),)
        ),
        **fields,  # type: ignore[arg-type]
    )
    ctx = GoldContext(
        "qa_answer.json",
        "#0 (query_id=doc_01_001)",
        Question("doc_01_001", "doc_01", question, "L2"),
        kg(),
        check_derived_triple,
        conventions or default_conventions(),
    )
    return check_gold_item(record, ctx)


def test_short_numeric_name_is_a_checked_derived_relation() -> None:
    path = (("歼-20", "最大航程", "5500公里"), ("5500公里", "大于", "3000公里"))
    assert check("歼-20的最大航程是否超过3000公里？", answer_type="布尔", answers=("是",), main_path=path) == []
    false = (("歼-20", "最大航程", "5500公里"), ("5500公里", "大于", "8000公里"))
    problems = check("歼-20的最大航程是否超过8000公里？", answer_type="布尔", answers=("否",), main_path=false)
    assert messages(problems) == [
        'error gold_reasoning_paths_main[1]: derived triple ["5500公里", "大于", "8000公里"] fails its check: '
        "false: '5500公里' 大于 '8000公里' does not hold"
    ]


def test_unknown_comparison_relation_is_a_warning_that_says_what_holds() -> None:
    path = (("歼-20", "最大航程", "5500公里"), ("5500公里", "远于", "3000公里"))
    problems = check("歼-20的最大航程是否超过3000公里？", answer_type="布尔", answers=("是",), main_path=path)
    assert messages(problems) == [
        'warning gold_reasoning_paths_main[1]: triple ["5500公里", "远于", "3000公里"] is not in KG_doc_01.json and '
        "'远于' is not a derived relation the conventions know; it reads as a comparison of two number values: "
        "left number greater than the right one (数值大于) (add the name to the conventions' derived_relations to "
        "check it)"
    ]
    # Not a comparison of values: still an error.
    wrong = (("歼-20", "最大航程", "5500公里"), ("歼-20", "航程", "5500公里"))
    problems = check("歼-20的最大航程是多少？", answer_type="数值", answers=("5500公里",), main_path=wrong)
    assert [p.severity for p in problems] == ["error"]


def test_count_with_a_measure_word_is_a_warning() -> None:
    carriers = (("辽宁舰", "舰载机", "歼-15"), ("辽宁舰", "舰载机", "直-18"))
    problems = check("辽宁舰有几种舰载机？", answer_type="数值", answers=("2型",), main_path=carriers)
    assert messages(problems) == [
        "warning answers: count '2型' carries a measure word; the conventions write counts as bare numbers (\"2\")"
    ]
    worded = replace(default_conventions(), count_format="measure_word")
    assert check_with("辽宁舰有几种舰载机？", worded, answer_type="数值", answers=("2型",), main_path=carriers) == []
    bare = check_with("辽宁舰有几种舰载机？", worded, answer_type="数值", answers=("2",), main_path=carriers)
    assert [(p.severity, p.field) for p in bare] == [("warning", "answers")]
    # A length is not a count: an answer off the path stays an error.
    far = check("辽宁舰有几种舰载机？", answer_type="数值", answers=("2公里",), main_path=carriers)
    assert [p.severity for p in far] == ["error"]


def test_comparison_written_as_two_chains_is_a_warning() -> None:
    # The second chain starts from 歼十 (the KG spells it 歼-10), a name the question does not use.
    two_chains = (
        ("歼-20", "首飞时间", "2011年1月11日"),
        ("歼-10", "首飞时间", "1998年3月23日"),
        ("1998年3月23日", "早于", "2011年1月11日"),
    )
    problems = check("歼-20和歼十哪个首飞更早？", answer_type="武器装备", answers=("歼-10",), main_path=two_chains)
    assert messages(problems) == [
        'warning gold_reasoning_paths_main[1]: triple ["歼-10", "首飞时间", "1998年3月23日"] starts a second chain: '
        "neither end appears in an earlier triple or in the question; accepted because a comparison triple later "
        "joins the chains (one chain per compared item)"
    ]
    # Without the comparison joining them, the same path is disconnected: an error.
    problems = check("歼-20和歼十哪个首飞更早？", answer_type="武器装备", answers=("歼-10",), main_path=two_chains[:2])
    assert [p.severity for p in problems] == ["error"]
    assert "is not connected to the rest of the main path" in problems[0].message


def test_unknown_answer_type_and_other_set_types_are_warnings() -> None:
    path = (("辽宁舰", "舰载机", "歼-15"), ("辽宁舰", "舰载机", "直-18"))
    unknown = check("辽宁舰有哪些舰载机？", answer_type="别名", answers=("歼-15",), main_path=path[:1])
    assert messages(unknown) == [
        "warning answer_type: unknown answer_type '别名': neither a node type of KG_doc_01.json nor one of the "
        "conventions' answer types (布尔, 数值, 实体集合)"
    ]
    typed = check("辽宁舰有哪些舰载机？", answer_type="武器装备集合", answers=("歼-15", "直-18"), main_path=path)
    assert messages(typed) == [
        "warning answer_type: set answer type '武器装备集合' differs from the conventions' '实体集合'"
    ]
    assert check("辽宁舰有哪些舰载机？", answer_type="实体集合", answers=("歼-15", "直-18"), main_path=path) == []
    by_type = replace(default_conventions(), set_types=SetTypes("by_member_type", "实体集合", "集合"))
    ok = check_with(
        "辽宁舰有哪些舰载机？", by_type, answer_type="武器装备集合", answers=("歼-15", "直-18"), main_path=path
    )
    assert ok == []


def test_constraint_keys_follow_the_conventions() -> None:
    path = (("歼-20", "首飞时间", "2011年1月11日"), ("歼-10", "首飞时间", "1998年3月23日"))
    fields = {"answer_type": "武器装备", "answers": ("歼-10",), "main_path": path, "constraints": {"compare": "更早"}}
    default = check("歼-20和歼-10哪个首飞更早？", **fields)
    assert [(p.severity, p.field) for p in default] == [("warning", "constraints.compare")]
    assert "unknown constraint key 'compare'" in default[0].message
    keys = tuple((k, "compare" if k == "order" else v) for k, v in default_conventions().constraint_keys)
    ext = replace(default_conventions(), constraint_keys=keys)
    assert check_with("歼-20和歼-10哪个首飞更早？", ext, **fields) == []
