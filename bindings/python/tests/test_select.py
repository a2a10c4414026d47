"""htmltok.extract and htmltok.Fields: named CSS selectors over the tree, one walk."""

import threading

import pytest

import htmltok
import htmltok.spark

PAGE = (
    b"<!DOCTYPE html><html lang=en><head><title> Tides </title>"
    b"<meta name=ROBOTS content=noindex><link rel=canonical href=https://e.org/t>"
    b"<meta property=og:title content='Tide tables'></head>"
    b"<body><h1>High <b>water</b></h1><a href=/a>A</a><a>B</a><img src=x.png>"
    b"<svg><a xlink:href=/s></a></svg></body></html>"
)

FIELDS = {
    "title": "title::text",
    "robots": "meta[name=robots i]::attr(content)",
    "canonical": "link[rel=canonical]::attr(href)",
    "og_title": 'meta[property="og:title"]::attr(content)',
    "h1": "h1::text",
    "links": "a[href]::attr(href)",
    "images": "img[src]::attr(src)",
    "lang": "html[lang]::attr(lang)",
    "bold": "h1 > b",
}


def test_extract_columns():
    got = htmltok.extract(PAGE, FIELDS)
    assert list(got) == list(FIELDS)
    assert got["title"] == [" Tides "]
    assert got["robots"] == ["noindex"]
    assert got["canonical"] == ["https://e.org/t"]
    assert got["og_title"] == ["Tide tables"]
    # ::text is the element's own text nodes: the <b>'s text is not the h1's.
    assert got["h1"] == ["High "]
    # The SVG a's href is in the XLink namespace.
    assert got["links"] == ["/a"]
    assert got["images"] == ["x.png"]
    assert got["lang"] == ["en"]
    assert got["bold"] == ["<b>water</b>"]


def test_fields_compiled_once_and_str_input():
    fields = htmltok.Fields(FIELDS)
    assert fields.names == list(FIELDS)
    assert len(fields) == len(FIELDS)
    assert htmltok.extract(PAGE, fields) == htmltok.extract(PAGE, FIELDS)
    assert htmltok.extract(PAGE.decode(), fields) == htmltok.extract(PAGE, fields)
    assert htmltok.extract(bytearray(PAGE), fields)["title"] == [" Tides "]


def test_decoding_like_document():
    data = "<meta charset=windows-1251><title>Привет</title>".encode("windows-1251")
    assert htmltok.extract(data, {"t": "title::text"}) == {"t": ["Привет"]}


def test_bad_selectors_raise_before_reading():
    with pytest.raises(ValueError, match=r"offset 2.*ends too soon"):
        htmltok.extract(b"", {"x": "a["})
    with pytest.raises(ValueError, match=r"field \"y\""):
        htmltok.Fields({"x": "a", "y": "a:nope"})
    with pytest.raises(TypeError, match="dict"):
        htmltok.extract(PAGE, ["a"])
    with pytest.raises(TypeError):
        htmltok.extract(PAGE, {"x": 1})


def test_threads_share_fields():
    fields = htmltok.Fields(FIELDS)
    results = []

    def work():
        results.append(htmltok.extract(PAGE * 50, fields)["links"])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [["/a"] * 50] * 4


def test_process_and_arrow_give_the_same_field_columns(tmp_path):
    (tmp_path / "a.html").write_bytes(PAGE)
    (tmp_path / "b.html").write_bytes(b"<title>B</title><a href=/b1></a><a href=/b2></a>")
    fields = {"heading": "h1::text", "hrefs": "a[href]::attr(href)"}
    pages = sorted(htmltok.process([str(tmp_path)], threads=1, fields=fields),
                   key=lambda p: p["warc_filename"])
    assert [p["hrefs"] for p in pages] == [["/a"], ["/b1", "/b2"]]
    assert [p["heading"] for p in pages] == [["High "], []]
    for page in pages:
        data = open(page["warc_filename"], "rb").read()
        assert {k: page[k] for k in fields} == htmltok.extract(data, fields)
    pa = pytest.importorskip("pyarrow")
    table = pa.Table.from_batches(list(htmltok.process_arrow([str(tmp_path)], threads=1,
                                                             fields=htmltok.Fields(fields))))
    assert table.column_names == htmltok.spark.COLUMNS + list(fields)
    rows = sorted(table.to_pylist(), key=lambda r: r["warc_filename"])
    assert [r["hrefs"] for r in rows] == [p["hrefs"] for p in pages]
    assert [r["heading"] for r in rows] == [p["heading"] for p in pages]


def test_process_refuses_bad_fields_before_running(tmp_path):
    (tmp_path / "a.html").write_bytes(PAGE)
    with pytest.raises(ValueError, match="one of the page's columns"):
        htmltok.process([str(tmp_path)], fields={"title": "title::text"})
    with pytest.raises(ValueError, match="invalid selector"):
        htmltok.process_arrow([str(tmp_path)], fields={"x": "a[["})


def test_spark_schema_has_the_fields():
    from htmltok import spark

    assert spark.schema({"h1": "h1::text"}) == spark.SCHEMA + ", `h1` array<string>"
    assert spark.schema() == spark.SCHEMA
