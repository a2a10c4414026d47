//! The fast path for flat selector lists: every selector one compound of a type selector
//! (or none) and simple conditions on the element itself — attributes in no namespace,
//! ids, classes, namespaces — with no combinator and no pseudo-class (`a[href]`,
//! `meta[name=robots]::attr(content)`, the ten fields).
//!
//! Such a selector depends on the element alone, so the top-down walk's machinery
//! (`topdown.rs`: the `Subject`, the candidate bit masks copied and narrowed, the owners
//! read back from the `last` mask, the matching context kept for the compounds
//! `selectors` answers) does nothing for it. Here an element's interned tag id indexes a
//! list of the selectors that name its type (or none), in the plan's order, and each is
//! tested by its conditions straight on the element ([`topdown::matches_simple`], the same
//! test the top-down walk makes, so the answers are the same). Elements whose name the
//! tree does not intern, and SVG / MathML elements, are offered the selectors by name
//! compared as `selectors` compares them (lowercased on HTML elements, as written on the
//! others). A property test (`tests.rs`) compares it with the general walk on random
//! trees and random flat selectors.

use htmltok_tree::{Name, NodeRef, Ns, Tag};
use selectors::SelectorList;
use selectors::context::QuirksMode;
use selectors::parser::{Combinator, Component};

use crate::css::Impl;
use crate::topdown::{is_simple, matches_simple};
use crate::{Subject, TypeName};

/// One selector of a flat list: its owner (a field's index; 0 for a lone selector), the
/// type it names, and its other simple selectors.
#[derive(Clone, Debug)]
struct Entry {
    owner: usize,
    name: Option<TypeName>,
    conditions: Box<[Component<Impl>]>,
}

/// Flat selector lists, indexed by the element's interned tag (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Flat {
    entries: Box<[Entry]>,
    /// For an HTML element of an interned tag `t`: `ids[starts[t]..starts[t + 1]]` are the
    /// entries that may match it (naming its type, or none), in order. Tags past the end
    /// get `any`.
    starts: Box<[u32]>,
    ids: Box<[u32]>,
    /// The entries naming no type.
    any: Box<[u32]>,
    /// Whether some entry names a type: else an element of an uninterned or foreign name
    /// is offered `any` without its name being looked up.
    named: bool,
}

impl Flat {
    /// The flat form of `lists` (each with its owner), or None when some selector is not
    /// one compound of a type and conditions (perhaps ending in a pseudo-element).
    pub(crate) fn new<'a>(
        lists: impl IntoIterator<Item = (usize, &'a SelectorList<Impl>)>,
    ) -> Option<Flat> {
        let mut entries = Vec::new();
        for (owner, list) in lists {
            for sel in list.slice() {
                let mut name = None;
                let mut conditions = Vec::new();
                for c in sel.iter_raw_parse_order_from(0) {
                    match c {
                        Component::LocalName(n) => {
                            name = Some((n.name.as_str().into(), n.lower_name.as_str().into()));
                        }
                        Component::ExplicitUniversalType | Component::ExplicitAnyNamespace => {}
                        // The pseudo-element (`::attr()`, `::text`) ends the selector; the
                        // element it is taken from is the subject.
                        Component::Combinator(Combinator::PseudoElement) => break,
                        c if is_simple(c) => conditions.push(c.clone()),
                        _ => return None,
                    }
                }
                entries.push(Entry {
                    owner,
                    name,
                    conditions: conditions.into(),
                });
            }
        }
        if entries.is_empty() || u32::try_from(entries.len()).is_err() {
            return None;
        }
        let all = 0..entries.len() as u32;
        let any: Box<[u32]> = all
            .clone()
            .filter(|&i| entries[i as usize].name.is_none())
            .collect();
        // The interned tags the entries name, lowercased as on HTML elements.
        let tags: Vec<Tag> = entries
            .iter()
            .filter_map(|e| e.name.as_ref())
            .map(|(_, lower)| Tag::from_name(lower))
            .filter(|&t| t != Tag::Unknown)
            .collect();
        let end = tags.iter().map(|&t| t as usize + 1).max().unwrap_or(0);
        let mut starts = Vec::with_capacity(end + 1);
        let mut ids = Vec::new();
        for t in 0..end {
            starts.push(ids.len() as u32);
            ids.extend(all.clone().filter(|&i| match &entries[i as usize].name {
                None => true,
                Some((_, lower)) => Tag::from_name(lower) as usize == t,
            }));
        }
        starts.push(ids.len() as u32);
        let named = entries.iter().any(|e| e.name.is_some());
        Some(Flat {
            entries: entries.into(),
            starts: starts.into(),
            ids: ids.into(),
            any,
            named,
        })
    }

    /// Calls `hit` with the owner of each entry the element `node` matches, in order
    /// (nothing when `node` is no element). Returns early when `hit` returns true.
    #[inline]
    pub(crate) fn matches(
        &self,
        node: NodeRef<'_>,
        quirks: QuirksMode,
        mut hit: impl FnMut(usize) -> bool,
    ) {
        let Some(name) = node.element_name() else {
            return;
        };
        let html = name.ns == Ns::Html;
        if html && name.tag != Tag::Unknown {
            let t = name.tag as usize;
            let ids = match self.starts.get(t..t + 2) {
                Some(&[from, to]) => &self.ids[from as usize..to as usize],
                _ => &self.any,
            };
            if ids.is_empty() {
                return;
            }
            let subject = Subject::named(node, name);
            for &i in ids {
                let entry = &self.entries[i as usize];
                if entry
                    .conditions
                    .iter()
                    .all(|c| matches_simple(c, &subject, quirks))
                    && hit(entry.owner)
                {
                    return;
                }
            }
        } else {
            self.matches_by_name(node, name, quirks, hit);
        }
    }

    /// [`Flat::matches`] for an element whose name the tree does not intern, or a foreign
    /// one: each entry's type compared with the name as `selectors` compares it.
    #[inline(never)]
    fn matches_by_name(
        &self,
        node: NodeRef<'_>,
        name: Name,
        quirks: QuirksMode,
        mut hit: impl FnMut(usize) -> bool,
    ) {
        let subject = Subject::named(node, name);
        let local = if self.named { subject.name() } else { "" };
        for entry in self.entries.iter() {
            let named = match &entry.name {
                None => true,
                Some((written, lower)) => local == if subject.html { &**lower } else { &**written },
            };
            if named
                && entry
                    .conditions
                    .iter()
                    .all(|c| matches_simple(c, &subject, quirks))
                && hit(entry.owner)
            {
                return;
            }
        }
    }
}
