//! Fetch's "extract a MIME type" and the MIME Sniffing standard's "parse a MIME type",
//! as far as the `charset` parameter of an HTTP `Content-Type` header needs them: the WARC
//! reader's record charset, and the transport charset of `htmltok_crawl::encoding`.
//! Also the pieces of MIME Sniffing the rest of the crate shares: a type's essence as
//! compared, the resource header's length, and the binary data test.

use std::borrow::Cow;

/// The `charset` parameter of an HTTP `Content-Type` header value:
/// `text/html; charset="Shift_JIS"` gives `Shift_JIS`.
///
/// This is Fetch's "extract a MIME type" over the header's comma-separated values with the
/// MIME Sniffing standard's "parse a MIME type" (values that do not parse, and `*/*`, are
/// skipped; a later value with a different essence resets the charset; a later value with
/// the same essence and no charset keeps the earlier one), then its `charset` parameter.
/// The result is the label as written (quoted strings unescaped, which is the only case
/// that copies), for an encoding's label lookup. None when there is no usable `charset`
/// parameter.
///
/// ```
/// use htmltok_archive::mime::charset_from_content_type as charset;
/// assert_eq!(charset("text/html; charset=ISO-8859-1").as_deref(), Some("ISO-8859-1"));
/// assert_eq!(charset("text/html;charset=\"utf-8\"; q=1").as_deref(), Some("utf-8"));
/// assert_eq!(charset("text/html").as_deref(), None);
/// assert_eq!(charset("text/plain; charset=gbk, text/html").as_deref(), None);
/// ```
pub fn charset_from_content_type(value: &str) -> Option<Cow<'_, str>> {
    let mut charset: Option<Cow<'_, str>> = None;
    let mut essence: Option<(&str, &str)> = None;
    for item in split_header_values(value) {
        let Some(mime) = parse_mime_type(item) else {
            continue;
        };
        if mime.type_ == "*" && mime.subtype == "*" {
            continue;
        }
        let same = essence.is_some_and(|(t, s)| {
            t.eq_ignore_ascii_case(mime.type_) && s.eq_ignore_ascii_case(mime.subtype)
        });
        if !same {
            charset = mime.charset;
            essence = Some((mime.type_, mime.subtype));
        } else if mime.charset.is_some() {
            charset = mime.charset;
        }
    }
    charset
}

/// The essence of a `Content-Type` value as the documents and the join columns compare it:
/// the text before the first `;`, whitespace trimmed (any case, as written).
pub fn essence(value: &str) -> &str {
    value.split(';').next().unwrap_or_default().trim()
}

/// The resource header MIME Sniffing reads (§ 5.2): the first 1,445 bytes.
pub const RESOURCE_HEADER: usize = 1445;

/// MIME Sniffing § 7.1's test for binary data: none of its binary data bytes in the
/// resource header. Tells text from binary where no type or coding says which.
pub fn is_text(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(RESOURCE_HEADER)]
        .iter()
        .all(|&b| !matches!(b, 0x00..=0x08 | 0x0b | 0x0e..=0x1a | 0x1c..=0x1f))
}

/// A parsed MIME type: only what the charset needs.
struct MimeType<'a> {
    type_: &'a str,
    subtype: &'a str,
    charset: Option<Cow<'a, str>>,
}

/// HTTP whitespace: TAB, LF, CR, SPACE.
fn is_http_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' ')
}

/// HTTP token code points.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Fetch's "get, decode, and split": splits a header value at commas outside quoted
/// strings.
fn split_header_values(value: &str) -> Vec<&str> {
    let mut values = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, b) in value.bytes().enumerate() {
        if escaped {
            escaped = false;
        } else if quoted && b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            quoted = !quoted;
        } else if b == b',' && !quoted {
            values.push(value[start..i].trim_matches(is_http_space));
            start = i + 1;
        }
    }
    values.push(value[start..].trim_matches(is_http_space));
    values
}

