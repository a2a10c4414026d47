"""htmltok.process: the batch over the bundled corpus (files and the sample WARC)."""

import threading
import time

import pytest

import htmltok
import htmltok.spark
from conftest import BUNDLED, SAMPLE_WARC, cli_json_lines, shared_dir

COLUMNS = ["warc_filename", "warc_record_offset", "warc_record_length", "warc_record_id", "url",
           "fetch_time", "fetch_status", "content_mime_type", "encoding", "encoding_rule", "title",
           "links", "text"]
JOIN = ("warc_record_id", "fetch_time", "fetch_status", "content_mime_type")


def key(page):
    return (page["warc_filename"], page["warc_record_offset"] or -1)


def test_bundled_corpus_equals_the_cli():
    pages = htmltok.process(str(BUNDLED))
    got = sorted(pages, key=key)
    assert pages.errors == []
    want = cli_json_lines("text", BUNDLED)
    assert len(got) == len(want) == len(list(BUNDLED.glob("*.html"))) + 7
    by_label = {line["document"]: line for line in want}
    for page in got:
        assert list(page) == COLUMNS
        label = page["warc_filename"]
        if page["warc_record_offset"] is not None:
            label += f"@{page['warc_record_offset']}"
            assert page["warc_record_length"] > 0 and page["url"]
        line = by_label[label]
        assert (page["url"], page["title"], page["text"]) == (line["url"], line["title"], line["text"])
        doc_links = [{k: v for k, v in l.items() if k != "document"}
                     for l in cli_json_lines("links", "--json", "-j", "1", page["warc_filename"])
                     if l["document"] == label]
        assert page["links"] == doc_links
    # 7 HTML responses in the WARC file (the 8th, robots.txt, is text/plain); the
    # request, metadata and warcinfo records are not documents either.
    assert pages.counts == {
        "skipped": {"request": 8, "metadata": 1, "not-html": 1, "warcinfo": 1},
        "recovered": {},
        "failures": {},
        # MANIFEST.tsv and README.md: not HTML or archive names.
        "passed_over": {"not-html-name": 2},
    }
    assert pages.ignored == sum(pages.counts["skipped"].values())


def test_join_columns_are_the_records():
    """warc_record_id, fetch_time, fetch_status and content_mime_type of a WARC record's
    page are its WARC-Record-ID, WARC-Date, HTTP status and MIME type; None for a file."""
    from htmltok.warc import ArchiveIterator

    records = {r.offset: r for r in ArchiveIterator(SAMPLE_WARC)}
    pages = list(htmltok.process([SAMPLE_WARC, BUNDLED / "article.html"], links=False, text=False))
    assert len(pages) == 8
    for page in pages:
        if page["warc_record_offset"] is None:
            assert [page[c] for c in JOIN] == [None] * 4
            continue
        record = records[page["warc_record_offset"]]
        assert page["warc_record_id"] == record.record_id and record.record_id.startswith("<urn:uuid:")
        assert page["fetch_time"] == record.date and len(record.date) == 20
        assert page["fetch_status"] == record.http_status
        assert page["content_mime_type"] == record.content_type.split(";")[0].strip().lower()
    statuses = sorted(p["fetch_status"] for p in pages if p["fetch_status"] is not None)
    assert 301 in statuses and 200 in statuses
    assert len({p["warc_record_id"] for p in pages}) == 8  # seven IDs and None


def test_threads_give_the_same_pages():
    one = sorted(htmltok.process([BUNDLED], threads=1), key=key)
    two = sorted(htmltok.process([BUNDLED], threads=2), key=key)
    every = sorted(htmltok.process(BUNDLED, True, True, 0), key=key)
    assert one == two == every
    # threads=1 keeps the order of the paths
    ordered = [p["warc_filename"] for p in htmltok.process(sorted(BUNDLED.glob("*.html")), threads=1)]
    assert ordered == [str(p) for p in sorted(BUNDLED.glob("*.html"))]


