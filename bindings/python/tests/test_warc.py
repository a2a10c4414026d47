"""htmltok.warc.ArchiveIterator against the Rust reader's view (the CLI), on the sample
WARC and on broken copies of it."""

import gzip
import io
import re
import struct
import zlib
from pathlib import Path
from typing import BinaryIO, List, Tuple, Union

import pytest

import htmltok
from htmltok.warc import ArchiveError, ArchiveIterator, WarcRecord
from conftest import SAMPLE_WARC, cli, cli_json_lines, some

_Source = Union[str, Path, BinaryIO]


def cli_records(path: Path) -> List[Tuple[int, str]]:
    """(offset, url) of every response/resource record, as the CLI's batch reads them."""
    lines = cli_json_lines("text", "--all-records", "-j", "1", path, check=False)
    return [(int(line["document"].rsplit("@", 1)[1]), line["url"]) for line in lines]


def cli_errors(path: Path) -> List[int]:
    """The offsets of the damage the CLI reports on standard error."""
    _, err, _ = cli("text", "--all-records", "-j", "1", path, check=False)
    # A record may be named twice (cut off, and its body's coding cut off too).
    return sorted({int(m) for m in re.findall(r": offset (\d+): ", err)})


def records(source: _Source) -> Tuple[ArchiveIterator, List[WarcRecord]]:
    it = ArchiveIterator(source)
    recs = list(it)
    return it, recs


def test_sample_equals_the_rust_reader() -> None:
    it, recs = records(SAMPLE_WARC)
    assert [(r.offset, r.url) for r in recs] == cli_records(SAMPLE_WARC)
    assert it.errors == []
    assert len(recs) >= 8
    for r in recs:
        assert r.type in ("response", "resource")
        assert isinstance(r.content, bytes) and some(r.length) > 0
        assert all(isinstance(n, str) and isinstance(v, str) for n, v in r.http_headers)
        if r.content_type:
            assert r.header("content-type") == r.content_type
        doc = r.document()
        plain = htmltok.Document(r.content, http_charset=r.charset, url=r.url)
        assert (doc.encoding, doc.title, doc.links()) == (plain.encoding, plain.title, plain.links())
    # Common Crawl's offsets: seek there and gunzip one member to get the record back.
    raw = SAMPLE_WARC.read_bytes()
    for r in recs:
        member = gzip.decompress(raw[r.offset:r.offset + some(r.length)])
        assert member.startswith(b"WARC/1.")


def test_file_objects_and_pathlike() -> None:
    _, want = records(str(SAMPLE_WARC))
    key = [(r.offset, r.url, r.content) for r in want]
    with open(SAMPLE_WARC, "rb") as f:
        it, recs = records(f)
        assert it.name == str(SAMPLE_WARC)
    assert [(r.offset, r.url, r.content) for r in recs] == key
    it, recs = records(io.BytesIO(SAMPLE_WARC.read_bytes()))
    assert it.name == "<stream>"
    assert [(r.offset, r.url, r.content) for r in recs] == key
    _, recs = records(SAMPLE_WARC)  # pathlib.Path
    assert [(r.offset, r.url, r.content) for r in recs] == key
    # uncompressed
    plain = io.BytesIO(gzip.decompress(SAMPLE_WARC.read_bytes()))
    _, recs = records(plain)
    assert [r.url for r in recs] == [r.url for r in want]


