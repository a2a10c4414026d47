"""htmltok.ray.extract: the extraction columns of an Arrow batch of HTML, equal to what
htmltok.process gives for the same pages, under Ray Data and Spark's mapInArrow.

The function itself needs pyarrow only. The Ray test needs ray (`ray[data]`), the Spark
test pyspark and Java; scripts/test-python.sh installs them. Without them those tests say
NOT RUN, or fail under CI/HTMLTOK_REQUIRE_DATA."""

import functools
import os
import pickle
import sys
import threading
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import htmltok
from conftest import BUNDLED, missing
from warcs import write_warc

CHARSETS = {"legacy-shift_jis.html": "Shift_JIS", "legacy-windows-1251.html": "windows-1251"}
FIELDS = {"h1": "h1::text", "hrefs": "a[href]::attr(href)"}
TREE: Dict[str, Any] = dict(main_text=True, main_markdown=True, metadata=True)


def need(module: str, what: str) -> Any:
    try:
        return __import__(module)
    except ImportError as err:
        missing(what, f"{module} is not importable ({err}); scripts/test-python.sh installs it")


@pytest.fixture(scope="module")
def pa() -> Any:
    return need("pyarrow", "the htmltok.ray tests")


@pytest.fixture(scope="module")
def ray_extract(pa: Any) -> Any:
    import htmltok.ray

    return htmltok.ray.extract


def bundled_rows() -> List[Tuple[str, bytes, Optional[str]]]:
    pages = sorted(BUNDLED.glob("*.html"))
    return [(f"https://corpus.example.org/{p.name}", p.read_bytes(), CHARSETS.get(p.name)) for p in pages]


@pytest.fixture(scope="module")
def batch(pa: Any) -> Any:
    rows = bundled_rows()
    return pa.record_batch({
        "url": [u for u, _, _ in rows],
        "html": pa.array([h for _, h, _ in rows], pa.binary()),
        "charset": [c for _, _, c in rows],
    })


@pytest.fixture(scope="module")
def process_pages(tmp_path_factory: pytest.TempPathFactory, pa: Any) -> Tuple[Dict[str, Any], Any]:
    """The bundled pages as WARC records (their charset in the HTTP Content-Type), read by
    process(output="pyarrow") with every column: by URL."""
    folder = tmp_path_factory.mktemp("ray-warc")
    records = [(u, h, f"text/html; charset={c}" if c else "text/html") for u, h, c in bundled_rows()]
    write_warc(folder / "pages.warc.gz", records)
    table = pa.Table.from_batches(list(htmltok.process(folder / "pages.warc.gz", output="pyarrow", links=True,
                                                       text=True, fields=FIELDS, **TREE)))
    return {row["url"]: row for row in table.to_pylist()}, table.schema


def test_columns_equal_process(ray_extract: Any, batch: Any, process_pages: Any, pa: Any) -> None:
    pages, schema = process_pages
    out = ray_extract(batch, encoding=True, links=True, text=True, fields=FIELDS, **TREE)
    assert isinstance(out, pa.RecordBatch)
    added = ["title", "encoding", "encoding_rule", "links", "text", "h1", "hrefs",
             *htmltok.MAIN_TEXT_COLUMNS, "main_markdown", *htmltok.METADATA_COLUMNS]
    assert out.schema.names == batch.schema.names + added
    rows = out.to_pylist()
    assert [r["url"] for r in rows] == batch.column("url").to_pylist(), "rows in order"
    for row in rows:
        page = pages[row["url"]]
        for name in added:
            assert row[name] == page[name], (row["url"], name)
    for name in added:
        assert out.schema.field(name).type == schema.field(name).type, name


def test_defaults_title_and_main_text(ray_extract: Any, batch: Any, process_pages: Any) -> None:
    out = ray_extract(batch)
    assert out.schema.names == batch.schema.names + ["title", *htmltok.MAIN_TEXT_COLUMNS]
    for row in out.to_pylist():
        page = process_pages[0][row["url"]]
        assert (row["title"], row["main_text"], row["main_kind"], row["main_confidence"]) == (
            page["title"], page["main_text"], page["main_kind"], page["main_confidence"])


def test_table_in_table_out_chunks_and_slices(ray_extract: Any, batch: Any, pa: Any) -> None:
    whole = ray_extract(batch).to_pylist()
    table = pa.Table.from_batches([batch.slice(0, 3), batch.slice(3, 2), batch.slice(5)])
    out = ray_extract(table)
    assert isinstance(out, pa.Table)
    assert out.to_pylist() == whole
    assert ray_extract(batch.slice(2, 4)).to_pylist() == whole[2:6]
    empty = ray_extract(batch.slice(0, 0))
    assert empty.num_rows == 0 and empty.schema.names[-1] == "main_confidence"
    meta = batch.replace_schema_metadata({"origin": "test"})
    assert ray_extract(meta).schema.metadata == {b"origin": b"test"}


