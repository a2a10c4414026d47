//! Top-down matching: the selectors made of compounds joined by combinators (` `, `>`,
//! `+`, `~`), matched from the root down as the walk goes, a state per open element and
//! per level of siblings, as streaming XPath engines and lol-html do.
//!
//! `selectors` matches right to left: for each element it tests the subject compound,
//! then walks up the ancestors (and back along the earlier siblings) looking for the
//! rest. When the rest is found far away (`body div div` on nested `div`s: every `div`
//! matches and walks up to `body`) or is found only after many false starts (`div > span
//! div` under one `span`; `div ~ div div` on nested `div`s, every ancestor's siblings
//! looked at; `p ~ div` on sibling `div`s, all the earlier ones looked at), that is a walk
//! to the root or the first sibling per element: quadratic (20,000 nested `div`s took 7.5
//! s; `div + div div` 37 s).
//!
//! Here a selector `c0 ⊕1 c1 ⊕2 … ck` (compounds `ci`, combinators `⊕i`) is read left to
//! right. For each element `e` the walk keeps two sets of prefixes: `matched(e)`, the `i`
//! such that `c0 … ci` matches ending at `e`, and `reached(e)`, the union of `matched`
//! over `e` and its ancestors; and for each open element, two sets of its element
//! children so far: the last one's `matched` and the union of their `matched`. `e`
//! matches `ci` ending a prefix when it matches the compound `ci` and, for `i > 0`, the
//! prefix `i - 1` is in, by `⊕i`: `matched(parent)` (`>`), `reached(parent)` (` `),
//! `matched` of the previous element sibling (`+`), or the union of `matched` over the
//! earlier element siblings (`~`); these are all known when the walk reaches `e` in
//! document order (the siblings' sets are kept by the parent's entry). `e` matches the
//! selector when `k` is in `matched(e)`. Each compound is tested at most once per element,
//! and only when its prefix is satisfied, so a selector costs time linear in the size of
//! the tree times the number of compounds, whatever the shape. The compounds themselves
//! are matched by `selectors` (`matches_compound_selector_from`): every simple selector,
//! `:is()`, `:not()`, `:nth-child()` and the rest, with the same case rules as the
//! right-to-left path.
//!
//! The sets are bit masks, one bit per compound of every selector of the plan (a
//! selector list, or all the fields of a [`crate::Fields`]), 64 to a word; a selector's
//! compounds never straddle two words, so a prefix bit moves to the next compound's bit by
//! a shift. Compounds that name a type (`a`, `h1`) are offered only to elements of that
//! name (one lookup of the element's name per element for the whole plan).
//!
//! What is not done here (the selector keeps `selectors`' right-to-left path): `:has()`
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
    CompoundSelectorMatchingResult, matches_compound_selector_from,
    to_unconditional_case_sensitivity,
};
use selectors::parser::{Combinator, Component, Selector as Complex};
use selectors::{Element as _, SelectorList};

use crate::css::{Ident, Impl, PseudoClass};
use crate::element::Element;
use crate::memo::WalkMemo;
use crate::{Subject, TypeName};

/// How a compound is joined to the one before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Join {
    /// ` `: the prefix matched at an ancestor.
    Descendant,
    /// `>`: at the parent.
    Child,
    /// `+`: at the previous element sibling.
    NextSibling,
    /// `~`: at an earlier element sibling.
    LaterSibling,
}

/// One compound of a chain: where it starts in the selector (parse order), how it is
/// joined to the one before (for the first, anything), and the type it names, if any.
struct Link {
    offset: usize,
    join: Join,
    name: Option<TypeName>,
}

