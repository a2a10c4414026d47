//! Each metadata rule on crafted pages, through the tree (the parser decides which
//! elements are in the document, as it does for a browser).

use htmltok_content::metadata::{Alternate, Href, ImagePreview, Metadata, QualifiedLink};
use url::Url;

fn read(html: &str, url: Option<&str>) -> Metadata {
    let doc = htmltok_tree::parse(html.as_bytes());
    let url = url.map(|u| Url::parse(u).unwrap());
    htmltok_content::metadata(&doc, url.as_ref())
}

fn page(html: &str) -> Metadata {
    read(html, Some("https://example.org/dir/page.html"))
}

fn href(raw: &str, url: Option<&str>) -> Href {
    Href {
        raw: raw.to_string(),
        url: url.map(str::to_string),
    }
}

#[test]
fn canonical_resolves_against_the_base_element_and_the_document_url() {
    let m = page("<base href='/other/'><link rel=canonical href=' c.html '>");
    assert_eq!(m.base_url.as_deref(), Some("https://example.org/other/"));
    assert_eq!(
        m.canonical,
        Some(href("c.html", Some("https://example.org/other/c.html")))
    );
    // A relative base resolves against the document URL; a javascript: base is ignored.
    let m = page("<base href='javascript:x'><link rel='Canonical' href=c>");
    assert_eq!(
        m.canonical.unwrap().url.as_deref(),
        Some("https://example.org/dir/c")
    );
}

#[test]
fn canonical_is_the_first_in_the_head_and_not_one_in_the_body() {
    let m = page("<link rel=canonical href=/a><link rel=canonical href=/b>");
    assert_eq!(m.canonical.unwrap().raw, "/a");
    // Text before the link ends the head: the parser puts the link into the body.
    let m = page("<title>t</title>text<link rel=canonical href=/a>");
    assert_eq!(m.canonical, None);
    // rel is a set of tokens.
    let m = page("<link rel='alternate canonical' href=/a>");
    assert_eq!(m.canonical.unwrap().raw, "/a");
}

#[test]
fn without_a_document_url_relative_urls_do_not_resolve() {
    let m = read("<link rel=canonical href=/a>", None);
    assert_eq!(m.canonical, Some(href("/a", None)));
    let m = read(
        "<base href='https://b.org/x/'><link rel=canonical href=a>",
        None,
    );
    assert_eq!(
        m.canonical.unwrap().url.as_deref(),
        Some("https://b.org/x/a")
    );
}

#[test]
fn robots_and_googlebot_directives_are_read_apart_and_combined_per_agent() {
    let m = page(
        "<meta name=robots content='noindex'><meta name='ROBOTS' content='max-snippet:10'>\
         <meta name=googlebot content='nofollow, max-image-preview:none'>\
         <meta name=bingbot content=noindex><meta property=robots content=noarchive>",
    );
    assert!(m.robots.noindex && !m.robots.nofollow && !m.robots.noarchive);
    assert_eq!(m.robots.max_snippet, Some(10));
    assert!(m.googlebot.nofollow && !m.googlebot.noindex);
    assert_eq!(m.googlebot.max_image_preview, Some(ImagePreview::None));
}

#[test]
fn robots_in_the_body_still_count() {
    let m = page("<p>x</p><meta name=robots content=none>");
    assert!(m.robots.noindex && m.robots.nofollow);
}

#[test]
fn qualified_links_carry_nofollow_ugc_and_sponsored() {
    let html = "<a href=/x>plain</a><a rel='UGC  nofollow' href=/c>c</a>\
                <map><area rel=sponsored href=ad></map><a rel=nofollow>no href</a>";
    let m = page(html);
    assert_eq!(
        m.qualified_links,
        [
            QualifiedLink {
                element: "a",
                offset: html.find("<a rel='UGC").unwrap(),
                href: href("/c", Some("https://example.org/c")),
                nofollow: true,
                ugc: true,
                sponsored: false,
            },
            QualifiedLink {
                element: "area",
                offset: html.find("<area").unwrap(),
                href: href("ad", Some("https://example.org/dir/ad")),
                nofollow: false,
                ugc: false,
                sponsored: true,
            },
        ]
    );
}

#[test]
fn description_is_the_first_one_trimmed() {
    let m =
        page("<meta name=Description content='  A page.\n'><meta name=description content=second>");
    assert_eq!(m.description.as_deref(), Some("A page."));
}

#[test]
fn open_graph_and_twitter_fields_from_property_or_name_in_order() {
    let m = page(
        "<meta property='og:title' content='T'><meta name='OG:Image' content=a.png>\
         <meta property=og:image content=b.png><meta name=twitter:card content=summary>\
         <meta property=twitter:site content=@x><meta property=article:author content=A>\
         <meta name=og:description>",
    );
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        m.open_graph,
        pairs(&[
            ("og:title", "T"),
            ("og:image", "a.png"),
            ("og:image", "b.png")
        ])
    );
    assert_eq!(
        m.twitter,
        pairs(&[("twitter:card", "summary"), ("twitter:site", "@x")])
    );
}

