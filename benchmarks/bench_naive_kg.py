"""The naive baseline: the embedded LLM given the question and the document's whole KG, scored officially.

    .venv/bin/python benchmarks/bench_naive_kg.py                         # examples/sample and ccks_ext_dev
    .venv/bin/python benchmarks/bench_naive_kg.py --data examples/sample --limit 5
    .venv/bin/python benchmarks/bench_naive_kg.py --llm embedded-small    # another model spec
    KGREASON_LLM_CACHE=off .venv/bin/python benchmarks/bench_naive_kg.py  # no reply cache (honoured by the layer)

One call per question: a short Chinese instruction, every triple of the question's document as a numbered line
(`T12: 歼-20 | 首飞时间 | 2011年1月11日`, KG file order), then the question. The reply is constrained by a JSON
schema, `{"answer": [strings], "evidence": ["T12", ...]}`, whose evidence items are an enum of the shown ids.
The answer record is: the answers as given, the main path = the chosen triples in the order given (duplicates
dropped), answer_type from the first chosen triple whose object (or subject) is the first answer, else `实体`,
constraints `{}`. A failed reply (typed `LLMFailure`, or an exception from the backend) gives an empty answer and is
counted. A KG whose prompt would not fit the context window (prompt + reply budget > n_ctx) is cut to its first
lines (file order) and counted.

Prints, per dataset: the official score (mean per question) overall and per level with the four component means,
failures, mean prompt / completion tokens per question, seconds per question (wall clock; cache hits separately),
and the share of output triples that are KG triples. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgreason.data.loader import load_dataset
from kgreason.data.records import AnswerRecord, Dataset, KGTriple, Question
from kgreason.errors import KgreasonError
from kgreason.eval.official import ScoreReport, score_records
from kgreason.kg.index import KGIndex
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm
from kgreason.llm.models import asset_for_spec, ensure_model_file
from kgreason.llm.spec import EmbeddedSpec, parse_spec
from kgreason.llm.types import LLM, ChatMessage, LLMSuccess
from kgreason.text.normalize import normalize_text

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = (REPO / "examples" / "sample", REPO.parent / "shared" / "data" / "ccks_ext_dev")

SYSTEM_PROMPT = "你是军事知识图谱问答助手，只依据给出的知识图谱三元组回答问题。"
INTRO = (
    "下面是一篇文档的知识图谱，每行一个三元组，格式为“编号: 头实体 | 关系 | 尾实体”。\n"
    "请根据这些三元组回答后面的问题，只输出JSON：answer 是答案列表（照抄三元组中的实体或值；有多个答案时逐个列出；"
    "是非题答“是”或“否”），evidence 是回答所依据的三元组编号，按推理顺序排列。"
)
DEFAULT_ANSWER_TYPE = "实体"
MAX_ANSWERS = 8
MAX_ANSWER_CHARS = 40
TEMPLATE_MARGIN = 48  # chat-template tokens (role markers, newlines) not in the message texts, plus slack


# ------------------------------------------------------------------------------------------------------- prompting
def triple_line(tid: str, t: KGTriple) -> str:
    return f"{tid}: {t.sub} | {t.relation} | {t.obj}"


def build_messages(question: str, lines: Sequence[str]) -> list[ChatMessage]:
    """Instruction and KG first (shared by every question of a document: the embedded runtime reuses that prompt
    prefix), the question last."""
    user = f"{INTRO}\n\n三元组:\n" + "\n".join(lines) + f"\n\n问题: {question}\n请输出JSON。"
    return [ChatMessage("system", SYSTEM_PROMPT), ChatMessage("user", user)]


def reply_schema(ids: Sequence[str], max_evidence: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "answer": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": MAX_ANSWER_CHARS},
                "minItems": 1,
                "maxItems": MAX_ANSWERS,
            },
            "evidence": {
                "type": "array",
                "items": {"type": "string", "enum": list(ids)},
                "minItems": 1,
                "maxItems": min(max_evidence, len(ids)),
            },
        },
        "required": ["answer", "evidence"],
        "additionalProperties": False,
    }


TokenCounter = Callable[[str], int]


def char_counter(text: str) -> int:
    """Upper bound for specs without a local tokenizer: one token per character (Qwen: ~0.8 per Chinese char)."""
    return len(text)


def make_token_counter(spec: str, config: LLMConfig) -> tuple[TokenCounter, str]:
    """The embedded model's own tokenizer (vocab-only load of the verified GGUF), else a character count."""
    parsed = parse_spec(spec)
    asset = asset_for_spec(parsed.model) if isinstance(parsed, EmbeddedSpec) else None
    if asset is None:
        return char_counter, "characters (upper bound; no local tokenizer for this spec)"
    import llama_cpp

    path = ensure_model_file(asset, config.models_dir())
    vocab = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)

    def count(text: str) -> int:
        return len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    return count, f"{asset.label} tokenizer"


