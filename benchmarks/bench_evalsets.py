"""Benchmark of `kgreason ask` / `chat` on evaluation sets in spec 002's format (default: examples/sample/evalsets).

    .venv/bin/python benchmarks/bench_evalsets.py                              # --llm none
    .venv/bin/python benchmarks/bench_evalsets.py --llm none --llm embedded   # compare with the embedded model

Prints, per LLM spec and per set: the keyword score (answer with its evidence triples; and of the answer text
alone), per category; for the multi-turn set also the context-dependent turns, the resolution accuracy of the
referring turns, how references were resolved (program / LLM / topic default), and seconds per turn (mean, max),
and the issue's targets next to the figures. Results are written to a temporary folder, not to the sets' results/.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from kgreason.corpus.answer import Corpus
from kgreason.evalset.model import read_evalsets
from kgreason.evalset.run import run_dialogues, run_single, write_results
from kgreason.llm.config import LLMConfig
from kgreason.llm.factory import close_llm, create_llm, llm_accounting
from kgreason.llm.types import ChatMessage

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"factual_qa": 0.85, "relation_qa": 0.85, "event_tracking": 0.75}
CONTEXT_TARGET, RESOLUTION_TARGET, SECONDS_TARGET = 0.75, 0.9, 5.0
WARM_UP_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


def _f(v: Any) -> str:
    return f"{v:.3f}" if isinstance(v, float) else "-"


def bench(eval_dir: Path, data: Path, spec: str, out: Path) -> None:
    llm = create_llm(spec, LLMConfig.from_env(), progress=lambda m: print(m, file=sys.stderr))
    try:
        t0 = time.monotonic()
        corpus = Corpus.load(data, llm=llm)
        corpus.prepare()
        if llm is not None:  # load the model now, so that no item's time includes it
            llm.complete_json([ChatMessage("user", "ok?")], WARM_UP_SCHEMA, max_tokens=8)
        print(f"\n== --llm {spec} (loaded in {time.monotonic() - t0:.1f} s)")
        for evalset in read_evalsets(eval_dir):
            if evalset.dialogues:
                rows = run_dialogues(corpus, evalset, llm, None, lambda _: None)
            else:
                rows = run_single(corpus, evalset, None, lambda _: None)
            s = write_results(out / spec.replace(":", "_"), evalset.name, evalset.description, rows, {"llm": spec})
            if evalset.dialogues:
                turns = [t for d in rows for t in d["turns"]]
                how = Counter(t["resolved_by"] for t in turns if t["resolution"] != "none")
                asked = sum(1 for t in turns if t["llm_asked"])
                print(
                    f"{evalset.name}: {s['dialogues']} dialogues, {s['turns']} turns; keyword {_f(s['keyword'])} "
                    f"(answer only {_f(s['keyword_answer_only'])}); context-dependent turns ({s['context_turns']}) "
                    f"{_f(s['keyword_context_turns'])} [target >= {CONTEXT_TARGET}]; resolution accuracy "
                    f"{_f(s['resolution_accuracy'])} over {s['referring_turns']} referring turns "
                    f"[target >= {RESOLUTION_TARGET}]; resolved by {dict(how)}; LLM chose an answer in {asked}; "
                    f"s/turn mean "
                    f"{_f(s['seconds_per_turn'])} max {_f(s['max_seconds_per_turn'])} [target <= {SECONDS_TARGET}]"
                )
            else:
                cats = ", ".join(f"{k} {_f(v)}" for k, v in s["by_category"].items())
                print(
                    f"{evalset.name}: {s['items']} items; keyword {_f(s['keyword'])} "
                    f"[target >= {TARGETS.get(evalset.name, '-')}] (answer only {_f(s['keyword_answer_only'])}); "
                    f"{cats}; LLM chose in {sum(1 for r in rows if r['llm_asked'])}; "
                    f"s/item mean {_f(s['seconds_per_item'])} max {_f(s['max_seconds_per_item'])}"
                )
        acc = llm_accounting(llm)
        if acc is not None:
            print(acc.line())
    finally:
        close_llm(llm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--evalsets", type=Path, default=REPO / "examples" / "sample" / "evalsets")
    parser.add_argument("--data", type=Path, default=REPO / "examples" / "sample")
    parser.add_argument("--llm", action="append", default=None, help="LLM spec (repeatable; default: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.llm or ["none"]:
            bench(args.evalsets, args.data, spec, Path(tmp))


if __name__ == "__main__":
    main()
