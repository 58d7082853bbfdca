#!/usr/bin/env bash
# The test command: set up (idempotent), then lint, type-check and run every test, the slow ones with the real
# embedded models and a real llama.cpp server included. Extra arguments go to pytest (e.g. -m "not slow").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "==> ruff"
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks
echo "==> mypy"
.venv/bin/mypy
echo "==> pytest"
.venv/bin/python -m pytest "$@"