def test_string_column_is_utf8_already(ray_extract: Any, pa: Any) -> None:
    """A string column's rows are decoded text: the declared <meta charset> does not
    decode them again; the result equals that of the bytes with their charset."""
    page = (BUNDLED / "legacy-windows-1251.html").read_bytes()
    text = page.decode("cp1251")
    as_bytes = ray_extract(pa.record_batch({"html": [page], "charset": ["windows-1251"]}), encoding=True)
    as_str = ray_extract(pa.record_batch({"html": pa.array([text], pa.large_string())}), encoding=True)
    got_bytes, got_str = as_bytes.to_pylist()[0], as_str.to_pylist()[0]
    assert got_bytes["encoding"] == "windows-1251"
    assert (got_str["encoding"], got_str["encoding_rule"]) == ("UTF-8", "transport")
    assert got_str["main_text"] == got_bytes["main_text"] and got_str["main_text"]
    assert got_str["title"] == got_bytes["title"]


def test_charset_and_url_columns(ray_extract: Any, pa: Any) -> None:
    html = "<title>Caf\u00e9</title><p>Un caf\u00e9 <a href=menu.html>au menu</a>".encode("cp1252")
    batch = pa.record_batch({
        "html": [html, html],
        "charset": ["windows-1252", None],
        "url": ["https://example.org/a/", None],
    })
    rows = ray_extract(batch, links=True, encoding=True, base="https://base.example/", main_markdown=True).to_pylist()
    assert rows[0]["title"] == "Caf\u00e9" and rows[0]["encoding_rule"] == "transport"
    assert rows[0]["links"] == ["https://example.org/a/menu.html"]
    assert "(https://example.org/a/menu.html)" in rows[0]["main_markdown"]
    assert rows[1]["links"] == ["https://base.example/menu.html"], "no URL: the base"
    other = ray_extract(batch.rename_columns(["page", "cs", "where"]), html="page", charset="cs", url="where",
                        links=True, base="https://base.example/")
    assert other.column("links").to_pylist() == [r["links"] for r in rows]


