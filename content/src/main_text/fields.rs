//! The title, byline and date, from the page's `meta` elements and `title` (the head's
//! children); where those are silent, from the JSON-LD of the article (or the page), and
//! then from the body: the headline its first `h1` shows, an element marked as the
//! author, the first `time` element.

use htmltok_tree::{DocumentRef, Name, NodeRef, Tag, strip_and_collapse_ascii_whitespace};
use serde_json::{Map, Value};

use super::cues;
use super::jsonld::{self, JsonLd};
use super::reads::Reads;

/// The fields found.
#[derive(Default)]
pub(crate) struct Fields {
    pub(crate) title: Option<String>,
    pub(crate) byline: Option<String>,
    pub(crate) date: Option<String>,
}

/// Reads the head's `meta` elements: `og:title` (else the `title` element) for the
/// title; `author` or `article:author` (not a URL) for the byline; the first of
/// `article:published_time`, `datePublished`, `date`, `pubdate`, `dc.date`,
/// `dcterms.created` for the date; where they leave a field empty, the page's JSON-LD
/// (`ld`, parsed already), then the body.
pub(crate) fn fields_with(doc: &DocumentRef<'_>, ld: &JsonLd, reads: &mut Reads) -> Fields {
    let mut f = read(doc, || ld, false);
    if f.byline.is_none() || f.date.is_none() {
        from_body(doc, &mut f, reads);
    }
    f
}

/// [`fields_with`]' title alone, the JSON-LD (`ld`) asked for only if the page has no
/// title: the byline and the date, which take a walk of the body, are not looked for.
pub(crate) fn title<'l>(doc: &DocumentRef<'_>, ld: impl Fn() -> &'l JsonLd) -> Option<String> {
    read(doc, ld, true).title
}

/// [`fields_with`] but the body: the `meta` elements, then the JSON-LD (`ld`, called only
/// when a field is still empty); with `title_only`, what the title needs.
fn read<'l>(doc: &DocumentRef<'_>, ld: impl Fn() -> &'l JsonLd, title_only: bool) -> Fields {
    let mut f = Fields::default();
    let mut og_title = None;
    if let Some(head) = doc.head() {
        for meta in head
            .children()
            .filter(|n| n.element_name().is_some_and(|n| n.is_html(Tag::Meta)))
        {
            let key = meta
                .attr("property")
                .or_else(|| meta.attr("name"))
                .or_else(|| meta.attr("itemprop"));
            let Some(key) = key else { continue };
            let key = key.to_ascii_lowercase();
            // Which field the key fills, if it is still empty (the content is read and
            // decoded only then: long descriptions are common and not needed).
            let slot = match key.as_str() {
                "og:title" => &mut og_title,
                "author" | "article:author" | "dc.creator" => &mut f.byline,
                "article:published_time"
                | "datepublished"
                | "date"
                | "pubdate"
                | "dc.date"
                | "dcterms.created"
                | "dc.date.issued" => &mut f.date,
                _ => continue,
            };
            if slot.is_some() {
                continue;
            }
            let Some(content) = meta.attr("content") else {
                continue;
            };
            let content = strip_and_collapse_ascii_whitespace(&content);
            // An author given as a profile URL is not a byline.
            if content.is_empty() || (key.contains("author") && content.starts_with("http")) {
                continue;
            }
            *slot = Some(content);
        }
    }
    // The title element is the head's child on nearly every page: look there first, and
    // walk the document (as `document.title` does) only when it is not.
    let head_title = doc.head().and_then(|head| {
        head.children()
            .find(|n| n.element_name().is_some_and(|n| n.is_html(Tag::Title)))
            .map(|t| strip_and_collapse_ascii_whitespace(&t.text()))
    });
    f.title = og_title
        .or(head_title)
        .or_else(|| doc.title())
        .filter(|t| !t.is_empty())
        .map(|title| without_site_name(doc, title));
    let others_missing = !title_only && (f.byline.is_none() || f.date.is_none());
    if f.title.is_none() || others_missing {
        from_json_ld(ld(), &mut f);
    }
    f
}

/// How well a JSON-LD object's types say it is the page's article: 0 for an article or
/// a posting (`Article`, `NewsArticle`, `BlogPosting`, `DiscussionForumPosting`,
/// `Report`, …), 1 for a page (`WebPage`, `ItemPage`, …), None for the rest (the site,
/// its organisation, its breadcrumbs).
fn article_rank(object: &Map<String, Value>) -> Option<u8> {
    jsonld::types(object)
        .filter_map(|t| {
            if t.ends_with("Article") || t.ends_with("Posting") || t == "Report" {
                Some(0)
            } else if t.ends_with("Page") {
                Some(1)
            } else {
                None
            }
        })
        .min()
}

