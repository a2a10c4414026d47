"""htmltok.Document against `htmltok links`, `htmltok text` and `htmltok stats`."""

from pathlib import Path
from typing import Any, Dict, List

import pytest

import htmltok
from conftest import cli_json_lines, shared_corpus_sample

BASE = "https://example.org/dir/page.html"


def cli_links(path: Path, *options: str) -> List[Dict[str, Any]]:
    return [{k: v for k, v in line.items() if k != "document"}
            for line in cli_json_lines("links", "--json", "-j", "1", *options, path)]


def cli_text(path: Path) -> Dict[str, Any]:
    (line,) = cli_json_lines("text", "-j", "1", path)
    return dict(line)


def compare(path: Path) -> htmltok.Document:
    doc = htmltok.Document(path.read_bytes())
    assert doc.links() == cli_links(path), path
    assert doc.links(base=BASE) == cli_links(path, "--base", BASE), path
    assert doc.links(data_urls=True) == cli_links(path, "--data-urls"), path
    want = cli_text(path)
    assert doc.text() == want["text"], path
    assert doc.title == want["title"], path
    return doc


def test_bundled_pages_equal_the_cli(bundled: List[Path]) -> None:
    links = 0
    for path in bundled:
        links += len(compare(path).links())
    assert links > 100


def test_shared_corpus_sample_equals_the_cli() -> None:
    for path in shared_corpus_sample(step=12):
        compare(path)


def test_stats_equal_the_cli(bundled: List[Path]) -> None:
    for path in bundled:
        (want,) = cli_json_lines("stats", "--json", "--errors", "-j", "1", path)
        got = htmltok.Document(path.read_bytes()).stats(errors=True)
        assert got["tokens"] == want["tokens"], path
        assert list(got["tags"].items())[:20] == [tuple(x) for x in want["top_tags"]], path
        assert got["errors"] == want["errors"], path
        assert got["encodings"] == want["encodings"], path
    assert htmltok.Document(b"<p>").stats()["errors"] is None


def test_encodings(bundled: List[Path]) -> None:
    by_name = {p.name: p.read_bytes() for p in bundled}
    doc = htmltok.Document(by_name["legacy-shift_jis.html"])
    assert (doc.encoding, doc.encoding_rule) == ("Shift_JIS", "meta")
    doc = htmltok.Document(by_name["legacy-windows-1251.html"])
    assert doc.encoding == "windows-1251"
    doc = htmltok.Document("Привет".encode("koi8-r"), http_charset="koi8-r")
    assert (doc.encoding, doc.encoding_rule, doc.text()) == ("KOI8-R", "transport", "Привет")
    doc = htmltok.Document(b"\xef\xbb\xbf<p>x")
    assert (doc.encoding, doc.encoding_rule, doc.html_bytes) == ("UTF-8", "bom", b"<p>x")
    assert htmltok.Document(b"<p>caf\xc3\xa9").html_text == "<p>café"
    # tokens of the decoded page
    tokens = htmltok.Document("<p title=é>".encode("latin-1"), http_charset="latin1").tokenize()
    assert tokens[0].attrs == [("title", "é")]


def test_url_and_base() -> None:
    html = b"<base href='sub/'><a href='x?q=\xe9'>x</a>"
    doc = htmltok.Document(html, http_charset="windows-1252", url="https://example.org/a/")
    assert [l["url"] for l in doc.links()] == ["https://example.org/a/sub/x?q=%E9"]
    # the document's own URL wins over base=
    assert doc.links(base="https://other.example/") == doc.links()
    assert htmltok.Document(b"<a href=y>").links(base="https://other.example/d/")[0]["url"] == "https://other.example/d/y"
    with pytest.raises(ValueError):
        htmltok.Document(b"").links(base="not a url")


def test_bad_arguments(tmp_path: Path) -> None:
    for bad in ("<p>", 1, None):
        with pytest.raises(TypeError):
            htmltok.Document(bad)  # type: ignore[arg-type]
    assert htmltok.Document(bytearray(b"<title>t</title>")).title == "t"
    assert htmltok.Document(memoryview(b"<title>t</title>")).title == "t"
    assert htmltok.Document(b"").title is None
    assert htmltok.Document(b"\xff\xfe\x00garbage\xff").text() is not None


def test_links_elements_and_urls_options() -> None:
    html = b"<a href=/x>x</a><img src=p.png><a href='https://e.org'>y</a><a href=data:,z>"
    doc = htmltok.Document(html, url="https://example.org/d/")
    every = doc.links()
    assert [l["url"] for l in every] == [
        "https://example.org/x", "https://example.org/d/p.png", "https://e.org/"]
    assert doc.links(urls=True) == [l["url"] for l in every]
    assert doc.links(elements=("a",), urls=True) == ["https://example.org/x", "https://e.org/"]
    assert doc.links(elements=["img"]) == [every[1]]
    assert doc.links(elements=["a"], urls=True, data_urls=True)[-1] == "data:,z"
    # url and raw are the same object when equal; keys and names are interned.
    same = htmltok.Document(b"<a href='https://e.org/'>", url=None).links()[0]
    assert same["url"] is same["raw"]
    assert every[0]["element"] is every[2]["element"]
