//! Unit tests: each selector feature, the case rules, quirks, foreign content, `:has`,
//! pseudo-elements, fields and errors.

use htmltok_tree::NodeRef;
use selectors::context::SelectorCaches;

use super::*;

/// The elements under `root` (document order) that `sel` matches asked one by one
/// (`Selector::matches`, right to left, no walk's state): what every walk must agree with.
fn one_by_one<'d>(root: NodeRef<'d>, sel: &Selector) -> Vec<NodeRef<'d>> {
    root.descendants().filter(|n| sel.matches(*n)).collect()
}

/// `css` parsed, given a top-down plan, and matched by it as right to left
/// (`Selector::matches`): on the whole document, and below each element with `:scope`
/// that element. The document's matches when all of that holds, else None.
fn top_down_as_right_to_left<'d>(
    doc: &'d htmltok_tree::Document<'_>,
    css: &str,
) -> Option<Vec<NodeRef<'d>>> {
    let sel = Selector::parse(css).ok()?;
    sel.plan.as_ref()?;
    let all: Vec<_> = one_by_one(doc.root(), &sel);
    if doc.select(&sel).collect::<Vec<_>>() != all {
        return None;
    }
    for scope in doc.root().descendants().filter(|n| n.is_element()) {
        let mut caches = SelectorCaches::default();
        let want: Vec<_> = scope
            .descendants()
            .filter(|n| sel.matches_with(*n, Some(scope), &mut caches))
            .collect();
        if scope.select(&sel).collect::<Vec<_>>() != want {
            return None;
        }
    }
    Some(all)
}

/// The element names of the random trees of the properties below.
const RANDOM_NAMES: &[&str] = &["div", "p", "span", "a", "b"];

/// The four combinators, for random selectors.
const COMBINATORS: [&str; 4] = [" ", " > ", " + ", " ~ "];

