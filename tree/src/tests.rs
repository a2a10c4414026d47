//! Whole-parser tests: the API, spans, and the shapes that break recursive tree builders.

use super::*;

#[test]
fn simple_document() {
    let doc = parse(b"<!DOCTYPE html><title>T</title><p>a<b>b</p>");
    assert_eq!(
        doc.to_test_format(),
        "| <!DOCTYPE html>\n| <html>\n|   <head>\n|     <title>\n|       \"T\"\n|   <body>\n|     <p>\n|       \"a\"\n|       <b>\n|         \"b\""
    );
    assert_eq!(doc.quirks_mode(), QuirksMode::NoQuirks);
}

#[test]
fn spans() {
    let html = b"<div id=a>x&amp;y</div>";
    let doc = parse(html);
    let div = doc
        .root()
        .descendants()
        .find(|n| n.name() == Some("div"))
        .unwrap();
    assert_eq!(div.span(), Span::new(0, 10));
    assert_eq!(div.end_span(), Some(Span::new(17, 23)));
    let attr = div.attrs().next().unwrap();
    assert_eq!(attr.value(), "a");
    assert_eq!(attr.name_span(), Span::new(5, 7));
    assert_eq!(attr.value_span(), Some(Span::new(8, 9)));
    let text = div.first_child().unwrap();
    assert_eq!(text.text(), "x&y");
    assert_eq!(text.text_spans(), [Span::new(10, 17)]);
}

#[test]
fn borrowed_text() {
    let html = b"<p>plain text</p>";
    let doc = parse(html);
    let p = doc
        .root()
        .descendants()
        .find(|n| n.name() == Some("p"))
        .unwrap();
    let text = p.first_child().unwrap().text();
    assert_eq!(text, "plain text");
    assert!(
        matches!(text, Cow::Borrowed(t) if std::ptr::eq(t.as_bytes(), &html[3..13])),
        "the text is the input's bytes, not a copy"
    );
    assert!(doc.view().dom().owned.is_empty(), "nothing owned");
}

/// A document that owns its input is the same tree, read through the same handles.
#[test]
fn owned_document() {
    let html = "<!DOCTYPE html><title>T</title><p id=a class='x y'>a&amp;b<b>c</p><svg viewBox=0><foreignObject/></svg><!--c-->";
    let borrowed = parse(html.as_bytes());
    let owned = parse_owned(html.as_bytes().to_vec());
    assert_eq!(owned.to_test_format(), borrowed.to_test_format());
    assert_eq!(owned.outer_html(), borrowed.outer_html());
    assert_eq!(owned.node_count(), borrowed.node_count());
    assert_eq!(owned.title().as_deref(), Some("T"));
    let p = owned.body().unwrap().first_child().unwrap();
    assert_eq!(p.name(), Some("p"));
    assert_eq!(p.attr("class").as_deref(), Some("x y"));
    assert_eq!(p.text(), "a&bc");
    assert_eq!(
        p.outer_html(),
        "<p id=\"a\" class=\"x y\">a&amp;b<b>c</b></p>"
    );
    assert_eq!(p.inner_html(), "a&amp;b<b>c</b>");
    assert_eq!(p.document().node(p.id()), p);
    // Kept and moved without a borrow.
    let kept: Vec<OwnedDocument<String>> = vec![Parser::new().parse_owned(html.to_owned())];
    let moved = std::thread::spawn(move || kept[0].body().unwrap().text().into_owned())
        .join()
        .unwrap();
    assert_eq!(moved, "a&bc");
    let frag = Parser::new().parse_fragment_owned(b"<td>x".to_vec(), &FragmentContext::html("tr"));
    assert_eq!(frag.to_test_format(), "| <td>\n|   \"x\"");
    assert_eq!(frag.into_input(), b"<td>x");
}

#[test]
fn fragment() {
    let doc = parse_fragment(b"<td>x</td><tr>", &FragmentContext::html("tr"));
    assert_eq!(doc.to_test_format(), "| <td>\n|   \"x\"");
    let doc = parse_fragment(b"<path/>", &FragmentContext::from_test_string("svg svg"));
    assert_eq!(doc.to_test_format(), "| <svg path>");
}

