#!/usr/bin/env bash
# Writes a manifest of WARC and ARC files for the Spark job (python -m htmltok.spark): one
# absolute path per line, sorted, from folders (searched recursively for *.warc,
# *.warc.gz, *.warc.zst, *.warc.lz4, *.arc and *.arc.gz), archive files, and glob patterns (quoted, so that the shell does not expand
# them first; `**` is not special).
#
#   scripts/make-manifest.sh [-o MANIFEST] FOLDER_OR_WARC_OR_GLOB...
#
# Without -o the manifest goes to standard output. Exits with 2 when an argument matches
# nothing or no WARC file is found.
set -euo pipefail
shopt -s nullglob

out=""
if [ "${1:-}" = "-o" ]; then
    out="$2"
    shift 2
fi
if [ $# -eq 0 ]; then
    echo "usage: $0 [-o MANIFEST] FOLDER_OR_WARC_OR_GLOB..." >&2
    exit 2
fi

list=()
for arg in "$@"; do
    # An unquoted or quoted glob: expand it here (nullglob: no match is no path).
    # shellcheck disable=SC2206
    matches=($arg)
    if [ ${#matches[@]} -eq 0 ]; then
        echo "make-manifest: '$arg' matches nothing" >&2
        exit 2
    fi
    for path in "${matches[@]}"; do
        if [ ! -e "$path" ]; then
            echo "make-manifest: '$path' does not exist" >&2
            exit 2
        elif [ -d "$path" ]; then
            while IFS= read -r -d '' f; do
                list+=("$(realpath "$f")")
            done < <(find "$path" -type f \( -name '*.warc' -o -name '*.warc.gz' -o -name '*.warc.zst' \
                -o -name '*.warc.lz4' -o -name '*.arc' -o -name '*.arc.gz' \) -print0)
        else
            list+=("$(realpath "$path")")
        fi
    done
done
if [ ${#list[@]} -eq 0 ]; then
    echo "make-manifest: no WARC files found" >&2
    exit 2
fi
if [ -n "$out" ]; then
    printf '%s\n' "${list[@]}" | LC_ALL=C sort -u > "$out"
    echo "make-manifest: ${#list[@]} paths -> $out" >&2
else
    printf '%s\n' "${list[@]}" | LC_ALL=C sort -u
fi
