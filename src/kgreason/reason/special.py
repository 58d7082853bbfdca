"""Candidates for the two question forms that are not "follow a chain to the answer":

- yes/no (`是否`): the stated fact is a chain from one mentioned entity to another, or a value check (time window,
  numeric threshold) on the mentioned entity; "否" comes with the triple that contradicts the question;
- which-of-two (`A和B哪个更早/更大`): the same attribute of both, compared, with the derived comparison triple;
- which side (`交战双方哪一方的伤亡更多`): the sides' amounts, compared the same way.
"""

from __future__ import annotations

import re
from collections import Counter

from kgreason.data.records import PathTriple
from kgreason.kg.compare import compare_quantities
from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.paths import Chain, follow_signature
from kgreason.kg.quantities import Quantity
from kgreason.reason.analysis import Analysis
from kgreason.reason.attributes import AttributeOption, attribute_options, option_score, value_less
from kgreason.reason.candidate import Candidate, dedupe, ordered_path
from kgreason.reason.checks import Check, check_numeric, check_time
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.generate import ScoredChain, answer_type_of, key_starts, top_groups
from kgreason.reason.kinds import macro_kind
from kgreason.reason.lexicon import (
    AFFIRMATIVE_VALUES,
    AGE_WORDS,
    BIRTH_WORD,
    DATE_NOUNS,
    NEGATIVE_VALUE_STARTS,
    PLACE_TYPE_WORDS,
    POSSESSIVE,
    SAME_WORDS,
    SIDE_QUESTION_WORDS,
    UNKNOWN_VALUES,
    names_event_type,
    names_person_type,
)
from kgreason.reason.scoring import SUPPORTED_HOP, relation_match
from kgreason.text.normalize import normalize_text
from kgreason.text.overlap import common_prefix_length, longest_common_substring


def bool_candidates(
    index: KGIndex, analysis: Analysis, cfg: ReasonerConfig, scored: list[ScoredChain]
) -> list[Candidate]:
    starts = key_starts(analysis)
    if analysis.comparative is not None and analysis.compared_relations is not None:
        pair = _bool_by_relation_pair(index, analysis, starts)
        if pair:
            return pair
    if analysis.comparative is not None and len(analysis.compared) == 2:
        # `A的射程比B远吗`: yes when A wins the which-of comparison; the evidence is the comparison's either way
        won = choice_candidates(index, analysis, attribute_named=True)
        if won:
            w = won[0]
            yes = w.answer_keys[0] in index.alias_group(analysis.compared[0])
            return [_bool(yes, w.main, w.score, w.chains, w.checks)]
    if analysis.times or analysis.numerics:
        return _bool_by_values(index, analysis, cfg, scored, starts)
    zero = _bool_by_zero(index, analysis, scored)
    if zero:
        return zero
    if len(starts) >= 2 and any(w in analysis.mapped.norm for w in SAME_WORDS):
        same = _bool_by_sameness(index, analysis, starts[0], starts[1])
        if same:
            return same
    if len(starts) >= 2:
        return _bool_by_connection(index, analysis, scored, starts)
    if scored:
        best = scored[0]
        # `X能不能超音速巡航` over `X -超音速巡航能力-> 具备`: a value stating a presence, along a relation the
        # question's words name, says yes; anything else the one name reaches says nothing, so no
        hops = best.score.hop_scores
        yes = normalize_text(best.chain.end) in AFFIRMATIVE_VALUES and bool(hops) and hops[-1] >= SUPPORTED_HOP
        return [_bool(yes, best.chain.triples, best.score.total, (best.chain,))]
    return [_bool(False, (), 0.0, ())]


def _bool(
    yes: bool, main: tuple[PathTriple, ...], score: float, chains: tuple[Chain, ...], checks: tuple[Check, ...] = ()
) -> Candidate:
    return Candidate(("是" if yes else "否",), (), "布尔", dedupe(main), score, chains, checks, origin="bool")


