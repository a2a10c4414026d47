//! The outgoing links of a document: the URL-valued attributes, resolved as a browser
//! resolves them.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};
use htmltok::{Span, Tag, Token, Tokenizer};
use url::Url;

use super::resolve::{self, FastBase};
use crate::batch::Document;

/// The URL-valued attributes, by element, in the order [`links`] reports them within one
/// tag: `a/area/link[href]`, `img/source[src, srcset]`, `link[imagesrcset]`,
/// `script/iframe/frame/embed/input/track/audio/video[src]`, `video[poster]`,
/// `form[action]`, `button/input[formaction]`, `object[data]`,
/// `blockquote/q/del/ins[cite]`.
pub const LINK_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("a", &["href"]),
    ("area", &["href"]),
    ("link", &["href", "imagesrcset"]),
    ("img", &["src", "srcset"]),
    ("source", &["src", "srcset"]),
    ("script", &["src"]),
    ("iframe", &["src"]),
    ("frame", &["src"]),
    ("embed", &["src"]),
    ("track", &["src"]),
    ("audio", &["src"]),
    ("video", &["src", "poster"]),
    ("input", &["src", "formaction"]),
    ("button", &["formaction"]),
    ("form", &["action"]),
    ("object", &["data"]),
    ("blockquote", &["cite"]),
    ("q", &["cite"]),
    ("del", &["cite"]),
    ("ins", &["cite"]),
];

/// A set of the elements of [`LINK_ATTRIBUTES`], to collect the links of some elements
/// only ([`links_of_elements`]): the others are skipped before their values are decoded or
/// resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementSet(u32);

impl ElementSet {
    /// Every element of [`LINK_ATTRIBUTES`].
    pub const ALL: ElementSet = ElementSet((1 << LINK_ATTRIBUTES.len()) - 1);

    /// No element (only the `<base href>` is read).
    pub const NONE: ElementSet = ElementSet(0);

    /// The elements named (lowercase, as in [`LINK_ATTRIBUTES`]); names of other elements
    /// are ignored (they carry no links).
    pub fn of<'n>(names: impl IntoIterator<Item = &'n str>) -> ElementSet {
        ElementSet(
            names
                .into_iter()
                .filter_map(|name| link_attribute_index(name.as_bytes()))
                .fold(0, |set, i| set | 1 << i),
        )
    }

    /// Whether `element` is in the set.
    pub fn contains(self, element: &str) -> bool {
        link_attribute_index(element.as_bytes()).is_some_and(|i| self.0 & 1 << i != 0)
    }
}

/// The index in [`LINK_ATTRIBUTES`] of the element `name`, by one `match` (a test checks
/// that they agree).
fn link_attribute_index(name: &[u8]) -> Option<usize> {
    let index = match name {
        b"a" => 0,
        b"area" => 1,
        b"link" => 2,
        b"img" => 3,
        b"source" => 4,
        b"script" => 5,
        b"iframe" => 6,
        b"frame" => 7,
        b"embed" => 8,
        b"track" => 9,
        b"audio" => 10,
        b"video" => 11,
        b"input" => 12,
        b"button" => 13,
        b"form" => 14,
        b"object" => 15,
        b"blockquote" => 16,
        b"q" => 17,
        b"del" => 18,
        b"ins" => 19,
        _ => return None,
    };
    Some(index)
}

/// One link of a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The element it is on (`a`, `img`, …; one of [`LINK_ATTRIBUTES`]).
    pub element: &'static str,
    /// The attribute it is in (`href`, `src`, `srcset`, …).
    pub attribute: &'static str,
    /// The value as written, character references decoded and ASCII whitespace trimmed
    /// (for a `srcset`, one of its URLs).
    pub raw: String,
    /// The URL resolved against the document's base URL when there is one; else `raw`
    /// parsed as an absolute URL (normalised), or `raw` itself when it does not parse.
    pub url: String,
    /// Where the attribute's value is in the document as tokenized (the decoded HTML):
    /// byte offsets, quotes excluded; for a `srcset`, the whole value.
    pub span: Span,
}

impl Link {
    /// Whether the URL is a `data:` URL (content rather than a link; `htmltok links`
    /// leaves them out unless asked).
    pub fn is_data_url(&self) -> bool {
        self.url
            .get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
    }
}