/// A random tree as HTML after `prologue`: each pair of `tree` (the first 40) opens an
/// element named from `names` with the attributes `attrs` gives for its second byte, or,
/// when the first byte is 3 mod 4, closes the last one opened.
fn random_tree(
    tree: &[(u8, u8)],
    names: &[&'static str],
    prologue: &str,
    attrs: impl Fn(u8) -> String,
) -> String {
    let mut html = String::from(prologue);
    let mut open = Vec::new();
    for (k, a) in tree.iter().take(40) {
        if k % 4 == 3 {
            if let Some(name) = open.pop() {
                html += &format!("</{name}>");
            }
            continue;
        }
        let name = names[*k as usize % names.len()];
        html += &format!("<{name}{}>", attrs(*a));
        open.push(name);
    }
    html
}

/// The `id` attributes (or else the names) of the elements `css` matches in `html`.
fn ids(html: &str, css: &str) -> Vec<String> {
    let doc = htmltok_tree::parse(html.as_bytes());
    let sel = Selector::parse(css).unwrap_or_else(|e| panic!("{e}"));
    let found: Vec<String> = doc
        .select(&sel)
        .map(|n| {
            n.attr("id")
                .map(|s| s.into_owned())
                .unwrap_or_else(|| n.name().unwrap().to_owned())
        })
        .collect();
    // Selector::matches agrees with the walk.
    let by_matches = one_by_one(doc.root(), &sel).len();
    assert_eq!(by_matches, found.len(), "{css}");
    found
}

const LIST: &str = "<!DOCTYPE html><ul id=u class='a B'>\
    <li id=l1 class=x>one</li><li id=l2 lang=en-GB>two <b id=b>b</b></li>\
    <li id=l3 class='x y' data-k=Value>three</li></ul><p id=p></p><p id=q><!--c--></p>";

#[test]
fn type_universal_class_id() {
    assert_eq!(ids(LIST, "li"), ["l1", "l2", "l3"]);
    assert_eq!(ids(LIST, ".x"), ["l1", "l3"]);
    assert_eq!(ids(LIST, ".x.y"), ["l3"]);
    assert_eq!(ids(LIST, "#l2"), ["l2"]);
    assert_eq!(ids(LIST, "ul *").len(), 4);
    assert_eq!(ids(LIST, "li, p"), ["l1", "l2", "l3", "p", "q"]);
}

#[test]
fn combinators() {
    assert_eq!(ids(LIST, "ul b"), ["b"]);
    assert_eq!(ids(LIST, "ul > b"), Vec::<String>::new());
    assert_eq!(ids(LIST, "#l1 + li"), ["l2"]);
    assert_eq!(ids(LIST, "#l1 ~ li"), ["l2", "l3"]);
    assert_eq!(ids(LIST, "ul + p"), ["p"]);
}

#[test]
fn attribute_operators_and_flags() {
    assert_eq!(ids(LIST, "[data-k]"), ["l3"]);
    assert_eq!(ids(LIST, "[data-k=Value]"), ["l3"]);
    assert_eq!(ids(LIST, "[data-k=value]"), Vec::<String>::new());
    assert_eq!(ids(LIST, "[data-k=value i]"), ["l3"]);
    assert_eq!(ids(LIST, "[data-k=Value s]"), ["l3"]);
    assert_eq!(ids(LIST, "[class~=y]"), ["l3"]);
    assert_eq!(ids(LIST, "[lang|=en]"), ["l2"]);
    assert_eq!(ids(LIST, "[data-k^=Va]"), ["l3"]);
    assert_eq!(ids(LIST, "[data-k$=ue]"), ["l3"]);
    assert_eq!(ids(LIST, "[data-k*=alu]"), ["l3"]);
    assert_eq!(ids(LIST, "[data-k^='']"), Vec::<String>::new());
    // HTML attribute names are lowercase in the DOM; the selector's are lowercased.
    assert_eq!(ids(LIST, "[DATA-K]"), ["l3"]);
}

#[test]
fn structural_pseudo_classes() {
    assert_eq!(ids(LIST, "li:first-child"), ["l1"]);
    assert_eq!(ids(LIST, "li:last-child"), ["l3"]);
    assert_eq!(ids(LIST, "li:nth-child(2n+1)"), ["l1", "l3"]);
    assert_eq!(ids(LIST, "li:nth-last-child(1)"), ["l3"]);
    assert_eq!(ids(LIST, "p:first-of-type"), ["p"]);
    assert_eq!(ids(LIST, "p:nth-last-of-type(1)"), ["q"]);
    assert_eq!(ids(LIST, "b:only-child"), ["b"]);
    assert_eq!(ids(LIST, "p:only-of-type"), Vec::<String>::new());
    assert_eq!(ids(LIST, "li:nth-child(odd of .x)"), ["l1"]);
    // :empty ignores comments.
    assert_eq!(ids(LIST, "p:empty"), ["p", "q"]);
    assert_eq!(ids(LIST, ":root"), ["html"]);
}

#[test]
fn logical_pseudo_classes() {
    assert_eq!(ids(LIST, "li:not(.x)"), ["l2"]);
    assert_eq!(ids(LIST, "li:not(.x, #l2)"), Vec::<String>::new());
    assert_eq!(ids(LIST, ":is(#l1, #b)"), ["l1", "b"]);
    assert_eq!(ids(LIST, ":where(ul) > .y"), ["l3"]);
    // :is is forgiving: the bad selector in the list is dropped (a pseudo-element too).
    assert_eq!(ids(LIST, ":is(#l1, ..bad)"), ["l1"]);
    assert_eq!(ids(LIST, ":is(li::text)"), Vec::<String>::new());
}

#[test]
fn has() {
    assert_eq!(ids(LIST, "li:has(b)"), ["l2"]);
    assert_eq!(ids(LIST, "ul:has(> li > b)"), ["u"]);
    assert_eq!(ids(LIST, "ul:has(> b)"), Vec::<String>::new());
    assert_eq!(ids(LIST, "li:has(+ #l3)"), ["l2"]);
    assert_eq!(ids(LIST, "li:has(~ .y)"), ["l1", "l2"]);
    assert_eq!(ids(LIST, "li:has(+ li b)"), ["l1"]);
    assert_eq!(ids(LIST, ":has(#b):not(html, body)"), ["u", "l2"]);
    assert_eq!(ids(LIST, "li:not(:has(b))"), ["l1", "l3"]);
    assert_eq!(ids(LIST, ":has(li.x):not(html, body)"), ["u"]);
    assert_eq!(ids(LIST, "li:has(b) b, ul:has(#b)"), ["u", "b"]);
    // :has does not nest (Selectors 4 § 4.5).
    assert!(Selector::parse("a:has(b:has(c))").is_err());
}

#[test]
fn lang_link_and_form_states() {
    assert_eq!(ids(LIST, ":lang(en)"), ["l2", "b"]);
    assert_eq!(ids(LIST, "b:lang(EN-gb)"), ["b"]);
    assert_eq!(ids(LIST, ":lang(fr)"), Vec::<String>::new());
    let html = "<a id=a href=x></a><a id=n></a><area id=r href=y>\
        <fieldset id=f disabled><legend><input id=i1></legend><input id=i2></fieldset>\
        <input id=c type=checkbox checked><input id=t checked><select><option id=o selected>\
        <optgroup disabled><option id=o2></select>";
    assert_eq!(ids(html, ":link"), ["a", "r"]);
    assert_eq!(ids(html, ":any-link"), ["a", "r"]);
    assert_eq!(ids(html, ":visited, :hover, :focus"), Vec::<String>::new());
    assert_eq!(ids(html, ":disabled"), ["f", "i2", "optgroup", "o2"]);
    assert_eq!(ids(html, "input:enabled"), ["i1", "c", "t"]);
    assert_eq!(ids(html, ":checked"), ["c", "o"]);
}

#[test]
fn case_rules_html() {
    // Type selectors match HTML elements ASCII case-insensitively.
    assert_eq!(ids(LIST, "LI#l1"), ["l1"]);
    // Class and id are case-sensitive in no-quirks mode...
    assert_eq!(ids(LIST, ".b"), Vec::<String>::new());
    assert_eq!(ids(LIST, ".B"), ["u"]);
    assert_eq!(ids(LIST, "#L1"), Vec::<String>::new());
    // ...and ASCII case-insensitive in quirks mode (no DOCTYPE).
    let quirks = "<ul id=u class='a B'><li id=l1>";
    assert_eq!(ids(quirks, ".b"), ["u"]);
    assert_eq!(ids(quirks, "#L1"), ["l1"]);
    // Limited quirks mode is case-sensitive.
    let limited = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\">\
        <p class=A id=x>";
    assert_eq!(ids(limited, ".a"), Vec::<String>::new());
}

#[test]
fn foreign_content() {
    let html = "<!DOCTYPE html><svg id=s viewBox='0 0 1 1'><foreignObject id=fo>\
        <p id=p></p></foreignObject><a id=l xlink:href=#x></a></svg>\
        <math id=m><mi id=i></mi></math>";
    // SVG names are compared as the DOM has them (adjusted camelCase).
    assert_eq!(ids(html, "foreignObject"), ["fo"]);
    assert_eq!(ids(html, "foreignobject"), Vec::<String>::new());
    assert_eq!(ids(html, "[viewBox]"), ["s"]);
    assert_eq!(ids(html, "[viewbox]"), Vec::<String>::new());
    // Namespaces: the usual prefixes.
    assert_eq!(ids(html, "svg|a"), ["l"]);
    assert_eq!(ids(html, "html|a"), Vec::<String>::new());
    assert_eq!(ids(html, "math|*"), ["m", "i"]);
    assert_eq!(ids(html, "svg|* > html|p"), ["p"]);
    // Namespaced attributes.
    assert_eq!(ids(html, "[xlink|href]"), ["l"]);
    assert_eq!(ids(html, "[*|href='#x']"), ["l"]);
    assert_eq!(ids(html, "[href]"), Vec::<String>::new());
    // 13.2.6.3: `xmlns` on a foreign element is `xmlns` in XMLNS (no prefix), `xmlns:xlink`
    // is `xlink` in XMLNS; an attribute selector without a namespace wants no namespace.
    let xmlns = "<svg id=s xmlns='http://www.w3.org/2000/svg' xmlns:xlink=u></svg><p id=p xmlns=x>";
    assert_eq!(ids(xmlns, "[xmlns|xmlns]"), ["s"]);
    assert_eq!(ids(xmlns, "[xmlns|xlink=u]"), ["s"]);
    assert_eq!(ids(xmlns, "[*|xmlns]"), ["s", "p"]);
    assert_eq!(ids(xmlns, "[xmlns]"), ["p"]);
    assert_eq!(ids(xmlns, "[xlink]"), Vec::<String>::new());
    // :link is for HTML a and area only.
    assert_eq!(ids(html, ":link"), Vec::<String>::new());
}

#[test]
fn node_select_and_scope() {
    let doc = htmltok_tree::parse(LIST.as_bytes());
    let ul = doc.select_first(&Selector::parse("ul").unwrap()).unwrap();
    let li = Selector::parse("li").unwrap();
    assert_eq!(ul.select(&li).count(), 3);
    let l2 = doc.select_first(&Selector::parse("#l2").unwrap()).unwrap();
    // Below a node, the selector still matches against the whole tree.
    let b = Selector::parse("ul b").unwrap();
    assert_eq!(l2.select(&b).count(), 1);
    // The node itself is not a result; `:scope` is the node.
    assert_eq!(l2.select(&li).count(), 0);
    assert_eq!(
        ul.select(&Selector::parse(":scope > li").unwrap()).count(),
        3
    );
    assert_eq!(
        l2.select(&Selector::parse(":scope > li").unwrap()).count(),
        0
    );
}

#[test]
fn pseudo_elements_and_fields() {
    let html = "<title> My  page </title><meta name=ROBOTS content='noindex'>\
        <p>one <b>two</b> three</p><a HREF=/a>A</a><a>B</a><svg><a xlink:href=/s></a></svg>";
    let fields = Fields::new([
        ("title", "title::text"),
        ("p", "p::text"),
        ("links", "a::attr(href)"),
        ("robots", "meta[name=robots i]::attr(CONTENT)"),
        ("b", "b"),
    ])
    .unwrap();
    let doc = htmltok_tree::parse(html.as_bytes());
    let cols = fields.extract(&doc);
    assert_eq!(cols[0], [" My  page "]);
    assert_eq!(cols[1], ["one ", " three"]);
    // The SVG `a`'s href is in the XLink namespace: not `::attr(href)`.
    assert_eq!(cols[2], ["/a"]);
    assert_eq!(cols[3], ["noindex"]);
    assert_eq!(cols[4], ["<b>two</b>"]);
    // A selector ending in a pseudo-element selects the elements it is taken from.
    let sel = Selector::parse("a::attr(href)").unwrap();
    assert_eq!(
        sel.pseudo_element(),
        Some(&PseudoElement::Attr("href".into()))
    );
    assert_eq!(doc.select(&sel).count(), 3);
    assert!(Fields::new([("x", "a"), ("x", "b")]).is_err());
    let err = Fields::new([("x", "a["), ("y", "b")]).unwrap_err();
    assert!(err.message.contains("field \"x\""), "{err}");
}

#[test]
fn errors_say_where_and_what() {
    let cases: &[(&str, usize, &str)] = &[
        ("a[", 2, "ends too soon"),
        ("a >", 3, "after the combinator"),
        ("", 0, "expected a selector"),
        ("a,", 2, "expected a selector"),
        ("a..b", 2, "class name"),
        ("a:nope", 2, "`nope`"),
        ("foo|a", 3, "namespace prefix `foo`"),
        ("a::before", 2, "`before`"),
        ("a::text b", 7, "unexpected `b`"),
        ("a::text, b", 0, "same pseudo-element"),
        (":not(a::text)", 12, "may only end a selector"),
        ("a:has(::text)", 7, "inside :has()"),
        ("a::text:is(b)", 1, "nothing may follow it"),
        ("a:has(b:has(c))", 12, "nested"),
        ("a[x=1=2]", 4, "attribute value"),
        (":nth-child(x)", 12, "unexpected `x`"),
        ("a::attr(1)", 8, "unexpected `1`"),
    ];
    for &(css, offset, words) in cases {
        let e = Selector::parse(css).expect_err(css);
        assert_eq!(e.selector, css);
        assert_eq!(e.offset, offset, "{e}");
        assert!(e.message.contains(words), "{css:?}: {e}");
    }
    // Deep nesting is refused before parsing.
    let deep = ":is(".repeat(10_000) + "a" + &")".repeat(10_000);
    let e = Selector::parse(&deep).unwrap_err();
    assert!(e.message.contains("nest"), "{e}");
    let ok = ":is(".repeat(MAX_NESTING) + "a" + &")".repeat(MAX_NESTING);
    assert!(Selector::parse(&ok).is_ok());
}

/// A million nested elements: matching and `:has` use loops, not the stack.
#[test]
fn million_nested() {
    let n = 1_000_000;
    let html = "<div>".repeat(n) + "<p class=x>" + &"</div>".repeat(n);
    let doc = htmltok_tree::parse(html.as_bytes());
    let sel = Selector::parse("div > div p.x").unwrap();
    assert_eq!(doc.select(&sel).count(), 1);
    let has = Selector::parse("body:has(p.x)").unwrap();
    assert_eq!(doc.select(&has).count(), 1);
    let has = Selector::parse("body > div:has(> div)").unwrap();
    assert_eq!(doc.select(&has).count(), 1);
    let fields = Fields::new([("p", "div > p::attr(class)")]).unwrap();
    assert_eq!(fields.extract(&doc), [vec!["x"]]);
    // Each `div` would walk all its ancestors looking for a `span` (quadratic: hours
    // here) but for the ancestor Bloom filter.
    assert_eq!(doc.select(&Selector::parse("span div").unwrap()).count(), 0);
    let fields = Fields::new([("d", "span div::text"), ("q", "p :is(div) ~ x")]).unwrap();
    assert_eq!(fields.extract(&doc), [Vec::<String>::new(), vec![]]);
    // `:has` tested on every `div`: each would walk its subtree (quadratic) but for the
    // one pass that marks every element with a matching descendant.
    assert_eq!(
        doc.select(&Selector::parse("div:has(p.x)").unwrap())
            .count(),
        n
    );
    assert_eq!(
        doc.select(&Selector::parse("div:has(span)").unwrap())
            .count(),
        0
    );
    let fields = Fields::new([("d", "div:has(p)::attr(id)")]).unwrap();
    assert_eq!(fields.extract(&doc), [Vec::<String>::new()]);
}

/// The ancestor filter never rejects a match: below a node (whose ancestors are in the
/// filter from the start), in quirks mode (ids and classes left out of it), through
/// pseudo-elements and sibling combinators.
#[test]
fn ancestor_filter_keeps_every_match() {
    for html in [
        "<!DOCTYPE html><main id=m class='a b'><section><div><p class=x>1</p><p>2</p>\
         </div></section><aside><p>3</p></aside></main><p>4</p>",
        "<main id=M class='A b'><section><div><p class=x>1</p><p>2</p></div></section>\
         <aside><p>3</p></aside></main><p>4</p>",
    ] {
        let doc = htmltok_tree::parse(html.as_bytes());
        for css in [
            "main p",
            "#m p, #M p",
            ".a p, .A p",
            "main > section p.x",
            "section div > p + p",
            "body > main ~ p",
            "main p::text",
            "html main aside > p",
            ":is(main, nav) p",
            "svg|* p, p",
        ] {
            let sel = Selector::parse(css).unwrap();
            let walked: Vec<_> = one_by_one(doc.root(), &sel);
            assert!(!walked.is_empty(), "{css}");
            assert_eq!(
                doc.select(&sel).collect::<Vec<_>>(),
                walked,
                "{css} in {html}"
            );
            let section = doc
                .select_first(&Selector::parse("section").unwrap())
                .unwrap();
            let below: Vec<_> = walked
                .iter()
                .copied()
                .filter(|n| section.descendants().any(|d| d == *n))
                .collect();
            assert_eq!(section.select(&sel).collect::<Vec<_>>(), below, "{css}");
        }
    }
}

/// Any text: `Selector::parse` answers (never panics), and what compiles matches a page
/// with foreign content, a template, quirks and forms without panicking, agreeing with
/// itself between `select` and `matches`.
#[test]
fn any_selector_text_parses_or_errs_and_matches_without_panic() {
    const PIECES: &[&str] = &[
        "a",
        "div",
        "p",
        "svg",
        "math",
        "foreignObject",
        "*",
        "|",
        "svg|",
        "xlink|",
        "*|",
        ".",
        "#",
        "x",
        "[",
        "]",
        "=",
        "~=",
        "^=",
        "$=",
        "*=",
        "|=",
        "\"v\"",
        "'",
        " i",
        " s",
        "(",
        ")",
        ",",
        " ",
        ">",
        "+",
        "~",
        ":",
        "::",
        "text",
        "attr(href)",
        ":has(",
        ":is(",
        ":where(",
        ":not(",
        ":nth-child(2n+1",
        " of ",
        ":lang(en",
        ":scope",
        ":root",
        ":empty",
        ":checked",
        ":disabled",
        ":link",
        "\\",
        "-",
        "1",
        "n",
    ];
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COMPILED: AtomicUsize = AtomicUsize::new(0);
    fn check(picks: Vec<u8>) -> bool {
        let css: String = picks
            .iter()
            .map(|&i| PIECES[i as usize % PIECES.len()])
            .collect();
        let doc = htmltok_tree::parse(
            b"<p class=x id=a>t<svg><a xlink:href=h><foreignObject><div>d</div></foreignObject>\
              </a></svg><math><mi>m</mi></math><template><a href=t></a></template>\
              <fieldset disabled><input checked type=radio></fieldset><a href=y lang=en>",
        );
        match Selector::parse(&css) {
            Err(e) => e.offset <= css.len() && !e.message.is_empty(),
            Ok(sel) => {
                COMPILED.fetch_add(1, Ordering::Relaxed);
                let all: Vec<_> = one_by_one(doc.root(), &sel);
                let selected: Vec<_> = doc.select(&sel).collect();
                let mut values = 0;
                for n in &selected {
                    sel.values(*n, |_| values += 1);
                }
                all == selected
            }
        }
    }
    quickcheck::QuickCheck::new()
        .tests(3000)
        .quickcheck(check as fn(Vec<u8>) -> bool);
    // Some of the random texts compile, so matching was exercised too.
    assert!(COMPILED.load(Ordering::Relaxed) > 30);
}

#[test]
fn extract_view_on_an_owned_document_is_extract() {
    let html = b"<title>T</title><a href=/a>a</a><p>x<a href=/b>b</a>".to_vec();
    let fields = Fields::new([("t", "title::text"), ("a", "p a[href]::attr(href)")]).unwrap();
    let borrowed = htmltok_tree::parse(&html);
    let owned = htmltok_tree::Parser::new().parse_owned(html.clone());
    assert_eq!(fields.extract_view(owned.view()), fields.extract(&borrowed));
    assert_eq!(fields.extract_view(owned.view()), [vec!["T"], vec!["/b"]]);
}

/// The walk offers each element only to the fields whose subject names fit it
/// (`fields::ByName`): its columns are those of selecting each field on its own.
#[test]
fn fields_by_name_give_what_select_gives() {
    let page = b"<!DOCTYPE html><html lang=en><title>T</title><h1 class=x>H</h1>\
        <p class=x>p1<a href=/a>A</a></p><A HREF=/b>B</A><svg><foreignObject><p>in</p>\
        </foreignObject><a href=/s lang=de>s</a></svg><math><mi class=x>m</mi></math>";
    let doc = htmltok_tree::parse(page);
    let fields = Fields::new([
        ("a", "a[href]::attr(href)"),
        ("fo", "foreignObject > p::text"),
        ("fo_lower", "foreignobject > p::text"),
        ("cls", ".x::text"),
        ("list", "h1::text, p::text"),
        ("lang", "*[lang]::attr(lang)"),
        ("mixed", "svg a, P"),
        ("title", "TITLE::text"),
    ])
    .unwrap();
    let columns = fields.extract(&doc);
    for (field, column) in fields.fields().iter().zip(&columns) {
        let mut want = Vec::new();
        for node in doc.select(&field.selector) {
            field.selector.values(node, |v| want.push(v.into_owned()));
        }
        assert_eq!(column, &want, "field {}", field.name);
    }
    assert_eq!(columns[0], ["/a", "/b", "/s"]);
    assert_eq!(columns[1], ["in"]);
    assert!(columns[2].is_empty());
    assert_eq!(columns[3], ["H", "p1", "m"]);
    assert_eq!(columns[5], ["en", "de"]);
    assert_eq!(columns[7], ["T"]);
}

/// `:has(~ C)` on 200,000 sibling `div`s: tested on each, a walk along the later
/// siblings is 2 * 10^10 steps; the cache answers every element in one pass. The cached
/// answers agree with the walk per anchor (`Selector::matches`, no cache) on a crafted
/// page.
#[test]
fn has_later_sibling_is_linear_and_agrees_with_the_walk() {
    let n = 200_000;
    let html = "<div></div>".repeat(n) + "<p></p><div></div>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("div:has(~ p)"), n);
    assert_eq!(count("div:has(~ span)"), 0);
    assert_eq!(count(":has(~ div)"), n + 1);
    let html = "<ul><li id=a><li id=b class=x><li id=c><b><i id=d></i><i id=e class=x></i></b>\
        <li id=f></ul><p id=g><template><i id=h></i><i id=j class=x></i></template>";
    let doc = htmltok_tree::parse(html.as_bytes());
    for css in [
        ":has(~ .x)",
        "li:has(~ li)",
        ":has(~ i, ~ li.x)",
        "i:has(~ *)",
        ":not(:has(~ *))",
    ] {
        let sel = Selector::parse(css).unwrap();
        let walked: Vec<_> = doc.select(&sel).collect();
        assert_eq!(walked, one_by_one(doc.root(), &sel), "{css}");
        assert!(!walked.is_empty(), "{css} matches something");
    }
}

/// `:has()` of one compound or more after any of the four combinators, answered for the
/// whole tree at once through a walk's cache (`has.rs`), agrees with the walk of each
/// anchor's reach (`Selector::matches`, no cache) on random trees, also inside `:not()`
/// and beside another `:has` in one list.
#[test]
fn has_passes_agree_with_the_walk_per_anchor() {
    const COMPOUNDS: &[&str] = &[
        "div",
        "p",
        "span",
        "a",
        "*",
        ".x",
        "b.x",
        ":is(p, a)",
        // Complex selectors nested in the compound: planned top down for the whole tree
        // (`topdown::compound_for_tree`).
        "p:not(div p)",
        ":is(div > span, a + b)",
        "b:where(span ~ b, .x b):not(p > *)",
        ":not(:is(a span))",
    ];
    fn check(tree: Vec<(u8, u8)>, picks: Vec<(u8, u8)>, wrap: u8) -> bool {
        let html = random_tree(&tree, RANDOM_NAMES, "<!DOCTYPE html>", |a| {
            if a % 3 == 0 { " class=x" } else { "" }.to_owned()
        });
        let doc = htmltok_tree::parse(html.as_bytes());
        let mut relative = String::new();
        for (c, join) in picks.iter().take(4) {
            relative += ["", "> ", "+ ", "~ "][*join as usize % 4];
            relative += COMPOUNDS[*c as usize % COMPOUNDS.len()];
            relative += " ";
        }
        if relative.is_empty() {
            return true;
        }
        // A leading ` ` written as nothing; the later ones between compounds.
        let relative = relative.trim_end();
        let css = match wrap % 4 {
            0 => format!(":has({relative})"),
            1 => format!("div:not(:has({relative}))"),
            2 => format!(":has({relative}, > b)"),
            _ => format!("p, :has({relative}) > *"),
        };
        let Ok(sel) = Selector::parse(&css) else {
            return false;
        };
        doc.select(&sel).collect::<Vec<_>>() == one_by_one(doc.root(), &sel)
    }
    quickcheck::QuickCheck::new()
        .tests(2000)
        .quickcheck(check as fn(Vec<(u8, u8)>, Vec<(u8, u8)>, u8) -> bool);
}

/// `:has()` of two or more compounds on 200,000 nested elements and on 200,000 siblings:
/// walked per anchor, each `div` would walk its whole subtree (or its later siblings and
/// their subtrees); the passes answer every element in one pass per compound.
#[test]
fn has_of_several_compounds_is_linear() {
    let n = 200_000;
    let html = "<div>".repeat(n) + "<span><p class=x></p></span>" + &"</div>".repeat(n);
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |doc: &htmltok_tree::Document<'_>, css: &str| {
        doc.select(&Selector::parse(css).unwrap()).count()
    };
    assert_eq!(count(&doc, "div:has(span p.x)"), n);
    assert_eq!(count(&doc, "div:has(div span > p)"), n - 1);
    assert_eq!(count(&doc, "div:has(> div > div span)"), n - 2);
    assert_eq!(count(&doc, "div:has(p span)"), 0);
    assert_eq!(count(&doc, "div:not(:has(div div p))"), 2);
    // A complex selector nested in a compound of the relative selector: `selectors`
    // would walk up from every element for it.
    assert_eq!(count(&doc, "div:has(> div:not(span div))"), n - 1);
    assert_eq!(count(&doc, "div:has(> div:is(body > div div))"), n - 1);
    assert_eq!(count(&doc, "div:has(div:not(body div))"), 0);
    let html = "<div></div>".repeat(n) + "<span><p class=x></p></span><div></div>";
    let doc = htmltok_tree::parse(html.as_bytes());
    assert_eq!(count(&doc, "div:has(~ span p.x)"), n);
    assert_eq!(count(&doc, "div:has(~ span + div)"), n);
    assert_eq!(count(&doc, "div:has(+ div ~ span > p)"), n - 1);
    assert_eq!(count(&doc, "div:has(~ span ~ span)"), 0);
}

