#!/usr/bin/env bash
# The main job on the bundled sample: set up (idempotent), answer every question of examples/sample with the
# embedded default model, then score the answers against the sample's gold with the official metric.
#   bash scripts/demo.sh                 # embedded Qwen2.5-Coder-1.5B (the default)
#   LLM=none bash scripts/demo.sh        # deterministic, no model
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
out="${OUT:-runs/sample}"
echo "==> kgreason run examples/sample --llm ${LLM:-embedded}"
.venv/bin/kgreason run examples/sample -o "$out/result.json" --llm "${LLM:-embedded}"
echo "==> kgreason score"
.venv/bin/kgreason score --pred "$out/result.json" --gold examples/sample/qa_answer.json --json "$out/score.json"
echo "==> answers: $out/result.json   trace: $out/result.trace.jsonl   score report: $out/score.json"
