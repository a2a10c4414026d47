//! `htmltok links`: every outgoing link of each document, resolved.

use std::process::ExitCode;

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};
use htmltok::{Token, Tokenizer};

use crate::json;
use url::Url;

use super::Failure;
use super::args::{Corpus, SharedOut};

const ABOUT: &str = "Print every outgoing link of each document (TSV or JSON lines)";

const LONG_ABOUT: &str = r#"Print every outgoing link of every document of the given files, directories (walked recursively) and WARC files, one per line, as tab-separated values:

  corpus/article.html	a	href	https://example.org/science/

(document, element, attribute, URL), or with --json as JSON lines:

  {"document":"corpus/article.html","element":"a","attribute":"href","url":"https://example.org/science/","raw":"/science/"}

The links are the URL-valued attributes: a/area/link[href], img/source[src, srcset],
link[imagesrcset], script/iframe/frame/embed/input/track/audio/video[src], video[poster],
form[action], button/input[formaction], object[data], blockquote/q/del/ins[cite].
Each URL of a srcset is one link.

URLs are resolved as a browser does, against the document's base URL: the first
<base href> in the document (itself resolved against the document URL), else the
document URL — the WARC record's target URI, or --base; the query is percent-encoded
from the document's encoding (a windows-1251 page's ?q=Привет becomes ?q=%CF%F0%E8%E2%E5%F2). With neither, relative URLs are
printed as written (after trimming whitespace) and absolute ones normalised. A value
that does not parse as a URL is printed as written. Empty values and data: URLs (content,
not links) are left out; --data-urls keeps data: URLs. In the TSV, backslash, tab, CR
and LF in a field are written as \\, \t, \r and \n.

"document" is the file (for a WARC record, FILE@OFFSET, the record's offset in the WARC
file). Documents are processed in parallel, so their lines come in no fixed order (the
lines of one document stay together and in document order; -j 1 keeps the order of the
paths). An unreadable document is reported on standard error with its file and offset and
skipped; the exit status is then 1."#;

/// Arguments of `htmltok links`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    #[command(flatten)]
    corpus: Corpus,

    /// The URL of documents that have none of their own (a WARC record's target URI is
    /// used first); relative links are resolved against it
    #[arg(long, value_name = "URL", value_parser = parse_base)]
    base: Option<Url>,

    /// Also print data: URLs
    #[arg(long)]
    data_urls: bool,

    /// Print JSON lines instead of tab-separated values
    #[arg(long)]
    json: bool,
}

fn parse_base(value: &str) -> Result<Url, String> {
    Url::parse(value).map_err(|err| format!("not an absolute URL: {err}"))
}

/// Runs `htmltok links`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    let out = SharedOut::new();
    let finished = args.corpus.run(
        Tokenizer::builder(),
        out.stop_flag(),
        |document| {
            let document_url = document
                .url()
                .and_then(|url| Url::parse(url.trim()).ok())
                .or_else(|| args.base.clone());
            let encoding = document.decoded_as().map(|d| d.encoding);
            let links = links(&mut document.tokenizer(), document_url.as_ref(), encoding);
            let label = document.label();
            let mut lines = String::new();
            for link in &links {
                if !args.data_urls && is_data_url(&link.url) {
                    continue;
                }
                if args.json {
                    lines.push_str("{\"document\":");
                    json::write_str(&mut lines, &label);
                    lines.push_str(",\"element\":");
                    json::write_str(&mut lines, link.element);
                    lines.push_str(",\"attribute\":");
                    json::write_str(&mut lines, link.attribute);
                    lines.push_str(",\"url\":");
                    json::write_str(&mut lines, &link.url);
                    lines.push_str(",\"raw\":");
                    json::write_str(&mut lines, &link.raw);
                    lines.push_str("}\n");
                } else {
                    tsv_field(&mut lines, &label);
                    lines.push('\t');
                    lines.push_str(link.element);
                    lines.push('\t');
                    lines.push_str(link.attribute);
                    lines.push('\t');
                    tsv_field(&mut lines, &link.url);
                    lines.push('\n');
                }
            }
            out.write(lines.as_bytes());
        },
        |(), ()| (),
        || (),
    )?;
    out.finish()?;
    Ok(finished.exit_code())
}

fn is_data_url(url: &str) -> bool {
    url.get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
}

