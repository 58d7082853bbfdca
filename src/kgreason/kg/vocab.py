"""Relation vocabularies the KG index and the value checks share.

These are general Chinese relation names of extracted KGs (aliases, period boundaries), not words of any particular
dataset. Matching is on normalised relation names (`kgreason.text.normalize.normalize_text`).
"""

from __future__ import annotations

from functools import lru_cache

from kgreason.text.normalize import normalize_text

# Relations whose two ends name the same thing (`["歼-20", "别名", "威龙"]`); usable in both directions.
ALIAS_RELATIONS: frozenset[str] = frozenset(
    {
        "别名",
        "别称",
        "简称",
        "又称",
        "又名",
        "亦称",
        "俗称",
        "通称",
        "代号",
        "绰号",
        "昵称",
        "外号",
        "全称",
        "英文名",
        "英文名称",
        "英文全称",
        "英文简称",
        "中文名",
        "中文名称",
        "原名",
        "曾用名",
        "旧称",
        "型号代号",
        "北约代号",
        "北约代号名称",
        "译名",
        "同义",
        "等同于",
    }
)

# Relations that give when a period (a war, a campaign, an era) starts / ends.
PERIOD_START_RELATIONS: frozenset[str] = frozenset(
    {
        "开始时间",
        "开始日期",
        "开始于",
        "起始时间",
        "起始日期",
        "起始",
        "始于",
        "开始",
        "爆发时间",
        "爆发日期",
        "开战时间",
        "发起时间",
        "发动时间",
        "起止时间开始",
    }
)
PERIOD_END_RELATIONS: frozenset[str] = frozenset(
    {
        "结束时间",
        "结束日期",
        "结束于",
        "结束",
        "终止时间",
        "终止日期",
        "终结时间",
        "截止时间",
        "停战时间",
        "止于",
        "完结时间",
    }
)
# Relations whose value may be a whole span (`1939年9月1日至1945年9月2日`), which then bounds the period too.
PERIOD_SPAN_RELATIONS: frozenset[str] = frozenset(
    {"时间", "持续时间", "时期", "起止时间", "时间范围", "发生时间", "历时", "存续时间", "期间"}
)

_ALIAS_NORM = frozenset(normalize_text(r) for r in ALIAS_RELATIONS)
_START_NORM = frozenset(normalize_text(r) for r in PERIOD_START_RELATIONS)
_END_NORM = frozenset(normalize_text(r) for r in PERIOD_END_RELATIONS)
_SPAN_NORM = frozenset(normalize_text(r) for r in PERIOD_SPAN_RELATIONS)


@lru_cache(maxsize=8192)
def is_alias_relation(relation: str) -> bool:
    """An alias word, or a relation ending in one of two characters or more (`中文音译名` is a `译名`, `行动代号` a
    `代号`)."""
    rel = normalize_text(relation)
    return rel in _ALIAS_NORM or any(len(a) >= 2 and rel.endswith(a) for a in _ALIAS_NORM)


def is_period_start_relation(relation: str) -> bool:
    """`开始时间` and synonyms; also unseen names such as `战争开始时间` (contains 开始/起始/爆发 and 时间/日期)."""
    r = normalize_text(relation)
    if r in _START_NORM:
        return True
    return any(k in r for k in ("开始", "起始", "爆发", "开战")) and any(k in r for k in ("时间", "日期"))


def is_period_end_relation(relation: str) -> bool:
    r = normalize_text(relation)
    if r in _END_NORM:
        return True
    return any(k in r for k in ("结束", "终止", "终结", "停战")) and any(k in r for k in ("时间", "日期"))


def is_period_span_relation(relation: str) -> bool:
    return normalize_text(relation) in _SPAN_NORM
