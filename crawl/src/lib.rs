//! # htmltok-crawl
//!
//! The crawl toolkit on the [`htmltok`] tokenizer, for pipelines that read the web in bulk:
//!
//! - [`encoding`]: decide a document's encoding as a browser does (byte order mark,
//!   transport charset, the `<meta>` prescan of HTML § 13.2.3.2, chardetng) and transcode
//!   it to UTF-8;
//! - [`warc`]: read and write WARC files (`.warc`, and `.warc.gz` with one gzip member per
//!   record), reporting a bad record with its offset and going on;
//! - [`batch`]: tokenize many documents (files, folders, WARC files, buffers) in parallel
//!   with a map-reduce API on rayon, with bounded memory and a failure per document.
//!
//! It uses only the tokenizer's public API.

pub mod batch;
pub mod encoding;
mod mime;
pub mod warc;
