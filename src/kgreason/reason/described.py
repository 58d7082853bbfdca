"""Describe, then ask: `马岛战争中用鱼雷击沉阿根廷巡洋舰的那艘核潜艇，是哪个国家的？`, `PrSM要替换掉的那种导弹，
一个发射箱能装几枚？`, `与歼-20同属第五代战斗机、由俄罗斯研制的那一型，其原型机是哪天首飞的？`.

A clause ending in `…的那(一)X` (a demonstrative, a measure word, an optional noun) and then a comma, or the verb
that begins the rest (`…的那款验证机是哪家公司研制的`), describes one thing the question does not name; the rest asks
about it. The clause is answered as a question
of its own (`…的是哪一艘核潜艇`); when that picks exactly one thing, the rest is asked of it by name (`征服者号是哪个
国家的`, a leading pronoun `其` / `它` replaced by the name). The evidence is the description's path followed by the
rest's. Of the description's close readings, the one the whole question's best chain passes through is taken
(`把“莫斯科”号打沉的那种导弹…`: the missile of the sinking, not one the ship carried). Nothing comes of it — and the
question goes to the other builders — when the description picks no single thing or the rest has no answer. A
comparison clause (`…较早的那一艘`) is select-then-ask's (`reason/select.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from kgreason.kg.index import KGIndex
from kgreason.reason.analysis import Analysis, residual_words
from kgreason.reason.candidate import Candidate, dedupe
from kgreason.reason.checks import Check
from kgreason.reason.kinds import is_category
from kgreason.reason.lexicon import (
    AMONG_WORDS,
    COORDINATORS,
    DEMONSTRATIVES,
    DESCRIBED_REST_STARTS,
    DESCRIBED_REST_VERBS,
    EXCLUDE_FRAMES,
    INTERROGATIVES,
    MEASURE_WORDS,
    NOT_A_THING_ENDINGS,
    NUMBER_QUESTION_PATTERNS,
    RESTART_PRONOUNS,
)
from kgreason.reason.select import ASKS_ITS_NAME
from kgreason.text.normalize import normalize_text

_REST_START = "|".join((*DESCRIBED_REST_STARTS, *DESCRIBED_REST_VERBS))
# the clause, `的`, a demonstrative (not `那些`), a measure word, the kind, then the rest after a comma or at its verb
_AMONG = "|".join(AMONG_WORDS)
_DESCRIBED = re.compile(
    # (the clause may open with the group it is picked from: `X的三个集团军里，负责南翼的那个集团军…`)
    rf"^(?P<head>(?:[^，,。；;？?]+(?:{_AMONG})[，,])?[^，,。；;？?]{{2,}}?)的[{DEMONSTRATIVES}](?!些)一?(?P<measure>[{MEASURE_WORDS}])?"
    rf"(?P<noun>[^，,。；;？?的]{{0,16}}?)(?:[，,]\s*|(?=(?:{_REST_START})))(?P<rest>[^，,。；;]+)$"
)
# or a noun phrase `…的Y`, a comma, and a rest that goes on about it (`RIMPAC的东道主舰队，司令部驻哪儿？`)
_CONTINUED = re.compile(
    r"^(?P<head>[^，,。；;？?]{2,}?的(?P<noun>[^，,。；;？?的]{1,8}))[，,]\s*(?P<rest>[^，,。；;]+)$"
)
# or the demonstrative first: `那艘以X命名的巡洋舰，后来被改成了什么名字`
_DEMONSTRATIVE_FIRST = re.compile(
    rf"^[{DEMONSTRATIVES}]一?(?P<measure>[{MEASURE_WORDS}])(?P<head>[^，,。；;？?]{{2,}}?)的"
    r"(?P<noun>[^，,。；;？?的]{1,8})[，,]\s*(?P<rest>[^，,。；;]+)$"
)
_ASKING = re.compile("|".join([*sorted(INTERROGATIVES, key=len, reverse=True), *NUMBER_QUESTION_PATTERNS]))
# what a pronoun opening the rest stands for, by how it is used: `其原型机` (its), `它是…` (it)
_POSSESSIVE_PRONOUNS = ("其",)
DESCRIPTIONS_LOOKED_AT = 1  # the description's best answer only: a second reading would be a guess
AGREED_LOOKED_AT = 3  # … unless one of its first readings is what the whole question's best chain passes through
AGREED_MARGIN = 0.8  # … and scores this close to the best


@dataclass(frozen=True, slots=True)
class Described:
    description: str  # the clause as a question of its own (`…的是哪一艘核潜艇`)
    rest: str  # the question about the described thing, verbatim, its leading pronoun removed (`是哪个国家的`)
    noun: str  # the kind the clause names, verbatim (`核潜艇`), "" when none
    joint: str  # what joins the thing's name to the rest: `的` (`其原型机`, `司令部驻哪儿`) or nothing (`是…`)
    named: str = ""  # the node a name ending the kind links (`那门GAU-22/A机炮`): maybe the thing itself


def find_described(analysis: Analysis) -> Described | None:
    """The description clause and the rest of `analysis`'s question, or None when it has no such shape."""
    if analysis.form in ("bool", "choice"):
        return None
    question = analysis.question
    m = _DESCRIBED.match(question)
    first = _DEMONSTRATIVE_FIRST.match(question) if m is None else None
    if first is not None:
        return _demonstrative_first(first)
    continued = _CONTINUED.match(question) if m is None else None
    if continued is not None and not _name_then_noun(analysis, continued.group("head"), continued.group("noun")):
        return None
    found = m or continued
    if found is None or found.group("noun").endswith(AMONG_WORDS):
        return None  # `…的这些国家里面，…` / `…的那几艘舰中，…`: a group to pick from, not one thing
    head, rest = found.group("head"), found.group("rest").strip()
    if any(c in head for c in "，,") and any(opener in head for opener, _ in EXCLUDE_FRAMES):
        # `…演练里，除了X发射的那型导弹之外，还…`: after a group, the thing described is left out of it (a frame
        # the negation builders read), not asked about
        return None
    if _ASKING.search(head) or not _ASKING.search(rest):
        return None  # the clause asks something itself, or the rest asks nothing
    if ASKS_ITS_NAME.fullmatch(normalize_text(rest)):
        return None  # `…的那艘驱逐舰是哪一艘`: the described thing itself is asked, one question
    if all(w in DESCRIBED_REST_STARTS for w in residual_words(normalize_text(rest)).split("|") if w):
        return None  # `…的那艘驱逐舰舷号是多少` split at `是`: the words of the rest are in the kind, misread
    pronoun = next((p for p in sorted(RESTART_PRONOUNS, key=len, reverse=True) if rest.startswith(p)), "")
    rest = rest[len(pronoun) :]
    if m is None:  # `X的Y，司令部驻哪儿`: the rest goes on about the Y of X
        joint = "" if rest.startswith(("的", *DESCRIBED_REST_STARTS)) else "的"
        return Described(f"{head}是什么", rest, found.group("noun"), joint)
    # asked with the kind after the question word (`…的是哪一款战斗机`), where the program reads the asked noun
    measure, noun = m.group("measure") or "", m.group("noun")
    asked = f"是哪一{measure}{noun}" if measure else f"是什么{noun}" if noun else "是什么"
    start, end = analysis.mapped.norm_index(m.start("noun")), analysis.mapped.norm_index(m.end("noun"))
    # (a name spelled in full: a piece of one, `验证机` of `X-35验证机`, names nothing by itself)
    named = next(
        (k.key for k in analysis.mentions if start <= k.start and k.end == end and k.how in ("exact", "core")), ""
    )
    joint = "的" if pronoun in _POSSESSIVE_PRONOUNS else ""
    return Described(f"{head}的{asked}", rest, noun, joint, named)


