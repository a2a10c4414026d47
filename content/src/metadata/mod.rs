//! A page's metadata as a crawler reads it, from the tree: one walk over the document's
//! elements (template contents are not in the document and are not read).
//!
//! Where the HTML standard says how a user agent reads a piece, that is the rule here:
//! the document base URL (§ 4.2.3, [`crate::base`]), the language (§ 3.2.6.2, the `lang`
//! attribute and the `Content-Language` pragma, § 4.2.5.3), the refresh pragma
//! ([`refresh`]), link types as sets of space-separated tokens matched ASCII
//! case-insensitively (§ 4.6.1), metadata names matched ASCII case-insensitively
//! (§ 4.2.5.1). Where only search engines say (robots directives, `rel=nofollow`, `ugc`,
//! `sponsored`, `canonical`), their documented reading is the rule; see [`robots`] and
//! the fields' docs.

pub mod refresh;
pub mod robots;

use htmltok_tree::{Ns, Tag};

use crate::Tree;
use url::Url;

use crate::base::{document_base_url, resolve};
pub use refresh::Refresh;
pub use robots::{ImagePreview, Robots};

/// A URL attribute: its value as written and as resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Href {
    /// The attribute's value, character references decoded, ASCII whitespace trimmed.
    pub raw: String,
    /// `raw` parsed relative to the document base URL; None when it does not parse (a
    /// relative reference in a document without a URL, a bad host, …).
    pub url: Option<String>,
}

/// `<link rel="alternate" hreflang="…" href="…">`: the page in another language or region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternate {
    /// The `hreflang` value as written, trimmed (`de`, `en-GB`, `x-default`).
    pub hreflang: String,
    /// The alternate page.
    pub href: Href,
}

/// An `a` or `area` link that asks crawlers not to pass trust to its target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QualifiedLink {
    /// `a` or `area`.
    pub element: &'static str,
    /// Where the element's start tag begins in the input (bytes).
    pub offset: usize,
    /// The link's target.
    pub href: Href,
    /// `rel` has `nofollow`.
    pub nofollow: bool,
    /// `rel` has `ugc` (user-generated content).
    pub ugc: bool,
    /// `rel` has `sponsored` (advertising, paid placement).
    pub sponsored: bool,
}

/// What [`metadata`] reads from a page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The document's title (`document.title`: the first `title` element's text, ASCII
    /// whitespace stripped and collapsed).
    pub title: Option<String>,
    /// The document base URL (see [`crate::base::document_base_url`]).
    pub base_url: Option<String>,
    /// The first `<link rel="canonical" href>` inside the `head` element. One in the body
    /// is not read: search engines ignore it there (Google Search Central, "rel=canonical
    /// in the body"), since a page's users can often write into its body.
    pub canonical: Option<Href>,
    /// The directives of every `<meta name="robots" content>` (see [`robots`]).
    pub robots: Robots,
    /// The directives of every `<meta name="googlebot" content>`.
    pub googlebot: Robots,
    /// The first `<meta name="description">`'s `content`, trimmed.
    pub description: Option<String>,
    /// Open Graph fields: `<meta property="og:…" content>` (or `name="og:…"`, which pages
    /// also write), in document order, names ASCII-lowercased, repeats kept (an
    /// `og:image` may come several times).
    pub open_graph: Vec<(String, String)>,
    /// Twitter card fields: `<meta name="twitter:…" content>` (or `property=`), as above.
    pub twitter: Vec<(String, String)>,
    /// The `lang` attribute of the document element (`<html lang>`) as written, when it
    /// has one (an empty value says the language is unknown).
    pub lang: Option<String>,
    /// The pragma-set default language: the last `<meta http-equiv="content-language">`
    /// whose content is one tag (HTML § 4.2.5.3, "Content language state").
    pub content_language: Option<String>,
    /// `<link rel="alternate" hreflang href>` elements, in document order.
    pub alternates: Vec<Alternate>,
    /// The first `<meta http-equiv="refresh">` whose content parses (see [`refresh`]).
    pub refresh: Option<Refresh>,
    /// The text of each `<script type="application/ld+json">`, as written.
    pub json_ld: Vec<String>,
    /// The `a` and `area` links with `rel` `nofollow`, `ugc` or `sponsored`, in document
    /// order (every other link is followed as usual).
    pub qualified_links: Vec<QualifiedLink>,
}

