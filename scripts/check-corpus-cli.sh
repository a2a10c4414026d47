#!/usr/bin/env bash
# Runs the release `htmltok tokens` on every page of the real-page corpus, once plain and
# once with --errors, and checks from the JSON lines:
# - the exit status is 0 and nothing is written to stderr;
# - every line is a JSON object; token spans lie within the page, are not empty, come in
#   increasing order and never overlap;
# - the span contract: the bytes between two tokens are `</>` (dropped markup), and the
#   bytes after the last token are nothing or start with `<` (a tag cut off by the end);
# - with --errors the token lines are the same as without, and every error has a code, an
#   offset within the page and a line and column of at least 1.
#
# Corpus: $HTMLTOK_CORPUS, else ../shared/corpus beside the crate, else corpus/ in the
# crate if it holds a MANIFEST.tsv. None found: fails, unless HTMLTOK_SKIP_CORPUS=1.
# Prints `corpus-cli: N passed, M failed` and exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [[ "${HTMLTOK_SKIP_CORPUS:-}" == 1 ]]; then
    echo "!!! HTMLTOK_SKIP_CORPUS=1: corpus-cli check SKIPPED !!!" >&2
    exit 0
fi

corpus=""
if [[ -n "${HTMLTOK_CORPUS:-}" ]]; then
    if [[ ! -f "$HTMLTOK_CORPUS/MANIFEST.tsv" ]]; then
        echo "corpus-cli: HTMLTOK_CORPUS is set to $HTMLTOK_CORPUS but it holds no MANIFEST.tsv" >&2
        exit 1
    fi
    corpus="$HTMLTOK_CORPUS"
else
    for dir in "$root/../shared/corpus" "$root/corpus"; do
        if [[ -f "$dir/MANIFEST.tsv" ]]; then
            corpus="$dir"
            break
        fi
    done
fi
if [[ -z "$corpus" ]]; then
    echo "corpus-cli: corpus not found: set HTMLTOK_CORPUS to a folder with a MANIFEST.tsv," \
        "or put it at $root/../shared/corpus or $root/corpus (HTMLTOK_SKIP_CORPUS=1 skips)" >&2
    exit 1
fi

cargo build --release --locked --quiet </dev/null
bin="${CARGO_TARGET_DIR:-$root/target}/release/htmltok"
[[ -x "$bin" ]] || { echo "corpus-cli: $bin was not built" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The checker: check.py PAGE PLAIN.jsonl ERRORS.jsonl; prints what is wrong, exits 1 if so.
cat > "$work/check.py" <<'PY'
import json, sys

page, plain_path, errors_path = sys.argv[1:4]
data = open(page, "rb").read()
if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
    # `htmltok tokens` decodes a UTF-16 page (told by its BOM) to UTF-8 first: its spans
    # are in that text.
    data = data.decode("utf-16", errors="replace").encode("utf-8")
problems = []

def show(b):
    s = repr(b[:60])
    return s + ("... (%d bytes)" % len(b) if len(b) > 60 else "")

def check_tokens(lines, label):
    pos = 0
    tokens = []
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            problems.append("%s line %d: not JSON (%s): %s" % (label, n, e, line[:100]))
            return tokens
        if obj.get("type") == "Error":
            code, off = obj.get("code"), obj.get("offset")
            if not isinstance(code, str) or not code:
                problems.append("%s line %d: error without a code" % (label, n))
            if not isinstance(off, int) or not 0 <= off <= len(data):
                problems.append("%s line %d: error offset %r outside the page" % (label, n, off))
            if not (isinstance(obj.get("line"), int) and obj["line"] >= 1
                    and isinstance(obj.get("col"), int) and obj["col"] >= 1):
                problems.append("%s line %d: bad line/col %r" % (label, n, line))
            continue
        tokens.append(line)
        start, end = obj.get("start"), obj.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and pos <= start < end <= len(data)):
            problems.append("%s line %d: span %r..%r after %d (page %d bytes)" % (label, n, start, end, pos, len(data)))
            return tokens
        gap = data[pos:start]
        if pos == 0 and gap.startswith(b"\xef\xbb\xbf"):
            gap = gap[3:]  # a leading byte order mark is skipped, as a browser's decoder does
        if gap and gap != b"</>" * (len(gap) // 3):
            problems.append("%s line %d: gap at %d is not `</>`: %s" % (label, n, pos, show(gap)))
        pos = end
    rest = data[pos:]
    while len(rest) > 3 and rest.startswith(b"</>"):
        rest = rest[3:]
    if rest and not rest.startswith(b"<"):
        problems.append("%s: final gap at %d does not start with `<`: %s" % (label, pos, show(data[pos:])))
    return tokens

def lines_of(path):
    # Split on LF only: str.splitlines() would also split at U+0085, U+2028 and U+2029,
    # which JSON strings may hold unescaped.
    with open(path, "r", encoding="utf-8", newline="") as f:
        text = f.read()
    if text and not text.endswith("\n"):
        problems.append("%s: output does not end with a newline" % path)
    return text.split("\n")[:-1] if text else []

plain = check_tokens(lines_of(plain_path), "plain")
with_errors = check_tokens(lines_of(errors_path), "--errors")
if not problems and plain != with_errors:
    first = next((i for i, (a, b) in enumerate(zip(plain, with_errors)) if a != b), min(len(plain), len(with_errors)))
    problems.append("token lines differ with --errors, first at token #%d" % first)
for p in problems[:10]:
    print("    " + p)
sys.exit(1 if problems else 0)
PY

passed=0
failed=0
failed_pages=()
started=$SECONDS
# The `path` column of the manifest, whichever position it has.
while IFS= read -r rel; do
    page="$corpus/$rel"
    ok=1
    for mode in plain errors; do
        args=(tokens)
        [[ $mode == errors ]] && args+=(--errors)
        status=0
        "$bin" "${args[@]}" "$page" >"$work/$mode.jsonl" 2>"$work/$mode.err" </dev/null || status=$?
        if [[ $status -ne 0 || -s "$work/$mode.err" ]]; then
            echo "FAIL $rel: htmltok ${args[*]} exited with $status: $(head -c 300 "$work/$mode.err")"
            ok=0
        fi
    done
    if [[ $ok == 1 ]] && ! python3 "$work/check.py" "$page" "$work/plain.jsonl" "$work/errors.jsonl" >"$work/report" 2>&1; then
        echo "FAIL $rel: span contract"
        cat "$work/report"
        ok=0
    fi
    if [[ $ok == 1 ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failed_pages+=("$rel")
    fi
done < <(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "path") col = i; next }
                     col && $col != "" { print $col }' "$corpus/MANIFEST.tsv")

if [[ $failed -gt 0 ]]; then
    printf 'failed page: %s\n' "${failed_pages[@]}"
fi
echo "corpus-cli: $passed passed, $failed failed ($corpus, $((SECONDS - started)) s)"
if [[ $((passed + failed)) -eq 0 ]]; then
    echo "corpus-cli: no pages listed in $corpus/MANIFEST.tsv" >&2
    exit 1
fi
[[ $failed -eq 0 ]]