/// The compounds of `sel` left to right, when it is made only of compounds joined by
/// combinators (perhaps ending in a pseudo-element, which is left out: the element it is
/// taken from is the subject) and holds no `:has()` at its top level; None otherwise.
fn chain(sel: &Complex<Impl>) -> Option<Vec<Link>> {
    let mut links = Vec::new();
    let mut start = 0;
    let mut join = Join::Descendant;
    let mut name = None;
    for (i, c) in sel.iter_raw_parse_order_from(0).enumerate() {
        match c {
            Component::Combinator(comb) => {
                links.push(Link {
                    offset: start,
                    join,
                    name: name.take(),
                });
                join = match comb {
                    Combinator::Descendant => Join::Descendant,
                    Combinator::Child => Join::Child,
                    Combinator::NextSibling => Join::NextSibling,
                    Combinator::LaterSibling => Join::LaterSibling,
                    // The pseudo-element is the last thing of a selector.
                    Combinator::PseudoElement => return Some(links),
                    // `::slotted()` and `::part()`: not parsed here.
                    _ => return None,
                };
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
        join,
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
#[inline]
fn matches_simple(c: &Component<Impl>, subject: &Subject<'_>, quirks: QuirksMode) -> bool {
    let el = &subject.el;
    match c {
        Component::ID(id) => el.has_id(id, quirks.classes_and_ids_case_sensitivity()),
        Component::Class(class) => el.has_class(class, quirks.classes_and_ids_case_sensitivity()),
        Component::AttributeInNoNamespaceExists {
            local_name,
            local_name_lower,
        } => {
            // `select_name`: the lowercased name on HTML elements (the subject knows).
            let name = if subject.html {
                local_name_lower
            } else {
                local_name
            };
            el.has_attr_in_no_namespace(name)
        }
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
    /// Bits whose next bit is a compound joined by `>` / by ` ` / by `+` / by `~`.
    child: Mask,
    descendant: Mask,
    next_sibling: Mask,
    later_sibling: Mask,
    /// The last compound of each selector: an element matching it matches the selector.
    last: Mask,
    /// For HTML elements, by (lowercased) name: the compounds that may match an element of
    /// that name (those naming it, and those naming no type), sorted by name.
    html: Vec<(Box<str>, Mask)>,
    /// The same for SVG and MathML elements, by name as written.
    foreign: Vec<(Box<str>, Mask)>,
    /// The compounds naming no type: the candidates of an element named in no compound.
    any: Mask,
    /// For HTML elements of an interned name, by the name's id ([`Tag`] as a number),
    /// `words` words each: the compounds that may match (`html`'s entry, else `any`); ids
    /// past the end: `any`. One load for most elements (`div`, `span`, `p`); the string
    /// search is left for names the tree does not intern and for foreign elements.
    by_tag: Box<[u64]>,
    /// Whether `html` names a type the tree does not intern (`my-widget`): else an HTML
    /// element of an uninterned name can only be offered `any`, its name not looked up.
    html_uninterned: bool,
    /// Whether some selector has more than one compound: else no prefix sets need be
    /// kept from parent to child or sibling to sibling, and the walk keeps no stack.
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
        let (mut first, mut last, mut any) = (vec![], vec![], vec![]);
        let (mut child, mut descendant, mut next_sibling, mut later_sibling) =
            (vec![], vec![], vec![], vec![]);
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
                    } else {
                        let joins = match link.join {
                            Join::Child => &mut child,
                            Join::Descendant => &mut descendant,
                            Join::NextSibling => &mut next_sibling,
                            Join::LaterSibling => &mut later_sibling,
                        };
                        bits(joins, bit - 1);
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
        let mut by_tag: Vec<u64> = Vec::new();
        let mut html_uninterned = false;
        for (name, mask) in &html {
            let tag = Tag::from_name(name);
            if tag == Tag::Unknown {
                html_uninterned = true;
                continue;
            }
            let at = tag as usize * words;
            while by_tag.len() < at + words {
                by_tag.extend_from_slice(&any);
            }
            by_tag[at..at + words].copy_from_slice(mask);
        }
        let prefixes = [&child, &descendant, &next_sibling, &later_sibling]
            .iter()
            .any(|m| m.iter().any(|&w| w != 0));
        Some(Plan {
            by_tag: by_tag.into(),
            html_uninterned,
            prefixes,
            html,
            foreign: index(|(written, _)| written),
            words,
            compounds,
            owners,
            first: full(first),
            child: full(child),
            descendant: full(descendant),
            next_sibling: full(next_sibling),
            later_sibling: full(later_sibling),
            last: full(last),
            any,
        })
    }

    /// True when the plan has no selector.
    pub(crate) fn is_empty(&self) -> bool {
        self.words == 0
    }

    /// The compounds the element `subject` may match, by its name.
    #[inline]
    fn candidates(&self, subject: &Subject<'_>) -> &[u64] {
        if subject.html && subject.tag != Tag::Unknown {
            let at = subject.tag as usize * self.words;
            return self.by_tag.get(at..at + self.words).unwrap_or(&self.any);
        }
        self.candidates_by_name(subject)
    }

    /// [`Plan::candidates`] for an element whose name the tree does not intern, or a
    /// foreign one: its name looked up in `html` or `foreign` (when they may hold it).
    #[inline(never)]
    fn candidates_by_name(&self, subject: &Subject<'_>) -> &[u64] {
        let table = if subject.html {
            if !self.html_uninterned {
                return &self.any;
            }
            &self.html
        } else {
            if self.foreign.is_empty() {
                return &self.any;
            }
            &self.foreign
        };
        let name = subject.name();
        match table.binary_search_by(|(n, _)| (**n).cmp(name)) {
            Ok(i) => &table[i].1,
            Err(_) => &self.any,
        }
    }
}

/// A top-down walk's state: the open elements from the top (those with children; an
/// element is pushed after it is matched), for each its prefix sets and those of its
/// children so far (see [`Walk::step`]).
pub(crate) struct Walk<'p, 'd> {
    plan: &'p Plan,
    quirks: QuirksMode,
    scope: Option<NodeRef<'d>>,
    /// The level above the walk's top elements: no prefix sets of a parent, and the
    /// sibling sets of the top elements so far (laid out as an entry of `states`).
    base: Box<[u64]>,
    stack: Vec<NodeRef<'d>>,
    /// `4 * words` per entry of `stack`: the element's `matched` and `reached`, then of
    /// its element children so far, the last one's `matched` (for `+`) and the union of
    /// their `matched` (for `~`).
    states: Vec<u64>,
    /// The sets of the element just matched, `matched` then `reached`.
    current: Box<[u64]>,
}

impl<'p, 'd> Walk<'p, 'd> {
    /// For a walk of the descendants of `scope` (None: of the whole document), in a
    /// document of quirks mode `quirks`: the scope's own sets are found by matching down
    /// the path to it from the top, and at each level of the path the earlier siblings
    /// (for `+` and `~`), so the stack holds the path when the walk begins.
    pub(crate) fn new(
        plan: &'p Plan,
        quirks: QuirksMode,
        scope: Option<NodeRef<'d>>,
        memo: &WalkMemo,
        caches: &mut SelectorCaches,
    ) -> Walk<'p, 'd> {
        let words = plan.words;
        let mut walk = Walk {
            plan,
            quirks,
            scope,
            base: vec![0; 4 * words].into(),
            stack: Vec::new(),
            states: Vec::new(),
            current: vec![0; 2 * words].into(),
        };
        if !plan.prefixes {
            // Each compound is a whole selector: nothing above the scope counts.
            return walk;
        }
        let mut path = Vec::new();
        let mut node = scope.filter(|n| n.is_element());
        while let Some(n) = node {
            path.push(n);
            node = n.parent().filter(|p| p.is_element());
        }
        for n in path.into_iter().rev() {
            let mut sibling = n.parent().and_then(|p| p.first_child());
            while let Some(s) = sibling.filter(|&s| s != n) {
                if let Some(subject) = Subject::of(s) {
                    walk.step(&subject, memo, caches);
                }
                sibling = s.next_sibling();
            }
            if let Some(subject) = Subject::of(n) {
                walk.step(&subject, memo, caches);
                walk.enter(n);
            }
        }
        walk
    }

    /// Whether the element `subject` (the next element of a document-order walk) matches
    /// some selector of the plan; then [`Walk::push`]es it.
    #[inline]
    pub(crate) fn matches_any(
        &mut self,
        subject: &Subject<'d>,
        memo: &WalkMemo,
        caches: &mut SelectorCaches,
    ) -> bool {
        let mut matched = false;
        self.matches(subject, memo, caches, |_| matched = true);
        self.push(subject.el.0);
        matched
    }

    /// Matches the element `subject` (the next element of a document-order walk) against
    /// the plan's compounds whose prefixes its parent and earlier siblings allow; then,
    /// for each bit of the plan's `last` it matched (the selectors it matches), calls
    /// `hit` with the bit's owner, in bit order.
    #[inline]
    pub(crate) fn matches(
        &mut self,
        subject: &Subject<'d>,
        memo: &WalkMemo,
        caches: &mut SelectorCaches,
        mut hit: impl FnMut(usize),
    ) {
        if self.plan.prefixes {
            self.step(subject, memo, caches);
        } else {
            // Each compound is a whole selector (its first and its last): the candidates
            // are those of the element's name, and no sets are read or kept. Most
            // elements are candidates for none.
            let names = self.plan.candidates(subject);
            if names.iter().all(|&w| w == 0) {
                return;
            }
            self.current[..names.len()].copy_from_slice(names);
            self.match_candidates(subject, memo, caches);
        }
        for w in 0..self.plan.words {
            let mut hits = self.current[w] & self.plan.last[w];
            while hits != 0 {
                let bit = w * 64 + hits.trailing_zeros() as usize;
                hits &= hits - 1;
                hit(self.plan.owners[bit]);
            }
        }
    }

    /// Sets `current` to `subject`'s prefix sets: a compound is a candidate when its
    /// prefix is in the parent's `matched` (`>`), the parent's `reached` (` `), the
    /// previous element sibling's `matched` (`+`) or the union of the earlier element
    /// siblings' `matched` (`~`). Then records `subject` as the last child of its level.
    /// For plans with prefixes (see [`Walk::matches`] for the others).
    #[inline]
    fn step(&mut self, subject: &Subject<'d>, memo: &WalkMemo, caches: &mut SelectorCaches) {
        let plan = self.plan;
        let words = plan.words;
        let node = subject.el.0;
        let parent = node.parent();
        // Leave on the stack only the element's ancestors.
        while let Some(&top) = self.stack.last() {
            if Some(top) == parent {
                break;
            }
            self.stack.pop();
            self.states.truncate(self.states.len() - 4 * words);
        }
        let on_stack = !self.stack.is_empty();
        let level: &[u64] = if on_stack {
            &self.states[self.states.len() - 4 * words..]
        } else {
            &self.base
        };
        let (matched_above, rest) = level.split_at(words);
        let (reached_above, rest) = rest.split_at(words);
        let (previous, earlier) = rest.split_at(words);
        let names = plan.candidates(subject);
        let mut any = 0;
        for w in 0..words {
            let prefixes = matched_above[w] & plan.child[w]
                | reached_above[w] & plan.descendant[w]
                | previous[w] & plan.next_sibling[w]
                | earlier[w] & plan.later_sibling[w];
            let candidates = (plan.first[w] | prefixes << 1) & names[w];
            self.current[w] = candidates;
            self.current[words + w] = reached_above[w];
            any |= candidates;
        }
        if any != 0 {
            self.match_candidates(subject, memo, caches);
        }
        for w in 0..words {
            self.current[words + w] |= self.current[w];
        }
        let level: &mut [u64] = if on_stack {
            let len = self.states.len();
            &mut self.states[len - 4 * words..]
        } else {
            &mut self.base
        };
        let (previous, earlier) = level[2 * words..].split_at_mut(words);
        for w in 0..words {
            previous[w] = self.current[w];
            earlier[w] |= self.current[w];
        }
    }

    /// Keeps in `current`'s `matched` the candidates `subject` matches: the compounds of
    /// simple selectors first, without a matching context, then the rest.
    #[inline]
    fn match_candidates(
        &mut self,
        subject: &Subject<'d>,
        memo: &WalkMemo,
        caches: &mut SelectorCaches,
    ) {
        // `rest`: whether some candidate is left to `selectors` (a flag, not a mask: the
        // bits go up to 63; an inferred `i32` mask overflowed, found by the fuzz target).
        let mut rest = false;
        for w in 0..self.plan.words {
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
                            .all(|c| matches_simple(c, subject, self.quirks))
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
            self.match_rest(subject, memo, caches);
        }
    }

    /// The candidates left in `current` that [`matches_simple`] does not answer: matched
    /// by `selectors`, with one matching context for the element.
    fn match_rest(&mut self, subject: &Subject<'d>, memo: &WalkMemo, caches: &mut SelectorCaches) {
        let mut ctx = MatchingContext::new(
            MatchingMode::Normal,
            None,
            caches,
            self.quirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        ctx.scope_element = self.scope.and_then(Element::of).map(|s| s.opaque());
        ctx.extra_data = Some(memo);
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
    #[inline]
    pub(crate) fn push(&mut self, node: NodeRef<'d>) {
        if self.plan.prefixes && node.is_element() && node.first_child().is_some() {
            self.enter(node);
        }
    }

    /// Pushes `node`, just matched, with no children seen yet.
    fn enter(&mut self, node: NodeRef<'d>) {
        self.stack.push(node);
        self.states.extend_from_slice(&self.current);
        let words = self.plan.words;
        self.states.extend(std::iter::repeat_n(0, 2 * words));
    }
}
