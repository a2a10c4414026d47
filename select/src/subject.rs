//! An element about to be matched, its interned name read once, and the document's
//! quirks mode in `selectors`' terms: what the matchers share.

use htmltok_tree::{DocumentRef, NodeRef};
use selectors::context::QuirksMode;

use crate::element::Element;

/// A type selector's name as written and lowercased.
pub(crate) type TypeName = (Box<str>, Box<str>);

/// An element about to be matched against several selectors, its interned name read
/// once. The name as a string is looked up only when asked ([`Subject::name`]): the
/// top-down plan needs it only for names the tree does not intern and foreign elements.
pub(crate) struct Subject<'d> {
    pub(crate) el: Element<'d>,
    pub(crate) html: bool,
    /// The interned name: [`htmltok_tree::Tag::Unknown`] for names the tree does not
    /// intern.
    pub(crate) tag: htmltok_tree::Tag,
}

impl<'d> Subject<'d> {
    #[inline]
    pub(crate) fn of(node: NodeRef<'d>) -> Option<Subject<'d>> {
        Some(Subject::named(node, node.element_name()?))
    }

    /// The element `node`, whose name (read already) is `name`.
    #[inline]
    pub(crate) fn named(node: NodeRef<'d>, name: htmltok_tree::Name) -> Subject<'d> {
        Subject {
            el: Element(node),
            html: name.ns == htmltok_tree::Ns::Html,
            tag: name.tag,
        }
    }

    /// The local name (`div`, `foreignObject`, `my-widget`).
    pub(crate) fn name(&self) -> &'d str {
        // An HTML element's name is lowercase: an interned one is its tag's name,
        // without looking the name up in the document.
        if self.html && self.tag != htmltok_tree::Tag::Unknown {
            self.tag.as_str()
        } else {
            self.el.0.name().unwrap_or_default()
        }
    }
}

/// `selectors`' name for the document's quirks mode.
pub(crate) fn quirks(doc: DocumentRef<'_>) -> QuirksMode {
    match doc.quirks_mode() {
        htmltok_tree::QuirksMode::NoQuirks => QuirksMode::NoQuirks,
        htmltok_tree::QuirksMode::LimitedQuirks => QuirksMode::LimitedQuirks,
        htmltok_tree::QuirksMode::Quirks => QuirksMode::Quirks,
    }
}
