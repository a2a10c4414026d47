#!/usr/bin/env bash
# Runs the engine comparison (benches/compare.rs) and prints a markdown table of MB/s per
# engine and its ratio to htmltok, for the whole corpus and (with --all) per category,
# with the CPU model and the date. Also prints htmltok's instructions per byte from the
# callgrind bench (benches/instructions.rs) when its results exist.
#
#   scripts/bench-table.sh                  # run the `total` group (~1-2 min), print the table
#   scripts/bench-table.sh --all            # every category group and total (~6-10 min)
#   scripts/bench-table.sh --instructions   # also run the instruction-count bench first
#   scripts/bench-table.sh --no-run         # only read what target/criterion already has
#   scripts/bench-table.sh -- --warm-up-time 1   # extra arguments go to criterion
#
# The table goes to stdout; cargo's and criterion's output to stderr (and to
# target/bench-table/*.log). Environment: HTMLTOK_CORPUS (corpus folder),
# HTMLTOK_BENCH_REV (what to call the htmltok revision; default: git HEAD),
# HTMLTOK_BENCH_SECS / HTMLTOK_BENCH_TOTAL_SECS (measurement seconds per engine in a
# category group / in total), CARGO_TARGET_DIR.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in /*) ;; *) target="$root/$target" ;; esac

all=0
run=1
instructions=0
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --all) all=1 ;;
        --no-run) run=0 ;;
        --instructions) instructions=1 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

logdir="$target/bench-table"
mkdir -p "$logdir"
counts_file="$logdir/counts.md"

cd "$root"
if [ "$instructions" = 1 ] && [ "$run" = 1 ]; then
    echo ">> cargo bench -p htmltok-benches --bench instructions" >&2
    start=$(date +%s)
    cargo bench -p htmltok-benches --bench instructions -- --save-summary=json 2>&1 | tee "$logdir/instructions.log" >&2
    echo ">> instructions bench took $(( $(date +%s) - start )) s" >&2
fi

groups_run=""
if [ "$run" = 1 ]; then
    if [ "$all" = 1 ]; then filter=(); else filter=(total); fi
    echo ">> cargo bench -p htmltok-benches --bench compare -- ${filter[*]:-} ${extra[*]:-}" >&2
    start=$(date +%s)
    HTMLTOK_BENCH_COUNTS=1 cargo bench -p htmltok-benches --bench compare -- ${filter[@]+"${filter[@]}"} ${extra[@]+"${extra[@]}"} \
        2>&1 | tee "$logdir/compare.log" >&2
    elapsed=$(( $(date +%s) - start ))
    echo ">> compare bench took $elapsed s" >&2
    # The token-count table the bench printed (between its header and the first blank
    # line after the table).
    awk '/^What each engine saw/ {on=1} on {print} on && /^$/ && seen {exit} /^\|/ {seen=1}' \
        "$logdir/compare.log" > "$counts_file" || true
    if [ "$all" = 1 ]; then groups_run="*"; else groups_run="total"; fi
else
    groups_run="*"
fi

if [ -n "${HTMLTOK_BENCH_REV:-}" ]; then
    commit="$HTMLTOK_BENCH_REV"   # e.g. when benchmarking an exported snapshot
else
    commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    if [ -n "$(git -C "$root" status --porcelain -- src 2>/dev/null)" ]; then
        commit="$commit + uncommitted changes in src/"
    fi
fi

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" \
CORES="$(nproc)" DATE="$(date -u '+%Y-%m-%d %H:%M UTC')" COMMIT="$commit" \
TARGET="$target" GROUPS_RUN="$groups_run" COUNTS_FILE="$counts_file" \
CORPUS="${HTMLTOK_CORPUS:-}" ROOT="$root" \
python3 - <<'PY'
import json, os, re, glob

target = os.environ["TARGET"]
crit = os.path.join(target, "criterion")
engines = ["htmltok", "htmltok-decode-all", "htmltok-errors-on", "htmltok-tape", "html5ever",
           "html5gum", "lol-html", "lol-html-no-handlers", "tl", "memchr-lt", "sum-of-bytes"]

def load(group, engine):
    base = os.path.join(crit, group, engine, "new")
    try:
        est = json.load(open(os.path.join(base, "estimates.json")))
        bench = json.load(open(os.path.join(base, "benchmark.json")))
    except (OSError, ValueError):
        return None
    thr = bench.get("throughput") or {}
    nbytes = thr.get("Bytes") or thr.get("BytesDecimal")
    if not nbytes:
        return None
    ns = est["median"]["point_estimate"]
    return nbytes / ns * 1e3  # bytes/ns -> MB/s (10^6 bytes)

groups = []
if os.path.isdir(crit):
    for g in sorted(os.listdir(crit)):
        if g == "report" or not os.path.isdir(os.path.join(crit, g)):
            continue
        if os.environ["GROUPS_RUN"] == "total" and g != "total":
            continue
        if any(load(g, e) is not None for e in engines):
            groups.append(g)
if "total" in groups:
    groups.remove("total")
    groups.append("total")