@dataclass(frozen=True, slots=True)
class Prompt:
    messages: list[ChatMessage]
    ids: tuple[str, ...]  # shown ids, in order
    triples: dict[str, KGTriple]  # id -> KG triple
    shown: int
    total: int
    estimate: int  # prompt tokens as counted here (message texts + TEMPLATE_MARGIN)

    @property
    def truncated(self) -> bool:
        return self.shown < self.total


def build_prompt(question: Question, kg: Sequence[KGTriple], budget: int, count: TokenCounter) -> Prompt:
    """The prompt with as many KG lines (file order, from the first) as fit in `budget` prompt tokens."""
    ids = [f"T{i + 1}" for i in range(len(kg))]
    lines = [triple_line(tid, t) for tid, t in zip(ids, kg, strict=True)]
    fixed = build_messages(question.question, [])
    used = TEMPLATE_MARGIN + sum(count(m.content) for m in fixed)
    keep = 0
    for line in lines:
        cost = count(line + "\n")
        if used + cost > budget:
            break
        used += cost
        keep += 1
    messages = build_messages(question.question, lines[:keep])
    estimate = TEMPLATE_MARGIN + sum(count(m.content) for m in messages)
    return Prompt(messages, tuple(ids[:keep]), dict(zip(ids[:keep], kg[:keep], strict=True)), keep, len(kg), estimate)


# --------------------------------------------------------------------------------------------------------- replies
@dataclass(slots=True)
class Outcome:
    query_id: str
    level: str
    record: AnswerRecord
    ok: bool
    failure: str = ""  # "kind: message" when not ok
    cached: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    estimate: int = 0
    truncated: bool = False
    reply: Any = None


def answer_type(answers: Sequence[str], path: Sequence[KGTriple]) -> str:
    if not answers:
        return DEFAULT_ANSWER_TYPE
    first = normalize_text(answers[0])
    for t in path:
        if normalize_text(t.obj) == first and t.obj_type.strip():
            return t.obj_type
        if normalize_text(t.sub) == first and t.sub_type.strip():
            return t.sub_type
    return DEFAULT_ANSWER_TYPE


def to_record(question: Question, answers: Sequence[str], path: Sequence[KGTriple]) -> AnswerRecord:
    return AnswerRecord(
        query_id=question.query_id,
        doc_id=question.doc_id,
        question=question.question,
        answer_type=answer_type(answers, path),
        answers=tuple(answers),
        main_path=tuple(t.spo for t in path),
        constraints={},
        difficulty=question.difficulty,
    )


def ask(llm: LLM, question: Question, prompt: Prompt, max_evidence: int, max_tokens: int) -> Outcome:
    schema = reply_schema(prompt.ids, max_evidence)
    t0 = time.monotonic()
    empty = to_record(question, (), ())
    try:
        result = llm.complete_json(prompt.messages, schema, max_tokens=max_tokens)
    except Exception as exc:  # a backend bug costs this question its answer, not the run
        failure = f"exception: {type(exc).__name__}: {exc}"[:300]
        return Outcome(
            question.query_id,
            question.difficulty,
            empty,
            False,
            failure,
            seconds=time.monotonic() - t0,
            estimate=prompt.estimate,
            truncated=prompt.truncated,
        )
    usage = result.usage
    common: dict[str, Any] = {
        "cached": usage.cached,
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "seconds": time.monotonic() - t0,
        "estimate": prompt.estimate,
        "truncated": prompt.truncated,
    }
    if not isinstance(result, LLMSuccess):
        failure = f"{result.kind}: {result.message}"[:300]
        return Outcome(question.query_id, question.difficulty, empty, False, failure, **common)
    value = result.value
    raw_answers = value.get("answer") if isinstance(value, dict) else None
    raw_evidence = value.get("evidence") if isinstance(value, dict) else None
    if not isinstance(raw_answers, list) or not isinstance(raw_evidence, list):  # the schema makes this unreachable
        failure = f"malformed: {value!r}"[:300]
        return Outcome(question.query_id, question.difficulty, empty, False, failure, reply=value, **common)
    answers = [a.strip() for a in raw_answers if isinstance(a, str) and a.strip()]
    chosen = [prompt.triples[i] for i in dict.fromkeys(raw_evidence) if isinstance(i, str) and i in prompt.triples]
    record = to_record(question, answers, chosen)
    return Outcome(question.query_id, question.difficulty, record, True, reply=value, **common)


