"""htmltok.process: the batch over the bundled corpus (files and the sample WARC), its
outputs (dicts, Arrow IPC bytes, Arrow capsules, pyarrow batches) and ProcessOptions."""

import copy
import pickle
import sys
import threading
import time
from pathlib import Path
from typing import Any, List, Mapping, Optional, Tuple

import pytest

import htmltok
import htmltok.spark
from conftest import BUNDLED, SAMPLE_WARC, cli_json_lines, shared_dir, some

COLUMNS = ["warc_filename", "warc_record_offset", "warc_record_length", "warc_record_id", "url",
           "fetch_time", "fetch_status", "content_mime_type", "encoding", "encoding_rule", "title",
           "links", "text"]
JOIN = ("warc_record_id", "fetch_time", "fetch_status", "content_mime_type")


def key(page: Mapping[str, Any]) -> Tuple[str, int]:
    return (page["warc_filename"], page["warc_record_offset"] or -1)


def test_bundled_corpus_equals_the_cli() -> None:
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
            assert some(page["warc_record_length"]) > 0 and page["url"]
        line = by_label[label]
        assert (page["url"], page["title"], page["text"]) == (line["url"], line["title"], line["text"])
        doc_links = [{k: v for k, v in l.items() if k != "document"}
                     for l in cli_json_lines("links", "--json", "-j", "1", page["warc_filename"])
                     if l["document"] == label]
        assert page["links"] == doc_links
    # 7 HTML responses in the WARC file (the 8th, robots.txt, is text/plain); the
    # request, metadata and warcinfo records are not documents either.
    counts = some(pages.counts)
    assert counts == {
        "skipped": {"request": 8, "metadata": 1, "not-html": 1, "warcinfo": 1},
        "recovered": {},
        "failures": {},
        # MANIFEST.tsv and README.md: not HTML or archive names.
        "passed_over": {"not-html-name": 2},
    }
    assert pages.ignored == sum(counts["skipped"].values())


def test_join_columns_are_the_records() -> None:
    """warc_record_id, fetch_time, fetch_status and content_mime_type of a WARC record's
    page are its WARC-Record-ID, WARC-Date, HTTP status and MIME type; None for a file."""
    from htmltok.warc import ArchiveIterator

    records = {r.offset: r for r in ArchiveIterator(SAMPLE_WARC)}
    pages = list(htmltok.process([SAMPLE_WARC, BUNDLED / "article.html"], links=False, text=False))
    assert len(pages) == 8
    for page in pages:
        if page["warc_record_offset"] is None:
            assert [dict(page)[c] for c in JOIN] == [None] * 4
            continue
        record = records[page["warc_record_offset"]]
        assert page["warc_record_id"] == record.record_id and some(record.record_id).startswith("<urn:uuid:")
        assert page["fetch_time"] == record.date and len(some(record.date)) == 20
        assert page["fetch_status"] == record.http_status
        assert page["content_mime_type"] == some(record.content_type).split(";")[0].strip().lower()
    statuses = sorted(p["fetch_status"] for p in pages if p["fetch_status"] is not None)
    assert 301 in statuses and 200 in statuses
    assert len({p["warc_record_id"] for p in pages}) == 8  # seven IDs and None


def test_threads_give_the_same_pages() -> None:
    one = sorted(htmltok.process([BUNDLED], threads=1), key=key)
    two = sorted(htmltok.process([BUNDLED], threads=2), key=key)
    every = sorted(htmltok.process(BUNDLED, links=True, text=True, threads=0), key=key)
    assert one == two == every
    # threads=1 keeps the order of the paths
    ordered = [p["warc_filename"] for p in htmltok.process(sorted(BUNDLED.glob("*.html")), threads=1)]
    assert ordered == [str(p) for p in sorted(BUNDLED.glob("*.html"))]


