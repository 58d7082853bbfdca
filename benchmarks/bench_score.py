"""Benchmark of the official scorer: 10,000 synthetic, varied gold items and predictions, parsed and scored.

    .venv/bin/python benchmarks/bench_score.py [--n 10000] [--repeat 3] [--seed 0]

The data (levels L1-L3, single and set answers, 1-8 triple paths, alternatives, derived comparison triples,
constraints; predictions that are exact, respaced, padded, truncated, reordered, reversed, wrong, malformed,
duplicated, unknown or missing) is generated first and written to a temporary folder; that is not timed. Timed:
`score_files` = reading both JSON files, parsing every item field by field and scoring every question, with the
normalisation cache emptied before each run. Prints each run (wall clock and CPU time of this process, and the
machine's load average, since other processes may share the cores), the best, and the ratio to the 2 s target.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kgreason.eval.official import load_gold, load_predictions, score_files, score_records
from kgreason.text.normalize import normalize_text

TARGET_SECONDS = 2.0
CHARS = "歼轰运直航母舰导弹雷达战机部队司令基地编队发动机研究所集团军旅团营连空海陆火箭卫星预警侦察"
RELATIONS = ["装备", "隶属于", "研制单位", "指挥官", "部署于", "参加", "包含", "发动机", "首飞时间", "服役时间"]
KEYS = ["time", "camp", "place", "numeric", "order", "type"]


def name(rng: random.Random) -> str:
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(3, 7))) + f"-{rng.randint(1, 99)}"


def date(rng: random.Random) -> str:
    return f"{rng.randint(1940, 2025)} 年 {rng.randint(1, 12)} 月 {rng.randint(1, 28)} 日"


def gold_item(i: int, rng: random.Random) -> dict[str, Any]:
    level = rng.choice(["L1", "L2", "L3"])
    start = name(rng)
    hops = {"L1": 1, "L2": rng.randint(2, 3), "L3": rng.randint(2, 4)}[level]
    chain: list[list[str]] = []
    node = start
    for _ in range(hops):
        nxt = name(rng)
        chain.append([node, rng.choice(RELATIONS), nxt])
        node = nxt
    answers = [node]
    if rng.random() < 0.2:  # a set answer: more members off the last bridge
        for _ in range(rng.randint(1, 3)):
            member = name(rng)
            chain.append([chain[-1][0], chain[-1][1], member])
            answers.append(member)
    constraints: dict[str, str] = {}
    if level == "L3":
        d1, d2 = date(rng), date(rng)
        chain += [[answers[0], "服役时间", d1], [d1, "晚于", d2]]
        constraints = {k: name(rng) for k in rng.sample(KEYS, rng.randint(2, 3))}
    elif level == "L2" and rng.random() < 0.5:
        constraints = {rng.choice(KEYS): name(rng)}
    alt = [] if rng.random() < 0.5 else [[start, "别名", name(rng)], *chain[1:]]
    return {
        "query_id": f"q_{i:05d}",
        "doc_id": f"doc_{i // 10:04d}",
        "question": f"{start}{rng.choice(['的', '所属', '相关'])}{''.join(constraints.values())}是什么？",
        "answer_type": "实体集合" if len(answers) > 1 else rng.choice(["人物", "武器装备", "组织机构", "时间"]),
        "answers": answers,
        "gold_reasoning_paths_main": chain,
        "gold_reasoning_paths_alt": alt,
        "constraints": constraints,
        "difficulty": level,
    }


def prediction(gold: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Zero, one or two predictions for a gold item, in one of many shapes."""
    pred = json.loads(json.dumps(gold))
    path: list[list[Any]] = pred["gold_reasoning_paths_main"]
    kind = rng.random()
    if kind < 0.03:
        return []  # missing
    if kind < 0.25:
        pred["gold_reasoning_paths_main"] = [[h.replace(" ", ""), r, f" {t} "] for h, r, t in path]  # respaced
    elif kind < 0.40:
        pred["gold_reasoning_paths_main"] = path + [[path[0][0], "别名", "冗余三元组"]] * rng.randint(1, 3)
    elif kind < 0.50:
        pred["gold_reasoning_paths_main"] = path[: max(1, len(path) // 2)]
    elif kind < 0.58:
        pred["gold_reasoning_paths_main"] = list(reversed(path))
    elif kind < 0.63:
        pred["gold_reasoning_paths_main"] = [[t, r, h] for h, r, t in path]
    elif kind < 0.70:
        pred["answers"] = [name(rng)]
        pred["constraints"] = {}
    elif kind < 0.73:
        pred["answers"] = pred["answers"][0]  # malformed: a string
    elif kind < 0.76:
        pred["gold_reasoning_paths_main"] = [path[0][:2], *path[1:]]  # malformed: a 2-item triple
    elif kind < 0.78:
        pred["constraints"] = list(pred["constraints"].values())  # malformed: not an object
    elif kind < 0.80 and gold["gold_reasoning_paths_alt"]:
        pred["gold_reasoning_paths_main"] = gold["gold_reasoning_paths_alt"]
    out = [pred]
    if rng.random() < 0.01:
        out.append(dict(pred, answers=["重复"]))  # duplicate query_id
    if rng.random() < 0.01:
        out.append(dict(pred, query_id=pred["query_id"] + "_x"))  # unknown query_id
    return out


def reference_loop() -> float:
    """CPU seconds of a fixed pure-Python loop: how fast this machine runs Python right now (the cores are shared,
    so the same code can take twice as long from one minute to the next). Compare runs by `time / reference`."""
    t0 = time.process_time()
    x = 0
    for i in range(5_000_000):
        x += i
    return time.process_time() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    gold = [gold_item(i, rng) for i in range(args.n)]
    preds = [p for g in gold for p in prediction(g, rng)]
    rng.shuffle(preds)
    with tempfile.TemporaryDirectory(prefix="bench_score_") as tmp:
        gold_path, pred_path = Path(tmp) / "qa_answer.json", Path(tmp) / "result.json"
        gold_path.write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
        pred_path.write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
        size_mb = (gold_path.stat().st_size + pred_path.stat().st_size) / 1e6
        print(f"{args.n} gold items, {len(preds)} prediction records, {size_mb:.1f} MB of JSON")
        del gold, preds  # the generator's objects are not the scorer's: drop them before timing
        gc.collect()
        times: list[float] = []
        cpu: list[float] = []
        for run in range(1, args.repeat + 1):
            normalize_text.cache_clear()
            t0, c0 = time.perf_counter(), time.process_time()
            report = score_files(pred_path, gold_path)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            load = os.getloadavg()[0]
            print(f"run {run}: {times[-1]:.3f} s wall, {cpu[-1]:.3f} s CPU (read + parse + score); load {load:.2f}")
        # Where the time goes (one more run, phase by phase: what score_files does).
        normalize_text.cache_clear()
        t0 = time.perf_counter()
        gold_records = load_gold(gold_path)
        t1 = time.perf_counter()
        pred_records = load_predictions(pred_path)
        t2 = time.perf_counter()
        score_records(pred_records.by_id, gold_records.by_id)
        t3 = time.perf_counter()
        print(
            f"phases: read + parse gold {t1 - t0:.3f} s, read + parse predictions {t2 - t1:.3f} s, "
            f"score {t3 - t2:.3f} s"
        )
    best = min(times)
    print(
        f"scored {report.count} questions: total {report.total:.2f}, mean {report.mean:.4f}; "
        f"missing {len(report.missing)}, unknown {len(report.unknown)}, duplicates {len(report.duplicates)}, "
        f"problems {len(report.problems)}"
    )
    print(f"best {best:.3f} s wall ({min(cpu):.3f} s CPU) = {best / args.n * 1e6:.0f} µs per question")
    ref = reference_loop()
    print(f"reference loop (5M additions): {ref:.3f} s CPU now; best run = {best / ref:.1f} reference loops")
    verdict = "within" if best <= TARGET_SECONDS else "OVER"
    print(f"target {TARGET_SECONDS:.1f} s; ratio to target: {best / TARGET_SECONDS:.2f} ({verdict} target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