/// Every link of `html` (UTF-8, as decoded), in document order; see [`links_with`].
/// `base` is the document's URL, against which a `<base href>` in the document is
/// resolved and which is the base URL when there is none; relative URLs stay as written
/// without either.
///
/// ```
/// use htmltok_crawl::extract;
/// use url::Url;
///
/// let base = Url::parse("https://example.org/dir/page.html").unwrap();
/// let links = extract::links(b"<a href='../x?q=1'>x</a><img srcset='a.png 1x, b.png 2x'>", Some(&base));
/// let urls: Vec<&str> = links.iter().map(|l| l.url.as_str()).collect();
/// assert_eq!(urls, ["https://example.org/x?q=1", "https://example.org/dir/a.png", "https://example.org/dir/b.png"]);
/// assert_eq!((links[0].element, links[0].attribute, links[0].raw.as_str()), ("a", "href", "../x?q=1"));
/// ```
pub fn links(html: &[u8], base: Option<&Url>) -> Vec<Link> {
    links_with(&mut Tokenizer::new(html), base, None)
}

/// Every link of a batch document, with the document's encoding for the queries and its
/// URL (a WARC record's target URI) as the base, or `base` when it has none.
pub fn document_links(document: &Document<'_>, base: Option<&Url>) -> Vec<Link> {
    let own = document.url().and_then(|url| Url::parse(url.trim()).ok());
    let encoding = document.decoded_as().map(|d| d.encoding);
    links_with(&mut document.tokenizer(), own.as_ref().or(base), encoding)
}

/// Every link of the document `tokenizer` reads, in document order (within a tag, in the
/// order of [`LINK_ATTRIBUTES`]; each URL of a `srcset` is one link), resolved against its
/// base URL: the first `<base href>`, resolved against `document_url`, else
/// `document_url`. The query of a URL is percent-encoded from `encoding` (the document's),
/// as HTML's "encoding-parse a URL" says; None means UTF-8. Empty values are left out.
pub fn links_with(
    tokenizer: &mut Tokenizer<'_>,
    document_url: Option<&Url>,
    encoding: Option<&'static Encoding>,
) -> Vec<Link> {
    links_of_elements(tokenizer, document_url, encoding, ElementSet::ALL)
}

/// As [`links_with`], the links of the elements in `elements` only (a `<base href>` is
/// honoured whatever the set).
///
/// ```
/// use htmltok::Tokenizer;
/// use htmltok_crawl::extract::{ElementSet, links_of_elements};
///
/// let html = b"<a href=a.html>a</a><img src=i.png><area href=m.html>";
/// let links = links_of_elements(&mut Tokenizer::new(html), None, None, ElementSet::of(["a", "area"]));
/// let raw: Vec<&str> = links.iter().map(|l| l.raw.as_str()).collect();
/// assert_eq!(raw, ["a.html", "m.html"]);
/// ```
pub fn links_of_elements(
    tokenizer: &mut Tokenizer<'_>,
    document_url: Option<&Url>,
    encoding: Option<&'static Encoding>,
    elements: ElementSet,
) -> Vec<Link> {
    let mut collector = Collector::new(elements);
    while let Some(token) = tokenizer.next_token() {
        collector.token(&token);
    }
    if collector.needs_tree() {
        collector.set_base_href(super::by_tree::title_and_base(tokenizer.input()).1);
    }
    collector.finish(document_url, encoding)
}

/// The document's base `href` as written: that of the first HTML `base` element with an
/// `href` in tree order (HTML § 4.2.3), read from the tokens, or where they cannot tell,
/// from the tree (see `extract::by_tree`). The base that [`links`] resolves against.
///
/// ```
/// use htmltok_crawl::extract::base_href;
///
/// assert_eq!(base_href(b"<base target=_top><base href='/docs/'>").as_deref(), Some("/docs/"));
/// // In a template's contents or in SVG, a <base> is no document base.
/// assert_eq!(base_href(b"<template><base href=/t></template><svg><base href=/s>"), None);
/// ```
pub fn base_href(html: &[u8]) -> Option<String> {
    let mut tokenizer = Tokenizer::new(html);
    let mut collector = Collector::new(ElementSet::NONE);
    while let Some(token) = tokenizer.next_token() {
        collector.token(&token);
    }
    if collector.needs_tree() {
        collector.set_base_href(super::by_tree::title_and_base(html).1);
    }
    collector.base_href
}

