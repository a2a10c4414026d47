//! The parsed document in its three forms, all over the same lifetime-free arena
//! (`dom.rs`):
//!
//! - [`Document<'a>`](Document): borrows its input (`parse(&bytes)`);
//! - [`OwnedDocument<I>`](OwnedDocument): owns it (`parse_owned(bytes)`, any `I:
//!   AsRef<[u8]>`: `Vec<u8>`, `Box<[u8]>`, `Arc<[u8]>`, `String`, a Python `bytes`), so
//!   that it can be kept, moved and shared without a borrow: what the Python binding
//!   holds;
//! - [`DocumentRef<'d>`](DocumentRef): the view both lend (the arena and the input's
//!   bytes), which the node handles ([`NodeRef`]) carry; it lives with them, in `node.rs`.
//!
//! The read methods are the same on all three (`root`, `node`, `to_test_format`,
//! `outer_html`, `title`, …): written once on [`DocumentRef`], forwarded by the others.

use std::borrow::Cow;

use crate::dom::{Dom, NodeId, QuirksMode};
use crate::node::{DocumentRef, NodeRef};

/// A parsed document (or fragment) that borrows its input.
#[derive(Clone, Debug)]
pub struct Document<'a> {
    input: &'a [u8],
    dom: Dom,
}

/// A parsed document (or fragment) that owns its input (`Parser::parse_owned`).
#[derive(Clone, Debug)]
pub struct OwnedDocument<I> {
    input: I,
    dom: Dom,
}

impl<'a> Document<'a> {
    pub(crate) fn new(input: &'a [u8], dom: Dom) -> Document<'a> {
        Document { input, dom }
    }

    /// The view the node handles carry.
    pub fn view(&self) -> DocumentRef<'_> {
        DocumentRef::new(self.input, &self.dom)
    }

    /// The input the document borrows.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }
}

impl<I: AsRef<[u8]>> OwnedDocument<I> {
    pub(crate) fn new(input: I, dom: Dom) -> OwnedDocument<I> {
        OwnedDocument { input, dom }
    }

    /// The view the node handles carry.
    pub fn view(&self) -> DocumentRef<'_> {
        DocumentRef::new(self.input.as_ref(), &self.dom)
    }

    /// The input the document owns.
    pub fn input(&self) -> &[u8] {
        self.input.as_ref()
    }

    /// The input back (the tree dropped).
    pub fn into_input(self) -> I {
        self.input
    }
}

/// The read methods of [`DocumentRef`], forwarded.
macro_rules! forward_reads {
    () => {
        /// A handle on node `id` (panics when there is no such node: ids come from this
        /// document's handles, or are below [`Self::node_count`]).
        pub fn node(&self, id: NodeId) -> NodeRef<'_> {
            self.view().node(id)
        }

        /// The document node (for a fragment parse: the document that holds the `html`
        /// element whose children are the fragment; see [`Self::fragment_root`]).
        pub fn root(&self) -> NodeRef<'_> {
            self.view().root()
        }

        /// For a fragment parse, the element whose children are the parsed fragment.
        pub fn fragment_root(&self) -> Option<NodeRef<'_>> {
            self.view().fragment_root()
        }

        /// The quirks mode the DOCTYPE set.
        pub fn quirks_mode(&self) -> QuirksMode {
            self.view().quirks_mode()
        }

        /// The bytes the document holds beside its input: its nodes and attribute records
        /// (as many as it has: their vectors keep the parse's reservation for dense pages,
        /// address space the parse did not write), the uninterned names and the text that
        /// decoding changed.
        pub fn heap_bytes(&self) -> usize {
            self.view().heap_bytes()
        }

        /// The number of nodes in the arena (including template contents and nodes the
        /// parser detached, such as a `<body>` replaced by a `<frameset>`).
        pub fn node_count(&self) -> usize {
            self.view().node_count()
        }

        /// The `<html>` element (the document element), if any.
        pub fn document_element(&self) -> Option<NodeRef<'_>> {
            self.view().document_element()
        }

        /// Whether the arena's order is tree order (see [`DocumentRef::in_tree_order`]).
        pub fn in_tree_order(&self) -> bool {
            self.view().in_tree_order()
        }

        /// The `head` element: the first `head` child of the document element.
        pub fn head(&self) -> Option<NodeRef<'_>> {
            self.view().head()
        }

        /// The body element: the first `body` or `frameset` child of the document element.
        pub fn body(&self) -> Option<NodeRef<'_>> {
            self.view().body()
        }

        /// The `href` of the document's base element, as written: that of the first HTML
        /// `base` element with an `href` attribute in tree order (HTML § 4.2.3; template
        /// contents are not in the tree). None when there is none. Resolve it against the
        /// document's URL to get the document base URL.
        pub fn base_href(&self) -> Option<Cow<'_, str>> {
            self.view().base_href()
        }

        /// The document's title as the DOM's `document.title` has it: the text of the first
        /// HTML `title` element in tree order, ASCII whitespace stripped and collapsed to
        /// single spaces. None when there is no `title` element.
        pub fn title(&self) -> Option<String> {
            self.view().title()
        }

        /// The `meta` elements the tree builder's `meta` rule read for an encoding, in
        /// document order (see [`DocumentRef::encoding_metas`]).
        pub fn encoding_metas(&self) -> impl ExactSizeIterator<Item = NodeRef<'_>> + '_ {
            self.view().encoding_metas()
        }

        /// The tree in the html5lib tree-construction test format (see
        /// [`DocumentRef::to_test_format`]).
        pub fn to_test_format(&self) -> String {
            self.view().to_test_format()
        }

        /// 13.3: the whole document serialized (for a fragment parse: the fragment).
        pub fn outer_html(&self) -> String {
            self.view().outer_html()
        }
    };
}

impl Document<'_> {
    forward_reads!();
}

impl<I: AsRef<[u8]>> OwnedDocument<I> {
    forward_reads!();
}

/// Any of the three forms of a parsed document — `Document` (borrowing),
/// `OwnedDocument` (owning) or a `DocumentRef` view — for code that reads a tree and
/// should accept each: one code path over the view each gives. (The crates above the tree
/// — selectors, page content — take `&impl DocumentView`.)
pub trait DocumentView {
    /// The document's view (its input and arena, borrowed).
    fn view(&self) -> DocumentRef<'_>;
}

impl DocumentView for Document<'_> {
    fn view(&self) -> DocumentRef<'_> {
        Document::view(self)
    }
}

impl<I: AsRef<[u8]>> DocumentView for OwnedDocument<I> {
    fn view(&self) -> DocumentRef<'_> {
        OwnedDocument::view(self)
    }
}

impl DocumentView for DocumentRef<'_> {
    fn view(&self) -> DocumentRef<'_> {
        *self
    }
}