def test_options():
    pages = list(htmltok.process(SAMPLE_WARC, links=False, text=False))
    assert pages and all(p["links"] is None and p["text"] is None and p["title"] for p in pages if p["url"].startswith("https"))
    pages = list(htmltok.process(SAMPLE_WARC, text=False))
    assert all(p["text"] is None and isinstance(p["links"], list) for p in pages)
    assert len(list(htmltok.process(SAMPLE_WARC, all_records=True))) == 8
    pages = list(htmltok.process(BUNDLED / "article.html", base="https://example.org/"))
    assert all(l["url"].startswith(("https://", "http://", "mailto:", "tel:", "javascript:")) for l in pages[0]["links"])
    # link_urls=True: the same links, as their URLs only
    as_urls = list(htmltok.process(BUNDLED / "article.html", base="https://example.org/", link_urls=True))
    assert as_urls[0]["links"] == [l["url"] for l in pages[0]["links"]] and as_urls[0]["links"]
    assert {k: v for k, v in as_urls[0].items() if k != "links"} == {k: v for k, v in pages[0].items() if k != "links"}


def test_failures_are_collected_not_raised(tmp_path):
    raw = SAMPLE_WARC.read_bytes()
    # Cut inside the last member's gzip header: nothing of it decompressed, a failure.
    (tmp_path / "cut.warc.gz").write_bytes(raw[: raw.rfind(b"\x1f\x8b\x08") + 6])
    (tmp_path / "ok.html").write_bytes(b"<title>ok</title>")
    unreadable = tmp_path / "locked.html"
    unreadable.write_bytes(b"x")
    unreadable.chmod(0)
    pages = htmltok.process(tmp_path, threads=2)
    got = list(pages)
    assert "ok" in [p["title"] for p in got]
    files = {f for f, _, _ in pages.errors}
    assert str(tmp_path / "cut.warc.gz") in files
    offsets = [o for f, o, _ in pages.errors if f.endswith("cut.warc.gz")]
    assert offsets and all(isinstance(o, int) for o in offsets)
    # The failures by reason: one per entry of `errors`.
    failures = pages.counts["failures"]
    assert sum(failures.values()) == len(pages.errors)
    assert "bad-gzip-member" in failures
    unreadable.chmod(0o644)


def test_a_missing_file_is_listed_and_the_others_are_read(tmp_path):
    # As the CLI skips a missing file and reads the rest, so does process().
    (tmp_path / "ok.html").write_bytes(b"<title>ok</title>")
    missing = str(tmp_path / "missing.html")
    pages = htmltok.process([missing, str(tmp_path / "ok.html")], threads=1)
    assert [p["title"] for p in pages] == ["ok"]
    assert [(f, o) for f, o, _ in pages.errors] == [(missing, None)]
    assert "cannot read" in pages.errors[0][2]
    assert pages.counts["failures"] == {"unreadable": 1}


def test_one_sniffing_path(tmp_path):
    # A UTF-16 page with its BOM is HTML named or in a folder; binary data is listed.
    page = b"\xff\xfe" + "<title>Ünï</title><p>x".encode("utf-16-le")
    (tmp_path / "page.html").write_bytes(page)
    (tmp_path / "binary.html").write_bytes(b"\x7fELF\x02\x01\x01\x00" * 8)
    (tmp_path / "notes.txt").write_bytes(b"left out by name")
    named = htmltok.process(str(tmp_path / "page.html"), threads=1)
    assert [(p["title"], p["encoding"]) for p in named] == [("Ünï", "UTF-16LE")]
    folder = htmltok.process(tmp_path, threads=1)
    assert [p["title"] for p in folder] == ["Ünï"]
    assert [(f.endswith("binary.html"), r) for f, _, r in folder.errors] == [
        (True, "neither HTML nor a WARC or ARC file: binary data")
    ]
    assert folder.counts["passed_over"] == {"not-html-name": 1}


def test_bad_arguments(tmp_path):
    for bad in (5, None, [1]):
        with pytest.raises(TypeError):
            htmltok.process(bad)
    with pytest.raises(ValueError):
        htmltok.process(BUNDLED, base="relative/")