/// `:disabled`, `:enabled` and `:lang()` answered through a walk's memo (`memo.rs`, the
/// selections) agree with the same pseudo-classes asked of one element without it
/// (`Selector::matches`, which walks up): fieldsets in fieldsets, first and later
/// `legend`s, a `legend` that is not the first element child, `xml:lang` in SVG.
#[test]
fn inherited_states_agree_with_and_without_the_memo() {
    let pages = [
        "<fieldset disabled><input><legend><input><fieldset><input></fieldset></legend>\
         <legend><input></legend><div><input><fieldset disabled><legend><button></button>\
         </legend><select><optgroup disabled><option></option></optgroup><option></option>\
         </select></fieldset></div></fieldset><fieldset><legend><textarea></textarea>\
         </legend></fieldset><input disabled>",
        "<div lang=en><p><span lang=''><b>x</b></span><i lang=de-AT>y<u>z</u></i></p>\
         <svg xml:lang=fr-CA lang=en><g><text>t</text></g></svg></div><p>no</p>",
    ];
    for html in pages {
        let doc = htmltok_tree::parse(html.as_bytes());
        for css in [
            ":disabled",
            ":enabled",
            ":lang(en)",
            ":lang(de)",
            ":lang(fr)",
            "legend :disabled",
        ] {
            let sel = Selector::parse(css).unwrap();
            let walked: Vec<_> = doc.select(&sel).collect();
            assert_eq!(walked, one_by_one(doc.root(), &sel), "{css} on {html}");
        }
    }
}