def test_options() -> None:
    pages = list(htmltok.process(SAMPLE_WARC, links=False, text=False))
    assert pages and all(p["links"] is None and p["text"] is None and p["title"]
                         for p in pages if some(p["url"]).startswith("https"))
    pages = list(htmltok.process(SAMPLE_WARC, text=False))
    assert all(p["text"] is None and isinstance(p["links"], list) for p in pages)
    assert len(list(htmltok.process(SAMPLE_WARC, all_records=True))) == 8
    pages = list(htmltok.process(BUNDLED / "article.html", base="https://example.org/"))
    links: Any = pages[0]["links"]
    assert all(l["url"].startswith(("https://", "http://", "mailto:", "tel:", "javascript:")) for l in links)
    # link_urls=True: the same links, as their URLs only
    as_urls = list(htmltok.process(BUNDLED / "article.html", base="https://example.org/", link_urls=True))
    assert as_urls[0]["links"] == [l["url"] for l in links] and as_urls[0]["links"]
    assert {k: v for k, v in as_urls[0].items() if k != "links"} == {k: v for k, v in pages[0].items() if k != "links"}


def test_failures_are_collected_not_raised(tmp_path: Path) -> None:
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
    failures = some(pages.counts)["failures"]
    assert sum(failures.values()) == len(pages.errors)
    assert "bad-gzip-member" in failures
    unreadable.chmod(0o644)


def test_a_missing_file_is_listed_and_the_others_are_read(tmp_path: Path) -> None:
    # As the CLI skips a missing file and reads the rest, so does process().
    (tmp_path / "ok.html").write_bytes(b"<title>ok</title>")
    missing = str(tmp_path / "missing.html")
    pages = htmltok.process([missing, str(tmp_path / "ok.html")], threads=1)
    assert [p["title"] for p in pages] == ["ok"]
    assert [(f, o) for f, o, _ in pages.errors] == [(missing, None)]
    assert "cannot read" in pages.errors[0][2]
    assert some(pages.counts)["failures"] == {"unreadable": 1}


def test_one_sniffing_path(tmp_path: Path) -> None:
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
    assert some(folder.counts)["passed_over"] == {"not-html-name": 1}


def test_bad_arguments(tmp_path: Path) -> None:
    for bad in (5, None, [1]):
        with pytest.raises(TypeError):
            htmltok.process(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not an absolute URL"):
        htmltok.process(BUNDLED, base="relative/")
    with pytest.raises(ValueError, match="output must be 'dicts', 'ipc', 'capsules' or 'pyarrow', not 'arrow'"):
        htmltok.process(BUNDLED, output="arrow")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="unexpected keyword argument 'linkz'.*the options: links, text"):
        htmltok.process(BUNDLED, linkz=False)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="'links'"):
        htmltok.process(BUNDLED, links="no")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="options must be an htmltok.ProcessOptions or None, not dict"):
        htmltok.process(BUNDLED, {"links": False})  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="takes from 1 to 2 positional arguments"):
        htmltok.process(BUNDLED, None, False)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'inputs'"):
        htmltok.process()  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="threads must be at least 0"):
        htmltok.process(BUNDLED, threads=-1)
    with pytest.raises(ValueError, match="batch_rows must be at least 1"):
        htmltok.process(BUNDLED, output="ipc", batch_rows=0)


def test_dropping_the_iterator_stops_the_run() -> None:
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


def test_iterating_from_threads() -> None:
    pages = htmltok.process([BUNDLED] * 10, threads=2)
    seen = []

    def work() -> None:
        for page in pages:
            seen.append(page["warc_filename"])

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 170


