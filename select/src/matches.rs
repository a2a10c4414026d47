//! [`Select`] and [`Matches`]: the elements a selector matches, in document order.

use std::borrow::Cow;

use htmltok_tree::{DocumentRef, DocumentView, NodeRef};
use selectors::context::{QuirksMode, SelectorCaches};

use crate::ancestors::Ancestors;
use crate::flat;
use crate::memo::WalkMemo;
use crate::scan;
use crate::selector::Selector;
use crate::subject::{Subject, quirks};
use crate::topdown;

/// Selection on a document or below a node: an extension trait, implemented for
/// `&Document`, `&OwnedDocument`, [`DocumentRef`] and [`NodeRef`] (`use htmltok_select::Select;`, then `doc.select(&sel)`).
pub trait Select<'d>: Sized {
    /// The matching elements in document order: for a document, all of them; for a node,
    /// its matching descendants (the node itself excluded, `:scope` being the node), the
    /// selector matched against the whole tree, as the DOM's `querySelectorAll` does.
    /// Template contents are not searched.
    fn select(self, selector: &Selector) -> Matches<'_, 'd>;

    /// The first matching element.
    fn select_first(self, selector: &Selector) -> Option<NodeRef<'d>> {
        self.select(selector).next()
    }
}

impl<'d> Select<'d> for DocumentRef<'d> {
    fn select(self, selector: &Selector) -> Matches<'_, 'd> {
        Matches::new(selector, self.root(), None, true)
    }
}

/// `&Document`, `&OwnedDocument` (and `&DocumentRef`): through their view.
impl<'d, D: DocumentView + ?Sized> Select<'d> for &'d D {
    fn select(self, selector: &Selector) -> Matches<'_, 'd> {
        self.view().select(selector)
    }
}

impl<'d> Select<'d> for NodeRef<'d> {
    fn select(self, selector: &Selector) -> Matches<'_, 'd> {
        Matches::new(selector, self, Some(self), false)
    }
}

/// The elements a selector matches, in document order (see [`Select::select`]).
pub struct Matches<'s, 'd> {
    selector: &'s Selector,
    scope: Option<NodeRef<'d>>,
    /// The nodes below `scope` (or the document's), walked, or for a top-down walk of the
    /// whole document the elements by a scan of the arena when that is tree order
    /// (`scan.rs`).
    walk: scan::Nodes<'d>,
    /// The selector's flat form (`flat.rs`), when it has one: then `topdown` is None.
    flat: Option<&'s flat::Flat>,
    /// The document's quirks mode, for `flat`'s id and class tests.
    quirks: QuirksMode,
    /// The top-down walk when the selector has a plan; else `selectors`' right-to-left
    /// matching with the ancestor filter (when it tests ancestors).
    topdown: Option<topdown::Walk<'s, 'd>>,
    ancestors: Option<Ancestors<'d>>,
    memo: WalkMemo,
    caches: SelectorCaches,
}

impl<'s, 'd> Matches<'s, 'd> {
    /// The matches below `below` (the document's root, or `scope`); `scan`: the arena may
    /// be scanned (a whole-document selection) when the selector is matched top down.
    pub(crate) fn new(
        selector: &'s Selector,
        below: NodeRef<'d>,
        scope: Option<NodeRef<'d>>,
        scan: bool,
    ) -> Matches<'s, 'd> {
        let memo = WalkMemo::default();
        let mut caches = SelectorCaches::default();
        let quirks = quirks(below.document());
        // A flat selector depends on the element alone: nothing of the walk's state (nor
        // the scope: it has no `:scope`) is needed.
        let flat = selector.flat.as_deref();
        let topdown = selector
            .plan
            .as_deref()
            .filter(|_| flat.is_none())
            .map(|plan| topdown::Walk::new(plan, quirks, scope, &memo, &mut caches));
        let walk = if (flat.is_some() || topdown.is_some()) && scope.is_none() {
            scan::Nodes::of_document(below.document(), scan)
        } else {
            scan::Nodes::below(below)
        };
        Matches {
            selector,
            scope,
            walk,
            flat,
            quirks,
            ancestors: (flat.is_none() && topdown.is_none() && selector.uses_ancestors())
                .then(|| Ancestors::new(scope)),
            topdown,
            memo,
            caches,
        }
    }
}

