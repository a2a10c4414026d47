"""Writing small WARC files for the tests and benchmarks: one gzip member per record (as
crawlers write them), a warcinfo record first, then one `response` record per page."""

import gzip
import uuid
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Tuple, Union

NAMESPACE = uuid.UUID("0b4f3a52-8d1c-4f3e-a6b2-7c9e1d2f5a60")
DATE = "2026-11-23T00:00:00Z"


def _record(kind: str, uri: Optional[str], block: bytes, extra: Iterable[str] = ()) -> bytes:
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


def write_warc(path: Union[str, Path], pages: Iterable[Tuple[str, bytes, str]]) -> List[Tuple[int, int]]:
    """Writes `pages` — (url, html bytes, content type) — to the `.warc.gz` file `path`;
    returns the (offset, length) of each response record."""
    places: List[Tuple[int, int]] = []
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


ARC_DATE = "20140216050221"


def arc_record(url: str, block: bytes, content_type: str = "text/html", ip: str = "93.184.216.119",
               date: str = ARC_DATE) -> bytes:
    """One ARC v1 record: its header line, `block` (an HTTP response, or any bytes) and
    the line end after it."""
    return f"{url} {ip} {date} {content_type} {len(block)}\n".encode("ascii") + block + b"\n"


def http_response(body: bytes, status: str = "200 OK",
                  headers: Sequence[Tuple[str, str]] = (("Content-Type", "text/html"),)) -> bytes:
    head = f"HTTP/1.1 {status}\r\n" + "".join(f"{n}: {v}\r\n" for n, v in headers)
    return head.encode("ascii") + f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body


def write_arc(path: Path, records: Iterable[bytes], gzipped: bool = False) -> List[int]:
    """Writes an ARC v1 file to `path`: the `filedesc://` record, then `records` (the
    bytes of `arc_record`), each its own gzip member when `gzipped`; returns the offset
    of each of `records`."""
    version = b"1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n"
    filedesc = f"filedesc://{path.name} 0.0.0.0 {ARC_DATE} text/plain {len(version)}\n".encode("ascii")
    parts = [filedesc + version + b"\n"] + list(records)
    if gzipped:
        parts = [gzip.compress(p, mtime=0) for p in parts]
    offsets, at = [], len(parts[0])
    for part in parts[1:]:
        offsets.append(at)
        at += len(part)
    path.write_bytes(b"".join(parts))
    return offsets
