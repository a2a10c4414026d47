#!/usr/bin/env bash
# WARC reading, htmltok vs FastWARC, in one run on one machine (issue #16):
#
#   1. builds target/bench-warc/big-MB.warc.gz (~200 MB of payload, one gzip member per
#      record) from the shared corpus with scripts/make-bench-warc.py, and the same
#      records as big-MB.warc.zst (one zstd frame per record, level 3) and big-MB.warc.lz4
#      (one LZ4 frame per record) with archive/examples/warc_recompress.rs, unless they are
#      there;
#   2. installs FastWARC into a throwaway virtualenv under target/bench-warc/venv;
#   3. prints, for the gzip, the zstd and the LZ4 file, in MB/s of HTTP payload (10^6
#      bytes per second, best of REPEAT runs):
#      - FastWARC: every response record's payload read (parse_http=True), one thread
#        (FastWARC 2.0.1 reads all three; "n/a" where a FastWARC reads no records);
#      - htmltok: the same with the sequential reader (archive/examples/warc_read.rs), and
#        with the parallel reader on 2 threads;
#      - `htmltok stats -j 1` and `-j 2` over the file (read, decode, tokenize, count)
#        and their ratio.
#
#   scripts/bench-warc.sh [--mb 200] [--repeat 5] [--corpus DIR]
#
# Everything runs under `nice -n 19`; the numbers mean something only on an idle machine
# (check `uptime` first: the script prints the load average before and after).
set -euo pipefail
cd "$(dirname "$0")/.."

MB=200
REPEAT=5
CORPUS=${HTMLTOK_CORPUS:-../shared/corpus}
while [ $# -gt 0 ]; do
    case "$1" in
        --mb) MB=$2; shift 2 ;;
        --repeat) REPEAT=$2; shift 2 ;;
        --corpus) CORPUS=$2; shift 2 ;;
        *) echo "usage: $0 [--mb N] [--repeat N] [--corpus DIR]" >&2; exit 2 ;;
    esac
done

DIR=target/bench-warc
WARC=$DIR/big-$MB.warc.gz
mkdir -p "$DIR"
if [ ! -f "$WARC" ]; then
    nice -n 19 python3 scripts/make-bench-warc.py "$WARC" --mb "$MB" --corpus "$CORPUS"
fi
if [ ! -x "$DIR/venv/bin/python" ] || ! "$DIR/venv/bin/python" -c 'import fastwarc' 2>/dev/null; then
    echo "bench-warc: installing FastWARC into $DIR/venv"
    nice -n 19 python3 -m venv "$DIR/venv"
    nice -n 19 "$DIR/venv/bin/pip" install -q fastwarc
fi
FASTWARC_VERSION=$("$DIR/venv/bin/pip" show fastwarc | sed -n 's/^Version: //p')

echo "bench-warc: building htmltok (release)"
nice -n 19 cargo build -q --release -p htmltok-cli
nice -n 19 cargo build -q --release -p htmltok-archive --example warc_read --example warc_recompress
ZST=$DIR/big-$MB.warc.zst
if [ ! -f "$ZST" ]; then
    nice -n 19 target/release/examples/warc_recompress "$WARC" "$ZST" --level=3
fi
LZ4=$DIR/big-$MB.warc.lz4
if [ ! -f "$LZ4" ]; then
    nice -n 19 target/release/examples/warc_recompress "$WARC" "$LZ4"
fi

cat > "$DIR/fastwarc_read.py" <<'EOF'
import sys, time
from fastwarc.warc import ArchiveIterator, WarcRecordType
path, repeat = sys.argv[1], int(sys.argv[2])
# FastWARC tells gzip, zstd and lz4 apart by the first bytes (2.0.1 reads all three; one
# that reads no records is an error here).
best = float("inf")
for _ in range(repeat):
    started = time.perf_counter()
    records = payload = 0
    for record in ArchiveIterator(path, record_types=WarcRecordType.response, parse_http=True):
        payload += len(record.reader.read())
        records += 1
    best = min(best, time.perf_counter() - started)
    if records == 0:
        sys.exit("FastWARC read no records")
print(f"{payload / 1e6 / best:.0f}")
EOF

stats() { # threads file -> best MB/s of REPEAT runs
    local best=0
    for _ in $(seq "$REPEAT"); do
        local speed
        # Into a file, read after: a python3 started on the other end of a pipe would take
        # CPU during the run (some 30 ms, enough to cost -j 2 a tenth of its speed).
        nice -n 19 target/release/htmltok stats --json -j "$1" "$2" > "$DIR/stats.json"
        speed=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["mb_per_s"]))' "$DIR/stats.json")
        [ "$speed" -gt "$best" ] && best=$speed
    done
    echo "$best"
}
read_mb() { # threads file -> MB/s
    nice -n 19 target/release/examples/warc_read --threads="$1" --repeat="$REPEAT" "$2" |
        sed -n 's/.* \([0-9]*\) MB\/s.*/\1/p'
}

fastwarc_mb() { # file -> MB/s, or "n/a (…)" if this FastWARC cannot read it
    nice -n 19 "$DIR/venv/bin/python" "$DIR/fastwarc_read.py" "$1" "$REPEAT" 2>/dev/null ||
        echo "n/a (this FastWARC reads no records)"
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}')" 2>/dev/null || echo "n/a"; }

echo "bench-warc: $(nproc) cores, $(uptime | sed 's/.*load/load/'); $WARC ($(du -m "$WARC" | cut -f1) MB as stored), $ZST ($(du -m "$ZST" | cut -f1) MB), $LZ4 ($(du -m "$LZ4" | cut -f1) MB)"
rows=""
for file in "$WARC" "$ZST" "$LZ4"; do
    fastwarc=$(fastwarc_mb "$file")
    read1=$(read_mb 1 "$file")
    read2=$(read_mb 2 "$file")
    stats1=$(stats 1 "$file")
    stats2=$(stats 2 "$file")
    kind=${file##*.warc.}
    versus=""
    [[ $fastwarc == n/a* ]] || versus=" ($(ratio "$read1" "$fastwarc")× FastWARC)"
    rows+="| $kind | FastWARC $FASTWARC_VERSION, read every response payload, 1 thread | $fastwarc |
| $kind | htmltok warc::Reader, the same, 1 thread | $read1$versus |
| $kind | htmltok warc::ParallelReader, the same, 2 threads | $read2 ($(ratio "$read2" "$read1")× 1 thread) |
| $kind | htmltok stats -j 1 | $stats1 |
| $kind | htmltok stats -j 2 | $stats2 ($(ratio "$stats2" "$stats1")× -j 1) |
"
done
cat <<EOF

| WARC | MB/s of payload (best of $REPEAT) | MB/s |
|---|---|---|
$rows
bench-warc: done, $(uptime | sed 's/.*load/load/')
EOF
