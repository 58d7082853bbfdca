"""One name per thing within a document: aliases, short forms and pronouns to the full name the document uses.

Rules, applied in this order to every subject and object (explained in docs/extract.md):
1. Pronoun as a name (`该舰`, `它`, `it`, a demonstrative and its noun: `该系统`, `本届演习`): the subject of the
   nearest earlier triple whose subject is not a pronoun (the text's topic continues); dropped when there is none.
   A sentence opening with a pronoun as its subject is about that earlier topic too: a triple of it whose subject the
   clause holding its object does not name gets the topic (`该舰舷号R08，是X级航空母舰的首舰` is not X's).
2. Relative clauses: a name `M的H` whose head H ends with a head noun or holds a Latin letter or digit becomes H
   (`普惠公司研制的F135涡扇发动机` → `F135涡扇发动机`; `撤销对中国海军的邀请` stays, an event); when M is a name of the
   document and a short verb, `(name, verb, H)` is added (`普惠公司|研制|F135涡扇发动机`).
3. Declared aliases: a triple `X 简称/别名/又称/绰号/代号/英文名称 Y` makes Y stand for X in every *other* triple
   (the alias triple itself stays, its object untouched: the task's KGs keep them).
4. Short forms: a name N is replaced by the only longer name of the document that starts with N and continues
   with a generic head noun (`捍卫者号` → `捍卫者号驱逐舰`, `洛克希德·马丁` → `洛克希德·马丁公司`), or whose last
   part after `·` is N (a surname: `弗莱彻` → `弗兰克·杰克·弗莱彻`). `F-35` stays apart from `F-35A`: `A` is not a
   head noun.
5. Country prefixes: `美国洛克希德·马丁公司` → `洛克希德·马丁公司` when the text writes the rest on its own too
   (`_country_prefix_map`); `美国空军` stays whole.
6. Relations lose a leading subject name or pronoun the model copied from the sentence (`该炮口径` → `口径`,
   `F-35A的首飞时间` → `首飞时间`, `its length` → `length`): the relation is what the KG's other triples and the
   questions name.
7. A relation ending in another relation of the document or of the prompt's examples, at least half its length,
   becomes that one (`内油作战半径` → `作战半径`, `中文别名` → `别名`): a Chinese compound's head is its end, and one
   name per relation lets the document's triples (and a question's path) meet.
8. Shifted slots (`without_shifted_slots`, after the rest): a triple whose relation is a subject of the document or
   its own object (`以色列空军|F-35I|F-35A`), or whose object is a relation of the document (`企业号|航空母舰|下辖`),
   is dropped: the model wrote a name where the relation goes.
Values (dates, quantities) are never rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from kgreason.extract.countries import COUNTRIES
from kgreason.extract.grounding import DEMONSTRATIVES, PRONOUNS, Grounded, Mention, pronoun_in
from kgreason.extract.prompt import RELATION_EXAMPLES
from kgreason.extract.values import value_type
from kgreason.text.names import surname

ALIAS_RELATIONS = frozenset({"简称", "别名", "又称", "绰号", "代号", "英文名称", "英文名", "也称", "俗称", "昵称"})
HEAD_NOUNS: tuple[str, ...] = (
    "航空母舰", "驱逐舰", "护卫舰", "巡洋舰", "两栖攻击舰", "补给舰", "潜艇", "战斗机", "轰炸机", "直升机",
    "导弹", "公司", "集团", "舰", "艇", "号", "战役", "演习", "行动", "部队", "项目", "系统",
)  # fmt: skip
MIN_REST_CHARS = 2
CLAUSE_BREAKS = re.compile(r"[，,；;：:。\n]")
SETTING_ENDS = ("中", "时", "期间", "后", "前")  # `此次部署中，…`: a first clause that sets the scene, not a subject
# a clause naming this much of a subject has that subject (`美国洛克希德·马丁公司` written `洛克希德·马丁公司`)
MIN_SHARED_NAME_CHARS = 4
RELATIVE_MARK = "的"  # `M的H`: M modifies the name H
MAX_RELATIVE_VERB_CHARS = 3  # `研制`, `设计`, `征用`: what is left of a modifier after its actor's name
MIN_RELATION_CHARS = 2  # what must remain of a relation after its prefix is dropped
# Pronouns that may head a relation the model wrote with the sentence's words (`该炮口径`): the multi-character ones
# (a lone `其` or `它` also starts ordinary words: `其他型号`).
_RELATION_PRONOUNS: tuple[str, ...] = (*(p for p in PRONOUNS if len(p) >= 2), "它的", "其的")
_RELATION_LINK = "的"
_ENGLISH_RELATION_PRONOUNS = ("its ", "their ", "his ", "her ")
_ENGLISH_PRONOUN_NAMES = frozenset({"it", "its", "they", "their", "he", "she", "his", "her"})
MAX_DEMONSTRATIVE_NAME_CHARS = 5  # `该型导弹`, `本届演习`: a demonstrative and a short noun, not a name that starts so


def is_pronoun(name: str) -> bool:
    """A pronoun, or a demonstrative with its noun standing as a whole name (`该系统`, `本届演习`, `此次行动`)."""
    return (
        name in PRONOUNS
        or name.lower() in _ENGLISH_PRONOUN_NAMES
        or (DEMONSTRATIVES.match(name) is not None and len(name) <= MAX_DEMONSTRATIVE_NAME_CHARS)
    )


@dataclass(frozen=True, slots=True)
class Renaming:
    """What canonicalisation changed, for the provenance file and the benchmark."""

    original: str
    name: str
    rule: str  # "relative_clause" | "alias" | "country_prefix" | "short_form"


def relation_proper(relation: str, subject: str) -> str:
    """Rule 6: `relation` without a leading subject name or pronoun (and the `的` after it); unchanged when less
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
    """Rule 7: relation → the longest other relation (of `relations` or `vocabulary`) it ends with, if that one has
    at least MIN_RELATION_CHARS characters and half the relation's length."""
    used = set(relations)
    known = used | set(vocabulary)
    mapping: dict[str, str] = {}
    for r in used:
        heads = [h for h in known if h != r and r.endswith(h) and len(h) >= MIN_RELATION_CHARS and 2 * len(h) >= len(r)]
        if heads:
            mapping[r] = max(heads, key=len)
    return mapping