def _bool_by_relation_pair(index: KGIndex, analysis: Analysis, starts: list[str]) -> list[Candidate]:
    """`A的计划年产量比原年产量多吗`: the two attributes the question names, of the one thing it names, compared in
    code; yes when the one before `比` wins. The evidence is both value triples and the derived comparison, the
    winner's first (as for two named things)."""
    assert analysis.comparative is not None and analysis.compared_relations is not None
    aspect, direction = analysis.comparative
    first, second = analysis.compared_relations
    # the named thing holds both attributes, or a node one hop from it does (`珊瑚海一战中，日方损失的飞机…`: the
    # battle at the named sea); the hop then leads the evidence
    holders = [(key, None) for key in starts] + [
        (e.dst, e) for key in starts for e in index.edges(key) if not e.is_alias and not index.is_literal(e.dst)
    ]
    for key, via in holders:
        own: dict[str, AttributeOption] = {}
        for o in attribute_options(index, key, aspect):
            if o.bridge is None:
                own.setdefault(normalize_text(o.edge.relation), o)
        a, b = own.get(first), own.get(second)
        if a is None or b is None:
            continue
        a_less, b_less = value_less(a.value, b.value), value_less(b.value, a.value)
        if a_less is None or b_less is None or a_less == b_less:
            continue  # values that do not compare, or a tie: nothing to answer from
        yes = a_less if direction == "min" else b_less
        winner, loser = (a, b) if yes else (b, a)
        w = _winner_candidate(index, analysis, winner, [loser], key)[0]
        main = (via.triple.spo, *w.main) if via is not None else w.main
        return [_bool(yes, main, w.score, w.chains, w.checks)]
    return []


def _bool_by_sameness(index: KGIndex, analysis: Analysis, a: str, b: str) -> list[Candidate]:
    """`A和B是否出自同一家船厂`: the relation both have that the question names best (by the relation's words, or by
    the words of the nodes it reaches: `船厂` in `江南造船厂`); yes when both reach the same node."""
    residual = analysis.residual
    noun = _same_noun(analysis.mapped.norm)
    by_rel_a: dict[str, list[Edge]] = {}
    for e in index.edges(a):
        if e.forward and not e.is_alias:
            by_rel_a.setdefault(normalize_text(e.relation), []).append(e)
    best: tuple[float, Edge, Edge] | None = None
    for eb in index.edges(b):
        if not eb.forward or eb.is_alias:
            continue
        for ea in by_rel_a.get(normalize_text(eb.relation), []):
            named = relation_match(ea.relation, residual).score
            described = max(longest_common_substring(n, residual)[0] for n in (ea.dst, eb.dst))
            s = named + (0.3 * described if described >= 2 else 0.0) + (0.3 if _kind_of(index, ea.dst, noun) else 0.0)
            if s > 0 and (best is None or s > best[0]):
                best = (s, ea, eb)
    if best is None:
        return []
    _, ea, eb = best
    yes = ea.dst in index.alias_group(eb.dst)
    main = (ea.triple.spo, eb.triple.spo)
    chains = (Chain(a, (ea,)), Chain(b, (eb,)))
    return [_bool(yes, main, best[0], chains)]


def _same_noun(nq: str) -> str:
    """The noun after `同一` / `同一家` (`海域` in `是否发生在同一海域`), "" when none."""
    for w in sorted(SAME_WORDS, key=len, reverse=True):
        i = nq.find(w)
        if i >= 0:
            return re.split(r"[的吗呢是了？?，,]", nq[i + len(w) :])[0][:4]
    return ""


def _kind_of(index: KGIndex, key: str, noun: str) -> bool:
    """The node is the kind of thing `同一X` compares: a place for a place word, a date for a date word."""
    if not noun:
        return False
    if any(w in noun for w in PLACE_TYPE_WORDS) and index.is_place(key):
        return True
    return noun.endswith(DATE_NOUNS) and index.date(key) is not None


ZERO_LOOKED_AT = 5  # the best chains among which a stated zero answers the question


def _bool_by_zero(index: KGIndex, analysis: Analysis, scored: list[ScoredChain]) -> list[Candidate]:
    """`X有没有军舰被击沉` over `X -被击沉舰艇数-> 0艘`: a count of zero (or a value stating an absence, `取消…`) of a
    thing the question names, reached along a relation its words name, says no — whatever else connects the names."""
    named = {k for m in analysis.mentions for k in index.alias_group(m.key)}
    for sc in scored[:ZERO_LOOKED_AT]:
        q = index.quantity(sc.chain.end)
        end = sc.chain.end
        says_no = (q is not None and q.lo == q.hi == 0) or (
            end.startswith(NEGATIVE_VALUE_STARTS) and not end.startswith(UNKNOWN_VALUES)
        )
        holder = sc.chain.nodes[-2] if sc.chain.hops else ""
        if says_no and holder in named and sc.score.hop_scores and sc.score.hop_scores[-1] >= SUPPORTED_HOP:
            return [_bool(False, sc.chain.triples, sc.score.total, (sc.chain,))]
    return []