def test_truncated_file(tmp_path: Path) -> None:
    raw = SAMPLE_WARC.read_bytes()
    _, full = records(SAMPLE_WARC)
    cut_record = full[5]
    # Cut in the middle of the sixth response's gzip member: what decompressed (its
    # header, HTTP head and the start of its body) is read as a file cut there, so the
    # record is read in part, and noted (the CLI's note names its offset).
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(raw[:cut_record.offset + some(cut_record.length) // 2])
    it, recs = records(path)
    assert [(r.offset, r.url) for r in recs] == [(r.offset, r.url) for r in full[:6]]
    assert [(r.offset, r.url) for r in recs] == cli_records(path)
    assert recs[5].damage == "record-cut-off" and cut_record.content.startswith(recs[5].content)
    assert it.errors == [] and cli_errors(path) == [cut_record.offset]
    # Cut inside its gzip header, nothing of it decompressed: an error at its offset.
    path.write_bytes(raw[:cut_record.offset + 6])
    it, recs = records(path)
    assert [(r.offset, r.url) for r in recs] == [(r.offset, r.url) for r in full[:5]]
    assert [(r.offset, r.url) for r in recs] == cli_records(path)
    assert [offset for _, offset, _ in it.errors] == cli_errors(path) == [cut_record.offset]
    assert it.errors[0][0] == str(path) and it.errors[0][2]


def test_garbage_inserted(tmp_path: Path) -> None:
    raw = SAMPLE_WARC.read_bytes()
    _, full = records(SAMPLE_WARC)
    at = full[3].offset
    path = tmp_path / "garbage.warc.gz"
    path.write_bytes(raw[:at] + b"\x1f\x8b\x08garbage that is not gzip" * 3 + raw[at:])
    it, recs = records(path)
    assert [r.url for r in recs] == [r.url for r in full]
    assert [(r.offset, r.url) for r in recs] == cli_records(path)
    assert [offset for _, offset, _ in it.errors] == cli_errors(path)
    assert it.errors and it.errors[0][1] == at
    # a corrupt member inside a record
    member = full[4]
    damaged = bytearray(raw)
    damaged[member.offset + 40: member.offset + 60] = b"\x00" * 20
    path2 = tmp_path / "corrupt.warc.gz"
    path2.write_bytes(bytes(damaged))
    it, recs = records(path2)
    assert member.url not in [r.url for r in recs]
    assert [(r.offset, r.url) for r in recs] == cli_records(path2)
    assert [offset for _, offset, _ in it.errors] == cli_errors(path2) == [member.offset]


def test_bad_sources(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        ArchiveIterator(tmp_path / "missing.warc.gz")
    with pytest.raises(FileNotFoundError):
        ArchiveIterator(str(tmp_path / "missing.warc"))
    for bad in (5, None, b"WARC/1.1"):
        with pytest.raises(TypeError):
            ArchiveIterator(bad)  # type: ignore[arg-type]
    # A text-mode file: the TypeError its first read gives, at once.
    text = tmp_path / "text.warc"
    text.write_text("WARC/1.1\r\n")
    with open(text, "r") as f:
        with pytest.raises(TypeError, match="binary mode"):
            ArchiveIterator(f)  # type: ignore[arg-type]
    # Not an archive by its first bytes (text, an executable, an HTML page): ArchiveError,
    # a ValueError, at once, whatever the name; an empty file is an archive of no records.
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"hello\n" * 100)
    ls = tmp_path / "ls.warc.gz"
    ls.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    for path in (junk, ls):
        with pytest.raises(ArchiveError, match="not a WARC or ARC file"):
            ArchiveIterator(path)
        with open(path, "rb") as f, pytest.raises(ValueError):
            ArchiveIterator(f)
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    it = ArchiveIterator(empty)
    assert list(it) == [] and it.errors == []


def test_strict_raises_at_the_first_damage(tmp_path: Path) -> None:
    raw = SAMPLE_WARC.read_bytes()
    _, full = records(SAMPLE_WARC)
    # Garbage between two records: listed by default, raised with strict=True.
    damaged = raw[: full[2].offset] + b"\x1f\x8b\x08 not gzip " * 5 + raw[full[2].offset:]
    path = tmp_path / "garbage.warc.gz"
    path.write_bytes(damaged)
    lenient = ArchiveIterator(path)
    assert len(list(lenient)) == len(full) and len(lenient.errors) == 1
    strict = ArchiveIterator(path, strict=True)
    got = []
    with pytest.raises(ArchiveError, match=r"garbage\.warc\.gz: offset \d+"):
        for record in strict:
            got.append(record.url)
    assert got == [r.url for r in full[:2]]
    assert strict.errors == lenient.errors


def test_threads_read_the_same_records(tmp_path: Path) -> None:
    # Over two parts (1 MiB each) so that the parallel reader really splits the file; with
    # garbage and a cut member in the middle, reported the same way.
    raw = SAMPLE_WARC.read_bytes()
    copies = (3 << 20) // len(raw) + 2
    _, full = records(SAMPLE_WARC)
    damaged = raw[: full[2].offset + 40] + raw[full[3].offset:]
    body = raw * (copies // 2) + b"\x1f\x8b\x08 not gzip " * 50 + damaged + raw * (copies // 2)
    path = tmp_path / "big.warc.gz"
    path.write_bytes(body)
    seq = ArchiveIterator(path)
    want = [(r.offset, r.length, r.url, r.content) for r in seq]
    assert seq.errors and len(want) > 2 * len(full)
    for threads in (2, 0):
        par = ArchiveIterator(path, threads=threads)
        got = [(r.offset, r.length, r.url, r.content) for r in par]
        assert got == want
        assert par.errors == seq.errors
    with pytest.raises(FileNotFoundError):
        ArchiveIterator(tmp_path / "missing.warc.gz", threads=2)


def gzip_members(raw: bytes) -> List[bytes]:
    """The decompressed members of a `.warc.gz`, one per record."""
    members = []
    while raw:
        inflate = zlib.decompressobj(wbits=31)
        members.append(inflate.decompress(raw) + inflate.flush())
        raw = inflate.unused_data
    return members


def write_recompressed(path: Path, head: bytes, frames: List[bytes]) -> List[int]:
    """Writes `head` then `frames` to `path`; returns each frame's offset."""
    path.write_bytes(head + b"".join(frames))
    offsets, at = [], len(head)
    for frame in frames:
        offsets.append(at)
        at += len(frame)
    return offsets


def check_reads_as_the_sample(path: Path, offsets: List[int]) -> None:
    """The records of `path` (the sample's, recompressed) read as the sample's, with 1 and
    2 threads, at frame offsets the CLI agrees with, and give `process()` the same pages."""
    _, want = records(SAMPLE_WARC)
    for threads in (1, 2):
        it, recs = records_with(path, threads)
        assert it.errors == []
        assert [(r.url, r.content) for r in recs] == [(r.url, r.content) for r in want]
        assert all(r.offset in offsets for r in recs)
    assert [(r.offset, r.url) for r in recs] == cli_records(path)
    pages = sorted((p["url"], p["title"], p["text"]) for p in htmltok.process(path, threads=2))
    assert pages == sorted((p["url"], p["title"], p["text"]) for p in htmltok.process(SAMPLE_WARC, threads=2))
    assert len(pages) == 7


def test_warc_zst_reads_as_the_warc_gz(tmp_path: Path) -> None:
    # The sample's records recompressed one zstd frame per record (the IIPC proposal's
    # .warc.zst), with and without a dictionary in the skippable frame at the start.
    zstandard = pytest.importorskip("zstandard", reason="the zstandard package writes the .warc.zst")
    members = gzip_members(SAMPLE_WARC.read_bytes())
    dictionary = zstandard.train_dictionary(2048, members * 8)
    plain = zstandard.ZstdCompressor(level=3)
    with_dict = zstandard.ZstdCompressor(level=3, dict_data=dictionary)
    for name, head, compressor in (
        ("sample.warc.zst", b"", plain),
        ("dict.warc.zst", struct.pack("<II", 0x184D2A5D, len(dictionary.as_bytes())) + dictionary.as_bytes(), with_dict),
    ):
        path = tmp_path / name
        offsets = write_recompressed(path, head, [compressor.compress(m) for m in members])
        check_reads_as_the_sample(path, offsets)


def test_warc_lz4_reads_as_the_warc_gz(tmp_path: Path) -> None:
    # The sample's records recompressed one LZ4 frame per record (as FastWARC reads
    # them), with linked blocks (python-lz4's default) and independent ones, and a frame
    # cut short at the end.
    lz4frame = pytest.importorskip("lz4.frame", reason="the lz4 package writes the .warc.lz4")
    members = gzip_members(SAMPLE_WARC.read_bytes())
    for linked in (True, False):
        frames = [
            lz4frame.compress(m, block_linked=linked, content_checksum=True, store_size=True)
            for m in members
        ]
        path = tmp_path / f"linked-{linked}.warc.lz4"
        offsets = write_recompressed(path, b"", frames)
        check_reads_as_the_sample(path, offsets)
    # The last frame without its content checksum: its record (metadata, which the
    # iterator does not yield) was read whole and marked member-cut-off; no error.
    _, want = records(SAMPLE_WARC)
    cut = tmp_path / "cut.warc.lz4"
    cut.write_bytes(b"".join(frames)[:-4])
    for threads in (1, 2):
        it, recs = records_with(cut, threads)
        assert [r.content for r in recs] == [r.content for r in want]
        assert it.errors == []


def records_with(source: _Source, threads: int) -> Tuple[ArchiveIterator, List[WarcRecord]]:
    it = ArchiveIterator(source, threads=threads)
    return it, list(it)
