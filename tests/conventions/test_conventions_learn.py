"""`learn`: conventions inferred from gold answers, and the report of what was learned from how many examples."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kgreason.conventions import default_conventions
from kgreason.conventions.learn import classify_value, learn
from kgreason.data.loader import load_answer_file, load_dataset
from kgreason.data.records import AnswerRecord, KGTriple, Level, PathTriple
from kgreason.kg.compare import holding_operators
from kgreason.kg.quantities import parse_count

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample"


def item(
    qid: str,
    question: str,
    answer_type: str,
    answers: tuple[str, ...],
    path: tuple[PathTriple, ...],
    constraints: dict[str, str] | None = None,
) -> AnswerRecord:
    return AnswerRecord(qid, "doc_01", question, answer_type, answers, path, (), constraints or {}, "L2")


# An annotator with other conventions than the project's: 大于, counts with a measure word, 国家集合, compare /
# location / exclude keys, and a key whose values say nothing (`note`).
GOLD: list[AnswerRecord] = [
    item(
        "doc_01_001",
        "甲舰和乙舰哪一艘的排水量更大？",
        "装备",
        ("甲舰",),
        (("甲舰", "排水量", "8000吨"), ("乙舰", "排水量", "6000吨"), ("8000吨", "大于", "6000吨")),
        {"compare": "排水量更大", "note": "甲乙"},
    ),
    item(
        "doc_01_002",
        "丙战役和丁战役哪个更早？",
        "事件",
        ("丙战役",),
        (
            ("丙战役", "发生时间", "1942年6月4日"),
            ("丁战役", "发生时间", "1944年6月6日"),
            ("1942年6月4日", "早于", "1944年6月6日"),
        ),
        {"compare": "更早"},
    ),
    item(
        "doc_01_003",
        "甲舰共搭载了多少架直升机？",
        "数值",
        ("2架",),
        (("甲舰", "搭载直升机数量", "2架"),),
    ),
    item(
        "doc_01_004",
        "乙舰装备了多少枚导弹？",
        "数值",
        ("16枚",),
        (("乙舰", "导弹数量", "16枚"),),
    ),
    item("doc_01_005", "甲舰的最大航速是多少？", "数值", ("30节",), (("甲舰", "最大航速", "30节"),)),
    item(
        "doc_01_006",
        "甲舰和乙舰是否由同一家船厂建造？",
        "布尔",
        ("否",),
        (("甲舰", "建造单位", "江南造船厂"), ("乙舰", "建造单位", "大连造船厂")),
    ),
    item(
        "doc_01_007",
        "哪些国家采购了甲型导弹，且不是北约成员国？",
        "国家集合",
        ("新加坡", "约旦"),
        (("新加坡", "采购装备", "甲型导弹"), ("约旦", "采购装备", "甲型导弹")),
        {"exclude": "北约成员国"},
    ),
    item("doc_01_008", "新加坡位于哪个大洲？", "国家", ("新加坡",), (("甲型导弹", "采购国", "新加坡"),)),
    item(
        "doc_01_009",
        "2021年在三亚入列的舰艇是哪一艘？",
        "装备",
        ("甲舰",),
        (
            ("入列仪式", "举行地点", "海南三亚"),
            ("入列仪式", "入列舰艇", "甲舰"),
            ("入列仪式", "举行时间", "2021年4月23日"),
            ("2021年4月23日", "处于时期内", "2021年"),
        ),
        {"time": "2021年", "location": "三亚"},
    ),
]


def test_learning_from_a_small_inline_gold_list() -> None:
    conv, report = learn(GOLD)
    assert conv.relation_for("gt") == "大于"
    assert conv.operator_of("大于") == "gt" and conv.operator_of("数值大于") == "gt"  # the default's name still reads
    assert conv.relation_for("lt") == "小于"  # by analogy: the short names, as for gt
    assert conv.relation_for("before") == "早于" and conv.relation_for("within") == "处于时期内"
    assert conv.count_format == "measure_word" and conv.number_type == "数值"
    assert (conv.boolean_type, conv.no, conv.yes) == ("布尔", "否", "是")  # 是 not seen: kept
    assert conv.set_types.style == "by_member_type" and conv.set_answer_type("装备") == "装备集合"
    assert conv.constraint_key("order") == "compare"
    assert conv.constraint_key("place") == "location"
    assert conv.constraint_key("exclude") == "exclude"
    assert conv.constraint_key("time") == "time"
    assert conv.constraint_key("numeric") == "numeric"  # not seen: kept
    assert conv.other_constraint_keys == ("note",) and report.undecided_keys == ("note",)

    text = str(report)
    assert text.startswith("Learned from 9 gold item(s) (no KG given).")
    assert (
        "name 大于: 1 triple(s) comparing number values; 'left number greater than the right one' holds in 1 -> gt"
        in text
    )
    assert "format: measure_word: 2 with a measure word (2架, 16枚)" in text
    assert "key compare: 2 value(s) (order 2) -> order" in text
    assert "key note: 1 value(s) (none decided); undecided, kept as an other key" in text
    assert "yes: not seen; kept 是" in text
    examples = {(f.topic, f.subject): f.examples for f in report.findings}
    assert examples[("derived_relations", "name 早于")] == 1
    assert examples[("counts", "format")] == 2


def test_the_operator_comes_from_the_values_not_the_name() -> None:
    # `多于` is in no list: it is learned as gt because the left number is the greater one in every triple.
    gold = [
        item(
            "q1",
            "甲和乙哪个多？",
            "装备",
            ("甲",),
            (("甲", "数量", "5架"), ("乙", "数量", "3架"), ("5架", "多于", "3架")),
        ),
        item(
            "q2",
            "丙和丁哪个多？",
            "装备",
            ("丙",),
            (("丙", "数量", "9架"), ("丁", "数量", "4架"), ("9架", "多于", "4架")),
        ),
        item(
            "q3",
            "戊和己哪个早？",
            "装备",
            ("戊",),
            (("戊", "时间", "1990年"), ("己", "时间", "1995年"), ("1990年", "先于", "1995年")),
        ),
    ]
    conv, _ = learn(gold)
    assert conv.operator_of("多于") == "gt" and conv.relation_for("gt") == "多于"
    assert conv.operator_of("先于") == "before" and conv.relation_for("before") == "先于"
    assert conv.operator_of("早于") == "before"  # the default's name is still read


def test_kg_tells_facts_from_comparisons_and_gives_periods() -> None:
    kg = [
        KGTriple("t1", "第二次世界大战", "事件", "开始时间", "1939年9月1日", "时间"),
        KGTriple("t2", "第二次世界大战", "事件", "结束时间", "1945年9月2日", "时间"),
        KGTriple("t3", "中途岛海战", "事件", "发生时间", "1942年6月4日", "时间"),
    ]
    path = (("中途岛海战", "发生时间", "1942年6月4日"), ("1942年6月4日", "期间发生", "第二次世界大战"))
    gold = [item("q1", "二战期间发生的海战是哪一场？", "事件", ("中途岛海战",), path)]
    without, _ = learn(gold)
    assert without.operator_of("期间发生") is None  # a period node is only readable with the KG
    with_kg, report = learn(gold, kgs={"doc_01": kg})
    assert with_kg.operator_of("期间发生") == "within"
    assert report.items_with_kg == 1


def test_learning_from_the_sample_gives_the_default() -> None:
    items, _ = load_answer_file(SAMPLE / "qa_answer.json")
    dataset, _ = load_dataset(SAMPLE)
    conv, report = learn(items, kgs=dict(dataset.kgs))
    # all but the levels a kind is written at: the sample's own (no L1 question has a constraint), the defaults'
    # those of the blind held-out sets
    levels = dict(conv.constraint_levels)
    assert replace(conv, constraint_levels=default_conventions().constraint_levels) == default_conventions()
    assert levels["time"] == ("L2", "L3") and levels["numeric"] == ("L3",)
    assert report.items == 47 and report.items_with_kg == 47
    text = str(report)
    assert "operator gt: write 数值大于, also read 大于" in text
    assert "format: bare: 2 bare (4, 2)" in text
    assert "style: generic: 实体集合 (实体集合 ×6)" in text
    assert "key camp: 8 value(s)" in text
    assert "time: written at L2, L3 only (L1 0 of 14, L2 2 of 19, L3 12 of 14)" in text
    # without the KG too (period operands are then unreadable, and the default is kept for them)
    assert learn(items)[0] == conv


def test_constraint_values_by_content() -> None:
    cases = {
        ("第二次世界大战期间", "在第二次世界大战期间指挥过诺曼底登陆的人是谁？"): "time",
        ("2010年以后", "2010年以后首飞的战斗机是哪个？"): "time",
        ("马岛战争中", "马岛战争中被击中的军舰是哪一艘？"): "time",
        ("射程超过1000公里", "射程超过1000公里的导弹有哪些？"): "numeric",
        ("首飞时间最晚", "首飞时间最晚的是哪一型？"): "order",
        ("先被击中", "哪一艘先被击中？"): "order",
        ("英国以外", "英国以外的国家有几个？"): "exclude",
        ("水面舰艇", "不属于水面舰艇的是哪一艘？"): "exclude",
        ("在朱日和举行的阅兵", "除在朱日和举行的那次阅兵以外，它还参加过哪一次阅兵？"): "exclude",
        ("同盟国", "隶属于同盟国的指挥官是谁？"): "camp",
        ("大连", "在大连建造的是哪一艘？"): "place",
    }
    for (value, question), kind in cases.items():
        assert classify_value(value, question)[0] == kind, value
    # A value negated in one place but not in another is not an exclusion.
    assert classify_value("阅兵", "除在朱日和举行的那次阅兵以外，它还参加过哪一次阅兵？")[0] is None
    # The relation through which the path reaches the value decides a name.
    rec = item("q", "由美国研制的战斗机绰号是什么？", "别名", ("猛禽",), (("F-22", "所属国家", "美国"),))
    assert classify_value("美国", rec.question, rec) == ("country", "the relation that reaches it")
    assert classify_value("甲乙", "甲乙两舰中哪艘更大？")[0] is None


def test_value_readings_used_by_learn() -> None:
    reading = holding_operators("20人", "14人")
    assert reading is not None and reading.kind == "number" and reading.holds == ("gt", "ge")
    reading = holding_operators("1944年6月6日", "1939年")
    assert reading is not None and reading.kind == "time" and "after" in reading.holds
    assert holding_operators("055型驱逐舰", "112单元") is None  # different dimensions
    assert holding_operators("歼-20", "2011年1月11日") is None
    assert parse_count("4艘") == (4, "艘") and parse_count("112单元") == (112, "单元") and parse_count("3") == (3, "")
    assert parse_count("1500公里") is None and parse_count("2005年") is None and parse_count("两种") is None
    assert parse_count("3万") is None


def test_levels_are_learned_only_from_gold_with_two_levels_of_enough_questions() -> None:
    def item(i: int, level: Level, constraints: dict[str, str]) -> AnswerRecord:
        path = (("甲", "职务", "乙"),)
        return AnswerRecord(f"q{i}", "doc_01", f"问题{i}", "人物", ("甲",), path, (), constraints, level)

    # a side marked on L3 questions only, among ten of each level: not written at L1 or L2
    gold = [item(i, "L2", {}) for i in range(10)] + [item(10 + i, "L3", {"camp": "丙国"}) for i in range(10)]
    gold += [item(20 + i, "L1", {}) for i in range(10)]
    conv, report = learn(gold)
    assert dict(conv.constraint_levels)["camp"] == ("L3",)
    assert "camp: written at L3 only (L1 0 of 10, L2 0 of 10, L3 10 of 10)" in str(report)
    # a file whose items all read as L1 (no difficulties given) says nothing of levels: the base's are kept
    flat = [item(i, "L1", {"camp": "丙国"} if i % 2 else {}) for i in range(30)]
    assert learn(flat)[0].constraint_levels == default_conventions().constraint_levels
