//! HTTP messages as archives store them: a response's head (RFC 9112 § 4–5), and its body
//! with the transfer codings (RFC 9112 § 7) and content codings (RFC 9110 § 8.4) the
//! headers name undone, so that the HTML sees the bytes the server meant.
//!
//! # What archives really hold
//!
//! A WARC writer is meant to store the message as it came off the wire, chunk framing and
//! compression included, and most do. But many keep the headers and store the body
//! already decoded (pywb and wget de-chunk, ClueWeb stores inflated bodies and keeps
//! `Content-Encoding: gzip`), and servers send codings they do not apply
//! (`Content-Encoding: utf-8`). So each coding is undone only where the stored bytes are
//! in it:
//!
//! | the header names | the stored bytes | the body is |
//! |---|---|---|
//! | `chunked` | a chunk-size line first | the chunks' data; cut off in a chunk: what came before the cut ([`Note::Truncated`]); framing that breaks after some chunks: the chunks, then the rest as stored ([`Note::FramingEnds`]) |
//! | `chunked` | anything else | as stored ([`Note::NotApplied`]) |
//! | `gzip`, `x-gzip` | the gzip magic `1f 8b` | inflated (every member); cut off or corrupt after some output: that output ([`Note::Truncated`]); with no output: an error |
//! | `gzip`, `x-gzip` | no gzip magic | as stored ([`Note::NotApplied`]) |
//! | `zstd` | the zstd magic `28 b5 2f fd` | decoded (as gzip) |
//! | `deflate` | a zlib header | inflated; else raw deflate is tried (some servers send it) |
//! | `deflate`, `br` | does not decode and is text (no byte MIME Sniffing calls binary in its first 1,445) | as stored ([`Note::NotApplied`]) |
//! | `deflate`, `br` | does not decode and is binary | an error (with no magic number, output before the error proves nothing) |
//! | `identity`, empty | — | as stored |
//! | anything else (`compress`, `utf-8`, …) | — | as stored ([`Note::Unknown`]) |
//!
//! Codings are undone last-applied first: the transfer codings from the end of their
//! list, then the content codings from the end of theirs (`Content-Encoding: gzip, br`
//! says gzip was applied first, so br is undone first). warcio
//! decides the same way (it falls back to the stored bytes when the first decode fails,
//! and treats the rest of a body whose chunk framing breaks as not chunked); the notes
//! say where htmltok did, so that nothing changes in silence.
//!
//! # Cost
//!
//! A body without codings is not touched (no copy, no scan). A coded body costs one decode
//! into a new buffer; the stored bytes are kept beside it
//! ([`Record::raw_body`](crate::warc::Record::raw_body)). A decoded body is capped at the
//! reader's record limit (a decompression bomb is an error, not an allocation).

use std::fmt;
use std::io::Read;

use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// An HTTP response's head.
#[derive(Debug)]
pub(crate) struct Head {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    /// Where the body starts in the block.
    pub(crate) body_start: usize,
}

impl Head {
    /// The last header named `name` (any case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Whether `bytes` start with an HTTP status line: `HTTP/`, or another protocol name in
/// a status line's shape, `NAME/1.1 200` (see [`other_protocol`]).
pub(crate) fn starts_with_status_line(bytes: &[u8]) -> bool {
    bytes.starts_with(b"HTTP/") || other_protocol(bytes) == Shape::Whole
}

/// How the first line of a block matches a status line whose protocol name is not `HTTP`:
/// a token (RFC 9110 § 5.6.2), `/`, digits (`.` digits), a space, three digits, then the
/// line's end or a space. warcio takes any first line for a status line; a browser shows
/// a response whose first line is not `HTTP/…` as text (HTTP/0.9). An archive's
/// `response` record is an HTTP response by its type, and a line of exactly this shape
/// (pywb's test file has `HTTPX/1.1 200 OK`) is a garbled status line followed by
/// headers: taken as text, the headers would be the page. Anything looser (no version,
/// no three-digit code) stays text, so that a `dns:` or `ftp:` response's block is not
/// split.
pub(crate) fn other_protocol(bytes: &[u8]) -> Shape {
    let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    let digit = |b: u8| b.is_ascii_digit();
    let mut line = Parts { bytes, at: 0 };
    let mut parts = || {
        line.take(is_tchar, 1, 31)?;
        line.take(|b| b == b'/', 1, 1)?;
        line.take(digit, 1, 4)?;
        if line.take(|b| b == b'.', 0, 1)? == 1 {
            line.take(digit, 1, 4)?;
        }
        line.take(|b| b == b' ', 1, 1)?;
        line.take(digit, 3, 3)?;
        match line.bytes.get(line.at) {
            None => Err(Shape::Prefix),
            Some(b' ' | b'\r' | b'\n') => Ok(()),
            Some(_) => Err(Shape::No),
        }
    };
    match parts() {
        Ok(()) => Shape::Whole,
        Err(shape) => shape,
    }
}

/// A line matched part by part.
struct Parts<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parts<'_> {
    /// Takes a run of `min` to `max` bytes that `ok` accepts; how many, or how the line
    /// fails to match (it ends inside the run: a prefix).
    fn take(&mut self, ok: impl Fn(u8) -> bool, min: usize, max: usize) -> Result<usize, Shape> {
        let n = self.bytes[self.at..]
            .iter()
            .take(max)
            .take_while(|&&b| ok(b))
            .count();
        self.at += n;
        if self.at == self.bytes.len() && n < max {
            Err(Shape::Prefix)
        } else if n < min {
            Err(Shape::No)
        } else {
            Ok(n)
        }
    }
}