impl Metadata {
    /// The page's language as HTML § 3.2.6.2 gives it for the document element: its
    /// `lang` attribute when it has one (None when that is empty: unknown), else the
    /// pragma-set default language. (The HTTP `Content-Language` header comes after these
    /// and is the caller's.)
    pub fn language(&self) -> Option<&str> {
        match &self.lang {
            Some(lang) => Some(lang.as_str()).filter(|l| !l.is_empty()),
            None => self.content_language.as_deref(),
        }
    }
}

fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_ascii_whitespace)
}

/// Whether the set of space-separated tokens `value` has `token` (ASCII
/// case-insensitive).
fn has_token(value: &str, token: &str) -> bool {
    value
        .split(is_ascii_whitespace)
        .any(|t| t.eq_ignore_ascii_case(token))
}

/// Whether a MIME type's essence is `essence` (parameters after `;` and whitespace
/// ignored, ASCII case-insensitive): `application/ld+json; charset=utf-8` is JSON-LD.
fn mime_essence_is(value: &str, essence: &str) -> bool {
    let before_parameters = value.split(';').next().unwrap_or("");
    trim(before_parameters).eq_ignore_ascii_case(essence)
}

/// The page's metadata (see [`Metadata`]'s fields for each rule). `document_url` is the
/// page's own URL (a WARC record's target URI, the fetched URL), against which a `<base
/// href>` is resolved and which is the base URL when there is none.
///
/// ```
/// use url::Url;
/// let doc = htmltok_tree::parse(br#"<html lang=de><head>
///   <link rel=canonical href="/a?x=1">
///   <meta name=ROBOTS content="noindex, max-snippet:20">
///   <meta property="og:title" content="Hallo">
/// </head><body><a href="/ad" rel="sponsored nofollow">ad</a>"#);
/// let url = Url::parse("https://example.org/dir/page").unwrap();
/// let m = htmltok_content::metadata(&doc, Some(&url));
/// assert_eq!(m.canonical.as_ref().unwrap().url.as_deref(), Some("https://example.org/a?x=1"));
/// assert!(m.robots.noindex && !m.robots.nofollow);
/// assert_eq!(m.robots.max_snippet, Some(20));
/// assert_eq!(m.open_graph, [("og:title".to_string(), "Hallo".to_string())]);
/// assert_eq!(m.language(), Some("de"));
/// assert!(m.qualified_links[0].sponsored && m.qualified_links[0].nofollow);
/// ```
pub fn metadata<D: Tree + ?Sized>(doc: &D, document_url: Option<&Url>) -> Metadata {
    let view = doc.view();
    let doc = &view;
    let base = document_base_url(doc.base_href().as_deref(), document_url);
    let href = |raw: &str| {
        let raw = trim(raw);
        Href {
            raw: raw.to_string(),
            url: resolve(raw, base.as_ref()),
        }
    };
    let html_element = doc
        .document_element()
        .filter(|e| e.element_name().is_some_and(|n| n.is_html(Tag::Html)));
    let head = doc.head().map(|h| h.id());
    let mut m = Metadata {
        title: doc.title(),
        base_url: base.as_ref().map(|u| u.as_str().to_string()),
        lang: html_element
            .and_then(|e| e.attr("lang"))
            .map(|l| l.into_owned()),
        ..Metadata::default()
    };
    for node in doc.root().descendants() {
        let Some(name) = node.element_name() else {
            continue;
        };
        if name.ns != Ns::Html {
            continue;
        }
        match name.tag {
            Tag::Meta => {
                let Some(content) = node.attr("content") else {
                    continue;
                };
                if let Some(equiv) = node.attr("http-equiv") {
                    m.pragma(trim(&equiv), &content, base.as_ref(), document_url);
                }
                // Both attributes are read: one element may be `description` by name
                // and `og:description` by property (news sites write this). The same
                // key in both (`property=og:title name=og:title`) counts once.
                let property = node.attr("property");
                let property = property.as_deref().map(trim);
                if let Some(key) = property {
                    m.named(key, &content, false);
                }
                if let Some(key) = node.attr("name").as_deref().map(trim)
                    && !property.is_some_and(|p| p.eq_ignore_ascii_case(key))
                {
                    m.named(key, &content, true);
                }
            }
            Tag::Link => {
                let (Some(rel), Some(target)) = (node.attr("rel"), node.attr("href")) else {
                    continue;
                };
                if m.canonical.is_none() && has_token(&rel, "canonical") {
                    let in_head = std::iter::successors(node.parent(), |p| p.parent())
                        .any(|p| Some(p.id()) == head);
                    if in_head {
                        m.canonical = Some(href(&target));
                    }
                }
                if has_token(&rel, "alternate")
                    && let Some(lang) = node.attr("hreflang")
                {
                    m.alternates.push(Alternate {
                        hreflang: trim(&lang).to_string(),
                        href: href(&target),
                    });
                }
            }
            Tag::A | Tag::Area => {
                let (Some(rel), Some(target)) = (node.attr("rel"), node.attr("href")) else {
                    continue;
                };
                let (nofollow, ugc, sponsored) = (
                    has_token(&rel, "nofollow"),
                    has_token(&rel, "ugc"),
                    has_token(&rel, "sponsored"),
                );
                if nofollow || ugc || sponsored {
                    m.qualified_links.push(QualifiedLink {
                        element: if name.tag == Tag::A { "a" } else { "area" },
                        offset: node.span().start,
                        href: href(&target),
                        nofollow,
                        ugc,
                        sponsored,
                    });
                }
            }
            Tag::Script
                if node
                    .attr("type")
                    .is_some_and(|t| mime_essence_is(&t, "application/ld+json")) =>
            {
                m.json_ld.push(node.text().into_owned());
            }
            _ => {}
        }
    }
    m
}

