"""htmltok.parse: the tree (WHATWG tree construction), its node views, the html5lib
expected trees of a few adoption-agency and foster-parenting cases, depth, and the GIL."""

import sys
import threading
import time
from typing import Dict, List

import pytest

import htmltok
from conftest import ROOT, missing, some

PAGE = (
    b"<!DOCTYPE html><html lang=en><head><title> Tides \n of  March</title>"
    b"<meta charset=utf-8></head><body><p class='x y' id=first>Hello <b>world</b>"
    b"<!--note--><a href='/a?x=1&amp;y=2' rel=next>link</a></p>"
    b"<svg viewbox='0 0 1 1'><foreignObject/></svg></body></html>"
)


def find(tree: htmltok.Tree, name: str) -> htmltok.Node:
    return next(n for n in tree.root.descendants() if n.name == name)


def test_document_accessors() -> None:
    tree = htmltok.parse(PAGE)
    assert isinstance(tree, htmltok.Tree)
    assert tree.root.type == "document"
    assert tree.root.name is None and tree.root.parent is None
    assert some(tree.document_element).name == "html"
    assert some(tree.document_element).attrs == {"lang": "en"}
    assert some(tree.head).name == "head" and some(tree.body).name == "body"
    assert tree.title == "Tides of March"
    assert tree.quirks_mode == "no-quirks"
    assert htmltok.parse(b"<p>x").quirks_mode == "quirks"
    assert tree.fragment_root is None
    assert [c.type for c in tree.root.children] == ["doctype", "element"]
    # One decoding: the tree keeps the htmltok.Document it parsed.
    assert isinstance(tree.document, htmltok.Document)
    assert tree.document.encoding == "UTF-8" and tree.document.encoding_rule == "meta"


def test_nodes() -> None:
    tree = htmltok.parse(PAGE)
    p = find(tree, "p")
    assert p.type == "element" and p.namespace == "html"
    assert p.attrs == {"class": "x y", "id": "first"}
    assert list(p.attrs) == ["class", "id"]  # source order
    assert p.attr("id") == "first"
    assert p.attr("missing") is None and p.attr("missing", "d") == "d"
    assert p.text() == "Hello worldlink"
    assert [c.type for c in p.children] == ["text", "element", "comment", "element"]
    assert p.children[0].text() == "Hello " and p.children[0].name is None
    assert p.children[2].text() == "note"
    a = find(tree, "a")
    assert a.attr("href") == "/a?x=1&y=2"  # decoded
    assert a.parent == p and a.parent is not p
    assert hash(a.parent) == hash(p)
    assert p.parent == tree.body
    svg = find(tree, "svg")
    assert svg.namespace == "svg" and svg.attrs == {"viewBox": "0 0 1 1"}
    assert svg.children[0].name == "foreignObject"
    assert some(tree.body).next_sibling is None
    assert tree.node(p.id) == p
    with pytest.raises(IndexError):
        tree.node(len(tree))


def test_freed_nodes_let_go_of_their_tree() -> None:
    # Freed `Node`s go to a free list (tree.rs) and come back as other nodes: a freed one
    # holds no reference to its tree, and a reused one is the new tree's node.
    tree = htmltok.parse(b"<a href=/x>x</a>" * 5000)  # more nodes than the list keeps
    base = sys.getrefcount(tree)
    for _ in range(3):
        nodes = tree.select("a")
        assert len(nodes) == 5000 and sys.getrefcount(tree) == base + 5000
        del nodes
        assert sys.getrefcount(tree) == base
        other = htmltok.parse(b"<a href=/y>y</a><a href=/z>z</a>")
        assert [(n.tree is other, n.attr("href")) for n in other.select("a")] == [
            (True, "/y"),
            (True, "/z"),
        ]


