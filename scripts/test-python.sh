#!/usr/bin/env bash
# Builds the Python bindings (bindings/python) into a virtualenv, runs their pytest suite
# and type-checks the tests with mypy --strict (against the package's stubs). Needs only
# the Rust toolchain and Python 3 (>= 3.10) with venv; downloads maturin, pytest, mypy,
# zstandard and lz4 from PyPI and crates from crates.io.
#
#   scripts/test-python.sh [pytest arguments...]
#
# Environment:
#   HTMLTOK_PYTHON_VENV  the virtualenv to create or reuse (default: target/python-venv)
#   PYTHON               the interpreter to make it with (default: python3)
#   HTMLTOK_PY_PROFILE   release (default) or debug: the build of the extension
#   CI / HTMLTOK_REQUIRE_DATA  absent shared test data fails the tests instead of skipping
# The tests also build the CLI (cargo build -p htmltok-cli) to compare with it. The Spark
# tests (tests/test_spark.py) need Java (17+) and the `spark` extra — pyspark (a ~400 MB
# download, cached in the virtualenv: installed once), pyarrow and pandas. The datatrove
# and Ray tests (tests/test_datatrove.py, tests/test_ray.py) need datatrove and ray,
# pinned below (an 80 MB download for ray, the rest small; installed once).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
venv="${HTMLTOK_PYTHON_VENV:-target/python-venv}"
python="${PYTHON:-python3}"
profile="${HTMLTOK_PY_PROFILE:-release}"

step() { printf '\n==> %s\n' "$*"; }

if [ ! -x "$venv/bin/python" ]; then
    step "creating the virtualenv $venv ($("$python" --version 2>&1))"
    "$python" -m venv "$venv"
else
    step "reusing the virtualenv $venv"
fi

venv="$(cd "$venv" && pwd)"

step "installing maturin, pytest and mypy"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# zstandard, lz4: the tests write .warc.zst and .warc.lz4 files (one frame per record)
# to read them back. mypy: the type check below, and tests/test_stubs.py (stubtest).
"$venv/bin/python" -m pip install --quiet "maturin>=1.9,<2" pytest "mypy>=2.4,<3" zstandard lz4

# The same requirements as bindings/python/pyproject.toml's `spark` extra.
step "installing pyspark, pyarrow and pandas for the Spark tests (pyspark is large: the first time takes a while)"
"$venv/bin/python" -m pip install --quiet "pyspark>=3.5" "pyarrow>=14" "pandas>=2,<3"

# Pinned: the versions tests/test_datatrove.py and tests/test_ray.py were written against.
# datatrove for htmltok.datatrove; orjson for datatrove's JsonlWriter; warcio,
# faust-cchardet and python-magic for datatrove's own WarcReader, which the extractor's
# pipeline test reads with (python-magic loads the system's libmagic1). ray[data] for the
# Ray Data test of htmltok.ray.
step "installing datatrove and ray for the pipeline tests"
"$venv/bin/python" -m pip install --quiet "datatrove==0.10.1" "orjson==3.13.0" "warcio==1.8.2" \
    "faust-cchardet==3.2.0" "python-magic==0.4.27" "ray[data]==2.60.0"

step "building the CLI the tests compare with (cargo build -p htmltok-cli)"
cargo build -p htmltok-cli

flags=()
if [ "$profile" = release ]; then
    flags+=(--release)
fi
step "building and installing the extension (maturin develop ${flags[*]:-})"
# maturin develop installs into the active virtualenv.
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$venv/bin/maturin" develop "${flags[@]}" -m bindings/python/Cargo.toml

step "running pytest on bindings/python/tests"
"$venv/bin/python" -m pytest -rs bindings/python/tests "$@"

# The settings (strict, the untyped third-party modules) are in bindings/python/pyproject.toml.
step "type-checking the tests (mypy --strict)"
"$venv/bin/python" -m mypy --strict --config-file bindings/python/pyproject.toml bindings/python/tests
