"""`ReasonerConfig`: every knob of the reasoner, with its default and what it does."""

from __future__ import annotations

from dataclasses import dataclass, field

from kgreason.errors import KgreasonError
from kgreason.reason.scoring import Weights


@dataclass(frozen=True, slots=True)
class ReasonerConfig:
    """Configuration of `kgreason run` / `Reasoner`.

    Search:
        max_hops: longest chain searched from a question's entity (1-4; the task's L2 chains have 2-3 hops, one
            more where a fact is stored as an event node: ship <- event -> aircraft -> maker -> country).
        beam: partial chains kept per depth (by relation evidence) for extension to the next depth.
        max_chains: cap on chains enumerated per question (protects hub-heavy KGs).
        top_groups: relation patterns (start entity + relation sequence) turned into answer candidates.
        constrained_top_groups: the same when the question states a time window or a threshold: the checks tell
            candidates apart, so weaker-named patterns are worth checking (costs time per such question).
        max_set_size: most members a set answer may list.
        entity_checks: check that the answer connects to the question's other entities.
        select_then_ask: a comparison clause ending in 的那一X picks one member first and the rest of the question
            is asked of it (reason/select.py); off for the ablation.
        negated_groups: `X中，哪些没有Y`: the group the clause before 中 describes is answered first, and its members
            that have what is negated are left out (reason/negation.py).
        filtered_groups: `X中，编入Y的有哪些`: the group is answered first and the members connected to the name the
            filter links are kept (the negated groups' test, positive; reason/negation.py).
        described_then_ask: `…的那艘核潜艇，是哪个国家的`: the clause describing one thing is answered first, and the
            rest of the question is asked of that thing by name (reason/described.py).
        relation_rescue: when no chain from the question's linked names has a hop its words support, chains also start
            from the subjects of the relation the words match nearly in full, if few nodes have it (`为母港`, `最初…
            代号`; generate.matched_relation_anchors), below chains from linked names; also when it names nothing.
        differences: `A比B多出几架`, `X之后过了几天，Y`, `相隔多少年`: the best-named dates or numbers of the question's
            two sides are subtracted in code, and the difference (days / months / years between dates) is the answer
            (reason/arithmetic.py); likewise a yes/no on a multiple (`A是否超过了B的两倍`) is computed in code.
        single_fact_levels: difficulty labels whose questions state one fact (spec 000: L1 is single-hop): for
            them the search takes one hop, no entity checks run and only the question's own time / threshold /
            order wording becomes a constraint. Empty: the label is ignored (measured: the sample's and
            ccks_ext_dev's L1 lose 0.07 and 0.05 without it).
        single_fact_fallback: when one hop reaches nothing of the asked kind (its best candidate's answer-kind
            score is negative, or there is none) and a search of two hops does, along hops the question's words
            support (a relation word or a named node each; the last one may rest on the question word when it
            reaches a node shown of the asked kind, scored `weights.type_match` or more), the two-hop candidates
            are taken — any two hops when one hop answers nothing, or nothing that can be of the asked kind (a road
            for `有多长`): a writer may count a fact about a thing named by one of its values (`1144型…巡洋舰`), or
            about an event only described, as one fact.
        fuzzy_linking: also link names the question spells a little differently (character-bigram coverage).
        coarse_kinds: candidates whose answer is of a coarse kind (date, quantity, person, event, place,
            organisation, thing: reason/kinds.py) the question cannot ask go after those of one it can; off, with
            the type weights at 0, for the ablation without the asked-type check.
    Scoring:
        weights: weights of the chain score (relation coverage, mean relation match, answer kind, hops, external
            relevance model / embedder).
        check_bonus / check_penalty / check_unknown: added per constraint a candidate satisfies / violates /
            cannot be checked on.
        external_top: how many of the best lexically scored chains the external relevance model re-ranks.
        relation_temperature: softens (> 1) or sharpens (< 1) the learned relation matcher's scores before they
            become each relation's relative belief (`weights.learned_relation` says how much that counts).
        marked_start_penalty: subtracted when a chain starts from an entity the question marks as a side or place
            constraint (`隶属于X`), or from a name that modifies the next one (`A的B`) without passing through it,
            while other entities could start it.
    LLM:
        llm_candidates: candidates shown to the LLM (sorted by score ascending, most relevant last).
        llm_margin: the LLM is asked only when the best two candidates' scores are closer than this (or the
            answer form is ambiguous); 0 never asks, a large value always asks.
        llm_max_tokens: generation budget of one choice (the reply is a tiny JSON object).
        llm_confirm_single: also ask when there is a single candidate (off: nothing to choose).
        llm_reads_question: where a question asks for an entity without naming its kind, the LLM picks the asked
            type among the KG's node types (reason/reading.py; `weights.read_type` says how much it counts). Off by
            default (`kgreason run --read-question`): measured no gain on the sample and ccks_ext_dev (method.md).
        llm_read_max_tokens: generation budget of that reading.
    Output:
        alt_paths: most alternative paths written per question.
        max_order_comparisons: for superlative questions, other members compared with the winner on the main
            path (each adds a value triple and a derived comparison).
    """

    max_hops: int = 4
    beam: int = 48
    max_chains: int = 20000
    top_groups: int = 8
    constrained_top_groups: int = 16
    max_set_size: int = 40
    entity_checks: bool = True
    differences: bool = True
    relation_rescue: bool = True
    single_fact_levels: tuple[str, ...] = ("L1",)
    single_fact_fallback: bool = True
    select_then_ask: bool = True
    negated_groups: bool = True
    filtered_groups: bool = True
    described_then_ask: bool = True
    fuzzy_linking: bool = True
    coarse_kinds: bool = True
    weights: Weights = field(default_factory=Weights)
    check_bonus: float = 0.6
    check_penalty: float = 1.5
    check_unknown: float = -0.4
    marked_start_penalty: float = 0.4
    external_top: int = 40
    relation_temperature: float = 1.0
    llm_candidates: int = 4
    llm_margin: float = 0.3
    llm_max_tokens: int = 24
    llm_confirm_single: bool = False
    llm_reads_question: bool = False
    llm_read_max_tokens: int = 24
    alt_paths: int = 2
    max_order_comparisons: int = 3

    def __post_init__(self) -> None:
        if not 1 <= self.max_hops <= 4:
            raise KgreasonError(f"max_hops must be between 1 and 4, got {self.max_hops}")
        if self.beam < 1:
            raise KgreasonError(f"beam must be >= 1, got {self.beam}")
        if self.llm_candidates < 2:
            raise KgreasonError(f"llm_candidates must be >= 2, got {self.llm_candidates}")
