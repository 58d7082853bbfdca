"""A small invented corpus of two documents that share one name (`雷霆-9`), in the task's layout. A plain module
with its own name (not `conftest`), so tests of other folders can import it in the same pytest session."""

from __future__ import annotations

import json
from pathlib import Path

DOCS = [
    {
        "doc_id": "d1",
        "content": "雷霆-9战斗机由北方飞机公司研制。雷霆-9于2001年3月5日首飞。北方飞机公司总部位于临江市。",
    },
    {
        "doc_id": "d2",
        "content": (
            "海鹰号航空母舰是海鹰级航空母舰的首舰，于2010年5月1日服役，舷号为H01。海鹰号搭载第5中队。"
            "第5中队装备雷霆-9。2015年6月2日，海鹰号在东海与对方舰艇发生对峙，这一事件被称为东海对峙事件。"
            "东海对峙事件结束于2015年6月3日。张海是海鹰号的舰长。"
        ),
    },
]
KGS = {
    "d1": [
        ("雷霆-9", "武器装备", "研制单位", "北方飞机公司", "组织机构"),
        ("雷霆-9", "武器装备", "首飞时间", "2001年3月5日", "时间"),
        ("北方飞机公司", "组织机构", "总部", "临江市", "地点"),
    ],
    "d2": [
        ("海鹰号航空母舰", "武器装备", "舰级", "海鹰级航空母舰", "武器装备"),
        ("海鹰号航空母舰", "武器装备", "服役时间", "2010年5月1日", "时间"),
        ("海鹰号航空母舰", "武器装备", "舷号", "H01", "编号"),
        ("海鹰号航空母舰", "武器装备", "搭载", "第5中队", "组织机构"),
        ("第5中队", "组织机构", "装备", "雷霆-9", "武器装备"),
        ("东海对峙事件", "事件", "结束时间", "2015年6月3日", "时间"),
        ("东海对峙事件", "事件", "涉事舰艇", "海鹰号航空母舰", "武器装备"),
        ("东海对峙事件", "事件", "开始时间", "2015年6月2日", "时间"),
        ("东海对峙事件", "事件", "发生地点", "东海", "地点"),
        ("张海", "人物", "职务", "舰长", "职务"),
        ("张海", "人物", "隶属于", "海鹰号航空母舰", "武器装备"),
    ],
}


def write_corpus(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "document.json").write_text(json.dumps(DOCS, ensure_ascii=False), encoding="utf-8")
    for doc_id, rows in KGS.items():
        triples = [
            {"triple_id": f"t{i}", "sub": s, "sub_type": st, "relation": r, "obj": o, "obj_type": ot}
            for i, (s, st, r, o, ot) in enumerate(rows, start=1)
        ]
        (root / f"KG_{doc_id}.json").write_text(json.dumps(triples, ensure_ascii=False), encoding="utf-8")
    questions = [{"query_id": "q1", "doc_id": "d1", "question": "雷霆-9由谁研制？", "difficulty": "L1"}]
    (root / "qa.json").write_text(json.dumps(questions, ensure_ascii=False), encoding="utf-8")
    return root