#[test]
fn serialization() {
    let doc = parse(b"<p title='a\"b'>1 &lt; 2<br><template><i>t</i></template>");
    let body = doc
        .root()
        .descendants()
        .find(|n| n.name() == Some("body"))
        .unwrap();
    assert_eq!(
        body.inner_html(),
        "<p title=\"a&quot;b\">1 &lt; 2<br><template><i>t</i></template></p>"
    );
}

#[test]
fn document_serialization() {
    let doc = parse(b"<!doctype html><title>a&amp;b</title><p>x");
    assert_eq!(
        doc.outer_html(),
        "<!DOCTYPE html><html><head><title>a&amp;b</title></head><body><p>x</p></body></html>"
    );
    let frag = parse_fragment(b"<td>1<td>2", &FragmentContext::html("tr"));
    assert_eq!(frag.outer_html(), "<td>1</td><td>2</td>");
}

#[test]
fn head_body_title() {
    let doc = parse(b"<title>\n  A  title\t</title><p>x<svg><title>no</title></svg>");
    assert_eq!(doc.title().as_deref(), Some("A title"));
    assert_eq!(doc.head().unwrap().children().count(), 1);
    assert_eq!(doc.body().unwrap().name(), Some("body"));
    let frames = parse(b"<frameset><frame></frameset>");
    assert_eq!(frames.body().unwrap().name(), Some("frameset"));
    assert_eq!(frames.title(), None);
}

#[test]
fn scripting_flag() {
    let html = b"<noscript><p>x</p></noscript>";
    let off = parse(html).to_test_format();
    assert!(off.contains("<p>"));
    let on = Parser::new().scripting(true).parse(html).to_test_format();
    assert!(on.contains("\"<p>x</p>\""));
}

/// A million nested elements parse, serialize, walk and drop without recursion.
#[test]
fn million_nested_divs() {
    let n = 1_000_000;
    let mut html = String::with_capacity(n * 11);
    for _ in 0..n {
        html.push_str("<div>");
    }
    for _ in 0..n {
        html.push_str("</div>");
    }
    let doc = parse(html.as_bytes());
    assert_eq!(doc.root().descendants().count(), n + 3);
    let body = doc
        .root()
        .descendants()
        .find(|n| n.name() == Some("body"))
        .unwrap();
    let out = body.inner_html();
    assert_eq!(out.len(), html.len());
    // (Not the test format: its indentation makes it quadratic in the depth.)
    drop(doc);
}

/// The shapes that make tree builders quadratic finish (their timings are in
/// `examples/hostile.rs`; here only that they finish and the tree is whole).
#[test]
fn hostile_shapes() {
    let n = 20_000;
    let shapes: Vec<String> = vec![
        "<a>x".repeat(n),
        (0..n).map(|i| format!("<font a={i}>x")).collect(),
        "<b><p></b>".repeat(n),
        "<table><tr><td>".repeat(n),
        "<template>".repeat(n),
        format!(
            "<p {}>",
            (0..n).map(|i| format!("a{i}=x ")).collect::<String>()
        ),
    ];
    for html in shapes {
        let doc = parse(html.as_bytes());
        assert!(doc.root().descendants().count() > 3);
        let _ = doc.root().outer_html();
    }
}

/// Checks every link of the arena: each child's parent, the sibling chains both ways, and
/// the last child.
fn check_links(doc: &Document<'_>) {
    for id in 0..doc.node_count() as NodeId {
        let node = doc.node(id);
        let mut prev: Option<NodeRef<'_>> = None;
        for child in node.children() {
            assert_eq!(child.parent(), Some(node), "parent of {child:?}");
            assert_eq!(child.prev_sibling(), prev, "previous sibling of {child:?}");
            prev = Some(child);
        }
        assert_eq!(node.last_child(), prev, "last child of {node:?}");
    }
}

/// When the document says its arena is in tree order, the walk from the document visits
/// every other node of the arena, by increasing id; and the element scan gives the walk's
/// elements. Returns the flag.
fn check_tree_order(doc: &Document<'_>) -> bool {
    let view = doc.view();
    let Some(scan) = view.elements_in_tree_order() else {
        assert!(!doc.in_tree_order());
        return false;
    };
    assert!(doc.in_tree_order());
    let walked: Vec<NodeId> = doc.root().descendants().map(|n| n.id()).collect();
    let arena: Vec<NodeId> = (1..doc.node_count() as NodeId).collect();
    assert_eq!(
        walked,
        arena,
        "tree order claimed:\n{}",
        doc.to_test_format()
    );
    let elements: Vec<NodeId> = doc
        .root()
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| n.id())
        .collect();
    assert_eq!(scan.map(|n| n.id()).collect::<Vec<_>>(), elements);
    true
}

