//! The elements a whole-document top-down walk visits, found by a scan of the arena when
//! its order is tree order (`htmltok_tree::DocumentRef::elements_in_tree_order`), else by
//! the tree's walk.
//!
//! The top-down matcher (`topdown.rs`) is fed only elements, in document order: nothing
//! else of a walk reaches it (its stack of open elements is kept from each element's
//! parent). When the tree builder only ever appended each new node at the end of the
//! tree (most pages), node ids in increasing order are document order and every node is
//! in the document, so those elements are the arena's elements in memory order: a scan
//! reads the nodes sequentially and skips the others (most of a page's nodes are text)
//! with one comparison, where the walk follows each node's first-child, next-sibling and
//! parent links through the arena. Selections below a node, and those matched right to
//! left (the ancestor filter is kept along the walk), still walk.

use htmltok_tree::{Descendants, DocumentRef, Name, NodeRef};

/// The nodes to offer a top-down walk over the whole document, in document order: its
/// elements by a scan, or every node by the walk (the others are skipped by the caller).
pub(crate) enum Nodes<'d> {
    /// The arena's elements in id order (its order is tree order).
    Scan(htmltok_tree::Elements<'d>),
    /// The descendants of a node (or of the document, when its arena is not in order).
    Walk(Descendants<'d>),
}

impl<'d> Nodes<'d> {
    /// The whole document's nodes for a top-down walk: by a scan when `scan` is allowed
    /// and the arena is in tree order, else by the walk.
    pub(crate) fn of_document(doc: DocumentRef<'d>, scan: bool) -> Nodes<'d> {
        match doc.elements_in_tree_order().filter(|_| scan) {
            Some(elements) => Nodes::Scan(elements),
            None => Nodes::Walk(doc.root().descendants()),
        }
    }

    /// The descendants of `node`, walked.
    pub(crate) fn below(node: NodeRef<'d>) -> Nodes<'d> {
        Nodes::Walk(node.descendants())
    }

    /// The next node for which `f` holds (the others are passed). Each variant has its
    /// own loop, so the scan's stays a tight loop over the arena (`Iterator::find` would
    /// choose the variant per node, and its closures cost instructions per node).
    #[inline]
    pub(crate) fn find_next(
        &mut self,
        mut f: impl FnMut(&NodeRef<'d>) -> bool,
    ) -> Option<NodeRef<'d>> {
        match self {
            Nodes::Scan(elements) => {
                for node in elements.by_ref() {
                    if f(&node) {
                        return Some(node);
                    }
                }
            }
            Nodes::Walk(walk) => {
                for node in walk.by_ref() {
                    if f(&node) {
                        return Some(node);
                    }
                }
            }
        }
        None
    }

    /// The next element whose name `wanted` accepts, with its name (the other nodes
    /// passed by). The scan tests the name in the tree's own loop
    /// (`htmltok_tree::Elements::next_named`), where the node is at hand: for the flat
    /// selectors (`flat.rs`), which reject most elements by name, this is most of the
    /// scan's cost per element.
    #[inline]
    pub(crate) fn find_element(
        &mut self,
        mut wanted: impl FnMut(Name) -> bool,
    ) -> Option<(NodeRef<'d>, Name)> {
        match self {
            Nodes::Scan(elements) => elements.next_named(wanted),
            Nodes::Walk(walk) => {
                for node in walk.by_ref() {
                    if let Some(name) = node.element_name()
                        && wanted(name)
                    {
                        return Some((node, name));
                    }
                }
                None
            }
        }
    }
}

impl<'d> Iterator for Nodes<'d> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        match self {
            Nodes::Scan(elements) => elements.next(),
            Nodes::Walk(walk) => walk.next(),
        }
    }
}
