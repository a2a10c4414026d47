#!/usr/bin/env bash
# Every test of the project — the README's test command, and what .ci/run calls:
#   1. cargo test --workspace   (the tokenizer, htmltok-crawl, htmltok-cli, the benches'
#                                differential and tree-builder tests, html5lib per case)
#   2. scripts/test-python.sh   (builds the Python package into a virtualenv, runs pytest)
# Extra arguments go to cargo test. Tests whose external data (../shared) is absent say
# `NOT RUN` and pass; with CI or HTMLTOK_REQUIRE_DATA set they fail instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "==> cargo test --workspace $*"
cargo test --workspace "$@"
echo
echo "==> scripts/test-python.sh"
bash scripts/test-python.sh