def _demonstrative_first(m: re.Match[str]) -> Described | None:
    """`那艘以X命名的巡洋舰，后来…`: the clause between the demonstrative and the kind describes one thing; the rest
    after the comma asks about it."""
    head, rest, measure, noun = m.group("head"), m.group("rest").strip(), m.group("measure"), m.group("noun")
    if _ASKING.search(head) or not _ASKING.search(rest) or ASKS_ITS_NAME.fullmatch(normalize_text(rest)):
        return None
    pronoun = next((p for p in sorted(RESTART_PRONOUNS, key=len, reverse=True) if rest.startswith(p)), "")
    joint = "的" if pronoun in _POSSESSIVE_PRONOUNS else ""
    return Described(f"{head}的是哪一{measure}{noun}", rest[len(pronoun) :], noun, joint)


def _name_then_noun(analysis: Analysis, head: str, noun: str) -> bool:
    """The clause before the comma is one name the question links, `的` and a noun (`RIMPAC的东道主舰队`): one thing
    to go on about — not a time or a group (`X的时候`, `X的舰艇中`), several things (`A的首舰和B的首舰`) or a clause
    that describes a thing by other words (`向X发射导弹的攻击机`, the chain search's to answer whole)."""
    if noun.endswith(NOT_A_THING_ENDINGS) or any(w in noun for w in COORDINATORS):
        return False
    name = normalize_text(head[: -len(noun) - 1])
    return any(m.start == 0 and analysis.mapped.norm[: m.end] == name for m in analysis.mentions)


