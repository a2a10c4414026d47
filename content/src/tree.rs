//! The documents the crate's functions read.

/// A parsed document the functions here read: `&Document` (`htmltok_tree::parse`),
/// `&OwnedDocument` (`parse_owned`, a tree that owns its input, as the Python package's
/// `Tree` holds it) or a `DocumentRef` view: the tree crate's [`htmltok_tree::DocumentView`], under the
/// name this crate's signatures have used.
pub use htmltok_tree::DocumentView as Tree;