/// The pseudo-classes that ask an element's ancestors (`:lang()` for the language,
/// `:disabled` / `:enabled` for a disabled `fieldset` above) on 200,000 levels, and a
/// disabled `fieldset` with 200,000 children (each asking whether it is the first
/// `legend`): a walk up or along per element would be 10^10 steps; with the walk's memo
/// each element is answered once.
#[test]
fn deep_trees_are_linear_for_inherited_states() {
    let n = 200_000;
    let html = "<fieldset disabled>".to_owned() + &"<fieldset>".repeat(n) + "<input>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count(":disabled"), n + 2);
    assert_eq!(count(":enabled"), 0);
    let fields = Fields::new([("i", "fieldset input:disabled::attr(name)")]).unwrap();
    assert_eq!(fields.extract(&doc), [Vec::<String>::new()]);

    let html = "<div lang=en-GB>".to_owned() + &"<div>".repeat(n) + "<p>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count(":lang(en)"), n + 2);
    assert_eq!(count("div:lang(fr)"), 0);

    let html = "<fieldset disabled>".to_owned() + &"<legend><input></legend>".repeat(n);
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    // The first legend's input is enabled; the others' are not.
    assert_eq!(count("input:disabled"), n - 1);
    assert_eq!(count("input:enabled"), 1);
    let html = "<fieldset disabled>".to_owned() + &"<input>".repeat(n) + "<legend><input>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("input:disabled"), n);
    assert_eq!(count("legend input:enabled"), 1);
}