def _bool_by_connection(
    index: KGIndex, analysis: Analysis, scored: list[ScoredChain], starts: list[str]
) -> list[Candidate]:
    """`X是否由Y制造`: yes when a relevant chain joins X and Y; no with X's relevant triple otherwise."""
    first, others = starts[0], starts[1:]
    targets: set[str] = set()
    for o in others:
        targets |= index.alias_group(o)
    # a detour through a sibling (`X -研制单位-> Y <-研制单位- Z -…-> 目标`) joins the two names without saying that
    # X stands in the asked relation to the other
    direct = [sc for sc in scored if not sc.chain.sibling_detours or analysis.asks_sibling]
    joining = [sc for sc in direct if sc.chain.start == first and sc.chain.end in targets]
    if not joining:
        joining = [sc for sc in direct if sc.chain.end in index.alias_group(first) and sc.chain.start in targets]
    if joining and joining[0].score.mean_relation >= 0.3:
        best = joining[0]
        own = _own_other_value(index, analysis, best.chain, starts) if analysis.order is None else None
        if own is not None:
            return [_bool(False, (own.triple.spo,), best.score.total, (Chain(own.src, (own,)),))]
        return [_bool(True, best.chain.triples, best.score.total, (best.chain,))]
    # the contradicting fact: the best relevant one-hop chain from X that does not reach Y
    from_first = [sc for sc in scored if sc.chain.start == first and sc.chain.hops == 1 and sc.chain.end not in targets]
    if from_first:
        best = from_first[0]
        return [_bool(False, best.chain.triples, best.score.total, (best.chain,))]
    return [_bool(False, (), 0.0, ())]


def _own_other_value(index: KGIndex, analysis: Analysis, chain: Chain, starts: list[str]) -> Edge | None:
    """`装在X舱门上的Y是Z研制的吗`, joined as X -> another of X's parts -研制单位-> Z: a named thing the chain goes
    round (Y) that the question states the fact of (its name not followed by `的`: `X的潜艇是否…` states it of the
    submarine) and that holds the chain's last relation itself, to something else — the triple that says no (None
    when no such thing is gone round, or its own value is Z)."""
    last = chain.edges[-1] if chain.edges else None
    if last is None:
        return None
    on_chain = {normalize_text(n) for t in chain.triples for n in (t[0], t[2])}
    ends = index.alias_group(chain.start) | index.alias_group(chain.end)
    relation = normalize_text(last.relation)
    nq = analysis.mapped.norm
    for m in analysis.mentions:
        s = m.key
        if s not in starts or index.alias_group(s) & on_chain or nq.startswith(POSSESSIVE, m.end):
            continue
        own = [
            e
            for e in index.edges(s)
            if e.forward == last.forward and not e.is_alias and normalize_text(e.relation) == relation
        ]
        if own and not any(e.dst in ends for e in own):
            return own[0]
    return None


def _bool_by_values(
    index: KGIndex, analysis: Analysis, cfg: ReasonerConfig, scored: list[ScoredChain], starts: list[str]
) -> list[Candidate]:
    """`X是否在2009年以前首飞、且射程超过1000公里`: check the values on X, or on the members X's best relation
    pattern reaches (`F-35系列中，是否有型别…`: yes when one member passes every check). A window bounded by an
    event (`X发生时，…是否已经完成Y`) is checked on the events the question names, not on a thing's own dates."""
    events: list[str] = []
    if any(w.anchor_key and names_event_type(index.types_text(w.anchor_key)) for w in analysis.times):
        events = [s for s in starts if names_event_type(index.types_text(s))]
    candidates: list[Chain] = [Chain(s, ()) for s in events or starts]
    if not events:  # the members a start's best relation pattern reaches
        for start, _sig, best in top_groups(scored, cfg.top_groups):
            if best.chain.hops == 1 and index.is_literal(best.chain.end) is False:
                candidates.append(best.chain)
                candidates.extend(follow_signature(index, start, best.chain.signature)[: cfg.max_set_size])
        # and the events a start took part in (`是否有飞毛腿导弹袭击造成超过20名美军死亡`: an attack it was used in)
        candidates.extend(
            Chain(s, (e,)) for s in starts for e in index.edges(s) if names_event_type(index.types_text(e.dst))
        )
    results: list[tuple[int, int, Chain, list[Check]]] = []
    for chain in candidates:
        checks = [check_time(index, chain, w, analysis) for w in analysis.times]
        checks += [check_numeric(index, chain, t) for t in analysis.numerics]
        ok = sum(1 for c in checks if c.ok is True)
        known = sum(1 for c in checks if c.ok is not None)
        results.append((ok, known, chain, checks))
    if not results:
        return [_bool(False, (), 0.0, ())]
    full = [r for r in results if r[0] == len(r[3]) and r[3]]
    if full:
        _, _, chain, checks = full[0]
        return [_bool(True, ordered_path([chain], checks), 1.0, (chain,), tuple(checks))]
    _, _, chain, checks = max(results, key=lambda r: (r[1], -r[2].hops))
    return [_bool(False, ordered_path([chain], checks), 0.5, (chain,), tuple(checks))]