/// A link found, not resolved yet.
struct Found {
    element: &'static str,
    attribute: &'static str,
    raw: String,
    span: Span,
}

/// Collects the links of a document token by token.
pub(crate) struct Collector {
    found: Vec<Found>,
    base_href: Option<String>,
    elements: ElementSet,
    /// Whether tokens can tell the base (`extract::by_tree`).
    watch: super::by_tree::Watch,
}

impl Default for Collector {
    fn default() -> Collector {
        Collector::new(ElementSet::ALL)
    }
}

impl Collector {
    pub(crate) fn new(elements: ElementSet) -> Collector {
        Collector {
            found: Vec::new(),
            base_href: None,
            elements,
            watch: super::by_tree::Watch::default(),
        }
    }

    /// Called for every token, so kept small enough to inline: most tokens are not start
    /// tags, and most start tags carry no link.
    #[inline]
    pub(crate) fn token(&mut self, token: &Token<'_, '_>) {
        let tag = match token {
            Token::StartTag(tag) => tag,
            Token::Text(run) if self.watch.watches_text() => {
                self.watch.text(run.kind(), run.raw(), b"base");
                return;
            }
            _ => return,
        };
        // Tell from the raw name's bytes, without decoding it (`Tag::name` would lowercase
        // into a new string where there is upper case): a lowercase name first, the common
        // case; then its ASCII-lowercased copy. (A name with a NUL, which the tokenizer
        // turns into U+FFFD, or with other bytes outside ASCII matches no name either way.)
        let raw = tag.raw_name();
        let mut lower = [0; 10];
        let index = match link_attribute_index(raw) {
            Some(index) => index,
            None if raw.len() <= lower.len() && raw.iter().any(u8::is_ascii_uppercase) => {
                let lower = &mut lower[..raw.len()];
                lower.copy_from_slice(raw);
                lower.make_ascii_lowercase();
                match link_attribute_index(lower) {
                    Some(index) => index,
                    None if lower == b"base" => return self.base(tag),
                    None => return self.other(raw),
                }
            }
            None if raw == b"base" => return self.base(tag),
            None => return self.other(raw),
        };
        if self.elements.0 & 1 << index != 0 {
            self.link_tag(index, tag);
        }
    }

    /// A start tag of no link element: after one that the tokens cannot see past (see
    /// `extract::by_tree`), the base comes from the tree.
    #[inline]
    fn other(&mut self, raw: &[u8]) {
        self.watch.start_tag(raw);
    }

    /// Whether the base must come from the tree (`extract::by_tree`).
    pub(crate) fn needs_tree(&self) -> bool {
        self.watch.needs_tree
    }

    /// The base `href`, as the tree has it.
    pub(crate) fn set_base_href(&mut self, href: Option<String>) {
        self.base_href = href;
    }

    /// A `<base>`: the first one with an `href` sets the document's base URL.
    #[cold]
    fn base(&mut self, tag: &Tag<'_, '_>) {
        if self.base_href.is_none()
            && let Some(href) = tag.attr("href")
        {
            self.base_href = Some(href.value().into_owned());
            self.watch.found();
        }
    }

    /// A start tag of `LINK_ATTRIBUTES[index]`'s element.
    #[inline(never)]
    fn link_tag(&mut self, index: usize, tag: &Tag<'_, '_>) {
        let (element, attributes) = LINK_ATTRIBUTES[index];
        for &attribute in attributes {
            let Some(attr) = tag.attr(attribute) else {
                continue;
            };
            let value = attr.value();
            let span = attr
                .value_span()
                .unwrap_or(Span::new(attr.span().end, attr.span().end));
            if attribute.ends_with("srcset") {
                for url in srcset_urls(&value) {
                    self.found.push(Found {
                        element,
                        attribute,
                        raw: url.to_string(),
                        span,
                    });
                }
            } else {
                let value = value.trim_matches(is_ascii_whitespace);
                if !value.is_empty() {
                    self.found.push(Found {
                        element,
                        attribute,
                        raw: value.to_string(),
                        span,
                    });
                }
            }
        }
    }

