"""The record passed from candidate generation to choice and assembly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kgreason.data.records import PathTriple
from kgreason.kg.paths import Chain
from kgreason.reason.checks import Check


@dataclass(frozen=True, slots=True)
class Candidate:
    """One possible answer with the evidence that supports it.

    `main` is the ordered main path (chains first, then each check's triples followed by its derived triples);
    `alts` are further sufficient paths. `answer_keys` are node keys (empty for yes/no and counts).
    """

    answers: tuple[str, ...]
    answer_keys: tuple[str, ...]
    answer_type: str
    main: tuple[PathTriple, ...]
    score: float
    chains: tuple[Chain, ...] = ()
    checks: tuple[Check, ...] = ()
    alts: tuple[tuple[PathTriple, ...], ...] = ()
    origin: str = "chain"  # which builder made it: chain / bool / choice / order
    features: dict[str, float] = field(default_factory=dict)


def dedupe(triples: list[PathTriple] | tuple[PathTriple, ...]) -> tuple[PathTriple, ...]:
    return tuple(dict.fromkeys(triples))


def ordered_path(chains: list[Chain], checks: list[Check]) -> tuple[PathTriple, ...]:
    """The annotation's order: chain triples first (one chain per answer member), then each check's KG triples
    followed by its derived comparison triples.

    An entity check that joins another key entity of the question (not a side / place / type constraint) to the
    chain's *start* is written first: that entity is where the reasoning begins (`环太平洋-2018 <-所属演习-
    实弹击沉演练 -使用武器-> …`).
    """
    start = chains[0].start if chains else ""
    ends = {c.end for c in chains}
    lead = [
        c
        for c in checks
        if c.kind == "entity" and c.key is None and c.anchor == start and start not in ends and c.triples
    ]
    out: list[PathTriple] = []
    for chk in lead:
        out.extend(chk.triples)
    for c in chains:
        out.extend(c.triples)
    for chk in checks:
        if chk in lead:
            continue
        out.extend(chk.triples)
        out.extend(chk.derived)
    return dedupe(out)


def joined(
    parts: Sequence[Candidate], answers: tuple[str, ...], keys: tuple[str, ...], answer_type: str, origin: str
) -> Candidate:
    """One candidate made of several (the parts of a "respectively" question, the listed names that pass): their
    evidence in order, as sure as the least sure of them."""
    return Candidate(
        answers=answers,
        answer_keys=keys,
        answer_type=answer_type,
        main=dedupe([t for c in parts for t in c.main]),
        score=min(c.score for c in parts),
        chains=tuple(ch for c in parts for ch in c.chains),
        checks=tuple(chk for c in parts for chk in c.checks),
        origin=origin,
    )
