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
//! to the root or the first sibling per element: quadratic.
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
//! selector list, or all the fields of a [`crate::Fields`]), 64 to a word; a prefix bit
//! moves to the next compound's bit by a shift, carried into the next word when a
//! selector straddles two (so selectors of any number of compounds are planned). Compounds
//! that name a type (`a`, `h1`) are offered only to elements of that name (one lookup of
//! the element's name per element for the whole plan).
//!
//! A complex selector nested in `:is()`, `:where()` or `:not()` (`span:not(div span)`,
//! `:is(ul li) a`) `selectors` would match by walking up from the element, outside the
//! walk's state: a walk to the root per element. So each selector of such a list becomes
//! an auxiliary entry of the plan (recursively, for the lists nested in it), laid out on
//! the bits before the compound that holds the pseudo-class; the walk matches it like any
//! other, and when the compound is tried at an element the entries' last bits there are
//! final and say whether the element matches them ([`Nested`]: `:is`/`:where` any of
//! them, `:not` none). The compound's other simple selectors are matched as the others
//! are. `:has()` at the top level (`div p:has(b)`) is matched by `selectors` with the
//! walk's `:has` cache (`has.rs`): answered for the whole tree at once, linear too.
//!
//! The compounds of a `:has()` argument that hold such a selector (`:has(p:not(div p))`)
//! are matched for the whole tree by one walk of a plan of their own
//! ([`compound_for_tree`]), for `has.rs`' passes. Not linear yet: a complex selector in
//! `:nth-child(… of S)`, and one in a `:has()` compound that mentions `:scope`;
//! `selectors` walks up for those.

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

use crate::css::{Ident, Impl};
use crate::element::Element;
use crate::memo::WalkMemo;
use crate::subject::{Subject, TypeName};

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
/// taken from is the subject); None otherwise (`::slotted()`, `::part()`).
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
/// selectors when they are all of the kinds [`matches_simple`] answers; and the
/// pseudo-classes of it that the plan answers from its own bits ([`Nested`]), which the
/// selector then leaves out.
#[derive(Clone, Debug)]
struct Compound {
    selector: Complex<Impl>,
    offset: usize,
    simple: Option<Box<[Component<Impl>]>>,
    nested: Box<[Nested]>,
}

/// `:is()` / `:where()` (some selector of the list matches the element) or `:not()` (none
/// does) whose list holds a complex selector (`:not(div p)`). `selectors` would match it
/// by walking up from the element (and back along its siblings), outside the walk's
/// state: a walk to the root per element on a deep tree. So each selector of the list is
/// an auxiliary entry of the plan, laid out before the compounds that ask it, and matched
/// by the same walk: the bit of its last compound says, when the walk reaches an element,
/// whether the element matches it.
#[derive(Clone, Debug)]
struct Nested {
    negated: bool,
    /// The bits of the last compounds of the list's selectors.
    lasts: Box<[usize]>,
}

impl Nested {
    /// Whether the element whose `matched` set is `matched` (its bits below those of the
    /// compound asking already final) matches the pseudo-class.
    #[inline]
    fn holds(&self, matched: &[u64]) -> bool {
        let any = self
            .lasts
            .iter()
            .any(|&bit| matched[bit / 64] >> (bit % 64) & 1 == 1);
        any != self.negated
    }
}

/// Whether some selector of `list` has a combinator, or such a list nested in `:is()`,
/// `:where()` or `:not()` (not in `:has()`, which `has.rs` answers for the whole tree,
/// nor in `:nth-child(… of S)`).
fn is_complex(list: &SelectorList<Impl>) -> bool {
    list.slice().iter().any(|sel| {
        sel.iter_raw_parse_order_from(0).any(|c| match c {
            Component::Combinator(_) => true,
            Component::Is(l) | Component::Where(l) | Component::Negation(l) => is_complex(l),
            _ => false,
        })
    })
}

