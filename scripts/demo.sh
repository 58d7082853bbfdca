#!/usr/bin/env bash
# The main job on the bundled sample: set up (idempotent), answer every question of examples/sample, then score the
# answers against the sample's gold with the official metric.
#   bash scripts/demo.sh --quick         # no model: no llama.cpp build, no weights; under a minute on a fresh machine
#   bash scripts/demo.sh                 # embedded Qwen2.5-Coder-1.5B (the default; the first set-up ~15 minutes)
#   LLM=none bash scripts/demo.sh        # the same as --quick
#   OUT=runs/x bash scripts/demo.sh      # another output folder
set -euo pipefail
cd "$(dirname "$0")/.."
llm="${LLM:-embedded}"
case "${1:-}" in
    --quick) llm=none ;;
    "") ;;
    *) echo "usage: bash scripts/demo.sh [--quick]" >&2; exit 2 ;;
esac
if [ "$llm" = none ]; then
    # Nothing here needs the models or the developer tools: do not build llama.cpp for a run that will not use it.
    KGREASON_NO_LLM=1 KGREASON_NO_DEV=1 bash scripts/setup.sh
else
    bash scripts/setup.sh
fi
# One folder per model setting (runs/sample/embedded, runs/sample/none, ...): a rerun resumes its own run, and
# kgreason refuses to resume a run made with other settings.
out="${OUT:-runs/sample/${llm//[^A-Za-z0-9._-]/_}}"
echo "==> kgreason run examples/sample -o $out --llm $llm"
status=0
.venv/bin/kgreason run examples/sample -o "$out/" --llm "$llm" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    exit "$status"  # 3: answers were written, some without the model (the run said why): still worth scoring
fi
echo "==> kgreason score"
.venv/bin/kgreason score --pred "$out/result.json" --gold examples/sample/qa_answer.json --json "$out/score.json"
echo "==> answers: $out/result.json   trace: $out/result.trace.jsonl   score report: $out/score.json"
exit "$status"
