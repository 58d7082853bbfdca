"""Which of the listed names satisfies the rest of the question (`甲国、丁国和戊国中，哪个国家属于丙联盟？`).

The question names the candidates itself, so the usual answer-kind rule ("a node the question names is not the
answer") does not apply to them. Each listed name is asked the rest of the question as a yes/no question (is it
joined to the question's other names by the relation words left?), with the yes/no builder's own evidence; the
names that pass are the answer — every one for a set question, else the best-supported one. A comparison over the
list (`A、B中射程最远的`) is the which-of builder's (`special.choice_candidates`), and a question without another
name to join (`A、B中哪个是驱逐舰`) is left to the chain search — unless it sets the members a threshold or a date
(`A、B、C这几种改进型里，战斗全重超过44吨的有哪几种`): the members that meet it are the answer, with their values.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kgreason.kg.index import KGIndex
from kgreason.kg.paths import Chain
from kgreason.reason.analysis import Analysis, listed_names
from kgreason.reason.candidate import Candidate, dedupe, joined
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.generate import ScoredChain, answer_type_of, chain_candidates, key_starts, run_checks
from kgreason.reason.lexicon import AMONG_WORDS, MEASURE_WORDS, SEVERAL_WORD
from kgreason.reason.link import Mention
from kgreason.reason.scoring import SUPPORTED_HOP
from kgreason.reason.special import bool_candidates


def listed_group(analysis: Analysis) -> tuple[Mention, ...]:
    """The names listed before `中` / `里` (`A、B和C中`, or with a word for them between: `A、B、C这几种改进型里`)
    when the question also names something else to join them to, or a threshold or date each must meet; ()
    otherwise."""
    if analysis.form in ("bool", "choice"):
        return ()
    nq = analysis.mapped.norm
    starts = set(key_starts(analysis))
    for group in listed_names(nq, [m for m in analysis.mentions if m.key in starts], analysis.mapped):
        after = nq[group[-1].end :]
        if not after.startswith(AMONG_WORDS) and not _NAMED_AS_GROUP.match(after):
            continue
        listed = {m.key for m in group}
        if any(k not in listed for k in starts) or _filters_members(analysis, group):
            return group
    return ()


# `这几种改进型里`: the listed names said again as a group of several, then the among-word
_NAMED_AS_GROUP = re.compile(
    rf"[这那]?(?:{SEVERAL_WORD})?[{MEASURE_WORDS}]?[^，,的]{{0,6}}?(?:{'|'.join(AMONG_WORDS)})"
)


def _filters_members(analysis: Analysis, group: tuple[Mention, ...]) -> bool:
    """A threshold or date after the list (`…里，战斗全重超过44吨的有哪几种`) that each member must meet itself."""
    end = group[-1].end
    return any(t.start >= end for t in analysis.numerics) or any(w.start >= end for w in analysis.times)


def listed_candidates(
    index: KGIndex, analysis: Analysis, group: tuple[Mention, ...], cfg: ReasonerConfig
) -> tuple[list[Candidate], list[ScoredChain]]:
    """The listed names that pass, each with its yes/no evidence ([] when none does)."""
    listed = {m.key for m in group}
    others = tuple(m for m in analysis.mentions if m.key not in listed)
    if _filters_members(analysis, group):
        # (a name the list completes, `T-72的A、B`, is no other name to join to: the members meet the filter or not)
        filtered = _filtered_members(index, analysis, group)
        starts = set(key_starts(analysis))
        if filtered or not any(m.key in starts for m in others):
            return filtered, []
    passed: list[tuple[str, Candidate]] = []
    scored_all: list[ScoredChain] = []
    for member in group:
        asked = replace(analysis, mentions=(member, *others), form="bool", type_word="", type_text="")
        _cands, scored = chain_candidates(index, asked, cfg)
        scored_all.extend(scored[:3])
        verdict = bool_candidates(index, asked, cfg, scored)
        if verdict and verdict[0].answers == ("是",) and verdict[0].main and _every_hop_supported(verdict[0], scored):
            passed.append((member.key, verdict[0]))
    if not passed:
        return [], scored_all
    if analysis.form != "set":
        passed = [max(passed, key=lambda kc: kc[1].score)]
    keys = tuple(k for k, _ in passed)
    names = tuple(index.name(k) for k in keys)
    return [joined([c for _, c in passed], names, keys, answer_type_of(index, keys[0], "entity"), "listed")], scored_all


def _filtered_members(index: KGIndex, analysis: Analysis, group: tuple[Mention, ...]) -> list[Candidate]:
    """The listed names that meet every threshold and date the question sets them, each with its checks' evidence
    (its value and the derived comparison); [] when none does or the checks tell none apart."""
    rows = [(m.key, run_checks(index, Chain(m.key, ()), analysis, [])) for m in group]
    passed = [(k, checks) for k, checks in rows if checks and all(c.ok for c in checks)]
    if not passed or len(passed) == len(rows):
        return []
    keys = tuple(k for k, _ in passed)
    checks = tuple(c for _, cs in passed for c in cs)
    main = dedupe([t for c in checks for t in (*c.triples, *c.derived)])
    form = "set" if analysis.form == "set" else "entity"
    kind = answer_type_of(index, keys[0], form) if len(keys) == 1 else "实体集合"
    names = tuple(index.name(k) for k in keys)
    return [Candidate(names, keys, kind, main, 0.0, tuple(Chain(k, ()) for k in keys), checks, origin="listed")]


def _every_hop_supported(verdict: Candidate, scored: list[ScoredChain]) -> bool:
    """Each hop of the joining chain is supported by the question's words or a node it names: a yes/no question
    accepts a long detour whose one strong hop carries the mean (`赤城号 <-损失舰艇- 海战 -参战方-> 日本海军 <-隶属于-
    苍龙号 -编入-> 第二航空战队`), but among listed names that detour would let every name pass."""
    by_chain = {sc.chain: sc for sc in scored}
    return all(
        (sc := by_chain.get(ch)) is not None and min(sc.score.hop_scores, default=0.0) >= SUPPORTED_HOP
        for ch in verdict.chains
    )
