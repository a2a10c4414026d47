//! `:has()` (Selectors 4 § 4.5), matched with loops.
//!
//! `selectors` can match `:has` itself, but it walks the anchor's subtree by recursion, a
//! stack frame per level (`matches_relative_selector_subtree`, and the Bloom filter it
//! fills first): `:has(p)` on a million nested elements overflows the stack. So the
//! parser hooks (`css.rs`) parse `:has` as our own pseudo-class, and here the candidates
//! are walked with the tree's iterative `descendants()`; each candidate is matched by
//! `selectors` against the relative selector, whose leftmost part (the anchor) matches
//! only the element `:has` is on.
//!
//! Cost: a `:has` test walks the anchor's subtree (or its following siblings' subtrees).
//! Tested on every element of a deep tree (or of a long list of siblings), that is
//! quadratic; so the one-compound forms after the descendant combinator (`:has(img)`,
//! `:has(a[href])`) and after the later-sibling combinator (`:has(~ p)`) are answered for
//! every element of the tree at once when a walk provides a [`HasCache`] (the selections
//! and `Fields` do): one pass from the leaves up marks the elements with a matching
//! descendant, one pass over each parent's children from the last marks those with a
//! matching later sibling. `:has(> p)` and `:has(+ p)` look at the children or the next
//! sibling only (linear over a walk). The forms of more than one compound (`:has(a b)`,
//! `:has(> a p)`, `:has(~ a p)`) are still walked per anchor.

use std::cell::RefCell;

use htmltok_tree::NodeRef;
use selectors::matching::{self, MatchingContext};
use selectors::parser::{Combinator, Component, Selector};
use selectors::{Element as _, OpaqueElement, SelectorList};

use crate::css::Impl;
use crate::element::Element;

/// For one walk of a document: for each `:has(C)` or `:has(~ C)` met (by its relative
/// selector's address), which nodes of the document's tree have a descendant (or a later
/// element sibling) matching `C` (None: not in the tree, such as template contents), by
/// node id.
#[derive(Default)]
pub struct HasCache {
    answers: RefCell<Vec<(usize, Vec<Option<bool>>)>>,
}

/// Whether `anchor` matches the one-compound relative selector `sel` whose leading
/// combinator is `leading` (` ` or `~`), from `cache` (filled for the whole document
/// tree the first time); None when the anchor is outside that tree.
fn cached(
    cache: &HasCache,
    sel: &Selector<Impl>,
    leading: Combinator,
    anchor: Element<'_>,
    context: &mut MatchingContext<Impl>,
) -> Option<bool> {
    let key = sel as *const Selector<Impl> as usize;
    let id = anchor.0.id() as usize;
    if let Some((_, answers)) = cache.answers.borrow().iter().find(|(k, _)| *k == key) {
        return answers[id];
    }
    let root = anchor.0.document().root();
    let answers = match leading {
        Combinator::LaterSibling => mark_earlier_siblings_of_matches(root, sel, context),
        _ => mark_ancestors_of_matches(root, sel, context),
    };
    let answer = answers[id];
    cache.answers.borrow_mut().push((key, answers));
    answer
}

/// For every node of the tree under `root`, whether one of its descendants matches the
/// one-compound relative selector `sel`: children before parents (the reverse of document
/// order), each element matched once, with its parent as the anchor.
fn mark_ancestors_of_matches(
    root: NodeRef<'_>,
    sel: &Selector<Impl>,
    context: &mut MatchingContext<Impl>,
) -> Vec<Option<bool>> {
    let mut below = vec![None; root.document().node_count()];
    below[root.id() as usize] = Some(false);
    let order: Vec<NodeRef<'_>> = root.descendants().collect();
    for node in &order {
        below[node.id() as usize] = Some(false);
    }
    for node in order.into_iter().rev() {
        let Some(parent) = node.parent().filter(|_| node.is_element()) else {
            continue;
        };
        let hit = below[node.id() as usize] == Some(true) || {
            let el = Element(node);
            context.nest_for_relative_selector(OpaqueElement::new(parent.data()), |ctx| {
                matching::matches_selector(sel, 0, None, &el, ctx)
            })
        };
        if hit {
            below[parent.id() as usize] = Some(true);
        }
    }
    below
}