def test_arrow_batches_equal_the_pages(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow", reason="NOT RUN: pyarrow is not installed (pip install pyarrow)")
    raw = SAMPLE_WARC.read_bytes()
    (tmp_path / "cut.warc.gz").write_bytes(raw[: raw.rfind(b"\x1f\x8b\x08") + 6])
    inputs = [BUNDLED, tmp_path]
    run = htmltok.process(inputs, link_urls=True)
    want = sorted(run, key=key)
    batches = htmltok.process(inputs, output="pyarrow", batch_rows=3)
    got_batches = list(batches)
    assert all(isinstance(b, pa.RecordBatch) for b in got_batches)
    assert all(b.num_rows <= 3 for b in got_batches) and len(got_batches) > 1
    table = pa.Table.from_batches(got_batches)
    assert table.column_names == list(htmltok.spark.COLUMNS) == htmltok.COLUMNS
    got = sorted(table.to_pylist(), key=key)
    assert got == want
    assert batches.documents == len(want)
    counts = some(batches.counts)
    assert counts == run.counts and counts["skipped"]["request"] >= 8
    assert sum(counts["failures"].values()) == len(batches.errors)
    assert [f.name for f in table.schema] == COLUMNS
    assert str(table.schema.field("fetch_status").type) == "int32"
    # The damaged file is reported, not raised, as with the dicts.
    assert batches.errors and all(str(tmp_path) in f for f, _, _ in batches.errors)
    # Options as for the dicts: no links, no text; IPC bytes without pyarrow's help. One
    # thread: with two, each worker may hold partial columns of its own at the end, so
    # the pages can come as two batches (each worker's last), as the docs allow.
    streams = list(htmltok.process(BUNDLED, output="ipc", links=False, text=False, threads=1, batch_rows=1000))
    assert len(streams) == 1 and isinstance(streams[0], bytes)
    table = pa.ipc.open_stream(streams[0]).read_all()
    assert table.column("links").null_count == table.num_rows == table.column("text").null_count
    with pytest.raises(ValueError, match="batch_rows must be at least 1"):
        htmltok.process(BUNDLED, output="ipc", batch_rows=0)


def test_arrow_capsules_are_the_ipc_batches() -> None:
    """output="capsules" hands the same batches over the Arrow PyCapsule interface: any
    number of exports of one batch, each equal to the IPC stream's."""
    pa = pytest.importorskip("pyarrow", reason="NOT RUN: pyarrow is not installed (pip install pyarrow)")
    options = htmltok.ProcessOptions(threads=1, batch_rows=4)
    ipc = pa.Table.from_batches(
        [pa.ipc.open_stream(s).read_next_batch() for s in htmltok.process(BUNDLED, options, output="ipc")]
    )
    objects = list(htmltok.process(BUNDLED, options, output="capsules"))
    assert len(objects) > 1 and all(isinstance(o, htmltok.ArrowBatch) and 0 < o.num_rows <= 4 for o in objects)
    first = [pa.record_batch(o) for o in objects]
    again = [pa.record_batch(o) for o in objects]
    assert pa.Table.from_batches(first).equals(ipc)
    assert pa.Table.from_batches(again).equals(ipc)
    schema, array = objects[0].__arrow_c_array__()
    assert "arrow_schema" in repr(schema) and "arrow_array" in repr(array)
    del schema, array  # never imported: dropped with their release callbacks
    with pytest.raises(ValueError):
        htmltok.process(BUNDLED, output="capsules", batch_rows=0)


def test_process_options() -> None:
    default = htmltok.ProcessOptions()
    assert (default.links, default.text, default.threads, default.base, default.fields) == (True, True, 0, None, None)
    assert (default.batch_rows, default.batch_bytes) == (1024, 4 << 20)
    assert not any([default.data_urls, default.link_urls, default.all_files, default.all_records,
                    default.main_text, default.main_markdown, default.metadata])
    fields = {"h": "h1::text"}
    options = htmltok.ProcessOptions(links=False, threads=2, base="https://e.org/", fields=fields, main_text=True)
    fields["x"] = "p"  # the options keep a copy
    assert options.fields == {"h": "h1::text"}
    assert repr(options).startswith("ProcessOptions(links=False, text=True, threads=2, base='https://e.org/'")
    # Immutable, compared by value, changed by copy.
    with pytest.raises(AttributeError):
        options.links = True  # type: ignore[misc]
    assert options == htmltok.ProcessOptions(**options.to_dict())
    assert options != default and options != "options"
    changed = options.replace(links=True, main_text=False)
    assert (changed.links, changed.main_text, changed.threads, options.links) == (True, False, 2, False)
    if sys.version_info >= (3, 13):
        assert copy.replace(options, threads=3).threads == 3
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        options.replace(nope=1)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="one of the page's columns"):
        options.replace(fields={"title": "title::text"})
    # Hashable without a dict of fields (a dict has no hash), picklable.
    assert hash(default) == hash(htmltok.ProcessOptions())
    with pytest.raises(TypeError):
        hash(options)
    assert pickle.loads(pickle.dumps(options)) == options
    compiled = htmltok.ProcessOptions(fields=htmltok.Fields(fields))
    assert some(compiled.fields) is not None and isinstance(compiled.fields, htmltok.Fields)
    # Checked when made.
    bad_options: List[Tuple[Mapping[str, Any], str]] = [({"base": "relative/"}, "absolute URL"), ({"threads": -2}, "threads must be at least 0"),
                       ({"batch_rows": 0}, "batch_rows must be at least 1"), ({"fields": {"x": "a[["}}, "invalid selector")]
    for bad, match in bad_options:
        with pytest.raises(ValueError, match=match):
            htmltok.ProcessOptions(**bad)
    with pytest.raises(TypeError):
        htmltok.ProcessOptions(False)  # type: ignore[call-arg]
    # The options given as an object or as keywords: the same run; not both.
    one = sorted(htmltok.process(SAMPLE_WARC, htmltok.ProcessOptions(links=False, threads=1)), key=key)
    two = sorted(htmltok.process(SAMPLE_WARC, links=False, threads=1), key=key)
    assert one == two and all(p["links"] is None for p in one)
    with pytest.raises(TypeError, match="both options and keyword options \\(text\\)"):
        htmltok.process(SAMPLE_WARC, default, text=False)
    assert one == sorted(htmltok.process(SAMPLE_WARC, options=htmltok.ProcessOptions(links=False)), key=key)