    pub(crate) fn finish(
        self,
        document_url: Option<&Url>,
        encoding: Option<&'static Encoding>,
    ) -> Vec<Link> {
        // The document base URL (HTML § 2.4.1, § 4.2.3): the first base element with an
        // href, resolved against the fallback base URL (here, the document URL); the rule
        // lives in htmltok-content, which reads the page's metadata against it too.
        let base = htmltok_content::document_base_url(self.base_href.as_deref(), document_url);
        // Query strings are encoded from the document's encoding when it is not UTF-8.
        let legacy = encoding.filter(|e| e.output_encoding() != UTF_8);
        let encode = |text: &str| -> Vec<u8> {
            match legacy {
                Some(encoding) => encoding.encode(text).0.into_owned(),
                None => text.as_bytes().to_vec(),
            }
        };
        let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &|text| Cow::Owned(encode(text));
        // The common cases without the URL parser (exactly its output: see `resolve`).
        let fast_base = base.as_ref().and_then(FastBase::new);
        self.found
            .into_iter()
            .map(|found| {
                let url = resolve::resolve(&found.raw, fast_base.as_ref(), base.is_some())
                    .unwrap_or_else(|| {
                        Url::options()
                            .base_url(base.as_ref())
                            .encoding_override(legacy.map(|_| encode))
                            .parse(&found.raw)
                            .map_or_else(|_| found.raw.clone(), String::from)
                    });
                Link {
                    element: found.element,
                    attribute: found.attribute,
                    url,
                    raw: found.raw,
                    span: found.span,
                }
            })
            .collect()
    }
}

fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r')
}