def _opens_with_a_bare_pronoun(sentence: str) -> tuple[int, int] | None:
    """The span of the pronoun the sentence opens with when it is the subject of the sentence's first clause
    (`该舰舷号R08，…`), not a possessive (`这次演练的靶船是…`) or a setting (`此次部署中，…`); else None."""
    opening = pronoun_in(sentence)
    if opening is None or opening[0] != 0:
        return None
    first = CLAUSE_BREAKS.split(sentence, maxsplit=1)[0]
    if RELATIVE_MARK in first or first.endswith(SETTING_ENDS):
        return None
    return opening


def _stated_before_object(name: str, g: Grounded) -> bool:
    """Whether the clause holding the triple's object writes (a part of at least 4 characters of) `name` before
    the object: then that clause has a subject of its own."""
    text = g.sentence.text
    start = max((m.end() for m in CLAUSE_BREAKS.finditer(text, 0, g.obj.start)), default=0)
    before = text[start : g.obj.start]
    width = min(len(name), MIN_SHARED_NAME_CHARS)
    return any(name[i : i + width] in before for i in range(len(name) - width + 1))


def _resolve_pronouns(triples: Sequence[Grounded]) -> list[Grounded]:
    out: list[Grounded] = []
    topic: str | None = None
    sentence, before = -1, None  # the sentence being read, and the topic before it
    opening: tuple[int, int] | None = None  # the pronoun the sentence opens with, as its subject
    for g in triples:
        sub, obj = g.sub, g.obj
        if g.sentence.index != sentence:
            sentence, before = g.sentence.index, topic
            opening = _opens_with_a_bare_pronoun(g.sentence.text)
        if (
            before is not None
            and opening is not None
            and sub.name != before
            and not is_pronoun(sub.name)
            and not _stated_before_object(sub.name, g)
        ):  # `该舰舷号R08，是X级航空母舰的首舰，于…服役`: the sentence is about the earlier topic, not about X
            sub = Mention(before, opening[0], opening[1], "pronoun")
        elif is_pronoun(sub.name):
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
        longer = [
            n
            for n in names
            if n != short and ((n.startswith(short) and n[len(short) :] in HEAD_NOUNS) or surname(n) == short)
        ]
        if len(longer) == 1:
            mapping[short] = longer[0]
    return mapping


