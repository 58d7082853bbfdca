"""Mecha-QA benchmark (spec 001, 表 5 / 表 7) with the open models that run here.

    .venv/bin/python benchmarks/bench_mecha.py --data ../shared/data/mecha_qa --llm embedded --limit 50 \\
        --setups emb-cosine,rem,llm-kg,ours -o mecha_bench.json

Same options as `kgreason mecha bench` (this script only forwards them); exits 0 with a message when the data folder
is missing, so it can run in CI without the shared data. Results: a JSON file and a Markdown table on stdout; LLM
replies are cached (`$KGREASON_CACHE_DIR/llm_cache.sqlite`), so a rerun costs seconds.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if "--data" in argv:
        data = Path(argv[argv.index("--data") + 1])
        if not (data / "kg.txt").exists():
            print(f"Mecha-QA data not found in {data}: nothing to benchmark", file=sys.stderr)
            return 0
    from kgreason.cli import app

    app(["mecha", "bench", *argv], standalone_mode=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