/// Which shapes keep the arena in tree order, and which clear the flag.
#[test]
fn tree_order_flag() {
    let kept = [
        "",
        "<!DOCTYPE html><title>t</title><p>a<b>b</b>c",
        "<ul><li>a<li>b</ul><p>x<!-- c --></p>",
        // Text merged into the node before it: no new link.
        "<p>a&amp;b\0c</p>",
        // The reconstruction of a formatting element appends a copy at the end.
        "<b>x<p>y",
        // Elements closed long before: the next is appended higher up.
        "<div><div><div><span>x</span></div></div></div><p>",
    ];
    for html in kept {
        let doc = parse(html.as_bytes());
        assert!(check_tree_order(&doc), "{html:?}");
    }
    let cleared = [
        // Foster parenting: inserted before the table.
        "<table>x<tr><td>y</table>",
        // The adoption agency algorithm moves the paragraph.
        "<a><p>x</a>y",
        // Template contents are outside the tree.
        "<template><p>x</template>",
        // The frameset replaces the body.
        "<div><frameset><frame></frameset>",
        // Text after the body is appended to a body that is no longer last.
        "<body><p>x</p></body><!-- c --></html>y",
        // A `<meta>` after `</head>` and a space (in the `html`) goes back into the head.
        "<head></head> <meta charset=utf-8>",
    ];
    for html in cleared {
        let doc = parse(html.as_bytes());
        check_tree_order(&doc);
        assert!(!doc.in_tree_order(), "{html:?}");
    }
    // A fragment parse creates its context element and never inserts it.
    let frag = parse_fragment(b"<p>x", &FragmentContext::html("div"));
    check_tree_order(&frag);
    assert!(!frag.in_tree_order());
}

/// The flag's check walks up from the newest node: a million nested elements and then a
/// sibling of the outermost cost one walk of a million steps (each node passed once), and
/// the result is still in tree order.
#[test]
fn tree_order_on_deep_trees() {
    let n = 1_000_000;
    let mut html = String::with_capacity(n * 20);
    for round in 0..2 {
        for _ in 0..n / 2 {
            html.push_str("<div>");
        }
        for _ in 0..n / 2 {
            html.push_str("</div>");
        }
        html.push_str(if round == 0 { "<p>x</p>" } else { "<p>y" });
    }
    let doc = parse(html.as_bytes());
    assert!(doc.in_tree_order());
    let view = doc.view();
    let scanned = view.elements_in_tree_order().unwrap().count();
    assert_eq!(scanned, n + 2 + 3, "the divs, the two p, html, head, body");
}

