#!/usr/bin/env python3
"""Builds a large WARC for the WARC benchmarks (scripts/bench-warc.sh) from the pages of a
corpus folder with a MANIFEST.tsv (default: ../shared/corpus beside the repository): a
warcinfo record, then for each page a request and a response record, the pages repeated
(with new URLs) until the payload reaches the size asked for. Written as a crawler
writes it: one gzip member per record (zlib level 6, as Common Crawl's writer), or with
--plain uncompressed. Deterministic: the same arguments give the same bytes.

    python3 scripts/make-bench-warc.py OUT.warc.gz [--mb 200] [--corpus DIR] [--plain]
"""

import argparse
import os
import sys
import uuid
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
NAMESPACE = uuid.UUID("0b7a4d2e-58f1-4c1e-9a3d-6e2f0c9b1a44")
DATE = "2026-11-24T10:00:00Z"


def record(warc_type, fields, block, n):
    rid = uuid.uuid5(NAMESPACE, f"{warc_type}-{n}")
    head = f"WARC/1.1\r\nWARC-Type: {warc_type}\r\nWARC-Record-ID: <urn:uuid:{rid}>\r\n"
    for name, value in fields:
        head += f"{name}: {value}\r\n"
    head += f"Content-Length: {len(block)}\r\n\r\n"
    return head.encode() + block + b"\r\n\r\n"


def gzip_member(data):
    # gzip header with mtime 0, raw deflate, CRC32 and size trailer.
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    trailer = (zlib.crc32(data) & 0xFFFFFFFF).to_bytes(4, "little") + (
        len(data) & 0xFFFFFFFF
    ).to_bytes(4, "little")
    return header + body + trailer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--mb", type=float, default=200.0, help="payload size (10^6 bytes)")
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--plain", action="store_true")
    args = parser.parse_args()

    pages = []
    with open(os.path.join(args.corpus, "MANIFEST.tsv"), encoding="utf-8") as manifest:
        columns = manifest.readline().rstrip("\n").split("\t")
        path_col, charset_col = columns.index("path"), columns.index("declared_charset")
        for line in manifest:
            fields = line.rstrip("\n").split("\t")
            with open(os.path.join(args.corpus, fields[path_col]), "rb") as f:
                body = f.read()
            label = fields[charset_col].replace("BOM:", "").split(" ")[0]
            pages.append((fields[path_col], None if label == "-" else label, body))
    if not pages:
        sys.exit("make-bench-warc: no pages in the corpus")

    wrap = (lambda data: data) if args.plain else gzip_member
    target = int(args.mb * 1e6)
    payload = 0
    records = 0
    n = 0
    with open(args.out, "wb") as out:
        out.write(wrap(record("warcinfo", [("WARC-Date", DATE),
                                           ("Content-Type", "application/warc-fields")],
                              b"software: htmltok make-bench-warc.py\r\n", n)))
        round_ = 0
        while payload < target:
            for path, charset, body in pages:
                if payload >= target:
                    break
                n += 1
                uri = f"https://bench.example/{round_}/{path}"
                request = (f"GET /{round_}/{path} HTTP/1.1\r\nHost: bench.example\r\n"
                           f"User-Agent: htmltok-bench\r\n\r\n").encode()
                out.write(wrap(record("request", [("WARC-Target-URI", uri), ("WARC-Date", DATE),
                                                  ("Content-Type", "application/http; msgtype=request")],
                                      request, n)))
                ctype = "text/html" + (f"; charset={charset}" if charset else "")
                http = (f"HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\n"
                        f"Content-Length: {len(body)}\r\nServer: bench\r\n\r\n").encode() + body
                out.write(wrap(record("response", [("WARC-Target-URI", uri), ("WARC-Date", DATE),
                                                   ("Content-Type", "application/http; msgtype=response")],
                                      http, n)))
                payload += len(body)
                records += 1
            round_ += 1
    print(f"make-bench-warc: {args.out}: {records} responses, {payload / 1e6:.1f} MB of payload, "
          f"{os.path.getsize(args.out) / 1e6:.1f} MB as stored")


if __name__ == "__main__":
    main()
