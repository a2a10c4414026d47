//! The ancestors of the element being matched, in a counting Bloom filter, as browsers
//! keep them (Servo's style traversal, Blink's `SelectorFilter`): `selectors` tests a
//! selector's ancestor names (types, ids, classes, namespaces) against the filter before
//! it walks up, so `span div` on a page with no `span` costs one lookup per `div` instead
//! of a walk to the root. Without it, `span div` on a million nested `div`s takes
//! quadratic time.
//!
//! The walk keeps the path from the top to the current node on a stack: entering a node
//! pops (and removes from the filter) the nodes that are not its ancestors; an element
//! is pushed (and its hashes added) after it has been matched. A saturated counter is
//! never decremented, so the filter can only say "maybe" wrongly, never "no".
//!
//! Only the selectors matched right to left use it: none of those `Selector::parse`
//! gives today (every one is matched top down, `topdown.rs`, in linear time); it stays
//! for a compound `topdown::Compound::with_nested` could not rebuild. There not every
//! shape is linear: when the ancestors' names are all there but not in the order a
//! selector asks, or the ancestor sought is found far up, `selectors` still walks to the
//! root for each element.

use htmltok_tree::{NodeRef, Ns};
use selectors::bloom::BloomFilter;

use crate::css::{hash, ns};

/// The filter and the path it holds.
pub(crate) struct Ancestors<'d> {
    filter: Box<BloomFilter>,
    stack: Vec<NodeRef<'d>>,
}

impl<'d> Ancestors<'d> {
    /// For a walk of the descendants of `scope` (None: of the document): the scope and
    /// its ancestors are in the filter for the whole walk.
    pub(crate) fn new(scope: Option<NodeRef<'d>>) -> Ancestors<'d> {
        let mut filter = Box::new(BloomFilter::new());
        let mut node = scope;
        while let Some(n) = node {
            element_hashes(n, |h| filter.insert_hash(h));
            node = n.parent();
        }
        Ancestors {
            filter,
            stack: Vec::new(),
        }
    }

    /// Before matching `node` (the next node of a document-order walk): leaves the
    /// filter holding exactly its ancestors (and the scope's).
    pub(crate) fn enter(&mut self, node: NodeRef<'d>) {
        let parent = node.parent();
        while let Some(&top) = self.stack.last() {
            if Some(top) == parent {
                break;
            }
            self.stack.pop();
            let filter = &mut self.filter;
            element_hashes(top, |h| filter.remove_hash(h));
        }
    }

    /// After matching `node`: an element becomes an ancestor of what follows.
    pub(crate) fn push(&mut self, node: NodeRef<'d>) {
        if node.is_element() && node.first_child().is_some() {
            let filter = &mut self.filter;
            element_hashes(node, |h| filter.insert_hash(h));
            self.stack.push(node);
        }
    }

    /// The filter.
    pub(crate) fn filter(&self) -> &BloomFilter {
        &self.filter
    }
}

/// The hashes `selectors` looks for of an element: its local name, namespace, id and
/// classes (hashed as `Ident`s are; attribute names are not collected).
fn element_hashes(node: NodeRef<'_>, mut f: impl FnMut(u32)) {
    let (Some(name), Some(namespace)) = (node.name(), node.namespace()) else {
        return;
    };
    f(hash(name));
    f(hash(match namespace {
        Ns::Html => ns::HTML,
        Ns::Svg => ns::SVG,
        Ns::MathMl => ns::MATHML,
    }));
    for a in node.attrs() {
        if a.ns() != htmltok_tree::AttrNs::None {
            continue;
        }
        match a.name() {
            "id" => f(hash(&a.value())),
            "class" => {
                for c in a.value().split(['\t', '\n', '\x0c', '\r', ' ']) {
                    if !c.is_empty() {
                        f(hash(c));
                    }
                }
            }
            _ => {}
        }
    }
}