def test_rows_without_a_document(ray_extract: Any, pa: Any) -> None:
    warc = (BUNDLED / "sample.warc.gz").read_bytes()
    batch = pa.record_batch({"html": pa.array([b"<title>ok</title><p>fine", None, warc,
                                               b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR", b""], pa.binary())})
    out = ray_extract(batch, errors=True, links=True, text=True, metadata=True)
    rows = out.to_pylist()
    assert [r["extract_error"] for r in rows] == [None, "null-html", "archive", "not-html-file", None]
    assert rows[0]["title"] == "ok"
    for row in rows[1:4]:
        assert all(row[name] is None for name in out.schema.names if name not in ("html", "extract_error")), row
    assert rows[4]["main_text"] == "" and rows[4]["title"] is None
    import pyarrow.compute as pc

    counts = {c["values"]: c["counts"] for c in pc.value_counts(out.column("extract_error")).to_pylist()}
    assert counts == {None: 2, "null-html": 1, "archive": 1, "not-html-file": 1}
    nulls = ray_extract(pa.table({"html": pa.array([None, None])}), errors=True)
    assert nulls.column("extract_error").to_pylist() == ["null-html", "null-html"]


def test_bad_input(ray_extract: Any, batch: Any, pa: Any) -> None:
    with pytest.raises(ValueError, match="column 'title' already"):
        ray_extract(ray_extract(batch))
    with pytest.raises(ValueError, match="no column 'page'"):
        ray_extract(batch, html="page")
    with pytest.raises(TypeError, match="RecordBatch or pyarrow.Table"):
        ray_extract({"html": [b"<p>x"]})
    with pytest.raises(TypeError, match="binary or string"):
        ray_extract(pa.record_batch({"html": [1, 2]}))
    with pytest.raises(ValueError):
        ray_extract(batch, fields={"x": "a[["})
    with pytest.raises(ValueError, match="main-text columns"):
        ray_extract(batch, fields={"main_text": "p"})
    with pytest.raises(ValueError, match="page's columns"):
        ray_extract(batch, fields={"title": "h1"})
    with pytest.raises(ValueError, match="errors column"):
        ray_extract(batch, fields={"extract_error": "h1"}, errors=True)
    with pytest.raises(ValueError, match="no column asked for"):
        ray_extract(batch, title=False, main_text=False)


def test_the_native_function_takes_lists() -> None:
    """extract_batch also takes a plain list of bytes, str and None."""
    from htmltok import _htmltok

    pa = need("pyarrow", "the htmltok.ray tests")
    out = pa.record_batch(_htmltok.extract_batch([b"<title>a</title>", "<title>b</title>", None],
                                                 errors=True, main_text=False))
    assert out.to_pydict() == {"title": ["a", "b", None], "extract_error": [None, None, "null-html"]}


def test_pickles_and_partials(ray_extract: Any, batch: Any) -> None:
    chosen = functools.partial(ray_extract, main_text=False, main_markdown=True)
    again = pickle.loads(pickle.dumps(chosen))
    assert again(batch).to_pylist() == chosen(batch).to_pylist()
    assert again(batch).schema.names[-2:] == ["title", "main_markdown"]
    assert pickle.loads(pickle.dumps(ray_extract)) is ray_extract


def test_the_gil_is_released(ray_extract: Any, batch: Any, pa: Any) -> None:
    """Another Python thread runs while a batch is extracted."""
    big = pa.concat_tables([pa.Table.from_batches([batch])] * 40)
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0)

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    before = ticks
    started = time.perf_counter()
    ray_extract(big, metadata=True)
    took = time.perf_counter() - started
    during = ticks - before
    done.set()
    counter.join()
    assert took > 0.05, "the batch is too small to tell"
    assert during > 1000, f"the counting thread ran {during} times in {took:.2f} s"


def test_ray_data_map_batches(ray_extract: Any, batch: Any, pa: Any) -> None:
    ray = need("ray", "the Ray Data test")
    need("ray.data", "the Ray Data test")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             ignore_reinit_error=True)
    try:
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        ds = ray.data.from_arrow(pa.Table.from_batches([batch])).repartition(3)
        got = ds.map_batches(ray_extract, batch_format="pyarrow", batch_size=4).take_all()
        want = ray_extract(batch).to_pylist()
        key = lambda row: row["url"]  # noqa: E731
        assert sorted(got, key=key) == sorted(want, key=key)
        chosen = functools.partial(ray_extract, main_text=False, main_markdown=True, errors=True)
        got = ds.map_batches(chosen, batch_format="pyarrow").take_all()
        assert sorted(got, key=key) == sorted(chosen(batch).to_pylist(), key=key)
        assert set(got[0]) == set(batch.schema.names) | {"title", "main_markdown", "extract_error"}
    finally:
        ray.shutdown()


def test_spark_map_in_arrow(ray_extract: Any, batch: Any, pa: Any) -> None:
    """The example of htmltok.spark's documentation: a DataFrame of HTML through
    mapInArrow with the same function."""
    need("pyspark", "the Spark mapInArrow test")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("htmltok-ray-tests")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        from pyspark.sql.types import FloatType, StringType, StructField, StructType
        import htmltok.ray

        df = spark.createDataFrame(batch.to_pandas())

        # As htmltok.spark's documentation writes it.
        def extract(batches: Iterator[Any]) -> Iterator[Any]:
            for batch in batches:
                yield htmltok.ray.extract(batch)

        added = [StructField(name, StringType()) for name in ("title", "main_text", "main_kind")]
        added.append(StructField("main_confidence", FloatType()))
        out = df.mapInArrow(extract, StructType(df.schema.fields + added))
        got = {row["url"]: row.asDict() for row in out.collect()}
        want = ray_extract(batch).to_pylist()
        assert len(got) == len(want)
        for row in want:
            g = got[row["url"]]
            assert (g["title"], g["main_text"], g["main_kind"]) == (row["title"], row["main_text"], row["main_kind"])
            assert g["main_confidence"] == pytest.approx(row["main_confidence"])
    finally:
        spark.stop()


def test_other_column_types(ray_extract: Any, pa: Any) -> None:
    """Dictionary-encoded and view columns, and a charset column of another string type."""
    html = [b"<title>a</title>", b"<title>b</title>", b"<title>a</title>"]
    want = ["a", "b", "a"]
    dictionary = pa.record_batch({"html": pa.array([h.decode() for h in html]).dictionary_encode()})
    assert ray_extract(dictionary, main_text=False).column("title").to_pylist() == want
    if hasattr(pa, "binary_view"):
        view = pa.record_batch({"html": pa.array(html, pa.binary_view())})
        assert ray_extract(view, main_text=False).column("title").to_pylist() == want
    charset = pa.record_batch({"html": pa.array(["<title>\u00e9</title>".encode("cp1252")]),
                               "charset": pa.array(["windows-1252"], pa.large_string()).dictionary_encode()})
    assert ray_extract(charset, main_text=False).column("title").to_pylist() == ["\u00e9"]