def choice_candidates(index: KGIndex, analysis: Analysis, attribute_named: bool = False) -> list[Candidate]:
    """Which of two mentioned entities is earlier / larger: the same attribute of both, compared; the winner's
    triples first, then the other's, then the derived comparison. `attribute_named`: only when the question names
    the attribute (a yes/no `A比B大吗` compares nothing else)."""
    assert analysis.comparative is not None
    aspect, direction = analysis.comparative
    keys = list(analysis.compared) or key_starts(analysis)[:2]
    if len(keys) < 2:
        return []
    if len(keys) > 2:
        return _choice_among_many(index, analysis, keys)
    opts_a, opts_b = (_own_options(index, k, aspect, keys) for k in keys)
    residual = _compared_words(analysis)
    score_a = [option_score(index, o, residual) for o in opts_a]
    score_b = [option_score(index, o, residual) for o in opts_b]
    best: tuple[float, AttributeOption, AttributeOption] | None = None
    named = max([*score_a, *score_b, 0.0])
    named = named if named >= 1.0 else 0.0
    if attribute_named and not named:
        return []
    for oa, sa in zip(opts_a, score_a, strict=True):
        for ob, sb in zip(opts_b, score_b, strict=True):
            if (
                isinstance(oa.value, Quantity)
                and isinstance(ob.value, Quantity)
                and compare_quantities("数值等于", oa.value, ob.value) is None
            ):
                continue
            same = normalize_text(oa.edge.relation) == normalize_text(ob.edge.relation)
            if _stands_in(sa, sb, same, named):
                continue
            # the attribute the question names first (比热容 > 切变模量), then the same one on both sides, reached
            # the same way
            s = sa + sb + (1.0 if same else 0.0)
            if oa.bridge is not None and ob.bridge is not None and oa.bridge.relation == ob.bridge.relation:
                s += 0.5
            if best is None or s > best[0]:
                best = (s, oa, ob)
    if best is None:
        return []
    _, oa, ob = best
    a_first, b_first = value_less(oa.value, ob.value), value_less(ob.value, oa.value)
    if a_first is None or b_first is None or (not a_first and not b_first):
        return []
    winner, loser = (oa, ob) if (a_first if direction == "min" else b_first) else (ob, oa)
    return _winner_candidate(index, analysis, winner, [loser], keys[0] if winner is oa else keys[1])


def _compared_words(analysis: Analysis) -> str:
    """The words that name the attribute compared: the question's, and a birth for an age (`谁更年轻`)."""
    ages = any(w in analysis.comparative_text for w in AGE_WORDS)
    return f"{analysis.residual}|{BIRTH_WORD}" if ages else analysis.residual


def _stands_in(sa: float, sb: float, same: bool, named: float) -> bool:
    """The question names an attribute (`翼展`) one side lacks, and an unnamed one of that side would stand in for it:
    neither of the pair is named while one attribute is, or the two differ and only one of them is named."""
    top = max(sa, sb)
    return bool(named and top <= 0) or (not same and top >= 1.0 and min(sa, sb) < 0.5 * top)