/// The shapes that were quadratic before the top-down matcher (`topdown.rs`): each
/// element matches or half-matches and `selectors` walked up to the root from it. At
/// 200,000 levels a walk to the root per element is 2 * 10^10 steps; top-down, each
/// compound is tested once per element.
#[test]
fn deep_trees_are_linear_for_descendant_and_child() {
    let n = 200_000;
    let html = "<div>".repeat(n) + "<p class=x>" + &"</div>".repeat(n);
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    // Every `div` but the first has a `div` above it and `body` at the top.
    assert_eq!(count("body div div"), n - 1);
    assert_eq!(count("html body div"), n);
    assert_eq!(count("html > body > div div > div"), n - 2);
    assert_eq!(count("body div div p.x"), 1);
    assert_eq!(count("div > div > p, body > div"), 2);
    let fields = Fields::new([("d", "body div div::attr(class)"), ("p", "div p::text")]).unwrap();
    assert_eq!(fields.extract(&doc), [Vec::<String>::new(), vec![]]);
    // Below a node: the prefixes matched above it (`html body`) count.
    let deep = doc.select(&Selector::parse("p").unwrap()).next().unwrap();
    let top = doc
        .select_first(&Selector::parse("body > div").unwrap())
        .unwrap();
    let below = Selector::parse("html body div div").unwrap();
    assert_eq!(top.select(&below).count(), n - 1);
    assert_eq!(deep.parent().unwrap().select(&below).count(), 0);
    assert_eq!(
        top.select(&Selector::parse(":scope > div div").unwrap())
            .count(),
        n - 2
    );

    // The names are all there but out of order: a `span` above every `div`, no `div`
    // above the `span`, so `div > span div` matches nothing, and every `div` would look
    // up to the root for a `div` parent of a `span`.
    let html = "<span>".to_owned() + &"<div>".repeat(n) + &"</div>".repeat(n) + "</span>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let count = |css: &str| doc.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("div > span div"), 0);
    assert_eq!(count("span div"), n);
    assert_eq!(count("body > span > div div"), n - 1);
    assert_eq!(count("span > div"), 1);
}

/// The shapes that were quadratic with the sibling combinators: on sibling `div`s, every
/// `div` of `p ~ div` looked at all the earlier ones (and found no `p`); on nested `div`s,
/// every `div` of `div ~ div div` looked at each ancestor's earlier siblings up to the
/// root; on nested pairs (`<div></div><div>` in each `div`), every second `div`'s
/// previous sibling of `body div + div` walked up to `body`. 200,000 elements: some
/// 10^10 steps right to left.
#[test]
fn deep_and_wide_trees_are_linear_for_siblings() {
    let n = 200_000;
    let wide = "<div></div>".repeat(n) + "<p>";
    let wide = htmltok_tree::parse(wide.as_bytes());
    let count = |css: &str| wide.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("p ~ div"), 0);
    assert_eq!(count("body div ~ div"), n - 1);
    assert_eq!(count("div + div + div"), n - 2);
    assert_eq!(count("body > div ~ div + p"), 1);
    assert_eq!(count("span ~ div ~ p, div ~ div ~ p"), 1);
    let body = wide
        .select_first(&Selector::parse("body").unwrap())
        .unwrap();
    assert_eq!(
        body.select(&Selector::parse("html > body > div ~ div").unwrap())
            .count(),
        n - 1
    );

    let nested = "<div>".repeat(n) + &"</div>".repeat(n);
    let nested = htmltok_tree::parse(nested.as_bytes());
    let count = |css: &str| nested.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("div ~ div div"), 0);
    assert_eq!(count("div + div div"), 0);
    assert_eq!(count("body div + div"), 0);
    assert_eq!(count("head + body div div"), n - 1);

    // In each `div` of class b an empty `div` of class a, then the next b.
    let pairs = "<div class=a></div><div class=b>".repeat(n / 2) + &"</div>".repeat(n / 2);
    let pairs = htmltok_tree::parse(pairs.as_bytes());
    let count = |css: &str| pairs.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("body div + div"), n / 2);
    assert_eq!(count("body div ~ div"), n / 2);
    assert_eq!(count("div + div > div + div"), n / 2 - 1);
    // Every a below the top b, and the last b.
    assert_eq!(count("div ~ div div:empty"), n / 2);
    // Below the top b: its previous sibling (outside the scope) counts.
    let top = pairs
        .select_first(&Selector::parse("body > .b").unwrap())
        .unwrap();
    let below = Selector::parse("div + div div").unwrap();
    assert_eq!(top.select(&below).count(), n - 2);
    let fields = Fields::new([
        ("pairs", "body div + div::attr(class)"),
        ("empty", "div ~ div > div:empty::attr(class)"),
    ])
    .unwrap();
    let columns = fields.extract(&pairs);
    assert_eq!(columns[0], vec!["b"; n / 2]);
    assert_eq!(columns[1].len(), n / 2);
    assert_eq!(columns[1].iter().filter(|c| *c == "a").count(), n / 2 - 1);
}

