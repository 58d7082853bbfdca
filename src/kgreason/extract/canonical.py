"""One name per thing within a document: aliases, short forms and pronouns to the full name the document uses.

Rules, applied in this order to every subject and object (explained in docs/extract.md):
1. Pronoun as a name (`该舰`, `它`, `it`): the subject of the nearest earlier triple whose subject is not a pronoun
   (the text's topic continues); dropped when there is none.
2. Declared aliases: a triple `X 简称/别名/又称/绰号/代号/英文名称 Y` makes Y stand for X in every *other* triple
   (the alias triple itself stays, its object untouched: the task's KGs keep them).
3. Short forms: a name N is replaced by the only longer name of the document that starts with N and continues
   with a generic head noun (`捍卫者号` → `捍卫者号驱逐舰`, `洛克希德·马丁` → `洛克希德·马丁公司`). `F-35` stays
   apart from `F-35A`: `A` is not a head noun.
Values (dates, quantities) are never rewritten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kgreason.extract.countries import COUNTRIES
from kgreason.extract.grounding import PRONOUNS, Grounded, Mention
from kgreason.extract.values import value_type

ALIAS_RELATIONS = frozenset({"简称", "别名", "又称", "绰号", "代号", "英文名称", "英文名", "也称", "俗称", "昵称"})
HEAD_NOUNS: tuple[str, ...] = (
    "航空母舰", "驱逐舰", "护卫舰", "巡洋舰", "两栖攻击舰", "补给舰", "潜艇", "战斗机", "轰炸机", "直升机",
    "导弹", "公司", "集团", "舰", "艇", "号", "战役", "演习", "行动", "部队", "项目", "系统",
)  # fmt: skip
MIN_REST_CHARS = 2
_ENGLISH_PRONOUN_NAMES = frozenset({"it", "its", "they", "their", "he", "she", "his", "her"})


def is_pronoun(name: str) -> bool:
    return name in PRONOUNS or name.lower() in _ENGLISH_PRONOUN_NAMES


@dataclass(frozen=True, slots=True)
class Renaming:
    """What canonicalisation changed, for the provenance file and the benchmark."""

    original: str
    name: str
    rule: str  # "alias" | "country_prefix" | "short_form"


def _resolve_pronouns(triples: Sequence[Grounded]) -> list[Grounded]:
    out: list[Grounded] = []
    topic: str | None = None
    for g in triples:
        sub, obj = g.sub, g.obj
        if is_pronoun(sub.name):
            if topic is None:
                continue
            sub = replace(sub, name=topic, how="pronoun")
        if is_pronoun(obj.name):
            if topic is None or topic == sub.name:
                continue
            obj = replace(obj, name=topic, how="pronoun")
        topic = sub.name
        out.append(replace(g, sub=sub, obj=obj))
    return out


def _short_form_map(names: set[str]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for short in names:
        if len(short) < 2 or value_type(short) is not None:
            continue
        longer = [n for n in names if n != short and n.startswith(short) and n[len(short) :] in HEAD_NOUNS]
        if len(longer) == 1:
            mapping[short] = longer[0]
    return mapping


def _country_prefix_map(names: set[str], text: str) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for name in names:
        country = next((c for c in COUNTRIES if name.startswith(c)), None)
        if country is None or value_type(name) is not None:
            continue
        rest = name[len(country) :]
        if len(rest) >= MIN_REST_CHARS and text.count(rest) > text.count(name):  # written alone somewhere
            mapping[name] = rest
    return mapping


def _alias_map(triples: Sequence[Grounded]) -> dict[str, str]:
    mapping: dict[str, str] = {}
    for g in triples:
        if g.relation in ALIAS_RELATIONS and g.obj.name != g.sub.name:
            mapping.setdefault(g.obj.name, g.sub.name)
    return mapping


def canonicalise(triples: Sequence[Grounded], text: str = "") -> tuple[list[Grounded], list[Renaming]]:
    """The triples with canonical names (rules in the module docstring) and the renamings made; `text` is the
    document's (for rule 4)."""
    resolved = _resolve_pronouns(triples)
    aliases = _alias_map(resolved)
    names = {n for g in resolved for n in (g.sub.name, g.obj.name)}
    short = _short_form_map(names)
    countries = _country_prefix_map(names, text)
    renamings: dict[tuple[str, str], Renaming] = {}

    def rename(m: Mention, *, keep_alias: bool) -> Mention:
        name = m.name
        if keep_alias:
            return m
        if name in aliases:
            renamings[(name, "alias")] = Renaming(name, aliases[name], "alias")
            name = aliases[name]
        if name in countries:
            renamings[(name, "country_prefix")] = Renaming(name, countries[name], "country_prefix")
            name = countries[name]
        if name in short:
            renamings[(name, "short_form")] = Renaming(name, short[name], "short_form")
            name = short[name]
        return m if name == m.name else replace(m, name=name)

    out: list[Grounded] = []
    for g in resolved:
        is_alias = g.relation in ALIAS_RELATIONS
        sub = rename(g.sub, keep_alias=False)
        obj = rename(g.obj, keep_alias=is_alias)
        if sub.name != obj.name:
            out.append(replace(g, sub=sub, obj=obj))
    return out, list(renamings.values())
