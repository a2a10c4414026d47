//! What a document is: which archive records are HTML pages to tokenize, and under which
//! reason every other record is counted. The batch, the CLI, `htmltok.process` and the
//! Spark job all decide with [`classify`], so that every record of an archive ends as a
//! document or under one reason, never in silence.
//!
//! # The rules
//!
//! 1. **The record type.** `response` and `resource` records (an ARC record is one of
//!    the two) may be documents. Every other type is counted under its name: `warcinfo`
//!    (an ARC file's `filedesc://` record too), `request`, `metadata`, `revisit` (a
//!    revisit has no payload of its own: it points at an earlier capture), `conversion`,
//!    `continuation` (a segment of a record split across files, which htmltok does not
//!    join); any other type as `other-record-type`.
//! 2. **The content type.** The HTTP `Content-Type` of a response (of a `resource`, the
//!    record's own), its MIME type essence (MIME Sniffing § 4.4, lowercase, no
//!    parameters):
//!    - `text/html`, `application/xhtml+xml` (and `application/vnd.wap.xhtml+xml`): a
//!      document, whatever the bytes (a server that says HTML gets an HTML parser, as in
//!      a browser);
//!    - missing, empty, or a type that says nothing (`application/octet-stream`,
//!      `binary/octet-stream`, `unknown/unknown`, `application/unknown`, `*/*`,
//!      `no-type`): a document when the body sniffs as HTML ([`sniffs_as_html`]);
//!    - `text/xml`, `application/xml`: a document when the body is XHTML (the XHTML
//!      namespace or an `<html` tag in its first 1,445 bytes): XHTML pages are served so;
//!    - anything else (`text/plain`, `text/css`, `image/png`, `application/pdf`, …):
//!      counted as `not-html`.
//!
//! The HTTP status does not matter: an error page in HTML is a page (warcio's count of
//! HTML responses, which the tests compare with, counts them too).
//!
//! `htmltok_crawl::batch::Options::all_records` takes every `response` and `resource` record
//! as a document, whatever its type.

use crate::warc::Record;

/// Why a record is not a document: `warcinfo`, `request`, `metadata`, `revisit`,
/// `conversion`, `continuation`, `other-record-type`, `not-html`.
pub type SkipReason = &'static str;

/// Whether `record` is a document (see the [module documentation](self)); the reason it
/// is not, else.
pub fn classify(record: &Record) -> Result<(), SkipReason> {
    classify_record(record, false)
}

/// [`classify`], or with `all_records` every `response` and `resource` record.
pub fn classify_record(record: &Record, all_records: bool) -> Result<(), SkipReason> {
    let kind = record.warc_type.as_str();
    if !(kind.eq_ignore_ascii_case("response") || kind.eq_ignore_ascii_case("resource")) {
        const NAMED: [&str; 6] = [
            "warcinfo",
            "request",
            "metadata",
            "revisit",
            "conversion",
            "continuation",
        ];
        return Err(NAMED
            .into_iter()
            .find(|name| kind.eq_ignore_ascii_case(name))
            .unwrap_or("other-record-type"));
    }
    if all_records || is_html(record.content_type.as_deref(), &record.body) {
        Ok(())
    } else {
        Err("not-html")
    }
}

/// Whether a body of this `Content-Type` is HTML, by the rules of the module
/// documentation.
pub fn is_html(content_type: Option<&str>, body: &[u8]) -> bool {
    let essence = content_type.map_or("", crate::mime::essence);
    let is = |names: &[&str]| names.iter().any(|name| essence.eq_ignore_ascii_case(name));
    if is(&[
        "text/html",
        "application/xhtml+xml",
        "application/vnd.wap.xhtml+xml",
    ]) {
        true
    } else if is(&[
        "",
        "application/octet-stream",
        "binary/octet-stream",
        "unknown/unknown",
        "application/unknown",
        "*/*",
        "no-type",
        "-",
    ]) {
        sniffs_as_html(body)
    } else if is(&["text/xml", "application/xml"]) {
        is_xhtml(body)
    } else {
        false
    }
}

/// MIME Sniffing § 7.1, "identifying a resource with an unknown MIME type", its HTML
/// patterns: after whitespace, `<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<SCRIPT`, `<IFRAME`,
/// `<H1`, `<DIV`, `<FONT`, `<TABLE`, `<A`, `<STYLE`, `<TITLE`, `<B`, `<BODY`, `<BR`,
/// `<P` or `<!--` (any case), then a space or `>`. Two departures, for archives: a UTF-8
/// byte order mark before them is skipped (the standard would call such a page
/// `text/plain`), and an XML declaration is followed by the XHTML test of `text/xml`.
pub fn sniffs_as_html(body: &[u8]) -> bool {
    const PATTERNS: [&[u8]; 17] = [
        b"<!DOCTYPE HTML",
        b"<HTML",
        b"<HEAD",
        b"<SCRIPT",
        b"<IFRAME",
        b"<H1",
        b"<DIV",
        b"<FONT",
        b"<TABLE",
        b"<A",
        b"<STYLE",
        b"<TITLE",
        b"<B",
        b"<BODY",
        b"<BR",
        b"<P",
        b"<!--",
    ];
    let header = &body[..body.len().min(crate::mime::RESOURCE_HEADER)];
    let header = header.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(header);
    let start = header
        .iter()
        .position(|b| !matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' '))
        .unwrap_or(header.len());
    let rest = &header[start..];
    if rest.starts_with(b"<?xml") {
        return is_xhtml(body);
    }
    PATTERNS.iter().any(|pattern| {
        rest.len() > pattern.len()
            && rest[..pattern.len()].eq_ignore_ascii_case(pattern)
            && matches!(rest[pattern.len()], b' ' | b'>')
    })
}

/// Whether an XML body is XHTML: the XHTML namespace, or an `<html` tag, in its first
/// 1,445 bytes.
fn is_xhtml(body: &[u8]) -> bool {
    let header = &body[..body.len().min(crate::mime::RESOURCE_HEADER)];
    memchr::memmem::find(header, b"http://www.w3.org/1999/xhtml").is_some()
        || header.windows(5).any(|w| w.eq_ignore_ascii_case(b"<html"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types() {
        assert!(is_html(Some("text/html; charset=utf-8"), b""));
        assert!(is_html(Some("TEXT/HTML"), b"%PDF-"));
        assert!(is_html(Some("application/xhtml+xml"), b""));
        assert!(!is_html(Some("text/plain"), b"<html>"));
        assert!(!is_html(Some("image/png"), b"<html>"));
        assert!(is_html(
            Some("text/xml"),
            b"<?xml version='1.0'?><html xmlns=\"http://www.w3.org/1999/xhtml\">"
        ));
        assert!(!is_html(
            Some("application/xml"),
            b"<?xml version='1.0'?><rss>"
        ));
    }

    #[test]
    fn sniffing_unknown_types() {
        for body in [
            &b"<!doctype html><p>"[..],
            b"  \r\n<HTML>",
            b"<p>x",
            b"<!-- c -->",
            b"\xEF\xBB\xBF<html lang=en>",
            b"<?xml version=\"1.0\"?>\n<!DOCTYPE html><html>",
        ] {
            assert!(is_html(None, body), "{:?}", String::from_utf8_lossy(body));
            assert!(is_html(Some("application/octet-stream"), body));
        }
        for body in [
            &b""[..],
            b"Hello",
            b"<pre>",
            b"<html",
            b"%PDF-1.4",
            b"<?xml?><rss>",
            b"{\"a\":1}",
        ] {
            assert!(!is_html(None, body), "{:?}", String::from_utf8_lossy(body));
        }
    }
}