/// MIME Sniffing § 4.4 "parse a MIME type", keeping only the first `charset` parameter.
fn parse_mime_type(input: &str) -> Option<MimeType<'_>> {
    // 1. Remove any leading and trailing HTTP whitespace.
    let input = input.trim_matches(is_http_space);
    // 3.-6. type: up to "/", non-empty token.
    let slash = input.find('/')?;
    let type_ = &input[..slash];
    if !is_token(type_) {
        return None;
    }
    // 7.-9. subtype: up to ";", trailing HTTP whitespace removed, non-empty token.
    let rest = &input[slash + 1..];
    let end = rest.find(';').unwrap_or(rest.len());
    let subtype = rest[..end].trim_end_matches(is_http_space);
    if !is_token(subtype) {
        return None;
    }
    // 11. parameters
    let mut charset = None;
    let mut params = &rest[end..];
    while let Some(after) = params.strip_prefix(';') {
        let after = after.trim_start_matches(is_http_space);
        let name_end = after.find([';', '=']).unwrap_or(after.len());
        let name = &after[..name_end];
        params = &after[name_end..];
        let Some(value_part) = params.strip_prefix('=') else {
            continue; // at ";" or the end: a parameter without a value
        };
        let value: Cow<'_, str>;
        if let Some(quoted) = value_part.strip_prefix('"') {
            // "collect an HTTP quoted string" with the extract-value flag, then skip to ";".
            let (unquoted, consumed) = collect_quoted(quoted);
            value = unquoted;
            let tail = &quoted[consumed..];
            params = &tail[tail.find(';').unwrap_or(tail.len())..];
        } else {
            let end = value_part.find(';').unwrap_or(value_part.len());
            let raw = value_part[..end].trim_end_matches(is_http_space);
            params = &value_part[end..];
            if raw.is_empty() {
                continue;
            }
            value = Cow::Borrowed(raw);
        }
        let valid_value = value
            .chars()
            .all(|c| c == '\t' || (' '..='~').contains(&c) || ('\u{80}'..='\u{FF}').contains(&c));
        if charset.is_none() && name.eq_ignore_ascii_case("charset") && valid_value {
            charset = Some(value);
        }
    }
    Some(MimeType {
        type_,
        subtype,
        charset,
    })
}

/// Fetch's "collect an HTTP quoted string" with extract-value true, on the text after the
/// opening quote. Returns the value and how many bytes it used (up to and including the
/// closing quote, or everything when there is none).
fn collect_quoted(s: &str) -> (Cow<'_, str>, usize) {
    let mut owned: Option<String> = None;
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let value = owned.map_or(Cow::Borrowed(&s[..i]), Cow::Owned);
                return (value, i + 1);
            }
            '\\' => {
                let buffer = owned.get_or_insert_with(|| s[..i].to_string());
                match chars.next() {
                    Some((_, escaped)) => buffer.push(escaped),
                    None => {
                        buffer.push('\\');
                        return (Cow::Owned(owned.unwrap_or_default()), s.len());
                    }
                }
            }
            c => {
                if let Some(buffer) = owned.as_mut() {
                    buffer.push(c);
                }
            }
        }
    }
    (owned.map_or(Cow::Borrowed(s), Cow::Owned), s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_charset() {
        let cases: &[(&str, Option<&str>)] = &[
            ("text/html; charset=ISO-8859-1", Some("ISO-8859-1")),
            ("text/html;charset=\"utf-8\"", Some("utf-8")),
            ("text/html; charset=\"utf\\-8\"", Some("utf-8")),
            ("TEXT/HTML; Charset=gbk; charset=big5", Some("gbk")),
            ("text/html; charset=", None),
            ("text/html", None),
            ("charset=utf-8", None),
            ("text/html; charset=gbk, text/html", Some("gbk")),
            ("text/html; charset=gbk, text/plain", None),
            ("text/html; charset=gbk, */*", Some("gbk")),
            ("text/html, text/plain;charset=big5", Some("big5")),
            ("text/html; foo=\"a;b,c\"; charset=sjis", Some("sjis")),
        ];
        for &(input, expected) in cases {
            assert_eq!(
                charset_from_content_type(input).as_deref(),
                expected,
                "{input}"
            );
        }
    }
}
