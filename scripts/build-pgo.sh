#!/usr/bin/env bash
# Builds the Python extension's release wheel with profile-guided optimization (PGO), as
# CPython and pydantic-core build theirs, into target/wheels-pgo (printed at the end);
# --install VENV installs it there too.
#
#   scripts/build-pgo.sh [--install VENV]
#
# The work is the package's build backend's (bindings/python/build_backend/pgo_backend.py),
# which `pip install ./bindings/python` runs too: an instrumented build runs
# bindings/python/bench/pgo_train.py on the bundled corpus/ (ten crafted pages that are
# not in the shared benchmark corpus: the build is not trained on what the benchmarks
# measure), llvm-profdata merges the counts, and the wheel is built again with them. This
# script sets HTMLTOK_PGO=1, so that it fails where pip would fall back to the plain build.
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

out="$root/target/wheels-pgo"
rm -rf "$out"
step "building the wheel with PGO (pip wheel ./bindings/python, HTMLTOK_PGO=1)"
HTMLTOK_PGO=1 "$python" -m pip wheel --verbose --no-deps -w "$out" ./bindings/python
wheel="$(ls "$out"/*.whl)"
echo "build-pgo: $wheel"

if [ -n "$install_venv" ]; then
    step "installing it into $install_venv"
    "$install_venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
    "$install_venv/bin/python" -c 'import htmltok, sys; sys.exit(0 if htmltok.PGO else "htmltok.PGO is False")'
fi