# ---------------------------------------------------------------------------------------------------------- report
def kg_share(records: Sequence[AnswerRecord], dataset: Dataset) -> tuple[int, int]:
    """(output triples found in the document's KG, output triples), main paths."""
    indexes = {doc: KGIndex(doc, kg) for doc, kg in dataset.kgs.items()}
    found = total = 0
    for r in records:
        index = indexes.get(r.doc_id)
        for t in r.main_path:
            total += 1
            found += 1 if index is not None and index.contains_triple(t) else 0
    return found, total


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _level_table(report: ScoreReport) -> list[str]:
    head = f"  {'':8} {'n':>3} {'score':>7} {'answer':>7} {'evidence':>8} {'reasoning':>9} {'constraint':>10}"
    rows = [head]
    groups = [("overall", report.overall), *sorted(report.by_level.items())]
    for name, grp in groups:
        m = grp.metrics
        rows.append(
            f"  {name:8} {grp.count:>3} {grp.mean:>7.4f} {m['answer']:>7.4f} {m['evidence']:>8.4f} "
            f"{m['reasoning']:>9.4f} {m['constraint']:>10.4f}"
        )
    return rows


@dataclass(slots=True)
class DatasetRun:
    label: str
    outcomes: list[Outcome] = field(default_factory=list)
    wall: float = 0.0


def print_report(run: DatasetRun, report: ScoreReport, dataset: Dataset, n_ctx: int, budget: int, show: int) -> None:
    outs = run.outcomes
    n = len(outs)
    o = report.overall.metrics
    print(f"== {run.label}: {n} questions")
    print(f"official score (mean per question): {report.mean:.4f}  (total {report.total:.3f} over {report.count})")
    for lvl, level in report.by_level.items():
        print(f"  {lvl}: {level.mean:.4f}  (n={level.count})")
    print(
        f"  answer {o['answer']:.4f} | evidence {o['evidence']:.4f} | reasoning {o['reasoning']:.4f} | "
        f"constraint {o['constraint']:.4f}"
    )
    print("per level and component:")
    for row in _level_table(report):
        print(row)
    failed = [x for x in outs if not x.ok]
    kinds = Counter(x.failure.split(":", 1)[0] for x in failed)
    kinds_text = ", ".join(f"{k}={v}" for k, v in sorted(kinds.items())) or "none"
    print(f"failures (empty answer): {len(failed)}/{n} ({kinds_text})")
    with_tokens = [x for x in outs if x.prompt_tokens]
    print(
        f"tokens per question: {_mean([x.prompt_tokens for x in with_tokens]):.0f} prompt "
        f"(max {max((x.prompt_tokens for x in outs), default=0)}, counted here max "
        f"{max((x.estimate for x in outs), default=0)}), "
        f"{_mean([x.completion_tokens for x in with_tokens]):.1f} completion (over {len(with_tokens)} replies)"
    )
    hits = [x for x in outs if x.cached]
    fresh = [x for x in outs if not x.cached]
    print(
        f"seconds per question (wall clock): {run.wall / max(n, 1):.2f} overall ({run.wall:.1f} s); "
        f"{len(fresh)} computed by the model at {_mean([x.seconds for x in fresh]):.2f} s each, "
        f"{len(hits)} from the reply cache at {_mean([x.seconds for x in hits]):.3f} s each"
    )
    truncated = sum(x.truncated for x in outs)
    print(f"KG truncated to fit n_ctx={n_ctx} (prompt budget {budget} tokens): {truncated}/{n} questions")
    found, total = kg_share([x.record for x in outs], dataset)
    pct = 100.0 * found / total if total else 100.0
    print(f"output triples in the KG: {found}/{total} = {pct:.1f}%")
    empty_ok = sum(1 for x in outs if x.ok and not x.record.answers)
    if empty_ok:
        print(f"valid replies with no usable answer: {empty_ok}")
    for x in failed:
        print(f"  FAILED {x.query_id} {x.level}: {x.failure}")
    if show:
        scores = {q.query_id: q for q in report.per_question}
        gold = dataset.gold or {}
        worst = sorted((x for x in outs if x.query_id in scores), key=lambda x: scores[x.query_id].score)[:show]
        print(f"lowest-scoring {len(worst)} questions (reply -> gold):")
        for x in worst:
            q = scores[x.query_id]
            g = gold[x.query_id]
            path = " ; ".join("|".join(t) for t in x.record.main_path) or "-"
            gold_path = " ; ".join("|".join(t) for t in g.main_path)
            print(
                f"  {x.query_id} {x.level} score {q.score:.3f} (ans {q.answer.score:.2f} ev {q.evidence.score:.2f} "
                f"rs {q.reasoning.score:.2f} cons {q.constraint.f1:.2f}) {g.question}\n"
                f"      answer {list(x.record.answers)} path {path}\n"
                f"      gold   {list(g.answers)} path {gold_path}"
                + (f"\n      failure {x.failure}" if not x.ok else "")
            )


