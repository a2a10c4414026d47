//! What crawl pipelines keep of a page, read from htmltok's tree (`htmltok-tree`).
//!
//! [`main_text()`], the page's main content on pages of every kind (an article, a thread's
//! posts, a listing's cards, without menus, footers, cookie banners and link lists:
//! Readability's scoring counted in characters, and a compiled-in block model for what
//! Readability's single container misses; the method is in
//! [the module's doc](mod@main_text)), with the title, byline, date, page kind and a
//! confidence;
//! [`metadata()`], a page's metadata with crawler semantics (canonical URL, robots
//! directives, qualified links, description, Open Graph and Twitter fields, language,
//! hreflang alternates, meta refresh, JSON-LD); [`visible::visible_text`], the page's
//! visible text with its line structure (blocks, `<br>`, `<pre>`, tables cell by cell,
//! hidden content left out); and [`base`], the document base URL the crawl toolkit's
//! links resolve against too. `eval/` beside this crate scores main-text extractors
//! against ground truth (see `eval/README.md`).
//!
//! Nothing here recurses: every walk is the tree's iterative `descendants()`.

pub mod base;
pub mod main_text;
pub mod markdown;
pub mod metadata;
mod tree;
pub mod visible;
mod walk;

pub use base::document_base_url;
pub use main_text::{MainText, main_text};
pub use metadata::{Metadata, metadata};
pub use tree::Tree;