#[test]
fn lang_is_the_html_elements_and_the_pragma_comes_after_it() {
    let m = page("<html lang=fr-CA><meta http-equiv=content-language content=de>");
    assert_eq!(m.lang.as_deref(), Some("fr-CA"));
    assert_eq!(m.content_language.as_deref(), Some("de"));
    assert_eq!(m.language(), Some("fr-CA"));
    // An empty lang says "unknown": the pragma does not fill in.
    assert_eq!(
        page("<html lang=''><meta http-equiv=content-language content=de>").language(),
        None
    );
    // No lang: the pragma-set default language; the last valid pragma wins.
    let m = page(
        "<meta http-equiv=Content-Language content=' de  at'>\
         <meta http-equiv=content-language content='en,fr'>\
         <meta http-equiv=content-language content='  '>",
    );
    assert_eq!(m.lang, None);
    assert_eq!(m.language(), Some("de"));
    // A second <html> tag's lang is added to the html element (13.2.6.4.7).
    assert_eq!(page("<p>x<html lang=nl>").lang.as_deref(), Some("nl"));
    // An SVG lang or one on <body> is not the document's.
    assert_eq!(page("<body lang=it><svg lang=es></svg>").lang, None);
}

#[test]
fn hreflang_alternates_in_order_resolved() {
    let m = page(
        "<link rel=alternate hreflang=de href=/de/><link rel='Alternate' hreflang=' x-default ' \
         href=https://example.com/><link rel=alternate href=/feed type=application/rss+xml>",
    );
    assert_eq!(
        m.alternates,
        [
            Alternate {
                hreflang: "de".into(),
                href: href("/de/", Some("https://example.org/de/")),
            },
            Alternate {
                hreflang: "x-default".into(),
                href: href("https://example.com/", Some("https://example.com/")),
            },
        ]
    );
}

/// Found on the corpus page news/cnn-saturn-2013.html: one meta element that is the
/// description by name and `og:description` by property gives both.
#[test]
fn one_meta_with_name_and_property_gives_both() {
    let m = page(
        "<meta content=D itemprop=description name=description property=og:description>\
         <meta property=og:title name=OG:Title content=T>\
         <meta property=og:image name=twitter:image content=i.png>",
    );
    assert_eq!(m.description.as_deref(), Some("D"));
    let og: Vec<(&str, &str)> = m
        .open_graph
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    // The same key in both attributes counts once.
    assert_eq!(
        og,
        [
            ("og:description", "D"),
            ("og:title", "T"),
            ("og:image", "i.png")
        ]
    );
    assert_eq!(
        m.twitter,
        [("twitter:image".to_string(), "i.png".to_string())]
    );
}

/// Found on the corpus page homepages/baidu-home-script-heavy.html read without its URL:
/// a refresh to a relative URL in a document without a URL is kept, its URL text as
/// written and no URL; a URL that fails on its own still makes no refresh.
#[test]
fn a_relative_refresh_without_a_document_url_keeps_its_text() {
    let r = read(
        "<meta http-equiv=refresh content='0; url=/b.html?x=1'>",
        None,
    )
    .refresh
    .unwrap();
    assert_eq!(
        (r.delay, r.raw.as_deref(), r.url),
        (0, Some("/b.html?x=1"), None)
    );
    let bad = read(
        "<meta http-equiv=refresh content='0; url=http://[::1'><meta http-equiv=refresh content=5>",
        None,
    );
    assert_eq!(bad.refresh.map(|r| (r.delay, r.raw)), Some((5, None)));
}

#[test]
fn the_first_refresh_that_parses_counts() {
    let m = page(
        "<meta http-equiv=refresh content=''><meta http-equiv=refresh content='soon'>\
         <meta http-equiv=REFRESH content=\"2; URL='/next?a=1'\">\
         <meta http-equiv=refresh content='0; url=/later'>",
    );
    let r = m.refresh.unwrap();
    assert_eq!(r.delay, 2);
    assert_eq!(r.raw.as_deref(), Some("/next?a=1"));
    assert_eq!(r.url.as_deref(), Some("https://example.org/next?a=1"));
    // A bare delay refreshes the page itself.
    let r = page("<meta http-equiv=refresh content=10>")
        .refresh
        .unwrap();
    assert_eq!(
        (r.raw, r.url.as_deref()),
        (None, Some("https://example.org/dir/page.html"))
    );
}

#[test]
fn json_ld_blocks_are_kept_as_written() {
    let m = page(
        "<script type='application/ld+json'>{\"@type\": \"Article\", \"a\": \"&amp;</p>\"}</script>\
         <script type='Application/LD+JSON; charset=utf-8'>[1]</script>\
         <script type=application/json>{}</script><script>var x</script>",
    );
    assert_eq!(
        m.json_ld,
        ["{\"@type\": \"Article\", \"a\": \"&amp;</p>\"}", "[1]"]
    );
}

#[test]
fn template_contents_are_not_read() {
    let m = page(
        "<template><meta name=robots content=noindex><link rel=canonical href=/t>\
         <script type=application/ld+json>{}</script></template>",
    );
    assert!(!m.robots.present);
    assert_eq!(m.canonical, None);
    assert!(m.json_ld.is_empty());
}

#[test]
fn foreign_elements_are_not_read() {
    let m = page(
        "<body><svg><a href=/x rel=nofollow></a>\
         <script type=application/ld+json>{}</script></svg>",
    );
    assert!(m.qualified_links.is_empty());
    assert!(m.json_ld.is_empty());
    // A <meta> breaks out of SVG (13.2.6.5): it is an HTML element and is read.
    assert!(
        page("<svg><meta name=robots content=noindex></svg>")
            .robots
            .noindex
    );
}

#[test]
fn title_is_document_title() {
    assert_eq!(
        page("<title>  A \n title </title>").title.as_deref(),
        Some("A title")
    );
}

#[test]
fn a_million_nested_elements_do_not_recurse() {
    let mut html = "<div>".repeat(1_000_000);
    html.push_str("<a rel=nofollow href=/deep>x</a>");
    let m = page(&html);
    assert_eq!(m.qualified_links.len(), 1);
}
