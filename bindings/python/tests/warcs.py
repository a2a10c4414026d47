"""Writing small WARC files for the tests and benchmarks: one gzip member per record (as
crawlers write them), a warcinfo record first, then one `response` record per page."""

import gzip
import uuid

NAMESPACE = uuid.UUID("0b4f3a52-8d1c-4f3e-a6b2-7c9e1d2f5a60")
DATE = "2026-11-23T00:00:00Z"


def _record(kind, uri, block, extra=()):
    headers = [
        "WARC/1.0",
        f"WARC-Type: {kind}",
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(NAMESPACE, kind + (uri or ''))}>",
        f"WARC-Date: {DATE}",
    ]
    if uri:
        headers.append(f"WARC-Target-URI: {uri}")
    headers += list(extra)
    headers.append(f"Content-Length: {len(block)}")
    head = ("\r\n".join(headers) + "\r\n\r\n").encode("utf-8")
    return gzip.compress(head + block + b"\r\n\r\n", mtime=0)


def write_warc(path, pages):
    """Writes `pages` — (url, html bytes, content type) — to the `.warc.gz` file `path`;
    returns the (offset, length) of each response record."""
    places = []
    with open(path, "wb") as out:
        info = b"software: htmltok tests\r\nformat: WARC File Format 1.0\r\n"
        out.write(_record("warcinfo", None, info, ["Content-Type: application/warc-fields"]))
        for url, html, content_type in pages:
            http = (f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
                    f"Content-Length: {len(html)}\r\n\r\n").encode("ascii") + html
            member = _record("response", url, http, ["Content-Type: application/http; msgtype=response"])
            places.append((out.tell(), len(member)))
            out.write(member)
    return places
