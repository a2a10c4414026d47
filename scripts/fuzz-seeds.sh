# Sourced by scripts/fuzz-smoke.sh and scripts/fuzz-long.sh: the fuzz targets, how each
# reads its input, and how its corpus is seeded (one place for both scripts). Expects the
# repository root as the working directory.

# Every target of fuzz/Cargo.toml, in the order the scripts run them.
FUZZ_TARGETS=(tokenize errors_on simulation writers differential_html5gum scalar_vs_simd stream warc_parallel http_body arc_reader tree select content)
# Targets seeded with WARC files (corpus/*.warc.gz and fuzz/warc-seeds/*: the same
# records as a .warc.zst and a .warc.lz4, made by archive/examples/warc_recompress.rs; each
# behind a first byte choosing the part size) instead of the HTML seeds.
WARC_TARGETS=" warc_parallel "
# Targets whose first input byte chooses the options (see test-support/src/checks.rs; for tree,
# fuzz/src/tree.rs; for content, fuzz/src/content.rs).
OPTION_TARGETS=" simulation writers scalar_vs_simd http_body tree content "
# Targets whose first bytes are a header: options, run sizes, chunk sizes (see
# fuzz/fuzz_targets/stream.rs); the seeds get a header of defaults and 1-byte chunks.
HEADER_TARGETS=" stream "

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
