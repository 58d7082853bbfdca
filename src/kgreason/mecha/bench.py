"""The Mecha-QA benchmark of spec 001 (表 5 and 表 7) with the models that run here.

Every setup answers from the question entities' 1-hop subgraph (the paper's G_s, with the dataset's `实体` as the
question entities, as in the paper) and states the answer with the same program rule (`answering.answer_text`,
after `expand_comparison`); setups differ only in how the triple is chosen:

| setup | choice | what the LLM sees |
|---|---|---|
| `emb-cosine` | best e5 cosine (the paper's m3e baseline, untrained encoder), grown to the question's need | — |
| `bm25` | best character/bigram BM25 over the candidates, grown to the question's need | — |
| `rem` | best trained relevance score (ReM alone), grown to the question's need (`mecha.need`) | — |
| `rem-top1` | the best trained relevance score only (plus each other entity's triple of its relation) | — |
| `llm-kg` | LLM (LLM + KG-Triples) | the subgraph in KG order, no scores |
| `ours` | LLM | scores (softmax of ReM logits), ascending, most relevant last |
| `ours-wo-scores` | LLM | ascending by ReM, no scores shown (表 7 "w/o scores") |
| `ours-wo-sort` | LLM | scores shown, KG order (表 7 "w/o sort") |
| `ours-ids-down` | LLM | as `ours`, but the ids count down (`Tn..T1`): the last, most relevant line is `T1` |
| `ours-top5` | LLM | as `ours`, only the 5 best-scored candidates |
| `ours-set` | LLM chooses a set (`minItems`/`maxItems` from the question's need) | as `ours` |
| `ours-gated` | ReM when its top probability >= 0.9, else LLM | as `ours-top5` |
| `rem-gated` | as `rem`; below the gate the LLM picks the first triple, then grown to the need | as `ours-top5` |
| `ours-set-gated` | as `rem`; below the gate the LLM chooses the set | as `ours-set` |

Comparisons and yes/no questions are then answered by the program from the chosen values (`mecha.verdict`).

Metrics: Accuracy (the answer text contains every answer entity, `mecha.data.answer_entities`), gold recall and
precision of the chosen triples (also per number of gold triples: 1, 2, 3-4, 5+), triples chosen per question,
LLM-Score (when a judge model is given), seconds and LLM tokens per question.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from kgreason.data.records import PathTriple
from kgreason.errors import KgreasonError, Problem
from kgreason.llm.types import LLM
from kgreason.mecha.answering import Choice, answer_text, choose_top, choose_with_llm, expand_comparison
from kgreason.mecha.data import MechaItem, SubgraphIndex, answer_entities, answer_is_correct, same_triple
from kgreason.mecha.need import read_need, relevance_scale, select_needed
from kgreason.mecha.prompts import LabelStyle
from kgreason.mecha.verdict import compare_chosen
from kgreason.retrieve.base import TripleScorer
from kgreason.retrieve.relevance import relevance_probabilities

Ranker = Literal["cosine", "bm25", "trained", "none"]
Selection = Literal["one", "need", "llm-set"]
# Chosen on the held-out 20% of train.jsonl: every validation question whose top relevance probability was >= 0.9
# (72 of 94 with two or more candidates) had a gold triple on top; below it, 16 of 22.
GATE = 0.9


@dataclass(frozen=True, slots=True)
class Setup:
    name: str
    ranker: Ranker
    llm: bool
    sort: bool = True
    show_scores: bool = True
    top_k: int | None = None
    # Ask the LLM only when the ranker's top probability is below this (else take the ranker's choice).
    gate: float | None = None
    # Number the listed triples Tn..T1 (the last, most relevant line is T1) instead of T1..Tn.
    ids_descending: bool = False
    # "one": the chosen triple (plus each other entity's triple of its relation); "need": grown to what the
    # question needs (`mecha.need`: several properties, a set, conditions, entities); "llm-set": the LLM
    # chooses the set, bounded by what the wording and the ranker's cut propose.
    select: Selection = "one"
    description: str = ""


SETUPS: dict[str, Setup] = {
    s.name: s
    for s in (
        Setup(
            "emb-cosine",
            "cosine",
            False,
            select="need",
            description="best e5 cosine triples as the question needs them, no LLM (paper: m3e)",
        ),
        Setup("bm25", "bm25", False, select="need", description="best BM25 triples as the question needs them, no LLM"),
        Setup(
            "rem",
            "trained",
            False,
            select="need",
            description="best trained-relevance triples as the question needs them, no LLM",
        ),
        Setup("rem-top1", "trained", False, description="the best trained-relevance triple only, no LLM"),
        Setup("llm-kg", "none", True, sort=False, show_scores=False, description="LLM + KG-Triples"),
        Setup("ours", "trained", True, description="LLM, scores + ascending sort"),
        Setup("ours-wo-scores", "trained", True, show_scores=False, description="LLM, ascending sort, no scores"),
        Setup("ours-wo-sort", "trained", True, sort=False, description="LLM, scores, KG order"),
        Setup(
            "ours-ids-down",
            "trained",
            True,
            ids_descending=True,
            description="as ours, ids counted down so the most relevant (last) line is T1",
        ),
        Setup("ours-top5", "trained", True, top_k=5, description="LLM, scores + sort, top 5 candidates"),
        Setup(
            "ours-set",
            "trained",
            True,
            select="llm-set",
            description="as ours, the LLM chooses a set of triples (minItems/maxItems from the question's need)",
        ),
        Setup(
            "rem-gated",
            "trained",
            True,
            top_k=5,
            gate=GATE,
            select="need",
            description=f"as rem; when the top relevance probability < {GATE} the LLM picks the first triple among "
            "the 5 best, then grown to the question's need",
        ),
        Setup(
            "ours-set-gated",
            "trained",
            True,
            gate=GATE,
            select="llm-set",
            description=f"as rem; when the top relevance probability < {GATE} the LLM chooses the set as in ours-set",
        ),
        Setup(
            "ours-gated",
            "trained",
            True,
            top_k=5,
            gate=GATE,
            description=f"as ours-top5, LLM only when the top relevance probability < {GATE}",
        ),
    )
}
DEFAULT_SETUPS: tuple[str, ...] = tuple(SETUPS)


@dataclass(slots=True)
class ItemResult:
    setup: str
    index: int  # 0-based position in the QA file
    question: str
    answer: str
    answer_entities: list[str]
    correct: bool
    chosen: list[list[str]]
    gold_recall: float
    precision: float
    n_candidates: int
    seconds: float
    n_gold: int = 0
    verdict: str | None = None  # the program's comparison of the chosen values (`mecha.verdict`)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_cached: bool = False
    failure: str | None = None
    llm_score: int | None = None


@dataclass(slots=True)
class Summary:
    setup: str
    description: str
    n: int
    accuracy: float
    gold_recall: float
    precision: float
    mean_chosen: float
    failures: int
    seconds_per_question: float | None  # over questions whose LLM reply was not served from the cache
    tokens_per_question: float
    cached: int
    llm_score: float | None = None
    llm_score_failed: int = 0
    mean_gold: float = 0.0
    # per number of gold triples (GOLD_BUCKETS): n, accuracy, gold recall, precision, mean chosen, mean gold
    by_gold: dict[str, dict[str, float]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


GOLD_BUCKETS: tuple[tuple[str, int, int], ...] = (("1", 1, 1), ("2", 2, 2), ("3-4", 3, 4), ("5+", 5, 10**9))


MULTI = "2+"


def gold_bucket(n_gold: int) -> str:
    return next(name for name, lo, hi in GOLD_BUCKETS if lo <= n_gold <= hi) if n_gold >= 1 else "0"


def by_gold(results: Sequence[ItemResult]) -> dict[str, dict[str, float]]:
    """Accuracy, gold recall / precision and triples chosen per number of gold triples (1, 2, 3-4, 5+, and 2+:
    all multi-triple questions together)."""
    out: dict[str, dict[str, float]] = {}
    groups = [(name, [r for r in results if gold_bucket(r.n_gold) == name]) for name, _, _ in GOLD_BUCKETS]
    groups.append((MULTI, [r for r in results if r.n_gold >= 2]))  # every multi-triple question
    for name, group in groups:
        if not group:
            continue
        n = len(group)
        out[name] = {
            "n": n,
            "accuracy": sum(r.correct for r in group) / n,
            "gold_recall": sum(r.gold_recall for r in group) / n,
            "precision": sum(r.precision for r in group) / n,
            "mean_chosen": sum(len(r.chosen) for r in group) / n,
            "mean_gold": sum(r.n_gold for r in group) / n,
        }
    return out


@dataclass(frozen=True, slots=True)
class Scorers:
    """The rankers a run may use (any may be missing when no setup needs it)."""

    cosine: TripleScorer | None = None
    bm25: TripleScorer | None = None
    trained: TripleScorer | None = None

    def get(self, ranker: Ranker) -> TripleScorer | None:
        return {"cosine": self.cosine, "bm25": self.bm25, "trained": self.trained, "none": None}[ranker]


def _probabilities(ranker: Ranker, scores: list[float]) -> list[float]:
    """Softmax for trained logits (calibrated by the training temperature), raw values for other rankers."""
    return relevance_probabilities(scores) if ranker == "trained" else scores


def _relevance(ranker: Ranker, scores: list[float]) -> list[float]:
    """Relevance on a 0..1 scale for the need cut: probabilities for trained logits, min-max of other scores."""
    return relevance_probabilities(scores) if ranker == "trained" else relevance_scale(scores)


def _display_scores(ranker: Ranker, scores: list[float] | None) -> list[float] | None:
    """What the prompt shows: probabilities for trained logits (comparable 0..1), raw values otherwise."""
    return None if scores is None else _probabilities(ranker, scores)


def run_item(
    setup: Setup,
    item: MechaItem,
    index: SubgraphIndex,
    scorers: Scorers,
    llm: LLM | None,
    *,
    max_chars: int | None,
    labels: LabelStyle = "id",
) -> ItemResult:
    start = time.monotonic()
    candidates: list[PathTriple] = index.subgraph(item.entities)
    scorer = scorers.get(setup.ranker)
    if setup.ranker != "none" and scorer is None:
        raise ValueError(f"setup {setup.name} needs the {setup.ranker} scorer")
    scores = scorer.score(item.question, candidates) if scorer is not None else None
    # the gate looks at the whole subgraph, as when its threshold was chosen
    gated = bool(setup.gate is not None and scores and max(_probabilities(setup.ranker, scores)) >= setup.gate)
    # `shown`: what the LLM sees (the top_k best, in KG order). A one-triple setup answers from those alone, as
    # the paper's top-k listing does; a need-based one grows its choice over the whole subgraph, as `rem` does.
    shown = list(range(len(candidates)))
    if setup.top_k is not None and scores is not None and len(candidates) > setup.top_k:
        full = scores
        shown = sorted(sorted(shown, key=lambda i: (-full[i], i))[: setup.top_k])
        if setup.select == "one":
            candidates = [candidates[i] for i in shown]
            scores = [full[i] for i in shown]
            shown = list(range(len(candidates)))
    need = read_need(item.question, item.entities) if setup.select != "one" else None
    relevance = _relevance(setup.ranker, scores) if scores is not None else None
    # for "llm-set": what the ranker and the wording propose (grown from the best-scored triple)
    proposal: list[int] = []
    if setup.select == "llm-set" and need is not None and relevance is not None and candidates:
        best = choose_top(relevance).indices[0]
        proposal = select_needed(need, item.question, candidates, item.entities, relevance, best)
    choice: Choice
    if setup.llm and not gated:
        if llm is None:
            raise ValueError(f"setup {setup.name} needs an LLM")
        # "llm-set": the LLM picks the set itself, at least one triple per asked property or named entity and at
        # most as many as the ranker's cut proposes; otherwise one triple
        most = len(proposal) if setup.select == "llm-set" else 1
        least = min(most, max(need.properties, need.entities)) if need is not None and most > 1 else 1
        shown_scores = _display_scores(setup.ranker, scores)
        picked_shown = choose_with_llm(
            llm,
            item.question,
            [candidates[i] for i in shown],
            None if shown_scores is None else [shown_scores[i] for i in shown],
            sort=setup.sort,
            show_scores=setup.show_scores,
            max_select=most,
            min_select=least,
            max_chars=max_chars,
            label_style=labels,
            ids_descending=setup.ids_descending,
        )
        choice = Choice(tuple(shown[i] for i in picked_shown.indices), picked_shown.usage, picked_shown.failure)
    else:
        choice = choose_top(scores or [])
    if setup.select == "llm-set" and (gated or not setup.llm) and proposal:
        picked = proposal  # the ranker was sure: its own need-based set, as `rem`
    elif setup.select == "need" and choice.indices and need is not None and relevance is not None:
        picked = select_needed(need, item.question, candidates, item.entities, relevance, choice.indices[0])
    elif setup.select == "llm-set" and len(choice.indices) > 1:
        picked = list(choice.indices)
    else:
        picked = expand_comparison(choice.indices, candidates, item.entities, scores)
    chosen = [candidates[i] for i in picked]
    text = answer_text(chosen, item.entities)
    verdict = compare_chosen(need, chosen, item.entities) if need is not None else None
    if verdict is not None:  # the facts stay listed; the program's comparison follows them
        text = f"{text}。{verdict.text}"
    entities = answer_entities(item)
    hits = sum(1 for g in item.gold if any(same_triple(g, c) for c in chosen))
    good = sum(1 for c in chosen if any(same_triple(g, c) for g in item.gold))
    seconds = time.monotonic() - start
    return ItemResult(
        setup=setup.name,
        index=item.index,
        question=item.question,
        answer=text,
        answer_entities=list(entities),
        correct=answer_is_correct(text, entities),
        chosen=[list(t) for t in chosen],
        gold_recall=hits / len(item.gold),
        precision=good / len(chosen) if chosen else 0.0,
        n_candidates=len(candidates),
        seconds=seconds,
        n_gold=len(item.gold),
        verdict=verdict.explanation if verdict is not None else None,
        prompt_tokens=choice.usage.prompt_tokens,
        completion_tokens=choice.usage.completion_tokens,
        llm_cached=choice.usage.cached,
        failure=choice.failure,
    )


def summarise(name: str, results: Sequence[ItemResult], description: str = "") -> Summary:
    """The means of one setup's results (`name`: the setup)."""
    n = len(results)

    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    fresh = [r.seconds for r in results if not r.llm_cached]
    scored = [r.llm_score for r in results if r.llm_score is not None]
    return Summary(
        setup=name,
        description=description,
        n=n,
        accuracy=mean([1.0 if r.correct else 0.0 for r in results]),
        gold_recall=mean([r.gold_recall for r in results]),
        precision=mean([r.precision for r in results]),
        mean_chosen=mean([len(r.chosen) for r in results]),
        failures=sum(1 for r in results if r.failure),
        seconds_per_question=mean(fresh) if fresh else None,
        tokens_per_question=mean([r.prompt_tokens + r.completion_tokens for r in results]),
        cached=sum(1 for r in results if r.llm_cached),
        llm_score=mean(scored) if scored else None,
        llm_score_failed=sum(1 for r in results if r.llm_score is None) if scored else 0,
        mean_gold=mean([r.n_gold for r in results]),
        by_gold=by_gold(results),
    )


