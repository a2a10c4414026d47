"""htmltok.extract and htmltok.Fields: named CSS selectors over the tree, one walk; and
Tree/Node.select (nodes) and getall/get (strings)."""

import threading
from pathlib import Path
from typing import Any, Dict, List, cast

import pytest

import htmltok
import htmltok.spark
from conftest import some

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


def test_extract_columns() -> None:
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


def test_fields_compiled_once_and_str_input() -> None:
    fields = htmltok.Fields(FIELDS)
    assert fields.names == list(FIELDS)
    assert len(fields) == len(FIELDS)
    assert htmltok.extract(PAGE, fields) == htmltok.extract(PAGE, FIELDS)
    assert htmltok.extract(PAGE.decode(), fields) == htmltok.extract(PAGE, fields)
    assert htmltok.extract(bytearray(PAGE), fields)["title"] == [" Tides "]


def test_decoding_like_document() -> None:
    data = "<meta charset=windows-1251><title>Привет</title>".encode("windows-1251")
    assert htmltok.extract(data, {"t": "title::text"}) == {"t": ["Привет"]}


def test_bad_selectors_raise_before_reading() -> None:
    with pytest.raises(ValueError, match=r"offset 2.*ends too soon"):
        htmltok.extract(b"", {"x": "a["})
    with pytest.raises(ValueError, match=r"field \"y\""):
        htmltok.Fields({"x": "a", "y": "a:nope"})
    with pytest.raises(TypeError, match="dict"):
        htmltok.extract(PAGE, ["a"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        htmltok.extract(PAGE, {"x": 1})  # type: ignore[dict-item]


def test_threads_share_fields() -> None:
    fields = htmltok.Fields(FIELDS)
    results = []

    def work() -> None:
        results.append(htmltok.extract(PAGE * 50, fields)["links"])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [["/a"] * 50] * 4


def test_process_and_arrow_give_the_same_field_columns(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(PAGE)
    (tmp_path / "b.html").write_bytes(b"<title>B</title><a href=/b1></a><a href=/b2></a>")
    fields = {"heading": "h1::text", "hrefs": "a[href]::attr(href)"}
    # The fields' keys are the caller's names: not in the Page TypedDict.
    pages = sorted((cast(Dict[str, Any], p) for p in htmltok.process([str(tmp_path)], threads=1, fields=fields)),
                   key=lambda p: str(p["warc_filename"]))
    assert [p["hrefs"] for p in pages] == [["/a"], ["/b1", "/b2"]]
    assert [p["heading"] for p in pages] == [["High "], []]
    for page in pages:
        data = open(page["warc_filename"], "rb").read()
        assert {k: page[k] for k in fields} == htmltok.extract(data, fields)
    pa = pytest.importorskip("pyarrow")
    table = pa.Table.from_batches(list(htmltok.process([str(tmp_path)], threads=1, output="pyarrow",
                                                       fields=htmltok.Fields(fields))))
    assert table.column_names == htmltok.spark.COLUMNS + list(fields)
    rows = sorted(table.to_pylist(), key=lambda r: r["warc_filename"])
    assert [r["hrefs"] for r in rows] == [p["hrefs"] for p in pages]
    assert [r["heading"] for r in rows] == [p["heading"] for p in pages]


def test_process_refuses_bad_fields_before_running(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(PAGE)
    with pytest.raises(ValueError, match="one of the page's columns"):
        htmltok.process([str(tmp_path)], fields={"title": "title::text"})
    with pytest.raises(ValueError, match="invalid selector"):
        htmltok.process([str(tmp_path)], fields={"x": "a[["})
    pytest.importorskip("pyarrow")
    with pytest.raises(ValueError, match="invalid selector"):
        htmltok.process([str(tmp_path)], output="pyarrow", fields={"x": "a[["})
    with pytest.raises(ValueError, match="invalid selector"):
        htmltok.ProcessOptions(fields={"x": "a[["})


def test_spark_schema_has_the_fields() -> None:
    from htmltok import spark

    assert spark.schema({"h1": "h1::text"}) == spark.SCHEMA + ", `h1` array<string>"
    assert spark.schema() == spark.SCHEMA


# Tree.select / Node.select / Selector.

SELECT_PAGE = (
    b"<!DOCTYPE html><html lang=en><head><title>T</title></head><body>"
    b"<div id=Main class='Box wide'>"
    b"<ul><li>one</li><li class=x>two <b>bold</b> tail</li><li>three</li></ul>"
    b"<p><a href=/a hreflang=EN>A</a> <a>no href</a> <a href=/c rel='nofollow ugc'>C</a></p>"
    b"<input type=CHECKBOX checked><input type=text>"
    b"</div>"
    b"<svg viewBox='0 0 1 1'><foreignObject><p>in svg</p></foreignObject><a xlink:href=/s></a></svg>"
    b"<template><a href=/in-template>T</a></template>"
    b"</body></html>"
)


@pytest.fixture
def tree() -> htmltok.Tree:
    return htmltok.parse(SELECT_PAGE)


def names(nodes: List[htmltok.Node]) -> List[Any]:
    return [n.name for n in nodes]


def test_select_gives_nodes_in_document_order(tree: htmltok.Tree) -> None:
    lis = tree.select("li")
    assert names(lis) == ["li", "li", "li"]
    assert [n.text() for n in lis] == ["one", "two bold tail", "three"]
    assert all(isinstance(n, htmltok.Node) for n in lis)
    # The nodes are the tree's own (same ids as a walk of the tree finds).
    walk = [n for n in tree.root.descendants() if n.name == "li"]
    assert lis == walk
    # The p inside the SVG's foreignObject is an HTML p too.
    assert names(tree.select("ul, p, title")) == ["title", "ul", "p", "p"]
    assert tree.select("article") == []
    assert tree.select_one("article") is None
    assert some(tree.select_one("li")).text() == "one"


def test_select_features(tree: htmltok.Tree) -> None:
    def hrefs(css: str) -> List[Any]:
        return [n.attr("href") for n in tree.select(css)]

    assert hrefs("a[href]") == ["/a", "/c"]
    assert hrefs("p > a:not([href])") == [None]
    assert hrefs("a[rel~=ugc]") == ["/c"]
    assert hrefs("a[href^='/'][href$=c]") == ["/c"]
    assert hrefs("a[hreflang|=en i]") == ["/a"]
    assert hrefs("a[hreflang=en s]") == []
    assert hrefs(":is(ul, p) a:first-child") == ["/a"]
    assert hrefs("a:nth-of-type(3)") == ["/c"]
    assert hrefs("div:has(> ul) a:last-child") == ["/c"]
    assert names(tree.select("li:nth-child(2n+1)")) == ["li", "li"]
    assert [n.text() for n in tree.select("li:nth-child(1 of .x)")] == ["two bold tail"]
    assert names(tree.select(":where(#Main) > :is(ul, p):has(b)")) == ["ul"]
    assert names(tree.select("input:checked")) == ["input"]
    assert names(tree.select("li + li ~ li")) == ["li"]
    assert names(tree.select(":root")) == ["html"]
    assert names(tree.select("b:only-child, title:empty")) == ["b"]


def test_select_case_rules() -> None:
    t = htmltok.parse(SELECT_PAGE)
    # HTML element names and attribute names are case-insensitive...
    assert names(t.select("LI")) == ["li"] * 3
    assert names(t.select("INPUT[TYPE]")) == ["input", "input"]
    # ...a type attribute's value too (HTML's list of such attributes), but not ids and
    # classes in no-quirks mode.
    assert names(t.select("input[type=checkbox]")) == ["input"]
    assert names(t.select("#main, .box")) == []
    assert names(t.select("#Main.Box")) == ["div"]
    # In quirks mode (no DOCTYPE) ids and classes match ASCII case-insensitively.
    q = htmltok.parse(SELECT_PAGE.replace(b"<!DOCTYPE html>", b""))
    assert q.quirks_mode == "quirks"
    assert names(q.select("#main.box")) == ["div"]
    # SVG names keep their case: foreignObject, viewBox.
    assert names(t.select("foreignObject")) == ["foreignObject"]
    # A type selector is lowercased for HTML elements only (as browsers match it).
    assert names(t.select("foreignobject")) == []
    assert names(t.select("svg[viewBox]")) == ["svg"]
    assert names(t.select("foreignObject > p")) == ["p"]


def test_select_namespaces(tree: htmltok.Tree) -> None:
    # The SVG a has xlink:href, not href.
    assert [n.namespace for n in tree.select("a")] == ["html"] * 3 + ["svg"]
    assert tree.select("svg a[href]") == []


def test_template_contents_not_searched(tree: htmltok.Tree) -> None:
    assert "/in-template" not in [n.attr("href") for n in tree.select("a")]
    contents = some(some(tree.select_one("template")).template_contents)
    assert [n.attr("href") for n in contents.select("a")] == ["/in-template"]


def test_select_on_nodes(tree: htmltok.Tree) -> None:
    div = some(tree.select_one("div"))
    assert names(div.select("li")) == ["li"] * 3
    # Matched against the whole tree: 'body li' matches below the div too.
    assert names(div.select("body li")) == ["li"] * 3
    assert names(div.select(":scope > ul")) == ["ul"]
    assert names(div.select(":scope > li")) == []
    # The node itself is not among its matches.
    assert div.select("div") == []
    li = div.select("li")[1]
    assert names(li.select("*")) == ["b"]
    assert some(li.select_one("b")).text() == "bold"
    assert li.select_one("i") is None
    # A text node has no descendants.
    assert some(tree.select_one("title")).children[0].select("*") == []


def test_getall_and_get_give_strings(tree: htmltok.Tree) -> None:
    # ::text: each matched element's own text nodes (parsel's answer).
    assert tree.getall("li::text") == ["one", "two ", " tail", "three"]
    assert tree.get("li.x::text") == "two "
    assert tree.get("h1::text") is None
    assert tree.get("h1::text", "none") == "none"
    # ::attr(name): the attribute's value, elements without it skipped.
    assert tree.getall("p a::attr(href)") == ["/a", "/c"]
    assert tree.get("a::attr(rel)") == "nofollow ugc"
    assert tree.getall("li::attr(class)") == ["x"]
    assert tree.getall("a::attr(HREF)") == ["/a", "/c"]
    assert tree.get("a::attr(nope)", default="") == ""
    div = some(tree.select_one("div"))
    assert div.getall("ul > li:last-child::text") == ["three"]
    assert div.get("li::text") == "one"
    assert some(div.select_one("ul")).get("b::text") == "bold"
    # Without a pseudo-element: each element's outer HTML (parsel's getall()).
    assert tree.getall("li.x > b") == ["<b>bold</b>"]
    assert tree.getall("li") == [n.html for n in tree.select("li")]
    assert tree.get("li") == '<li>one</li>'
    assert tree.get("article") is None and tree.getall("article") == []
    # The same strings as the one-walk extraction.
    assert tree.extract({"t": "li::text", "b": "li b"}) == {"t": tree.getall("li::text"), "b": tree.getall("li b")}


def test_select_of_strings_is_deprecated(tree: htmltok.Tree) -> None:
    """select()/select_one() with ::text or ::attr() give getall()/get()'s strings for
    one more release, with a DeprecationWarning."""
    with pytest.warns(DeprecationWarning, match=r"Tree\.select\('li::text'\).*getall"):
        old: Any = tree.select("li::text")
    assert old == tree.getall("li::text")
    with pytest.warns(DeprecationWarning, match=r"Tree\.select_one.*get\(\)"):
        old = tree.select_one("a::attr(href)")
    assert old == tree.get("a::attr(href)") == "/a"
    div = some(tree.select_one("div"))
    with pytest.warns(DeprecationWarning, match=r"Node\.select"):
        old = div.select(htmltok.Selector("li::text"))
    assert old == div.getall("li::text")
    with pytest.warns(DeprecationWarning, match=r"Node\.select_one"):
        old = div.select_one("h1::text")
    assert old is None


def test_compiled_selector_reused_across_trees(tree: htmltok.Tree) -> None:
    sel = htmltok.Selector("a[href]::attr(href)")
    assert sel.source == "a[href]::attr(href)"
    assert sel.gives == "attr"
    assert repr(sel) == "Selector('a[href]::attr(href)')" or "a[href]" in repr(sel)
    other = htmltok.parse(b"<a href=/x></a><a href=/y></a>")
    assert tree.getall(sel) == ["/a", "/c"]
    assert other.getall(sel) == ["/x", "/y"]
    assert other.get(sel) == "/x"
    assert tree.getall(sel) == tree.getall("a[href]::attr(href)")
    els = htmltok.Selector("li.x")
    assert els.gives == "elements"
    assert htmltok.Selector("p::text").gives == "text"
    assert some(tree.select_one("div")).select(els) == tree.select(els)
    assert els.matches(tree.select("li")[1])
    assert not els.matches(tree.select("li")[0])
    assert not els.matches(tree.root)


def test_str_selectors_kept_compiled_give_what_selector_gives(tree: htmltok.Tree) -> None:
    # A str selector is compiled once and kept among the last few: more of them than it
    # keeps, given twice in turn, must each give what its compiled Selector gives.
    texts = [f"a[href]:nth-child({i} of a)::attr(href)" for i in range(1, 21)]
    texts += [f"li:nth-child({i})" for i in range(1, 21)]
    for _ in range(2):
        for text in texts:
            sel = htmltok.Selector(text)
            if sel.gives == "elements":
                assert [n.id for n in tree.select(text)] == [n.id for n in tree.select(sel)]
            assert tree.getall(text) == tree.getall(sel)
    assert tree.getall(texts[0]) == ["/a"]
    with pytest.raises(ValueError):
        tree.select("a[")
    with pytest.raises(ValueError):
        tree.select("a[")


def test_bad_selector_errors(tree: htmltok.Tree) -> None:
    with pytest.raises(ValueError, match=r"offset 2: .*ends too soon"):
        tree.select("a[")
    with pytest.raises(ValueError, match=r"invalid selector"):
        htmltok.Selector("a:nope")
    with pytest.raises(ValueError, match=r"invalid selector"):
        some(tree.select_one("div")).select_one("p >")
    with pytest.raises(ValueError, match=r"invalid selector"):
        tree.getall("p >")
    with pytest.raises(ValueError, match=r"invalid selector"):
        some(tree.select_one("div")).get("p >")
    with pytest.raises(ValueError, match="same pseudo-element"):
        tree.select("a::text, a")
    with pytest.raises(TypeError, match="str or an htmltok.Selector"):
        tree.select(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str or an htmltok.Selector"):
        tree.get(None)  # type: ignore[call-overload]
    # Deep nesting is refused, not recursed into.
    with pytest.raises(ValueError):
        htmltok.Selector(":is(" * 10000 + "a" + ")" * 10000)


def test_tree_extract(tree: htmltok.Tree) -> None:
    fields = {"links": "a[href]::attr(href)", "lis": "li::text", "ul": "ul"}
    got = tree.extract(fields)
    assert got == htmltok.extract(SELECT_PAGE, fields)
    assert got == tree.extract(htmltok.Fields(fields))
    assert got["links"] == tree.getall("a[href]::attr(href)")
    assert got["ul"] == [some(tree.select_one("ul")).html] == tree.getall("ul")


def test_select_deep_tree() -> None:
    deep = b"<div>" * 100_000 + b"<a href=/deep>x</a>"
    t = htmltok.parse(deep)
    assert t.getall("div > a::attr(href)") == ["/deep"]
    assert len(t.select("div")) == 100_000
    assert t.select("section div") == []
    # Every div matches (or half matches) and is answered far up: linear top-down
    # matching (quadratic right to left: 20,000 levels took 7.5 s).
    assert len(t.select("body div div")) == 99_999
    assert len(t.select("html body div")) == 100_000
    assert t.select("div > span div") == []
    top = some(t.select_one("body > div"))
    assert len(top.select("html body div div > a")) == 1
    assert htmltok.extract(deep, {"deep": "body div div > a::attr(href)"}) == {"deep": ["/deep"]}


# The ten fields of the speed table (bench.py's FIELDS) and a few with no type selector.
CORPUS_FIELDS = {
    "title": "title::text",
    "description": "meta[name=description]::attr(content)",
    "canonical": "link[rel=canonical]::attr(href)",
    "robots": "meta[name=robots]::attr(content)",
    "og_title": 'meta[property="og:title"]::attr(content)',
    "h1": "h1::text",
    "links": "a[href]::attr(href)",
    "images": "img[src]::attr(src)",
    "lang": "html[lang]::attr(lang)",
    "hreflang": "link[rel=alternate][hreflang]::attr(href)",
    "ids": "[id]::attr(id)",
    "nav_links": "nav a, header a",
    "svg_titles": "svg title::text",
}


def test_extract_is_select_per_field_on_the_corpus() -> None:
    """extract's one walk (elements offered only to the fields whose names fit) gives
    every field what selecting it alone gives, on every page of the shared corpus."""
    from conftest import shared_corpus_sample

    fields = htmltok.Fields(CORPUS_FIELDS)
    pages = shared_corpus_sample(limit_bytes=10**9, step=1)
    assert pages
    for path in pages:
        tree = htmltok.parse(path.read_bytes())
        got = tree.extract(fields)
        for name, css in CORPUS_FIELDS.items():
            want = tree.getall(css)
            if "::" not in css:
                assert want == [n.html for n in tree.select(css)], (path.name, name)
            assert got[name] == want, (path.name, name)



def test_repeated_and_colliding_values_are_the_node_path() -> None:
    """`::attr()` strings are what the `Node` path and `extract` read, in order, with
    repeats, values of one length that differ only in a few bytes, short, empty and
    non-ASCII values (round ten tried sharing one `str` between equal values: the list
    must stay value for value the same whatever is built underneath)."""
    colliding = [f"https://e.org/{i:02d}/aaaaaaa/bbbbbbbb/zz.html" for i in range(20)]
    values = colliding + ["#", "/", "", "é/ü", "/a"] * 3 + colliding[::-1] + ["x" * 9] * 2
    page = "".join(f'<a href="{v}">x</a>' for v in values).encode()
    tree = htmltok.parse(page)
    got = tree.getall("a[href]::attr(href)")
    assert got == values
    assert got == [n.attr("href") for n in tree.select("a[href]")]
    assert htmltok.extract(page, {"links": "a[href]::attr(href)"}) == {"links": values}
