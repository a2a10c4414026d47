//! The page title as headings are compared with it: lowercased, whitespace collapsed,
//! read only when a heading first needs it.

use std::cell::OnceCell;

/// Lowercased, whitespace collapsed.
pub(crate) fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// The page title as headings are compared with it (lowercased, whitespace collapsed),
/// read when a heading first needs it: a page without a `title` in its head has the
/// whole document walked for one (`document.title`), costly on a large page, though the
/// text alone ([`super::text`]) needs the title only for a small `h1`/`h2` in the
/// article.
pub(crate) struct PageTitle<'a> {
    normalized: OnceCell<String>,
    read: &'a dyn Fn() -> Option<String>,
}

impl<'a> PageTitle<'a> {
    /// The title `read` gives, read when first asked for.
    pub(crate) fn new(read: &'a dyn Fn() -> Option<String>) -> PageTitle<'a> {
        PageTitle {
            normalized: OnceCell::new(),
            read,
        }
    }

    /// A title already read.
    pub(crate) fn known(title: Option<&str>) -> PageTitle<'a> {
        PageTitle {
            normalized: OnceCell::from(title.map(normalize).unwrap_or_default()),
            read: &|| None,
        }
    }

    pub(crate) fn get(&self) -> &str {
        self.normalized
            .get_or_init(|| (self.read)().as_deref().map(normalize).unwrap_or_default())
    }
}
