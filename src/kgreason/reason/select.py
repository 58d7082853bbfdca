"""Select, then ask: `南昌舰与大连舰中下水较早的那一艘，是在哪座城市下水的？`, `X可发射的两种弹药中，射程更远的那一种
每个发射箱能装几枚？`, `在A、B和C三次遇袭中，死亡人数最多的那一次发生在哪一天？`.

A comparison clause ending in `…的那(一)?个/艘/种/次` picks one member of a group — the entities it names, or the
members one relation pattern reaches from the entity it names — by an attribute (its own or one hop away,
`kgreason.reason.attributes`); the rest of the question is then asked of the winner. The evidence is the selection
(each member's attribute triple and the derived comparisons that make the winner extreme) followed by the chain
that answers the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from kgreason.data.records import PathTriple
from kgreason.kg.index import KGIndex
from kgreason.kg.paths import Chain, follow_signature
from kgreason.reason.analysis import (
    Analysis,
    after_clause_break,
    asked_kind_cleared,
    attribute_phrase_start,
    detect_form,
    listed_names,
    residual_words,
)
from kgreason.reason.attributes import AttributeOption, attribute_options, option_score, value_less
from kgreason.reason.candidate import Candidate, dedupe
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.generate import (
    ExternalScore,
    ScoredChain,
    answer_type_of,
    chain_candidates,
    score_all,
    top_groups,
)
from kgreason.reason.kinds import noun_names_events
from kgreason.reason.lexicon import (
    AMONG_WORDS,
    COMPARATIVE_WORDS,
    DEGREE_MARKERS,
    MEASURE_WORDS,
    NAMING_VERBS,
    ORDER_WORDS,
    RESTART_PRONOUNS,
)
from kgreason.reason.link import Mention
from kgreason.text.normalize import normalize_text

# the rest asks only what the picked thing is called (`…的那种叫什么`): the winner is the answer
ASKS_ITS_NAME = re.compile(
    rf"(?:{'|'.join(sorted(NAMING_VERBS, key=len, reverse=True))})?(?:什么|哪一?[{MEASURE_WORDS}]?)(?:名字|名称)?"
)
# `…较早的那一艘`, `…更远的那一种`, `…最多的那一次`: the comparison word, then 的那, an optional 一 and a measure word
_SELECTOR = re.compile(rf"的那一?[{MEASURE_WORDS}]?")
VERB_AFTER_COMPARISON = 8  # `较晚举行的那一次`: the comparison word, then the predicate it bears on
ONE_CHARACTER_COMPARATIVE_VERB = 2  # `先沉没`: a one-character comparative bears on a verb, not on a longer phrase
_VERB = re.compile(r"[^\W\d_a-z的]+")


@dataclass(frozen=True, slots=True)
class Selection:
    text: str  # the comparison phrase, verbatim (`下水较早`)
    aspect: str  # "time" or "quantity"
    direction: str  # "min" / "max"
    context: str  # normalised words before the selector (they name the compared attribute)
    group_context: str  # those words before the comparison (describe the group: `可发射的两种弹药中`)
    rest_start: int  # normalised index where the question about the winner begins
    group: tuple[str, ...]  # mention keys in the selection clause
    # the clause lists the names it compares (`南昌舰与大连舰中`); otherwise they describe the group (`环太平洋-2018
    # 实弹击沉演练中动用的导弹`)
    listed: bool = True


def find_selection(analysis: Analysis) -> Selection | None:
    nq = analysis.mapped.norm
    for m in _SELECTOR.finditer(nq):
        head = nq[: m.start()]
        words = {**{w: v for w, v in COMPARATIVE_WORDS.items() if len(w) >= 2}, **ORDER_WORDS}
        word, verb = _comparison_word(head, words)
        if not word:
            continue
        rest = nq[m.end() :]
        if not re.search(r"什么|多少|哪|谁|何|几|多[久长大高远重宽深]", rest):  # (`多久`: how long, too)
            continue
        aspect, direction = {**COMPARATIVE_WORDS, **ORDER_WORDS}[word]
        before = [k for k in analysis.mentions if k.end <= m.start()]
        group = tuple(dict.fromkeys(k.key for k in before))
        listed = len(group) < 2 or bool(listed_names(nq, before, analysis.mapped))
        # the verbatim phrase: the attribute words right before the comparison word, then the word
        at = len(head) - verb - len(word)
        floor = max((k.end for k in analysis.mentions if k.end <= at), default=0)
        # (nor across a comma of the question's own wording: normalising drops it)
        start = max(floor, after_clause_break(analysis.mapped, 0, at), attribute_phrase_start(nq, at))
        text = analysis.mapped.verbatim(start, len(head))
        group_context = residual_words(head[:start])
        # the kind after the selector repeats the group's (`…两个型别里，…的那个型别主要由谁使用`): not asked of it
        kind = next((n for n in range(len(rest), 1, -1) if rest[:n] in head), 0)
        return Selection(text, aspect, direction, head, group_context, m.end() + kind, group, listed)
    return _selection_then_pronoun(analysis)


def _comparison_word(head: str, words: Mapping[str, tuple[str, str]]) -> tuple[str, int]:
    """The comparison word ending `head` (`下水较早`), or followed by the predicate whose time or amount it compares
    (`较晚举行`, `最晚形成初始作战能力`: at most `VERB_AFTER_COMPARISON` characters), with the predicate's length;
    ("", 0) when none."""
    for verb in range(VERB_AFTER_COMPARISON + 1):
        end = len(head) - verb
        if verb and not _VERB.fullmatch(head[end:]):
            break
        before = head[:end]
        # (before a predicate only a degree word compares, `较晚举行`: `首次动用的那种导弹` describes one event — or
        # a one-character comparative right after the group and before a verb, `A和B中先沉没`, not `…中重创X`)
        word = next(
            (
                w
                for w in sorted(words, key=len, reverse=True)
                if before.endswith(w) and (not verb or w.startswith(DEGREE_MARKERS))
            ),
            "",
        )
        if not word and 0 < verb <= ONE_CHARACTER_COMPARATIVE_VERB:
            word = next(
                (
                    w
                    for w in COMPARATIVE_WORDS
                    if len(w) == 1 and before.endswith(w) and before[:-1].endswith(AMONG_WORDS)
                ),
                "",
            )
        if word:
            return word, verb
    return "", 0


def _selection_then_pronoun(analysis: Analysis) -> Selection | None:
    """`南昌舰和大连舰中，哪一艘先下水？它是在哪座城市下水的？`: a which-of question ends its sentence and the next one
    asks about the winner by a pronoun."""
    if analysis.comparative is None or len(analysis.compared) < 2:
        return None
    nq, mapped = analysis.mapped.norm, analysis.mapped
    for i in range(1, len(nq)):
        pronoun = next((p for p in RESTART_PRONOUNS if nq.startswith(p, i)), "")
        if pronoun and any(ch in "？?。；;！!" for ch in mapped.gap(i, i)):
            if not re.search(r"什么|多少|哪|谁|何|几", nq[i:]):
                return None
            aspect, direction = analysis.comparative
            head = nq[:i]
            clause_start = max((k.end for k in analysis.mentions if k.end <= i), default=0)
            return Selection(
                analysis.comparative_text,
                aspect,
                direction,
                head[clause_start:],
                "",
                i + len(pronoun),
                analysis.compared,
            )
    return None


def _members(
    index: KGIndex, analysis: Analysis, sel: Selection, cfg: ReasonerConfig, external: ExternalScore | None
) -> list[tuple[str, tuple[PathTriple, ...]]]:
    """The group compared, each with the triples that make it a member: the named entities the clause lists (two or
    more), or the members of the best relation pattern from the entities it names, judged on the selection clause's
    words."""
    if len(sel.group) >= 2 and sel.listed:
        return [(k, ()) for k in sel.group]
    if not sel.group:
        return []
    # the group's own name is no word of the relation to its members (an event named after it, `X首次实战`, would
    # spell it)
    residual = sel.group_context or sel.context
    for m in analysis.mentions:
        if m.key in sel.group:
            residual = residual.replace(normalize_text(m.text), "|")
    # the kind the question asks is the rest's (`…的那一型主要由哪个军种使用`: a 军种), not the members' kind — which
    # is the noun right after the selector, if any (`…出动架数最多的那次行动，打击的是…`: the members are 行动)
    after = analysis.mapped.norm[sel.rest_start :]
    noun = next(
        (w for n in range(4, 1, -1) if (w := after[:n]) in index.vocabulary and w not in index.relation_names), ""
    )
    cleared = asked_kind_cleared(analysis)
    sub = replace(
        replace(cleared, type_word=noun, type_text=noun, type_word_names_events=noun_names_events(index, noun))
        if noun
        else cleared,
        residual="|".join(w for w in residual.split("|") if w),
        asked="",
        form="set",
        times=(),
        numerics=(),
        order=None,
        comparative=None,
        mentions=tuple(m for m in analysis.mentions if m.key in sel.group),
        mention_keyset=frozenset(sel.group),
    )
    scored: list[ScoredChain] = score_all(index, sub, replace(cfg, max_hops=2), external)
    for start, sig, best in top_groups(scored, cfg.top_groups):
        if best.chain.edges and best.chain.edges[-1].is_alias:
            continue
        members = follow_signature(index, start, sig)[: cfg.max_set_size]
        with_values = [c for c in members if attribute_options(index, c.end, sel.aspect)]
        if len(with_values) >= 2:
            return [(c.end, c.triples) for c in with_values]
    return []


def select_candidates(
    index: KGIndex,
    analysis: Analysis,
    sel: Selection,
    cfg: ReasonerConfig,
    external: ExternalScore | None,
) -> list[Candidate]:
    members = _members(index, analysis, sel, cfg, external)
    valued: list[tuple[str, tuple[PathTriple, ...], AttributeOption]] = []
    named: list[tuple[str, tuple[PathTriple, ...], AttributeOption]] = []
    for key, reach in members:
        options = attribute_options(index, key, sel.aspect)
        if not options:
            continue
        score, best = max(((option_score(index, o, sel.context), o) for o in options), key=lambda so: so[0])
        valued.append((key, reach, best))
        if score > 0:
            named.append((key, reach, best))
    if len(named) >= 2:
        # members with a value the clause names are compared; one without such a value is not shown to be in
        # the running (an operation with no `出动B-2数量` is not compared by the bomber's own `原计划采购数量`)
        valued = named
    if len(valued) < 2:
        return []
    want_min = sel.direction == "min"
    winner = valued[0]
    for row in valued[1:]:
        better = value_less(row[2].value, winner[2].value) if want_min else value_less(winner[2].value, row[2].value)
        if better:
            winner = row
    w_key, w_reach, w_opt = winner
    rel = ("早于" if want_min else "晚于") if sel.aspect == "time" else ("数值小于" if want_min else "数值大于")
    selection: list[PathTriple] = [*w_reach, *w_opt.lead, w_opt.edge.triple.spo]
    compared = 0
    for key, reach, opt in valued:
        if key == w_key:
            continue
        holds = value_less(w_opt.value, opt.value) if want_min else value_less(opt.value, w_opt.value)
        if not holds:
            return []  # a tie or an unknown order: the clause does not single out one member
        selection += [*reach, *opt.lead, opt.edge.triple.spo]
        compared += 1
    derived = [(w_opt.edge.triple.obj, rel, opt.edge.triple.obj) for key, _r, opt in valued if key != w_key]
    rest = analysis.mapped.norm[sel.rest_start :]
    if ASKS_ITS_NAME.fullmatch(rest):
        chain = Chain(w_key, ())
        return [
            Candidate(
                (index.name(w_key),),
                (w_key,),
                answer_type_of(index, w_key, "entity"),
                dedupe([*selection, *derived]),
                1.0 + 0.5 * compared,
                (chain,),
                origin="select",
            )
        ]
    # ask the rest of the question of the winner (and of the node that holds its attribute, `那一次` = the event)
    starts = list(dict.fromkeys([w_key, w_opt.holder]))
    form, _ = detect_form(rest, [])
    sub = replace(
        analysis,
        mentions=tuple(Mention(0, 0, index.name(k), k, "exact", 1.0) for k in starts),
        mention_keyset=frozenset(starts),
        form=form,
        residual=residual_words(rest),
        asked="",
        times=(),
        numerics=(),
        order=None,
        comparative=None,
        compared=(),
        roles={},
    )
    sub_cfg = replace(cfg, max_hops=2, entity_checks=False)
    cands, _ = chain_candidates(index, sub, sub_cfg, external)
    # the rest is asked of the winner: not of the group's owner or the other members it could walk back to
    elsewhere = {k for k, _r, _o in valued if k not in starts}
    elsewhere |= {n for t in w_reach for n in (normalize_text(t[0]), normalize_text(t[2]))} - set(starts)
    out: list[Candidate] = []
    for c in cands:
        if not c.answer_keys or set(c.answer_keys) & set(starts):
            continue
        if any(n in elsewhere for ch in c.chains for n in ch.nodes):
            continue
        main = dedupe([*selection, *derived, *c.main])
        out.append(replace(c, main=main, score=c.score + 0.5 * compared, origin="select", alts=()))
    return out[: cfg.llm_candidates]
