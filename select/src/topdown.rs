//! Top-down matching: the selectors made only of compounds joined by the descendant
//! (` `) and child (`>`) combinators, matched from the root down as the walk goes, a
//! state per open element, as streaming XPath engines and lol-html do.
//!
//! `selectors` matches right to left: for each element it tests the subject compound,
//! then walks up the ancestors looking for the rest. When the rest is found far up (`body
//! div div` on nested `div`s: every `div` matches and walks up to `body`) or is found
//! only after many false starts (`div > span div` under one `span`), that is a walk to
//! the root per element: quadratic on a deep tree (20,000 nested `div`s took 7.5 s).
//!
//! Here a selector `c0 ⊕1 c1 ⊕2 … ck` (compounds `ci`, combinators `⊕i` each ` ` or `>`)
//! is read left to right. For each element `e` the walk keeps two sets of prefixes:
//! `matched(e)`, the `i` such that `c0 … ci` matches ending at `e` (`e` matches `ci`,
//! and for `i > 0` the prefix `i - 1` is in `matched(parent)` when `⊕i` is `>`, in
//! `reached(parent)` when it is ` `), and `reached(e)`, the union of `matched` over `e`
//! and its ancestors. `e` matches the selector when `k` is in `matched(e)`. Each compound
//! is tested at most once per element, and only when its prefix is satisfied, so a
//! selector costs time linear in the size of the tree times the number of compounds,
//! whatever the shape. The compounds themselves are matched by `selectors`
//! (`matches_compound_selector_from`): every simple selector, `:is()`, `:not()`,
//! `:nth-child()` and the rest, with the same case rules as the right-to-left path.
//!
//! The sets are bit masks, one bit per compound of every selector of the plan (a
//! selector list, or all the fields of a [`crate::Fields`]), 64 to a word; a selector's
//! compounds never straddle two words, so a prefix bit moves to the next compound's bit by
//! a shift. Compounds that name a type (`a`, `h1`) are offered only to elements of that
//! name (one lookup of the element's name per element for the whole plan).
//!
//! What is not done here (the selector keeps `selectors`' right-to-left path): the
//! sibling combinators (`+`, `~`; a sibling state would be needed as well), `:has()`
//! (see `has.rs`), and selectors of more than 64 compounds. A compound may still hold a
//! complex selector inside `:is()` / `:not()` (`:not(div p)`), which `selectors` matches
//! by walking up: that part is not linear.

use htmltok_tree::{NodeRef, Tag};
use selectors::attr::{AttrSelectorOperation, NamespaceConstraint};
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::matching::{
    CompoundSelectorMatchingResult, matches_compound_selector_from, select_name,
    to_unconditional_case_sensitivity,
};
use selectors::parser::{Combinator, Component, Selector as Complex};
use selectors::{Element as _, SelectorList};

use crate::css::{Ident, Impl, PseudoClass};
use crate::element::Element;
use crate::has::HasCache;
use crate::{Subject, TypeName};

/// One compound of a chain: where it starts in the selector (parse order), how it is
/// joined to the one before, and the type it names, if any.
struct Link {
    offset: usize,
    child: bool,
    name: Option<TypeName>,
}

/// The compounds of `sel` left to right, when it is made only of compounds joined by ` `
/// and `>` (and perhaps ends in a pseudo-element, which is left out: the element it is
/// taken from is the subject) and holds no `:has()` at its top level; None otherwise.
fn chain(sel: &Complex<Impl>) -> Option<Vec<Link>> {
    let mut links = Vec::new();
    let mut start = 0;
    let mut child = false;
    let mut name = None;
    for (i, c) in sel.iter_raw_parse_order_from(0).enumerate() {
        match c {
            Component::Combinator(comb) => {
                links.push(Link {
                    offset: start,
                    child,
                    name: name.take(),
                });
                match comb {
                    Combinator::Descendant => child = false,
                    Combinator::Child => child = true,
                    // The pseudo-element is the last thing of a selector.
                    Combinator::PseudoElement => return Some(links),
                    _ => return None,
                }
                start = i + 1;
            }
            Component::LocalName(n) => {
                name = Some((n.name.as_str().into(), n.lower_name.as_str().into()));
            }
            Component::NonTSPseudoClass(PseudoClass::Has(_)) => return None,
            _ => {}
        }
    }
    links.push(Link {
        offset: start,
        child,
        name,
    });
    Some(links)
}

/// A compound to test: a selector and the offset of the compound in it, and its simple
/// selectors when they are all of the kinds [`matches_simple`] answers.
#[derive(Clone, Debug)]
struct Compound {
    selector: Complex<Impl>,
    offset: usize,
    simple: Option<Box<[Component<Impl>]>>,
}