def test_names_as_written_or_adjusted() -> None:
    tree = htmltok.parse(b"<DIV ID=a Data-X=1><my-el v=2></my-el><svg viewbox=v><a xlink:href=h></a></svg>")
    div = find(tree, "div")
    assert div.attrs == {"id": "a", "data-x": "1"}
    assert div.children[0].name == "my-el" and div.children[0].attr("v") == "2"
    assert find(tree, "svg").attrs == {"viewBox": "v"}
    assert find(tree, "svg").children[0].attrs == {"xlink:href": "h"}
    # attr() finds an attribute by the name attrs gives it, prefix and all.
    svg_a = find(tree, "svg").children[0]
    assert svg_a.attr("xlink:href") == "h"
    assert svg_a.attr("href") is None and svg_a.attr("xlink:") is None and svg_a.attr("xlinkhref") is None
    foreign = htmltok.parse(b"<svg xml:lang=en xmlns:xlink=u><a xlink:title=t href=x></a></svg>")
    # On an HTML element a name with a colon is a plain name, in no namespace.
    html_a = find(htmltok.parse(b"<a xlink:href=h xml:lang=en href=x>"), "a")
    assert html_a.attr("xlink:href") == "h" and html_a.attr("xml:lang") == "en"
    assert html_a.attr("href") == "x" and html_a.attr("lang") is None
    for node in [find(foreign, "svg"), find(foreign, "svg").children[0], div, html_a]:
        assert {name: node.attr(name) for name in node.attrs} == node.attrs
    assert repr(div) == "<htmltok.Node element 'div'>"


def test_xmlns_is_named_xmlns() -> None:
    # 13.2.6.3 "adjust foreign attributes": on an SVG or MathML element `xmlns` is in the
    # XMLNS namespace with no prefix, so its qualified name is `xmlns` (not `xmlns:xmlns`);
    # `xmlns:xlink` has the prefix `xmlns`.
    tree = htmltok.parse(
        b"<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'>"
        b"<a xlink:href=h></a></svg><math xmlns='http://www.w3.org/1998/Math/MathML'></math>"
        b"<p xmlns=x>"
    )
    svg, math, p = find(tree, "svg"), find(tree, "math"), find(tree, "p")
    assert svg.attrs == {"xmlns": "http://www.w3.org/2000/svg", "xmlns:xlink": "http://www.w3.org/1999/xlink"}
    assert svg.attr("xmlns") == "http://www.w3.org/2000/svg"
    assert svg.attr("xmlns:xlink") == "http://www.w3.org/1999/xlink"
    assert svg.attr("xmlns:xmlns") is None and svg.attr("xlink") is None
    assert math.attrs == {"xmlns": "http://www.w3.org/1998/Math/MathML"}
    assert math.attr("xmlns") == "http://www.w3.org/1998/Math/MathML"
    # On an HTML element xmlns is a plain attribute in no namespace.
    assert p.attrs == {"xmlns": "x"} and p.attr("xmlns") == "x"
    for node in [svg, math, p]:
        assert {name: node.attr(name) for name in node.attrs} == node.attrs
    # 13.3's serialized name is the qualified name too.
    assert svg.html.startswith(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
    )
    assert math.html == '<math xmlns="http://www.w3.org/1998/Math/MathML"></math>'
    # The html5lib test format writes every XMLNS attribute with its `xmlns` prefix.
    assert 'xmlns xmlns="http://www.w3.org/2000/svg"' in tree.to_test_format()
    assert 'xmlns xlink="http://www.w3.org/1999/xlink"' in tree.to_test_format()
    # Selectors match it by namespace and local name, as before.
    assert [n.name for n in tree.select("svg[xmlns]")] == []
    assert [n.name for n in tree.select("p[xmlns]")] == ["p"]


def test_spans_are_offsets_in_the_decoded_page() -> None:
    tree = htmltok.parse(PAGE)
    html = tree.document.html_bytes
    p = find(tree, "p")
    start, end = p.span
    assert html[start:end] == b"<p class='x y' id=first>"
    start, end = some(p.end_span)
    assert html[start:end] == b"</p>"
    text = p.children[0]
    assert html[slice(*text.span)] == b"Hello "
    assert some(some(tree.body).parent).span == some(tree.document_element).span
    assert tree.root.span == (0, len(html))
    # An implied element has an empty span.
    implied = htmltok.parse(b"<p>x")
    assert some(implied.body).span[0] == some(implied.body).span[1]
    # Decoded from windows-1252: offsets are into the UTF-8 page.
    tree = htmltok.parse(b"<p>caf\xe9</p><b>x</b>", http_charset="windows-1252")
    html = tree.document.html_bytes
    b = find(tree, "b")
    assert html[slice(*b.span)] == b"<b>" and html.startswith("<p>café".encode())


