"""The reasoner: one question in, one `AnswerRecord` and one trace entry out.

    reasoner = Reasoner(dataset, ReasonerConfig(), llm=None)
    result = reasoner.answer(question)        # QuestionResult(record, trace)

Stages (each a pure function of its inputs, see the modules): link mentions -> analyse the question -> search and
score chains -> build candidates (chains + constraint checks + derived comparisons) -> let the LLM choose among
close candidates -> assemble the record and verify that every triple is in the KG or a derived comparison that
holds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from kgreason.conventions import Conventions
from kgreason.data.records import AnswerRecord, Dataset, Path, PathTriple, Question
from kgreason.kg.compare import check_derived_triple
from kgreason.kg.index import KGIndex
from kgreason.kg.paths import Chain
from kgreason.kg.quantities import in_counter
from kgreason.llm.types import LLM
from kgreason.reason.analysis import Analysis, analyze
from kgreason.reason.arithmetic import asks_difference, difference_candidates, ratio_bool_candidates
from kgreason.reason.candidate import Candidate
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.constraints import constraints_dict
from kgreason.reason.described import Described, described_candidates, find_described
from kgreason.reason.generate import ExternalScore, ScoredChain, chain_candidates
from kgreason.reason.kinds import asked_macro_kinds, macro_kind
from kgreason.reason.lexicon import GENERIC_MEASURE_WORDS, MEASURE_WORDS
from kgreason.reason.link import NameTable, link_mentions
from kgreason.reason.listed import listed_candidates, listed_group
from kgreason.reason.llm_choice import LLMDecision, choose
from kgreason.reason.negation import (
    NegatedGroup,
    find_filtered_group,
    find_negated_group,
    negated_group_candidates,
)
from kgreason.reason.present import INTERNAL, member_types, written_answer, written_constraints, written_path
from kgreason.reason.reading import QuestionReading, read_question
from kgreason.reason.remarks import without_remarks
from kgreason.reason.respectively import respective_parts, respectively_candidates, union_parts
from kgreason.reason.scoring import SUPPORTED_HOP, relation_match
from kgreason.reason.select import Selection, find_selection, select_candidates
from kgreason.reason.special import bool_candidates, choice_candidates, side_comparison_candidates
from kgreason.reason.textmap import map_text
from kgreason.reason.trace import QuestionTrace, SentenceFinder, trace_entry
from kgreason.retrieve.base import Embedder, RelationScorer, TripleScorer, serialize_triple
from kgreason.retrieve.relevance import relevance_probabilities
from kgreason.text.normalize import normalize_text


class EvidenceError(AssertionError):
    """A path triple is neither in the KG nor a derived comparison that holds (a bug, never expected)."""


@dataclass(frozen=True, slots=True)
class QuestionResult:
    record: AnswerRecord
    trace: QuestionTrace


def empty_record(q: Question) -> AnswerRecord:
    """A valid answer with nothing in it (for questions that fail)."""
    return AnswerRecord(q.query_id, q.doc_id, q.question, "", (), (), (), {}, q.difficulty)


def verify_path(path: Path, index: KGIndex, question: str, conventions: Conventions | None = None) -> None:
    """Every triple is the KG's (in its direction) or a derived comparison the program can justify (its relation
    read through `conventions`, default: the project's)."""
    conv = conventions or INTERNAL
    for t in path:
        if conv.is_derived_relation(t[1]) and not index.contains_triple(t):
            reason = check_derived_triple(t, index.triples, question, conv)
            if reason is not None:
                raise EvidenceError(f"derived triple {t} does not hold: {reason}")
        elif not index.contains_triple(t):
            raise EvidenceError(f"triple {t} is not in the KG")


def _valid_path(path: tuple[PathTriple, ...], index: KGIndex, question: str) -> bool:
    try:
        verify_path(path, index, question)
    except EvidenceError:
        return False
    return True


SINGLE_FACT_FALLBACK_HOPS = 2  # a naming hop and the fact: what a writer may still count as one fact


