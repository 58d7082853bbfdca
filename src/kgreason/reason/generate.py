"""Candidate answers from scored chains: entity, set, count, value (time / number / place) questions, with
constraint checks and superlatives.

Chains from each key entity are grouped by their relation pattern (start + relation sequence with directions);
a pattern's members are all nodes it reaches. Constraints filter members; a set question takes every member
that passes, a single-answer question one member per candidate (a superlative picks the extreme one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from itertools import pairwise

from kgreason.data.records import PathTriple
from kgreason.kg.dates import DateValue
from kgreason.kg.index import Edge, KGIndex
from kgreason.kg.paths import Chain, Signature, follow_signature, search_chains
from kgreason.kg.quantities import Quantity, is_measure
from kgreason.reason.analysis import Analysis
from kgreason.reason.attributes import AttributeOption, attribute_options, option_score, value_less
from kgreason.reason.candidate import Candidate, dedupe, ordered_path
from kgreason.reason.checks import (
    Check,
    CheckKind,
    anchor_date_edge,
    check_entity,
    check_negated,
    check_numeric,
    check_time,
)
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.kinds import category_edges
from kgreason.reason.lexicon import (
    DURATION_ORDER_WORDS,
    PERSON_COUNTERS,
    POSSESSIVE,
    SAME_DAY_RELATION,
    WHICH,
    names_person_type,
)
from kgreason.reason.scoring import SUPPORTED_HOP, ChainScore, ChainScorer, relation_match
from kgreason.text.normalize import normalize_text

# Relevance of a chain from an external model, in [0, 1]; None when none is configured.
ExternalScore = Callable[[Sequence[Chain]], list[float] | None]


@dataclass(frozen=True, slots=True)
class ScoredChain:
    chain: Chain
    score: ChainScore


KIND_TIE = 0.05  # answer-kind scores this close count as the same kind among a set's members
VALUE_FORMS = frozenset({"number", "time", "count"})  # forms that ask a value, not a thing holding one


def kind_check(index: KGIndex, key: str, analysis: Analysis) -> Check | None:
    """The triple that states the node is of the asked kind when the KG says it as a value (`海红旗-9B 类型
    远程防空导弹` for `哪些是防空导弹`); None when its name or KG type says it already, or nothing does."""
    tw = analysis.type_word
    if not tw or tw in normalize_text(index.name(key)) or tw in normalize_text(index.types_text(key)):
        return None
    for e in category_edges(index, key):
        if tw in e.dst:
            return Check("entity", None, analysis.type_text, True, (e.triple.spo,), note="kind stated as a value")
    return None


def key_starts(analysis: Analysis) -> list[str]:
    """Mentions that can start a chain: not those that only bound a time window (`二战期间`), and not those the
    question marks as a side or place constraint (`隶属于X`) when another entity can start it."""
    bound_keys = {t.period_key for t in analysis.times} | {t.anchor_key for t in analysis.times}
    keys = list(dict.fromkeys(m.key for m in analysis.mentions if m.key not in bound_keys))
    if not keys:
        # every name bounds a time window (`南昌舰在下水之后、入列之前参加了什么`): the answer is still reached from
        # them, and the windows are checked on what is reached
        keys = list(dict.fromkeys(m.key for m in analysis.mentions))
    unmarked = [k for k in keys if k not in analysis.roles]
    return unmarked + [k for k in keys if k in analysis.roles] if unmarked else keys


def chain_starts(analysis: Analysis) -> list[str]:
    """Where chains start: the key entities, without role-marked ones when there are others."""
    keys = key_starts(analysis)
    unmarked = [k for k in keys if k not in analysis.roles]
    return unmarked or keys


def date_anchors(index: KGIndex, analysis: Analysis) -> list[str]:
    """The KG date nodes that are exactly a date the question names (`1942年6月5日沉没的舰艇`): where chains start
    when the question names no node but the kind asked for, since a described thing is reached from its date as from
    any other value that describes it."""
    dates = [w.date for w in analysis.times if w.date is not None and w.relation == "处于时期内"]
    if not dates:
        return []
    return sorted(
        key for key in index.nodes if (d := index.date(key)) is not None and any(d.same_days(w) for w in dates)
    )


def same_day_anchors(index: KGIndex, analysis: Analysis) -> list[str]:
    """The date nodes of the events that bound a window to their very day (`X解除的当天` -> X's `解除时间`)."""
    out: list[str] = []
    for w in analysis.times:
        if w.relation == SAME_DAY_RELATION and (e := anchor_date_edge(index, w, analysis.mapped.norm)) is not None:
            out.append(e.dst)
    return list(dict.fromkeys(out))


RELATION_ANCHOR_MIN_CHARS = 4  # a relation name spelled this long in a question that names no node anchors it


def relation_anchors(index: KGIndex, analysis: Analysis) -> list[str]:
    """When the question names no node, the subjects of the KG relation whose name it spells in full
    (`海上作战部分指挥官来自哪支海军` -> the exercise that has one): the relation describes what is asked, as a date
    does (`date_anchors`); only names of four characters or more, the longest spelled."""
    residual = analysis.residual
    spelled = [
        r
        for r in index.relation_names
        if len(r) >= RELATION_ANCHOR_MIN_CHARS and any(r in part for part in residual.split("|"))
    ]
    if not spelled:
        return []
    longest = max(len(r) for r in spelled)
    return _subjects_of(index, {r for r in spelled if len(r) == longest})


def _subjects_of(index: KGIndex, relations: set[str]) -> list[str]:
    """The subjects (normalised, sorted) of the triples whose relation is one of `relations` (normalised)."""
    return sorted({normalize_text(t.sub) for t in index.triples if normalize_text(t.relation) in relations})


MODIFIER_VERB_CHARS = 2  # `A用的B`, `A配装的B`: a verb this short between a name and 的 still makes A describe B


def modifier_heads(analysis: Analysis) -> dict[str, str]:
    """Mention key -> the key of the name it modifies, for names written `A的B` (`三叉戟接点-2018的实兵演习阶段`), or
    with a short verb before 的 when B heads its phrase (`海狼级用的S6W反应堆出自…`; not `被A击中的英国舰船`, where
    B describes the noun asked): the question is about B, so a chain from A that does not pass through B answers
    something else."""
    out: dict[str, str] = {}
    nq = analysis.mapped.norm
    ms = sorted(analysis.mentions, key=lambda m: m.start)
    for a, b in pairwise(ms):
        between = nq[a.end : b.start]
        verb = between.endswith(POSSESSIVE) and len(between) <= MODIFIER_VERB_CHARS + len(POSSESSIVE)
        heads = not analysis.type_word or not nq.startswith(analysis.type_word, b.end)
        verb = verb and heads and analysis.mapped.gap(a.end, b.start) == between
        if a.key != b.key and (between == POSSESSIVE or verb):
            out.setdefault(a.key, b.key)
    return out


def score_all(
    index: KGIndex,
    analysis: Analysis,
    cfg: ReasonerConfig,
    external: ExternalScore | None,
    scorer: ChainScorer | None = None,
) -> list[ScoredChain]:
    starts = chain_starts(analysis)
    if all(analysis.roles.get(k) == "type" for k in starts):
        # only the kind of what is asked is named (`2021年4月23日入列的055型驱逐舰是哪一艘`): its date describes it
        starts = [*date_anchors(index, analysis), *starts]
    # `X解除的当天`: what is asked is reached from the day of X's event as from a date the question names
    starts = [*starts, *same_day_anchors(index, analysis)]
    if not starts:
        starts = relation_anchors(index, analysis) or (
            matched_relation_anchors(index, analysis) if cfg.relation_rescue else []
        )
    if not starts:
        return []
    scorer = scorer or ChainScorer(index, analysis, cfg.weights)
    chains = search_chains(
        index, starts, max_hops=cfg.max_hops, beam=cfg.beam, prefix_score=scorer.prefix, max_chains=cfg.max_chains
    )
    out: list[ScoredChain] = []
    marked = set(analysis.roles)
    modified = modifier_heads(analysis)
    for c in chains:
        s = scorer.score(c)
        modified_name = modified.get(c.start)
        if len(starts) > 1 and (c.start in marked or (modified_name is not None and modified_name not in c.nodes)):
            s = replace(s, total=s.total - cfg.marked_start_penalty)
        out.append(ScoredChain(c, s))
    out.sort(key=lambda sc: sc.score.total, reverse=True)
    if cfg.relation_rescue and not any(_supported(sc, cfg.weights.type_match) for sc in out):
        # no word of the question supports a hop from its names: the relation it spells may anchor the fact
        out = _rescued_by_relation(index, analysis, cfg, scorer, out, starts)
    if external is not None and out:
        # The external model re-ranks the best lexical chains only: it costs an embedding per new triple.
        head = out[: cfg.external_top]
        ext = external([sc.chain for sc in head])
        if ext is not None:
            head = [
                ScoredChain(sc.chain, replace(sc.score, total=sc.score.total + cfg.weights.external * x, external=x))
                for sc, x in zip(head, ext, strict=True)
            ]
            out = sorted(head, key=lambda sc: sc.score.total, reverse=True) + out[cfg.external_top :]
    return out


def _supported(sc: ScoredChain, kind_shown: float) -> bool:
    """A hop of the chain is supported by the question's words — or the chain is one fact of a named node whose
    value the question word asks, shown of the asked kind (`黑河战役发生在哪一天` -> `黑河战役 时间 1855年8月16日`)."""
    hops = sc.score.hop_scores
    return max(hops, default=0.0) >= SUPPORTED_HOP or (len(hops) == 1 and sc.score.answer_kind >= kind_shown)


RESCUE_MIN_MATCH = 0.8  # a relation's name or synonym spelled this nearly in full names the fact asked about
RESCUE_MAX_ANCHORS = 5  # ... when few subjects have that relation (a common one describes nothing)


def matched_relation_anchors(index: KGIndex, analysis: Analysis) -> list[str]:
    """The subjects of the KG relations the question's words match best (`为母港` -> every node with a 母港), when
    the match is nearly whole and few nodes have them: like `relation_anchors`, but by the relation matcher's score,
    so a synonym or a relation word split by other words counts (`最初…代号` for `甲方最初代号`)."""
    residual = analysis.residual
    scored = [(relation_match(r, residual).score, r) for r in index.relations]
    best = max((s for s, _ in scored), default=0.0)
    if best < RESCUE_MIN_MATCH:
        return []
    anchors = _subjects_of(index, {normalize_text(r) for s, r in scored if s >= best})
    return anchors if len(anchors) <= RESCUE_MAX_ANCHORS else []


def _rescued_by_relation(
    index: KGIndex,
    analysis: Analysis,
    cfg: ReasonerConfig,
    scorer: ChainScorer,
    out: list[ScoredChain],
    starts: list[str],
) -> list[ScoredChain]:
    """`out` with the chains from `matched_relation_anchors` added, for a question whose linked names reach nothing
    its words support: its names were read too little (`这场X攻势` links neither the battle nor the region named X;
    `甲国这艘…航母` links only the country), while the relation it asks about is plain. They rank below chains from
    linked names (`marked_start_penalty`) and must end on a node of a kind the question allows."""
    anchors = [a for a in matched_relation_anchors(index, analysis) if a not in starts]
    if not anchors:
        return out
    chains = search_chains(
        index, anchors, max_hops=cfg.max_hops, beam=cfg.beam, prefix_score=scorer.prefix, max_chains=cfg.max_chains
    )
    extra = [
        ScoredChain(c, replace(sc, total=sc.total - cfg.marked_start_penalty))
        for c in chains
        if (sc := scorer.score(c)).answer_kind >= 0
    ]
    return sorted([*out, *extra], key=lambda sc: sc.score.total, reverse=True)


def top_groups(scored: list[ScoredChain], n: int) -> list[tuple[str, Signature, ScoredChain]]:
    """Best chain per relation pattern, best patterns first."""
    seen: dict[tuple[str, Signature], ScoredChain] = {}
    for sc in scored:
        k = (sc.chain.start, sc.chain.signature)
        if k not in seen:
            seen[k] = sc
            if len(seen) >= n:
                break
    return [(k[0], k[1], v) for k, v in seen.items()]


def mention_texts(analysis: Analysis) -> dict[str, str]:
    """Each mentioned node's wording in the question (a role's own wording where it has one: `除…以外`)."""
    return {m.key: m.text for m in analysis.mentions} | analysis.role_text


def run_checks(
    index: KGIndex, chain: Chain, analysis: Analysis, starts: list[str], entity_checks: bool = True
) -> list[Check]:
    """Every constraint of the question checked on one chain."""
    checks: list[Check] = []
    on_chain: set[str] = set()
    for n in chain.nodes:
        on_chain |= index.alias_group(n)
    text_of = mention_texts(analysis)
    # the names one word links as a group (`飞鱼导弹`: AM39…, MM38…) are alternatives: the chain needs one of them
    group_of = {m.key: (m.start, m.end) for m in analysis.mentions if m.how == "group"}
    reached = {group_of[k] for k in on_chain if k in group_of}
    for key in starts if entity_checks else []:
        excluded = analysis.roles.get(key) == "exclude"
        if (key in on_chain or group_of.get(key) in reached) and not (excluded and chain.end in index.alias_group(key)):
            continue
        text = text_of.get(key, index.name(key))
        check = check_entity(
            index, chain, key, text, analysis.roles.get(key), siblings=analysis.asks_sibling, named=analysis.mention_set
        )
        if check.ok is False and key in analysis.scopes:
            check = replace(check, ok=None, note="scopes the asked noun")
        checks.append(check)
    for negation in analysis.negated:
        checks.append(check_negated(index, chain, negation.word, negation.text))
    for w in analysis.times:
        checks.append(check_time(index, chain, w, analysis))
    for t in analysis.numerics:
        checks.append(check_numeric(index, chain, t))
    return checks


def check_score(checks: list[Check], cfg: ReasonerConfig) -> float:
    s = 0.0
    for c in checks:
        if c.ok is True:
            s += cfg.check_bonus
        elif c.ok is False:
            s -= cfg.check_penalty
        else:
            s += cfg.check_unknown
    return s


def answer_type_of(index: KGIndex, key: str, form: str) -> str:
    """The KG's type of the answer node; `时间` / `数值` / `地点` for literal values without one."""
    if key in index.main_type:
        return index.main_type[key]
    if index.date(key) is not None:
        return "时间"
    if index.quantity(key) is not None:
        return "数值"
    if form == "place":
        return "地点"
    return "实体"


def _judged_on_members(
    index: KGIndex, rows: list[tuple[Chain, ChainScore, list[Check]]]
) -> list[tuple[Chain, ChainScore, list[Check]]]:
    """`X中损失的日本海军舰艇`: a named side or place that some members reach from themselves tells the members
    apart; a member that reaches it only through the node they share (X's own `参战方`) fails it. Likewise a threshold
    some members meet or miss by values of their own: a member judged only by a value of the node they share (the
    family's total `产量`) is undecided, so a set leaves it out."""

    def own(chain: Chain, c: Check) -> bool:
        return c.ok is True and bool(c.anchor) and c.anchor in index.alias_group(chain.end)

    def own_value(chain: Chain, c: Check) -> bool:
        # a threshold read on the member's own value (`M4A2 产量 11283辆`), not on a node it shares with the others
        # (the family's total `产量 49234辆`): what is said of the whole is not said of each member
        member = chain.nodes[-2] if len(chain.nodes) > 1 and index.is_literal(chain.end) else chain.end
        return bool(c.triples) and normalize_text(c.triples[-1][0]) in index.alias_group(member)

    distinguishing = {
        (c.key, c.value) for chain, _, checks in rows for c in checks if c.kind == "entity" and own(chain, c)
    }
    valued = {
        (c.key, c.value) for chain, _, checks in rows for c in checks if c.kind == "numeric" and own_value(chain, c)
    }
    if not distinguishing and not valued:
        return rows
    return [
        (
            chain,
            sc,
            [
                replace(c, ok=False, triples=(), note="reached only through a node the members share")
                if c.kind == "entity" and c.ok is True and (c.key, c.value) in distinguishing and not own(chain, c)
                else replace(c, ok=None, triples=(), derived=(), note="only a value the members share")
                if c.kind == "numeric" and c.ok is not None and (c.key, c.value) in valued and not own_value(chain, c)
                else c
                for c in checks
            ],
        )
        for chain, sc, checks in rows
    ]


def _start_judged_on_members(
    index: KGIndex, analysis: Analysis, rows: list[tuple[Chain, ChainScore, list[Check]]]
) -> list[tuple[Chain, ChainScore, list[Check]]]:
    """`北港海战中损失的北洋舰队舰艇`: the chain starts at one name (北洋舰队), passes another (the battle) and ends on
    the battle's members; the first name then describes the members themselves. When some members connect to it
    directly, that connection is their check and the members without one fail."""
    mentioned = analysis.mention_set
    if any(index.is_literal(c.end) for c, _, _ in rows):
        return rows  # values (dates, numbers) are no members a name describes: a date may equal the name's own
    starts = {c.start for c, _, _ in rows if c.hops >= 2 and c.nodes[-2] in mentioned and c.start != c.nodes[-2]}
    if len(starts) != 1:
        return rows
    (key,) = starts
    text = mention_texts(analysis).get(key, index.name(key))
    marked = analysis.roles.get(key)
    own = {c.end: check_entity(index, Chain(c.end, ()), key, text, marked, max_hops=1) for c, _, _ in rows}
    if all(ch.ok for ch in own.values()) or not any(ch.ok for ch in own.values()):
        return rows  # the name tells no member apart
    return [(chain, sc, [*checks, own[chain.end]]) for chain, sc, checks in rows]


def _member_candidates(
    index: KGIndex,
    analysis: Analysis,
    cfg: ReasonerConfig,
    start: str,
    sig: Signature,
    best: ScoredChain,
    starts: list[str],
    known: dict[tuple[Edge, ...], ChainScore],
    scorer: ChainScorer,
) -> list[Candidate]:
    members = follow_signature(index, start, sig)[: cfg.max_set_size * 3] or [best.chain]
    rows: list[tuple[Chain, ChainScore, list[Check]]] = []
    seen_ends: set[str] = set()
    for m in members:
        group = index.alias_group(m.end)
        if group & seen_ends:
            continue
        seen_ends |= group
        sc = known.get(m.edges) or scorer.score(m, best.score.external)
        rows.append((m, sc, run_checks(index, m, analysis, starts, cfg.entity_checks)))
    rows = _judged_on_members(index, _start_judged_on_members(index, analysis, rows))
    form = analysis.form
    # a threshold shown to hold for some members filters the set: a member with no value under its words is not
    # shown to pass it (`派兵不少于1万人` of the countries taking part, only some of which the KG gives a force)
    # (and so does a date the question gives, `20世纪80年代开始交付的型号`, not a period it sets the scene with)
    dated = {t.text for t in analysis.times if t.date is not None}
    shown = (
        {
            c.value
            for r in rows
            for c in r[2]
            if c.ok and (c.kind == "numeric" or (c.kind == "time" and c.value in dated))
        }
        if form in ("set", "count")
        else set()
    )
    passing = [r for r in rows if not any(c.ok is False or (c.ok is None and c.value in shown) for c in r[2])]
    if form == "set" and analysis.order is not None and len(passing or rows) > 1:
        # `…中沉没时间最晚的是哪几艘`: every member at the extreme (ties included) is the answer
        ordered = _order_candidate(index, analysis, cfg, passing or rows, ties=True)
        if ordered is not None:
            return [ordered]
    if form == "count" and all(not is_measure(index.quantity(r[0].end)) for r in rows):
        # `多少名舰员死亡` over `事件 -死亡人数-> 20人`: the KG states the number; counting its value nodes would
        # answer `1`. The number is then the answer, like any value question.
        form = "number"
    counts_people = bool(analysis.measure_word) and analysis.measure_word in PERSON_COUNTERS
    if form == "count" and counts_people and not any(names_person_type(index.types_text(r[0].end)) for r in rows):
        return []  # `死了多少人`: a count of people counts no ships (the KG's stated number answers it)
    if form in ("set", "count"):
        pool = passing or rows
        typed = [r for r in pool if r[1].answer_kind >= 0]
        if analysis.type_word and typed:
            # the asked-for noun in full beats a part of it (`防空导弹`: `远程防空导弹`, not `反舰导弹` for its `导弹`)
            top = max(r[1].answer_kind for r in typed)
            typed = [r for r in typed if r[1].answer_kind >= top - KIND_TIE]
        # the asked-for noun restricted the set (`…的驱逐舰有哪些` drops the frigates): a type constraint
        type_filtered = bool(analysis.type_word) and 0 < len(typed) < len(pool)
        pool = typed or pool
        pool = pool[: cfg.max_set_size]
        chains = [r[0] for r in pool]
        checks = [c for r in pool for c in r[2]]
        if type_filtered:
            # the triple saying a member is of the kind asked, where the KG says it as a value (`类型 远程防空导弹`)
            checks += [c for r in pool if (c := kind_check(index, r[0].end, analysis)) is not None]
        keys = tuple(r[0].end for r in pool)
        names = tuple(index.name(k) for k in keys)
        penalty = 0.0 if passing else -cfg.check_penalty
        score = best.score.total + (check_score(pool[0][2], cfg) if pool else 0.0) + penalty
        if form == "count":
            return [
                Candidate(
                    (str(len(keys)),),
                    keys,
                    "数值",
                    ordered_path(chains, checks),
                    score,
                    tuple(chains),
                    tuple(checks),
                    origin="count",
                    # the members' kind: a count of things other than those asked (`多少部探照灯` counting the attacks
                    # that used one) is not of the asked kind, so a single fact may look one hop further
                    features=_features(best.score),
                )
            ]
        features = _features(best.score)
        if type_filtered:
            features["type_filtered"] = 1.0
        return [
            Candidate(
                names,
                keys,
                "实体集合",
                ordered_path(chains, checks),
                score,
                tuple(chains),
                tuple(checks),
                features=features,
            )
        ]
    # the superlative picks among the members that pass the checks — or among all of them when none does (the same
    # check failing on every member tells none apart)
    ordering = passing or rows
    if analysis.order is not None and len(ordering) > 1:
        ordered = _order_candidate(index, analysis, cfg, ordering)
        if ordered is not None:
            return [ordered]
    # a superlative the candidate does not show to hold is a constraint of unknown outcome
    unshown = cfg.check_unknown if analysis.order is not None else 0.0
    out: list[Candidate] = []
    for chain, sc, checks in passing or rows:
        key = chain.end
        out.append(
            Candidate(
                (index.name(key),),
                (key,),
                answer_type_of(index, key, form),
                ordered_path([chain], checks),
                sc.total + check_score(checks, cfg) + unshown,
                (chain,),
                tuple(checks),
                alts=_check_alts(chain, checks),
                features=_features(sc),
            )
        )
    return out


def _features(sc: ChainScore) -> dict[str, float]:
    return {
        "coverage": round(sc.coverage, 3),
        "relation": round(sc.mean_relation, 3),
        "answer_kind": sc.answer_kind,
        "external": round(sc.external, 3),
    }


def _check_alts(chain: Chain, checks: list[Check]) -> tuple[tuple[PathTriple, ...], ...]:
    """The long form of `处于时期内` as an alternative path, when a check has one."""
    if not any(c.alt for c in checks):
        return ()
    out: list[PathTriple] = list(chain.triples)
    for c in checks:
        if c.alt:
            out.extend(c.alt)
        else:
            out.extend(c.triples)
            out.extend(c.derived)
    return (dedupe(out),)


def _own_value(index: KGIndex, chain: Chain, aspect: str) -> DateValue | Quantity | None:
    """The chain's end as a value of the aspect compared (a date for `最晚`, a quantity for `最大`), if it is one."""
    if not chain.edges or not chain.edges[-1].forward:
        return None
    return index.date(chain.end) if aspect == "time" else index.quantity(chain.end)


ORDER_NAMED = 0.5  # how well the question must name a member's attribute for a superlative to compare it


def _order_candidate(
    index: KGIndex,
    analysis: Analysis,
    cfg: ReasonerConfig,
    rows: list[tuple[Chain, ChainScore, list[Check]]],
    *,
    ties: bool = False,
) -> Candidate | None:
    """Superlative (`最早`, `最大`): the member whose attribute (its own, or one a hop away: a prototype's first
    flight) is extreme, with its comparisons to the others — with `ties`, every member at the extreme (a set
    question: `最晚沉没的是哪几艘`). The better the question names the attribute, the more the candidate earns
    (`首飞时间最晚` over a group whose members only have 举行时间 earns little)."""
    order = analysis.order
    assert order is not None
    if order.aspect == "quantity" and any(w in order.text for w in DURATION_ORDER_WORDS):
        spans = _duration_order_candidate(index, analysis, cfg, rows, ties=ties)
        if spans is not None:
            return spans
    valued: list[tuple[Chain, ChainScore, list[Check], AttributeOption, float]] = []
    for chain, sc, checks in rows:
        # a value of a node the chain came through is shared by the members, not one of theirs (`采购海马斯的国家`
        # do not sign when 海马斯 entered service)
        passed = {chain.start, *(e.dst for e in chain.edges)} - {chain.end}
        options = [o for o in attribute_options(index, chain.end, order.aspect) if o.holder not in passed]
        value = _own_value(index, chain, order.aspect)
        if not options and value is not None:
            # the member is the value compared (`最后一届…是在哪一年举行的`: the chains end on the years)
            options = [AttributeOption(chain.nodes[-2], (), chain.edges[-1], value)]
        if not options:
            continue
        scores = [option_score(index, o, order.context) for o in options]
        best = max(range(len(options)), key=lambda i: scores[i])
        named = min(1.0, max(0.0, scores[best] / 2.0))  # option_score is 2 per fully named relation
        valued.append((chain, sc, checks, options[best], named))
    # a member with no value under the words naming the attribute (a renamed ship's 更名时间 for `入役时间最晚`)
    # is not compared with those that have one
    # (when two or more have one: a lone well-named value is no group to pick from)
    named_ones = [v for v in valued if v[4] >= ORDER_NAMED]
    if len(named_ones) >= 2:
        valued = named_ones
    if len(valued) < 2:
        return None
    want_min = order.direction == "min"
    winner = valued[0]
    for row in valued[1:]:
        lt = value_less(row[3].value, winner[3].value)
        gt = value_less(winner[3].value, row[3].value)
        if (want_min and lt) or (not want_min and gt):
            winner = row
    chain, sc, checks, option, named = winner
    # the winner's ties (itself among them): neither value is less than the other
    tied = (
        [r for r in valued if not value_less(r[3].value, option.value) and not value_less(option.value, r[3].value)]
        if ties
        else [winner]
    )
    kind: CheckKind = "time" if order.aspect == "time" else "numeric"
    rel = ("早于" if want_min else "晚于") if order.aspect == "time" else ("数值小于" if want_min else "数值大于")
    cmp_checks: list[Check] = []
    for other in valued:
        if any(other[0] is t[0] for t in tied) or len(cmp_checks) >= cfg.max_order_comparisons:
            continue
        o = other[3]
        holds = value_less(option.value, o.value) if want_min else value_less(o.value, option.value)
        if not holds:
            continue
        reach = (other[0].triples[-1],) if other[0].triples else ()
        cmp_checks.append(
            Check(
                kind,
                "order",
                order.text,
                True,
                (*reach, *o.lead, o.edge.triple.spo),
                ((option.edge.triple.obj, rel, o.edge.triple.obj),),
            )
        )
    if not cmp_checks:
        return None  # the attribute does not tell the members apart: not what the superlative compares
    own = [Check(kind, "order", order.text, True, (*t[3].lead, t[3].edge.triple.spo)) for t in tied]
    all_checks = [*(c for t in tied for c in t[2]), *own, *cmp_checks]
    # members that are the values compared answer by their holders unless a value is asked (`哪一方投入的兵力更多`
    # over `X -参战兵力-> 约85000人`: the side, not its number)
    # (a count word read as the form asks a thing when a which-word asks its noun: `采购数量最多的是哪支军队`)
    asks_thing = analysis.form not in VALUE_FORMS or (bool(analysis.type_word) and WHICH in analysis.mapped.norm)
    by_holder = asks_thing and all(
        t[0].edges and t[3].edge is t[0].edges[-1] and index.is_literal(t[0].end) for t in tied
    )
    keys = tuple(dict.fromkeys(t[0].nodes[-2] if by_holder else t[0].end for t in tied))
    chains = [t[0] for t in tied]
    return Candidate(
        tuple(index.name(k) for k in keys),
        keys,
        answer_type_of(index, keys[0], analysis.form) if len(keys) == 1 else "实体集合",
        ordered_path(chains, all_checks),
        sc.total + check_score(checks, cfg) + cfg.check_bonus * (2.0 * named - 1.0),
        tuple(chains),
        tuple(all_checks),
        origin="order",
        features=_features(sc),
    )


def _duration_order_candidate(
    index: KGIndex,
    analysis: Analysis,
    cfg: ReasonerConfig,
    rows: list[tuple[Chain, ChainScore, list[Check]]],
    *,
    ties: bool = False,
) -> Candidate | None:
    """`几个阶段里，哪一个持续的时间最长`: the members' spans, each from its start to its end date (`index.period`),
    compared in code when no stated quantity names the duration; the evidence is every member's two dates (a span
    is no KG value, so no derived triple compares them). None when fewer than two members have both dates, or when
    a relation of a member's values names the duration itself (`持续时长`: the quantity superlative compares it)."""
    order = analysis.order
    assert order is not None
    spans: list[tuple[Chain, ChainScore, list[Check], int, tuple[PathTriple, ...]]] = []
    for chain, sc, checks in rows:
        if any(
            index.quantity(e.dst) is not None and relation_match(e.relation, order.text).score >= SUPPORTED_HOP
            for e in index.value_edges(chain.end)
        ):
            return None
        period = index.period(chain.end)
        if period is None or period.start_triple is None or period.end_triple is None:
            continue
        days = date(*period.hi).toordinal() - date(*period.lo).toordinal()
        spans.append((chain, sc, checks, days, (period.start_triple, period.end_triple)))
    if len(spans) < 2 or len({s[3] for s in spans}) < 2:
        return None
    best = (min if order.direction == "min" else max)(s[3] for s in spans)
    tied = [s for s in spans if s[3] == best] if ties else [next(s for s in spans if s[3] == best)]
    kind: CheckKind = "numeric"
    dated = [Check(kind, "order", order.text, True, s[4]) for s in spans]
    all_checks = [*(c for t in tied for c in t[2]), *dated]
    keys = tuple(dict.fromkeys(t[0].end for t in tied))
    chains = [s[0] for s in spans]
    sc, checks = tied[0][1], tied[0][2]
    return Candidate(
        tuple(index.name(k) for k in keys),
        keys,
        answer_type_of(index, keys[0], analysis.form) if len(keys) == 1 else "实体集合",
        ordered_path(chains, all_checks),
        sc.total + check_score(checks, cfg) + cfg.check_bonus,
        tuple(t[0] for t in tied),
        tuple(all_checks),
        origin="order",
        features=_features(sc),
    )


def chain_candidates(
    index: KGIndex,
    analysis: Analysis,
    cfg: ReasonerConfig,
    external: ExternalScore | None = None,
    relation_prior: Mapping[str, float] | None = None,
) -> tuple[list[Candidate], list[ScoredChain]]:
    """Candidates for entity / set / count / time / number / place questions, best first."""
    scorer = ChainScorer(index, analysis, cfg.weights, relation_prior)
    scored = score_all(index, analysis, cfg, external, scorer)
    starts = key_starts(analysis)
    cands: list[Candidate] = []
    known = {sc.chain.edges: sc.score for sc in scored}
    n_groups = cfg.constrained_top_groups if analysis.times or analysis.numerics else cfg.top_groups
    for start, sig, best in top_groups(scored, n_groups):
        cands.extend(_member_candidates(index, analysis, cfg, start, sig, best, starts, known, scorer))
    return merge_candidates(cands), scored


def merge_candidates(cands: list[Candidate]) -> list[Candidate]:
    """One candidate per answer set (the best-scored evidence), best first; the others become alternatives."""
    by_answer: dict[tuple[str, ...], list[Candidate]] = {}
    for c in sorted(cands, key=lambda c: c.score, reverse=True):
        by_answer.setdefault(tuple(sorted(c.answer_keys or c.answers)), []).append(c)
    out: list[Candidate] = []
    for group in by_answer.values():
        head = group[0]
        extra = tuple(c.main for c in group[1:3] if c.main != head.main)
        if extra:
            head = Candidate(
                head.answers,
                head.answer_keys,
                head.answer_type,
                head.main,
                head.score,
                head.chains,
                head.checks,
                head.alts + extra,
                head.origin,
                head.features,
            )
        out.append(head)
    out.sort(key=lambda c: c.score, reverse=True)
    return out