/// The URLs of a srcset attribute, as HTML § 4.8.4.3.10 "parse a srcset attribute"
/// finds them (descriptors skipped).
pub fn srcset_urls(value: &str) -> Vec<&str> {
    let mut urls = Vec::new();
    let bytes = value.as_bytes();
    let mut i = 0;
    loop {
        // Skip whitespace and commas.
        while i < bytes.len() && (bytes[i] == b',' || is_ascii_whitespace(bytes[i] as char)) {
            i += 1;
        }
        if i >= bytes.len() {
            return urls;
        }
        let start = i;
        while i < bytes.len() && !is_ascii_whitespace(bytes[i] as char) {
            i += 1;
        }
        let url = &value[start..i];
        if let Some(stripped) = url.strip_suffix(',') {
            // A URL ending in commas has no descriptors.
            urls.push(stripped.trim_end_matches(','));
            continue;
        }
        urls.push(url);
        // Skip the descriptors: up to a comma outside parentheses.
        let mut in_parens = false;
        while i < bytes.len() {
            match bytes[i] {
                b'(' => in_parens = true,
                b')' => in_parens = false,
                b',' if !in_parens => break,
                _ => {}
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links_of(html: &str, url: Option<&str>) -> Vec<(String, String, String)> {
        let url = url.map(|u| Url::parse(u).unwrap());
        links(html.as_bytes(), url.as_ref())
            .into_iter()
            .map(|l| (l.element.to_string(), l.attribute.to_string(), l.url))
            .collect()
    }

    fn triple(e: &str, a: &str, u: &str) -> (String, String, String) {
        (e.to_string(), a.to_string(), u.to_string())
    }

    #[test]
    fn link_attributes_is_the_table() {
        for (i, &(element, _)) in LINK_ATTRIBUTES.iter().enumerate() {
            assert_eq!(link_attribute_index(element.as_bytes()), Some(i));
        }
        assert_eq!(LINK_ATTRIBUTES.len(), 20);
        assert_eq!(link_attribute_index(b"p"), None);
        assert_eq!(link_attribute_index(b"base"), None);
    }

    #[test]
    fn names_from_raw_bytes() {
        // Upper-case and odd names give the links `Tag::name` would.
        let got = links_of(
            "<A HREF=x><IMG Src=y><a\0 href=z><\u{c0} href=w><BASE href=http://b/><BlockQuote cite=v>",
            None,
        );
        assert_eq!(
            got,
            [
                triple("a", "href", "http://b/x"),
                triple("img", "src", "http://b/y"),
                triple("blockquote", "cite", "http://b/v"),
            ]
        );
    }

    #[test]
    fn element_sets() {
        let set = ElementSet::of(["a", "img", "p", "base"]);
        assert!(set.contains("a") && set.contains("img"));
        assert!(!set.contains("area") && !set.contains("p") && !set.contains("base"));
        assert_eq!(
            ElementSet::of(LINK_ATTRIBUTES.iter().map(|e| e.0)),
            ElementSet::ALL
        );
        assert_eq!(ElementSet::of([]), ElementSet::of(["nothing"]));
        // The subset's links are the full list's, filtered, in the same order; a
        // `<base>` counts whatever the set.
        let html = "<a href=1><base href='https://b.example/d/'><img src=2 srcset='3 1x'>\
                    <a href=4><form action=5><area href=6>";
        let all = links(html.as_bytes(), None);
        for names in [&["a"][..], &["img", "area"], &["form"], &[]] {
            let set = ElementSet::of(names.iter().copied());
            let some = links_of_elements(&mut Tokenizer::new(html.as_bytes()), None, None, set);
            let expected: Vec<Link> = all
                .iter()
                .filter(|l| set.contains(l.element))
                .cloned()
                .collect();
            assert_eq!(some, expected, "{names:?}");
        }
        assert_eq!(all[0].url, "https://b.example/d/1");
    }

    #[test]
    fn srcset() {
        assert_eq!(
            srcset_urls(" a.jpg 1x, b.jpg 2x,c.jpg,, d,e.jpg 100w"),
            ["a.jpg", "b.jpg", "c.jpg", "d,e.jpg"]
        );
        assert_eq!(srcset_urls("x.png (a, b) 1x, y.png"), ["x.png", "y.png"]);
        assert!(srcset_urls(" , ").is_empty());
    }

    #[test]
    fn resolves_against_first_base() {
        let got = links_of(
            "<a href='/before?x=1&amp;y'>x</a><base href='sub/'><base href='/other/'>\
             <img src=' pic.png ' srcset='a.png 1x, b.png 2x'><a href=''>self</a>\
             <form action=go></form><link rel=stylesheet href=https://cdn.example/s.css>",
            Some("https://example.org/dir/page.html"),
        );
        assert_eq!(
            got,
            [
                triple("a", "href", "https://example.org/before?x=1&y"),
                triple("img", "src", "https://example.org/dir/sub/pic.png"),
                triple("img", "srcset", "https://example.org/dir/sub/a.png"),
                triple("img", "srcset", "https://example.org/dir/sub/b.png"),
                triple("form", "action", "https://example.org/dir/sub/go"),
                triple("link", "href", "https://cdn.example/s.css"),
            ]
        );
    }

    #[test]
    fn unresolved_without_a_url() {
        let got = links_of(
            "<a href=rel/x>x</a><a href='HTTP://Example.COM'>y</a><a href='http://[bad'>z</a>",
            None,
        );
        assert_eq!(
            got,
            [
                triple("a", "href", "rel/x"),
                triple("a", "href", "http://example.com/"),
                triple("a", "href", "http://[bad"),
            ]
        );
        // An absolute <base> works without a document URL.
        let got = links_of("<base href='https://b.example/x/'><a href=y>", None);
        assert_eq!(got, [triple("a", "href", "https://b.example/x/y")]);
    }

    #[test]
    fn query_in_the_document_encoding() {
        let url = Url::parse("https://example.ru/").unwrap();
        let html = "<a href='/search?q=\u{41f}\u{440}\u{438}#\u{43c}'>";
        let got = links_with(
            &mut Tokenizer::new(html.as_bytes()),
            Some(&url),
            Some(encoding_rs::WINDOWS_1251),
        );
        // The query from windows-1251, the fragment from UTF-8 (as a browser does).
        assert_eq!(got[0].url, "https://example.ru/search?q=%CF%F0%E8#%D0%BC");
        let got = links(html.as_bytes(), Some(&url));
        assert_eq!(
            got[0].url,
            "https://example.ru/search?q=%D0%9F%D1%80%D0%B8#%D0%BC"
        );
    }

    #[test]
    fn raw_values_and_spans() {
        let html = "<p><a href=\" /x&amp;y \">t</a><img srcset='a 1x, b 2x'><a href>";
        let got = links(html.as_bytes(), None);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0].raw, "/x&y");
        assert_eq!(&html[got[0].span.range()], " /x&amp;y ");
        assert_eq!((got[1].raw.as_str(), got[2].raw.as_str()), ("a", "b"));
        assert_eq!(&html[got[1].span.range()], "a 1x, b 2x");
        assert_eq!(got[1].span, got[2].span);
    }

    #[test]
    fn data_urls() {
        let got = links(
            b"<img src='data:image/png;base64,AA'><a href=DATA:,x><a href=/d>",
            None,
        );
        let data: Vec<bool> = got.iter().map(Link::is_data_url).collect();
        assert_eq!(data, [true, true, false]);
    }
}