impl Compound {
    fn new(selector: &Complex<Impl>, offset: usize) -> Compound {
        let parts: Vec<Component<Impl>> = selector
            .iter_raw_parse_order_from(offset)
            .take_while(|c| !matches!(c, Component::Combinator(_)))
            // The type is checked by the plan's name index before the compound is tried.
            .filter(|c| !matches!(c, Component::LocalName(_)))
            .cloned()
            .collect();
        let simple = parts
            .iter()
            .all(|c| {
                matches!(
                    c,
                    Component::ID(_)
                        | Component::Class(_)
                        | Component::AttributeInNoNamespaceExists { .. }
                        | Component::AttributeInNoNamespace { .. }
                        | Component::ExplicitUniversalType
                        | Component::ExplicitAnyNamespace
                        | Component::Namespace(..)
                        | Component::DefaultNamespace(_)
                )
            })
            .then(|| parts.into_boxed_slice());
        Compound {
            selector: selector.clone(),
            offset,
            simple,
        }
    }
}

/// Whether `el` matches the simple selector `c` (one of those [`Compound::new`] keeps),
/// through the same `Element` methods and with the same arguments as `selectors`'
/// `matches_simple_selector` uses: the same answer without a matching context, for the
/// compounds most selectors are made of (`a[href]`, `meta[name=robots]`, `.x`).
fn matches_simple(c: &Component<Impl>, el: &Element<'_>, quirks: QuirksMode) -> bool {
    match c {
        Component::ID(id) => el.has_id(id, quirks.classes_and_ids_case_sensitivity()),
        Component::Class(class) => el.has_class(class, quirks.classes_and_ids_case_sensitivity()),
        Component::AttributeInNoNamespaceExists {
            local_name,
            local_name_lower,
        } => el.has_attr_in_no_namespace(select_name(el, local_name, local_name_lower)),
        Component::AttributeInNoNamespace {
            local_name,
            value,
            operator,
            case_sensitivity,
        } => el.attr_matches(
            &NamespaceConstraint::Specific(&Ident::default()),
            local_name,
            &AttrSelectorOperation::WithValue {
                operator: *operator,
                case_sensitivity: to_unconditional_case_sensitivity(*case_sensitivity, el),
                value,
            },
        ),
        Component::ExplicitUniversalType | Component::ExplicitAnyNamespace => true,
        Component::Namespace(_, url) | Component::DefaultNamespace(url) => el.has_namespace(url),
        _ => false,
    }
}

/// Bit masks over a plan's compounds, a word per 64.
type Mask = Box<[u64]>;

/// The compounds of some selector lists, each list with an owner (a field's index; 0 for
/// a lone selector), laid out as bits (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    words: usize,
    /// By bit: the compound, None for the bits left unused at the end of a word.
    compounds: Vec<Option<Compound>>,
    /// By bit: the owner of the selector the compound belongs to.
    owners: Vec<usize>,
    /// The first compound of each selector: always a candidate.
    first: Mask,
    /// Bits whose next bit is a compound joined by `>` / by ` `.
    child: Mask,
    descendant: Mask,
    /// The last compound of each selector: an element matching it matches the selector.
    last: Mask,
    /// For HTML elements, by (lowercased) name: the compounds that may match an element of
    /// that name (those naming it, and those naming no type), sorted by name.
    html: Vec<(Box<str>, Mask)>,
    /// The same for SVG and MathML elements, by name as written.
    foreign: Vec<(Box<str>, Mask)>,
    /// The compounds naming no type: the candidates of an element named in no compound.
    any: Mask,
    /// For HTML elements of an interned name, by the name's id ([`Tag`] as a number): the
    /// index of their entry in `html`, `usize::MAX` for none (then `any`). The string
    /// search is left for names the tree does not intern and for foreign elements.
    by_tag: Box<[usize]>,
    /// Whether some selector has more than one compound: else no prefix sets need be
    /// kept from parent to child, and the walk keeps no stack.
    prefixes: bool,
}