def _choice_among_many(index: KGIndex, analysis: Analysis, keys: list[str]) -> list[Candidate]:
    """Which of three or more listed entities is earliest / largest (`A、B和C中射程最远的是哪一种`): the attribute
    the question names best (one relation all of them have, if there is one), each member's value compared with the
    winner's — one derived triple per comparison, the winner's triples first. Members without such a value are left
    out."""
    assert analysis.comparative is not None
    aspect, direction = analysis.comparative
    options = [_own_options(index, k, aspect, keys) for k in keys]
    words = _compared_words(analysis)
    best_by_relation: list[dict[str, tuple[float, AttributeOption]]] = []
    for opts in options:
        best: dict[str, tuple[float, AttributeOption]] = {}
        for o in opts:
            rel, score = normalize_text(o.edge.relation), option_score(index, o, words)
            if rel not in best or score > best[rel][0]:
                best[rel] = (score, o)
        best_by_relation.append(best)
    # each member's best-named value (a relation more members have breaks ties: `举行时间` for one, `发生时间` for
    # the others is fine); a member with no named value while others have one is left out, if two remain
    counts = Counter(r for b in best_by_relation for r in b)
    best_each = [
        max(b.items(), key=lambda rs: (rs[1][0], counts[rs[0]], rs[0])) if b else None for b in best_by_relation
    ]
    present = [(i, be[1]) for i, be in enumerate(best_each) if be is not None]
    named = any(score > 0 for _, (score, _o) in present)
    kept = [(i, o) for i, (score, o) in present if score > 0 or not named]
    if not named and len({normalize_text(o.edge.relation) for _, o in kept}) > 1:
        # nothing named: only an attribute they all have, or each member's only one, is what is compared
        shared = set.intersection(*(set(b) for b in best_by_relation)) if all(best_by_relation) else set()
        if shared:
            relation = sorted(shared)[0]
            kept = [(i, b[relation][1]) for i, b in enumerate(best_by_relation)]
        else:  # each member's only value of its own (an event's one date), not one borrowed a hop away
            own = [[o for o in opts if o.bridge is None] for opts in options]
            if not all(len(o) == 1 for o in own):
                return []
            kept = [(i, o[0]) for i, o in enumerate(own)]
    if len(kept) < 2:
        return []
    chosen = [o for _, o in kept]
    keys = [keys[i] for i, _ in kept]
    winner = chosen[0]
    for o in chosen[1:]:
        before = value_less(o.value, winner.value)
        if before is None:
            return []
        if before == (direction == "min"):
            winner = o
    others = [o for o in chosen if o is not winner]
    if not all(_beaten(winner, o, direction) for o in others):
        return []  # a tie or values that do not compare: no single answer
    return _winner_candidate(index, analysis, winner, others, keys[chosen.index(winner)])


def _winner_candidate(
    index: KGIndex, analysis: Analysis, winner: AttributeOption, others: list[AttributeOption], listed: str
) -> list[Candidate]:
    """The which-of answer: the winner's triples, each other member's, then one derived comparison triple per other
    member. The answer is the listed name (`listed`), or the node holding the value when that is the name itself or
    an event the question counts (`哪一次`)."""
    assert analysis.comparative is not None
    aspect, direction = analysis.comparative
    if aspect == "time":
        rel = "早于" if direction == "min" else "晚于"
    else:
        rel = "数值小于" if direction == "min" else "数值大于"
    derived = tuple((winner.edge.triple.obj, rel, o.edge.triple.obj) for o in others)
    main = [*winner.lead, winner.edge.triple.spo]
    for o in others:
        main.extend([*o.lead, o.edge.triple.spo])
    main.extend(derived)
    chains = tuple(o.chain for o in (winner, *others))
    check = Check("time" if aspect == "time" else "numeric", "order", "", True, (), derived)
    # the listed name, unless the value is the holder's own, the holder is an event the question counts, or it is
    # the person asked where the listed name is none (`北方军团和英荷联军的统帅…谁更年轻`: a commander)
    person = analysis.person and names_person_type(index.types_text(winner.holder))
    person = person and not names_person_type(index.types_text(listed))
    own = winner.bridge is None or _asks_event(index, analysis, winner.holder) or person
    key = winner.holder if own else listed
    return [
        Candidate(
            (index.name(key),),
            (key,),
            answer_type_of(index, key, "entity"),
            dedupe(main),
            1.0,
            chains,
            (check,),
            origin="choice",
        )
    ]