def test_dropping_the_iterator_stops_the_run():
    corpus = shared_dir("corpus", "HTMLTOK_CORPUS")
    paths = [BUNDLED] * 200 + ([corpus] if corpus.is_dir() else [])
    start = time.monotonic()
    for _ in range(3):
        pages = htmltok.process(paths, threads=2)
        first = [next(pages) for _ in range(5)]
        assert len(first) == 5
        del pages
    with htmltok.process(paths) as pages:
        next(pages)
    pages = htmltok.process(paths)
    next(pages)
    assert pages.counts is None  # not over yet
    pages.close()
    assert list(pages) == []
    assert time.monotonic() - start < 20
    # the runs are over (or ending): a new one works
    assert len(list(htmltok.process(BUNDLED, threads=2))) == 17


def test_iterating_from_threads():
    pages = htmltok.process([BUNDLED] * 10, threads=2)
    seen = []

    def work():
        for page in pages:
            seen.append(page["warc_filename"])

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 170


def test_arrow_batches_equal_the_pages(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="NOT RUN: pyarrow is not installed (pip install pyarrow)")
    raw = SAMPLE_WARC.read_bytes()
    (tmp_path / "cut.warc.gz").write_bytes(raw[: raw.rfind(b"\x1f\x8b\x08") + 6])
    inputs = [BUNDLED, tmp_path]
    run = htmltok.process(inputs, link_urls=True)
    want = sorted(run, key=key)
    batches = htmltok.process_arrow(inputs, batch_rows=3)
    got_batches = list(batches)
    assert all(b.num_rows <= 3 for b in got_batches) and len(got_batches) > 1
    table = pa.Table.from_batches(got_batches)
    assert table.column_names == list(htmltok.spark.COLUMNS)
    got = sorted(table.to_pylist(), key=key)
    assert got == want
    assert batches.documents == len(want)
    assert batches.counts == run.counts and batches.counts["skipped"]["request"] >= 8
    assert sum(batches.counts["failures"].values()) == len(batches.errors)
    assert [f.name for f in table.schema] == COLUMNS
    assert str(table.schema.field("fetch_status").type) == "int32"
    # The damaged file is reported, not raised, as with process().
    assert batches.errors and all(str(tmp_path) in f for f, _, _ in batches.errors)
    # Options as for process(): no links, no text; IPC bytes without pyarrow's help. One
    # thread: with two, each worker may hold partial columns of its own at the end, so
    # the pages can come as two batches (each worker's last), as the docs allow.
    streams = list(htmltok.process_ipc(BUNDLED, links=False, text=False, threads=1, batch_rows=1000))
    assert len(streams) == 1 and isinstance(streams[0], bytes)
    table = pa.ipc.open_stream(streams[0]).read_all()
    assert table.column("links").null_count == table.num_rows == table.column("text").null_count
    with pytest.raises(ValueError):
        htmltok.process_ipc(BUNDLED, batch_rows=0)


def test_arrow_capsules_are_the_ipc_batches():
    """process_batches hands the same batches over the Arrow PyCapsule interface: any
    number of exports of one batch, each equal to the IPC stream's."""
    pa = pytest.importorskip("pyarrow", reason="NOT RUN: pyarrow is not installed (pip install pyarrow)")
    ipc = pa.Table.from_batches(
        [pa.ipc.open_stream(s).read_next_batch() for s in htmltok.process_ipc(BUNDLED, threads=1, batch_rows=4)]
    )
    objects = list(htmltok.process_batches(BUNDLED, threads=1, batch_rows=4))
    assert len(objects) > 1 and all(0 < o.num_rows <= 4 for o in objects)
    first = [pa.record_batch(o) for o in objects]
    again = [pa.record_batch(o) for o in objects]
    assert pa.Table.from_batches(first).equals(ipc)
    assert pa.Table.from_batches(again).equals(ipc)
    schema, array = objects[0].__arrow_c_array__()
    assert "arrow_schema" in repr(schema) and "arrow_array" in repr(array)
    del schema, array  # never imported: dropped with their release callbacks
    with pytest.raises(ValueError):
        htmltok.process_batches(BUNDLED, batch_rows=0)