Judge = Callable[[str, str, str], int | None]  # (question, answer, reference) -> 1..5 or None


def run_bench(
    items: Sequence[MechaItem],
    index: SubgraphIndex,
    setups: Sequence[Setup],
    scorers: Scorers,
    llm: LLM | None,
    *,
    judge: Judge | None = None,
    max_chars: int | None = 80,
    labels: LabelStyle = "id",
    progress: Callable[[str], None] | None = None,
) -> tuple[list[Summary], list[ItemResult]]:
    """Run every setup on every item (setups needing an LLM are skipped with a note when `llm` is None)."""
    summaries: list[Summary] = []
    all_results: list[ItemResult] = []
    for setup in setups:
        if setup.llm and llm is None:
            if progress:
                progress(f"skip {setup.name}: no LLM configured")
            continue
        results: list[ItemResult] = []
        for k, item in enumerate(items, start=1):
            result = run_item(setup, item, index, scorers, llm, max_chars=max_chars, labels=labels)
            if judge is not None:
                result.llm_score = judge(item.question, result.answer or "（未作答）", item.answer)
            results.append(result)
            if progress and (k % 10 == 0 or k == len(items)):
                acc = sum(r.correct for r in results) / len(results)
                progress(f"{setup.name}: {k}/{len(items)} accuracy so far {acc:.3f}")
        summaries.append(summarise(setup.name, results, setup.description))
        all_results.extend(results)
    return summaries, all_results