# ------------------------------------------------------------------------------------------------------------ main
def display(path: Path) -> str:
    """`path` relative to the working directory (`../shared/...` included)."""
    try:
        return os.path.relpath(path.resolve(), Path.cwd().resolve())
    except ValueError:  # another drive
        return str(path)


def run_dataset(
    llm: LLM,
    dataset: Dataset,
    label: str,
    *,
    limit: int | None,
    budget: int,
    count: TokenCounter,
    max_evidence: int,
    max_tokens: int,
) -> DatasetRun:
    questions = list(dataset.questions[:limit] if limit is not None else dataset.questions)
    run = DatasetRun(label)
    t0 = time.monotonic()
    for k, q in enumerate(questions, start=1):
        prompt = build_prompt(q, dataset.kgs.get(q.doc_id, ()), budget, count)
        if not prompt.ids:  # no KG (or none fits): nothing to choose from
            empty = to_record(q, (), ())
            why = "no KG triples" if prompt.total == 0 else "not one KG line fits the context window"
            out = Outcome(q.query_id, q.difficulty, empty, False, f"no_prompt: {why}", truncated=prompt.truncated)
        else:
            out = ask(llm, q, prompt, max_evidence, max_tokens)
        run.outcomes.append(out)
        status = "ok" if out.ok else f"FAILED {out.failure[:80]}"
        print(
            f"[{label} {k}/{len(questions)}] {q.query_id} {q.difficulty} {out.seconds:.1f}s "
            f"{'cached' if out.cached else 'model'} {out.prompt_tokens}+{out.completion_tokens} tok "
            f"{'TRUNC ' if out.truncated else ''}{status} {list(out.record.answers)}",
            file=sys.stderr,
            flush=True,
        )
    run.wall = time.monotonic() - t0
    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, action="append", help="dataset folder (repeatable); default: both sets")
    ap.add_argument("--llm", default="embedded", help="LLM spec (default: embedded)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N questions of each dataset")
    ap.add_argument("--max-evidence", type=int, default=8, help="at most this many evidence ids in a reply")
    ap.add_argument("--max-tokens", type=int, default=256, help="reply budget in tokens")
    ap.add_argument("--n-ctx", type=int, default=None, help="context window (default: LLMConfig's n_ctx)")
    ap.add_argument("--show", type=int, default=5, help="list the N lowest-scoring questions with reply and gold")
    args = ap.parse_args(argv)

    print("command: " + shlex.join(sys.orig_argv if argv is None else [sys.argv[0], *argv]))
    config = LLMConfig.from_env() if args.n_ctx is None else LLMConfig.from_env(n_ctx=args.n_ctx)
    cache_path = config.resolved_response_cache_path()
    print(
        f"model spec: {args.llm}; temperature 0; n_ctx {config.n_ctx}; reply cache: "
        + (f"on ({cache_path})" if cache_path else "off (KGREASON_LLM_CACHE)")
    )

    roots: list[tuple[Path, bool]] = [(p, True) for p in args.data] if args.data else [(p, False) for p in DEFAULT_DATA]
    datasets: list[tuple[str, Dataset]] = []
    for root, explicit in roots:
        label = display(root)
        if not root.is_dir():
            if explicit:
                print(f"error: {label} is not a folder", file=sys.stderr)
                return 2
            print(f"skipped {label}: not present")
            continue
        dataset, _ = load_dataset(root, check_gold=False)
        if dataset.gold is None:
            print(f"skipped {label}: no qa_answer.json to score against")
            continue
        datasets.append((label, dataset))
    if not datasets:
        print("no dataset to run", file=sys.stderr)
        return 2

    budget = config.n_ctx - args.max_tokens
    try:
        count, counter_name = make_token_counter(args.llm, config)
        t0 = time.monotonic()
        llm = create_llm(args.llm, config)
    except KgreasonError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if llm is None:
        print("error: --llm none has no model to ask", file=sys.stderr)
        return 2
    print(f"model {llm.name} loaded in {time.monotonic() - t0:.1f} s; prompt tokens counted with the {counter_name}")
    try:
        for label, dataset in datasets:
            run = run_dataset(
                llm,
                dataset,
                label,
                limit=args.limit,
                budget=budget,
                count=count,
                max_evidence=args.max_evidence,
                max_tokens=args.max_tokens,
            )
            asked = {x.query_id for x in run.outcomes}
            gold = {qid: g for qid, g in (dataset.gold or {}).items() if qid in asked}
            report = score_records({x.query_id: x.record for x in run.outcomes}, gold)
            print()
            print_report(run, report, dataset, config.n_ctx, budget, args.show)
            sys.stdout.flush()
    finally:
        close_llm(llm)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
