//! `<meta http-equiv="refresh">`: HTML § 4.2.5.3 "Refresh state", which runs the "shared
//! declarative refresh steps" (HTML, "Document lifecycle") on the `content`: they parse
//! it into a delay and a URL.
//!
//! Step by step as the standard writes them (its step numbers in the comments), but for
//! what a crawler cannot do: the navigation itself (the steps after the URL is known).
//! "Will declaratively refresh" (step 1: only the first refresh a document declares
//! counts) is the caller's: [`super::metadata`] keeps the first meta element whose
//! content parses.

use url::Url;

/// A meta refresh: after `delay` seconds, navigate to `url`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refresh {
    /// The delay in seconds (the integer part; an absurdly long one saturates).
    pub delay: u64,
    /// The URL text the content names, as the steps cut it out (quotes removed); None
    /// when it names none, which refreshes the page itself.
    pub raw: Option<String>,
    /// `raw` parsed relative to the document base URL; the page's own URL (when known)
    /// when `raw` is None; None when `raw` is relative and there is no base URL (a
    /// document read without its URL).
    pub url: Option<String>,
}

fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// The shared declarative refresh steps on `input` (a meta element's non-empty
/// `content`): None where the steps "return" (the content is no refresh), else the
/// delay and URL. `base` is the document base URL; `document_url` the page's own.
pub fn parse(input: &str, base: Option<&Url>, document_url: Option<&Url>) -> Option<Refresh> {
    let bytes = input.as_bytes();
    // 2. Let position point at the first code point of input.
    let mut pos = 0;
    let skip_whitespace = |pos: &mut usize| {
        while bytes.get(*pos).copied().is_some_and(is_ascii_whitespace) {
            *pos += 1;
        }
    };
    // 3. Skip ASCII whitespace.
    skip_whitespace(&mut pos);
    // 4. Let time be 0. 5. Collect a sequence of ASCII digits: timeString.
    let digits_start = pos;
    while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    let time_string = &input[digits_start..pos];
    let delay = if time_string.is_empty() {
        // 6. If timeString is empty and the code point at position is not U+002E (.),
        // return.
        if bytes.get(pos) != Some(&b'.') {
            return None;
        }
        0
    } else {
        // 7. The rules for parsing non-negative integers (digits only here).
        time_string.bytes().fold(0u64, |n, d| {
            n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
        })
    };
    // 8. Collect ASCII digits and U+002E (.): ignored.
    while bytes
        .get(pos)
        .is_some_and(|&b| b.is_ascii_digit() || b == b'.')
    {
        pos += 1;
    }
    // 10. If position is not past the end of input:
    if pos < bytes.len() {
        // 10.1. Not U+003B (;), U+002C (,) or ASCII whitespace: return.
        if !(bytes[pos] == b';' || bytes[pos] == b',' || is_ascii_whitespace(bytes[pos])) {
            return None;
        }
        // 10.2-4. Skip ASCII whitespace, one `;` or `,`, ASCII whitespace.
        skip_whitespace(&mut pos);
        if matches!(bytes.get(pos), Some(b';' | b',')) {
            pos += 1;
        }
        skip_whitespace(&mut pos);
    }
    // 9. Let urlRecord be document's URL (when nothing follows).
    if pos >= bytes.len() {
        return Some(Refresh {
            delay,
            raw: None,
            url: document_url.map(|u| u.as_str().to_string()),
        });
    }
    // 11.1. Let urlString be the rest of input.
    let url_string = url_string(input, pos);
    // 11.11. Parse urlString relative to the document; 11.12: failure returns.
    // A document always has a URL in a browser; one read without a URL (a file, a record
    // without a target URI) keeps the refresh with its URL text and no URL, as the other
    // URL attributes do, rather than lose it: only a URL that fails on its own returns.
    let url = match Url::options().base_url(base).parse(url_string) {
        Ok(url) => Some(url),
        Err(url::ParseError::RelativeUrlWithoutBase) if base.is_none() => None,
        Err(_) => return None,
    };
    // 11.13. A javascript: URL returns.
    if url.as_ref().is_some_and(|u| u.scheme() == "javascript") {
        return None;
    }
    Some(Refresh {
        delay,
        raw: Some(url_string.to_string()),
        url: url.map(Into::into),
    })
}

