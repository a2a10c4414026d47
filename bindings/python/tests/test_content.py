"""Page content on the tree (htmltok-content, issue #27): main_text, article, metadata,
visible_text on crafted pages, Document's delegating methods, the GIL released, and the
main text equal to the Rust example program's on shared-corpus pages."""

import json
import os
import subprocess
import threading
from pathlib import Path
from typing import List

import pytest

import htmltok
from conftest import ROOT, shared_corpus_sample, some

ARTICLE = (
    b"<html lang=en><head><title>Council keeps library</title>"
    b"<meta name=author content='A. Writer'>"
    b"<meta property='article:published_time' content='2026-11-25'></head><body>"
    b"<nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About</a></nav>"
    b"<div class=story><p>The council met on Monday, and after a long debate, it voted "
    b"to keep the library open.</p><p>Residents, who had petitioned for months, "
    b"welcomed the decision.</p></div>"
    b"<footer>Copyright, all rights reserved</footer></body></html>"
)


def test_main_text_is_the_article() -> None:
    tree = htmltok.parse(ARTICLE)
    text = tree.main_text()
    assert text == (
        "The council met on Monday, and after a long debate, it voted to keep the "
        "library open.\n\nResidents, who had petitioned for months, welcomed the decision."
    )
    assert "Home" not in text and "Copyright" not in text


def test_article_fields() -> None:
    article = htmltok.parse(ARTICLE).article()
    assert article["text"] == htmltok.parse(ARTICLE).main_text()
    assert article["title"] == "Council keeps library"
    assert article["byline"] == "A. Writer"
    assert article["date"] == "2026-11-25"
    assert article["kind"] == "article"
    assert isinstance(article["confidence"], float) and 0.0 <= article["confidence"] <= 1.0
    empty = htmltok.parse(b"").article()
    assert empty == {"text": "", "title": None, "byline": None, "date": None, "kind": "other",
                     "confidence": empty["confidence"]}


def test_article_kind_from_json_ld() -> None:
    """The page's kind reads JSON-LD types (in @graph arrays too) and Open Graph."""
    product = (b"<script type=application/ld+json>{\"@graph\": [{\"@type\": \"WebSite\"}, "
               b"{\"@type\": [\"Product\"]}]}</script><h1>Kettle</h1><p>A kettle, 1.7 l.</p>")
    assert htmltok.parse(product).article()["kind"] == "product"
    broken = b"<script type=application/ld+json>{\"@type\": </script>" + ARTICLE
    assert htmltok.parse(broken).article()["kind"] == htmltok.parse(ARTICLE).article()["kind"]


def test_document_delegates() -> None:
    doc = htmltok.Document(ARTICLE, url="https://example.org/a/b")
    assert doc.main_text() == doc.tree().main_text()
    assert doc.metadata() == doc.tree().metadata()
    assert doc.metadata(url="https://other.example/") == doc.tree().metadata("https://other.example/")


META = (
    b"<html lang=de-AT><head><base href='/base/'>"
    b"<link rel=canonical href='c?x=1&amp;y=2'>"
    b"<meta name=robots content='NOINDEX, max-snippet: 20, max-image-preview:large, frobnicate'>"
    b"<meta name=googlebot content=none>"
    b"<meta name=description content='  A page.  '>"
    b"<meta property=og:title content=Hallo><meta property=og:image content=1.png>"
    b"<meta property=og:image content=2.png><meta name=twitter:card content=summary>"
    b"<meta http-equiv=refresh content='5; url=next.html'>"
    b"<link rel=alternate hreflang=fr href=/fr>"
    b"<script type='application/ld+json'>{\"@type\": \"Article\"}</script></head>"
    b"<body><a href=/ad rel='sponsored nofollow'>ad</a><a href=/ok>ok</a>"
    b"<area href=/c rel=ugc></body></html>"
)