def test_pages_is_generic() -> None:
    """Pages[bytes] and the like work at runtime too (the stubs make Pages generic)."""
    assert str(htmltok.Pages[bytes]) == "htmltok.Pages[bytes]"

    def ipc(paths: List[Path]) -> "htmltok.Pages[bytes]":
        return htmltok.process(paths, output="ipc")

    assert isinstance(ipc([SAMPLE_WARC]), htmltok.Pages)


def test_old_names_still_work_with_a_warning() -> None:
    """process_ipc, process_batches, process_arrow, the positional options and paths=:
    deprecated, kept for one release, each giving what process() gives."""
    pa = pytest.importorskip("pyarrow", reason="NOT RUN: pyarrow is not installed (pip install pyarrow)")
    want = sorted(htmltok.process(SAMPLE_WARC, links=False, threads=1), key=key)

    def table(batches: Any) -> Any:
        return pa.Table.from_batches(list(batches))

    with pytest.warns(DeprecationWarning, match="htmltok.process_ipc.*output=\"ipc\""):
        streams = htmltok.process_ipc(SAMPLE_WARC, False, threads=1)
    assert sorted(table(pa.ipc.open_stream(s).read_next_batch() for s in streams).to_pylist(), key=key) == want
    with pytest.warns(DeprecationWarning, match="htmltok.process_batches.*output=\"capsules\""):
        capsules = htmltok.process_batches(SAMPLE_WARC, links=False, threads=1, batch_rows=2)
    assert sorted(table(pa.record_batch(c) for c in capsules).to_pylist(), key=key) == want
    with pytest.warns(DeprecationWarning, match="htmltok.process_arrow.*output=\"pyarrow\""):
        batches = htmltok.process_arrow(SAMPLE_WARC, links=False, threads=1)
    assert isinstance(batches, htmltok.ArrowBatches)
    assert sorted(table(batches).to_pylist(), key=key) == want
    assert batches.documents == len(want)
    with pytest.warns(DeprecationWarning, match="positional options is deprecated"):
        old = htmltok.process(SAMPLE_WARC, False, True, 1)
    assert sorted(old, key=key) == want
    with pytest.warns(DeprecationWarning, match="paths=...\\) is deprecated"):
        old = htmltok.process(paths=SAMPLE_WARC, links=False, threads=1)  # type: ignore[call-overload]
    assert sorted(old, key=key) == want
    with pytest.raises(TypeError, match="multiple values for argument 'links'"):
        htmltok.process(SAMPLE_WARC, False, links=True)
    with pytest.raises(TypeError, match="at most 4 positional arguments"):
        htmltok.process(SAMPLE_WARC, False, True, 1, 2)