/// Fills the empty fields from the JSON-LD objects of an article (else of a page):
/// `headline` (else `name`) for the title, `author` for the byline, `datePublished`
/// (else `dateCreated`) for the date; an article's value before a page's.
fn from_json_ld(ld: &JsonLd, f: &mut Fields) {
    let mut ranked: Vec<(u8, &Map<String, Value>)> = ld
        .objects()
        .filter_map(|o| article_rank(o).map(|rank| (rank, o)))
        .collect();
    if ranked.is_empty() {
        return;
    }
    // Stable: the page's order within a rank.
    ranked.sort_by_key(|&(rank, _)| rank);
    let first = |read: &dyn Fn(&Map<String, Value>) -> Option<String>| {
        ranked.iter().find_map(|&(_, object)| read(object))
    };
    if f.title.is_none() {
        f.title = first(&|o| text(o.get("headline")).or_else(|| text(o.get("name"))));
    }
    if f.byline.is_none() {
        f.byline = first(&|o| o.get("author").and_then(|a| person(a, ld)));
    }
    if f.date.is_none() {
        f.date = first(&|o| text(o.get("datePublished")).or_else(|| text(o.get("dateCreated"))));
    }
}

/// A JSON string's text, whitespace collapsed (None when it is not a string or is empty).
fn text(value: Option<&Value>) -> Option<String> {
    let text = strip_and_collapse_ascii_whitespace(value?.as_str()?);
    (!text.is_empty()).then_some(text)
}

/// The name of an `author`: a string (not a URL), an object's `name` (or that of the
/// object its `@id` points to), or the first of an array that has one.
fn person(value: &Value, ld: &JsonLd) -> Option<String> {
    match value {
        Value::String(_) => text(Some(value)).filter(|name| !name.starts_with("http")),
        Value::Object(object) => text(object.get("name")).or_else(|| {
            let id = object.get("@id")?.as_str()?;
            ld.objects()
                .find(|o| o.get("@id").and_then(Value::as_str) == Some(id))
                .and_then(|o| text(o.get("name")))
        }),
        Value::Array(items) => items.iter().find_map(|item| match item {
            Value::Array(_) => None,
            item => person(item, ld),
        }),
        _ => None,
    }
}

/// The separators a page's title puts between the headline and the site's name
/// (`Headline | Site`, `Headline - Site`, `Site: Headline`).
const TITLE_SEPARATORS: [&str; 7] = [" | ", " - ", " – ", " — ", " · ", " :: ", " » "];

/// The title without the site's name beside it: the body's first `h1` when the title
/// holds it (the headline as the page shows it), else the title with a short last part
/// after a separator (the site's name) left off.
fn without_site_name(doc: &DocumentRef<'_>, title: String) -> String {
    let folded = |s: &str| s.to_lowercase();
    if let Some(h1) = first_h1(doc).map(|h1| strip_and_collapse_ascii_whitespace(&h1.text()))
        && h1.len() >= 4
        && folded(&title).contains(&folded(&h1))
    {
        return h1;
    }
    for separator in TITLE_SEPARATORS {
        if let Some((headline, site)) = title.rsplit_once(separator)
            && site.split_whitespace().count() <= 4
            && headline.split_whitespace().count() >= 2
        {
            return headline.trim().to_string();
        }
    }
    title
}

/// The body's first `h1`: found by a scan of the arena when its order is tree order (the
/// scan passes the other nodes by without following links), else by a walk.
fn first_h1<'d>(doc: &DocumentRef<'d>) -> Option<NodeRef<'d>> {
    let body = doc.body()?;
    let is_h1 = |name: Name| name.is_html(Tag::H1);
    let Some(mut elements) = doc.elements_in_tree_order() else {
        return body
            .descendants()
            .find(|n| n.element_name().is_some_and(is_h1));
    };
    while let Some((h1, _)) = elements.next_named(is_h1) {
        let mut up = h1.parent();
        while let Some(a) = up {
            if a.id() == body.id() {
                return Some(h1);
            }
            up = a.parent();
        }
    }
    None
}