/// Random documents from a vocabulary of markup that reaches the tree builder's corners
/// (tables, templates, foreign content, formatting elements, frames): no panic, and the
/// links stay consistent.
#[test]
fn random_documents_keep_the_tree_consistent() {
    const PIECES: &[&str] = &[
        "<a>",
        "</a>",
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<table>",
        "</table>",
        "<tr>",
        "</tr>",
        "<td>",
        "</td>",
        "<th>",
        "<tbody>",
        "<caption>",
        "</caption>",
        "<col>",
        "<colgroup>",
        "<template>",
        "</template>",
        "<svg>",
        "</svg>",
        "<math>",
        "</math>",
        "<mi>",
        "<mtext>",
        "<foreignObject>",
        "</foreignObject>",
        "<annotation-xml encoding=text/html>",
        "<desc>",
        "<title>",
        "</title>",
        "<select>",
        "</select>",
        "<option>",
        "<optgroup>",
        "<li>",
        "<dd>",
        "<dt>",
        "<h1>",
        "</h2>",
        "<form>",
        "</form>",
        "<button>",
        "<nobr>",
        "<font color=red>",
        "<font>",
        "<frameset>",
        "<frame>",
        "<noscript>",
        "<script>",
        "</script>",
        "<style>",
        "<textarea>",
        "<pre>",
        "\n",
        "x",
        " ",
        "\0",
        "&amp;",
        "<!-- c -->",
        "<!DOCTYPE html>",
        "<![CDATA[x]]>",
        "<html>",
        "<head>",
        "</head>",
        "<body>",
        "</body>",
        "</html>",
        "<plaintext>",
        "<input type=hidden>",
        "<br>",
        "</br>",
        "<image>",
        "<xmp>",
        "<object>",
        "<applet>",
        "<marquee>",
        "</marquee>",
        "<ruby>",
        "<rt>",
        "<rb>",
        "<hr>",
        "<selectedcontent>",
        "<isindex>",
        "<search>",
        "<listing>",
        "<keygen>",
        "<custom-el a=1>",
        "</custom-el>",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut in_order = 0;
    for round in 0..3000 {
        let len = (next() % 60) as usize;
        let mut html = String::new();
        for _ in 0..len {
            html.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
        }
        let scripting = round % 2 == 1;
        let doc = Parser::new().scripting(scripting).parse(html.as_bytes());
        check_links(&doc);
        in_order += usize::from(check_tree_order(&doc));
        let _ = doc.to_test_format();
        let _ = doc.root().outer_html();
        let ctx = [
            "td", "svg path", "math mi", "select", "template", "table", "title",
        ];
        let context = FragmentContext::from_test_string(ctx[round % ctx.len()]);
        let frag = Parser::new()
            .scripting(scripting)
            .parse_fragment(html.as_bytes(), &context);
        check_links(&frag);
        check_tree_order(&frag);
        let _ = frag.to_test_format();
    }
    // Both kinds are exercised (the pieces make most documents lose the order).
    assert!(in_order > 100, "{in_order} of 3000 in tree order");
}

#[test]
fn end_spans_and_text_spans() {
    let html = b"<p>a\r\nb</p><b>x<i>y</b>z</i><table>t<tr><td>c</table>";
    let doc = parse(html);
    let find = |name: &str| {
        doc.root()
            .descendants()
            .find(|n| n.name() == Some(name))
            .unwrap()
    };
    let p = find("p");
    assert_eq!(p.end_span(), Some(Span::new(7, 11)), "</p>");
    let text = p.first_child().unwrap();
    assert_eq!(text.text(), "a\nb");
    assert_eq!(
        text.text_spans(),
        [Span::new(3, 7)],
        "the CR LF's bytes included"
    );
    // The adoption agency algorithm closes <b> at </b>; the <i> it re-creates is implied.
    let b = find("b");
    assert_eq!(b.end_span(), Some(Span::new(19, 23)));
    let is: Vec<_> = doc
        .root()
        .descendants()
        .filter(|n| n.name() == Some("i"))
        .collect();
    assert_eq!(is.len(), 2);
    assert_eq!(is[0].span(), Span::new(15, 18));
    assert_eq!(
        is[1].span(),
        Span::new(15, 18),
        "a copy keeps its token's span"
    );
    assert_eq!(is[1].end_span(), Some(Span::new(24, 28)));
    // Foster-parented text before the table keeps its span.
    let table = find("table");
    let t = table.prev_sibling().unwrap();
    assert_eq!(t.text(), "t");
    assert_eq!(t.text_spans(), [Span::new(35, 36)]);
    assert_eq!(table.end_span(), Some(Span::new(45, 53)));
    // Implied elements have empty spans where they were implied.
    let tbody = find("tbody");
    assert!(tbody.span().is_empty());
    assert_eq!(tbody.end_span(), None);
}

#[test]
fn merged_text_keeps_every_span() {
    // "a" and "b" are split by the ignored </x>: not contiguous, so the text is owned;
    // its two spans are kept.
    let doc = parse(b"<p>a</x>b");
    let p = doc
        .root()
        .descendants()
        .find(|n| n.name() == Some("p"))
        .unwrap();
    let t = p.first_child().unwrap();
    assert_eq!(t.text(), "ab");
    assert_eq!(t.text_spans(), [Span::new(3, 4), Span::new(8, 9)]);
}

#[test]
fn bom_and_invalid_utf8() {
    let doc = parse(b"\xEF\xBB\xBFx");
    assert_eq!(doc.body().unwrap().text(), "x");
    let doc = parse(b"<p>a\xffb</p>");
    assert_eq!(doc.body().unwrap().text(), "a\u{FFFD}b");
}

#[test]
fn base_href_is_the_first_html_base_with_an_href_in_tree_order() {
    let href = |html: &str| {
        crate::parse(html.as_bytes())
            .base_href()
            .map(|h| h.into_owned())
    };
    assert_eq!(
        href("<base target=_top><base href='/d/'>").as_deref(),
        Some("/d/")
    );
    // Template contents and SVG are not the document's base.
    assert_eq!(
        href("<template><base href=/t></template><svg><base href=/s></svg>"),
        None
    );
    // Foster parenting puts the later one first in tree order.
    assert_eq!(
        href("<table><td><base href=/x><tr><base href=/y>").as_deref(),
        Some("/y")
    );
}

#[test]
fn encoding_metas_are_those_the_meta_rule_reads() {
    let cases: &[(&[u8], &[&str])] = &[
        // In head, with both attributes' forms; one without either is not recorded.
        (
            b"<meta name=a><META CHARSET=gbk><meta http-equiv=Content-Type content=x>",
            &["gbk", "Content-Type"],
        ),
        // In body, after head, in template and in head noscript (scripting off): the
        // in head rules.
        (
            b"<head></head><meta charset=a><body><p><meta charset=b><template><meta charset=c></template><noscript><meta charset=d>",
            &["a", "b", "c", "d"],
        ),
        // A meta breaks out of foreign content; "in table" has no rule for it, so it is
        // processed "in body" (foster parented), through the in head rules.
        (
            b"<svg><meta charset=a></svg><table><meta charset=b></table>",
            &["a", "b"],
        ),
        // Not elements: in frameset and after frameset a meta start tag is ignored; in
        // a comment, a title or a script it is text.
        (
            b"<!--<meta charset=a>--><title><meta charset=b></title><script><meta charset=c></script><frameset><meta charset=d></frameset><meta charset=e>",
            &[],
        ),
    ];
    for &(html, expected) in cases {
        let doc = parse(html);
        let found: Vec<String> = doc
            .encoding_metas()
            .map(|m| {
                m.attr("charset")
                    .or_else(|| m.attr("http-equiv"))
                    .unwrap()
                    .into_owned()
            })
            .collect();
        assert_eq!(found, expected, "{}", String::from_utf8_lossy(html));
    }
    // A fragment has no encoding to change.
    let doc = parse_fragment(b"<meta charset=gbk>", &FragmentContext::html("head"));
    assert_eq!(doc.encoding_metas().len(), 0);
}

#[test]
fn a_hundred_thousand_encoding_metas() {
    let html = "<meta charset=x>".repeat(100_000);
    let doc = parse(html.as_bytes());
    assert_eq!(doc.encoding_metas().len(), 100_000);
    // One id each: a small part of the arena.
    assert!(doc.heap_bytes() > 100_000 * 4);
}

/// The text of every text node in tree order, each read both ways (`text_bytes` is the
/// bytes of `text`).
fn text_nodes(doc: &Document<'_>) -> Vec<String> {
    doc.root()
        .descendants()
        .filter(|n| n.kind() == NodeKind::Text)
        .map(|n| {
            assert_eq!(n.text_bytes(), Some(n.text().as_bytes()));
            n.text().into_owned()
        })
        .collect()
}

/// Text that decoding changes is stored undecoded while parsing ("in body" after
/// frameset-ok is "not ok", and the "text" mode: script, style, title, textarea) and
/// decoded when read: every reader gives the decoded text, over bytes and over a `&str`,
/// merged or not, with a leading newline skipped after the decoding; the document is
/// read from several threads at once.
#[test]
fn raw_text_decoded_when_read() {
    let html = "<p>start</p><p>a&amp;b</p><p>c\r\nd</p><table><td>x&lt;y</td></table>\
        <script>s\r\n</script><title>t&amp;</title><textarea>\r\n&amp;</textarea>\
        <pre>\n&lt;</pre><p>&#32;<b>e&amp;</b>f&lt;\0</p><p>g&amp;</x>h</p>\
        <p>i</x>j&amp;</p><p>k&amp;</x>l&lt;</p><p>\u{e9}&amp;\u{e9}</p>";
    let texts = [
        "start",
        "a&b",
        "c\nd",
        "x<y",
        "s\n",
        "t&",
        "&",
        "<",
        " ",
        "e&",
        "f<",
        "g&h",
        "ij&",
        "k&l<",
        "\u{e9}&\u{e9}",
    ];
    let check = |doc: &Document<'_>| {
        assert_eq!(text_nodes(doc), texts);
        let html = doc.body().unwrap().outer_html();
        assert!(html.contains("<p>a&amp;b</p><p>c\nd</p>"), "{html}");
        assert!(html.contains("<title>t&amp;</title>"), "{html}");
    };
    let doc = parse(html.as_bytes());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| check(&doc));
        }
    });
    check(&Parser::new().parse_str(html));
    // Read before and after the lazy text is decoded, the heap grows by the decoded text.
    let doc = parse(b"<p>x</p><p>a&amp;b</p>");
    let before = doc.heap_bytes();
    assert_eq!(doc.body().unwrap().text(), "xa&b");
    assert!(doc.heap_bytes() > before);
}

