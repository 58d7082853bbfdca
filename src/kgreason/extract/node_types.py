"""Node types (`sub_type`, `obj_type`) from the task's closed list.

The program types what it can read: dates `时间` and quantities `数值` (the reasoner's parsers), objects of alias
relations `名称`, of `舷号`/`编号` `编号`, of `军衔`/`职务` themselves, countries, and names ending in a telling head
noun (`…公司` 组织机构, `…号`/`…导弹` 武器装备, `…战争`/`…演习` 作战行动) or that are designations (`F-35`,
`MQ-9B`: 武器装备). The rest go to the LLM in one call
per document: an array of `enum`s over the list, one per name in the order given (about three generated tokens a
name). Without an answer a name gets `实体`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kgreason.extract.canonical import ALIAS_RELATIONS
from kgreason.extract.countries import COUNTRIES
from kgreason.extract.prompt import ENTITY_TYPES, SYSTEM
from kgreason.extract.values import value_type
from kgreason.llm.types import LLM, ChatMessage

UNKNOWN_TYPE = "实体"
_MODEL_DESIGNATION = re.compile(r"^[A-Z]{1,4}-\d{1,4}[A-Z]{0,2}$")
MAX_NAMES_PER_CALL = 40

_OBJECT_TYPE_BY_RELATION = {
    **{r: "名称" for r in ALIAS_RELATIONS},
    "舷号": "编号", "编号": "编号", "军衔": "军衔", "职务": "职务", "国籍": "国家", "研制国家": "国家",
    "所属国家": "国家", "类型": "类别", "类别": "类别",
}  # fmt: skip
_SUFFIX_TYPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("组织机构", ("公司", "集团", "司令部", "舰队", "空军", "海军", "陆军", "陆战队", "自卫队", "国防部", "部队",
              "研究所", "大学", "委员会", "政府", "联盟", "组织", "局", "部", "旅", "师", "团", "中队", "大队")),
    ("作战行动", ("战争", "战役", "海战", "演习", "行动", "冲突", "空袭", "袭击", "实战", "演练")),
    ("武器装备", ("号", "舰", "艇", "导弹", "战斗机", "轰炸机", "飞机", "直升机", "验证机", "原型机", "机", "炮",
              "坦克", "雷达", "发动机", "系统", "鱼雷", "火箭", "无人机", "装甲车", "型")),
    ("项目", ("项目", "计划")),
)  # fmt: skip


def rule_type(name: str) -> str | None:
    """The type the program can tell from the name alone, or None."""
    if (v := value_type(name)) is not None:
        return v
    if name in COUNTRIES:
        return "国家"
    if _MODEL_DESIGNATION.match(name):  # F-35, X-35, MQ-9B, F-35I: designations of weapons in these texts
        return "武器装备"
    for type_, suffixes in _SUFFIX_TYPES:
        if name.endswith(suffixes):
            return type_
    return None


def object_type_by_relation(relation: str) -> str | None:
    return _OBJECT_TYPE_BY_RELATION.get(relation)


def _schema(n: int) -> dict[str, Any]:
    item = {"type": "string", "enum": list(ENTITY_TYPES)}
    return {
        "type": "object",
        "properties": {"types": {"type": "array", "items": item, "minItems": n, "maxItems": n}},
        "required": ["types"],
        "additionalProperties": False,
    }


def _messages(title: str, names: list[str]) -> list[ChatMessage]:
    listed = "\n".join(f"{i + 1}. {n}" for i, n in enumerate(names))
    user = (
        f"文档：{title}\n给下列每个名称选一个类型，按顺序输出types数组（{len(names)}个）。\n"
        f"类型可选：{'、'.join(ENTITY_TYPES)}\n名称：\n{listed}"
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]


def llm_types(llm: LLM | None, title: str, names: Iterable[str]) -> tuple[dict[str, str], int]:
    """Types the LLM picks for `names` (in calls of at most MAX_NAMES_PER_CALL), and how many calls failed."""
    todo = list(dict.fromkeys(names))
    out: dict[str, str] = {}
    failed = 0
    if llm is None:
        return out, failed
    for k in range(0, len(todo), MAX_NAMES_PER_CALL):
        chunk = todo[k : k + MAX_NAMES_PER_CALL]
        result = llm.complete_json(_messages(title, chunk), _schema(len(chunk)), max_tokens=8 * len(chunk) + 16)
        if not result.ok:
            failed += 1
            continue
        out.update(zip(chunk, result.value["types"], strict=True))
    return out, failed
