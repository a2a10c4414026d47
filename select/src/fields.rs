//! Field extraction: named selectors, compiled once, matched together in one walk of a
//! document, giving one column of strings per field.
//!
//! ```
//! use htmltok_select::Fields;
//!
//! let fields = Fields::new([
//!     ("title", "title::text"),
//!     ("links", "a[href]::attr(href)"),
//!     ("robots", "meta[name=robots]::attr(content)"),
//! ])
//! .unwrap();
//! let doc = htmltok_tree::parse(b"<title>Hi</title><a href=/x>x</a><a href=/y>y</a>");
//! let columns = fields.extract(&doc);
//! assert_eq!(columns, [vec!["Hi"], vec!["/x", "/y"], vec![]]);
//! ```
//!
//! What each field gives is [`crate::Selector::values`]'s: `::text` the matched
//! elements' own text-node children (parsel's `::text`: `title::text` is the title's
//! text, `p::text` leaves out the text inside the paragraph's `<b>`), `::attr(name)` the
//! attribute's value, no pseudo-element the outer HTML. Values come in document order.
//! The walk keeps the ancestor Bloom filter (see `ancestors.rs`) when a field tests
//! ancestors.

use htmltok_tree::{Document, DocumentRef};
use selectors::context::SelectorCaches;

use crate::ancestors::Ancestors;
use crate::has::HasCache;
use crate::{SelectError, Selector, Subject};

/// One named selector.
#[derive(Clone, Debug)]
pub struct Field {
    /// The column's name.
    pub name: String,
    /// The compiled selector.
    pub selector: Selector,
}

/// Named selectors to extract together (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Fields {
    fields: Vec<Field>,
}

impl Fields {
    /// Compiles `(name, selector)` pairs. An error names the field; two fields may not
    /// share a name.
    pub fn new<N, S>(pairs: impl IntoIterator<Item = (N, S)>) -> Result<Fields, SelectError>
    where
        N: Into<String>,
        S: AsRef<str>,
    {
        let mut fields: Vec<Field> = Vec::new();
        for (name, css) in pairs {
            let name = name.into();
            let css = css.as_ref();
            if fields.iter().any(|f| f.name == name) {
                return Err(SelectError::new(
                    css,
                    0,
                    format!("field {name:?} given twice"),
                ));
            }
            let selector = Selector::parse(css).map_err(|mut e| {
                e.message = format!("in field {name:?}: {}", e.message);
                e
            })?;
            fields.push(Field { name, selector });
        }
        Ok(Fields { fields })
    }

    /// The fields in the order given.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// One column per field, in the fields' order: the strings each gives, in document
    /// order. One walk of the document tests every field on each element.
    pub fn extract(&self, doc: &Document<'_>) -> Vec<Vec<String>> {
        self.extract_view(doc.view())
    }

    /// [`Fields::extract`] on a document's view: for an [`htmltok_tree::OwnedDocument`]
    /// (`owned.view()`), or a document reached from a node (`node.document()`).
    pub fn extract_view(&self, doc: DocumentRef<'_>) -> Vec<Vec<String>> {
        let mut columns = vec![Vec::new(); self.fields.len()];
        if self.fields.is_empty() {
            return columns;
        }
        let mut caches = SelectorCaches::default();
        let has = HasCache::default();
        // The ancestor filter only when a field tests ancestors (`ancestors.rs`).
        let mut ancestors = self
            .fields
            .iter()
            .any(|f| f.selector.uses_ancestors())
            .then(|| Ancestors::new(None));
        for node in doc.root().descendants() {
            if let Some(a) = &mut ancestors {
                a.enter(node);
            }
            if let Some(subject) = Subject::of(node) {
                let filter = ancestors.as_ref().map(|a| a.filter());
                for (field, column) in self.fields.iter().zip(&mut columns) {
                    if field.selector.matches_subject(
                        &subject,
                        None,
                        filter,
                        Some(&has),
                        &mut caches,
                    ) {
                        field.selector.values(node, |v| column.push(v.into_owned()));
                    }
                }
            }
            if let Some(a) = &mut ancestors {
                a.push(node);
            }
        }
        columns
    }
}
