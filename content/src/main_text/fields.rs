//! The title, byline and date, from the page's `meta` elements and `title` (cheap: the
//! head's children only, no walk of the body).

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
        .filter(|t| !t.is_empty());
    f
}
