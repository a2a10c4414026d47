//! Fast paths of URL resolution for the common cases of links — absolute `http(s)` URLs
//! already in their normal form, and simple relative references — giving exactly what
//! the `url` crate gives (a property test compares them), or None to let it decide.
//!
//! A fast path only ever accepts a reference whose resolution is a concatenation of its
//! text with parts of the base URL: printable ASCII without the characters the URL parser
//! percent-encodes or rewrites in any component, no dot segment, a lowercase host of
//! letters, digits, dots and hyphens that is not an IP address nor IDNA (`xn--`), and no
//! port or user info.

use url::{Position, Url};

/// The parts of a base URL the fast paths concatenate with.
pub(crate) struct FastBase<'a> {
    /// `scheme://host[:port]`.
    origin: &'a str,
    /// The base up to and including the last `/` of its path.
    directory: &'a str,
    /// The base without its query and fragment.
    before_query: &'a str,
    /// The base without its fragment.
    before_fragment: &'a str,
}

impl<'a> FastBase<'a> {
    /// The parts of `base`, when it is an `http` or `https` URL.
    pub(crate) fn new(base: &'a Url) -> Option<FastBase<'a>> {
        if !matches!(base.scheme(), "http" | "https") || !base.has_host() {
            return None;
        }
        let origin = &base[..Position::BeforePath];
        let before_query = &base[..Position::AfterPath];
        let path = &before_query[origin.len()..];
        let slash = path.rfind('/')?;
        Some(FastBase {
            origin,
            directory: &before_query[..origin.len() + slash + 1],
            before_query,
            before_fragment: &base[..Position::AfterQuery],
        })
    }
}

/// What `Url::options().base_url(base).parse(raw)` gives as a string (`raw` itself when
/// that fails), if a fast path knows it; else None. `base` is [`FastBase::new`] of the
/// base URL, None when there is none or when it is not `http(s)`; `has_base` says whether
/// there is a base URL at all.
pub(crate) fn resolve(raw: &str, base: Option<&FastBase<'_>>, has_base: bool) -> Option<String> {
    if let Some(url) = absolute(raw) {
        return Some(url);
    }
    if !has_base {
        // Without a scheme (which ends in ':'), a reference is relative, and relative
        // without a base is an error: the link keeps its raw text.
        return (!raw.contains(':')).then(|| raw.to_string());
    }
    let base = base?;
    let bytes = raw.as_bytes();
    let (head, path_start) = match bytes.first()? {
        b'/' if bytes.get(1) == Some(&b'/') => return None,
        b'/' => (base.origin, true),
        b'?' => (base.before_query, false),
        b'#' => (base.before_fragment, false),
        _ if has_scheme(bytes) => return None,
        _ => (base.directory, true),
    };
    if !plain_tail(bytes, path_start) {
        return None;
    }
    let mut url = String::with_capacity(head.len() + raw.len());
    url.push_str(head);
    url.push_str(raw);
    Some(url)
}

/// An `http://` or `https://` URL in its normal form (bar a missing `/` path).
fn absolute(raw: &str) -> Option<String> {
    let rest = raw
        .strip_prefix("https://")
        .or_else(|| raw.strip_prefix("http://"))?;
    let host_len = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let (host, tail) = rest.split_at(host_len);
    if !plain_host(host.as_bytes()) || !plain_tail(tail.as_bytes(), true) {
        return None;
    }
    let mut url = String::with_capacity(raw.len() + 1);
    let authority_end = raw.len() - tail.len();
    url.push_str(&raw[..authority_end]);
    if !tail.starts_with('/') {
        url.push('/');
    }
    url.push_str(tail);
    Some(url)
}

/// Whether `bytes` start with a URL scheme and its `:`.
fn has_scheme(bytes: &[u8]) -> bool {
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let end = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .unwrap_or(bytes.len());
    bytes.get(end) == Some(&b':')
}

/// A host the URL parser keeps as it is: lowercase ASCII letters, digits, `.` and `-`,
/// no empty label, no `--` (so no `xn--`), the last label starting with a letter (so not
/// an IPv4 address).
fn plain_host(host: &[u8]) -> bool {
    if host.is_empty() || host[0] == b'.' || host[host.len() - 1] == b'.' {
        return false;
    }
    if !host
        .iter()
        .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
    {
        return false;
    }
    if host.windows(2).any(|w| w == b".." || w == b"--") {
        return false;
    }
    let last = host.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1);
    host[last].is_ascii_lowercase()
}