/// Top-down matching (`topdown.rs`) and `selectors`' right-to-left matching (what
/// `Selector::matches` does) agree on random trees and random selectors made of
/// compounds and the four combinators (mixed chains like `a ~ b > c d + e`), on the
/// whole document, below a node, and as fields.
#[test]
fn top_down_is_right_to_left() {
    const COMPOUNDS: &[&str] = &[
        "div",
        "p",
        "span",
        "a",
        "*",
        ".x",
        "#i",
        "div.x",
        "[title]",
        "p:first-child",
        ":is(p, a)",
        ":not(.x)",
        ":scope",
        "[title=T i]",
        "A",
        "span:nth-child(2n)",
        ":root",
        "b:only-child",
        ":is(:has(b))",
        "div:not(:has(> a))",
    ];
    fn check(tree: Vec<(u8, u8)>, picks: Vec<(u8, u8)>, quirks: bool) -> bool {
        let prologue = if quirks { "" } else { "<!DOCTYPE html>" };
        let html = random_tree(&tree, RANDOM_NAMES, prologue, |a| {
            let class = ["", " class=x", " class=X", " id=i"][a as usize % 4];
            let title = if a & 4 != 0 { " title=t" } else { "" };
            format!("{class}{title}")
        });
        let doc = htmltok_tree::parse(html.as_bytes());
        let mut css = String::new();
        for (i, (c, join)) in picks.iter().take(5).enumerate() {
            if i > 0 {
                css += COMBINATORS[*join as usize % 4];
            }
            css += COMPOUNDS[*c as usize % COMPOUNDS.len()];
        }
        if css.is_empty() {
            return true;
        }
        let Some(all) = top_down_as_right_to_left(&doc, &css) else {
            return false;
        };
        // As a field beside another.
        let fields = Fields::new([("s", css.as_str()), ("b", "b")]).unwrap();
        fields.extract(&doc)[0].len() == all.len()
    }
    quickcheck::QuickCheck::new()
        .tests(2000)
        .quickcheck(check as fn(Vec<(u8, u8)>, Vec<(u8, u8)>, bool) -> bool);
}

/// Plans wider than one 64-bit word: many fields, a long selector list, and selectors of
/// more than 64 compounds (straddling two words, a prefix carried from bit 63 of one
/// word to bit 0 of the next): the same matches as right to left.
#[test]
fn top_down_plans_of_many_words() {
    let html = "<!DOCTYPE html><main><section class=a><div><p id=x>1</p><p class=b>2</p>\
                </div></section><aside><ul><li><a href=/h>h</a></li></ul></aside></main>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let shapes = [
        "main section div p",
        "main > section > div > p.b",
        "body main aside ul > li > a[href]",
        "html body main p",
        "section p#x",
        "aside a",
        "div > p",
    ];
    // 40 fields of 2 to 6 compounds: 160 bits, three words.
    let pairs: Vec<(String, &str)> = (0..40)
        .map(|i| (format!("f{i}"), shapes[i % shapes.len()]))
        .collect();
    let fields = Fields::new(pairs.iter().map(|(n, s)| (n.as_str(), *s))).unwrap();
    assert!(fields.plan.as_ref().is_some_and(|p| !p.is_empty()));
    let columns = fields.extract(&doc);
    for (field, column) in fields.fields().iter().zip(&columns) {
        let want = doc
            .root()
            .descendants()
            .filter(|n| field.selector.matches(*n))
            .count();
        assert_eq!(column.len(), want, "{}", field.selector.source());
        assert!(want > 0, "{}", field.selector.source());
    }
    // One list of 20 selectors of up to 6 compounds.
    let list = shapes.repeat(3).join(", ");
    let sel = Selector::parse(&list).unwrap();
    assert!(sel.plan.is_some());
    let all: Vec<_> = one_by_one(doc.root(), &sel);
    assert_eq!(all.len(), 3);
    assert_eq!(doc.select(&sel).collect::<Vec<_>>(), all);
    // 70 compounds and more, straddling words: top down too.
    let long = "html ".to_owned() + &"* ".repeat(68) + "p";
    let sel = Selector::parse(&long).unwrap();
    assert!(sel.plan.is_some());
    assert_eq!(doc.select(&sel).count(), 0);
    let deep = "<div>".repeat(80) + "<p>";
    let deep = htmltok_tree::parse(deep.as_bytes());
    for (css, want) in [
        ("html ".to_owned() + &":not(p) ".repeat(68) + "p", 1),
        ("body > ".to_owned() + &"div > ".repeat(80) + "p", 1),
        ("body > ".to_owned() + &"div > ".repeat(79) + "p", 0),
        ("b, ".repeat(50) + "html " + &"div ".repeat(70) + "p", 1),
        ("b, ".repeat(50) + "body " + &"div ".repeat(81) + "p", 0),
    ] {
        let sel = Selector::parse(&css).unwrap();
        assert!(sel.plan.is_some());
        let all: Vec<_> = one_by_one(deep.root(), &sel);
        assert_eq!(all.len(), want, "{css}");
        assert_eq!(deep.select(&sel).collect::<Vec<_>>(), all, "{css}");
    }
}

/// Found by the `select` fuzz target: a compound that `matches_simple` does not answer
/// (here `:first-child`) at bit 32 or above of a plan's word set a bit of an `i32` (the
/// inferred type of the flag `rest` in `Walk::matches`): a shift overflow, a panic in
/// debug builds.
#[test]
fn top_down_compound_past_bit_31_that_is_not_simple() {
    let doc = htmltok_tree::parse(b"<!DOCTYPE html><p>a</p><div><span>b</span></div>");
    let css = "b, ".repeat(40) + ":first-child";
    let sel = Selector::parse(&css).unwrap();
    assert!(sel.plan.is_some());
    let all: Vec<_> = one_by_one(doc.root(), &sel);
    let names: Vec<_> = all.iter().map(|n| n.name().unwrap()).collect();
    assert_eq!(names, ["html", "head", "p", "span"]);
    assert_eq!(doc.select(&sel).collect::<Vec<_>>(), all);
}

/// The selectors and fields the scan/walk comparisons use: flat (`a[href]`, the issue's
/// ten fields) and with each combinator, so every top-down plan shape is scanned.
const SCAN_SELECTORS: &[&str] = &[
    "a[href]",
    "p",
    "*",
    ".x",
    "td:not(.x)",
    ":nth-child(2)",
    "div > p",
    "div p + p",
    "p ~ a",
    "table td",
    "svg *",
    "a[href]::attr(href)",
    "title::text",
];

/// The ten fields and two with combinators.
fn scan_fields() -> Vec<(&'static str, &'static str)> {
    let mut fields = htmltok_test_support::data::TEN_FIELDS.to_vec();
    fields.extend([("nested", "div > p::text"), ("after", "h1 ~ p::text")]);
    fields
}

/// `doc.select` and `Fields::extract_each` on the whole document (which scan the arena
/// when it is in tree order) give what the walk gives. Returns whether the arena was in
/// tree order (so that the callers can check both cases ran).
fn scan_agrees_with_walk(html: &[u8], fields: &[&Fields]) -> bool {
    let doc = htmltok_tree::parse(html);
    let view = doc.view();
    for css in SCAN_SELECTORS {
        let sel = Selector::parse(css).unwrap();
        let ids = |m: Matches<'_, '_>| m.map(|n| n.id()).collect::<Vec<_>>();
        let scanned = ids(doc.select(&sel));
        let walked = ids(Matches::new(&sel, view.root(), None, false));
        assert_eq!(
            scanned,
            walked,
            "{css} on {}",
            String::from_utf8_lossy(html)
        );
        assert_eq!(
            doc.select_first(&sel).map(|n| n.id()),
            walked.first().copied()
        );
    }
    for fields in fields {
        let mut scanned = Vec::new();
        fields.extract_each_by(view, true, |i, v| scanned.push((i, v)));
        let mut walked = Vec::new();
        fields.extract_each_by(view, false, |i, v| walked.push((i, v)));
        assert_eq!(
            scanned,
            walked,
            "fields on {}",
            String::from_utf8_lossy(html)
        );
    }
    doc.in_tree_order()
}