def results_json(meta: dict[str, Any], summaries: Sequence[Summary], items: Sequence[ItemResult]) -> dict[str, Any]:
    return {"meta": meta, "summary": [asdict(s) for s in summaries], "items": [asdict(r) for r in items]}


def format_table(summaries: Sequence[Summary]) -> str:
    """A Markdown table of the summaries, then one row per setup and number of gold triples."""
    head = (
        "| setup | n | Accuracy | gold recall | precision | triples chosen | chosen / gold | LLM-Score | failures "
        "| s/question | tokens/question |"
    )
    rows = [head, "|" + "---|" * 11]
    for s in summaries:
        llm_score = f"{s.llm_score:.3f}" if s.llm_score is not None else "–"
        secs = f"{s.seconds_per_question:.4f}" if s.seconds_per_question is not None else "cached"
        ratio = f"{s.mean_chosen / s.mean_gold:.2f}" if s.mean_gold else "–"
        rows.append(
            f"| {s.setup} | {s.n} | {100 * s.accuracy:.2f}% | {100 * s.gold_recall:.1f}% | {100 * s.precision:.1f}% "
            f"| {s.mean_chosen:.2f} | {ratio} | {llm_score} | {s.failures} | {secs} | {s.tokens_per_question:.0f} |"
        )
    rows += ["", "| setup | gold triples | n | Accuracy | gold recall | precision | chosen | gold |", "|" + "---|" * 8]
    for s in summaries:
        for bucket, m in s.by_gold.items():
            rows.append(
                f"| {s.setup} | {bucket} | {m['n']:.0f} | {100 * m['accuracy']:.2f}% | {100 * m['gold_recall']:.1f}% "
                f"| {100 * m['precision']:.1f}% | {m['mean_chosen']:.2f} | {m['mean_gold']:.2f} |"
            )
    return "\n".join(rows)