def test_serialization() -> None:
    tree = htmltok.parse(b"<p class=x>Hello <b>world</p><template><i>t</i></template>")
    p = find(tree, "p")
    assert p.html == '<p class="x">Hello <b>world</b></p>'
    assert p.inner_html == "Hello <b>world</b>"
    assert tree.html.startswith("<html><head>")
    template = find(tree, "template")
    assert template.children == []
    contents = some(template.template_contents)
    assert contents.type == "fragment" and contents.children[0].name == "i"
    assert tree.to_test_format().splitlines()[:2] == ["| <html>", "|   <head>"]


def test_str_and_encodings() -> None:
    tree = htmltok.parse("<p>Grüße</p>")
    assert tree.document.encoding == "UTF-8" and tree.document.encoding_rule == "transport"
    assert find(tree, "p").text() == "Grüße"
    with pytest.raises(ValueError):
        htmltok.parse("<p>x", http_charset="utf-8")
    tree = htmltok.parse(b"<title>caf\xe9</title>", url="https://example.org/")
    assert tree.title == "café" and tree.document.encoding == "windows-1252"
    assert tree.document.url == "https://example.org/"
    assert some(htmltok.parse(bytearray(b"<b>x")).body).text() == "x"
    with pytest.raises(TypeError):
        htmltok.parse(42)  # type: ignore[arg-type]


def test_str_is_parsed_in_place() -> None:
    # A str's UTF-8 is read where CPython keeps it (no copy): the tree, spans, html_text
    # and html_bytes are those of the same page given as UTF-8 bytes.
    for page in ["<p class=x>plain &amp; ascii", "<p>Grüße, 世界 &eacute;<b>\U0001F600</b>"]:
        tree, same = htmltok.parse(page), htmltok.parse(page.encode())
        assert tree.to_test_format() == same.to_test_format()
        assert [n.span for n in tree.select("p, b")] == [n.span for n in same.select("p, b")]
        assert tree.document.html_text is page
        assert tree.document.html_bytes == page.encode()
        assert htmltok.extract(page, {"p": "p::text"}) == htmltok.extract(page.encode(), {"p": "p::text"})
    with pytest.raises(UnicodeEncodeError):
        htmltok.parse("<p>\ud800")
    with pytest.raises(UnicodeEncodeError):
        htmltok.extract("<p>\ud800", {"p": "p"})


def test_document_tree_is_parse() -> None:
    doc = htmltok.Document(PAGE)
    tree = doc.tree()
    assert tree.document is doc
    assert tree.to_test_format() == htmltok.parse(PAGE).to_test_format()


def test_scripting_flag() -> None:
    page = b"<body><noscript><p>x</p></noscript>"
    assert find(htmltok.parse(page), "noscript").children[0].name == "p"
    on = find(htmltok.parse(page, scripting=True), "noscript").children[0]
    assert on.type == "text" and on.text() == "<p>x</p>"


def test_fragment() -> None:
    tree = htmltok.parse_fragment(b"<td>a</td><td>b", "tr")
    root = some(tree.fragment_root)
    assert [c.name for c in root.children] == ["td", "td"]
    assert tree.to_test_format() == '| <td>\n|   "a"\n| <td>\n|   "b"'
    assert tree.html == "<td>a</td><td>b</td>"
    svg = htmltok.parse_fragment(b"<path/><foreignobject/>", "svg svg")
    assert [(c.namespace, c.name) for c in some(svg.fragment_root).children] == [
        ("svg", "path"),
        ("svg", "foreignObject"),
    ]
    assert htmltok.Document(b"<td>a").tree(context="tr").to_test_format() == '| <td>\n|   "a"'


