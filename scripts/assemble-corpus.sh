#!/usr/bin/env bash
# Assembles a large real-web corpus for `htmltok stats|links|text` and the batch bench,
# from Common Crawl: downloads WARC files of one crawl, keeps a sample of their HTML
# responses as a smaller .warc.gz, and optionally extracts those pages as files with a
# MANIFEST.tsv (the layout the tests and benches read through $HTMLTOK_CORPUS).
#
# Nothing here runs in CI: no test or .ci step calls this script, and it refuses to touch
# the network when $CI is set (the offline steps, --from, still work there).
#
# Where the data is (public, no account needed; see https://commoncrawl.org/get-started):
#
#   https://data.commoncrawl.org/crawl-data/CC-MAIN-YYYY-WW/warc.paths.gz
#       the list of the crawl's WARC files, one path per line, such as
#       crawl-data/CC-MAIN-2024-33/segments/1722640353668.0/warc/CC-MAIN-20240804232154-20240805022154-00000.warc.gz
#   https://data.commoncrawl.org/<path>
#       one WARC file: about 1 GB gzipped, ~30,000 response records, one gzip member per
#       record. A crawl has 80,000-100,000 of them, in ~100 segments.
#   https://index.commoncrawl.org/collinfo.json
#       the list of crawls (ids like CC-MAIN-2024-33).
#   https://index.commoncrawl.org/CC-MAIN-2024-33-index?url=example.com/*&output=json
#       the URL index (CDX): each line names `filename`, `offset` and `length` of one
#       record, which a range request fetches alone:
#       curl -r OFFSET-$((OFFSET+LENGTH-1)) https://data.commoncrawl.org/FILENAME | gunzip
#       (`htmltok` reads such a one-member file as a WARC file, offsets included.)
#
# Usage:
#   scripts/assemble-corpus.sh [--crawl CC-MAIN-2024-33] [--files 1] [--first N]
#                              [--sample 0.05] [--extract] [--out DIR] [--dry-run]
#   scripts/assemble-corpus.sh --from FILE.warc.gz [--sample 0.05] [--extract] [--out DIR]
#
#   --crawl ID     the crawl (default CC-MAIN-2024-33)
#   --files N      how many WARC files to download (default 1, ~1 GB each)
#   --first N      take the first N paths of warc.paths.gz rather than N spread evenly
#                  over the list (spread: several segments, so several crawl days)
#   --from FILE    skip the download: sample this local .warc or .warc.gz
#   --sample P     keep each HTML response with probability P (default 0.05: ~1,500 pages,
#                  ~150 MB of HTML from one WARC file); 1 keeps all. The choice is a hash
#                  of the record's target URI, so it is the same on every run
#   --extract      also write each kept page as a file (DIR/pages/<host>/<n>.html) with
#                  DIR/pages/MANIFEST.tsv (path, bytes, url, warc offset, charset,
#                  content type, sha256): usable as HTMLTOK_CORPUS=DIR/pages
#   --out DIR      where to put everything (default ./cc-corpus); downloads go to DIR/warc
#   --dry-run      print what would be downloaded and stop
#
# Then, for example:
#   cargo run --release -- stats cc-corpus/sample.warc.gz
#   HTMLTOK_CORPUS=cc-corpus/pages cargo bench -p htmltok-benches --bench batch
#
# Needs curl, gzip and python3 (standard library only). Downloads resume (curl -C -).
set -euo pipefail

crawl="CC-MAIN-2024-33"
files=1
first=""
from=""
sample="0.05"
extract=0
out="cc-corpus"
dry_run=0
base="https://data.commoncrawl.org"

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --crawl) crawl="$2"; shift 2 ;;
        --files) files="$2"; shift 2 ;;
        --first) first="$2"; shift 2 ;;
        --from) from="$2"; shift 2 ;;
        --sample) sample="$2"; shift 2 ;;
        --extract) extract=1; shift ;;
        --out) out="$2"; shift 2 ;;
        --dry-run) dry_run=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "assemble-corpus: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

mkdir -p "$out"
warcs=()

if [[ -n "$from" ]]; then
    [[ -f "$from" ]] || { echo "assemble-corpus: no such file: $from" >&2; exit 1; }
    warcs=("$from")
else
    if [[ -n "${CI:-}" ]]; then
        echo "assemble-corpus: CI is set: not downloading anything (use --from FILE offline)" >&2
        exit 0
    fi
    command -v curl >/dev/null || { echo "assemble-corpus: curl is needed" >&2; exit 1; }
    mkdir -p "$out/warc"
    paths="$out/warc/$crawl.warc.paths.gz"
    if [[ ! -s "$paths" ]]; then
        echo "fetching $base/crawl-data/$crawl/warc.paths.gz" >&2
        if [[ $dry_run == 1 ]]; then
            echo "(dry run) would download the path list, then $files WARC file(s) of $crawl"
            exit 0
        fi
        curl -fsSL --retry 5 --retry-delay 10 -o "$paths.part" "$base/crawl-data/$crawl/warc.paths.gz"
        mv "$paths.part" "$paths"
    fi
    total=$(gzip -dc "$paths" | wc -l)
    if [[ -n "$first" ]]; then
        selected=$(gzip -dc "$paths" | head -n "$first")
    else
        # Spread over the list: every (total/files)-th path.
        step=$(( total / files ))
        (( step >= 1 )) || step=1
        selected=$(gzip -dc "$paths" | awk -v step="$step" -v n="$files" \
            '(NR - 1) % step == 0 && taken < n { print; taken++ }')
    fi
    echo "$crawl: $total WARC files listed; taking $(wc -l <<<"$selected")" >&2
    while IFS= read -r path; do
        [[ -n "$path" ]] || continue
        local_file="$out/warc/$(basename "$path")"
        if [[ $dry_run == 1 ]]; then
            echo "$base/$path -> $local_file"
            continue
        fi
        if [[ ! -f "$local_file" ]]; then
            echo "downloading $base/$path" >&2
            curl -fL --retry 5 --retry-delay 10 -C - -o "$local_file.part" "$base/$path"
            mv "$local_file.part" "$local_file"
        fi
        warcs+=("$local_file")
    done <<<"$selected"
    [[ $dry_run == 0 ]] || exit 0
