"""Question ↔ KG-relation matcher: train the artefact and measure Recall@1 / Recall@5 / MRR.

    # figures of the packaged artefact (src/kgreason/resources/relmatch_ckbqa.npz)
    .venv/bin/python benchmarks/bench_relmatch.py
    # rebuild the artefact, then measure it
    .venv/bin/python benchmarks/bench_relmatch.py --train --ckbqa ../shared/data/ccks_ckbqa \\
        -o src/kgreason/resources/relmatch_ckbqa.npz

Training data: CCKS 2021 train + CCKS 2023 train (repeats dropped, and every record whose question or SPARQL is one
of CCKS 2021 valid's); `--with-mecha DIR` adds Mecha-QA train.jsonl (measured: no gain, off by default).
Evaluation: CCKS 2021 valid, gold = the constant predicates of each question's SPARQL, ranked

- globally: against the whole relation vocabulary of CKBQA (train files and valid, ~1,800 names);
- sampled:  against the gold relations plus 49 relations sampled from that vocabulary (seed 0), a KG-sized list;

each for all questions and for the questions with a gold relation never seen in training ("unseen"), and

- new vocabulary: those "unseen" questions against only the valid relations never seen in training (gold = their
  unseen relations): every candidate is a new name, as with a new KG.
Out of domain (when found): ccks_ext_dev and examples/sample, each question against the relations of its
document's KG (gold = relations of the main gold path that the KG has).
Methods: the trained matcher, untrained e5 cosine, BM25 over relation names, character/bigram overlap, and (on
candidate lists only) the reasoner's hand-written lexicon (`reason.scoring.relation_match`).

Question and relation vectors are cached on disk (`$KGREASON_CACHE_DIR/embeddings`): the first run embeds ~9,000
questions (about 3 minutes on 2 cores), reruns take seconds. Exits 0 with a message when the data is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CKBQA = REPO.parent / "shared" / "data" / "ccks_ckbqa"
TRAIN_FILES = ("CCKS2021_ccks2021_train.txt", "CCKS2023_train.txt")
VALID_FILE = "CCKS2021_ccks2021_valid.txt"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckbqa", type=Path, default=DEFAULT_CKBQA, help="folder of the CKBQA files")
    ap.add_argument(
        "--with-mecha",
        type=Path,
        default=None,
        metavar="DIR",
        help="also train on Mecha-QA DIR/train.jsonl (measured: no gain, so off by default)",
    )
    ap.add_argument("--ext-dev", type=Path, default=None, help="ccks_ext_dev folder (default: beside --ckbqa)")
    ap.add_argument("--train", action="store_true", help="train the matcher (else load --model)")
    ap.add_argument("-o", "--output", type=Path, default=None, help="where --train writes the artefact")
    ap.add_argument("--model", type=Path, default=None, help="artefact to evaluate (default: the packaged one)")
    ap.add_argument("--negatives", type=int, default=49, help="sampled negatives per question (default 49)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None, help="also write all figures to this JSON file")
    return ap.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    missing = [f for f in (*TRAIN_FILES, VALID_FILE) if not (args.ckbqa / f).is_file()]
    if missing:
        print(f"CKBQA data not found in {args.ckbqa} ({', '.join(missing)} missing): nothing to benchmark")
        return 0
    from kgreason.data.ckbqa import load_ckbqa_files
    from kgreason.mecha.data import load_mecha_qa
    from kgreason.retrieve.embedder import load_e5_embedder
    from kgreason.retrieve.relation_matcher import (
        BM25RelationScorer,
        CharOverlapRelationScorer,
        CosineRelationScorer,
        RelationMatcher,
        RelationMatcherModel,
        default_matcher_path,
        load_relation_matcher,
    )
    from kgreason.retrieve.relation_training import (
        RelationExample,
        RelationTrainConfig,
        ckbqa_training_set,
        evaluate_task,
        examples_from_ckbqa,
        examples_from_mecha,
        fit_relation_matcher,
        global_task,
        merge_examples,
        sampled_task,
        vocabulary,
    )

    train_records, warnings = load_ckbqa_files([args.ckbqa / f for f in TRAIN_FILES])
    valid_records, valid_warnings = load_ckbqa_files([args.ckbqa / VALID_FILE])
    for w in [*warnings, *valid_warnings]:
        print(w)
    ckbqa = ckbqa_training_set(train_records, valid_records)
    print(
        f"CKBQA train: {len(train_records)} records -> {len(ckbqa.examples)} examples "
        f"({ckbqa.duplicates} repeats, {ckbqa.excluded} dropped as CCKS 2021 valid questions/queries)"
    )
    groups = [ckbqa.examples]
    if args.with_mecha is not None:
        mecha = examples_from_mecha(load_mecha_qa(args.with_mecha / "train.jsonl"))
        groups.append(mecha)
        print(f"Mecha-QA train: {len(mecha)} examples")
    merged = merge_examples(*groups)
    train_examples = merged.examples
    valid = examples_from_ckbqa(valid_records, "ckbqa-valid")
    train_vocab = set(vocabulary(train_examples))
    all_vocab = vocabulary([*examples_from_ckbqa(train_records), *valid])
    print(
        f"training: {len(train_examples)} questions, {len(train_vocab)} relations; evaluation: {len(valid)} "
        f"questions, CKBQA vocabulary {len(all_vocab)} relations"
    )

    embedder = load_e5_embedder()
    results: dict[str, Any] = {}
    if args.train:
        if args.output is None:
            print("--train needs -o/--output", file=sys.stderr)
            return 2
        config = RelationTrainConfig(seed=args.seed)
        started = time.perf_counter()
        model, report = fit_relation_matcher(train_examples, embedder, config, name="ckbqa", progress=print)
        seconds = time.perf_counter() - started
        model.meta["train_seconds"] = round(seconds, 1)
        model.save(args.output)
        embedder.flush()
        size = args.output.stat().st_size
        print(
            f"trained in {seconds:.0f} s (embedding included), best epoch {report.best_epoch}; "
            f"wrote {args.output} ({size / 1024:.0f} KB)"
        )
        print(f"held-out training questions, unseen relations: {report.unseen.as_dict()}")
        print(f"held-out training questions, seen relations:   {report.seen.as_dict()}")
        results["training"] = {**report.as_dict(), "seconds_total": round(seconds, 1), "artefact_bytes": size}
        matcher = RelationMatcher(embedder, RelationMatcherModel.load(args.output))
    else:
        path = args.model or default_matcher_path()
        matcher = load_relation_matcher(embedder, path)
        print(f"matcher: {path} (trained in {matcher.model.meta.get('train_seconds', '?')} s)")

    scorers: dict[str, Any] = {
        "trained matcher": matcher,
        "e5 cosine (untrained)": CosineRelationScorer(embedder, "passage"),
        "BM25 (relation names)": BM25RelationScorer(),
        "char/bigram overlap": CharOverlapRelationScorer(),
    }
    lexicon = LexiconScorer()
    unseen_mask = [not set(ex.relations) <= train_vocab for ex in valid]
    print(f"valid questions with a relation unseen in training: {sum(unseen_mask)} of {len(valid)}")
    new_vocab = [r for r in vocabulary(valid) if r not in train_vocab]
    new_examples = [
        RelationExample(ex.question, tuple(r for r in ex.relations if r not in train_vocab))
        for ex, unseen in zip(valid, unseen_mask, strict=True)
        if unseen
    ]
    tasks = {
        f"global ({len(all_vocab)} relations)": (global_task(valid, all_vocab, seed=args.seed), False),
        f"sampled (gold + {args.negatives})": (
            sampled_task(valid, all_vocab, negatives=args.negatives, seed=args.seed),
            True,
        ),
        f"new vocabulary ({len(new_vocab)} relations never seen in training)": (
            global_task(new_examples, new_vocab, seed=args.seed),
            True,
        ),
    }
    for title, (task, with_lexicon) in tasks.items():
        rows = []
        methods = dict(scorers)
        if with_lexicon:
            methods["lexicon LCS (reasoner)"] = lexicon
        split = len(task.questions) == len(valid)
        for name, scorer in methods.items():
            started = time.perf_counter()
            if split:
                metrics_all, metrics_unseen = _evaluate_split(scorer, task, unseen_mask)
            else:
                metrics_all, metrics_unseen = evaluate_task(scorer, task), None
            rows.append((name, metrics_all, metrics_unseen, time.perf_counter() - started))
        print(f"\n### CCKS 2021 valid — {title}\n")
        print(_table(rows, ("all", "unseen relations") if split else ("all",)))
        results[f"ckbqa_valid {title}"] = {
            name: {"all": a.as_dict(), **({"unseen": u.as_dict()} if u else {}), "seconds": round(s, 1)}
            for name, a, u, s in rows
        }

    for name, folder in (
        ("ccks_ext_dev", args.ext_dev or args.ckbqa.parent / "ccks_ext_dev"),
        ("examples/sample", REPO / "examples" / "sample"),
    ):
        task = kg_task(folder)
        if task is None:
            print(f"\n({name}: not found in {folder}, skipped)")
            continue
        methods = {**scorers, "lexicon LCS (reasoner)": lexicon}
        rows = []
        for method, scorer in methods.items():
            started = time.perf_counter()
            rows.append((method, evaluate_task(scorer, task), None, time.perf_counter() - started))
        n_rel = sum(len(c) for c in task.candidates) / max(len(task.candidates), 1)
        print(
            f"\n### {name} — {len(task.questions)} questions, each against its KG's relations "
            f"({n_rel:.0f} on average)\n"
        )
        print(_table(rows, ("all",)))
        results[name] = {method: {"all": a.as_dict()} for method, a, _, _ in rows}

    results["latency"] = latency(matcher.model)
    lat = results["latency"]
    print(
        f"\nscoring one question against 50 relations: cold {lat['cold_ms']:.0f} ms (question and 50 names embedded), "
        f"cached {lat['cached_ms']:.1f} ms (names known, new question), "
        f"warm {lat['warm_ms']:.2f} ms (question vector cached too)"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


class LexiconScorer:
    """The reasoner's current matcher: `relation_match` (name + hand-written synonyms, longest common substring)
    against the whole normalised question (the reasoner uses the question minus its entity mentions)."""

    name = "lexicon"

    def score(self, question: str, relations: Sequence[str]) -> list[float]:
        from kgreason.reason.scoring import relation_match
        from kgreason.text.normalize import normalize_text

        q = normalize_text(question)
        return [relation_match(r, q).score for r in relations]


def _evaluate_split(scorer: Any, task: Any, unseen_mask: Sequence[bool]) -> tuple[Any, Any]:
    from kgreason.retrieve.ranking import rank_metrics
    from kgreason.retrieve.relation_training import score_task

    scores = score_task(scorer, task)
    labels = task.labels()
    unseen_scores = [s for s, m in zip(scores, unseen_mask, strict=True) if m]
    unseen_labels = [lab for lab, m in zip(labels, unseen_mask, strict=True) if m]
    return rank_metrics(scores, labels), rank_metrics(unseen_scores, unseen_labels)


def _table(rows: Sequence[tuple[str, Any, Any, float]], groups: Sequence[str]) -> str:
    head = "| method | " + " | ".join(f"{g} R@1 | {g} R@5 | {g} MRR" for g in groups) + " |"
    sep = "|---|" + "---:|" * (3 * len(groups))
    lines = [head, sep]
    for name, a, u, _ in rows:
        cells = [a] if u is None else [a, u]
        lines.append(
            f"| {name} | "
            + " | ".join(f"{m.recall_at_1:.3f} | {m.recall_at_5:.3f} | {m.mrr:.3f}" for m in cells[: len(groups)])
            + " |"
        )
    n = rows[0][1].n if rows else 0
    extra = f", unseen n = {rows[0][2].n}" if rows and rows[0][2] is not None else ""
    return "\n".join(lines) + f"\n\n(n = {n} questions{extra}; R@k = gold relations in the top k / gold relations)"


def kg_task(folder: Path) -> Any:
    """Questions of a task-layout folder against the relations of their document's KG; None when absent."""
    from kgreason.retrieve.relation_training import RankingTask

    answers = folder / "qa_answer.json"
    if not answers.is_file():
        return None
    relations: dict[str, tuple[str, ...]] = {}
    for kg in sorted(folder.glob("KG_*.json")):
        rows = json.loads(kg.read_text(encoding="utf-8"))
        relations[kg.stem[3:]] = tuple(dict.fromkeys(str(t["relation"]) for t in rows))
    questions, candidates, gold = [], [], []
    for item in json.loads(answers.read_text(encoding="utf-8")):
        cands = relations.get(str(item["doc_id"]))
        if not cands:
            continue
        wanted = tuple(dict.fromkeys(str(t[1]) for t in item.get("gold_reasoning_paths_main", []) if len(t) == 3))
        if not set(wanted) & set(cands):
            continue  # only derived relations (早于, 大于, …) that no KG holds
        questions.append(str(item["question"]))
        candidates.append(cands)
        gold.append(wanted)
    return RankingTask(tuple(questions), tuple(candidates), tuple(gold))