impl Plan {
    /// The plan of `lists` (each with its owner), or None when one of them cannot be
    /// matched top-down (see [`chain`]).
    pub(crate) fn new<'a>(
        lists: impl IntoIterator<Item = (usize, &'a SelectorList<Impl>)>,
    ) -> Option<Plan> {
        let mut compounds: Vec<Option<Compound>> = Vec::new();
        let mut owners = Vec::new();
        let mut named: Vec<(usize, TypeName)> = Vec::new();
        let bits = |v: &mut Vec<u64>, bit: usize| {
            v.resize(v.len().max(bit / 64 + 1), 0);
            v[bit / 64] |= 1 << (bit % 64);
        };
        let (mut first, mut child, mut descendant, mut last, mut any) =
            (vec![], vec![], vec![], vec![], vec![]);
        for (owner, list) in lists {
            for sel in list.slice() {
                let links = chain(sel).filter(|c| c.len() <= 64)?;
                // Keep a selector's compounds in one word.
                if compounds.len() % 64 + links.len() > 64 {
                    let pad = 64 - compounds.len() % 64;
                    compounds.extend((0..pad).map(|_| None));
                    owners.extend((0..pad).map(|_| usize::MAX));
                }
                let start = compounds.len();
                for (j, link) in links.iter().enumerate() {
                    let bit = start + j;
                    if j == 0 {
                        bits(&mut first, bit);
                    } else if link.child {
                        bits(&mut child, bit - 1);
                    } else {
                        bits(&mut descendant, bit - 1);
                    }
                    match &link.name {
                        Some(name) => named.push((bit, name.clone())),
                        None => bits(&mut any, bit),
                    }
                    compounds.push(Some(Compound::new(sel, link.offset)));
                    owners.push(owner);
                }
                bits(&mut last, compounds.len() - 1);
            }
        }
        let words = compounds.len().div_ceil(64);
        let full = |mut v: Vec<u64>| {
            v.resize(words, 0);
            v.into_boxed_slice()
        };
        let any = full(any);
        let index = |pick: fn(&TypeName) -> &str| {
            let mut names: Vec<&str> = named.iter().map(|(_, n)| pick(n)).collect();
            names.sort_unstable();
            names.dedup();
            names
                .into_iter()
                .map(|name| {
                    let mut mask = any.to_vec();
                    for (bit, n) in &named {
                        if pick(n) == name {
                            mask[bit / 64] |= 1 << (bit % 64);
                        }
                    }
                    (Box::from(name), mask.into_boxed_slice())
                })
                .collect()
        };
        let html: Vec<(Box<str>, Mask)> = index(|(_, lower)| lower);
        let mut by_tag = Vec::new();
        for (i, (name, _)) in html.iter().enumerate() {
            let tag = Tag::from_name(name);
            if tag != Tag::Unknown {
                let id = tag as usize;
                by_tag.resize(by_tag.len().max(id + 1), usize::MAX);
                by_tag[id] = i;
            }
        }
        let prefixes = child.iter().chain(&descendant).any(|&w| w != 0);
        Some(Plan {
            by_tag: by_tag.into(),
            prefixes,
            html,
            foreign: index(|(written, _)| written),
            words,
            compounds,
            owners,
            first: full(first),
            child: full(child),
            descendant: full(descendant),
            last: full(last),
            any,
        })
    }

    /// True when the plan has no selector.
    pub(crate) fn is_empty(&self) -> bool {
        self.words == 0
    }

    /// The compounds the element `subject` may match, by its name.
    fn candidates(&self, subject: &Subject<'_>) -> &[u64] {
        if subject.html && subject.tag != Tag::Unknown {
            return match self.by_tag.get(subject.tag as usize) {
                Some(&i) if i != usize::MAX => &self.html[i].1,
                _ => &self.any,
            };
        }
        let table = if subject.html {
            &self.html
        } else {
            &self.foreign
        };
        match table.binary_search_by(|(n, _)| (**n).cmp(subject.name)) {
            Ok(i) => &table[i].1,
            Err(_) => &self.any,
        }
    }
}

/// A top-down walk's state: the open elements from the top (those with children; an
/// element is pushed after it is matched) and their prefix sets.
pub(crate) struct Walk<'p, 'd> {
    plan: &'p Plan,
    quirks: QuirksMode,
    scope: Option<NodeRef<'d>>,
    /// The prefix sets above the walk (the scope's, or none), `matched` then `reached`.
    base: Box<[u64]>,
    stack: Vec<NodeRef<'d>>,
    /// `2 * words` per entry of `stack`.
    states: Vec<u64>,
    /// The sets of the element just matched.
    current: Box<[u64]>,
}

impl<'p, 'd> Walk<'p, 'd> {
    /// For a walk of the descendants of `scope` (None: of the whole document), in a
    /// document of quirks mode `quirks`: the scope's own sets are found by matching down
    /// the path to it from the top.
    pub(crate) fn new(
        plan: &'p Plan,
        quirks: QuirksMode,
        scope: Option<NodeRef<'d>>,
        has: &HasCache,
        caches: &mut SelectorCaches,
    ) -> Walk<'p, 'd> {
        let words = plan.words;
        let mut walk = Walk {
            plan,
            quirks,
            scope,
            base: vec![0; 2 * words].into(),
            stack: Vec::new(),
            states: Vec::new(),
            current: vec![0; 2 * words].into(),
        };
        let mut path = Vec::new();
        let mut node = scope.filter(|n| n.is_element());
        while let Some(n) = node {
            path.push(n);
            node = n.parent().filter(|p| p.is_element());
        }
        for n in path.into_iter().rev() {
            if let Some(subject) = Subject::of(n) {
                walk.step(&subject, has, caches);
                walk.base.copy_from_slice(&walk.current);
            }
        }
        walk
    }