def side_comparison_candidates(index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """`交战双方哪一方的伤亡更多`: the sides of what the question names — the bodies it reaches (`参战方`, `进攻方`,
    `参战部队`) or names — each with the value its words name (`伤亡`): the side's own (`国民党军 -四平保卫战伤亡->`) or
    one the named thing states under a relation named for the side (`科希马战役 -日军伤亡->` for `日本军队`); the side
    with the larger (smaller) value, with the comparison as its derived triple. [] when the question asks no side or
    fewer than two sides have such a value."""
    order = analysis.order
    nq = analysis.mapped.norm
    if order is None or order.aspect != "quantity" or not any(w in nq for w in SIDE_QUESTION_WORDS):
        return []
    options: dict[str, AttributeOption] = {}
    for m in analysis.mentions:
        sides = [e for e in index.edges(m.key) if not e.is_alias and macro_kind(index, e.dst) == "organisation"]
        held = [(None, m.key)] if macro_kind(index, m.key) == "organisation" else []
        for via, side in [*held, *((e, e.dst) for e in sides)]:
            for v in index.value_edges(side):
                if (amount := _named_amount(index, v, order.text)) is not None:
                    lead = (via.triple.spo,) if via is not None else ()
                    options.setdefault(side, AttributeOption(side, lead, v, amount, bridge=via))
        for v in index.value_edges(m.key):
            rel = normalize_text(v.relation)
            # the side whose name shares the longest start with the relation's (`日军伤亡`, `日本军队`)
            named_for = max(sides, key=lambda e: common_prefix_length(rel, e.dst), default=None)
            amount = _named_amount(index, v, order.text)
            if named_for is not None and common_prefix_length(rel, named_for.dst) and amount is not None:
                lead = (named_for.triple.spo,)
                options.setdefault(named_for.dst, AttributeOption(named_for.dst, lead, v, amount))
    if len(options) == 1:
        # one side named (`英国及英联邦军队和法军相比`, the other unlinked): the other bodies holding the same amount
        (only,) = options.values()
        relation = normalize_text(only.edge.relation)
        for t in index.triples:
            other = normalize_text(t.sub)
            if normalize_text(t.relation) == relation and other != only.holder and other not in options:
                e = next((e for e in index.edges(other) if e.triple is t), None)
                amount = index.quantity(normalize_text(t.obj))
                if e is not None and amount is not None and macro_kind(index, other) == "organisation":
                    options[other] = AttributeOption(other, (), e, amount)
    valued = list(options.items())
    if len(valued) < 2:
        return []
    want_min = order.direction == "min"
    winner = valued[0][1]
    for _, o in valued[1:]:
        better = value_less(o.value, winner.value) if want_min else value_less(winner.value, o.value)
        if better:
            winner = o
    others = [o for _, o in valued if o is not winner]
    if not all(value_less(winner.value, o.value) if want_min else value_less(o.value, winner.value) for o in others):
        return []  # a tie, or values that do not compare
    rel = "数值小于" if want_min else "数值大于"
    derived = tuple((winner.edge.triple.obj, rel, o.edge.triple.obj) for o in others)
    main = [*winner.lead, winner.edge.triple.spo]
    for o in others:
        main.extend([*o.lead, o.edge.triple.spo])
    check = Check("numeric", "order", order.text, True, (), derived)
    key = winner.holder
    chains = tuple(Chain(o.edge.src, (o.edge,)) for o in (winner, *others))
    return [
        Candidate(
            (index.name(key),),
            (key,),
            answer_type_of(index, key, "entity"),
            dedupe([*main, *derived]),
            1.0,
            chains,
            (check,),
            origin="order",
        )
    ]


AMOUNT_WORD_CHARS = 2  # a relation spells this much of the superlative's words to name the amount compared


def _named_amount(index: KGIndex, e: Edge, words: str) -> Quantity | None:
    """The quantity the edge reaches under a relation that spells a word of the superlative's (`伤亡` of `伤亡更多`
    in `英联邦军队伤亡`), else None."""
    named = longest_common_substring(normalize_text(e.relation), normalize_text(words))[0] >= AMOUNT_WORD_CHARS
    return index.quantity(e.dst) if named else None


def _own_options(index: KGIndex, key: str, aspect: str, compared: list[str]) -> list[AttributeOption]:
    """The attribute options of one compared name, except those it would borrow from another compared name one hop
    away (`052D型 <-前序型号- 055型`: 055型's values are not 052D型's)."""
    others = {k for c in compared if c != key for k in index.alias_group(c)}
    return [o for o in attribute_options(index, key, aspect) if o.holder not in others]


def _asks_event(index: KGIndex, analysis: Analysis, holder: str) -> bool:
    """`三次遇袭中，哪一次…`: the question counts events, and the value belongs to an event the named thing took
    part in: the event is the answer, not the thing."""
    return analysis.asks_event and names_event_type(index.types_text(holder))


def _beaten(winner: AttributeOption, other: AttributeOption, direction: str) -> bool:
    """The winner's value is strictly before / below (direction "min") or after / above ("max") the other's."""
    return bool(value_less(winner.value, other.value) if direction == "min" else value_less(other.value, winner.value))