def _of_asked_kind(cands: list[Candidate], index: KGIndex, analysis: Analysis, coarse: bool) -> bool:
    """The best candidate is of the kind the question asks for: its answer-kind score is not negative, and (with
    `coarse` kinds) its answer's coarse kind is not one the question cannot ask (a battle for `什么型号的坦克`)."""
    if not cands or cands[0].features.get("answer_kind", 0.0) < 0:
        return False
    mw = analysis.measure_word
    if cands[0].origin == "count" and len(cands[0].answer_keys) == 1 and mw and mw not in GENERIC_MEASURE_WORDS:
        # a count of one node for `几艘` shows no number in that counter (the KG may state it a hop further)
        return False
    return not coarse or not _of_unasked_macro_kind(cands[0], index, _asked_macro_kinds(index, analysis))


KIND_MISMATCH = -1.0  # an answer-kind score this low: what the candidate answers cannot be what is asked


def _asked_macro_kinds(index: KGIndex, analysis: Analysis) -> frozenset[str]:
    a = analysis
    return asked_macro_kinds(index, a.form, a.person, a.type_word, a.type_word_ends_phrase, a.person_role)


def _macro_kind_of(c: Candidate, index: KGIndex) -> str | None:
    return macro_kind(index, c.answer_keys[0]) if c.answer_keys else None


def _of_unasked_macro_kind(c: Candidate, index: KGIndex, asked: frozenset[str]) -> bool:
    """The candidate's answer has a coarse kind, and not one the question may ask (`asked`, empty: any)."""
    return bool(asked) and (k := _macro_kind_of(c, index)) is not None and k not in asked