/// How bytes match a pattern: wholly, as a prefix cut short, or not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Whole,
    Prefix,
    No,
}

/// The length of an HTTP response's head (status line, headers and the empty line after
/// them) when `bytes` start with a status line and hold all of it: the end of the first
/// empty line, as [`parse_head`] finds it.
pub(crate) fn head_len(bytes: &[u8]) -> Option<usize> {
    if !starts_with_status_line(bytes) {
        return None;
    }
    let lf_lf = memchr::memmem::find(bytes, b"\n\n").map(|i| i + 2);
    let lf_crlf = memchr::memmem::find(bytes, b"\n\r\n").map(|i| i + 3);
    match (lf_lf, lf_crlf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Whether `block`, a response's block that the end of its input cut off, ends inside its
/// HTTP head: it starts with a status line, or with what can only begin one (`HTT`,
/// `HTTP/1.1 2`, `HTTPX/1`: another protocol's name once its `/` is there), and the
/// head's empty line is not in it.
pub(crate) fn ends_in_head(block: &[u8]) -> bool {
    if block.is_empty() {
        return false;
    }
    if memchr::memchr(b'\n', block).is_some() {
        return parse_head(block).is_some() && head_len(block).is_none();
    }
    b"HTTP/".starts_with(&block[..block.len().min(5)])
        || block.starts_with(b"HTTP/")
        || (other_protocol(block) != Shape::No && block.contains(&b'/'))
}

/// Parses the status line and headers of an HTTP response; None when the block does not
/// start with a status line (`HTTP/x SSS`, or another protocol name in its shape, see
/// [`other_protocol`]). Lines may end in CR LF or LF; folded lines are joined. A head
/// that never ends leaves an empty body.
pub(crate) fn parse_head(block: &[u8]) -> Option<Head> {
    if !starts_with_status_line(block) {
        return None;
    }
    let line_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
    let status_line = &block[..line_end];
    let mut parts = status_line
        .split(|&b| b == b' ')
        .filter(|part| !part.is_empty());
    parts.next()?;
    let code = parts.next()?;
    let code = code.strip_suffix(b"\r").unwrap_or(code);
    if code.len() != 3 || !code.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let status = std::str::from_utf8(code).ok()?.parse().ok()?;
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut at = (line_end + 1).min(block.len());
    loop {
        if at >= block.len() {
            break;
        }
        let end = memchr::memchr(b'\n', &block[at..]).map_or(block.len(), |i| at + i);
        let line = &block[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at = (end + 1).min(block.len());
        if line.is_empty() {
            break;
        }
        if matches!(line[0], b' ' | b'\t') {
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(String::from_utf8_lossy(line).trim());
            }
            continue;
        }
        if let Some(colon) = memchr::memchr(b':', line) {
            let name = String::from_utf8_lossy(&line[..colon]).trim().to_string();
            let value = String::from_utf8_lossy(&line[colon + 1..])
                .trim()
                .to_string();
            headers.push((name, value));
        }
    }
    Some(Head {
        status,
        headers,
        body_start: at,
    })
}

// ---------------------------------------------------------------------------------------
// Payload decoding
// ---------------------------------------------------------------------------------------

/// How a body's decoding departed from what its headers say; see the
/// [module documentation](self). Each is counted under its [`Note::reason`] by the batch.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// The headers name this coding but the stored bytes are evidently not in it (already
    /// de-chunked or inflated by the archiver): used as stored.
    NotApplied {
        /// The coding, lowercase.
        coding: String,
    },
    /// A coding htmltok does not know (`compress`, or a value such as `utf-8` that is no
    /// coding at all): the bytes are used as stored, as browsers and warcio do.
    Unknown {
        /// The coding, as written.
        coding: String,
    },
    /// The body ends (or turns corrupt) inside this coding: what decoded before that point
    /// is the body.
    Truncated {
        /// The coding, lowercase.
        coding: String,
    },
    /// The chunk framing breaks after some chunks: their data, then the rest as stored
    /// (what warcio does too).
    FramingEnds,
}

impl Note {
    /// A short name for counting: `coding-not-applied`, `unknown-coding`,
    /// `payload-truncated`, `chunk-framing-ends`.
    pub fn reason(&self) -> &'static str {
        match self {
            Note::NotApplied { .. } => "coding-not-applied",
            Note::Unknown { .. } => "unknown-coding",
            Note::Truncated { .. } => "payload-truncated",
            Note::FramingEnds => "chunk-framing-ends",
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::NotApplied { coding } => write!(
                f,
                "the headers name {coding} but the body is not in it: used as stored"
            ),
            Note::Unknown { coding } => write!(f, "unknown coding {coding:?}: used as stored"),
            Note::Truncated { coding } => write!(
                f,
                "the body ends inside its {coding} coding: what decoded before is used"
            ),
            Note::FramingEnds => f.write_str(
                "the chunk framing breaks: the chunks read, then the rest as stored, are used",
            ),
        }
    }
}