print(f"## htmltok vs html5ever, html5gum, lol-html\n")
print(f"- CPU: {os.environ['CPU']} ({os.environ['CORES']} cores)")
print(f"- Date: {os.environ['DATE']}")
print(f"- htmltok: {os.environ['COMMIT']}")
print(f"- Throughput: input bytes / criterion's median time per iteration, MB = 10^6 bytes; "
      f"ratio = engine MB/s / htmltok MB/s (higher is faster)\n")

if not groups:
    print("No criterion results found in", crit, "(run without --no-run).")
else:
    data = {g: {e: load(g, e) for e in engines} for g in groups}
    fmt = lambda v: "-" if v is None else (f"{v:,.0f}" if v >= 100 else f"{v:.1f}")
    ratio = lambda v, base: "-" if v is None or not base else f"{v / base:.2f}"
    if "total" in data:
        print("### Whole corpus (`total`)\n")
        print("| engine | MB/s | ratio to htmltok |")
        print("|---|--:|--:|")
        base = data["total"]["htmltok"]
        for e in engines:
            print(f"| {e} | {fmt(data['total'][e])} | {ratio(data['total'][e], base)} |")
        print()
    if len(groups) > 1:
        print("### MB/s per category\n")
        print("| group | " + " | ".join(engines) + " |")
        print("|---|" + "--:|" * len(engines))
        for g in groups:
            print(f"| {g} | " + " | ".join(fmt(data[g][e]) for e in engines) + " |")
        print("\n### Ratio to htmltok per category (engine MB/s / htmltok MB/s)\n")
        print("| group | " + " | ".join(engines[1:]) + " |")
        print("|---|" + "--:|" * (len(engines) - 1))
        for g in groups:
            base = data[g]["htmltok"]
            print(f"| {g} | " + " | ".join(ratio(data[g][e], base) for e in engines[1:]) + " |")
        print()

counts = os.environ["COUNTS_FILE"]
if os.path.isfile(counts) and os.path.getsize(counts) > 0:
    print("### Token counts over the whole corpus\n")
    text = open(counts).read().strip().splitlines()
    print("\n".join(l for l in text if l.startswith("|")))
    print()

# Instructions per byte, from gungraun's summary.json files (benches/instructions.rs).
summaries = sorted(glob.glob(os.path.join(target, "gungraun", "**", "summary.json"), recursive=True))
rows = []
corpus = os.environ.get("CORPUS") or ""
candidates = [corpus] if corpus else []
candidates += [os.path.join(os.environ["ROOT"], "..", "shared", "corpus"),
               os.path.join(os.environ["ROOT"], "corpus")]
corpus_dir = next((c for c in candidates if c and os.path.isfile(os.path.join(c, "MANIFEST.tsv"))), None)

def find_instructions(obj):
    """The callgrind `Ir` (instructions executed) of the latest run: the first
    `"Ir": {"values": {"new": N}}` anywhere in a gungraun summary.json."""
    if isinstance(obj, dict):
        ir = obj.get("Ir")
        if isinstance(ir, dict):
            n = (ir.get("values") or {}).get("new")
            if isinstance(n, dict):  # older schemas: {"Int": N}
                n = n.get("Int", n.get("Float"))
            if isinstance(n, (int, float)):
                return n
        children = obj.values()
    elif isinstance(obj, list):
        children = obj
    else:
        return None
    for v in children:
        r = find_instructions(v)
        if r is not None:
            return r
    return None

for path in summaries:
    try:
        s = json.load(open(path))
    except (OSError, ValueError):
        continue
    func = s.get("function_name") or ""
    bench_id = s.get("id") or ""
    details = s.get("description") or s.get("details") or ""
    ir = find_instructions(s)
    m = re.search(r'"([^"]+\.html)"', details)
    nbytes = None
    if m and corpus_dir:
        try:
            nbytes = os.path.getsize(os.path.join(corpus_dir, m.group(1)))
        except OSError:
            pass
    if ir is None:
        continue
    rows.append((func, bench_id, m.group(1) if m else "?", nbytes, ir))

if rows:
    print("### htmltok instructions per input byte (callgrind, benches/instructions.rs)\n")
    print("| variant | page | bytes | instructions | instructions/byte |")
    print("|---|---|--:|--:|--:|")
    totals = {}
    order = ["news", "wikipedia", "script_heavy", "svg_mathml", "cjk"]
    rows.sort(key=lambda r: (r[0], order.index(r[1]) if r[1] in order else 99, r[1]))
    for func, bench_id, page, nbytes, ir in rows:
        per = f"{ir / nbytes:.2f}" if nbytes else "-"
        size = f"{nbytes:,}" if nbytes else "-"
        print(f"| {func} | {page} | {size} | {int(ir):,} | {per} |")
        if nbytes:
            t = totals.setdefault(func, [0, 0])
            t[0] += ir
            t[1] += nbytes
    for func, (ir, nbytes) in sorted(totals.items()):
        print(f"| {func} | **all five** | {nbytes:,} | {int(ir):,} | **{ir / nbytes:.2f}** |")
    print()
else:
    print("(No instruction counts: run `scripts/bench-table.sh --instructions`, which needs "
          "`scripts/install-bench-tools.sh` once.)")
PY
