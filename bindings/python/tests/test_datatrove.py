"""htmltok.datatrove: the extractor and the WARC reader in datatrove pipelines that read a
WARC file and write JSONL, equal to htmltok.process on the same records.

Needs datatrove (and for its JsonlWriter orjson; for datatrove's own WarcReader, which
the extractor's pipeline reads with, warcio, faust-cchardet and python-magic), which
scripts/test-python.sh installs. Without them the tests say NOT RUN, or fail under
CI/HTMLTOK_REQUIRE_DATA."""

import json
import multiprocessing
from pathlib import Path
from typing import Any, Dict, List, Literal, Optional

import pytest

import htmltok
from conftest import BUNDLED, SAMPLE_WARC, missing
from warcs import write_warc

CHARSETS = {"legacy-shift_jis.html": "Shift_JIS", "legacy-windows-1251.html": "windows-1251"}


def need(module: str, what: str = "the datatrove tests") -> Any:
    try:
        return __import__(module)
    except ImportError as err:
        missing(what, f"{module} is not importable ({err}); scripts/test-python.sh installs it")


@pytest.fixture(scope="module", autouse=True)
def datatrove() -> Any:
    need("datatrove")
    need("orjson")
    return need("htmltok.datatrove")


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two WARC files: the bundled pages (their charsets in the HTTP
    Content-Type) and the sample WARC (requests, metadata, a robots.txt, a redirect)."""
    folder = tmp_path_factory.mktemp("datatrove-warcs")
    pages = sorted(BUNDLED.glob("*.html"))
    records = [(f"https://corpus.example.org/{p.name}", p.read_bytes(),
                f"text/html; charset={CHARSETS[p.name]}" if p.name in CHARSETS else "text/html")
               for p in pages]
    write_warc(folder / "pages.warc.gz", records)
    (folder / "sample.warc.gz").write_bytes(SAMPLE_WARC.read_bytes())
    return folder


def process_pages(folder: Path, **options: Any) -> Dict[Optional[str], Any]:
    """htmltok.process's pages of every WARC file in `folder`, by record ID."""
    pages = htmltok.process(sorted(folder.glob("*.warc.gz")), links=False, text=False, main_text=True, **options)
    return {page["warc_record_id"]: page for page in pages}


def read_jsonl(folder: Path) -> List[Any]:
    return [json.loads(line) for f in sorted(folder.rglob("*.jsonl")) for line in f.open(encoding="utf-8")]


def run(pipeline: List[Any], tmp_path: Path, name: str, tasks: int = 1) -> Dict[str, Any]:
    from datatrove.executor import LocalPipelineExecutor

    LocalPipelineExecutor(pipeline=pipeline, tasks=tasks, workers=1, logging_dir=str(tmp_path / f"logs-{name}")).run()
    stats = json.loads((tmp_path / f"logs-{name}" / "stats.json").read_text())
    return {step["name"]: step["stats"] for step in stats}


def counts(step_stats: Dict[str, Any]) -> Dict[str, Any]:
    """A step's stats as {name: total}."""
    return {name: value["total"] if isinstance(value, dict) else value for name, value in step_stats.items()}


@pytest.mark.parametrize("format", ["text", "markdown"])
def test_reader_pipeline_writes_the_main_text(warcs: Path, tmp_path: Path, format: Literal["text", "markdown"]) -> None:
    from datatrove.pipeline.writers import JsonlWriter
    from htmltok.datatrove import WarcReader

    out = tmp_path / "out"
    stats = run([WarcReader(str(warcs), glob_pattern="*.warc.gz", format=format),
                 JsonlWriter(str(out), compression=None)], tmp_path, format)
    docs = read_jsonl(out)
    pages = process_pages(warcs, main_markdown=format == "markdown")
    key = "main_markdown" if format == "markdown" else "main_text"
    kept = {rid: page for rid, page in pages.items() if page[key]}
    assert len(docs) == len(kept) == len(pages), "every bundled page has a main text"
    for doc in docs:
        page = kept[doc["id"]]
        meta = doc["metadata"]
        assert doc["text"] == page[key]
        assert (meta["url"], meta["date"], meta["title"], meta["kind"], meta["encoding"]) == (
            page["url"], page["fetch_time"], page["title"], page["main_kind"], page["encoding"])
        assert meta["confidence"] == pytest.approx(page["main_confidence"])
        assert meta["status"] == page["fetch_status"] and meta["content_type"] == page["content_mime_type"]
        assert meta["warc_record_offset"] == page["warc_record_offset"] > -1
        assert meta["file_path"].endswith(".warc.gz")
    by_url = {d["metadata"]["url"]: d for d in docs}
    # Decoded as a browser decodes: the HTTP charset of the record.
    legacy = by_url["https://corpus.example.org/legacy-windows-1251.html"]["metadata"]
    assert (legacy["encoding"], legacy["encoding_rule"]) == ("windows-1251", "transport")
    # Nothing lost in silence: the sample WARC's records that are not documents, by reason.
    reader = counts(next(s for name, s in stats.items() if "htmltok" in name))
    assert reader["skipped_request"] == 8 and reader["skipped_warcinfo"] == 2
    assert reader["skipped_metadata"] == 1 and reader["skipped_not-html"] == 1
    assert reader["documents"] == len(docs) and reader["input_files"] == 2
    assert "dropped" not in reader