/// A body that is in the coding its headers name but does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyError {
    /// The coding, lowercase.
    pub coding: String,
    /// Why (the decoder's message, or the size limit).
    pub why: String,
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} body does not decode: {}", self.coding, self.why)
    }
}

impl std::error::Error for BodyError {}

/// A decoded body.
#[derive(Debug, Default)]
pub struct Decoded {
    /// The body, decoded; None when nothing changed it (the stored bytes are the body).
    pub body: Option<Vec<u8>>,
    /// What departed from the headers.
    pub notes: Vec<Note>,
}

/// Undoes the codings `transfer_encoding` and `content_encoding` (the header values, as
/// written) name, in the order of the [module documentation](self). `limit` caps the
/// decoded size. The archive reader calls it on every HTTP response it reads.
///
/// ```
/// use htmltok_archive::http::decode_body;
///
/// let decoded = decode_body(b"5\r\nhello\r\n0\r\n\r\n", Some("chunked"), None, 1 << 20).unwrap();
/// assert_eq!(decoded.body.as_deref(), Some(&b"hello"[..]));
/// // Stored already de-chunked, the header kept: used as stored, and said so.
/// let decoded = decode_body(b"<p>hello", Some("chunked"), None, 1 << 20).unwrap();
/// assert_eq!((decoded.body, decoded.notes[0].reason()), (None, "coding-not-applied"));
/// ```
pub fn decode_body(
    stored: &[u8],
    transfer_encoding: Option<&str>,
    content_encoding: Option<&str>,
    limit: u64,
) -> Result<Decoded, BodyError> {
    // In the order applied: the content codings, then the transfer codings on top of
    // them; popped from the end.
    let mut codings: Vec<&str> = [content_encoding, transfer_encoding]
        .into_iter()
        .flatten()
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let mut decoded = Decoded::default();
    while let Some(coding) = codings.pop() {
        let current: &[u8] = decoded.body.as_deref().unwrap_or(stored);
        let name = coding.to_ascii_lowercase();
        let step = match name.as_str() {
            "identity" => continue,
            "chunked" => dechunk(current),
            "gzip" | "x-gzip" if !current.starts_with(&[0x1f, 0x8b]) => Step::NotApplied,
            "gzip" | "x-gzip" => inflate(MultiGzDecoder::new(current), &name, limit),
            "zstd" if !current.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) => Step::NotApplied,
            "zstd" => inflate_zstd(current, &name, limit),
            // HTTP's "deflate" is zlib; some servers send raw deflate.
            "deflate" => match is_zlib_header(current)
                .then(|| inflate(ZlibDecoder::new(current), &name, limit))
            {
                Some(Step::Failed(_)) | None => text_or(current, || {
                    inflate(DeflateDecoder::new(current), &name, limit)
                }),
                Some(step) => step,
            },
            "br" => text_or(current, || {
                inflate(
                    brotli_decompressor::Decompressor::new(current, 64 << 10),
                    &name,
                    limit,
                )
            }),
            _ => Step::Unknown,
        };
        match step {
            Step::Decoded(body) => decoded.body = Some(body),
            Step::Truncated(body) => {
                decoded.body = Some(body);
                decoded.notes.push(Note::Truncated { coding: name });
            }
            Step::FramingEnds(body) => {
                decoded.body = Some(body);
                decoded.notes.push(Note::FramingEnds);
            }
            Step::NotApplied => decoded.notes.push(Note::NotApplied { coding: name }),
            Step::Unknown => decoded.notes.push(Note::Unknown {
                coding: coding.to_string(),
            }),
            Step::Failed(why) => return Err(BodyError { coding: name, why }),
        }
    }
    Ok(decoded)
}

