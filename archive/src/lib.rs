//! # htmltok-archive
//!
//! Web archives in, documents out: the first stage of a crawl pipeline, before any HTML is
//! read. It depends on no HTML crate (the tokenizer, the tree and the extraction build on
//! it, in `htmltok-crawl`).
//!
//! - [`warc`]: read and write WARC files (`.warc`, `.warc.gz` with one gzip member per
//!   record, `.warc.zst` and `.warc.lz4` with one frame per record) and ARC files,
//!   sequentially or in parallel parts, reporting a bad record with its offset and a typed
//!   [`warc::ErrorKind`], and going on;
//! - [`http`]: an archived HTTP response's head parsed and its body decoded (chunked
//!   framing, `gzip`, `deflate`, `br`, `zstd`), with notes wherever the stored bytes had
//!   to be read leniently;
//! - [`documents`]: which records are documents (a `response` or `resource` whose type is
//!   HTML, or that sniffs as HTML), and why the others are not;
//! - [`sniff`]: what an input is by its first bytes (HTML, an archive, or neither), the
//!   one decision every front makes;
//! - [`mime`]: the pieces of Fetch and MIME Sniffing the others share (a `Content-Type`'s
//!   charset and essence, the binary data test).
//!
//! ```
//! use htmltok_archive::warc::{Reader, Writer};
//!
//! let mut w = Writer::gzip(Vec::new());
//! w.write_response("https://example.org/", "2024-01-01T00:00:00Z", 200,
//!     &[("Content-Type", "text/html")], b"<title>A</title>").unwrap();
//! let bytes = w.into_inner().unwrap();
//! let record = Reader::new(&bytes[..]).next().unwrap().unwrap();
//! assert_eq!(record.target_uri.as_deref(), Some("https://example.org/"));
//! assert_eq!(htmltok_archive::documents::classify(&record), Ok(()));
//! ```

pub mod documents;
pub mod http;
pub mod mime;
pub mod sniff;
pub mod warc;
