//! What one walk of a document remembers while it matches: the `:has()` answers
//! ([`HasCache`], filled and read by `has.rs`), and the two states elements inherit from
//! their ancestors that pseudo-classes ask of — the language (`:lang()`) and being inside
//! a disabled `fieldset` (`:disabled`, `:enabled`).
//!
//! Asked per element without a memo, each of those walks up to the root: on a deep tree
//! (100,000 nested `fieldset`s or `div`s) that is quadratic. Here the walk up stops at the
//! first ancestor already answered, and every element passed on the way is answered too,
//! so each element is looked at a bounded number of times over the whole walk, whatever
//! the shape. The walks hand the memo to `selectors` as the matching context's extra data
//! (the `ExtraMatchingData` of `Impl` in `css.rs`); matching without one (a lone
//! `Selector::matches` on an element) walks up as before.

use std::cell::RefCell;

use htmltok_tree::{AttrNs, NodeRef, Tag};

use crate::element::Element;

/// The memo of one walk of one document, by node id (sized on first use).
#[derive(Default)]
pub struct WalkMemo {
    pub(crate) has: HasCache,
    /// For each node: 0 not yet known; 1 no language; `id + 2`, the nearest inclusive
    /// ancestor element with `xml:lang` or `lang`.
    lang: RefCell<Vec<u32>>,
    /// For each element: 0 not yet known; 1 not inside a disabled `fieldset` (as
    /// [`inside_disabled_fieldset`] defines it); 2 inside one.
    fieldset: RefCell<Vec<u8>>,
}

/// For one walk of a document: for each relative selector of a `:has()` met (by its
/// address), which nodes of the document's tree it matches as their anchor (None: not in
/// the tree, such as template contents), by node id.
#[derive(Default)]
pub struct HasCache {
    pub(crate) answers: RefCell<Vec<(usize, Vec<Option<bool>>)>>,
}

/// The element whose `xml:lang` or `lang` gives `el`'s language (HTML § 3.2.6.2: the
/// nearest inclusive ancestor with either; `xml:lang` first), if any.
pub(crate) fn language_holder<'d>(el: Element<'d>, memo: Option<&WalkMemo>) -> Option<NodeRef<'d>> {
    let Some(memo) = memo else {
        let mut node = Some(el.0);
        while let Some(n) = node {
            if declares_language(n) {
                return Some(n);
            }
            node = n.parent().filter(|p| p.is_element());
        }
        return None;
    };
    let doc = el.0.document();
    let mut known = memo.lang.borrow_mut();
    if known.is_empty() {
        known.resize(doc.node_count(), 0);
    }
    // Up to the first element answered, one that declares, or the top.
    let mut path = Vec::new();
    let mut node = Some(el.0);
    let mut answer = 1;
    while let Some(n) = node {
        let state = known[n.id() as usize];
        if state != 0 {
            answer = state;
            break;
        }
        if declares_language(n) {
            answer = n.id() + 2;
            known[n.id() as usize] = answer;
            break;
        }
        path.push(n.id());
        node = n.parent().filter(|p| p.is_element());
    }
    for id in path {
        known[id as usize] = answer;
    }
    (answer >= 2).then(|| doc.node(answer - 2))
}

/// Whether `n` carries `xml:lang` or `lang`.
fn declares_language(n: NodeRef<'_>) -> bool {
    n.attrs()
        .any(|a| a.ns() == AttrNs::Xml && a.name_bytes() == b"lang")
        || n.attr("lang").is_some()
}

/// Whether `el` is a descendant of a disabled `fieldset` without being inside that
/// fieldset's first `legend` child (HTML § 4.10.18.5, "disabled", for form controls and
/// fieldsets). Inherited child by child: a child of a disabled fieldset is inside one
/// unless it is that fieldset's first `legend`; any other child is inside one when its
/// parent is.
pub(crate) fn inside_disabled_fieldset(el: Element<'_>, memo: Option<&WalkMemo>) -> bool {
    let Some(memo) = memo else {
        let mut child = el;
        while let Some(parent) = child.0.parent().and_then(Element::of) {
            if disables(parent, child) {
                return true;
            }
            child = parent;
        }
        return false;
    };
    let mut known = memo.fieldset.borrow_mut();
    if known.is_empty() {
        known.resize(el.0.document().node_count(), 0);
    }
    // Up to the first element answered or the top; then down again, child by child.
    let mut path = vec![el];
    let mut inside = false;
    loop {
        let child = path[path.len() - 1];
        let Some(parent) = child.0.parent().and_then(Element::of) else {
            break;
        };
        match known[parent.0.id() as usize] {
            0 => path.push(parent),
            state => {
                inside = state == 2;
                break;
            }
        }
    }
    // `path` runs from `el` up to the topmost element not yet answered; `inside` is the
    // state of that element's parent (false at the top).
    let mut parent: Option<Element<'_>> = path[path.len() - 1].0.parent().and_then(Element::of);
    for &child in path.iter().rev() {
        inside = inside || parent.is_some_and(|p| disables(p, child));
        known[child.0.id() as usize] = if inside { 2 } else { 1 };
        parent = Some(child);
    }
    inside
}

/// Whether `parent` is a disabled `fieldset` and `child` is not its first `legend`.
fn disables(parent: Element<'_>, child: Element<'_>) -> bool {
    parent.is_html(Tag::Fieldset) && parent.has_attr("disabled") && !first_legend(child)
}

/// Whether `child` is a `legend` with no `legend` among its earlier siblings. Looking
/// back stops at the first `legend`, so over all the children of one parent no sibling is
/// passed twice (each is passed only by the next `legend` after it).
fn first_legend(child: Element<'_>) -> bool {
    if !child.is_html(Tag::Legend) {
        return false;
    }
    let mut sibling = child.0.prev_sibling();
    while let Some(s) = sibling {
        if Element(s).is_html(Tag::Legend) {
            return false;
        }
        sibling = s.prev_sibling();
    }
    true
}
