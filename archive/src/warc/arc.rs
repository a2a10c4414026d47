//! ARC, the Internet Archive's container before WARC (versions 1 and 2, as in the
//! Internet Archive's "ARC file format" note of 1996 and Heritrix's ARC writer): `.arc`,
//! and `.arc.gz` with one gzip member per record. The reader reads both containers with
//! the same machinery (units, damage, offsets); this module holds what is ARC's own: the
//! record's header line, and telling one apart while searching after damage.
//!
//! An ARC record is one header line, then `length` bytes of block, then a line feed:
//!
//! ```text
//! version 1: URL IP-address Archive-date Content-type Archive-length
//! version 2: URL IP-address Archive-date Content-type Result-code Checksum Location
//!            Offset Filename Archive-length
//! ```
//!
//! The file starts with a `filedesc://` record whose block names the version (`1 0 …`,
//! `2 0 …`) and the fields. For an `http:` URL the block is the HTTP response, as a WARC
//! `response` record's; the record is read into the same [`Record`](super::Record), with
//! `WARC-Type` `response` (or `resource` when the block is not an HTTP message), the URL,
//! the date as a WARC date (`20080430204825` → `2008-04-30T20:48:25Z`) and the IP address.
//!
//! URLs with spaces in them are real (`example-space-in-url.arc`): the fields are taken
//! from the end of the line, and whatever is left before them is the URL, as warcio does.

/// One ARC record's header line, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) url: String,
    pub(crate) ip: Option<String>,
    /// The 14-digit date as a WARC date (`YYYY-MM-DDThh:mm:ssZ`).
    pub(crate) date: Option<String>,
    /// The archiver's content type (`-`, `no-type`: None).
    pub(crate) content_type: Option<String>,
    pub(crate) length: Length,
}

/// The `Archive-length` field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Length {
    Bytes(u64),
    /// Not a decimal number (`-1`, `abc`): the record cannot be read.
    Bad(String),
}

/// The ARC version a file's `filedesc://` record names (fields per header line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    V1,
    V2,
}

impl Version {
    /// From the first line of a `filedesc://` record's block (`1 0 InternetArchive`).
    pub(crate) fn of_filedesc(block: &[u8]) -> Option<Version> {
        match block.first()? {
            b'1' => Some(Version::V1),
            b'2' => Some(Version::V2),
            _ => None,
        }
    }
}

/// Parses a header line (without its line end), as `version` has it (None: whichever
/// shape fits, version 2 first). None when it is not an ARC header line.
pub(crate) fn parse_header(line: &[u8], version: Option<Version>) -> Option<Header> {
    let line = std::str::from_utf8(line).ok()?;
    let line = line.trim_end_matches(['\r', ' ']);
    let fields: Vec<&str> = line.split(' ').collect();
    let v2 = match version {
        Some(Version::V2) => true,
        Some(Version::V1) => false,
        None => fields.len() >= 10 && v2_shape(&fields),
    };
    let (url_fields, ip, date, content_type, length) = if v2 {
        if fields.len() < 10 || !v2_shape(&fields) {
            return None;
        }
        let n = fields.len();
        (
            &fields[..n - 9],
            fields[n - 9],
            fields[n - 8],
            fields[n - 7],
            fields[n - 1],
        )
    } else {
        if fields.len() < 5 {
            return None;
        }
        let n = fields.len();
        (
            &fields[..n - 4],
            fields[n - 4],
            fields[n - 3],
            fields[n - 2],
            fields[n - 1],
        )
    };
    let url = url_fields.join(" ");
    if !is_date(date) || !looks_like_url(&url) || ip.is_empty() || length.is_empty() {
        return None;
    }
    let length = match length.parse::<u64>() {
        Ok(n) if length.bytes().all(|b| b.is_ascii_digit()) => Length::Bytes(n),
        _ => Length::Bad(length.to_string()),
    };
    let present = |field: &str| (!field.is_empty() && field != "-").then(|| field.to_string());
    Some(Header {
        url,
        ip: present(ip),
        date: Some(warc_date(date)),
        content_type: present(content_type).filter(|t| t != "no-type"),
        length,
    })
}

/// Whether the fields end as a version 2 line does: a date eight from the end, a result
/// code (or `-`) six from the end, an offset (or `-`) three from the end.
fn v2_shape(fields: &[&str]) -> bool {
    let n = fields.len();
    let code = fields[n - 6];
    let offset = fields[n - 3];
    is_date(fields[n - 8])
        && (code == "-" || (code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit())))
        && (offset == "-" || offset.bytes().all(|b| b.is_ascii_digit()))
}

