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
TARGETS=(tokenize errors_on simulation writers differential_html5gum scalar_vs_simd stream warc_parallel http_body arc_reader tree select content)
# Targets seeded with WARC files (corpus/*.warc.gz and fuzz/warc-seeds/*: the same
# records as a .warc.zst and a .warc.lz4, made by crawl/examples/warc_recompress.rs; each
# behind a first byte choosing the part size) instead of the HTML seeds.
WARC_TARGETS=" warc_parallel "
# Targets whose first input byte chooses the options (see fuzz/src/checks.rs; for tree,
# fuzz/src/tree.rs; for content, fuzz/src/content.rs).
OPTION_TARGETS=" simulation writers scalar_vs_simd http_body tree content "
# Targets whose first bytes are a header: options, run sizes, chunk sizes (see
# fuzz/fuzz_targets/stream.rs); the seeds get a header of defaults and 1-byte chunks.
HEADER_TARGETS=" stream "

if ! cargo +"$TOOLCHAIN" --version >/dev/null 2>&1; then
    echo "fuzz-smoke: SKIPPED: \`cargo +$TOOLCHAIN\` is not available (install it with \`rustup toolchain install nightly\`)."
    exit 0
fi
if ! cargo +"$TOOLCHAIN" fuzz --version >/dev/null 2>&1; then
    echo "fuzz-smoke: FAILED: cargo-fuzz is not installed; run \`cargo +$TOOLCHAIN install cargo-fuzz\`." >&2
    exit 1
fi

# Seeds: the hand-written files and the regression inputs; for the targets that read
# their options from the first byte, also each file behind a 0x00 byte (the defaults).
prepare_corpus() {
    local target=$1 dir=fuzz/corpus/$1
    mkdir -p "$dir"
    if [[ $target == arc_reader ]]; then
        cp fuzz/arc-seeds/* "$dir/"
        return
    fi
    if [[ $target == select ]]; then
        prepare_select_corpus "$dir"
        return
    fi
    if [[ $WARC_TARGETS == *" $target "* ]]; then
        for f in corpus/*.warc corpus/*.warc.gz fuzz/warc-seeds/*; do
            [ -f "$f" ] || continue
            { printf '\x20'; cat "$f"; } > "$dir/seed-$(basename "$f")"
        done
        return
    fi
    for f in fuzz/seeds/* tests/regressions/*; do
        [ -f "$f" ] || continue
        case "$f" in *.md) continue ;; esac
        cp "$f" "$dir/seed-$(basename "$f")"
        if [[ $OPTION_TARGETS == *" $target "* ]]; then
            { printf '\0'; cat "$f"; } > "$dir/seed0-$(basename "$f")"
        fi
        if [[ $HEADER_TARGETS == *" $target "* ]]; then
            { printf '\0\x11\x00\x00'; cat "$f"; } > "$dir/seed0-$(basename "$f")"
        fi
    done
}

# The select target's seeds (see fuzz/src/select.rs): each selector of
# fuzz/select-seeds/selectors.txt before each HTML seed, as raw text (header 0x02:
# scripting on, the selector's length) and as the grammar's choices (header 0x01).
prepare_select_corpus() {
    local dir=$1 css f k=0 LC_ALL=C
    while IFS= read -r css; do
        [ -n "$css" ] || continue
        k=$((k + 1))
        for f in fuzz/seeds/*; do
            [ -f "$f" ] || continue
            { printf '\x02'; printf "\\x$(printf %02x ${#css})"; printf '%s' "$css"; cat "$f"; } \
                > "$dir/seed-$k-$(basename "$f")"
            { printf '\x01'; printf "\\x$(printf %02x ${#css})"; printf '%s' "$css"; cat "$f"; } \
                > "$dir/seedg-$k-$(basename "$f")"
        done
    done < fuzz/select-seeds/selectors.txt
}

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