impl<'s, 'd> Matches<'s, 'd> {
    /// The next matching element, its strings ([`Selector::values`]) handed to `out`
    /// first: what `select` gives for a selector ending in `::text` / `::attr(name)`. A
    /// flat selector that tests the attribute it gives (`a[href]::attr(href)`) hands out
    /// the value its test found, without looking the attribute up again.
    pub fn next_with_values(&mut self, mut out: impl FnMut(Cow<'d, str>)) -> Option<NodeRef<'d>> {
        if let Some(flat) = self.flat {
            let (node, taken) = self.next_flat(flat)?;
            match taken {
                Some(attr) => out(attr.value()),
                None => self.selector.values(node, out),
            }
            return Some(node);
        }
        let node = self.next()?;
        self.selector.values(node, out);
        Some(node)
    }

    /// [`Matches::next_with_values`] for every match: the strings of all the matching
    /// elements, in document order. One loop over the walk, where a loop of
    /// `next_with_values` calls reloads the walk's state (the scan's position, the flat
    /// form's tables, the quirks mode) from `self` on each call and stores it back.
    pub fn for_each_value(mut self, mut out: impl FnMut(Cow<'d, str>)) {
        let Some(flat) = self.flat else {
            while let Some(node) = self.next() {
                self.selector.values(node, &mut out);
            }
            return;
        };
        let (quirks, selector) = (self.quirks, self.selector);
        while let Some((node, name)) = self.walk.find_element(|name| flat.wants(name)) {
            if let Some(taken) = flat_match(flat, node, name, quirks) {
                match taken {
                    Some(attr) => out(attr.value()),
                    None => selector.values(node, &mut out),
                }
            }
        }
    }

    /// The next element the flat form matches, with the attribute its entry took. The
    /// elements the flat form rejects by name are passed by in the scan's loop
    /// ([`flat::Flat::wants`]).
    #[inline]
    fn next_flat(
        &mut self,
        flat: &flat::Flat,
    ) -> Option<(NodeRef<'d>, Option<htmltok_tree::AttrRef<'d>>)> {
        let quirks = self.quirks;
        loop {
            let (node, name) = self.walk.find_element(|name| flat.wants(name))?;
            if let Some(taken) = flat_match(flat, node, name, quirks) {
                return Some((node, taken));
            }
        }
    }
}

/// Whether the flat form matches `node` (named `name`), with the attribute its entry
/// took: the one step [`Matches::next_flat`] and [`Matches::for_each_value`] share.
#[inline(always)]
fn flat_match<'d>(
    flat: &flat::Flat,
    node: NodeRef<'d>,
    name: htmltok_tree::Name,
    quirks: QuirksMode,
) -> Option<Option<htmltok_tree::AttrRef<'d>>> {
    let mut taken = None;
    flat.matches_named(node, name, quirks, |_, attr| {
        taken = attr;
        true
    })
    .then_some(taken)
}

impl<'d> Iterator for Matches<'_, 'd> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        if let Some(flat) = self.flat {
            return self.next_flat(flat).map(|(node, _)| node);
        }
        if let Some(walk) = &mut self.topdown {
            let (memo, caches) = (&self.memo, &mut self.caches);
            return self.walk.find_next(|&node| {
                Subject::of(node).is_some_and(|subject| {
                    !walk.passes_by(&subject) && walk.matches_any(&subject, memo, caches)
                })
            });
        }
        for node in self.walk.by_ref() {
            if let Some(a) = &mut self.ancestors {
                a.enter(node);
            }
            let matched = Subject::of(node).is_some_and(|subject| {
                self.selector.matches_subject(
                    &subject,
                    self.scope,
                    self.ancestors.as_ref().map(|a| a.filter()),
                    Some(&self.memo),
                    &mut self.caches,
                )
            });
            if let Some(a) = &mut self.ancestors {
                a.push(node);
            }
            if matched {
                return Some(node);
            }
        }
        None
    }

    /// Every match in one loop over the walk for a flat selector, as
    /// [`Matches::for_each_value`] does for the strings: a loop of `next` calls reloads the
    /// walk's state (the scan's position, the flat form's tables, the quirks mode) from
    /// `self` on each call and stores it back. `for_each` comes here, so Python's
    /// `select` collects its ids this way.
    fn fold<B, F>(mut self, init: B, mut f: F) -> B
    where
        F: FnMut(B, NodeRef<'d>) -> B,
    {
        let mut acc = init;
        let Some(flat) = self.flat else {
            // `for` calls `next` (not this `fold`) on `&mut Matches`.
            for node in self.by_ref() {
                acc = f(acc, node);
            }
            return acc;
        };
        let quirks = self.quirks;
        while let Some((node, name)) = self.walk.find_element(|name| flat.wants(name)) {
            if flat_match(flat, node, name, quirks).is_some() {
                acc = f(acc, node);
            }
        }
        acc
    }
}
