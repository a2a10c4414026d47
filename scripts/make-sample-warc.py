#!/usr/bin/env python3
"""Builds corpus/sample.warc.gz, a small WARC file made from pages of the bundled corpus,
as a crawler would have written it: one gzip member per record, a warcinfo record first,
then for each URL a request record and a response record (HTTP status line, realistic
headers, the page as body), plus what a crawl also holds: a robots.txt response, a
redirect, a metadata record.

The HTTP layer varies the way it does on the web, so that readers get exercised:
- a charset in Content-Type that disagrees with nothing (UTF-8), one that is the only
  declaration that matters (windows-1251 with a <meta> saying the same), and none at all
  (the page's <meta> or the detector decides);
- a body sent with Transfer-Encoding: chunked and stored as received (as wget does);
- a body sent with Content-Encoding: gzip and stored as received;
- a body stored decoded with the header renamed (as Common Crawl does:
  X-Crawler-Content-Encoding).

The output is deterministic (fixed dates, name-based UUIDs, gzip mtime 0), so running
this again gives the same bytes:

    python3 scripts/make-sample-warc.py            # writes corpus/sample.warc.gz
    python3 scripts/make-sample-warc.py OUT.warc.gz
"""

import base64
import gzip
import hashlib
import io
import os
import sys
import uuid

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "corpus")
NAMESPACE = uuid.UUID("6f2b9f3c-1d0e-4c5a-9b7e-2a4c8e1f0d37")

# (corpus file, target URI, HTTP Content-Type header, how the body travels, server IP)
PAGES = [
    ("article.html", "https://tides.example.org/2026/11/tide-tables-and-the-moon",
     "text/html; charset=utf-8", "plain", "192.0.2.10"),
    ("shop-kettle.html", "https://www.shop.example.com/p/halden-glass-kettle-48213",
     "text/html; charset=UTF-8", "gzip", "192.0.2.21"),
    ("wiki-bell-rock.html", "https://en.wiki.example.org/wiki/Bell_Rock_Lighthouse",
     "text/html; charset=UTF-8", "cc-decoded", "198.51.100.7"),
    ("legacy-windows-1251.html", "http://foto-forum.example.ru/viewtopic.php?t=18342",
     "text/html; charset=windows-1251", "chunked", "203.0.113.45"),
    ("cjk-ja-momiji.html",
     "https://www.minato-shimbun.example.jp/articles/2026/11/05/local-line-momiji.html",
     "text/html", "plain", "203.0.113.80"),
    ("legacy-shift_jis.html",
     "http://k.minato-shimbun.example.jp/articles/20261105/momiji.html",
     "text/html; charset=Shift_JIS", "plain", "203.0.113.81"),
]

DATE = "2026-11-05T07:{:02d}:{:02d}Z"
HTTP_DATE = "Thu, 05 Nov 2026 07:{:02d}:{:02d} GMT"
USER_AGENT = "htmltok-sample-crawler/0.1 (+https://example.org/crawler)"


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def record_id(name):
    return "<urn:uuid:%s>" % uuid.uuid5(NAMESPACE, name)


def member(headers, block):
    """One WARC record as its own gzip member."""
    head = "WARC/1.1\r\n" + "".join("%s: %s\r\n" % kv for kv in headers)
    head += "Content-Length: %d\r\n\r\n" % len(block)
    raw = head.encode("utf-8") + block + b"\r\n\r\n"
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(raw)
    return buf.getvalue()


def chunked(body, size=4096):
    out = b""
    for i in range(0, len(body), size):
        piece = body[i:i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def gzipped(body):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=6) as gz:
        gz.write(body)
    return buf.getvalue()


def http_response(status, reason, headers, body):
    head = "HTTP/1.1 %d %s\r\n" % (status, reason)
    head += "".join("%s: %s\r\n" % kv for kv in headers) + "\r\n"
    return head.encode("latin-1") + body