/// On corpus-like documents (and on the shared corpus when it is there) the scan of the
/// arena and the walk find the same elements and fields.
#[test]
fn scan_and_walk_agree_on_pages() {
    let ten = Fields::new(scan_fields()).unwrap();
    let mut pages: Vec<Vec<u8>> = vec![
        b"<!DOCTYPE html><html lang=en><head><title>T</title>\
          <meta name=description content=d><link rel=canonical href=/c>\
          <link rel=alternate hreflang=de href=/de></head><body><h1>H</h1><p>x</p>\
          <div><p>a<a href=/1>1</a></p><p>b</p></div><img src=i.png><a href=/2>2</a>"
            .to_vec(),
        // Foster parenting and the adoption agency algorithm: walked.
        b"<table>x<tr><td class=x>1<td>2</table><a href=/x><p>y</a>z".to_vec(),
        // A template's contents are not searched either way.
        b"<p><template><a href=/t>t</a></template><a href=/u>u</a>".to_vec(),
        b"<svg><a href=/s><text>t</text></a></svg><math><mi>m</mi></math><p>x".to_vec(),
    ];
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");
    if let Ok(dirs) = std::fs::read_dir(corpus) {
        for dir in dirs.flatten() {
            for page in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if page.path().extension().is_some_and(|e| e == "html") {
                    pages.push(std::fs::read(page.path()).unwrap());
                }
            }
        }
    }
    let in_order = pages
        .iter()
        .filter(|p| scan_agrees_with_walk(p, &[&ten]))
        .count();
    // Both ways ran.
    assert!(in_order >= 2 && in_order < pages.len(), "{in_order}");
}

/// On random trees (with the tree builder's corners: tables, formatting elements,
/// templates, foreign content) the scan and the walk agree.
#[test]
fn scan_and_walk_agree_on_random_trees() {
    const NAMES: &[&str] = &[
        "div", "p", "a", "b", "td", "tr", "table", "template", "svg", "title", "h1", "span",
        "select", "option", "img", "li",
    ];
    let fields = Fields::new(scan_fields()).unwrap();
    let (runs, mut in_order) = (1500, 0);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..runs {
        let tree: Vec<(u8, u8)> = (0..40)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ((x >> 8) as u8, (x >> 16) as u8)
            })
            .collect();
        let html = random_tree(&tree, NAMES, "", |a| match a % 4 {
            0 => " class=x href=/h".to_owned(),
            1 => " src=s".to_owned(),
            // Text after the start tag.
            2 => ">t".to_owned(),
            _ => String::new(),
        });
        in_order += usize::from(scan_agrees_with_walk(html.as_bytes(), &[&fields]));
    }
    // Both ways ran.
    assert!(
        in_order > runs / 10 && in_order < runs,
        "{in_order} of {runs}"
    );
}

/// Complex selectors nested in `:is()` / `:where()` / `:not()` (matched by the top-down
/// plan's auxiliary entries, `topdown::Nested`) and `:has()` at the top level beside
/// combinators: top down as `Selector::matches` right to left, on random trees and
/// random selectors nested up to three deep (`a:not(div > p ~ span:is(b, .x a))`,
/// `div p:has(~ a) + span`), on the whole document, below each element, and as a field.
#[test]
fn nested_complex_and_has_top_down_is_right_to_left() {
    const BASE: &[&str] = &[
        "div",
        "p",
        "span",
        "a",
        "*",
        ".x",
        "#i",
        "[title]",
        "p:first-child",
        "b:only-child",
        "A",
        ":scope",
    ];
    const HAS: &[&str] = &[
        ":has(b)",
        ":has(> a)",
        ":has(~ p)",
        ":has(+ span b)",
        ":has(p:not(div p))",
        ":has(~ :is(a > b, :scope b))",
    ];
    fn complex(bytes: &mut impl Iterator<Item = u8>, depth: usize) -> String {
        let n = 1 + bytes.next().unwrap_or(0) as usize % 3;
        let mut css = String::new();
        for i in 0..n {
            if i > 0 {
                css += COMBINATORS[bytes.next().unwrap_or(0) as usize % 4];
            }
            css += &compound(bytes, depth);
        }
        css
    }
    fn compound(bytes: &mut impl Iterator<Item = u8>, depth: usize) -> String {
        let b = bytes.next().unwrap_or(0) as usize;
        let mut css = BASE[b % BASE.len()].to_owned();
        if depth < 3 && !(b / 16).is_multiple_of(3) {
            css += [":not(", ":is(", ":where("][b / 48 % 3];
            for i in 0..1 + b / 144 % 2 {
                if i > 0 {
                    css += ", ";
                }
                css += &complex(bytes, depth + 1);
            }
            css += ")";
        }
        if depth == 0 && b.is_multiple_of(5) {
            css += HAS[b / 5 % HAS.len()];
        }
        css
    }
    fn check(tree: Vec<(u8, u8)>, picks: Vec<u8>) -> bool {
        let html = random_tree(&tree, RANDOM_NAMES, "<!DOCTYPE html>", |a| {
            let class = ["", " class=x", " id=i", ""][a as usize % 4];
            let title = if a & 4 != 0 { " title=t" } else { "" };
            format!("{class}{title}")
        });
        let doc = htmltok_tree::parse(html.as_bytes());
        let css = complex(&mut picks.into_iter(), 0);
        let Some(all) = top_down_as_right_to_left(&doc, &css) else {
            return false;
        };
        let fields = Fields::new([("b", "b"), ("s", css.as_str())]).unwrap();
        fields.extract(&doc)[1].len() == all.len()
    }
    quickcheck::QuickCheck::new()
        .tests(2000)
        .quickcheck(check as fn(Vec<(u8, u8)>, Vec<u8>) -> bool);
}