/// "In body" text after frameset-ok is "not ok" is stored as its span and decoded when
/// read (`Str::lazy`): references, CR, U+0000 (which the rule ignores: a text of NULs
/// inserts nothing, a NUL inside one is dropped), bytes that are not UTF-8, a text that
/// merges into the one before it, and the copy `selectedcontent` makes of an option's
/// text all read as the rules insert them, over bytes and over a `&str`.
#[test]
fn lazy_text_decoded_when_read() {
    let html: &[u8] = b"<p>start</p><p>\0\0</p><p>\0a\0b\0</p><p>c\0</p><p>d&amp;e\r\nf</p>\
        <p>g\xFFh</p><p>i</x>j&lt;</p><p>k&amp;</x>\0l</p>\
        <select><button><selectedcontent></selectedcontent></button><option>m&amp;n</option></select>";
    let texts = [
        "start",
        "ab",
        "c",
        "d&e\nf",
        "g\u{FFFD}h",
        "ij<",
        "k&l",
        "m&n",
        "m&n",
    ];
    let check = |doc: &Document<'_>| {
        assert_eq!(text_nodes(doc), texts);
        let empty = doc
            .root()
            .descendants()
            .filter(|n| n.name() == Some("p"))
            .nth(1)
            .unwrap();
        assert!(
            empty.first_child().is_none(),
            "a text of NULs inserts nothing"
        );
    };
    let doc = parse(html);
    check(&doc);
    assert!(
        doc.view().dom().lazy_decoded.get().is_some(),
        "the texts were stored lazy"
    );
    let lossy = String::from_utf8_lossy(html).into_owned();
    let doc = Parser::new().parse_str(&lossy);
    check(&doc);
    // Text that decoding leaves as it is reads as the input's bytes, not a copy.
    let html = b"<p>x</p><p>plain</p>";
    let doc = parse(html);
    let text = doc
        .body()
        .unwrap()
        .last_child()
        .unwrap()
        .first_child()
        .unwrap();
    assert!(matches!(text.text(), Cow::Borrowed(t) if std::ptr::eq(t.as_bytes(), &html[11..16])));
}