def _of_asked_macro_kind_first(cands: list[Candidate], index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """Candidates whose answer is of a coarse kind the question cannot ask (a ship for `哪座城市`, a date for `谁`)
    go after those of a kind it asks, when there are such (`kinds.asked_macro_kinds`)."""
    asked = _asked_macro_kinds(index, analysis)
    if not asked or not any(_macro_kind_of(c, index) in asked for c in cands):
        return cands
    return sorted(cands, key=lambda c: _of_unasked_macro_kind(c, index, asked))


def _stated_count_first(cands: list[Candidate], index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """A how-many question in a counter of its own (`每艘一共能装多少枚导弹`) best answered by counting one node (`1`,
    the missile the chain reached): a number in that counter that a chain going on from that node reaches
    (`… 首装舰型 052C型 载弹量 48枚`) is what the writer asks, not the count of the node itself. A counter of anything
    (`几个`) leaves it to the scores."""
    mw = analysis.measure_word
    if analysis.form != "count" or not mw or mw in GENERIC_MEASURE_WORDS or not cands:
        return cands
    top = cands[0]
    if top.origin != "count" or len(top.chains) != 1:
        return cands
    counted = top.chains[0].edges

    def stated(c: Candidate) -> bool:
        return (
            c.origin != "count"
            and len(c.chains) == 1
            and c.chains[0].edges[: len(counted)] == counted
            and len(c.chains[0].edges) > len(counted)
            and in_counter(index.quantity(c.answer_keys[0]), mw)
        )

    return sorted(cands, key=lambda c: not stated(c))


_COUNTED_PHRASE = re.compile(rf"(?:几|多少)[{MEASURE_WORDS}]([^\W\d_的]{{3,8}}?)(?:呢|吗)?$")


def _named_count_first(cands: list[Candidate], index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """`…一共部署了多少个地空导弹连`: a number stated under a relation that spells the counted noun phrase in full
    (`地空导弹连数量 19个`) answers it before a count of nodes whose kind only shares a part of it (the 地空导弹 a
    deployment used)."""
    found = _COUNTED_PHRASE.search(analysis.mapped.norm) if analysis.form == "count" else None
    if found is None or not cands:
        return cands
    phrase = found.group(1)
    # (the phrase may name a node itself, `几部先进武器升降机`: its own number, `每舰装备数量 11部`, is the count)
    if cands[0].origin != "count" and phrase not in index.nodes:
        return cands

    def stated(c: Candidate) -> bool:
        if c.origin == "count" or len(c.chains) != 1 or not c.chains[0].edges:
            return False
        chain = c.chains[0]
        spelled = phrase in normalize_text(chain.edges[-1].relation)
        own = len(chain.edges) == 1 and chain.start == phrase
        return (spelled or own) and index.quantity(c.answer_keys[0]) is not None

    return sorted(cands, key=lambda c: not stated(c))


def _joined_first(cands: list[Candidate], index: KGIndex, analysis: Analysis) -> list[Candidate]:
    """One fact asked of two names (`跟着右路军行动的那位苏联军事顾问叫什么`): among the candidates tied for the best
    score, one that each name reaches in one triple goes first — the fact joins them (a single fact checks no other
    name)."""
    mentioned = analysis.mention_set
    if len(mentioned) < 2 or not cands:
        return cands

    def joined(c: Candidate) -> bool:
        if len(c.answer_keys) != 1 or c.answer_keys[0] in mentioned:
            return False
        near = {e.dst for e in index.edges(c.answer_keys[0])}
        return len(near & mentioned) >= 2

    first = [c for c in cands if c.score == cands[0].score and joined(c)]
    return first + [c for c in cands if c not in first] if first else cands


def _on_subject_first(cands: list[Candidate], analysis: Analysis) -> list[Candidate]:
    """Candidates whose chain goes to its answer from the name the question's predicate is said of (`…的盟军
    第30军由谁指挥`: 第30军's commander, not that of the battle it is part of) — the last named node of the chain
    before the answer — go first, when one of them answers with the kind asked."""
    subject = analysis.subject
    if not subject:
        return cands
    mentioned = analysis.mention_set

    def on(c: Candidate) -> bool:
        # (a candidate its time window rules out is not promoted: `在X通过的同一天，Y被哪支部队夺回` through Y's other
        # battle; a place the KG does not connect rules out less surely)
        if any(k.kind == "time" and k.ok is False for k in c.checks):
            return False
        return any([n for n in ch.nodes[:-1] if n in mentioned][-1:] == [subject] and said(ch) for ch in c.chains)

    def said(ch: Chain) -> bool:
        # after a comma, the hop out of the subject is one the words after it say (`所属那个军` -> 隶属于), not one
        # of the clause that described it (`投入反击` -> the battle's 反击部队)
        if not analysis.subject_rest:
            return True
        at = ch.nodes.index(subject)
        return at < len(ch.edges) and relation_match(ch.edges[at].relation, analysis.subject_rest).score >= 0.5

    if not any(on(c) and c.features.get("answer_kind", 0.0) > 0 for c in cands):
        return cands
    return sorted(cands, key=lambda c: not on(c))


def _asked_kind_first(cands: list[Candidate], analysis: Analysis) -> list[Candidate]:
    """A question asking which thing or things (`…统率的是哪个集团军`, `…由哪些飞机接替`) is not answered by a
    candidate that cannot be of the kind it names (a date, a thing of another kind) while another candidate is of
    that kind, however well the words of its chain matched (`司令…任命时间` for `统率`): those go last, in their
    order. Values asked for (`多少`) are left to the scores, since a value's kind is read less surely (a range, a
    value with its unit in words)."""
    if analysis.form not in ("entity", "set") or not any(c.features.get("answer_kind", 0.0) > 0 for c in cands):
        return cands
    return sorted(cands, key=lambda c: c.features.get("answer_kind", 0.0) <= KIND_MISMATCH)


def _every_hop_supported(cands: list[Candidate], scored: list[ScoredChain], kind_shown: float) -> bool:
    """Every hop of the best candidate's first chain is supported by the question (a relation word or a named
    node): a hop the question says nothing of is no part of what it asks. The last hop may be supported by the
    question word alone, when what it reaches is shown to be of the kind asked — an answer-kind score of
    `kind_shown` or more, what a node spelling the asked noun earns (`在什么地方签署` -> `发生地点`, `发生了什么故障` ->
    `…设备故障`)."""
    if not cands or not cands[0].chains:
        return False
    score = {sc.chain.edges: sc.score for sc in scored}.get(cands[0].chains[0].edges)
    if score is None:
        return False
    # a hop into an event the next hop leaves along a supported relation needs no words of its own
    hops = [h for i, h in enumerate(score.hop_scores) if i not in score.into_events]
    if hops and cands[0].features.get("answer_kind", 0.0) >= kind_shown:
        hops = hops[:-1]
    if not hops:
        return bool(score.into_events)  # the event's own supported relation spoke for it
    return min(hops) >= SUPPORTED_HOP


def _with_inner_anchors(main: Path, analysis: Analysis) -> Path:
    """The path, led by the triples that join a mentioned node it uses to the names the question spells inside
    that mention (`谢菲尔德号遇袭` -> `[遇袭事件, 受袭舰船, 谢菲尔德号]`), when the path does not reach them itself."""
    if not analysis.inner_anchors or not main:
        return main
    on_path = {normalize_text(x) for t in main for x in (t[0], t[2])}
    lead = [
        t
        for key, t in analysis.inner_anchors
        if key in on_path and not (normalize_text(t[0]) in on_path and normalize_text(t[2]) in on_path)
    ]
    return tuple(dict.fromkeys([*lead, *main])) if lead else main


class _StageClock:
    """Seconds spent per named stage of one question."""

    def __init__(self) -> None:
        self._start = self._last = time.monotonic()
        self.stages: dict[str, float] = {}

    def lap(self, stage: str) -> None:
        now = time.monotonic()
        self.stages[stage] = self.stages.get(stage, 0.0) + now - self._last
        self._last = now

    def total(self) -> float:
        return time.monotonic() - self._start

    def rounded(self) -> dict[str, float]:
        return {k: round(v, 6) for k, v in self.stages.items()}


class Reasoner:
    """Answers questions of one dataset. Holds one KG index per document (built on first use)."""

    def __init__(
        self,
        dataset: Dataset,
        config: ReasonerConfig | None = None,
        *,
        llm: LLM | None = None,
        scorer: TripleScorer | None = None,
        embedder: Embedder | None = None,
        conventions: Conventions | None = None,
        relations: RelationScorer | None = None,
    ) -> None:
        self.dataset = dataset
        self.config = config or ReasonerConfig()
        self.conventions = conventions or INTERNAL  # how answers are written (kgreason.conventions)
        self.relations = relations  # a learned question-relation matcher (kgreason.retrieve.relation_matcher)
        self.llm = llm
        self.scorer = scorer
        self.embedder = embedder
        self._indexes: dict[str, KGIndex] = {}
        self._sentences: dict[str, SentenceFinder] = {}
        self._names: dict[str, NameTable] = {}

    def prepare(self, doc_ids: Sequence[str] | None = None) -> None:
        """Build the per-document structures (KG index, typed values, name tables, sentences) up front, so that
        answering time excludes loading. Optional: they are otherwise built on first use."""
        for doc_id in doc_ids if doc_ids is not None else list(self.dataset.kgs):
            index = self.index(doc_id)
            index.vocabulary  # noqa: B018 - cached properties, computed now
            index.date("")
            index.quantity("")
            self.names(doc_id)
            self.sentences(doc_id)

    def index(self, doc_id: str) -> KGIndex:
        if doc_id not in self._indexes:
            self._indexes[doc_id] = KGIndex(doc_id, self.dataset.kgs.get(doc_id, ()))
        return self._indexes[doc_id]

    def names(self, doc_id: str) -> NameTable:
        if doc_id not in self._names:
            self._names[doc_id] = NameTable(self.index(doc_id))
        return self._names[doc_id]

    def sentences(self, doc_id: str) -> SentenceFinder:
        if doc_id not in self._sentences:
            doc = self.dataset.documents.get(doc_id)
            self._sentences[doc_id] = SentenceFinder(doc.content if doc else "")
        return self._sentences[doc_id]

    # ------------------------------------------------------------------------------------------------------
    def analyse(self, q: Question) -> tuple[KGIndex, Analysis]:
        index = self.index(q.doc_id)
        text = without_remarks(q.question, index.nodes.keys())  # `有几个（支队不算）`: an aside, not the question
        mapped = map_text(text)
        mentions = link_mentions(self.names(q.doc_id), mapped, fuzzy=self.config.fuzzy_linking)
        analysis = analyze(text, mapped, mentions, index)
        if not analysis.mentions and mentions and self.config.fuzzy_linking:
            # the analysis set aside every weak link (one spanning the asked noun: `采购海马斯的欧洲国家` is no spelling
            # of the value `首个采购海马斯的欧洲国家`), and with them the names they had displaced: link by name only
            strict = link_mentions(self.names(q.doc_id), mapped, fuzzy=False)
            if strict:
                analysis = analyze(text, mapped, strict, index)
        return index, analysis

    def candidates(
        self,
        q: Question,
        index: KGIndex,
        analysis: Analysis,
        sel: Selection | None = None,
        negated: NegatedGroup | None = None,
        described: Described | None = None,
    ) -> tuple[list[Candidate], list[ScoredChain]]:
        cfg = self.config
        if cfg.differences and analysis.form == "bool":
            # `A是否超过了B的两倍`: one value against a multiple of another, computed in code
            ratio = ratio_bool_candidates(index, analysis)
            if ratio:
                return ratio, []
        if cfg.differences and asks_difference(analysis):
            # `A比B多出几架`, `相隔多少年`: two values subtracted in code, whatever else the question's shape
            picked = difference_candidates(index, analysis)
            if picked:
                return picked, []
        if analysis.form in ("entity", "set"):
            # `交战双方哪一方的伤亡更多`: the sides' values compared, whatever else the question's shape
            sides = side_comparison_candidates(index, analysis)
            if sides:
                return sides, []
        whole: tuple[list[Candidate], list[ScoredChain]] | None = None  # the plain chain search, once
        if described is not None:
            whole = self._chains_and_groups(q, index, analysis, cfg)
            top = whole[0][0] if whole[0] else None
            # (the nodes the whole question's best chain passes through on the way to its answer, not the answer)
            on_path = frozenset(n for ch in top.chains for n in ch.nodes) - set(top.answer_keys) if top else frozenset()
            picked = described_candidates(
                index, q.question, described, lambda text: self._part_candidates(q, text), on_path=on_path
            )
            if picked:
                return picked, []
        if sel is not None:
            picked = select_candidates(index, analysis, sel, cfg, self._external(q.question))
            if picked:
                return picked, []
        if negated is not None:

            def ask(text: str) -> list[Candidate]:
                return self._part_candidates(q, text)

            kept = negated_group_candidates(index, analysis, negated, ask)
            if kept and negated.then and len(kept[0].answer_keys) == 1:
                # `…，有一个不属于X，它的军长是谁`: the rest asked of the one member left
                then = described_candidates(index, q.question, Described("", negated.then, "", ""), ask, kept[0])
                if then:
                    return then, []
            if kept:
                return kept, []
        if q.difficulty in cfg.single_fact_levels and analysis.form not in ("bool", "choice"):
            # one fact (docs/annotation.md): one hop, no constraint checks, so a place the question marks may start
            # it (`在“蓝滩”上岸的是哪个团`) — unless one hop reaches nothing of the asked kind and two hops, each
            # supported by the question's words, do (`1144型核动力巡洋舰是由哪个设计局…`: the writer names the ship by
            # its code, a value one hop from it, and counts the fact as one), or one hop answers nothing at all
            one_fact = replace(analysis, times=(), numerics=(), order=None, roles={})
            one = self._chains_and_groups(q, index, one_fact, replace(cfg, max_hops=1, entity_checks=False))
            one = (_joined_first(one[0], index, analysis), one[1])
            coarse = cfg.coarse_kinds
            if _of_asked_kind(one[0], index, analysis, coarse) or not cfg.single_fact_fallback:
                return one
            full = self._chains_and_groups(q, index, analysis, replace(cfg, max_hops=SINGLE_FACT_FALLBACK_HOPS))
            if not one[0]:
                return full  # one hop answers nothing at all: two hops may
            best = _of_asked_macro_kind_first(full[0], index, analysis) if coarse else full[0]
            of_kind = _of_asked_kind(best, index, analysis, coarse)
            if of_kind and all(c.features.get("answer_kind", 0.0) <= KIND_MISMATCH for c in one[0]):
                return full  # nothing one hop reaches can be what is asked (a road for `有多长`): two hops may
            return full if of_kind and _every_hop_supported(best, full[1], cfg.weights.type_match) else one
        return whole if whole is not None else self._chains_and_groups(q, index, analysis, cfg)

    def _chains_and_groups(
        self, q: Question, index: KGIndex, analysis: Analysis, cfg: ReasonerConfig
    ) -> tuple[list[Candidate], list[ScoredChain]]:
        group = listed_group(analysis)
        if group:
            cands, scored = listed_candidates(index, analysis, group, cfg)
            if cands:
                return cands, scored
        parts = respective_parts(analysis) or union_parts(analysis)
        if parts:
            cands, scored = respectively_candidates(
                index, parts, cfg, self._external(q.question), self._prior(q, index)
            )
            if cands:
                return cands, scored
        cands, scored = chain_candidates(index, analysis, cfg, self._external(q.question), self._prior(q, index))
        if analysis.form == "bool":
            cands = bool_candidates(index, analysis, cfg, scored)
        elif analysis.form == "choice":
            cands = choice_candidates(index, analysis) or cands
        return cands, scored

    def _part_candidates(self, q: Question, text: str) -> list[Candidate]:
        """`text` (a part of `q` asked as a question of its own: a group clause `…有哪些`, a description) answered on
        `q`'s document by every builder but those that split a question into parts (so a part is not split again)."""
        part = Question(q.query_id, q.doc_id, text, "L2")  # a part of a question is never one fact
        index, analysis = self.analyse(part)
        cands, _ = self.candidates(part, index, analysis)
        return _of_asked_macro_kind_first(cands, index, analysis) if self.config.coarse_kinds else cands

    def answer(self, q: Question) -> QuestionResult:
        """Stages, each timed (the trace's `seconds_by_stage`): understand (link names, analyse the question),
        search (chains, checks, candidates), choose (the LLM among close candidates, if configured), assemble
        (the record, verified against the KG), explain (the trace with source sentences)."""
        clock = _StageClock()
        index, analysis = self.analyse(q)
        sel = find_selection(analysis) if self.config.select_then_ask and analysis.form != "bool" else None
        if sel is not None:
            analysis = replace(analysis, comparative_text=sel.text)
        negated = find_negated_group(analysis) if self.config.negated_groups and sel is None else None
        if negated is None and self.config.filtered_groups and sel is None:
            negated = find_filtered_group(analysis)  # `X中，编入Y的有哪些`: the same group test, kept positive
        if negated is not None:
            analysis = replace(analysis, form=negated.form)  # `几款机型里，哪些…`: asked by the words after the group
        described = (
            find_described(analysis) if self.config.described_then_ask and sel is None and negated is None else None
        )
        reading = (
            read_question(self.llm, analysis, index, max_tokens=self.config.llm_read_max_tokens)
            if self.config.llm_reads_question
            else QuestionReading(False, "", "off in the config")
        )
        if reading.asked_type:
            analysis = replace(analysis, read_type=reading.asked_type)
        clock.lap("understand")
        cands, scored = self.candidates(q, index, analysis, sel, negated, described)
        cands = [c for c in cands if _valid_path(c.main, index, q.question)]
        if self.config.coarse_kinds:
            cands = _of_asked_macro_kind_first(cands, index, analysis)
        cands = _stated_count_first(_asked_kind_first(_on_subject_first(cands, analysis), analysis), index, analysis)
        cands = _named_count_first(cands, index, analysis)
        shown = cands[: self.config.llm_candidates]
        clock.lap("search")
        pre_constraints = constraints_dict(analysis, shown[0] if shown else None, self._single_fact(q))
        decision = choose(
            self.llm,
            analysis,
            shown,
            pre_constraints,
            margin=self.config.llm_margin,
            max_tokens=self.config.llm_max_tokens,
            confirm_single=self.config.llm_confirm_single,
        )
        clock.lap("choose")
        chosen = shown[decision.chosen] if shown else None
        record = self.assemble(q, index, analysis, chosen)
        verify_path(record.main_path, index, q.question, self.conventions)
        for alt in record.alt_paths:
            verify_path(alt, index, q.question, self.conventions)
        clock.lap("assemble")
        trace = trace_entry(
            q, index, analysis, scored, shown, decision, record, self.sentences(q.doc_id), clock.total()
        )
        clock.lap("explain")
        return QuestionResult(record, replace(trace, reading=reading, seconds_by_stage=clock.rounded()))

    def assemble(self, q: Question, index: KGIndex, analysis: Analysis, cand: Candidate | None) -> AnswerRecord:
        conv = self.conventions
        if cand is None:
            constraints = constraints_dict(analysis, None, self._single_fact(q))
            return replace(empty_record(q), constraints=written_constraints(constraints, conv, q.difficulty))
        # values asked for "respectively" (`射程分别是多少`) are a list of values, not a set of things
        values = cand.origin == "respectively" and all(index.is_literal(k) for k in cand.answer_keys)
        is_set = (
            analysis.form == "set" and cand.origin not in ("bool", "count") and not values and len(cand.answers) >= 1
        )
        answer_type, answers = written_answer(
            cand.answer_type,
            cand.answers,
            origin=cand.origin,
            is_set=is_set,
            member_types=member_types(index, cand.answer_keys),
            measure_word=analysis.measure_word,
            conv=conv,
        )
        alts = tuple(a for a in cand.alts if a and a != cand.main and _valid_path(a, index, q.question))
        main = _with_inner_anchors(cand.main, analysis)
        return AnswerRecord(
            query_id=q.query_id,
            doc_id=q.doc_id,
            question=q.question,
            answer_type=answer_type,
            answers=answers,
            main_path=written_path(main, index, conv),
            alt_paths=tuple(written_path(a, index, conv) for a in alts[: self.config.alt_paths]),
            constraints=written_constraints(constraints_dict(analysis, cand, self._single_fact(q)), conv, q.difficulty),
            difficulty=q.difficulty,
        )

    def _prior(self, q: Question, index: KGIndex) -> dict[str, float] | None:
        """The learned matcher's relative belief in each relation of the question's KG (normalised names)."""
        if self.relations is None or not index.relations:
            return None
        names = sorted(index.relation_names)
        scores = self.relations.score(q.question, names)
        # softmax over the candidates, relative to the best (1.0 for it, near 0 far below it)
        probs = relevance_probabilities(scores, self.config.relation_temperature)
        top = max(probs)
        return {name: p / top for name, p in zip(names, probs, strict=True)}

    def _single_fact(self, q: Question) -> bool:
        return q.difficulty in self.config.single_fact_levels

    # ------------------------------------------------------------------------------------------------------
    def _external(self, question: str) -> ExternalScore | None:
        """Relevance of chains from the trained triple scorer and/or the embedder, scaled to [0, 1]."""
        scorer, embedder = self.scorer, self.embedder
        if scorer is None and embedder is None:
            return None

        def score(chains: Sequence[Chain]) -> list[float] | None:
            parts: list[list[float]] = []
            if scorer is not None:
                triples = list(dict.fromkeys(t for c in chains for t in c.triples))
                raw = scorer.score(question, triples)
                lo, hi = (min(raw), max(raw)) if raw else (0.0, 1.0)
                span = (hi - lo) or 1.0
                by_triple = {t: (s - lo) / span for t, s in zip(triples, raw, strict=True)}
                parts.append([sum(by_triple[t] for t in c.triples) / max(1, len(c.triples)) for c in chains])
            if embedder is not None:
                texts = ["; ".join(serialize_triple(t) for t in c.triples) for c in chains]
                qv = embedder.embed_queries([question])[0]
                pv = embedder.embed_passages(texts)
                sims = (pv @ qv).astype(np.float64).tolist()
                lo, hi = min(sims), max(sims)
                span = (hi - lo) or 1.0
                parts.append([(s - lo) / span for s in sims])
            return [sum(p[i] for p in parts) / len(parts) for i in range(len(chains))]

        return score


__all__ = ["EvidenceError", "LLMDecision", "QuestionResult", "Reasoner", "empty_record", "verify_path"]
