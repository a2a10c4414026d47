//! # htmltok-crawl
//!
//! The crawl job: documents from files, folders and web archives, their encodings decided
//! as a browser does, parsed, and what pipelines keep of them extracted:
//!
//! - [`encoding`]: decide a document's encoding as a browser does (byte order mark,
//!   transport charset, the `<meta>` prescan of HTML § 13.2.3.2, chardetng) and transcode
//!   it to UTF-8;
//! - [`batch`]: many documents (files, folders, WARC and ARC files, buffers) in parallel
//!   with a map-reduce API on rayon, with bounded memory and a typed [`batch::Failure`]
//!   per document that could not be read;
//! - [`extract`]: what to take out of a page — its links resolved against its base URL,
//!   its visible text and title, main text and metadata, token/tag/error/encoding counts,
//!   one [`extract::Page`] record per document and its Arrow columns; the code behind
//!   `htmltok links`, `text`, `stats` and `extract`.
//!
//! The archives themselves (WARC, ARC, HTTP bodies, what is a document, what an input is)
//! are `htmltok-archive`'s, which has no HTML dependency; its modules are re-exported
//! here as [`warc`], [`http`], [`documents`] and [`sniff`]. The pages are read with
//! htmltok's tokenizer, `htmltok-tree`, `htmltok-select` and `htmltok-content`, through
//! their public APIs.
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
pub mod encoding;
pub mod extract;
mod tag_open;

use htmltok_archive::mime;
/// The archive crate's modules, where the batches and the fronts have always found them.
pub use htmltok_archive::{documents, http, sniff, warc};
