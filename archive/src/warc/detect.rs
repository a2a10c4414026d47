//! What a file's first bytes say it is: a WARC or ARC file (plain or compressed),
//! other compressed data, or anything else.

use super::arc;
use super::limits::{GZIP_MAGIC, LZ4_MAGIC, ZSTD_MAGIC};
use super::record::Format;
use super::stream::{GZIP_PEEK, gzip_prefix};

/// How many first bytes of a file [`sniff`] looks at.
pub(crate) const SNIFF_LEN: usize = GZIP_PEEK;

/// What a file's first bytes say it is.
pub(crate) enum Sniffed {
    /// A WARC or ARC file, plain or compressed (zstd and LZ4 data are taken for one: no
    /// other file the batch reads is compressed so).
    Archive,
    /// Compressed data that is not an archive.
    Compressed(&'static str),
    /// Anything else.
    Other,
}

/// What `head`, a file's first bytes (up to [`SNIFF_LEN`]), say it is.
pub(crate) fn sniff(head: &[u8]) -> Sniffed {
    let skippable = head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18];
    match first_container(head) {
        Some(_) => Sniffed::Archive,
        None if head.starts_with(GZIP_MAGIC) => {
            Sniffed::Compressed("gzip data that does not begin a WARC or ARC record")
        }
        None if head.starts_with(ZSTD_MAGIC) || head.starts_with(LZ4_MAGIC) || skippable => {
            Sniffed::Archive
        }
        None => Sniffed::Other,
    }
}

/// The container whose record `head`, a file's first bytes (up to [`SNIFF_LEN`]),
/// begins with, plain or in a gzip member, after line ends: None when neither (or when
/// the bytes are zstd or LZ4 data, which this does not decode).
pub(super) fn first_container(head: &[u8]) -> Option<Format> {
    let inflated;
    let bytes = if head.starts_with(GZIP_MAGIC) {
        inflated = gzip_prefix(head, 4096)?;
        &inflated[..]
    } else {
        head
    };
    let blank = bytes
        .iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    let bytes = &bytes[blank..];
    if bytes.starts_with(b"WARC/") {
        Some(Format::Warc)
    } else if arc::starts_arc_file(bytes) {
        Some(Format::Arc)
    } else {
        None
    }
}
