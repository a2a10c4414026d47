//! What crawl pipelines keep of a page, read from htmltok's tree (`htmltok-tree`).
//!
//! Today: [`metadata()`], a page's metadata with crawler semantics (canonical URL, robots
//! directives, qualified links, description, Open Graph and Twitter fields, language,
//! hreflang alternates, meta refresh, JSON-LD); [`visible::visible_text`], the page's
//! visible text with its line structure (blocks, `<br>`, `<pre>`, tables cell by cell,
//! hidden content left out); and [`base`], the document base URL the crawl toolkit's
//! links resolve against too. Main text is to come (issue #27); `eval/` beside this
//! crate scores main-text extractors against ground truth (see `eval/README.md`).
//!
//! Nothing here recurses: every walk is the tree's iterative `descendants()`.

pub mod base;
pub mod main_text;
pub mod metadata;
pub mod visible;

pub use base::document_base_url;
pub use main_text::{MainText, main_text};
pub use metadata::{Metadata, metadata};