/// Steps 11.1-11.10: the URL text from `pos`, past an optional `URL =` and quotes.
fn url_string(input: &str, start: usize) -> &str {
    let bytes = input.as_bytes();
    let mut pos = start;
    let whole = &input[start..];
    // 11.2-11.4: `U`, `R`, `L` (ASCII case-insensitive); a mismatch at U jumps to "skip
    // quotes", at R or L to "parse" with urlString the whole rest.
    if bytes
        .get(pos)
        .is_some_and(|b| b.eq_ignore_ascii_case(&b'u'))
    {
        pos += 1;
        for letter in [b'r', b'l'] {
            if !bytes
                .get(pos)
                .is_some_and(|b| b.eq_ignore_ascii_case(&letter))
            {
                return whole;
            }
            pos += 1;
        }
        // 11.5-11.7: whitespace, `=` (else "parse" the whole rest), whitespace.
        while bytes.get(pos).copied().is_some_and(is_ascii_whitespace) {
            pos += 1;
        }
        if bytes.get(pos) != Some(&b'=') {
            return whole;
        }
        pos += 1;
        while bytes.get(pos).copied().is_some_and(is_ascii_whitespace) {
            pos += 1;
        }
    }
    // 11.8. Skip quotes: a `'` or `"` here is the quote.
    let quote = match bytes.get(pos) {
        Some(&q @ (b'\'' | b'"')) => {
            pos += 1;
            Some(q)
        }
        _ => None,
    };
    // 11.9. urlString is the rest; 11.10: cut at the quote, if it comes again.
    let rest = &input[pos..];
    match quote.and_then(|q| rest.bytes().position(|b| b == q)) {
        Some(end) => &rest[..end],
        None => rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refresh(content: &str) -> Option<(u64, Option<String>)> {
        let doc = Url::parse("https://e.org/dir/page").unwrap();
        parse(content, Some(&doc), Some(&doc)).map(|r| (r.delay, r.url))
    }

    fn to(delay: u64, url: &str) -> Option<(u64, Option<String>)> {
        Some((delay, Some(url.to_string())))
    }

    #[test]
    fn delay_and_url_in_the_usual_spellings() {
        assert_eq!(refresh("5; url=/next"), to(5, "https://e.org/next"));
        assert_eq!(refresh("0;URL='next'"), to(0, "https://e.org/dir/next"));
        assert_eq!(
            refresh("0, url = \"a b\" trailing"),
            to(0, "https://e.org/dir/a%20b")
        );
        assert_eq!(refresh("  3 https://x.org/"), to(3, "https://x.org/"));
        assert_eq!(refresh("0;https://x.org/"), to(0, "https://x.org/"));
    }

    #[test]
    fn a_bare_delay_refreshes_the_page_itself() {
        assert_eq!(refresh("30"), to(30, "https://e.org/dir/page"));
        assert_eq!(refresh("30 ; "), to(30, "https://e.org/dir/page"));
        let r = parse("30", None, None).unwrap();
        assert_eq!((r.delay, r.raw, r.url), (30, None, None));
    }

    #[test]
    fn fractions_and_a_leading_dot_are_read_as_the_standard_says() {
        assert_eq!(refresh("1.5; url=x"), to(1, "https://e.org/dir/x"));
        assert_eq!(refresh(".5; url=x"), to(0, "https://e.org/dir/x"));
        assert_eq!(refresh("5.5.5"), to(5, "https://e.org/dir/page"));
    }

    #[test]
    fn no_leading_time_or_a_bad_separator_is_no_refresh() {
        for content in ["", "   ", "url=/x", "-1; url=/x", "5x; url=/x", "\u{a0}5"] {
            assert_eq!(refresh(content), None, "{content:?}");
        }
    }

    #[test]
    fn partial_url_keywords_are_part_of_the_url() {
        // "ur" then no L: the whole rest is the URL; "url" without "=": likewise.
        assert_eq!(refresh("0; urx"), to(0, "https://e.org/dir/urx"));
        assert_eq!(refresh("0; url x"), to(0, "https://e.org/dir/url%20x"));
        // An unmatched quote: the rest, quote excluded.
        assert_eq!(refresh("0; url='x"), to(0, "https://e.org/dir/x"));
    }

    #[test]
    fn a_javascript_or_unparsable_url_is_no_refresh() {
        assert_eq!(refresh("0; url=javascript:alert(1)"), None);
        assert_eq!(refresh("0; url=http://[::1"), None);
    }

    #[test]
    fn a_relative_url_without_a_base_is_kept_unresolved() {
        let r = parse("0; url=relative", None, None).unwrap();
        assert_eq!(
            (r.delay, r.raw.as_deref(), r.url),
            (0, Some("relative"), None)
        );
        assert_eq!(parse("0; url=http://[::1", None, None), None);
    }

    #[test]
    fn a_huge_delay_saturates() {
        assert_eq!(
            refresh("99999999999999999999999").map(|r| r.0),
            Some(u64::MAX)
        );
    }
}
