#!/usr/bin/env bash
# Fuzz smoke test for CI: builds the cargo-fuzz targets in fuzz/ and runs each for about
# 20 seconds (FUZZ_SMOKE_SECONDS to change), seeded from fuzz/seeds/ and
# tests/regressions/. Exits non-zero when a target fails to build or finds a crash (the
# input is left in fuzz/artifacts/<target>/; minimise it with
# `cargo +nightly fuzz tmin <target> <file>` and add it to tests/regressions/).
#
# Needs the nightly toolchain (`rustup toolchain install nightly`) and cargo-fuzz
# (`cargo +nightly install cargo-fuzz`). When `cargo +nightly` is unavailable it says so
# and exits 0: that is the only case it skips.
set -uo pipefail
cd "$(dirname "$0")/.."

# The toolchain for cargo-fuzz (FUZZ_TOOLCHAIN to change; it must be a nightly).
TOOLCHAIN=${FUZZ_TOOLCHAIN:-nightly}

SECONDS_PER_TARGET=${FUZZ_SMOKE_SECONDS:-20}
# FUZZ_TARGETS, prepare_corpus: the targets and their seeds.
source scripts/fuzz-seeds.sh
TARGETS=("${FUZZ_TARGETS[@]}")

if ! cargo +"$TOOLCHAIN" --version >/dev/null 2>&1; then
    echo "fuzz-smoke: SKIPPED: \`cargo +$TOOLCHAIN\` is not available (install it with \`rustup toolchain install nightly\`)."
    exit 0
fi
if ! cargo +"$TOOLCHAIN" fuzz --version >/dev/null 2>&1; then
    echo "fuzz-smoke: FAILED: cargo-fuzz is not installed; run \`cargo +$TOOLCHAIN install cargo-fuzz\`." >&2
    exit 1
fi

echo "fuzz-smoke: building the fuzz targets"
if ! cargo +"$TOOLCHAIN" fuzz build; then
    echo "fuzz-smoke: FAILED: the fuzz targets do not build" >&2
    exit 1
fi

failed=()
for target in "${TARGETS[@]}"; do
    prepare_corpus "$target"
    log=$(mktemp)
    echo "fuzz-smoke: running $target for ${SECONDS_PER_TARGET}s"
    cargo +"$TOOLCHAIN" fuzz run "$target" "fuzz/corpus/$target" -- \
        -max_total_time="$SECONDS_PER_TARGET" -dict=fuzz/html.dict -timeout=10 \
        -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [ $status -ne 0 ]; then
        echo "fuzz-smoke: $target FAILED (exit $status); last lines of its log:" >&2
        tail -40 "$log" >&2
        failed+=("$target")
    else
        echo "fuzz-smoke: $target ok: ${runs:-?} executions, ${speed:-?} exec/s"
    fi
    rm -f "$log"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz-smoke: FAILED targets: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
echo "fuzz-smoke: all ${#TARGETS[@]} targets ran without a crash"
