"""Robustness to rewording: development questions asked in other words, answered on the same KGs.

    .venv/bin/python benchmarks/bench_paraphrase.py            # --llm none
    .venv/bin/python benchmarks/bench_paraphrase.py --failures
    .venv/bin/python benchmarks/bench_paraphrase.py --llm embedded --items benchmarks/data/new_shapes.json

With `--llm SPEC` each question is answered by the program alone and with the model choosing among near-ties, and
the answers the model changed are counted: right, wrong, or wrong both ways.

`benchmarks/data/paraphrases.json` holds questions this project wrote by rewording questions of `examples/sample` and
`../shared/data/ccks_ext_dev` (other verbs, short forms, other word order, the same facts asked; on the sample also
polite frames, spaces, full-width and bracketed names: `你知道…吗`, `f-35c 的 翼展`) with the answers the KG gives;
no gold path, so the figure is answer accuracy (the set of answers equal, order aside). They were written in three
rounds after the reasoner's mechanisms, and some of their failures then informed general fixes (a one-character kind
before a verb, 多 as a comparative, a compared name not borrowing the other's values, 谁 answering an organisation,
哪座城市 asking a place, a request frame asking the question inside), so treat the figure as a development measure of
how much a rewording costs.

`benchmarks/data/new_shapes.json` (`--items`) holds 119 questions of shapes the data sets do not ask, written by this
project on ccks_ext_dev's KGs (60) and the sample's (22, then 37 more written before running them: 30/37 right at
first): a
number as an anchor `舷号为105的…`, a converse relation `后继型号`, `较近`, a group
before `中，哪一个`, `哪一次` over events, names joined by `、`, the name of a picked member `…的那种叫什么`;
their failures informed general fixes, so it too is a development figure.
`benchmarks/data/negation.json` (`--items`) holds 24 questions of negation over a described group (`X中，哪些没有Y`),
written on the eight KGs by a helper who read only the KGs, before `reason/negation.py` existed (5/24 right then).
`benchmarks/data/time_order.json` (`--items`): 24 questions of event-anchored time (`X时，Y是否已经…`, `X之后…`),
superlatives over described groups and comparisons of described things, written the same way after the negation
batch (17/24 right with 4563200 before two fixes they exposed).
Exits 0 with a message when a data folder is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kgreason.data.loader import load_dataset
from kgreason.data.records import Question
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm
from kgreason.llm.types import LLM
from kgreason.reason.reasoner import Reasoner

HERE = Path(__file__).resolve().parent
SETS = {
    "sample": HERE.parent / "examples" / "sample",
    "ccks_ext_dev": HERE.parent.parent / "shared" / "data" / "ccks_ext_dev",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=Path, default=HERE / "data" / "paraphrases.json")
    parser.add_argument("--failures", action="store_true", help="list the questions answered wrongly")
    parser.add_argument("--llm", default="none", help="also answer with this model choosing (e.g. embedded)")
    args = parser.parse_args(argv)
    items = json.loads(args.items.read_text(encoding="utf-8"))
    print(f"command: .venv/bin/python benchmarks/bench_paraphrase.py {' '.join(argv or sys.argv[1:])}".rstrip())
    llm = None if args.llm == "none" else create_llm(args.llm, LLMConfig.from_env())
    try:
        return _report(items, args.failures, llm)
    finally:
        if llm is not None:
            close_llm(llm)


def _report(items: list[dict[str, Any]], failures: bool, llm: LLM | None) -> int:
    for name, root in SETS.items():
        mine = [it for it in items if it["set"] == name]
        if not mine:
            continue
        if not root.is_dir():
            print(f"{name}: data folder {root} not found; skipped")
            continue
        dataset, _ = load_dataset(root, check_gold=False)
        reasoner = Reasoner(dataset)
        with_model = Reasoner(dataset, llm=llm) if llm is not None else None
        wrong = []
        model_right, changes = 0, {"right": 0, "wrong": 0, "wrong both ways": 0}
        for i, it in enumerate(mine):
            q = Question(f"{it['doc_id']}_p{i:03d}", it["doc_id"], it["question"], it["difficulty"])
            got = reasoner.answer(q).record.answers
            want = sorted(it["answers"])
            if sorted(got) != want:
                wrong.append((it["question"], got, it["answers"]))
            if with_model is not None:
                chosen = with_model.answer(q).record.answers
                model_right += sorted(chosen) == want
                if sorted(chosen) != sorted(got):
                    kind = "right" if sorted(chosen) == want else "wrong" if sorted(got) == want else "wrong both ways"
                    changes[kind] += 1
        right = len(mine) - len(wrong)
        print(f"{name}: {right}/{len(mine)} questions answered right ({right / max(1, len(mine)):.3f})")
        if with_model is not None:
            changed = ", ".join(f"{n} {k}" for k, n in changes.items())
            print(f"  with the model choosing: {model_right}/{len(mine)} right; answers it changed: {changed}")
        if failures:
            for question, got, want in wrong:
                print(f"  {question} -> {list(got)} (expected {want})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
