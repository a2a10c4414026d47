#!/usr/bin/env bash
# Measures the Python bindings against selectolax and Resiliparse (single thread), and
# htmltok.process with 2 threads against 1, on ../shared/corpus (else corpus/): builds the
# extension in release mode into a throwaway virtualenv with selectolax and resiliparse
# from PyPI, then runs bindings/python/bench/bench.py, which prints a Markdown table.
#
#   scripts/bench-python.sh [CORPUS_DIR] [--repeat N]
#
# Environment: HTMLTOK_BENCH_VENV (default target/python-bench-venv, removed first unless
# HTMLTOK_BENCH_KEEP_VENV=1), PYTHON (default python3).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="${HTMLTOK_BENCH_VENV:-target/python-bench-venv}"
python="${PYTHON:-python3}"
step() { printf '\n==> %s\n' "$*" >&2; }

if [ "${HTMLTOK_BENCH_KEEP_VENV:-0}" != 1 ] || [ ! -x "$venv/bin/python" ]; then
    step "creating a throwaway virtualenv $venv"
    rm -rf "$venv"
    "$python" -m venv "$venv"
fi
venv="$(cd "$venv" && pwd)"
step "installing maturin, selectolax, pyarrow and resiliparse"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "maturin>=1.9,<2" selectolax pyarrow
if ! "$venv/bin/python" -m pip install --quiet resiliparse; then
    echo "resiliparse did not install: measuring the rest" >&2
fi
step "building the extension (maturin develop --release)"
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$venv/bin/maturin" develop --release -m bindings/python/Cargo.toml
step "running bindings/python/bench/bench.py"
"$venv/bin/python" bindings/python/bench/bench.py "$@"
