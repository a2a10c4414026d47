//! The document base URL (HTML § 2.4.1 "document base URL", § 4.2.3 "set the frozen base
//! URL") and URL parsing relative to it: the one rule the crawl toolkit's links and this
//! crate's metadata both resolve with.

use url::Url;

/// The document base URL: the `href` of the document's first HTML `base` element with
/// one (`Document::base_href`), parsed relative to the document's URL (its fallback
/// base URL); the document's URL when there is no such element, when that `href` does
/// not parse, or when it is a `data:` or `javascript:` URL (§ 4.2.3 "set the frozen base
/// URL", step 3). None when the document has no URL and no absolute base `href` (a
/// relative reference then has nothing to resolve against).
///
/// The `href` is handed to the URL parser as written: the parser itself strips leading
/// and trailing C0 controls and spaces and removes tabs and newlines (URL Standard, basic
/// URL parser), which is all the trimming the standard does.
pub fn document_base_url(base_href: Option<&str>, document_url: Option<&Url>) -> Option<Url> {
    let Some(href) = base_href else {
        return document_url.cloned();
    };
    let parsed = Url::options().base_url(document_url).parse(href).ok();
    match parsed {
        Some(url) if !matches!(url.scheme(), "data" | "javascript") => Some(url),
        _ => document_url.cloned(),
    }
}

/// `raw` parsed as a URL relative to `base` (HTML § 2.4.2 "encoding-parsing a URL", for a
/// UTF-8 document), serialized; None when it does not parse (a relative reference without
/// a base, a bad host, …).
pub fn resolve(raw: &str, base: Option<&Url>) -> Option<String> {
    Url::options()
        .base_url(base)
        .parse(raw)
        .ok()
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(href: Option<&str>, doc: Option<&str>) -> Option<String> {
        let doc = doc.map(|d| Url::parse(d).unwrap());
        document_base_url(href, doc.as_ref()).map(String::from)
    }

    #[test]
    fn base_href_resolves_against_the_document_url() {
        assert_eq!(
            base(Some("../b/"), Some("https://e.org/a/x/p.html")).as_deref(),
            Some("https://e.org/a/b/")
        );
        assert_eq!(
            base(None, Some("https://e.org/p")).as_deref(),
            Some("https://e.org/p")
        );
    }

    #[test]
    fn an_unparsable_data_or_javascript_base_falls_back_to_the_document_url() {
        for href in ["http://[bad", "data:text/html,x", "javascript:void(0)"] {
            assert_eq!(
                base(Some(href), Some("https://e.org/p")).as_deref(),
                Some("https://e.org/p"),
                "{href}"
            );
        }
    }

    #[test]
    fn without_a_document_url_only_an_absolute_base_counts() {
        assert_eq!(
            base(Some("https://e.org/d/"), None).as_deref(),
            Some("https://e.org/d/")
        );
        assert_eq!(base(Some("/d/"), None), None);
        assert_eq!(base(None, None), None);
    }

    #[test]
    fn the_url_parser_strips_c0_and_space_but_not_other_whitespace() {
        assert_eq!(
            base(Some(" \t/d/\n "), Some("https://e.org/p")).as_deref(),
            Some("https://e.org/d/")
        );
        // U+00A0 is no URL whitespace: it is percent-encoded into the path.
        assert_eq!(
            base(Some("\u{a0}d/"), Some("https://e.org/p")).as_deref(),
            Some("https://e.org/%C2%A0d/")
        );
    }
}
