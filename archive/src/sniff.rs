//! What an input is, by its first bytes: the one decision every front makes the same way
//! (a file named on the command line, a file found in a folder, standard input, a buffer
//! handed to `htmltok_crawl::batch` or to Python's `process`, `htmltok tokens` and `htmltok
//! tree`), so that no input is read as HTML by one front and refused by another.
//!
//! The order is MIME Sniffing's (§ 7.1, "rules for identifying an unknown MIME type"),
//! with the archive signatures where that algorithm has its archive patterns:
//!
//! 1. **A byte order mark** (UTF-16BE `FE FF`, UTF-16LE `FF FE`, UTF-8 `EF BB BF`): text,
//!    an HTML document. A UTF-16 page is full of NUL bytes, which the binary data test
//!    would take for binary; the standard looks for the BOMs first for that reason.
//! 2. **An archive signature**: a WARC or ARC record, plain or in a gzip member, or zstd or
//!    LZ4 data (read as an archive: nothing else htmltok reads is compressed so). Gzip data
//!    that does not begin a record is not HTML.
//! 3. **The HTML patterns** of § 7.1 (`<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<P`, `<!--`, …
//!    after whitespace; [`crate::documents::sniffs_as_html`]): an HTML document, even with
//!    control bytes further on.
//! 4. **The binary data test** (§ 7.1: no byte `00`–`08`, `0B`, `0E`–`1A`, `1C`–`1F` in the
//!    first 1,445 bytes): text is taken for HTML; anything else is binary data, not HTML.
//!
//! The decision reads at most the first [`SNIFF_LEN`] bytes, so the first bytes of a file
//! and the whole file get the same answer.

/// How many first bytes [`sniff`] reads: MIME Sniffing's resource header (§ 5.2).
pub const SNIFF_LEN: usize = crate::mime::RESOURCE_HEADER;

/// What an input is ([`sniff`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// An HTML document (or text taken for one).
    Html,
    /// A WARC or ARC archive, plain or compressed.
    Archive,
    /// Neither: what it looks like instead (`binary data`, `gzip data that does not begin a
    /// WARC or ARC record`).
    NotHtml(&'static str),
}

/// What `head`, an input's first bytes (all of them, or at least [`SNIFF_LEN`]), say it is;
/// see the [module documentation](self) for the order of the rules.
pub fn sniff(head: &[u8]) -> InputKind {
    let head = &head[..head.len().min(SNIFF_LEN)];
    if has_bom(head) {
        return InputKind::Html;
    }
    match crate::warc::sniff(&head[..head.len().min(crate::warc::SNIFF_LEN)]) {
        crate::warc::Sniffed::Archive => return InputKind::Archive,
        crate::warc::Sniffed::Compressed(what) => return InputKind::NotHtml(what),
        crate::warc::Sniffed::Other => {}
    }
    if crate::documents::sniffs_as_html(head) || crate::mime::is_text(head) {
        InputKind::Html
    } else {
        InputKind::NotHtml("binary data")
    }
}

/// Whether `head` begins with a byte order mark (UTF-8, UTF-16BE or UTF-16LE), which
/// Encoding's "BOM sniff" reads.
fn has_bom(head: &[u8]) -> bool {
    head.starts_with(b"\xEF\xBB\xBF")
        || head.starts_with(b"\xFE\xFF")
        || head.starts_with(b"\xFF\xFE")
}

/// [`sniff`] on the first bytes of what `reader` reads, which are kept in `head` (cleared
/// first) for the caller to read again.
pub fn sniff_reader(
    reader: &mut impl std::io::Read,
    head: &mut Vec<u8>,
) -> std::io::Result<InputKind> {
    use std::io::Read as _;
    head.clear();
    (&mut *reader).take(SNIFF_LEN as u64).read_to_end(head)?;
    Ok(sniff(head))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_come_before_the_binary_test() {
        let utf16le: Vec<u8> = b"\xFF\xFE"
            .iter()
            .copied()
            .chain("<p>hi".bytes().flat_map(|b| [b, 0]))
            .collect();
        let utf16be: Vec<u8> = b"\xFE\xFF"
            .iter()
            .copied()
            .chain("<p>hi".bytes().flat_map(|b| [0, b]))
            .collect();
        assert_eq!(sniff(&utf16le), InputKind::Html);
        assert_eq!(sniff(&utf16be), InputKind::Html);
        assert_eq!(sniff(b"\xEF\xBB\xBFhello\x01"), InputKind::Html);
        // Without its BOM the same UTF-16 text is binary data.
        assert_eq!(sniff(&utf16le[2..]), InputKind::NotHtml("binary data"));
    }

    #[test]
    fn archives_then_html_patterns_then_the_binary_test() {
        assert_eq!(
            sniff(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n"),
            InputKind::Archive
        );
        assert_eq!(sniff(b"\x28\xb5\x2f\xfd rest"), InputKind::Archive);
        assert!(matches!(
            sniff(b"\x1f\x8b\x08\0\0\0\0\0"),
            InputKind::NotHtml(_)
        ));
        // An HTML pattern wins over control bytes later on.
        assert_eq!(sniff(b"<!DOCTYPE html>\x00\x01"), InputKind::Html);
        assert_eq!(sniff(b"plain text"), InputKind::Html);
        assert_eq!(sniff(b""), InputKind::Html);
        assert_eq!(
            sniff(b"\x7fELF\x02\x01\x01\0"),
            InputKind::NotHtml("binary data")
        );
        // Only the first SNIFF_LEN bytes count.
        let mut late = vec![b'a'; SNIFF_LEN];
        late.push(0);
        assert_eq!(sniff(&late), InputKind::Html);
    }
}
