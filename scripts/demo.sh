#!/usr/bin/env bash
# The main job on the bundled sample: set up (idempotent), answer every question of examples/sample with the
# embedded default model, then score the answers against the sample's gold with the official metric.
#   bash scripts/demo.sh                 # embedded Qwen2.5-Coder-1.5B (the default)
#   LLM=none bash scripts/demo.sh        # deterministic, no model
#   OUT=runs/x bash scripts/demo.sh      # another output folder
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
llm="${LLM:-embedded}"
# One folder per model setting (runs/sample/embedded, runs/sample/none, ...): a rerun resumes its own run, and
# kgreason refuses to resume a run made with other settings.
out="${OUT:-runs/sample/${llm//[^A-Za-z0-9._-]/_}}"
echo "==> kgreason run examples/sample --llm $llm"
.venv/bin/kgreason run examples/sample -o "$out/result.json" --llm "$llm"
echo "==> kgreason score"
.venv/bin/kgreason score --pred "$out/result.json" --gold examples/sample/qa_answer.json --json "$out/score.json"
echo "==> answers: $out/result.json   trace: $out/result.trace.jsonl   score report: $out/score.json"