/// A path (when `path_start`), query and fragment the URL parser keeps as they are:
/// printable ASCII but for `"'<>\^`{|}[]` and `\`, and no path segment that starts like a
/// dot segment (`.`, `%2e`).
fn plain_tail(tail: &[u8], path_start: bool) -> bool {
    let plain = tail.iter().all(|&b| {
        (0x21..=0x7E).contains(&b)
            && !matches!(
                b,
                b'"' | b'\'' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}' | b'[' | b']'
            )
    });
    if !plain {
        return false;
    }
    // The path: up to the query or fragment.
    let path_end = tail
        .iter()
        .position(|&b| b == b'?' || b == b'#')
        .unwrap_or(tail.len());
    let path = &tail[..path_end];
    let mut at_segment = path_start;
    for (i, &b) in path.iter().enumerate() {
        if at_segment && (b == b'.' || (b == b'%' && path.get(i + 1) == Some(&b'2'))) {
            return false;
        }
        at_segment = b == b'/';
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{Arbitrary, Gen, QuickCheck};

    /// What the `url` crate gives, as `Collector::finish` uses it.
    fn slow(raw: &str, base: Option<&Url>) -> String {
        Url::options()
            .base_url(base)
            .parse(raw)
            .map_or_else(|_| raw.to_string(), String::from)
    }

    fn check(raw: &str, base: Option<&Url>) -> bool {
        let fast_base = base.and_then(FastBase::new);
        match resolve(raw, fast_base.as_ref(), base.is_some()) {
            Some(fast) => {
                let want = slow(raw, base);
                assert_eq!(fast, want, "{raw:?} against {:?}", base.map(Url::as_str));
                true
            }
            None => false,
        }
    }

    const PIECES: &[&str] = &[
        "http://",
        "https://",
        "HTTP://",
        "http:",
        "ftp://",
        "file:///",
        "mailto:",
        "//",
        "/",
        "/",
        "/",
        "a",
        "b",
        "z",
        "Q",
        "0",
        "1",
        "9",
        "0x",
        "0x1f",
        "255",
        ".",
        ".",
        "..",
        "-",
        "--",
        "xn--",
        "xn--nxasmq6b",
        "_",
        "~",
        "%",
        "%2e",
        "%2E",
        "%41",
        "%zz",
        "?",
        "?",
        "#",
        "#",
        ":",
        ":80",
        ":8080",
        "@",
        "user@",
        "\\",
        " ",
        "\t",
        "\n",
        "\x01",
        "é",
        "ü",
        "\u{a0}",
        "[",
        "]",
        "[::1]",
        "'",
        "\"",
        "<",
        ">",
        "`",
        "{",
        "}",
        "^",
        "|",
        "=",
        "&",
        "+",
        ",",
        ";",
        "!",
        "$",
        "*",
        "(",
        ")",
        "com",
        "example",
        "www.",
        "index.html",
        "a.b",
        "1.2.3.4",
        "127.0.0.1",
    ];

    const BASES: &[&str] = &[
        "https://example.org/dir/page.html?q=1#f",
        "http://example.org",
        "https://a.b/c/",
        "https://a.b/c/d?x",
        "http://example.org:8080/x/y",
        "https://user:pw@example.org/x/",
        "http://127.0.0.1/a/b",
        "http://[::1]/a/",
        "file:///tmp/x/y.html",
        "ftp://example.org/pub/",
        "mailto:someone@example.org",
        "https://example.org/a%2e/b/",
    ];

    #[derive(Clone, Debug)]
    struct Reference(String, Option<usize>);

    impl Arbitrary for Reference {
        fn arbitrary(g: &mut Gen) -> Self {
            let n = usize::arbitrary(g) % 12;
            let raw = (0..n).map(|_| *g.choose(PIECES).unwrap()).collect();
            let base = Option::<usize>::arbitrary(g).map(|i| i % BASES.len());
            Reference(raw, base)
        }
    }

    fn agrees(r: Reference) -> bool {
        let base = r.1.map(|i| Url::parse(BASES[i]).unwrap());
        check(&r.0, base.as_ref());
        true
    }

    #[test]
    fn fast_paths_agree_with_the_url_crate() {
        QuickCheck::new()
            .tests(200_000)
            .max_tests(400_000)
            .quickcheck(agrees as fn(Reference) -> bool);
    }

    #[test]
    fn fast_paths_are_taken() {
        let base = Url::parse("https://example.org/dir/page.html?q=1#f").unwrap();
        for raw in [
            "https://cdn.example.com/s.css",
            "http://example.com",
            "http://example.com?x=1",
            "/abs/path?x=1&y=2#top",
            "rel/path.png",
            "?page=2",
            "#section",
        ] {
            assert!(check(raw, Some(&base)), "{raw}");
        }
        for raw in ["rel/path", "/abs", "https://example.com/x", "#x"] {
            assert!(check(raw, None), "{raw}");
        }
        for raw in [
            "../up",
            "./here",
            "//cdn.example/x",
            "HTTP://example.com/",
            "https://xn--nxasmq6b.com/",
            "https://1.2.3.4/",
            "https://example.com:443/",
            "a b",
            "mailto:x@example.org",
            "javascript:void(0)",
        ] {
            assert!(!check(raw, Some(&base)), "{raw}");
        }
    }
}