def test_metadata_fields() -> None:
    m = htmltok.parse(META).metadata(url="https://example.org/dir/page")
    assert m["base_url"] == "https://example.org/base/"
    assert m["canonical"] == {"raw": "c?x=1&y=2", "url": "https://example.org/base/c?x=1&y=2"}
    r = m["robots"]
    assert r["present"] and r["noindex"] and not r["nofollow"]
    assert r["max_snippet"] == 20 and r["max_image_preview"] == "large"
    assert r["other"] == ["frobnicate"]
    assert m["googlebot"]["noindex"] and m["googlebot"]["nofollow"]
    assert m["description"] == "A page."
    assert m["open_graph"] == [("og:title", "Hallo"), ("og:image", "1.png"), ("og:image", "2.png")]
    assert m["twitter"] == [("twitter:card", "summary")]
    assert m["lang"] == "de-AT" and m["language"] == "de-AT" and m["content_language"] is None
    assert m["alternates"] == [{"raw": "/fr", "url": "https://example.org/fr", "hreflang": "fr"}]
    assert m["refresh"] == {"delay": 5, "raw": "next.html", "url": "https://example.org/base/next.html"}
    assert [json.loads(j) for j in m["json_ld"]] == [{"@type": "Article"}]
    links = m["qualified_links"]
    assert [(l["element"], l["url"], l["nofollow"], l["ugc"], l["sponsored"]) for l in links] == [
        ("a", "https://example.org/ad", True, False, True),
        ("area", "https://example.org/c", False, True, False),
    ]
    assert META[links[0]["offset"]:].startswith(b"<a href=/ad")


def test_metadata_url_default_and_errors() -> None:
    tree = htmltok.Document(META, url="https://example.org/dir/page").tree()
    assert some(tree.metadata()["canonical"])["url"] == "https://example.org/base/c?x=1&y=2"
    # Without a URL a relative reference does not resolve.
    assert htmltok.parse(b"<link rel=canonical href=/c>").metadata()["canonical"] == {"raw": "/c", "url": None}
    with pytest.raises(ValueError, match="not an absolute URL"):
        tree.metadata(url="relative/path")


def test_visible_text() -> None:
    page = (
        b"<h1>Title</h1><p>One<br>two</p><pre>  a\n   b</pre>"
        b"<table><tr><td>x<td>y<tr><td>z</table>"
        b"<p hidden>secret</p><p aria-hidden=true>aria</p><p style='display: none'>css</p>"
        b"<template>tpl</template><noscript>enable js</noscript>"
    )
    tree = htmltok.parse(page)
    text = tree.visible_text()
    assert "One\ntwo" in text
    assert "  a\n   b" in text
    assert "x\ty\nz" in text
    for hidden in ("secret", "aria", "css", "tpl", "enable js"):
        assert hidden not in text
    assert "enable js" in tree.visible_text(noscript=True)


def test_main_text_releases_the_gil() -> None:
    page = b"<div><p>" + b"Words, more words and commas. " * 200_000 + b"</p></div>"
    tree = htmltok.parse(page)
    ticks: List[int] = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    before = len(ticks)
    text = tree.main_text()
    during = len(ticks) - before
    stop.set()
    t.join()
    assert text.startswith("Words, more words")
    assert during > 0


def test_deep_page() -> None:
    page = b"<div>" * 1_000_000 + b"<p>deep, deep text</p>"
    tree = htmltok.parse(page)
    assert tree.main_text() == "deep, deep text"
    assert "deep, deep text" in tree.visible_text()