/// What undoing one coding gave.
enum Step {
    Decoded(Vec<u8>),
    Truncated(Vec<u8>),
    FramingEnds(Vec<u8>),
    NotApplied,
    Unknown,
    Failed(String),
}

/// Whether `bytes` start with a zlib header (RFC 1950 § 2.2: method 8, and the check bits).
fn is_zlib_header(bytes: &[u8]) -> bool {
    match bytes {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// Runs `decode` for a coding with no magic number to tell its data by (`br`, raw
/// `deflate`). When it fails and `bytes` are text, they are evidently not in the coding:
/// [`Step::NotApplied`]. When it fails on binary bytes, even after some output, it is a
/// failure: without a magic number, output before an error is no sign that the bytes
/// were in the coding.
fn text_or(bytes: &[u8], decode: impl FnOnce() -> Step) -> Step {
    match decode() {
        Step::Failed(_) | Step::Truncated(_) if crate::mime::is_text(bytes) => Step::NotApplied,
        Step::Truncated(_) => Step::Failed("the data does not decode".to_string()),
        step => step,
    }
}

/// Reads `decoder` to its end within `limit` bytes. An error after some output is a
/// truncation (the output is kept); before any, a failure.
fn inflate(mut decoder: impl Read, coding: &str, limit: u64) -> Step {
    let mut out = Vec::new();
    let result = (&mut decoder)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out);
    if out.len() as u64 > limit {
        return Step::Failed(format!("it decodes to more than {limit} bytes"));
    }
    match result {
        Ok(_) => Step::Decoded(out),
        Err(_) if !out.is_empty() => Step::Truncated(out),
        Err(error) => Step::Failed(format!("{coding}: {error}")),
    }
}

/// A zstd body: every frame, within `limit`.
fn inflate_zstd(bytes: &[u8], coding: &str, limit: u64) -> Step {
    match zstd::stream::read::Decoder::with_buffer(bytes) {
        Ok(decoder) => inflate(decoder, coding, limit),
        Err(error) => Step::Failed(error.to_string()),
    }
}

/// Undoes `chunked` (RFC 9112 § 7.1): see the module documentation for bodies whose
/// framing is not what it should be. Trailer fields after the last chunk are not body.
fn dechunk(input: &[u8]) -> Step {
    if chunk_size_line(input).is_none() {
        return Step::NotApplied;
    }
    let mut out = Vec::with_capacity(input.len());
    let mut rest = input;
    loop {
        let Some((size, line_len)) = chunk_size_line(rest) else {
            // Framing that breaks after some chunks (or a body that ends without the
            // last chunk, at a chunk boundary, which is no loss).
            if rest.iter().all(|b| b.is_ascii_whitespace()) {
                return Step::Decoded(out);
            }
            out.extend_from_slice(rest);
            return Step::FramingEnds(out);
        };
        rest = &rest[line_len..];
        if size == 0 {
            return Step::Decoded(out);
        }
        let Some(data) = usize::try_from(size).ok().and_then(|n| rest.get(..n)) else {
            out.extend_from_slice(rest);
            return Step::Truncated(out);
        };
        out.extend_from_slice(data);
        rest = &rest[data.len()..];
        rest = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
            .unwrap_or(rest);
    }
}

/// A chunk-size line at the start of `bytes`: hex digits, then extensions or whitespace,
/// then LF (CR LF); the size and the line's length. None when `bytes` do not start with
/// one (a line over 1,024 bytes is none either).
fn chunk_size_line(bytes: &[u8]) -> Option<(u64, usize)> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if digits == 0 || digits > 16 {
        return None;
    }
    let line_end = memchr::memchr(b'\n', &bytes[..bytes.len().min(1024)])?;
    let after = &bytes[digits..line_end];
    let after = after.strip_suffix(b"\r").unwrap_or(after);
    if !(after.is_empty() || matches!(after[0], b';' | b' ' | b'\t')) {
        return None;
    }
    let size = u64::from_str_radix(std::str::from_utf8(&bytes[..digits]).ok()?, 16).ok()?;
    Some((size, line_end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    fn decode(body: &[u8], te: Option<&str>, ce: Option<&str>) -> (Vec<u8>, Vec<Note>) {
        let decoded = decode_body(body, te, ce, 1 << 20).unwrap();
        (decoded.body.unwrap_or_else(|| body.to_vec()), decoded.notes)
    }

    #[test]
    fn status_lines_of_other_protocols() {
        for line in [
            &b"HTTPX/1.1 200 OK\r\n"[..],
            b"ICAP/1.0 200\n",
            b"HTTP-NG/2 404 Not Found\n",
            b"x/1.0 301 \r\n",
        ] {
            assert_eq!(other_protocol(line), Shape::Whole, "{line:?}");
            assert!(starts_with_status_line(line));
        }
        for line in [
            &b"HTTPX"[..],
            b"",
            b"HTTPX/1.",
            b"HTTPX/1.1 20",
            b"ICAP/1 200",
            b"ICAP/1.0 200",
        ] {
            assert_eq!(other_protocol(line), Shape::Prefix, "{line:?}");
        }
        for line in [
            &b"HTTPX 200 OK"[..],
            b"HTTPX/1.1 2000",
            b"HTTPX/1. 200",
            b"HTTPX/a 200",
            b"20080430204826\nexample.com. 300 IN A 1.2.3.4",
            b"<html>",
            b"Hello world",
        ] {
            assert_eq!(other_protocol(line), Shape::No, "{line:?}");
        }
        let head = parse_head(b"HTTPX/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>").unwrap();
        assert_eq!(
            (head.status, head.header("content-type")),
            (200, Some("text/html"))
        );
        assert_eq!(head_len(b"HTTPX/1.1 200 OK\r\n\r\n<p>"), Some(20));
    }

    #[test]
    fn blocks_cut_in_their_head() {
        for block in [
            &b"H"[..],
            b"HTTP/1",
            b"HTTP/1.1 200 OK\r\nContent-Ty",
            b"HTTP/1.1 200 OK\r\n",
            b"HTTP/1.1 200 OK\r\n\r",
            b"HTTPX/1.1 20",
        ] {
            assert!(ends_in_head(block), "{block:?}");
        }
        for block in [
            &b"HTTP/1.1 200 OK\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\n\n<p>",
            b"<html><p>",
            b"Hello\r\nworld",
            b"HTTP/1.1 OK\r\nServer: x",
            b"abc",
            b"HTTPX",
            b"",
        ] {
            assert!(!ends_in_head(block), "{block:?}");
        }
    }

    #[test]
    fn chunked_bodies() {
        let (body, notes) = decode(
            b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n",
            Some("chunked"),
            None,
        );
        assert_eq!((body.as_slice(), notes), (&b"hello world"[..], vec![]));
        assert_eq!(decode(b"5\nhello\n0\n", Some("chunked"), None).0, b"hello");
        // Already de-chunked.
        let (body, notes) = decode(b"<html>hi", Some("chunked"), None);
        assert_eq!(body, b"<html>hi");
        assert_eq!(notes[0].reason(), "coding-not-applied");
        // Cut off inside a chunk.
        let (body, notes) = decode(b"50\r\nhello", Some("chunked"), None);
        assert_eq!(
            (body.as_slice(), notes[0].reason()),
            (&b"hello"[..], "payload-truncated")
        );
        // Framing that breaks after a chunk: the rest as stored.
        let (body, notes) = decode(b"5\r\nhello\r\nzz world", Some("chunked"), None);
        assert_eq!(body, b"hellozz world");
        assert_eq!(notes, vec![Note::FramingEnds]);
        // No last chunk, at a boundary: nothing lost, nothing to say.
        let (body, notes) = decode(b"5\r\nhello\r\n", Some("chunked"), None);
        assert_eq!((body.as_slice(), notes), (&b"hello"[..], vec![]));
    }

    #[test]
    fn content_codings() {
        let page = b"<!doctype html><title>x</title>";
        assert_eq!(
            decode(&gzip(page), None, Some("gzip")),
            (page.to_vec(), vec![])
        );
        assert_eq!(decode(&gzip(page), None, Some("X-Gzip")).0, page);
        // Stored already inflated with the header kept.
        let (body, notes) = decode(page, None, Some("gzip"));
        assert_eq!(body, page);
        assert_eq!(notes[0].reason(), "coding-not-applied");
        for (ce, coded) in [
            ("deflate", {
                let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
                e.write_all(page).unwrap();
                e.finish().unwrap()
            }),
            ("deflate", {
                let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Default::default());
                e.write_all(page).unwrap();
                e.finish().unwrap()
            }),
            ("zstd", zstd::bulk::compress(page, 3).unwrap()),
        ] {
            assert_eq!(
                decode(&coded, None, Some(ce)),
                (page.to_vec(), vec![]),
                "{ce}"
            );
        }
        for ce in ["deflate", "br", "zstd"] {
            let (body, notes) = decode(page, None, Some(ce));
            assert_eq!(
                (body.as_slice(), notes[0].reason()),
                (&page[..], "coding-not-applied")
            );
        }
        let (body, notes) = decode(page, None, Some("utf-8"));
        assert_eq!(
            (body.as_slice(), notes[0].reason()),
            (&page[..], "unknown-coding")
        );
        assert_eq!(
            decode(page, None, Some("identity")),
            (page.to_vec(), vec![])
        );
    }

    #[test]
    fn brotli_bodies() {
        // "hello" compressed with brotli (quality 11): a fixed vector so the test needs no
        // encoder.
        let coded = [0x0b, 0x02, 0x80, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x03];
        assert_eq!(
            decode(&coded, None, Some("br")),
            (b"hello".to_vec(), vec![])
        );
    }

    #[test]
    fn stacked_codings_undo_in_reverse() {
        let page = b"<p>stacked</p>";
        // gzip applied, then chunked.
        let gz = gzip(page);
        let mut chunked = format!("{:x}\r\n", gz.len()).into_bytes();
        chunked.extend_from_slice(&gz);
        chunked.extend_from_slice(b"\r\n0\r\n\r\n");
        assert_eq!(
            decode(&chunked, Some("chunked"), Some("gzip")),
            (page.to_vec(), vec![])
        );
        // gzip then zstd (Content-Encoding: gzip, zstd): zstd is undone first.
        let both = zstd::bulk::compress(&gz, 3).unwrap();
        assert_eq!(
            decode(&both, None, Some("gzip, zstd")),
            (page.to_vec(), vec![])
        );
        // Transfer-Encoding: gzip, chunked.
        assert_eq!(
            decode(&chunked, Some("gzip, chunked"), None),
            (page.to_vec(), vec![])
        );
    }

    #[test]
    fn broken_and_oversized_bodies() {
        let page = vec![b'a'; 100_000];
        let gz = gzip(&page);
        // Cut off: what inflated is kept.
        let (body, notes) = decode(&gz[..gz.len() / 2 + 20], None, Some("gzip"));
        assert!(!body.is_empty() && body.len() < page.len());
        assert_eq!(notes[0].reason(), "payload-truncated");
        // Magic, then garbage: an error.
        let error = decode_body(
            &[0x1f, 0x8b, 8, 0, 0xff, 0xff, 0xff],
            None,
            Some("gzip"),
            1 << 20,
        )
        .unwrap_err();
        assert_eq!(error.coding, "gzip");
        // A bomb over the limit: an error, not an allocation.
        let error = decode_body(&gz, None, Some("gzip"), 1000).unwrap_err();
        assert!(error.why.contains("more than 1000"), "{error}");
        // Binary that is not brotli: an error.
        assert!(decode_body(&[0x01; 64], None, Some("br"), 1 << 20).is_err());
    }

    #[test]
    fn plain_bodies_are_not_touched() {
        let decoded = decode_body(b"<p>x", None, None, 10).unwrap();
        assert!(decoded.body.is_none() && decoded.notes.is_empty());
    }
}
