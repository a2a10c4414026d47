#!/usr/bin/env bash
# Are the CLI's outputs the same as at BASE (a git revision)? For changes that must not
# change behaviour (refactors, speed work): builds the `htmltok` program at BASE (in a
# worktree under target/same-outputs/) and as the tree is now, then runs `tokens --errors`
# and `tree` on every page, and `extract --main-text --metadata`, `select`, `text`,
# `text --main`, `text --main --markdown` and `links` over the folders, on the real-page
# corpus and on N generated documents (scripts/gen-soup.py, fixed seed), and compares the
# outputs byte for byte (a folder's lines sorted, as its documents run in parallel).
# Prints `same-outputs: identical` or the first differences, and
# exits non-zero when any differ.
#
#   scripts/same-outputs.sh BASE [N]      (N: generated documents, default 5000)
#
# Corpus: $HTMLTOK_CORPUS, else ../shared/corpus; without it only the generated documents
# run (said loudly).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
base="${1:?usage: scripts/same-outputs.sh BASE [N]}"
n="${2:-5000}"
work="$root/target/same-outputs"
mkdir -p "$work"

echo "same-outputs: building htmltok at $base"
rm -rf "$work/base-src"
git worktree prune
git worktree add --quiet --detach "$work/base-src" "$base"
trap 'git worktree remove --force "$work/base-src" 2>/dev/null || true' EXIT
(cd "$work/base-src" && CARGO_TARGET_DIR="$work/base-target" cargo build --quiet --release -p htmltok-cli)
echo "same-outputs: building htmltok as it is now"
cargo build --quiet --release -p htmltok-cli
old="$work/base-target/release/htmltok"
new="$root/target/release/htmltok"

rm -rf "$work/gen"
python3 scripts/gen-soup.py "$work/gen" "$n"
dirs=("$work/gen")
corpus="${HTMLTOK_CORPUS:-$root/../shared/corpus}"
if [[ -f "$corpus/MANIFEST.tsv" ]]; then
    dirs+=("$corpus")
else
    echo "same-outputs: NOT RUN on the corpus: $corpus holds no MANIFEST.tsv" >&2
fi

differ=0
# Standard output and standard error apart, each sorted: over a folder the documents are
# processed in parallel, so their lines come in no fixed order.
outputs() { # file to write, program, then its arguments
    local into="$1" program="$2"
    shift 2
    local status=0
    "$program" "$@" >"$into.raw" 2>"$into.err" || status=$?
    {
        LC_ALL=C sort "$into.raw"
        echo "-- exit status $status; standard error --"
        LC_ALL=C sort "$into.err"
    } >"$into"
}
compare() { # label, then the command's arguments after the program
    local label="$1"
    shift
    outputs "$work/old.out" "$old" "$@"
    outputs "$work/new.out" "$new" "$@"
    if ! cmp -s "$work/old.out" "$work/new.out"; then
        differ=$((differ + 1))
        if ((differ <= 10)); then
            echo "DIFFERENT: $label: htmltok $*" >&2
        fi
    fi
}
for dir in "${dirs[@]}"; do
    count=0
    while IFS= read -r -d '' page; do
        compare tokens tokens --errors "$page"
        compare tree tree "$page"
        count=$((count + 1))
    done < <(find "$dir" -name '*.htm*' -print0 | sort -z)
    compare extract extract --main-text --metadata "$dir"
    compare select select 'a[href]::attr(href)' "$dir"
    compare text text "$dir"
    compare "text --main" text --main "$dir"
    compare "text --main --markdown" text --main --markdown "$dir"
    compare links links "$dir"
    echo "same-outputs: $dir: $count pages"
done
if ((differ > 0)); then
    echo "same-outputs: $differ outputs differ from $base" >&2
    exit 1
fi
echo "same-outputs: identical to $base"
