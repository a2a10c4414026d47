//! # htmltok-crawl
//!
//! The crawl toolkit on the [`htmltok`] tokenizer, for pipelines that read the web in bulk:
//!
//! - [`encoding`]: decide a document's encoding as a browser does (byte order mark,
//!   transport charset, the `<meta>` prescan of HTML § 13.2.3.2, chardetng) and transcode
//!   it to UTF-8;
//! - [`warc`]: read and write WARC files (`.warc`, `.warc.gz` with one gzip member per
//!   record, `.warc.zst` and `.warc.lz4` with one frame per record), reporting a bad record with its offset and a typed [`warc::ErrorKind`], and
//!   going on;
//! - [`batch`]: tokenize many documents (files, folders, WARC files, buffers) in parallel
//!   with a map-reduce API on rayon, with bounded memory and a typed [`batch::Failure`]
//!   per document that could not be read;
//! - [`sniff`]: what an input is by its first bytes (HTML, an archive, or neither), the
//!   one decision every front makes;
//! - [`extract`]: what to take out of a page — its links resolved against its base URL,
//!   its visible text and title, token/tag/error/encoding counts, and one [`extract::Page`]
//!   record per document; the code behind `htmltok links`, `text` and `stats`.
//!
//! It uses only the tokenizer's public API.
//!
//! Reading a WARC file (or a folder of them and of HTML files) and taking every page's
//! title, links and text:
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("htmltok-crawl-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! # let path = dir.join("crawl.warc.gz");
//! # let mut w = htmltok_crawl::warc::Writer::gzip(std::fs::File::create(&path).unwrap());
//! # w.write_response("https://example.org/a/", "2024-01-01T00:00:00Z", 200,
//! #     &[("Content-Type", "text/html")], b"<title>A</title><p>Hi <a href=b>b</a>").unwrap();
//! # w.into_inner().unwrap();
//! use htmltok_crawl::{batch, extract};
//!
//! let result = batch::map_reduce(
//!     [batch::Source::from(path.as_path())],
//!     &batch::Options::new(),
//!     |doc| vec![extract::Page::of(&doc, None)],
//!     |mut a, b| { a.extend(b); a },
//!     Vec::new,
//! );
//! let page = &result.value[0];
//! assert_eq!((page.title.as_deref(), page.text.as_str()), (Some("A"), "Hi b"));
//! assert_eq!(page.links[0].url, "https://example.org/a/b");
//! assert!(result.failures.is_empty(), "{}", result.failures[0]);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod batch;
pub mod documents;
pub mod encoding;
pub mod extract;
pub mod http;
mod mime;
pub mod sniff;
mod tag_open;
pub mod warc;