def http_request(uri):
    rest = uri.split("://", 1)[1]
    host, _, path = rest.partition("/")
    head = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\n"
            "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
            "Accept-Language: en-GB,en;q=0.7\r\nAccept-Encoding: gzip, deflate\r\n"
            "Connection: close\r\n\r\n") % (path, host, USER_AGENT)
    return head.encode("latin-1")


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(CORPUS, "sample.warc.gz")
    filename = os.path.basename(out_path)
    members = []
    info_id = record_id("warcinfo")
    info = ("software: htmltok scripts/make-sample-warc.py\r\n"
            "format: WARC File Format 1.1\r\n"
            "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
            "isPartOf: htmltok-sample-crawl\r\n"
            "description: pages of the htmltok bundled corpus, as a crawl of example domains\r\n"
            "robots: obey\r\n"
            "http-header-user-agent: %s\r\n" % USER_AGENT).encode("utf-8")
    members.append(member([
        ("WARC-Type", "warcinfo"),
        ("WARC-Date", DATE.format(0, 0)),
        ("WARC-Filename", filename),
        ("WARC-Record-ID", info_id),
        ("Content-Type", "application/warc-fields"),
    ], info))

    def exchange(n, uri, ip, response_block, payload):
        req_id = record_id("request " + uri)
        resp_id = record_id("response " + uri)
        date = DATE.format(n // 60, n % 60)
        request = http_request(uri)
        members.append(member([
            ("WARC-Type", "request"),
            ("WARC-Target-URI", uri),
            ("WARC-Date", date),
            ("WARC-Record-ID", req_id),
            ("WARC-Concurrent-To", resp_id),
            ("WARC-IP-Address", ip),
            ("WARC-Warcinfo-ID", info_id),
            ("WARC-Block-Digest", sha1_b32(request)),
            ("Content-Type", "application/http; msgtype=request"),
        ], request))
        members.append(member([
            ("WARC-Type", "response"),
            ("WARC-Target-URI", uri),
            ("WARC-Date", date),
            ("WARC-Record-ID", resp_id),
            ("WARC-Concurrent-To", req_id),
            ("WARC-IP-Address", ip),
            ("WARC-Warcinfo-ID", info_id),
            ("WARC-Block-Digest", sha1_b32(response_block)),
            ("WARC-Payload-Digest", sha1_b32(payload)),
            ("WARC-Identified-Payload-Type", "text/html" if b"<html" in payload[:2000].lower() else "text/plain"),
            ("Content-Type", "application/http; msgtype=response"),
        ], response_block))

    # robots.txt first, as a polite crawler fetches it.
    robots = (b"User-agent: *\nDisallow: /account/\nDisallow: /basket\n"
              b"Sitemap: https://www.shop.example.com/sitemap.xml\n")
    exchange(1, "https://www.shop.example.com/robots.txt", "192.0.2.21", http_response(
        200, "OK", [("Date", HTTP_DATE.format(0, 1)), ("Server", "nginx"),
                    ("Content-Type", "text/plain"), ("Content-Length", str(len(robots))),
                    ("Cache-Control", "max-age=86400")], robots), robots)

    # A redirect: its small HTML body is a document too.
    moved = (b'<!DOCTYPE html><html><head><title>301 Moved Permanently</title></head>'
             b'<body><h1>Moved Permanently</h1><p>The document has moved '
             b'<a href="https://tides.example.org/2026/11/tide-tables-and-the-moon">here</a>.</p>'
             b'</body></html>\n')
    exchange(2, "http://tides.example.org/2026/11/tide-tables-and-the-moon", "192.0.2.10",
             http_response(301, "Moved Permanently", [
                 ("Date", HTTP_DATE.format(0, 2)), ("Server", "Apache/2.4.62 (Debian)"),
                 ("Location", "https://tides.example.org/2026/11/tide-tables-and-the-moon"),
                 ("Content-Type", "text/html; charset=iso-8859-1"),
                 ("Content-Length", str(len(moved)))], moved), moved)

    for n, (name, uri, content_type, transfer, ip) in enumerate(PAGES, 3):
        with open(os.path.join(CORPUS, name), "rb") as f:
            body = f.read()
        headers = [("Date", HTTP_DATE.format(n // 60, n % 60)),
                   ("Server", ["nginx/1.26.2", "Apache", "cloudflare", "Microsoft-IIS/10.0"][n % 4]),
                   ("Content-Type", content_type),
                   ("Last-Modified", "Wed, 04 Nov 2026 18:%02d:00 GMT" % n),
                   ("Vary", "Accept-Encoding"),
                   ("Cache-Control", "public, max-age=300"),
                   ("Set-Cookie", "sid=%s; Path=/; HttpOnly; Secure; SameSite=Lax" % hashlib.md5(uri.encode()).hexdigest()[:16])]
        if transfer == "plain":
            headers.append(("Content-Length", str(len(body))))
            wire = body
        elif transfer == "gzip":
            wire = gzipped(body)
            headers += [("Content-Encoding", "gzip"), ("Content-Length", str(len(wire)))]
        elif transfer == "chunked":
            wire = chunked(body)
            headers.append(("Transfer-Encoding", "chunked"))
        elif transfer == "cc-decoded":
            wire = body
            headers += [("X-Crawler-Content-Encoding", "gzip"), ("Content-Length", str(len(body)))]
        else:
            raise ValueError(transfer)
        exchange(n, uri, ip, http_response(200, "OK", headers, wire), body)

    meta = ("via: https://tides.example.org/\r\nhopsFromSeed: L\r\n"
            "fetchTimeMs: 112\r\n").encode("utf-8")
    members.append(member([
        ("WARC-Type", "metadata"),
        ("WARC-Target-URI", PAGES[0][1]),
        ("WARC-Date", DATE.format(0, 3)),
        ("WARC-Record-ID", record_id("metadata")),
        ("WARC-Concurrent-To", record_id("response " + PAGES[0][1])),
        ("Content-Type", "application/warc-fields"),
    ], meta))

    with open(out_path, "wb") as f:
        for m in members:
            f.write(m)
    print("%s: %d records, %d bytes (%d HTML responses, 1 robots.txt, 1 redirect)"
          % (out_path, len(members), sum(len(m) for m in members), len(PAGES)))


if __name__ == "__main__":
    main()