/// Whether `c` is one of the simple selectors [`matches_simple`] answers (also the
/// conditions a flat selector may hold, `flat.rs`).
pub(crate) fn is_simple(c: &Component<Impl>) -> bool {
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
            .all(is_simple)
            .then(|| parts.into_boxed_slice());
        Compound {
            selector: selector.clone(),
            offset,
            simple,
            nested: Box::new([]),
        }
    }

    /// The compound made of `rest` (the compound's components as
    /// `iter_raw_parse_order_from` gives them, those answered by `nested` left out) and
    /// `nested`. `selectors` cannot be told the answer of a nested selector, nor can a
    /// selector be built from components, so when `rest` holds more than
    /// [`matches_simple`] answers it is written out and parsed again as a selector of its
    /// own; None (the selector is then left to `selectors`) should that not give back the
    /// same components.
    fn with_nested(
        selector: &Complex<Impl>,
        offset: usize,
        rest: &[&Component<Impl>],
        nested: Vec<Nested>,
    ) -> Option<Compound> {
        let nested = nested.into_boxed_slice();
        // The type is checked by the plan's name index, as in `Compound::new`.
        let parts = || {
            rest.iter()
                .copied()
                .filter(|c| !matches!(c, Component::LocalName(_)))
        };
        if parts().all(is_simple) {
            return Some(Compound {
                selector: selector.clone(),
                offset,
                simple: Some(parts().cloned().collect()),
                nested,
            });
        }
        // A compound's components are stored (and iterated here) last first.
        let mut css = String::new();
        for c in rest.iter().rev() {
            cssparser::ToCss::to_css(*c, &mut css).ok()?;
        }
        let mut input = cssparser::ParserInput::new(&css);
        let mut parser = cssparser::Parser::new(&mut input);
        let list = parser
            .parse_entirely(|p| {
                SelectorList::parse(
                    &crate::css::Parser::default(),
                    p,
                    selectors::parser::ParseRelative::No,
                )
            })
            .ok()?;
        let [again] = list.slice() else {
            return None;
        };
        if !again.iter_raw_parse_order_from(0).eq(rest.iter().copied()) {
            return None;
        }
        Some(Compound {
            selector: again.clone(),
            offset: 0,
            simple: None,
            nested,
        })
    }

    /// Whether the compound is answered by [`matches_simple`] alone.
    #[inline]
    fn is_plain_simple(&self) -> bool {
        self.simple.is_some() && self.nested.is_empty()
    }
}