def test_main_text_equals_the_rust_example_on_corpus_pages() -> None:
    """The same Rust code: Python's main text is the `main_text` example program's on
    UTF-8 pages of the shared corpus (the program reads bytes as UTF-8)."""
    pages = [p for p in shared_corpus_sample(step=12) if htmltok.Document(p.read_bytes()).encoding == "UTF-8"][:6]
    assert pages, "no UTF-8 pages in the sample"
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "htmltok-content", "--example", "main_text"],
        cwd=ROOT, check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    out = subprocess.run(
        [str(target / "release" / "examples" / "main_text"), *map(str, pages)],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout
    rust = [json.loads(line) for line in out.decode().splitlines()]
    assert len(rust) == len(pages)
    for page, expected in zip(pages, rust):
        article = htmltok.parse(page.read_bytes()).article()
        assert article["text"] == expected["text"], page
        assert article["title"] == expected["title"], page
        assert expected["text"], page


def test_process_main_text_column(tmp_path: Path) -> None:
    """process(main_text=True) adds the page's main text (Tree.main_text()'s), its kind
    and confidence (Tree.article()'s); the Arrow batches the MAIN_TEXT_COLUMNS (strings
    and a float32); without it, none of them."""
    page = tmp_path / "article.html"
    page.write_bytes(ARTICLE)
    assert htmltok.MAIN_TEXT_COLUMNS == ["main_text", "main_kind", "main_confidence"]
    (row,) = list(htmltok.process([str(page)], main_text=True))
    article = htmltok.parse(ARTICLE).article()
    assert row["main_text"] == htmltok.parse(ARTICLE).main_text()
    assert row["main_kind"] == article["kind"]
    assert row["main_confidence"] == article["confidence"]
    (plain,) = list(htmltok.process([str(page)]))
    assert not set(htmltok.MAIN_TEXT_COLUMNS) & set(plain)
    pytest.importorskip("pyarrow")
    (batch,) = list(htmltok.process([str(page)], output="pyarrow", main_text=True))
    assert batch.schema.names[-3:] == htmltok.MAIN_TEXT_COLUMNS
    assert batch.schema.field("main_text").type == "string"
    assert batch.schema.field("main_kind").type == "string"
    assert batch.schema.field("main_confidence").type == "float"
    for name in htmltok.MAIN_TEXT_COLUMNS:
        assert batch.column(name).to_pylist() == [dict(row)[name]]
    (batch,) = list(htmltok.process([str(page)], output="pyarrow"))
    assert not set(htmltok.MAIN_TEXT_COLUMNS) & set(batch.schema.names)
    for name in htmltok.MAIN_TEXT_COLUMNS:
        with pytest.raises(ValueError, match="main-text columns"):
            htmltok.process([str(page)], main_text=True, fields={name: "p"})


META_PAGE = (
    b"<html lang=de-AT><head><base href='/b/'><title>Meta</title>"
    b"<link rel=canonical href='c.html'>"
    b"<meta name=robots content='noindex, max-snippet:20, max-image-preview:large, odd'>"
    b"<meta name=description content=' A page '>"
    b"<meta property=og:image content=1><meta property=og:image content=2>"
    b"<meta name=twitter:card content=summary>"
    b"<meta http-equiv=content-language content=fr>"
    b"<meta http-equiv=refresh content=\"7;URL='next'\">"
    b"<link rel=alternate hreflang=en href='/en/'>"
    b"<script type='application/ld+json'>{\"@type\":\"Thing\"}</script></head>"
    b"<body><a href=/ad rel=sponsored>ad</a><p>text</p></body></html>"
)


def test_process_metadata_columns(tmp_path: Path) -> None:
    """process(metadata=True) adds the metadata columns (METADATA_COLUMNS), from the same
    Rust metadata as Tree.metadata(), URLs resolved against `base`; the Arrow output the
    same values as typed columns; without it, none; a field may not take their names."""
    page = tmp_path / "meta.html"
    page.write_bytes(META_PAGE)
    base = "https://example.org/dir/page.html"
    (row,) = list(htmltok.process([str(page)], base=base, metadata=True))
    got = {name: dict(row)[name] for name in htmltok.METADATA_COLUMNS}
    m = htmltok.parse(META_PAGE).metadata(base)
    robots = {k: v for k, v in m["robots"].items() if k != "present"}
    assert got == {
        "canonical": "https://example.org/b/c.html",
        "robots": robots,
        "googlebot": None,
        "description": "A page",
        "open_graph": [{"name": "og:image", "content": "1"}, {"name": "og:image", "content": "2"}],
        "twitter": [{"name": "twitter:card", "content": "summary"}],
        "lang": "de-AT",
        "content_language": "fr",
        "hreflang": [{"hreflang": "en", "url": "https://example.org/en/"}],
        "refresh": {"delay": 7, "url": "https://example.org/b/next"},
        "json_ld": ['{"@type":"Thing"}'],
        "qualified_links": [{"url": "https://example.org/ad", "nofollow": False, "ugc": False,
                             "sponsored": True}],
    }
    assert robots["noindex"] and robots["max_snippet"] == 20 and robots["other"] == ["odd"]
    assert m["canonical"] is not None and got["canonical"] == m["canonical"]["url"]
    (plain,) = list(htmltok.process([str(page)]))
    assert not set(htmltok.METADATA_COLUMNS) & set(plain)
    with pytest.raises(ValueError, match="metadata columns"):
        htmltok.process([str(page)], metadata=True, fields={"description": "p"})
    pytest.importorskip("pyarrow")
    (batch,) = list(htmltok.process([str(page)], output="pyarrow", base=base, metadata=True, main_text=True))
    names = batch.schema.names
    assert names[-len(htmltok.METADATA_COLUMNS):] == htmltok.METADATA_COLUMNS
    assert names[-len(htmltok.METADATA_COLUMNS) - 1] == "main_confidence"
    assert str(batch.schema.field("robots").type).startswith("struct<noindex: bool")
    assert {name: batch.column(name).to_pylist()[0] for name in htmltok.METADATA_COLUMNS} == got