def test_reader_metadata_limit_and_shards(warcs: Path, tmp_path: Path) -> None:
    from htmltok.datatrove import WarcReader

    docs = list(WarcReader(str(warcs), glob_pattern="*.warc.gz", metadata=True)())
    assert all(set(htmltok.METADATA_COLUMNS) <= set(d.metadata) for d in docs)
    shop = next(d for d in docs if d.metadata["url"].endswith("shop-kettle.html"))
    page = next(p for p in htmltok.process(warcs / "pages.warc.gz", links=False, text=False, metadata=True)
                if p["url"] == shop.metadata["url"])
    for name in htmltok.METADATA_COLUMNS:
        assert shop.metadata[name] == dict(page)[name], name
    assert len(list(WarcReader(str(warcs), glob_pattern="*.warc.gz", limit=3)())) == 3
    # Two tasks share the two files; together they read every document once.
    shards = [list(WarcReader(str(warcs), glob_pattern="*.warc.gz")(rank=r, world_size=2)) for r in (0, 1)]
    assert all(shards) and sorted(d.id for s in shards for d in s) == sorted(d.id for d in docs)
    assert len({d.metadata["file_path"] for d in shards[0]}) == 1


def test_reader_counts_what_it_cannot_read(tmp_path: Path) -> None:
    from htmltok.datatrove import WarcReader

    raw = SAMPLE_WARC.read_bytes()
    (tmp_path / "cut.warc.gz").write_bytes(raw[: len(raw) - 500])
    (tmp_path / "garbage.warc.gz").write_bytes(b"\x1f\x8b\x08\x00garbage, not gzip" * 10)
    write_warc(tmp_path / "empty.warc.gz", [("https://example.org/empty", b"<html><body></body></html>", "text/html")])
    reader = WarcReader(str(tmp_path), glob_pattern="*.warc.gz")
    docs = list(reader())
    stats = counts(reader.stats.to_dict()["stats"])
    assert docs and all(d.text for d in docs)
    assert stats["failed_not-html-file"] == 1, "the garbage file"
    assert stats["recovered_record-cut-off"] == 1, "the record cut off, read as far as it goes"
    assert stats["dropped"] == 1, "the page without main text"


def test_reader_reads_other_file_systems(warcs: Path) -> None:
    """A file on a file system that is not local (here fsspec's memory://) is copied to a
    temporary file and read there; the documents are the local ones."""
    import fsspec
    from htmltok.datatrove import WarcReader

    fs = fsspec.filesystem("memory")
    fs.pipe("/htmltok-test/pages.warc.gz", (warcs / "pages.warc.gz").read_bytes())
    remote = list(WarcReader("memory://htmltok-test")())
    local = list(WarcReader(str(warcs), glob_pattern="pages.warc.gz")())
    assert [(d.id, d.text) for d in remote] == [(d.id, d.text) for d in local]
    assert remote[0].metadata["file_path"].startswith("memory://")


def test_extractor_replaces_html_in_process(warcs: Path) -> None:
    from datatrove.data import Document
    from htmltok.datatrove import Htmltok

    pages = sorted(BUNDLED.glob("*.html"))
    docs = [Document(text=p.read_text(encoding="utf-8", errors="replace"), id=p.name,
                     metadata={"url": f"https://corpus.example.org/{p.name}"}) for p in pages]
    docs.append(Document(text="<html><body><nav><a href=/>home</a></nav></body></html>", id="empty", metadata={}))
    extractor = Htmltok()
    before = multiprocessing.active_children()
    out = list(extractor.run(iter(docs)))
    assert multiprocessing.active_children() == before, "no sandbox subprocess"
    assert [d.id for d in out] == [p.name for p in pages]
    for doc, path in zip(out, pages):
        assert doc.text == htmltok.parse(path.read_text(encoding="utf-8", errors="replace")).main_text()
    stats = counts(extractor.stats.to_dict()["stats"])
    assert (stats["total"], stats["extracted"], stats["forwarded"], stats["dropped"]) == (
        len(docs), len(docs), len(pages), 1)
    md = Htmltok(format="markdown", images=False)
    html = '<article><h1>Tides</h1><p>See <a href="six.html">six</a> <img src=a.png alt=x></p></article>'
    assert md.extract(html, "https://example.org/t/") == "# Tides\n\nSee [six](https://example.org/t/six.html)"
    assert md.extract(html, "not a url") == "# Tides\n\nSee [six](six.html)"
    with pytest.raises(ValueError):
        Htmltok(format="html")  # type: ignore[arg-type]


def test_extractor_pipeline_after_datatroves_reader(warcs: Path, tmp_path: Path) -> None:
    """datatrove's WarcReader -> Htmltok -> JsonlWriter: the main text of each record as
    htmltok reads it from the string datatrove decoded."""
    need("warcio", "the datatrove WarcReader pipeline test")
    need("cchardet", "the datatrove WarcReader pipeline test")
    need("magic", "the datatrove WarcReader pipeline test")
    from datatrove.pipeline.readers import WarcReader as DatatroveWarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from htmltok.datatrove import Htmltok

    out = tmp_path / "out"
    stats = run([DatatroveWarcReader(str(warcs), glob_pattern="*.warc.gz"), Htmltok(),
                 JsonlWriter(str(out), compression=None)], tmp_path, "extractor")
    docs = read_jsonl(out)
    pages = process_pages(warcs)
    assert {d["id"] for d in docs} == set(pages)
    for doc in docs:
        page = pages[doc["id"]]
        if page["encoding"] == "UTF-8":  # datatrove's guess and the browser's agree
            assert doc["text"] == page["main_text"], doc["metadata"]["url"]
        assert doc["text"]
    extractor = counts(next(s for name, s in stats.items() if "htmltok" in name))
    assert extractor["total"] == extractor["extracted"] == extractor["forwarded"] == len(docs)
