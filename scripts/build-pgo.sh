#!/usr/bin/env bash
# Builds the Python extension's wheel with profile-guided optimization (PGO), as
# CPython and pydantic-core build theirs: an instrumented build runs a training script,
# and the release build is compiled with the branch and call counts it recorded.
#
#   scripts/build-pgo.sh [--install VENV]
#
# 1. builds an instrumented wheel (RUSTFLAGS=-Cprofile-generate) in target/pgo;
# 2. installs it into a scratch virtualenv (target/pgo/venv) and runs
#    bindings/python/bench/pgo_train.py on the bundled corpus/ (ten crafted pages that
#    are not in the shared benchmark corpus: the build is not trained on what the
#    benchmarks measure);
# 3. merges the profile with llvm-profdata and builds the wheel with -Cprofile-use into
#    target/wheels-pgo (printed at the end); --install VENV installs it there too.
# The profile changes code layout and inlining only: the extension gives the same
# answers (run the pytest suite on it to check). Measured gain: ARCHITECTURE.md "Release
# builds" and README.md "Speed".
#
# Needs llvm-profdata of the LLVM rustc was built with (`rustc -vV`): the rustup component
# (`rustup component add llvm-tools`), or Debian's `llvm-NN` package (llvm-profdata-NN).
# Environment: PYTHON (default python3), LLVM_PROFDATA (the tool, if not found).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
install_venv=""
while [ $# -gt 0 ]; do
    case "$1" in
        --install) install_venv="$2"; shift 2 ;;
        *) echo "usage: scripts/build-pgo.sh [--install VENV]" >&2; exit 2 ;;
    esac
done

step() { printf '\n==> %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

llvm_major="$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
host="$(rustc -vV | sed -n 's/^host: //p')"
profdata="${LLVM_PROFDATA:-}"
if [ -z "$profdata" ]; then
    for candidate in \
        "$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata" \
        "llvm-profdata-$llvm_major" \
        "/usr/lib/llvm-$llvm_major/bin/llvm-profdata" \
        "llvm-profdata"; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" --version 2>/dev/null | grep -q "LLVM version $llvm_major\."; then
            profdata="$candidate"
            break
        fi
    done
fi
if [ -z "$profdata" ]; then
    echo "build-pgo: no llvm-profdata of LLVM $llvm_major (rustc's): install the rustup" \
        "component llvm-tools or the package llvm-$llvm_major, or set LLVM_PROFDATA" >&2
    exit 1
fi

pgo="$root/target/pgo"
export CARGO_TARGET_DIR="$pgo/target"
rm -rf "$pgo/profiles" "$pgo/wheel-instrumented"
mkdir -p "$pgo/profiles"

if [ ! -x "$pgo/venv/bin/python" ]; then
    step "creating the training virtualenv $pgo/venv"
    "$python" -m venv "$pgo/venv"
fi
"$pgo/venv/bin/python" -m pip install --quiet --upgrade pip "maturin>=1.9,<2"
maturin="$pgo/venv/bin/maturin"

step "building the instrumented wheel"
RUSTFLAGS="-Cprofile-generate=$pgo/profiles" \
    "$maturin" build --release -m bindings/python/Cargo.toml -o "$pgo/wheel-instrumented"
"$pgo/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps \
    "$pgo"/wheel-instrumented/*.whl

step "training on the bundled corpus"
# Run from outside the source tree, so that the installed wheel is imported, not the
# package directory bindings/python/python.
(cd "$pgo" && "$pgo/venv/bin/python" "$root/bindings/python/bench/pgo_train.py" "$root/corpus")

step "merging the profile ($profdata)"
"$profdata" merge -o "$pgo/merged.profdata" "$pgo/profiles"

step "building the optimized wheel"
rm -rf "$root/target/wheels-pgo"
RUSTFLAGS="-Cprofile-use=$pgo/merged.profdata" \
    "$maturin" build --release -m bindings/python/Cargo.toml -o "$root/target/wheels-pgo"
wheel="$(ls "$root"/target/wheels-pgo/*.whl)"
echo "build-pgo: $wheel"

if [ -n "$install_venv" ]; then
    step "installing it into $install_venv"
    "$install_venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
fi
