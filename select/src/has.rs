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
//! Cost: a `:has` test walks the anchor's subtree (or its following siblings' subtrees),
//! so a selector testing `:has` on every element of a deeply nested document is
//! quadratic in the depth. No result is cached between anchors.

use selectors::Element as _;
use selectors::SelectorList;
use selectors::matching::{self, MatchingContext};
use selectors::parser::{Combinator, Component, Selector};

use crate::css::Impl;
use crate::element::Element;

/// Whether `anchor` matches `:has(list)`.
pub(crate) fn matches_has(
    list: &SelectorList<Impl>,
    anchor: Element<'_, '_>,
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
    anchor: Element<'_, '_>,
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
    let mut test = |candidate: Element<'_, '_>| {
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
