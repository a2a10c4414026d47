#!/usr/bin/env bash
# The main-text evaluation in CI (content/eval/README.md):
#   1. the scorer's own tests (Python's standard library only);
#   2. the quality gate: the first 20 pages of each data set scored (htmltok's main text,
#      Resiliparse, turbohtml), and the run failed when an extractor's F1 is under its
#      floor in content/eval/baseline.json. It needs the evaluation data
#      ($HTMLTOK_EVAL_DATA, else ../shared/eval): without it the gate says NOT RUN, and
#      fails only with HTMLTOK_REQUIRE_EVAL_DATA=1 (the data is not in shared/ yet: see
#      the README's "How the data can reach CI").
# The extractors are installed, pinned (content/eval/requirements.txt), into a throwaway
# virtualenv (HTMLTOK_EVAL_VENV, default target/eval-venv).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python="${PYTHON:-python3}"

echo "==> the scorer's tests"
"$python" -m unittest discover -s content/eval -p 'test_*.py'

data="${HTMLTOK_EVAL_DATA:-../shared/eval}"
if [ ! -d "$data" ]; then
    echo "quality gate NOT RUN: no evaluation data at $data (content/eval/README.md)"
    if [ "${HTMLTOK_REQUIRE_EVAL_DATA:-0}" = 1 ]; then
        exit 1
    fi
    exit 0
fi

venv="${HTMLTOK_EVAL_VENV:-target/eval-venv}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet -r content/eval/requirements.txt
# htmltok's main text through the Python package (content/eval/README.md), built into the
# evaluation's virtualenv from this checkout (incremental: the workspace's target/).
"$venv/bin/python" -m pip install --quiet "maturin>=1.9,<2"
VIRTUAL_ENV="$(cd "$venv" && pwd)" PATH="$(cd "$venv" && pwd)/bin:$PATH" \
    "$venv/bin/maturin" develop --quiet --release -m bindings/python/Cargo.toml
echo "==> the quality gate on 20 pages of each set"
"$venv/bin/python" content/eval/evaluate.py --data "$data" --sample 20 \
    --extractors htmltok,resiliparse,turbohtml-main-text --check content/eval/baseline.json