impl Metadata {
    /// A `<meta http-equiv>` pragma (HTML § 4.2.5.3): the keyword is matched ASCII
    /// case-insensitively; a pragma needs a non-empty `content`.
    fn pragma(
        &mut self,
        equiv: &str,
        content: &str,
        base: Option<&Url>,
        document_url: Option<&Url>,
    ) {
        if content.is_empty() {
            return;
        }
        if equiv.eq_ignore_ascii_case("refresh") {
            // "Will declaratively refresh": only the first refresh that parses counts.
            if self.refresh.is_none() {
                self.refresh = refresh::parse(content, base, document_url);
            }
        } else if equiv.eq_ignore_ascii_case("content-language") {
            // Content language state: no comma; the first run of non-whitespace.
            if content.contains(',') {
                return;
            }
            let candidate = trim(content)
                .split(is_ascii_whitespace)
                .next()
                .unwrap_or("");
            if !candidate.is_empty() {
                self.content_language = Some(candidate.to_string());
            }
        }
    }

    /// A `<meta name>` (`is_name`) or `<meta property>` with its content. Robots and
    /// description are metadata names (`name` only); Open Graph and Twitter keys are read
    /// from either attribute.
    fn named(&mut self, key: &str, content: &str, is_name: bool) {
        let prefixed = |prefix: &str| {
            key.get(..prefix.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        };
        if is_name && key.eq_ignore_ascii_case("robots") {
            self.robots.add(content);
        } else if is_name && key.eq_ignore_ascii_case("googlebot") {
            self.googlebot.add(content);
        } else if is_name && key.eq_ignore_ascii_case("description") {
            self.description
                .get_or_insert_with(|| trim(content).to_string());
        } else if prefixed("og:") {
            self.open_graph
                .push((key.to_ascii_lowercase(), content.to_string()));
        } else if prefixed("twitter:") {
            self.twitter
                .push((key.to_ascii_lowercase(), content.to_string()));
        }
    }
}