/// The byline and the date where the page shows them, for the ones its `meta` elements
/// left empty: an element marked as the author (`rel=author`, `itemprop=author`, a
/// `byline` or `author` class) and the first `time` element's `datetime` (or an
/// `itemprop=datePublished`).
fn from_body(doc: &DocumentRef<'_>, f: &mut Fields, reads: &mut Reads) {
    let Some(body) = doc.body() else { return };
    let want_byline = f.byline.is_none();
    // The first element marked `rel=author` or `itemprop=author`, else the first of a
    // `byline` or `author` class (which often holds the date too).
    let (mut marked, mut classed): (Option<String>, Option<String>) = (None, None);
    for node in body.descendants() {
        if f.date.is_some() && (!want_byline || marked.is_some()) {
            break;
        }
        let Some(name) = node.element_name() else {
            continue;
        };
        // The names' scan of the attributes says which of them to look up.
        let names = reads.names.names(&node, false);
        let itemprop = || names.itemprop.then(|| node.attr("itemprop")).flatten();
        if f.date.is_none() {
            let date = if name.is_html(Tag::Time) {
                node.attr("datetime")
            } else if itemprop().is_some_and(|p| p.eq_ignore_ascii_case("datepublished")) {
                node.attr("content").or_else(|| node.attr("datetime"))
            } else {
                None
            };
            if let Some(date) = date.map(|d| strip_and_collapse_ascii_whitespace(&d))
                && date.len() >= 8
            {
                f.date = Some(date);
            }
        }
        if !want_byline || marked.is_some() {
            continue;
        }
        let strong = (names.rel
            && node.attr("rel").is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("author"))
            }))
            || itemprop().is_some_and(|p| p.eq_ignore_ascii_case("author"));
        // Each of the class words holds a word of the author cue.
        let weak = classed.is_none()
            && names.cues & cues::AUTHOR != 0
            && node.attr("class").is_some_and(|c| {
                c.split_ascii_whitespace().any(|c| {
                    let c = c.to_ascii_lowercase();
                    c == "byline" || c == "author" || c == "author-name"
                })
            });
        if strong || weak {
            let text = strip_and_collapse_ascii_whitespace(&node.text());
            let text = text
                .strip_prefix("By ")
                .or_else(|| text.strip_prefix("by "))
                .unwrap_or(&text)
                .trim();
            if !text.is_empty() && text.split_whitespace().count() <= 8 {
                if strong {
                    marked = Some(text.to_string());
                } else {
                    classed = Some(text.to_string());
                }
            }
        }
    }
    if want_byline {
        f.byline = marked.or(classed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(html: &str) -> Fields {
        let doc = htmltok_tree::parse(html.as_bytes());
        let view = doc.view();
        fields_with(&view, &JsonLd::read(&view), &mut Reads::new(&view, true))
    }

    #[test]
    fn json_ld_fills_what_meta_leaves_empty() {
        let f = read(
            r#"<title>Tides at dawn | Sea News</title><meta name=author content="A. Meta">
            <script type="application/ld+json">{"@graph":[
              {"@type":"WebPage","datePublished":"2020-01-01","author":"Page Author"},
              {"@type":"Organization","name":"Sea News"},
              {"@type":"NewsArticle","headline":"Tides","author":[{"@id":"person-1"}],
               "dateCreated":"2024-05-01T08:00:00Z"},
              {"@type":"Person","@id":"person-1","name":"Ann  Sea"}]}</script><p>x"#,
        );
        assert_eq!(f.title.as_deref(), Some("Tides at dawn"));
        // The meta's author wins; the article's date comes before the page's.
        assert_eq!(f.byline.as_deref(), Some("A. Meta"));
        assert_eq!(f.date.as_deref(), Some("2024-05-01T08:00:00Z"));
    }

    #[test]
    fn authors_as_strings_objects_and_arrays() {
        for (author, want) in [
            (r#""Ann Sea""#, Some("Ann Sea")),
            (r#"{"@type":"Person","name":"Ann Sea"}"#, Some("Ann Sea")),
            (
                r#"[{"name":"Ann Sea"},{"name":"Bo Reef"}]"#,
                Some("Ann Sea"),
            ),
            (r#"["https://example.org/ann", "Ann Sea"]"#, Some("Ann Sea")),
            (r#"{"@id":"nobody"}"#, None),
            ("7", None),
        ] {
            let f = read(&format!(
                r#"<script type=application/ld+json>{{"@type":"BlogPosting",
                "author":{author},"datePublished":"2024-05-01"}}</script>"#
            ));
            assert_eq!(f.byline.as_deref(), want, "{author}");
            assert_eq!(f.date.as_deref(), Some("2024-05-01"));
        }
        // No title element: the article's headline.
        let f = read(
            r#"<script type=application/ld+json>{"@type":"Article","headline":"Tides"}</script>"#,
        );
        assert_eq!(f.title.as_deref(), Some("Tides"));
    }

    #[test]
    fn other_types_are_not_read() {
        let f = read(
            r#"<script type=application/ld+json>{"@type":"Organization","name":"Sea News",
            "author":"Nobody","datePublished":"2024-05-01"}</script>"#,
        );
        assert_eq!((f.title, f.byline, f.date), (None, None, None));
    }
}
