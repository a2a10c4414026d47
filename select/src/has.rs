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
//! quadratic; so when a walk provides a [`HasCache`] (the selections and `Fields` do),
//! every relative selector is answered for every element of the tree at once, in one pass
//! per compound ([`answer_for_tree`]): for `:has(c1 A1 c2 A2 ... cn An)`, let R(k, N) say
//! "an element related to N by `ck` matches `Ak` and R(k + 1, ·)", with R(n + 1, ·) true;
//! the anchor matches when R(1, anchor). From the last compound back, R(k, ·) is one pass
//! over the tree: for ` ` children before parents (N has such a descendant when a child
//! matches or has one), for `>` over each node's children, for `+` from each element to
//! the one before it, for `~` over each parent's children from the last. Each compound is
//! matched at most once per element, so `:has(a b)`, `:has(> a p)` and `:has(~ a p)` on a
//! million nested elements stay linear. A compound holding a complex selector in `:is()` /
//! `:not()` (`:has(p:not(div p))`), for which `selectors` would walk up from each element,
//! is matched for every element by one top-down walk first (`topdown::compound_for_tree`).
//! Without a cache (`Selector::matches` on one
//! element) the anchor's reach is walked as above.

use htmltok_tree::NodeRef;
use selectors::matching::{self, CompoundSelectorMatchingResult, MatchingContext};
use selectors::parser::{Combinator, Component, Selector};
use selectors::{Element as _, OpaqueElement, SelectorList};

use crate::css::Impl;
use crate::element::Element;
use crate::memo::HasCache;
use crate::topdown;

/// Whether `anchor` matches the relative selector `sel`, from `cache` (filled for the
/// whole document tree the first time); None when the anchor is outside that tree or the
/// selector has a combinator the passes do not know.
fn cached(
    cache: &HasCache,
    sel: &Selector<Impl>,
    anchor: Element<'_>,
    context: &mut MatchingContext<Impl>,
) -> Option<bool> {
    let key = sel as *const Selector<Impl> as usize;
    let id = anchor.0.id() as usize;
    if let Some((_, answers)) = cache.answers.borrow().iter().find(|(k, _)| *k == key) {
        return answers.get(id).copied().flatten();
    }
    let answers = answer_for_tree(anchor.0.document().root(), sel, context).unwrap_or_default();
    let answer = answers.get(id).copied().flatten();
    cache.answers.borrow_mut().push((key, answers));
    answer
}

/// The compounds of a relative selector after its anchor, in parse order: each with the
/// combinator before it and the parse-order offset of its first component. None when a
/// combinator is not one of the four that `:has` allows.
fn steps(sel: &Selector<Impl>) -> Option<Vec<(Combinator, usize)>> {
    let mut steps = Vec::new();
    for (i, component) in sel.iter_raw_parse_order_from(0).enumerate() {
        if let Component::Combinator(c) = component {
            match c {
                Combinator::Descendant
                | Combinator::Child
                | Combinator::NextSibling
                | Combinator::LaterSibling => steps.push((*c, i + 1)),
                _ => return None,
            }
        }
    }
    (!steps.is_empty()).then_some(steps)
}

/// For every node of the tree under `root` (by node id; None for nodes outside it, such
/// as template contents), whether it is an anchor that the relative selector `sel`
/// matches: R(1, ·) of the module docs, computed from the last compound back.
fn answer_for_tree(
    root: NodeRef<'_>,
    sel: &Selector<Impl>,
    context: &mut MatchingContext<Impl>,
) -> Option<Vec<Option<bool>>> {
    let steps = steps(sel)?;
    let order: Vec<NodeRef<'_>> = std::iter::once(root).chain(root.descendants()).collect();
    let count = root.document().node_count();
    // R(k + 1, ·), starting with R(n + 1, ·): true everywhere.
    let mut next = vec![true; count];
    for &(combinator, offset) in steps.iter().rev() {
        let mut reach = vec![false; count];
        // A compound holding a complex selector in `:is()` / `:not()` (`:has(p:not(div
        // p))`): matched for the whole tree by one top-down walk, as `selectors` would
        // walk up from each element.
        let planned = topdown::compound_for_tree(sel, offset, root);
        // Whether `node` is an element matching compound k with R(k + 1, node).
        let hit = |node: NodeRef<'_>, context: &mut MatchingContext<Impl>| {
            if let Some(planned) = &planned {
                return next[node.id() as usize] && planned[node.id() as usize];
            }
            next[node.id() as usize]
                && Element::of(node).is_some_and(|el| {
                    context.nest_for_relative_selector(OpaqueElement::new(root.data()), |ctx| {
                        !matches!(
                            matching::matches_compound_selector_from(sel, offset, ctx, &el),
                            CompoundSelectorMatchingResult::NotMatched
                        )
                    })
                })
        };
        match combinator {
            // Children before parents: a node has a matching descendant when a child
            // matches or has one.
            Combinator::Descendant => {
                for &node in order.iter().rev() {
                    if let Some(parent) = node.parent()
                        && (reach[node.id() as usize] || hit(node, context))
                    {
                        reach[parent.id() as usize] = true;
                    }
                }
            }
            Combinator::Child => {
                for &node in &order {
                    if let Some(parent) = node.parent()
                        && hit(node, context)
                    {
                        reach[parent.id() as usize] = true;
                    }
                }
            }
            Combinator::NextSibling => {
                for &node in &order {
                    if let Some(prev) = Element::of(node).and_then(|el| el.prev_sibling_element())
                        && hit(node, context)
                    {
                        reach[prev.0.id() as usize] = true;
                    }
                }
            }
            // Each parent's children from the last: an element has a matching later
            // sibling when one after it matched.
            _ => {
                for &parent in &order {
                    let mut found = false;
                    let mut child = parent.last_child();
                    while let Some(node) = child {
                        child = node.prev_sibling();
                        if node.is_element() {
                            reach[node.id() as usize] = found;
                            found = found || hit(node, context);
                        }
                    }
                }
            }
        }
        next = reach;
    }
    let mut answers = vec![None; count];
    for node in order {
        answers[node.id() as usize] = Some(next[node.id() as usize]);
    }
    Some(answers)
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
    if let Some(memo) = context.extra_data
        && let Some(answer) = cached(&memo.has, sel, anchor, context)
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