def latency(model: Any) -> dict[str, float]:
    """Milliseconds to score one question against 50 relation names: cold (fresh matcher and embedder without any
    cache: the question and the 50 names are embedded), cached (names known, new question), warm (both known)."""
    from kgreason.retrieve.embedder import load_e5_embedder
    from kgreason.retrieve.relation_matcher import RelationMatcher

    relations = [
        f"{a}{b}"
        for a in ("研制", "首飞", "服役", "所属", "隶属", "舷号", "母港", "排水", "北约", "交接")
        for b in ("单位", "时间", "型号", "地点", "代号")
    ]
    questions = [f"第{i}个问题：这型装备的{r}是什么？" for i, r in enumerate(relations[:5])]
    embedder = load_e5_embedder(use_cache=False)
    cold = []
    for i in range(3):
        matcher = RelationMatcher(embedder, model)
        names = [f"{r}{i}" for r in relations]  # new names each time: nothing cached in memory
        started = time.perf_counter()
        matcher.score(f"冷启动问题{i}：它的研制单位？", names)
        cold.append(time.perf_counter() - started)
    matcher = RelationMatcher(embedder, model)
    matcher.score("预热", relations)
    cached = []
    for q in questions:
        started = time.perf_counter()
        matcher.score(q, relations)
        cached.append(time.perf_counter() - started)
    warm_q = questions[0]
    vec = embedder.embed_queries([warm_q])

    class _Fixed:
        name = embedder.name
        dim = embedder.dim

        def embed_queries(self, texts: Sequence[str]) -> Any:
            return vec

        def embed_passages(self, texts: Sequence[str]) -> Any:
            return embedder.embed_passages(texts)

    warm_matcher = RelationMatcher(_Fixed(), model)
    warm_matcher.score(warm_q, relations)
    started = time.perf_counter()
    for _ in range(50):
        warm_matcher.score(warm_q, relations)
    warm = (time.perf_counter() - started) / 50
    return {
        "cold_ms": 1000 * sorted(cold)[1],
        "cached_ms": 1000 * sorted(cached)[len(cached) // 2],
        "warm_ms": 1000 * warm,
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