/// Whether `el` matches the simple selector `c` (one of those [`Compound::new`] keeps),
/// through the same `Element` methods and with the same arguments as `selectors`'
/// `matches_simple_selector` uses: the same answer without a matching context, for the
/// compounds most selectors are made of (`a[href]`, `meta[name=robots]`, `.x`).
#[inline]
pub(crate) fn matches_simple(
    c: &Component<Impl>,
    subject: &Subject<'_>,
    quirks: QuirksMode,
) -> bool {
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

/// A plan being laid out, bit by bit (the fields of [`Plan`] of the same names, as
/// growing vectors).
#[derive(Default)]
struct Layout {
    compounds: Vec<Compound>,
    owners: Vec<usize>,
    named: Vec<(usize, TypeName)>,
    first: Vec<u64>,
    last: Vec<u64>,
    any: Vec<u64>,
    child: Vec<u64>,
    descendant: Vec<u64>,
    next_sibling: Vec<u64>,
    later_sibling: Vec<u64>,
}

/// Sets `bit` in the growing mask `v`.
fn set_bit(v: &mut Vec<u64>, bit: usize) {
    v.resize(v.len().max(bit / 64 + 1), 0);
    v[bit / 64] |= 1 << (bit % 64);
}

impl Layout {
    /// Lays out the compounds of `sel` on consecutive bits, after the auxiliary entries
    /// of the complex selectors nested in them (recursively: each entry after those it
    /// asks), so that a compound's [`Nested`] bits come before its own and are final
    /// when it is matched. `owner`: the owner of a selector of the plan, None for an
    /// auxiliary entry. Returns the bit of the last compound, or None when `sel` cannot
    /// be matched top down.
    fn add(&mut self, sel: &Complex<Impl>, owner: Option<usize>) -> Option<usize> {
        let links = chain(sel)?;
        self.add_links(sel, &links, owner)
    }

    /// Lays out the compound of `sel` at `offset` alone, as a selector of owner 0 (see
    /// [`compound_for_tree`]).
    fn add_compound(&mut self, sel: &Complex<Impl>, offset: usize) -> Option<usize> {
        let name = sel
            .iter_raw_parse_order_from(offset)
            .take_while(|c| !matches!(c, Component::Combinator(_)))
            .find_map(|c| match c {
                Component::LocalName(n) => {
                    Some((n.name.as_str().into(), n.lower_name.as_str().into()))
                }
                _ => None,
            });
        let link = Link {
            offset,
            join: Join::Descendant,
            name,
        };
        self.add_links(sel, &[link], Some(0))
    }

    /// [`Layout::add`] of the compounds `links` of `sel`.
    fn add_links(
        &mut self,
        sel: &Complex<Impl>,
        links: &[Link],
        owner: Option<usize>,
    ) -> Option<usize> {
        let mut compounds = Vec::with_capacity(links.len());
        for link in links {
            let mut rest = Vec::new();
            let mut nested = Vec::new();
            for c in sel
                .iter_raw_parse_order_from(link.offset)
                .take_while(|c| !matches!(c, Component::Combinator(_)))
            {
                match c {
                    Component::Is(list) | Component::Where(list) | Component::Negation(list)
                        if is_complex(list) =>
                    {
                        let lasts = list
                            .slice()
                            .iter()
                            .map(|s| self.add(s, None))
                            .collect::<Option<Box<[usize]>>>()?;
                        nested.push(Nested {
                            negated: matches!(c, Component::Negation(_)),
                            lasts,
                        });
                    }
                    _ => rest.push(c),
                }
            }
            compounds.push(if nested.is_empty() {
                Compound::new(sel, link.offset)
            } else {
                Compound::with_nested(sel, link.offset, &rest, nested)?
            });
        }
        let start = self.compounds.len();
        for (j, (link, compound)) in links.iter().zip(compounds).enumerate() {
            let bit = start + j;
            if j == 0 {
                set_bit(&mut self.first, bit);
            } else {
                let joins = match link.join {
                    Join::Child => &mut self.child,
                    Join::Descendant => &mut self.descendant,
                    Join::NextSibling => &mut self.next_sibling,
                    Join::LaterSibling => &mut self.later_sibling,
                };
                set_bit(joins, bit - 1);
            }
            match &link.name {
                Some(name) => self.named.push((bit, name.clone())),
                None => set_bit(&mut self.any, bit),
            }
            self.compounds.push(compound);
            self.owners.push(owner.unwrap_or(usize::MAX));
        }
        let end = self.compounds.len() - 1;
        if owner.is_some() {
            set_bit(&mut self.last, end);
        }
        Some(end)
    }
}

/// Bit masks over a plan's compounds, a word per 64.
type Mask = Box<[u64]>;

/// The compounds of some selector lists, each list with an owner (a field's index; 0 for
/// a lone selector), laid out as bits (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    words: usize,
    /// By bit: the compound.
    compounds: Vec<Compound>,
    /// By bit: the owner of the selector the compound belongs to (`usize::MAX` for the
    /// auxiliary entries of [`Nested`] pseudo-classes, which match for no owner).
    owners: Vec<usize>,
    /// The first compound of each selector: always a candidate.
    first: Mask,
    /// Bits whose next bit is a compound joined by `>` / by ` ` / by `+` / by `~`.
    child: Mask,
    descendant: Mask,
    next_sibling: Mask,
    later_sibling: Mask,
    /// The last compound of each selector (not of the auxiliary entries): an element
    /// matching it matches the selector.
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
        let mut layout = Layout::default();
        for (owner, list) in lists {
            for sel in list.slice() {
                layout.add(sel, Some(owner))?;
            }
        }
        Some(Plan::of(layout))
    }

    /// The plan laid out in `layout`.
    fn of(layout: Layout) -> Plan {
        let Layout {
            compounds,
            owners,
            named,
            first,
            last,
            any,
            child,
            descendant,
            next_sibling,
            later_sibling,
        } = layout;
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
        Plan {
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
        }
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

    /// Whether the element `subject` (the next element of a document-order walk) can be
    /// passed by without [`Walk::matches`] and [`Walk::push`]: in a plan without prefix
    /// sets (`a[href]`, the ten fields), an HTML element of an interned name that is a
    /// candidate for no compound (most elements: `div`, `span`, `p`). Checked in line by
    /// `select`'s iterator, so that those elements cost a table load and no call.
    /// `Fields`' loop has `matches` in line already, where the check would only add
    /// cost.
    #[inline(always)]
    pub(crate) fn passes_by(&self, subject: &Subject<'d>) -> bool {
        let plan = self.plan;
        !plan.prefixes
            && subject.html
            && subject.tag != Tag::Unknown
            && plan.candidates(subject).iter().all(|&w| w == 0)
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
        // A selector's compounds may straddle two words: a prefix at bit 63 allows bit 0
        // of the next word.
        let mut carry = 0;
        for w in 0..words {
            let prefixes = matched_above[w] & plan.child[w]
                | reached_above[w] & plan.descendant[w]
                | previous[w] & plan.next_sibling[w]
                | earlier[w] & plan.later_sibling[w];
            let candidates = (plan.first[w] | prefixes << 1 | carry) & names[w];
            carry = prefixes >> 63;
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
                let compound = &self.plan.compounds[w * 64 + bit];
                match &compound.simple {
                    Some(parts) if compound.nested.is_empty() => {
                        if parts
                            .iter()
                            .all(|c| matches_simple(c, subject, self.quirks))
                        {
                            matched |= 1 << bit;
                        }
                    }
                    _ => {
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
                let compound = &self.plan.compounds[w * 64 + bit];
                if compound.is_plain_simple() {
                    continue;
                }
                // The nested entries' bits are below this one: final by now.
                let matched = compound.nested.iter().all(|n| n.holds(&self.current))
                    && match &compound.simple {
                        Some(parts) => parts
                            .iter()
                            .all(|c| matches_simple(c, subject, self.quirks)),
                        None => !matches!(
                            matches_compound_selector_from(
                                &compound.selector,
                                compound.offset,
                                &mut ctx,
                                &subject.el,
                            ),
                            CompoundSelectorMatchingResult::NotMatched
                        ),
                    };
                if !matched {
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

/// Whether some component of `list`, nested in `:is()`, `:where()` or `:not()` at any
/// depth, is `:scope`.
fn mentions_scope(list: &SelectorList<Impl>) -> bool {
    list.slice().iter().any(|sel| {
        sel.iter_raw_parse_order_from(0).any(|c| match c {
            Component::Scope | Component::ImplicitScope => true,
            Component::Is(l) | Component::Where(l) | Component::Negation(l) => mentions_scope(l),
            _ => false,
        })
    })
}

/// For every node of the tree under `root` (by node id), whether it is an element that
/// matches the compound of `sel` at `offset`, when that compound holds a complex selector
/// nested in `:is()` / `:where()` / `:not()`: one top-down walk of the tree with the
/// compound's plan (its nested selectors as auxiliary entries), instead of `selectors`
/// walking up from each element. For `has.rs`' passes, which match a relative selector's
/// compounds on every element. None when the compound holds no such selector (matching
/// it is then no walk up), or mentions `:scope` (which inside `:has()` is the outer
/// selector's scope, not this walk's), or cannot be planned.
pub(crate) fn compound_for_tree(
    sel: &Complex<Impl>,
    offset: usize,
    root: NodeRef<'_>,
) -> Option<Vec<bool>> {
    let compound = || {
        sel.iter_raw_parse_order_from(offset)
            .take_while(|c| !matches!(c, Component::Combinator(_)))
    };
    let lists = || {
        compound().filter_map(|c| match c {
            Component::Is(l) | Component::Where(l) | Component::Negation(l) => Some(l),
            _ => None,
        })
    };
    if !lists().any(is_complex)
        || lists().any(mentions_scope)
        || compound().any(|c| matches!(c, Component::Scope | Component::ImplicitScope))
    {
        return None;
    }
    let mut layout = Layout::default();
    layout.add_compound(sel, offset)?;
    let plan = Plan::of(layout);
    let memo = WalkMemo::default();
    let mut caches = SelectorCaches::default();
    let quirks = crate::subject::quirks(root.document());
    let mut walk = Walk::new(&plan, quirks, None, &memo, &mut caches);
    let mut answers = vec![false; root.document().node_count()];
    for node in root.descendants() {
        if let Some(subject) = Subject::of(node) {
            answers[node.id() as usize] = walk.matches_any(&subject, &memo, &mut caches);
        }
    }
    Some(answers)
}