def _position(question: str, value: str) -> int:
    at = question.find(value) if value else -1
    return at if at >= 0 else len(question)


def described_candidates(
    index: KGIndex,
    question: str,
    found: Described,
    ask: Callable[[str], list[Candidate]],
    picked_by: Candidate | None = None,
    on_path: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """The answers of the rest asked of the one thing the description picks (`ask(text)` answers a question on the
    same document; `picked_by`, when another builder picked the thing: a negated group's one member), each with the
    description's path before its own; [] when the description picks no single thing."""
    node = index.nodes.get(found.named)
    if picked_by is not None:
        picked = [picked_by]
    elif node is not None and node.kind == "entity" and not is_category(index, found.named):
        # the kind ends on the thing's own name (`…内置的那门GAU-22/A机炮`; not a kind, `那艘055型驱逐舰`): it is the
        # thing, whatever the clause's best reading
        picked = [Candidate((node.name,), (found.named,), "", (), 0.0)]
    else:
        asked = ask(found.description)
        # of the description's close readings, the one the whole question's best chain passes through
        close = [c for c in asked[:AGREED_LOOKED_AT] if c.score >= asked[0].score - AGREED_MARGIN]
        agreed = [c for c in close if len(c.answer_keys) == 1 and c.answer_keys[0] in on_path]
        picked = (agreed or asked)[:DESCRIPTIONS_LOOKED_AT]
    if not picked or len(picked[0].answer_keys) != 1:
        return []
    thing = picked[0]
    # the thing by the name the KG describes it under (its most connected name: `歼-20`, not its code `J-20`)
    key = max(sorted(index.alias_group(thing.answer_keys[0])), key=lambda k: len(index.edges(k)))
    joint = found.joint
    # the description's constraints are the question's: its checks — the one on the kind it names is a type
    # constraint (`那艘055型驱逐舰`) — or else the kind that picked the thing out of others
    own = tuple(
        replace(c, key="type") if c.kind == "entity" and c.key is None and c.value == found.noun else c
        for c in thing.checks
    )
    typed = any(c.key == "type" for c in own)
    kind = (
        (Check("entity", "type", found.noun, True, note="the kind the description names"),)
        if found.noun and not typed and thing.features.get("type_filtered")
        else ()
    )
    out: list[Candidate] = []
    for c in ask(f"{index.name(key)}{joint}{found.rest}"):
        if key in c.answer_keys or thing.answer_keys[0] in c.answer_keys:
            continue  # the rest asked of the thing does not answer with the thing (another name of it may be asked)
        # the annotation's order: the chains of both parts, then what checks them, in the question's order
        checks = sorted((*own, *c.checks, *kind), key=lambda k: _position(question, k.value))
        chained = [t for ch in (*thing.chains, *c.chains) for t in ch.triples]
        checked = [t for k in checks for t in (*k.triples, *k.derived)]
        main = dedupe([*chained, *checked, *thing.main, *c.main])
        out.append(replace(c, main=main, checks=tuple(checks), origin="described", alts=()))
    # nor, surely, with a name the description started from to pick the thing out (`承担S-400设计工作的那家设计局，
    # 上级是哪家集团` is not S-400): such answers go last
    described_by = {ch.start for ch in thing.chains} - {key, thing.answer_keys[0]}
    return sorted(out, key=lambda c: any(k in described_by for k in c.answer_keys))
