//! The title, byline and date, from the page's `meta` elements and `title` (the head's
//! children), and where those are silent, from the body: the headline its first `h1`
//! shows, an element marked as the author, the first `time` element.

use htmltok_tree::{DocumentRef, Tag, strip_and_collapse_ascii_whitespace};

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
/// `dcterms.created` for the date.
pub(crate) fn fields(doc: &DocumentRef<'_>) -> Fields {
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
    if f.byline.is_none() || f.date.is_none() {
        from_body(doc, &mut f);
    }
    f
}

/// The separators a page's title puts between the headline and the site's name
/// (`Headline | Site`, `Headline - Site`, `Site: Headline`).
const TITLE_SEPARATORS: [&str; 7] = [" | ", " - ", " – ", " — ", " · ", " :: ", " » "];

/// The title without the site's name beside it: the body's first `h1` when the title
/// holds it (the headline as the page shows it), else the title with a short last part
/// after a separator (the site's name) left off.
fn without_site_name(doc: &DocumentRef<'_>, title: String) -> String {
    let folded = |s: &str| s.to_lowercase();
    if let Some(h1) = doc.body().and_then(|body| {
        body.descendants()
            .find(|n| n.element_name().is_some_and(|n| n.is_html(Tag::H1)))
            .map(|h1| strip_and_collapse_ascii_whitespace(&h1.text()))
    }) && h1.len() >= 4
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

/// The byline and the date where the page shows them, for the ones its `meta` elements
/// left empty: an element marked as the author (`rel=author`, `itemprop=author`, a
/// `byline` or `author` class) and the first `time` element's `datetime` (or an
/// `itemprop=datePublished`).
fn from_body(doc: &DocumentRef<'_>, f: &mut Fields) {
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
        if f.date.is_none() {
            let date = if name.is_html(Tag::Time) {
                node.attr("datetime")
            } else if node
                .attr("itemprop")
                .is_some_and(|p| p.eq_ignore_ascii_case("datepublished"))
            {
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
        let strong = node.attr("rel").is_some_and(|r| {
            r.split_ascii_whitespace()
                .any(|r| r.eq_ignore_ascii_case("author"))
        }) || node
            .attr("itemprop")
            .is_some_and(|p| p.eq_ignore_ascii_case("author"));
        let weak = classed.is_none()
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
