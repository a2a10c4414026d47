#!/usr/bin/env bash
# The main-text evaluation in CI (content/eval/README.md):
#   1. the scorer's own tests (Python's standard library only);
#   2. the quality gate: the first 20 pages of each data set scored (htmltok's main text,
#      Resiliparse, turbohtml), and the run failed when an extractor's F1 is under its
#      floor in content/eval/baseline.json;
#   3. the gate of many kinds of pages (issue #49): htmltok on a third of the multitype set
#      (multitype-dev, the pages whose number is a multiple of 3), its F1 overall and per
#      kind against their floors in baseline.json;
#   4. the Markdown fidelity gate (issue #50): htmltok's whole-page Markdown on the corpus
#      (and the multitype set), read back and held against the DOM
#      (content/eval/markdown_fidelity.py --check: code blocks 99 %, headings 97 %,
#      tables 98 %, word F1 0.97).
# The data: $HTMLTOK_EVAL_DATA, else ../shared/eval (the sets, in their repositories'
# layouts), else Mozilla Readability's test pages as the crates.io registry ships them: the
# `readability-js` crate (0.1.5) vendors mozilla/readability with its `test/test-pages`
# (128 pages, source.html + expected.html). The crate is downloaded from crates.io, checked
# against the sha256 the crates.io index gives for it, and unpacked into target/eval-data;
# only the readability set is scored then (the article-extraction-benchmark is in no
# registry). When neither is reachable the gate says NOT RUN, and fails when CI is set or
# HTMLTOK_REQUIRE_EVAL_DATA=1.
# The extractors are installed, pinned (content/eval/requirements.txt), into a throwaway
# virtualenv (HTMLTOK_EVAL_VENV, default target/eval-venv).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python="${PYTHON:-python3}"

echo "==> the scorer's tests"
"$python" -m unittest discover -s content/eval -p 'test_*.py'

# Mozilla Readability's test pages from crates.io: the readability-js crate, pinned by
# version and by the checksum of the crates.io index (index.crates.io/re/ad/readability-js).
readability_crate=readability-js-0.1.5
readability_sha256=d02138178afcfb4170784233319e903f79b4818759d6e1e657175b54c719f926

readability_from_crates_io() {
    local dir=target/eval-data crate="target/eval-data/$readability_crate.crate"
    if [ -f "$dir/$readability_crate/vendor/readability/test/test-pages/001/expected.html" ]; then
        return 0
    fi
    mkdir -p "$dir"
    local url="https://static.crates.io/crates/readability-js/$readability_crate.crate"
    if command -v curl >/dev/null; then
        curl -sSfL --retry 3 -o "$crate.part" "$url" || return 1
    else
        "$python" -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
            "$url" "$crate.part" || return 1
    fi
    if ! echo "$readability_sha256  $crate.part" | sha256sum --check --quiet; then
        echo "$readability_crate.crate: sha256 differs from the crates.io index's" >&2
        rm -f "$crate.part"
        return 1
    fi
    mv "$crate.part" "$crate"
    tar -xzf "$crate" -C "$dir" "$readability_crate/vendor/readability/test/test-pages"
}

not_run() {
    echo "$1 NOT RUN: $2 (content/eval/README.md)"
    if [ -n "${CI:-}" ] || [ "${HTMLTOK_REQUIRE_EVAL_DATA:-0}" = 1 ]; then
        exit 1
    fi
}

shared="${HTMLTOK_EVAL_DATA:-../shared/eval}"
data="$shared"
datasets=readability,scrapinghub
if [ ! -d "$shared/readability" ] && [ ! -d "$shared/article-extraction-benchmark" ]; then
    echo "no readability or article-extraction-benchmark set at $shared: Mozilla Readability's test pages from crates.io ($readability_crate)"
    if readability_from_crates_io; then
        data="target/eval-data/$readability_crate/vendor"
        datasets=readability
        echo "quality gate on the readability set only (the article-extraction-benchmark is in no registry)"
    else
        not_run "quality gate" "no evaluation data at $shared and crates.io not reachable"
        datasets=
    fi
fi
multitype="$shared/multitype-dev"
if [ ! -d "$multitype/ground-truth" ]; then
    not_run "gate of many kinds of pages" "no $multitype"
    multitype=
fi
if [ -z "$datasets" ] && [ -z "$multitype" ]; then
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
if [ -n "$datasets" ]; then
    echo "==> the quality gate on 20 pages of each set ($datasets)"
    "$venv/bin/python" content/eval/evaluate.py --data "$data" --datasets "$datasets" --sample 20 \
        --extractors htmltok,resiliparse,turbohtml-main-text --check content/eval/baseline.json
fi
if [ -n "$multitype" ]; then
    echo "==> the gate of many kinds of pages: htmltok on a third of $multitype, per kind"
    "$venv/bin/python" content/eval/evaluate.py --multitype "$multitype" --datasets multitype-third \
        --extractors htmltok --check content/eval/baseline.json
fi
corpus="${HTMLTOK_CORPUS:-../shared/corpus}"
if [ -f "$corpus/MANIFEST.tsv" ]; then
    sets=corpus
    where=(--corpus "$corpus")
    if [ -n "$multitype" ]; then
        sets=corpus,multitype
        where+=(--multitype "$multitype")
    fi
    echo "==> the Markdown fidelity gate: htmltok on $sets"
    "$venv/bin/python" content/eval/markdown_fidelity.py --datasets "$sets" "${where[@]}" \
        --converters htmltok --no-main --speed-repeat 1 --check
else
    not_run "Markdown fidelity gate" "no corpus at $corpus"
fi