def _after_a_country(text: str, start: int) -> bool:
    return any(text.endswith(c, 0, start) for c in COUNTRIES)


def _country_prefix_map(names: set[str], text: str) -> dict[str, str]:
    """Rule 5: `美国洛克希德·马丁公司` → `洛克希德·马丁公司` when the text also writes the rest on its own: not right
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


def without_shifted_slots(triples: Sequence[Grounded]) -> list[Grounded]:
    """Rule 8: the triples without those whose slots the model shifted: a relation that is a subject of the
    document or the triple's own object (`以色列空军|F-35I|F-35A`, `情报部门|情报部门`), or an object that is a
    relation of the document and no value (`企业号|航空母舰|下辖`)."""
    subjects = {g.sub.name for g in triples}
    relations = {g.relation for g in triples}

    def shifted(g: Grounded) -> bool:
        if g.relation in subjects or g.relation == g.obj.name:
            return True
        return g.obj.name in relations and value_type(g.obj.name) is None

    return [g for g in triples if not shifted(g)]


def _relative_head(name: str) -> tuple[str, str] | None:
    """(modifier, head) of a name `M的H` whose head is a name of its own: it ends with a head noun or holds a Latin
    letter or digit (`普惠公司研制的F135涡扇发动机`); None for anything else (`撤销对中国海军的邀请` is an event)."""
    modifier, sep, head = name.rpartition(RELATIVE_MARK)
    if not sep or not modifier or len(head) < MIN_REST_CHARS or head in HEAD_NOUNS or value_type(name) is not None:
        return None
    if head.endswith(HEAD_NOUNS) or re.search(r"[A-Za-z0-9]", head):
        return modifier, head
    return None


def _relative_clauses(triples: Sequence[Grounded]) -> tuple[list[Grounded], list[Renaming]]:
    """Rule 2: names `M的H` become H; when M is a name of the document and a verb (`普惠公司研制`), the triple
    `(name, verb, H)` says what the modifier said."""
    names = {n for g in triples for n in (g.sub.name, g.obj.name)}
    heads = {n: found for n in names if (found := _relative_head(n)) is not None}
    if not heads:
        return list(triples), []
    out: list[Grounded] = []
    stated: set[tuple[str, str, str]] = set()
    for g in triples:
        sub, obj = g.sub, g.obj
        for m in (g.sub, g.obj):
            if m.name not in heads:
                continue
            modifier, head = heads[m.name]
            actor = max((n for n in names if modifier.startswith(n) and n != modifier), key=len, default="")
            verb = modifier[len(actor) :]
            if actor and 0 < len(verb) <= MAX_RELATIVE_VERB_CHARS and (actor, verb, head) not in stated:
                stated.add((actor, verb, head))
                out.append(replace(g, sub=replace(m, name=actor), relation=verb, obj=replace(m, name=head)))
        sub = replace(sub, name=heads[sub.name][1]) if sub.name in heads else sub
        obj = replace(obj, name=heads[obj.name][1]) if obj.name in heads else obj
        out.append(replace(g, sub=sub, obj=obj))
    return out, [Renaming(n, h, "relative_clause") for n, (_, h) in heads.items()]


def canonicalise(triples: Sequence[Grounded], text: str = "") -> tuple[list[Grounded], list[Renaming]]:
    """The triples with canonical names (rules in the module docstring) and the renamings made; `text` is the
    document's (for rule 5)."""
    resolved, relative = _relative_clauses(_resolve_pronouns(triples))
    aliases = _alias_map(resolved)
    names = {n for g in resolved for n in (g.sub.name, g.obj.name)}
    short = _short_form_map(names)
    countries = _country_prefix_map(names, text)
    renamings: dict[tuple[str, str], Renaming] = {(r.original, r.rule): r for r in relative}

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
