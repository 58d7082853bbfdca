"""One name per thing within a document: aliases, short forms and pronouns to the full name the document uses.

Rules, applied in this order to every subject and object (explained in docs/extract.md):
1. Pronoun as a name (`该舰`, `它`, `it`): the subject of the nearest earlier triple whose subject is not a pronoun
   (the text's topic continues); dropped when there is none.
2. Declared aliases: a triple `X 简称/别名/又称/绰号/代号/英文名称 Y` makes Y stand for X in every *other* triple
   (the alias triple itself stays, its object untouched: the task's KGs keep them).
3. Short forms: a name N is replaced by the only longer name of the document that starts with N and continues
   with a generic head noun (`捍卫者号` → `捍卫者号驱逐舰`, `洛克希德·马丁` → `洛克希德·马丁公司`). `F-35` stays
   apart from `F-35A`: `A` is not a head noun.
4. Country prefixes: `美国洛克希德·马丁公司` → `洛克希德·马丁公司` when the text writes the rest on its own too
   (`_country_prefix_map`); `美国空军` stays whole.
5. Relations lose a leading subject name or pronoun the model copied from the sentence (`该炮口径` → `口径`,
   `F-35A的首飞时间` → `首飞时间`, `its length` → `length`): the relation is what the KG's other triples and the
   questions name.
6. A relation ending in another relation of the document or of the prompt's examples, at least half its length,
   becomes that one (`内油作战半径` → `作战半径`, `中文别名` → `别名`): a Chinese compound's head is its end, and one
   name per relation lets the document's triples (and a question's path) meet.
Values (dates, quantities) are never rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from kgreason.extract.countries import COUNTRIES
from kgreason.extract.grounding import PRONOUNS, Grounded, Mention
from kgreason.extract.prompt import RELATION_EXAMPLES
from kgreason.extract.values import value_type

ALIAS_RELATIONS = frozenset({"简称", "别名", "又称", "绰号", "代号", "英文名称", "英文名", "也称", "俗称", "昵称"})
HEAD_NOUNS: tuple[str, ...] = (
    "航空母舰", "驱逐舰", "护卫舰", "巡洋舰", "两栖攻击舰", "补给舰", "潜艇", "战斗机", "轰炸机", "直升机",
    "导弹", "公司", "集团", "舰", "艇", "号", "战役", "演习", "行动", "部队", "项目", "系统",
)  # fmt: skip
MIN_REST_CHARS = 2
MIN_RELATION_CHARS = 2  # what must remain of a relation after its prefix is dropped
# Pronouns that may head a relation the model wrote with the sentence's words (`该炮口径`): the multi-character ones
# (a lone `其` or `它` also starts ordinary words: `其他型号`).
_RELATION_PRONOUNS: tuple[str, ...] = (*(p for p in PRONOUNS if len(p) >= 2), "它的", "其的")
_RELATION_LINK = "的"
_ENGLISH_RELATION_PRONOUNS = ("its ", "their ", "his ", "her ")
_ENGLISH_PRONOUN_NAMES = frozenset({"it", "its", "they", "their", "he", "she", "his", "her"})


def is_pronoun(name: str) -> bool:
    return name in PRONOUNS or name.lower() in _ENGLISH_PRONOUN_NAMES


@dataclass(frozen=True, slots=True)
class Renaming:
    """What canonicalisation changed, for the provenance file and the benchmark."""

    original: str
    name: str
    rule: str  # "alias" | "country_prefix" | "short_form"


def relation_proper(relation: str, subject: str) -> str:
    """Rule 5: `relation` without a leading subject name or pronoun (and the `的` after it); unchanged when less
    than MIN_RELATION_CHARS would remain."""
    prefixes = (subject, *_RELATION_PRONOUNS, *_ENGLISH_RELATION_PRONOUNS) if subject else _RELATION_PRONOUNS
    for prefix in prefixes:
        if relation.lower().startswith(prefix.lower()):
            rest = relation[len(prefix) :].strip()
            rest = rest[len(_RELATION_LINK) :] if rest.startswith(_RELATION_LINK) else rest
            if len(rest) >= MIN_RELATION_CHARS:
                return rest
    return relation


def relation_heads(relations: Iterable[str], vocabulary: Iterable[str] = RELATION_EXAMPLES) -> dict[str, str]:
    """Rule 6: relation → the longest other relation (of `relations` or `vocabulary`) it ends with, if that one has
    at least MIN_RELATION_CHARS characters and half the relation's length."""
    used = set(relations)
    known = used | set(vocabulary)
    mapping: dict[str, str] = {}
    for r in used:
        heads = [h for h in known if h != r and r.endswith(h) and len(h) >= MIN_RELATION_CHARS and 2 * len(h) >= len(r)]
        if heads:
            mapping[r] = max(heads, key=len)
    return mapping


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


def _after_a_country(text: str, start: int) -> bool:
    return any(text.endswith(c, 0, start) for c in COUNTRIES)


def _country_prefix_map(names: set[str], text: str) -> dict[str, str]:
    """Rule 4: `美国洛克希德·马丁公司` → `洛克希德·马丁公司` when the text also writes the rest on its own: not right
    after a country name, and either at the start of a clause or as a name of the document's triples. Substring
    counts are not enough: `空军` is written without `美国` inside `澳大利亚皇家空军`, yet a text naming `美国空军`
    and `以色列空军` has no thing called `空军`."""
    mapping: dict[str, str] = {}
    for name in names:
        country = max((c for c in COUNTRIES if name.startswith(c)), key=len, default=None)
        if country is None or value_type(name) is not None:
            continue
        rest = name[len(country) :]
        if len(rest) < MIN_REST_CHARS:
            continue
        for m in re.finditer(re.escape(rest), text):
            at_clause_start = m.start() == 0 or not text[m.start() - 1].isalnum()
            if not _after_a_country(text, m.start()) and (at_clause_start or rest in names):
                mapping[name] = rest
                break
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
            out.append(replace(g, sub=sub, relation=relation_proper(g.relation, g.sub.name), obj=obj))
    heads = relation_heads(g.relation for g in out)
    return [replace(g, relation=heads.get(g.relation, g.relation)) for g in out], list(renamings.values())