/// The shapes that stayed quadratic after the top-down matcher: complex selectors nested
/// in `:is()` / `:where()` / `:not()`, which `selectors` matched by walking up from each
/// element (to the root when the ancestor part matches far up or not at all), and `:has`
/// at the top level with combinators (right to left, each element looking up or back).
/// 200,000 elements, nested and side by side.
#[test]
fn deep_and_wide_trees_are_linear_for_nested_complex_and_has() {
    let n = 200_000;
    let nested = "<div>".repeat(n) + "<p class=x>" + &"</div>".repeat(n);
    let nested = htmltok_tree::parse(nested.as_bytes());
    let count = |css: &str| nested.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("div:not(span div)"), n);
    assert_eq!(count("div:not(body > div div)"), 1);
    assert_eq!(count("div:is(body > div div)"), n - 1);
    assert_eq!(count("div:where(div + div, span div)"), 0);
    assert_eq!(count(":is(html div) div"), n - 1);
    assert_eq!(count("p:is(div > p):not(:is(span, a) p)"), 1);
    assert_eq!(count("div div:has(p)"), n - 1);
    assert_eq!(count("div:has(p.x) > div"), n - 1);
    assert_eq!(count("body div:has(p) div"), n - 1);
    assert_eq!(count("body div:has(> p) + div, div:has(span) div"), 0);
    let fields = Fields::new([
        ("d", "div:not(span div)::attr(class)"),
        ("p", "div p:has(b)"),
    ])
    .unwrap();
    assert_eq!(fields.extract(&nested), [Vec::<String>::new(), vec![]]);
    let top = nested
        .select_first(&Selector::parse("body > div").unwrap())
        .unwrap();
    assert_eq!(
        top.select(&Selector::parse("div:is(html > body div)").unwrap())
            .count(),
        n - 1
    );

    // The names all there but out of order: a `span` above every `div`.
    let in_span = "<span>".to_owned() + &"<div>".repeat(n) + &"</div>".repeat(n) + "</span>";
    let in_span = htmltok_tree::parse(in_span.as_bytes());
    let count = |css: &str| in_span.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("div:not(div > span div)"), n);
    assert_eq!(count("div:is(span > div div)"), n - 1);

    let wide = "<div></div>".repeat(n) + "<p>";
    let wide = htmltok_tree::parse(wide.as_bytes());
    let count = |css: &str| wide.select(&Selector::parse(css).unwrap()).count();
    assert_eq!(count("p ~ div:has(b)"), 0);
    assert_eq!(count("div ~ div:has(~ p)"), n - 1);
    assert_eq!(count("p ~ div:has(~ p)"), 0);
    assert_eq!(count("div:not(p ~ div)"), n);
    assert_eq!(count("div:is(div + div + div)"), n - 2);
    assert_eq!(count("p:not(span ~ p, body > p ~ *)"), 1);
    assert_eq!(count(":is(div ~ div) ~ p"), 1);
}

/// The flat fast path (`flat.rs`) gives what the general top-down walk gives, order
/// included: on random trees (HTML elements of interned and uninterned names, SVG
/// elements of the same names and of camelCase ones, attributes, classes and ids, quirks and no-quirks) and
/// random lists of flat selectors, through `select` on the document and below each
/// element (the strings of `next_with_values` too, which a selector testing the
/// attribute it gives, `[href]::attr(href)`, takes from its test), as
/// `Selector::matches` answers one by one, and as fields beside each other.
#[test]
fn flat_is_the_general_walk() {
    // `clippath` and `foreignobject` are camelCased in SVG (`foreignObject`'s tag is
    // interned, its SVG local name is not the tag's).
    const NAMES: &[&str] = &[
        "a",
        "div",
        "p",
        "my-x",
        "svg",
        "img",
        "title",
        "clippath",
        "foreignobject",
    ];
    const TYPES: &[&str] = &[
        "a",
        "div",
        "my-x",
        "svg",
        "A",
        "*",
        "",
        "img",
        "*|a",
        "clipPath",
        "foreignObject",
        "foreignobject",
        "title",
    ];
    const CONDITIONS: &[&str] = &[
        "[href]",
        "[title=t]",
        "[title=T i]",
        "[href^=\"/\"]",
        ".x",
        "#i",
        "[class~=x]",
        "[HREF]",
        "[title]",
        "[TITLE]",
    ];
    const PSEUDOS: &[&str] = &["", "::attr(href)", "::text", "::attr(TITLE)"];
    fn selector(bytes: &mut impl Iterator<Item = u8>, pseudo: &str) -> String {
        let mut css = TYPES[bytes.next().unwrap_or(0) as usize % TYPES.len()].to_owned();
        for _ in 0..bytes.next().unwrap_or(0) % 3 {
            css += CONDITIONS[bytes.next().unwrap_or(0) as usize % CONDITIONS.len()];
        }
        if css.is_empty() {
            css += "*";
        }
        css + pseudo
    }
    fn check(tree: Vec<(u8, u8)>, picks: Vec<u8>, quirks: bool) -> bool {
        let prologue = if quirks { "" } else { "<!DOCTYPE html>" };
        let html = random_tree(&tree, NAMES, prologue, |a| {
            let class = ["", " class=x", " class=X", " id=i"][a as usize % 4];
            let title = if a & 4 != 0 { " title=t" } else { "" };
            let href = if a & 8 != 0 { " href=/h" } else { "" };
            let text = if a & 16 != 0 { ">t" } else { "" };
            format!("{class}{title}{href}{text}")
        });
        let doc = htmltok_tree::parse(html.as_bytes());
        let mut bytes = picks.into_iter();
        let pseudo = PSEUDOS[bytes.next().unwrap_or(0) as usize % PSEUDOS.len()];
        let lists: Vec<String> = (0..3)
            .map(|_| {
                let n = 1 + bytes.next().unwrap_or(0) % 2;
                let list: Vec<String> = (0..n).map(|_| selector(&mut bytes, pseudo)).collect();
                list.join(", ")
            })
            .collect();
        for css in &lists {
            let sel = Selector::parse(css).unwrap();
            assert!(sel.flat.is_some(), "{css}");
            let general = Selector {
                flat: None,
                ..sel.clone()
            };
            let ids = |m: Matches<'_, '_>| m.map(|n| n.id()).collect::<Vec<_>>();
            let flat = ids(doc.select(&sel));
            if flat != ids(doc.select(&general)) {
                return false;
            }
            // `fold` (through `for_each`): one loop over the walk, the same matches.
            let folded = |m: Matches<'_, '_>| {
                let mut out = Vec::new();
                m.for_each(|n| out.push(n.id()));
                out
            };
            if folded(doc.select(&sel)) != flat || folded(doc.select(&general)) != flat {
                return false;
            }
            // The strings, as `next_with_values` gives them and as `values` gives them
            // for the general walk's matches.
            let with_values = |mut m: Matches<'_, '_>| {
                let mut out = Vec::new();
                while let Some(n) = m.next_with_values(|v| out.push(v.into_owned())) {
                    out.push(format!("<{}>", n.id()));
                }
                out
            };
            let values = |m: Matches<'_, '_>| {
                let mut out = Vec::new();
                for n in m {
                    general.values(n, |v| out.push(v.into_owned()));
                    out.push(format!("<{}>", n.id()));
                }
                out
            };
            if with_values(doc.select(&sel)) != values(doc.select(&general)) {
                return false;
            }
            // `for_each_value`: the strings alone, the flat form's and the general walk's.
            let each = |m: Matches<'_, '_>| {
                let mut out = Vec::new();
                m.for_each_value(|v| out.push(v.into_owned()));
                out
            };
            let strings = |m: Matches<'_, '_>| {
                let mut out = Vec::new();
                for n in m {
                    general.values(n, |v| out.push(v.into_owned()));
                }
                out
            };
            if each(doc.select(&sel)) != strings(doc.select(&general))
                || each(doc.select(&general)) != strings(doc.select(&general))
            {
                return false;
            }
            let one: Vec<_> = one_by_one(doc.root(), &sel)
                .iter()
                .map(|n| n.id())
                .collect();
            if flat != one {
                return false;
            }
            for node in doc.root().descendants().filter(|n| n.is_element()) {
                if ids(node.select(&sel)) != ids(node.select(&general))
                    || with_values(node.select(&sel)) != values(node.select(&general))
                    || each(node.select(&sel)) != strings(node.select(&general))
                {
                    return false;
                }
            }
        }
        let fields =
            Fields::new(lists.iter().enumerate().map(|(i, l)| (i.to_string(), l))).unwrap();
        assert!(fields.flat.is_some());
        let mut general = fields.clone();
        general.flat = None;
        let (mut got, mut want) = (Vec::new(), Vec::new());
        fields.extract_each(doc.view(), |i, v| got.push((i, v)));
        general.extract_each(doc.view(), |i, v| want.push((i, v)));
        got == want
    }
    quickcheck::QuickCheck::new()
        .tests(2000)
        .quickcheck(check as fn(Vec<(u8, u8)>, Vec<u8>, bool) -> bool);
}