def run_bench_cli(
    *,
    kg: Path,
    qa: Path,
    llm_spec: str,
    judge_spec: str | None,
    setup_names: Sequence[str],
    limit: int | None,
    min_gold: int = 1,
    model_path: Path | None,
    out: Path,
    max_chars: int | None,
    labels: LabelStyle = "id",
    echo: Callable[[str], None],
    progress: Callable[[str], None],
) -> list[Summary]:
    """Load data, scorers and models, run, write `out` (JSON) and echo a Markdown table."""
    from kgreason.data.jsonio import write_json_atomic
    from kgreason.llm.config import LLMConfig
    from kgreason.llm.factory import close_llm, create_llm
    from kgreason.mecha.data import load_mecha_kg, load_mecha_qa
    from kgreason.retrieve.embedder import CosineTripleScorer, load_e5_embedder
    from kgreason.retrieve.lexical import BM25TripleScorer
    from kgreason.retrieve.relevance import load_relevance_scorer

    unknown = [s for s in setup_names if s not in SETUPS]
    if unknown:
        raise KgreasonError(f"unknown setup(s) {', '.join(unknown)}; known: {', '.join(SETUPS)}")
    setups = [SETUPS[s] for s in setup_names]

    def warn(problem: Problem) -> None:
        progress(str(problem))

    triples = load_mecha_kg(kg, warn)
    index = SubgraphIndex(triples)
    items = load_mecha_qa(qa, warn)
    items = [it for it in items if len(it.gold) >= min_gold]
    items = items[:limit] if limit else items
    embedder = load_e5_embedder()
    scorers = Scorers(
        cosine=CosineTripleScorer(embedder),
        bm25=BM25TripleScorer(),
        trained=load_relevance_scorer(embedder, model_path),
    )
    config = LLMConfig.from_env()
    needs_llm = any(s.llm for s in setups)
    llm = create_llm(llm_spec, config, progress=progress) if needs_llm else None
    judge_llm = create_llm(judge_spec, config, progress=progress) if judge_spec else None
    judge_fn, judge_note = _judge(judge_llm)
    if judge_note:
        progress(judge_note)
    try:
        summaries, results = run_bench(
            items, index, setups, scorers, llm, judge=judge_fn, max_chars=max_chars, labels=labels, progress=progress
        )
    finally:
        embedder.flush()
        close_llm(llm)
        close_llm(judge_llm)
    meta = {
        "kg": str(kg),
        "qa": str(qa),
        "questions": len(items),
        "subset": (f"first {limit}" if limit else "all")
        + (f" with at least {min_gold} gold triples" if min_gold > 1 else ""),
        "llm": llm.name if llm is not None else None,
        "judge": judge_llm.name if judge_llm is not None else None,
        "judge_note": judge_note,
        "relevance_model": scorers.trained.name if scorers.trained is not None else None,
        "max_chars": max_chars,
        "labels": labels,
    }
    write_json_atomic(out, results_json(meta, summaries, results))
    echo(format_table(summaries))
    echo(f"questions: {len(items)} ({meta['subset']}); LLM: {meta['llm']}; judge: {meta['judge']}; wrote {out}")
    return summaries


def _judge(judge_llm: LLM | None) -> tuple[Judge | None, str | None]:
    """The LLM-Score judge from `kgreason.mecha.paper_metrics`, when a judge model is configured and that module is
    installed; otherwise None and a note saying why the column is empty."""
    if judge_llm is None:
        return None, "no --judge model: the LLM-Score column is left empty"
    try:
        from kgreason.mecha.paper_metrics import JudgeItem, llm_score
    except ImportError:
        return None, "kgreason.mecha.paper_metrics is not available: the LLM-Score column is left empty"

    def judge(question: str, answer: str, reference: str) -> int | None:
        return llm_score(judge_llm, JudgeItem(question, answer, reference), domain="机械制造")

    return judge, None