/// The "text" mode's RAWTEXT and script data runs (`style`, `script`, `xmp`, `iframe`,
/// `noembed`, `noframes`, `noscript` with scripting) are stored as their spans too and
/// decoded when read: CRLF and CR as LF, U+0000 as U+FFFD, references left as written; a
/// run split by the tokenizer (`<` inside a script) reads as one text.
#[test]
fn lazy_verbatim_text_decoded_when_read() {
    let html: &[u8] = b"<style>a\r\nb\0c</style><script>s&amp;\r</script><script>t<u</script>\
        <xmp>&lt;\0</xmp><noscript>n\r</noscript><p>plain</p>";
    let want = [
        "a\nb\u{FFFD}c",
        "s&amp;\n",
        "t<u",
        "&lt;\u{FFFD}",
        "n\n",
        "plain",
    ];
    let doc = Parser::new().scripting(true).parse(html);
    assert_eq!(text_nodes(&doc), want);
    let html_out = doc.body().unwrap().outer_html();
    assert!(html_out.contains("<xmp>&lt;\u{FFFD}</xmp>"), "{html_out}");
    let lossy = String::from_utf8_lossy(html).into_owned();
    assert_eq!(
        text_nodes(&Parser::new().scripting(true).parse_str(&lossy)),
        want
    );
}