    /// Matches the element `subject` (the next element of a document-order walk) against
    /// the plan's compounds whose prefixes its parent allows; then, for each bit of the
    /// plan's `last` it matched (the selectors it matches), calls `hit` with the bit's
    /// owner, in bit order.
    #[inline]
    pub(crate) fn matches(
        &mut self,
        subject: &Subject<'d>,
        has: &HasCache,
        caches: &mut SelectorCaches,
        mut hit: impl FnMut(usize),
    ) {
        self.step(subject, has, caches);
        for w in 0..self.plan.words {
            let mut hits = self.current[w] & self.plan.last[w];
            while hits != 0 {
                let bit = w * 64 + hits.trailing_zeros() as usize;
                hits &= hits - 1;
                hit(self.plan.owners[bit]);
            }
        }
    }

    /// Sets `current` to `subject`'s prefix sets.
    #[inline]
    fn step(&mut self, subject: &Subject<'d>, has: &HasCache, caches: &mut SelectorCaches) {
        let node = subject.el.0;
        let parent = node.parent();
        // Leave on the stack only the element's ancestors.
        while let Some(&top) = self.stack.last() {
            if Some(top) == parent {
                break;
            }
            self.stack.pop();
            self.states
                .truncate(self.states.len() - 2 * self.plan.words);
        }
        let words = self.plan.words;
        let above: &[u64] = match self.stack.last() {
            Some(_) => &self.states[self.states.len() - 2 * words..],
            None => &self.base,
        };
        let (matched_above, reached_above) = above.split_at(words);
        let names = self.plan.candidates(subject);
        let mut any = 0;
        for w in 0..words {
            let candidates = (self.plan.first[w]
                | (matched_above[w] & self.plan.child[w]) << 1
                | (reached_above[w] & self.plan.descendant[w]) << 1)
                & names[w];
            self.current[w] = candidates;
            self.current[words + w] = reached_above[w];
            any |= candidates;
        }
        if any == 0 {
            return;
        }
        // The compounds of simple selectors first, without a matching context. `rest`:
        // whether some candidate is left to `selectors` (a flag, not a mask: the bits go
        // up to 63).
        let mut rest = false;
        for w in 0..words {
            let mut candidates = self.current[w];
            let mut matched = 0;
            while candidates != 0 {
                let bit = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let Some(compound) = &self.plan.compounds[w * 64 + bit] else {
                    continue;
                };
                match &compound.simple {
                    Some(parts) => {
                        if parts
                            .iter()
                            .all(|c| matches_simple(c, &subject.el, self.quirks))
                        {
                            matched |= 1 << bit;
                        }
                    }
                    None => {
                        matched |= 1 << bit;
                        rest = true;
                    }
                }
            }
            self.current[w] = matched;
        }
        if rest {
            self.match_rest(subject, has, caches);
        }
        for w in 0..words {
            self.current[words + w] |= self.current[w];
        }
    }

    /// The candidates left in `current` that [`matches_simple`] does not answer: matched
    /// by `selectors`, with one matching context for the element.
    fn match_rest(&mut self, subject: &Subject<'d>, has: &HasCache, caches: &mut SelectorCaches) {
        let mut ctx = MatchingContext::new(
            MatchingMode::Normal,
            None,
            caches,
            self.quirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        ctx.scope_element = self.scope.and_then(Element::of).map(|s| s.opaque());
        ctx.extra_data = Some(has);
        for w in 0..self.plan.words {
            let mut candidates = self.current[w];
            while candidates != 0 {
                let bit = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                let Some(compound) = &self.plan.compounds[w * 64 + bit] else {
                    continue;
                };
                if compound.simple.is_some() {
                    continue;
                }
                let result = matches_compound_selector_from(
                    &compound.selector,
                    compound.offset,
                    &mut ctx,
                    &subject.el,
                );
                if matches!(result, CompoundSelectorMatchingResult::NotMatched) {
                    self.current[w] &= !(1 << bit);
                }
            }
        }
    }

    /// After matching `node`: an element with children becomes an ancestor of what
    /// follows (when some selector has prefixes to pass down; else the stack stays
    /// empty).
    pub(crate) fn push(&mut self, node: NodeRef<'d>) {
        if self.plan.prefixes && node.is_element() && node.first_child().is_some() {
            self.stack.push(node);
            self.states.extend_from_slice(&self.current);
        }
    }
}