fi

# Sample (and extract) with Python's standard library. Each gzip member is copied as it
# is, so offsets change but every kept record is still one member.
python3 - "$sample" "$extract" "$out" "${warcs[@]}" <<'PY'
import gzip, hashlib, io, os, re, sys, zlib

sample, extract, out = float(sys.argv[1]), sys.argv[2] == "1", sys.argv[3]
inputs = sys.argv[4:]
sample_path = os.path.join(out, "sample.warc.gz")
pages_dir = os.path.join(out, "pages")
manifest = None
if extract:
    os.makedirs(pages_dir, exist_ok=True)
    manifest = open(os.path.join(pages_dir, "MANIFEST.tsv"), "w", encoding="utf-8")
    manifest.write("path\tbytes\turl\twarc\toffset\tcharset\tcontent_type\tsha256\n")

def members(path):
    """(offset, compressed bytes, decompressed bytes) of each gzip member, streaming."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
        offset = 0
        if not data.startswith(b"\x1f\x8b"):
            raise SystemExit("%s: not gzip; give a .warc.gz (gzip a plain .warc first)" % path)
        while data:
            d = zlib.decompressobj(wbits=31)
            pieces, used = [], 0
            buf = data
            while True:
                pieces.append(d.decompress(buf))
                if d.eof:
                    used = len(data) - len(d.unused_data)
                    break
                more = f.read(1 << 20)
                if not more:
                    raise SystemExit("%s: gzip member at offset %d is truncated" % (path, offset))
                data += more
                buf = more
            yield offset, data[:used], b"".join(pieces)
            offset += used
            data = d.unused_data
            if len(data) < (1 << 16):
                data += f.read(1 << 20)

def headers(block):
    head, _, rest = block.partition(b"\r\n\r\n")
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        fields[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
    return fields, rest

def dechunk(body):
    out, pos = b"", 0
    while True:
        end = body.find(b"\r\n", pos)
        if end < 0:
            return out
        size = int(body[pos:end].split(b";")[0].strip() or b"0", 16)
        if size == 0:
            return out
        out += body[end + 2:end + 2 + size]
        pos = end + 2 + size + 2

def payload(http, body):
    """The body as the page: chunking and gzip/deflate undone (Common Crawl stores
    bodies decoded already; other crawlers store them as received)."""
    try:
        if "chunked" in http.get("transfer-encoding", "").lower():
            body = dechunk(body)
        coding = http.get("content-encoding", "").lower()
        if coding in ("gzip", "x-gzip"):
            body = gzip.decompress(body)
        elif coding == "deflate":
            body = zlib.decompress(body)
    except (ValueError, OSError, zlib.error):
        pass
    return body

kept = seen = 0
hosts = {}
with open(sample_path, "wb") as sample_out:
    for path in inputs:
        for offset, raw, record in members(path):
            warc, block = headers(record)
            kind = warc.get("warc-type")
            if kind == "warcinfo" and sample_out.tell() == 0:
                sample_out.write(raw)
                continue
            if kind != "response":
                continue
            http, body = headers(block[:int(warc.get("content-length", len(block)))])
            content_type = http.get("content-type", "")
            if "html" not in content_type.lower():
                continue
            seen += 1
            uri = warc.get("warc-target-uri", "")
            h = int.from_bytes(hashlib.sha1(uri.encode()).digest()[:8], "big") / 2**64
            if h >= sample:
                continue
            kept += 1
            sample_out.write(raw)
            if manifest:
                host = re.sub(r"[^a-z0-9.-]", "_", uri.split("/")[2].lower() if "//" in uri else "unknown")[:80]
                hosts[host] = hosts.get(host, 0) + 1
                rel = "%s/%d.html" % (host, hosts[host])
                os.makedirs(os.path.join(pages_dir, host), exist_ok=True)
                body = payload(http, body)
                with open(os.path.join(pages_dir, rel), "wb") as page:
                    page.write(body)
                m = re.search(r"charset=([^;\s]+)", content_type, re.I)
                manifest.write("\t".join([rel, str(len(body)), uri.replace("\t", "%09"),
                                          os.path.basename(path), str(offset),
                                          m.group(1).strip('"\'') if m else "-",
                                          content_type.replace("\t", " "),
                                          hashlib.sha256(body).hexdigest()]) + "\n")
if manifest:
    manifest.close()
print("kept %d of %d HTML responses -> %s%s" % (
    kept, seen, sample_path, (" and %s/" % pages_dir) if extract else ""))
PY
