"""A small hand-made KG and dataset for the reasoner's tests (not the sample data: general Chinese cases).

Imported by the tests as `reason_smallkg` (this folder is on sys.path under pytest's default import mode)."""

from __future__ import annotations

from kgreason.data.records import Dataset, Document, KGTriple, Question

ROWS: list[tuple[str, str, str, str, str]] = [
    ("歼-20", "武器装备", "别名", "威龙", "名称"),
    ("歼-20", "武器装备", "研制单位", "成都飞机设计研究所", "组织机构"),
    ("成都飞机设计研究所", "组织机构", "位于", "四川成都", "地点"),
    ("歼-20", "武器装备", "首飞时间", "2011年1月11日", "时间"),
    ("歼-20", "武器装备", "服役时间", "2017年9月", "时间"),
    ("歼-20", "武器装备", "最大航程", "5500公里", "数值"),
    ("歼-20", "武器装备", "动力装置", "涡扇-15发动机", "武器装备"),
    ("涡扇-15发动机", "武器装备", "研制单位", "中国航发", "组织机构"),
    ("歼-10", "武器装备", "研制单位", "成都飞机设计研究所", "组织机构"),
    ("歼-10", "武器装备", "首飞时间", "1998年3月23日", "时间"),
    ("歼-10", "武器装备", "最大航程", "3200公里", "数值"),
    ("歼-10C", "武器装备", "改进自", "歼-10", "武器装备"),
    ("歼-10C", "武器装备", "首飞时间", "2013年12月", "时间"),
    ("诺曼底登陆", "作战行动", "指挥官", "艾森豪威尔", "人物"),
    ("诺曼底登陆", "作战行动", "防御方指挥官", "隆美尔", "人物"),
    ("诺曼底登陆", "作战行动", "发生时间", "1944 年 6 月 6 日", "时间"),
    ("艾森豪威尔", "人物", "隶属于", "同盟国", "阵营"),
    ("隆美尔", "人物", "隶属于", "轴心国", "阵营"),
    ("第二次世界大战", "作战行动", "开始时间", "1939年9月1日", "时间"),
    ("第二次世界大战", "作战行动", "结束时间", "1945年9月2日", "时间"),
    ("第二次世界大战", "作战行动", "简称", "二战", "名称"),
]

DOCUMENT = (
    "歼-20，别名威龙，由成都飞机设计研究所研制，2011年1月11日首飞，2017年9月服役，最大航程5500公里。"
    "歼-20的动力装置为涡扇-15发动机，由中国航发研制。成都飞机设计研究所位于四川成都。"
    "歼-10同样由成都飞机设计研究所研制，1998年3月23日首飞，最大航程3200公里。歼-10C改进自歼-10。"
    "1944 年 6 月 6 日，艾森豪威尔指挥了诺曼底登陆，隆美尔为防御方指挥官。"
)


Row = tuple[str, str, str, str, str]  # sub, sub_type, relation, obj, obj_type


def kg(rows: list[Row] = ROWS) -> tuple[KGTriple, ...]:
    return tuple(KGTriple(f"t{i:02d}", s, st, r, o, ot) for i, (s, st, r, o, ot) in enumerate(rows, start=1))


def make_dataset(
    questions: list[tuple[str, str]], *, doc_id: str = "doc_01", rows: list[Row] = ROWS, document: str = DOCUMENT
) -> Dataset:
    """A dataset with the KG of `rows` (default: the one above) and `questions` as (question, level)."""
    qs = tuple(
        Question(f"{doc_id}_{i:03d}", doc_id, text, level)  # type: ignore[arg-type]
        for i, (text, level) in enumerate(questions, start=1)
    )
    return Dataset(
        root="memory",
        documents={doc_id: Document(doc_id, document)},
        kgs={doc_id: kg(rows)},
        questions=qs,
    )
