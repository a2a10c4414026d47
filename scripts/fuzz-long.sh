#!/usr/bin/env bash
# Long fuzz run: builds the cargo-fuzz targets and runs each for SECONDS (default 300),
# one after the other (one core), keeping the corpus in fuzz/corpus/<target>/ between runs.
# Prints executions per second and total executions per target, and exits non-zero when a
# target crashed (the input is in fuzz/artifacts/<target>/).
#
#   scripts/fuzz-long.sh [SECONDS] [TARGET...]
#
# FUZZ_RUNS=N runs each target for N executions instead (SECONDS is then a cap: 0 for
# none), as the reliability figures in the README were run: FUZZ_RUNS=600000
# scripts/fuzz-long.sh 0. FUZZ_SKIP_BUILD=1 runs the targets as last built;
# FUZZ_TARGET_DIR builds and runs them in another target directory (a second build beside
# a run that is still going); FUZZ_SANITIZER=none builds without AddressSanitizer (two to
# three times the executions a second: for targets with no `unsafe` code of ours, where
# Rust's own checks stand in for it).
set -uo pipefail
cd "$(dirname "$0")/.."

# The toolchain for cargo-fuzz (FUZZ_TOOLCHAIN to change; it must be a nightly).
TOOLCHAIN=${FUZZ_TOOLCHAIN:-nightly}

# FUZZ_TARGETS, prepare_corpus: the targets and their seeds (shared with fuzz-smoke.sh).
source scripts/fuzz-seeds.sh

SECONDS_PER_TARGET=${1:-300}
shift || true
if [ $# -gt 0 ]; then
    TARGETS=("$@")
else
    TARGETS=("${FUZZ_TARGETS[@]}")
fi

if ! cargo +"$TOOLCHAIN" fuzz --version >/dev/null 2>&1; then
    echo "fuzz-long: needs \`cargo +$TOOLCHAIN\` and cargo-fuzz (\`cargo +$TOOLCHAIN install cargo-fuzz\`)" >&2
    exit 1
fi

dir_flag=()
if [ -n "${FUZZ_TARGET_DIR:-}" ]; then
    dir_flag=(--target-dir "$FUZZ_TARGET_DIR")
fi
if [ -n "${FUZZ_SANITIZER:-}" ]; then
    dir_flag+=(--sanitizer "$FUZZ_SANITIZER")
fi
if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    cargo +"$TOOLCHAIN" fuzz build "${dir_flag[@]}" || exit 1
fi
limit=(-max_total_time="$SECONDS_PER_TARGET")
if [ -n "${FUZZ_RUNS:-}" ]; then
    limit=(-runs="$FUZZ_RUNS")
    if [ "$SECONDS_PER_TARGET" != 0 ]; then
        limit+=(-max_total_time="$SECONDS_PER_TARGET")
    fi
fi
echo "fuzz-long: commit $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), ${limit[*]}"

mkdir -p fuzz/target/fuzz-logs
rows=()
failed=0
for target in "${TARGETS[@]}"; do
    prepare_corpus "$target"
    log=fuzz/target/fuzz-logs/$target.log
    echo "fuzz-long: $target, ${limit[*]} (log: $log)"
    started=$SECONDS
    cargo +"$TOOLCHAIN" fuzz run "${dir_flag[@]}" "$target" "fuzz/corpus/$target" -- \
        "${limit[@]}" -dict=fuzz/html.dict -timeout=10 \
        -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    files=$(ls "fuzz/corpus/$target" | wc -l)
    result=ok
    if [ $status -ne 0 ]; then
        result="CRASH (exit $status, see $log)"
        failed=1
    fi
    rows+=("$(printf '%-22s %8s %12s %10s %8s %8s  %s' "$target" "$((SECONDS - started))" "${runs:-?}" "${speed:-?}" "${cov:-?}" "$files" "$result")")
    echo "${rows[-1]}"
done

echo
printf '%-22s %8s %12s %10s %8s %8s  %s\n' target seconds executions exec/s cov corpus result
for row in "${rows[@]}"; do echo "$row"; done
exit $failed