/// Appends `field` with backslash, tab, CR and LF escaped.
fn tsv_field(out: &mut String, field: &str) {
    for c in field.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// The URL-valued attributes, by element.
const LINK_ATTRIBUTES: &[(&str, &[&str])] = &[
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

/// One link of a document.
#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub element: &'static str,
    pub attribute: &'static str,
    /// The value as written (one URL of a srcset), decoded.
    pub raw: String,
    /// Resolved against the base URL when there is one.
    pub url: String,
}

/// Every link of a document, in document order, resolved against its base URL (the
/// first `<base href>`, resolved against `document_url`, else `document_url`). The query
/// of a URL is percent-encoded from `encoding` (the document's), as HTML's "encoding-parse
/// a URL" says; None means UTF-8.
pub fn links(
    tokenizer: &mut Tokenizer<'_>,
    document_url: Option<&Url>,
    encoding: Option<&'static Encoding>,
) -> Vec<Link> {
    let mut found: Vec<(&'static str, &'static str, String)> = Vec::new();
    let mut base_href: Option<String> = None;
    while let Some(token) = tokenizer.next_token() {
        let Token::StartTag(tag) = token else {
            continue;
        };
        let name = tag.name();
        if base_href.is_none() && name == "base" {
            if let Some(href) = tag.attr("href") {
                base_href = Some(href.value().into_owned());
            }
            continue;
        }
        let Some(&(element, attributes)) = LINK_ATTRIBUTES.iter().find(|(e, _)| *e == name) else {
            continue;
        };
        for &attribute in attributes {
            let Some(attr) = tag.attr(attribute) else {
                continue;
            };
            let value = attr.value();
            if attribute.ends_with("srcset") {
                for url in srcset_urls(&value) {
                    found.push((element, attribute, url.to_string()));
                }
            } else {
                let value = value.trim_matches(is_ascii_whitespace);
                if !value.is_empty() {
                    found.push((element, attribute, value.to_string()));
                }
            }
        }
    }
    // The document base URL (HTML § 2.4.1): the first base element with an href,
    // resolved against the fallback base URL (here, the document URL).
    let base = match (&base_href, document_url) {
        (Some(href), Some(url)) => url.join(href.trim()).ok().or_else(|| Some(url.clone())),
        (Some(href), None) => Url::parse(href.trim()).ok(),
        (None, url) => url.cloned(),
    };
    // Query strings are encoded from the document's encoding when it is not UTF-8.
    let legacy = encoding.filter(|e| e.output_encoding() != UTF_8);
    let encode = |text: &str| -> Vec<u8> {
        match legacy {
            Some(encoding) => encoding.encode(text).0.into_owned(),
            None => text.as_bytes().to_vec(),
        }
    };
    let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &|text| Cow::Owned(encode(text));
    found
        .into_iter()
        .map(|(element, attribute, raw)| {
            let resolved = Url::options()
                .base_url(base.as_ref())
                .encoding_override(legacy.map(|_| encode))
                .parse(&raw);
            Link {
                element,
                attribute,
                url: resolved.map_or_else(|_| raw.clone(), String::from),
                raw,
            }
        })
        .collect()
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
        links(&mut Tokenizer::new(html.as_bytes()), url.as_ref(), None)
            .into_iter()
            .map(|l| (l.element.to_string(), l.attribute.to_string(), l.url))
            .collect()
    }

    fn triple(e: &str, a: &str, u: &str) -> (String, String, String) {
        (e.to_string(), a.to_string(), u.to_string())
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
        let got = links(
            &mut Tokenizer::new(html.as_bytes()),
            Some(&url),
            Some(encoding_rs::WINDOWS_1251),
        );
        // The query from windows-1251, the fragment from UTF-8 (as a browser does).
        assert_eq!(got[0].url, "https://example.ru/search?q=%CF%F0%E8#%D0%BC");
        let got = links(&mut Tokenizer::new(html.as_bytes()), Some(&url), None);
        assert_eq!(
            got[0].url,
            "https://example.ru/search?q=%D0%9F%D1%80%D0%B8#%D0%BC"
        );
    }

    #[test]
    fn tsv_escapes() {
        let mut out = String::new();
        tsv_field(&mut out, "a\tb\\c\nd");
        assert_eq!(out, "a\\tb\\\\c\\nd");
    }
}