/// For every element of the tree under `root`, whether one of its later element siblings
/// matches the one-compound relative selector `sel` (`:has(~ C)`): each parent's
/// children from the last to the first, each element matched once, with its previous
/// element sibling as the anchor (an element with none is no anchor's later sibling).
fn mark_earlier_siblings_of_matches(
    root: NodeRef<'_>,
    sel: &Selector<Impl>,
    context: &mut MatchingContext<Impl>,
) -> Vec<Option<bool>> {
    let mut later = vec![None; root.document().node_count()];
    for parent in std::iter::once(root).chain(root.descendants()) {
        let mut found = false;
        let mut child = parent.last_child();
        while let Some(node) = child {
            child = node.prev_sibling();
            let Some(el) = Element::of(node) else {
                continue;
            };
            later[node.id() as usize] = Some(found);
            if !found && let Some(anchor) = el.prev_sibling_element() {
                found = context.nest_for_relative_selector(anchor.opaque(), |ctx| {
                    matching::matches_selector(sel, 0, None, &el, ctx)
                });
            }
        }
    }
    later
}

/// Whether `anchor` matches `:has(list)`.
pub(crate) fn matches_has(
    list: &SelectorList<Impl>,
    anchor: Element<'_>,
    context: &mut MatchingContext<Impl>,
) -> bool {
    list.slice()
        .iter()
        .any(|sel| matches_relative(sel, anchor, context))
}

/// Whether some element in the relative selector's reach matches it with `anchor` as the
/// anchor.
fn matches_relative(
    sel: &Selector<Impl>,
    anchor: Element<'_>,
    context: &mut MatchingContext<Impl>,
) -> bool {
    // In match order the components end with the leading combinator and the anchor.
    let comps = sel.iter_raw_match_order().as_slice();
    let leading = match comps.len().checked_sub(2).map(|i| &comps[i]) {
        Some(Component::Combinator(c)) => *c,
        _ => Combinator::Descendant,
    };
    let one_step = comps
        .iter()
        .filter(|c| matches!(c, Component::Combinator(_)))
        .count()
        == 1;
    let cacheable = matches!(leading, Combinator::Descendant | Combinator::LaterSibling);
    if let (true, true, Some(memo)) = (cacheable, one_step, context.extra_data)
        && let Some(answer) = cached(&memo.has, sel, leading, anchor, context)
    {
        return answer;
    }
    let mut test = |candidate: Element<'_>| {
        context.nest_for_relative_selector(anchor.opaque(), |ctx| {
            matching::matches_selector(sel, 0, None, &candidate, ctx)
        })
    };
    match leading {
        // `:has(> p)`: the children only.
        Combinator::Child if one_step => anchor.0.children().filter_map(Element::of).any(test),
        // `:has(+ p)`: the next element sibling only.
        Combinator::NextSibling if one_step => anchor.next_sibling_element().is_some_and(&mut test),
        // `:has(~ p)`: the following siblings.
        Combinator::LaterSibling if one_step => {
            let mut s = anchor.next_sibling_element();
            while let Some(el) = s {
                if test(el) {
                    return true;
                }
                s = el.next_sibling_element();
            }
            false
        }
        // `:has(+ a p)`, `:has(~ a > p)`: the following siblings and their subtrees.
        Combinator::NextSibling | Combinator::LaterSibling => {
            let mut s = anchor.next_sibling_element();
            while let Some(el) = s {
                if test(el) || el.0.descendants().filter_map(Element::of).any(&mut test) {
                    return true;
                }
                s = el.next_sibling_element();
            }
            false
        }
        // `:has(p)`, `:has(> a p)`: the subtree.
        _ => anchor.0.descendants().filter_map(Element::of).any(test),
    }
}
