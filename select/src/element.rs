//! The tree's elements as the matching code sees them: [`Element`], a [`NodeRef`] (a
//! document and an index) wrapped so that [`selectors::Element`] can be implemented for
//! it (in `selectors_element.rs`), with the attribute and tag lookups that the
//! pseudo-classes, the `:has()` passes and the walk memo share. Everything reads the tree
//! through its public methods.

use htmltok_tree::{AttrRef, NodeRef, Tag};

/// An element of a document, as `selectors` sees it.
#[derive(Clone, Copy, Debug)]
pub struct Element<'d>(pub NodeRef<'d>);

impl<'d> Element<'d> {
    /// The element, if `node` is one.
    pub(crate) fn of(node: NodeRef<'d>) -> Option<Element<'d>> {
        node.is_element().then_some(Element(node))
    }

    pub(crate) fn is_html(&self, tag: Tag) -> bool {
        self.0.element_name().is_some_and(|n| n.is_html(tag))
    }

    /// The value of the attribute `name` in no namespace, decoded.
    pub(crate) fn attr(&self, name: &str) -> Option<std::borrow::Cow<'d, str>> {
        self.attr_ref(name.as_bytes()).map(|a| a.value())
    }

    /// The attribute `name` in no namespace, its value not decoded (an element has one
    /// attribute of a name at most): the tree's loop over the element's records.
    #[inline]
    pub(crate) fn attr_ref(&self, name: &[u8]) -> Option<AttrRef<'d>> {
        self.0.attr_in_no_namespace(name)
    }

    /// Whether the element has the attribute `name` in no namespace.
    #[inline]
    pub(crate) fn has_attr(&self, name: &str) -> bool {
        self.attr_ref(name.as_bytes()).is_some()
    }
}