def html5lib_cases() -> Dict[str, str]:
    path = ROOT.parent / "shared" / "html5lib-tests" / "tree-construction" / "tests1.dat"
    if not path.is_file():
        missing("the html5lib tree-construction cases", f"no {path}")
    cases = {}
    for block in path.read_text(encoding="utf-8").split("\n\n#data\n"):
        block = block.removeprefix("#data\n")
        data, _, rest = block.partition("\n#errors\n")
        _, _, document = rest.partition("#document\n")
        cases[data] = document.rstrip("\n")
    return cases


@pytest.mark.parametrize(
    "data",
    [
        "<a><p>X<a>Y</a>Z</p></a>",  # adoption agency
        "<font><p>hello<b>cruel</font>world",  # adoption agency, formatting reconstructed
        "<!-----><font><div>hello<table>excite!<b>me!<th><i>please!</tr><!--X-->",  # foster parenting
        "<a><table><td><a><table></table><a></tr><a></table><b>X</b>C<a>Y",  # both
    ],
)
def test_html5lib_expected_trees(data: str) -> None:
    cases = html5lib_cases()
    assert data in cases
    assert htmltok.parse(data.encode()).to_test_format() == cases[data]


def test_deep_nesting_is_iterative() -> None:
    depth = 100_000
    tree = htmltok.parse(b"<div>" * depth + b"x")
    n = sum(1 for _ in tree.root.descendants())
    assert n == depth + 4  # html, head, body, the divs, the text
    deepest = [n for n in some(tree.body).descendants()][-1]
    assert deepest.type == "text" and deepest.text() == "x"
    assert tree.root.text() == "x"
    # (The test format indents two spaces a level: quadratic in size, so not here.)
    assert some(tree.body).html.count("<div>") == depth
    del tree  # dropping is iterative too


def test_gil_released_while_parsing() -> None:
    page = b"<div><p class=a>some <b>text</b> &amp; more</p>" * 100_000
    ticks: List[float] = []
    done = threading.Event()

    def tick() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    time.sleep(0.01)
    start = time.perf_counter()
    tree = htmltok.parse(page)
    end = time.perf_counter()
    done.set()
    t.join()
    assert len(tree) > 500_000
    during = [x for x in ticks if start < x < end]
    # With the GIL held the whole time the other thread could not tick during the parse.
    assert end - start < 0.05 or len(during) >= 3, (end - start, len(during))


LONG_SCRIPT = b"<script>var s = '" + b"x" * 2000 + b"';</script>"


def test_parse_decides_the_late_meta_with_the_tree() -> None:
    # A late declaration naming another encoding than the detector's guess: decoded and
    # parsed again, the tree is the second parse's ("Привет" in KOI8-R).
    page = b"<head><title>\xf0\xd2\xc9\xd7\xc5\xd4</title>" + LONG_SCRIPT + b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4"
    tree = htmltok.parse(page)
    assert (tree.document.encoding, tree.document.encoding_rule) == ("KOI8-R", "late-meta")
    assert tree.title == "Привет" and find(tree, "p").text() == "Привет"
    assert tree.document.html_bytes == htmltok.Document(page).html_bytes
    # A meta after <frameset> is no element: the tree builder ignores it, the token pass
    # of Document takes it; parse has the tree's answer.
    page = b"<head><title>caf\xe9 cr\xe8me</title>" + LONG_SCRIPT + b"</head><frameset><meta charset=windows-1251>"
    assert htmltok.Document(page).encoding_rule == "late-meta"
    tree = htmltok.parse(page)
    assert (tree.document.encoding, tree.document.encoding_rule) == ("windows-1252", "detector")
    assert tree.title == "café crème"
    # Undecoded input is shared, not copied: the document's bytes are the input object.
    page = b"<p>plain <meta charset=utf-8>"
    tree = htmltok.parse(page)
    assert tree.document.html_bytes is page
    assert htmltok.extract(page + b"<a href=x>", {"a": "a::attr(href)"}) == {"a": ["x"]}