/// An ARC date: at least 8 digits (`YYYYMMDD`), usually 14; some writers add more.
fn is_date(field: &str) -> bool {
    field.len() >= 8 && field.len() <= 20 && field.bytes().all(|b| b.is_ascii_digit())
}

/// A URL as ARC writers write them: a scheme and a colon (`http:`, `dns:`, `filedesc:`).
fn looks_like_url(url: &str) -> bool {
    let Some(colon) = url.find(':') else {
        return false;
    };
    let scheme = &url[..colon];
    !scheme.is_empty()
        && scheme.as_bytes()[0].is_ascii_alphabetic()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// `YYYYMMDDhhmmss` (shorter: the rest taken as zero) as `YYYY-MM-DDThh:mm:ssZ`.
fn warc_date(digits: &str) -> String {
    let mut d = [b'0'; 14];
    for (slot, byte) in d.iter_mut().zip(digits.bytes()) {
        *slot = byte;
    }
    let d = |range: std::ops::Range<usize>| std::str::from_utf8(&d[range]).unwrap_or("00");
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        d(0..4),
        d(4..6),
        d(6..8),
        d(8..10),
        d(10..12),
        d(12..14)
    )
}

/// Whether `bytes` begin with a whole ARC header line (the judgment of a record start
/// when searching after damage: the line must end within `bytes`).
pub(crate) fn starts_record(bytes: &[u8]) -> bool {
    match memchr::memchr(b'\n', bytes) {
        Some(end) => parse_header(&bytes[..end], None).is_some(),
        None => false,
    }
}

/// Whether `bytes`, an ARC file's first (decompressed) bytes, begin an ARC file: a
/// `filedesc://` record, or an ARC header line (some ARC files have no `filedesc://`
/// record).
pub(crate) fn starts_arc_file(bytes: &[u8]) -> bool {
    bytes.starts_with(b"filedesc://") || starts_record(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_1_lines() {
        let h = parse_header(
            b"http://example.com/ 93.184.216.119 20140216050221 text/html 1591",
            None,
        )
        .unwrap();
        assert_eq!(h.url, "http://example.com/");
        assert_eq!(h.ip.as_deref(), Some("93.184.216.119"));
        assert_eq!(h.date.as_deref(), Some("2014-02-16T05:02:21Z"));
        assert_eq!(h.content_type.as_deref(), Some("text/html"));
        assert_eq!(h.length, Length::Bytes(1591));
        // Spaces in the URL.
        let h = parse_header(
            b"http://e.com/x?T=Examples From The Web&P=1 1.2.3.4 20140216050221 text/html 9\r",
            Some(Version::V1),
        )
        .unwrap();
        assert_eq!(h.url, "http://e.com/x?T=Examples From The Web&P=1");
        assert_eq!(h.length, Length::Bytes(9));
        // A bad length is still a header (the record is reported, not mistaken for text).
        let h = parse_header(
            b"http://example.com/ 1.2.3.4 20140102000000 text/html -1",
            None,
        )
        .unwrap();
        assert_eq!(h.length, Length::Bad("-1".into()));
    }

    #[test]
    fn version_2_lines() {
        let line = b"http://www.archive.org/ 207.241.224.2 20080430204826 text/html 200 \
                     ABCDEF - 1234 IAH-x.arc 4501";
        let h = parse_header(line, None).unwrap();
        assert_eq!(h.url, "http://www.archive.org/");
        assert_eq!(h.length, Length::Bytes(4501));
        assert_eq!(parse_header(line, Some(Version::V2)).unwrap(), h);
        assert_eq!(
            Version::of_filedesc(b"2 0 InternetArchive\n"),
            Some(Version::V2)
        );
    }

    #[test]
    fn not_header_lines() {
        for line in [
            &b""[..],
            b"<html><body>",
            b"HTTP/1.1 200 OK",
            b"Content-Type: text/html",
            b"a b c d e",
            b"http://x/ 1.2.3.4 2014 text/html 5",
            b"WARC/1.0",
        ] {
            assert!(parse_header(line, None).is_none(), "{:?}", line);
        }
        assert!(starts_record(
            b"dns:example.com 1.2.3.4 20080430204826 text/dns 56\nx"
        ));
        assert!(!starts_record(
            b"dns:example.com 1.2.3.4 20080430204826 text/dns 56"
        ));
    }
}
