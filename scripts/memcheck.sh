#!/usr/bin/env bash
# Memory safety check: runs the library's unit tests (scanner agreement properties
# included), tests/regressions.rs (every regression input with every scanner) and a reduced
# tests/properties.rs under valgrind memcheck, twice: with the default scanner (the best
# SIMD scanner the CPU has) and with HTMLTOK_SCANNER=scalar (which `Scanner::detect()`
# honours). Exits non-zero on any memcheck error (--error-exitcode=1), on a definite leak,
# or when a test fails.
#
#   scripts/memcheck.sh            # debug build (default)
#   MEMCHECK_PROFILE=release scripts/memcheck.sh
#   MEMCHECK_QUICKCHECK_TESTS=50   # cases per property under valgrind (default 30)
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    echo "memcheck: valgrind is not installed (apt-get install valgrind)" >&2
    exit 1
fi

profile_flag=()
if [ "${MEMCHECK_PROFILE:-debug}" = release ]; then
    profile_flag=(--release)
fi

# The test executables, from cargo's JSON messages.
executables() {
    cargo test -p htmltok "${profile_flag[@]}" --no-run --message-format=json "$@" 2>/dev/null |
        grep '"reason":"compiler-artifact"' | grep '"test":true' |
        grep -o '"executable":"[^"]*"' | sed 's/"executable":"\(.*\)"/\1/'
}

echo "memcheck: building the test binaries"
if ! cargo test -p htmltok "${profile_flag[@]}" --no-run --lib --test regressions --test properties; then
    echo "memcheck: FAILED: the tests do not build" >&2
    exit 1
fi
# Pick each test harness by its file name: building an integration test also builds the
# `htmltok` program, which cargo lists among the artifacts too.
lib=$(executables --lib | grep '/deps/htmltok-' | head -1)
regressions=$(executables --test regressions | grep '/deps/regressions-' | head -1)
properties=$(executables --test properties | grep '/deps/properties-' | head -1)
for exe in "$lib" "$regressions" "$properties"; do
    [ -x "$exe" ] || { echo "memcheck: FAILED: test binary not found" >&2; exit 1; }
done

export QUICKCHECK_TESTS=${MEMCHECK_QUICKCHECK_TESTS:-30}
status=0
run() {
    local label=$1
    shift
    echo "memcheck: [$label] $*"
    local log
    log=$(mktemp)
    valgrind --tool=memcheck --error-exitcode=1 --leak-check=full \
        --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        --quiet "$@" --test-threads=1 >"$log" 2>&1
    local code=$?
    if [ $code -ne 0 ]; then
        echo "memcheck: [$label] FAILED (exit $code):" >&2
        tail -60 "$log" >&2
        status=1
    else
        echo "memcheck: [$label] ok ($(grep -o 'test result: [^;]*' "$log" | tail -1))"
    fi
    rm -f "$log"
}

for scanner in simd scalar; do
    if [ $scanner = scalar ]; then
        export HTMLTOK_SCANNER=scalar
    else
        unset HTMLTOK_SCANNER
    fi
    run "$scanner lib" "$lib"
    run "$scanner regressions" "$regressions"
    run "$scanner properties" "$properties"
done

if [ $status -eq 0 ]; then
    echo "memcheck: no errors (SIMD and scalar scanners)"
else
    echo "memcheck: FAILED" >&2
fi
exit $status
