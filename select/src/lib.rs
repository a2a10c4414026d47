//! CSS selectors over [`htmltok_tree`]'s DOM, and field extraction in one walk.
//!
//! ```
//! use htmltok_select::{Select, Selector};
//!
//! let doc = htmltok_tree::parse(b"<ul><li><a href=/a>A</a><li><a>B</a></ul>");
//! let links = Selector::parse("li > a[href]").unwrap(); // compile once, reuse
//! let found: Vec<_> = doc.select(&links).map(|a| a.attr("href").unwrap()).collect();
//! assert_eq!(found, ["/a"]);
//! ```
//!
//! - [`Selector::parse`] compiles a selector list once (an error says where it fails and
//!   what was expected; nothing panics) to match any number of documents.
//! - [`Select`] (implemented for every [`DocumentView`] by reference and for [`NodeRef`]): `select` iterates the
//!   matching elements in document order, `select_first` gives the first.
//! - [`Fields`]: named selectors with parsel's `::text` and `::attr(name)`
//!   pseudo-elements, compiled once, all matched in one walk of a document, giving one
//!   column of strings per field.
//!
//! Matching is Servo's `selectors` crate (what scraper and Firefox's Stylo use): Selectors
//! Level 3 in full, and of Level 4 `:is`, `:where`, `:not` and `:nth-child(An+B of S)`
//! with selector lists, `:has`, and the `i` / `s` attribute flags. The case rules are an
//! HTML document's: see the `selectors_element` module. Nothing recurses per level of the
//! tree (`:has` is matched with loops, see the `has` module); the selector itself may nest
//! [`MAX_NESTING`] levels of brackets. Selectors (`body div p`, `ul > li a[href]`, `h2 +
//! p`, `a ~ b > c`, `span:not(div span)`, `div p:has(b)`) are matched top down as the
//! walk goes, a state per open element and per level of siblings, in time linear in the
//! tree's size whatever its depth or width (the `topdown` module); `Selector::matches` on
//! one element right to left by `selectors`.

mod ancestors;
mod css;
mod element;
mod error;
mod fields;
mod flat;
mod has;
mod memo;
mod scan;
mod selectors_element;
mod topdown;

use std::borrow::Cow;

use htmltok_tree::{DocumentRef, DocumentView, NodeRef};
use selectors::Element as _;
use selectors::SelectorList;
use selectors::bloom::BloomFilter;
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::parser::AncestorHashes;

use ancestors::Ancestors;
pub use css::PseudoElement;
pub use element::Element;
pub use error::{MAX_NESTING, SelectError};
pub use fields::{Field, Fields};
use memo::WalkMemo;

/// A compiled selector list, with what it gives: elements, or with `::text` / `::attr()`
/// strings taken from them.
#[derive(Clone, Debug)]
pub struct Selector {
    list: SelectorList<css::Impl>,
    pseudo: Option<PseudoElement>,
    source: Box<str>,
    /// When every selector of the list names the element's type (`a[href]`, `h1::text`):
    /// those names, as written and lowercased, to reject other elements before
    /// `selectors` is asked (see [`subject_names`]).
    names: Option<Box<[TypeName]>>,
    /// Each selector's ancestor hashes for the Bloom filter (`ancestors.rs`), computed
    /// for no-quirks and for quirks mode (where ids and classes are left out); None when
    /// no selector has any (`a[href]`), so no filter need be kept.
    ancestor_hashes: Option<[Box<[AncestorHashes]>; 2]>,
    /// The top-down plan (`topdown.rs`): matched so, in time linear in the tree's size.
    /// None only should a compound holding a nested complex selector not be rebuilt
    /// (`topdown::Compound::with_nested`); then right to left, with the Bloom filter.
    plan: Option<Box<topdown::Plan>>,
    /// The flat form (`flat.rs`) when every selector is one compound of a type and
    /// conditions on the element (`a[href]`): matched without the top-down walk's state.
    flat: Option<Box<flat::Flat>>,
}

/// A type selector's name as written and lowercased.
type TypeName = (Box<str>, Box<str>);

/// The type selectors of the subjects of `list` (`a` in `div > a[href]`, in
/// `a::attr(href)`), as written and lowercased; None when some selector of the list has
/// none (`.x`, `:is(a, b)`), so any element may match. Matching then starts with a string
/// comparison instead of a call into `selectors` for every element and field, which
/// would be much of the ten-field extraction's cost (see PERFORMANCE.md, "Selectors").
fn subject_names(list: &SelectorList<css::Impl>) -> Option<Box<[TypeName]>> {
    use selectors::parser::{Combinator, Component};
    let mut names = Vec::new();
    for sel in list.slice() {
        let mut comps = sel.iter_raw_match_order().peekable();
        // A pseudo-element comes first in match order, then its combinator.
        if let Some(Component::PseudoElement(_)) = comps.peek() {
            comps.next();
            if let Some(Component::Combinator(Combinator::PseudoElement)) = comps.peek() {
                comps.next();
            }
        }
        let name = comps
            .take_while(|c| !matches!(c, Component::Combinator(_)))
            .find_map(|c| match c {
                Component::LocalName(n) => {
                    Some((n.name.as_str().into(), n.lower_name.as_str().into()))
                }
                _ => None,
            })?;
        names.push(name);
    }
    Some(names.into())
}

impl Selector {
    /// Compiles a selector list (`a[href], link[rel~=canonical i]`). Every selector of the
    /// list ends in the same pseudo-element, or none.
    pub fn parse(css: &str) -> Result<Selector, SelectError> {
        error::check_nesting(css)?;
        let mut input = cssparser::ParserInput::new(css);
        let mut parser = cssparser::Parser::new(&mut input);
        let list = parser
            .parse_entirely(|p| {
                SelectorList::parse(
                    &css::Parser::default(),
                    p,
                    selectors::parser::ParseRelative::No,
                )
            })
            .map_err(|e| SelectError::from_parse(css, e))?;
        error::check_pseudo_element_last(css, &list)?;
        let mut pseudos = list.slice().iter().map(|s| s.pseudo_element().cloned());
        let pseudo = pseudos.next().flatten();
        if pseudos.any(|p| p != pseudo) {
            return Err(SelectError::new(
                css,
                0,
                "every selector of a list must end in the same pseudo-element (::text, \
                 ::attr(name)) or none",
            ));
        }
        let hashes = |mode| {
            list.slice()
                .iter()
                .map(|s| AncestorHashes::new(s, mode))
                .collect::<Box<[_]>>()
        };
        let no_quirks = hashes(QuirksMode::NoQuirks);
        let ancestor_hashes = no_quirks
            .iter()
            .any(|h| h.packed_hashes[0] != 0)
            .then(|| [no_quirks, hashes(QuirksMode::Quirks)]);
        Ok(Selector {
            names: subject_names(&list),
            plan: topdown::Plan::new([(0, &list)]).map(Box::new),
            flat: flat::Flat::new([(0, &list, pseudo.as_ref())]).map(Box::new),
            ancestor_hashes,
            list,
            pseudo,
            source: css.into(),
        })
    }

    /// The selector as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The pseudo-element every selector of the list ends in, if any.
    pub fn pseudo_element(&self) -> Option<&PseudoElement> {
        self.pseudo.as_ref()
    }

    /// Whether `node` is an element that matches (for a selector ending in `::text` or
    /// `::attr()`: the element the strings are taken from).
    pub fn matches(&self, node: NodeRef<'_>) -> bool {
        let mut caches = SelectorCaches::default();
        self.matches_with(node, None, &mut caches)
    }

    /// [`Selector::matches`] with a scoping element (`:scope`) and caches to share.
    fn matches_with(
        &self,
        node: NodeRef<'_>,
        scope: Option<NodeRef<'_>>,
        caches: &mut SelectorCaches,
    ) -> bool {
        match Subject::of(node) {
            Some(subject) => self.matches_subject(&subject, scope, None, None, caches),
            None => false,
        }
    }

    /// Whether the element `subject` matches: first its name against the subjects'
    /// type selectors, then `selectors`, with `ancestors` (a Bloom filter of the
    /// subject's ancestors' names) to reject early when given.
    fn matches_subject(
        &self,
        subject: &Subject<'_>,
        scope: Option<NodeRef<'_>>,
        ancestors: Option<&BloomFilter>,
        memo: Option<&WalkMemo>,
        caches: &mut SelectorCaches,
    ) -> bool {
        if let Some(names) = &self.names {
            // As `selectors` compares type selectors: lowercased for HTML elements.
            let name = subject.name();
            if !names
                .iter()
                .any(|(n, lower)| name == if subject.html { &**lower } else { &**n })
            {
                return false;
            }
        }
        let mode = if self.pseudo.is_some() {
            // `a::text` matches `a`, the pseudo-element consumed by the matching mode.
            MatchingMode::ForStatelessPseudoElement
        } else {
            MatchingMode::Normal
        };
        let quirks = quirks(subject.el.0.document());
        let (filter, hashes) = match (&self.ancestor_hashes, ancestors) {
            (Some(hashes), Some(filter)) => {
                let i = usize::from(quirks == QuirksMode::Quirks);
                (Some(filter), Some(&hashes[i]))
            }
            _ => (None, None),
        };
        let mut ctx = MatchingContext::new(
            mode,
            filter,
            caches,
            quirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        ctx.scope_element = scope.and_then(Element::of).map(|s| s.opaque());
        ctx.extra_data = memo;
        self.list.slice().iter().enumerate().any(|(i, s)| {
            let hashes = hashes.map(|h| &h[i]);
            selectors::matching::matches_selector(s, 0, hashes, &subject.el, &mut ctx)
        })
    }

    /// Whether matching gains from an ancestor filter (some selector tests ancestors).
    fn uses_ancestors(&self) -> bool {
        self.ancestor_hashes.is_some()
    }

    /// The strings the selector gives for a matching element, in order: with `::text`, the
    /// element's own text-node children (not its descendants'), one string each, as
    /// decoded, whitespace kept; with `::attr(name)`, the attribute's value if the
    /// element has it (`name` ASCII-lowercased on HTML elements); with no pseudo-element,
    /// the element's outer HTML (what parsel's `getall()` gives for an element).
    pub fn values<'d>(&self, node: NodeRef<'d>, mut out: impl FnMut(Cow<'d, str>)) {
        match &self.pseudo {
            Some(PseudoElement::Text) => {
                for child in node.children() {
                    if child.kind() == htmltok_tree::NodeKind::Text {
                        out(child.text());
                    }
                }
            }
            Some(PseudoElement::Attr(name)) => {
                // An HTML element's attribute names are lowercase (the tokenizer lowers
                // them), so comparing ASCII case-insensitively is comparing with the
                // name lowercased; the tree's lookup compares names as bytes.
                let html = node.namespace() == Some(htmltok_tree::Ns::Html);
                let key = if html && name.bytes().any(|b| b.is_ascii_uppercase()) {
                    Cow::Owned(name.to_ascii_lowercase())
                } else {
                    Cow::Borrowed(&**name)
                };
                if let Some(value) = Element(node).attr(&key) {
                    out(value);
                }
            }
            None => out(Cow::Owned(node.outer_html())),
        }
    }
}

/// An element about to be matched against several selectors, its interned name read
/// once. The name as a string is looked up only when asked ([`Subject::name`]): the
/// top-down plan needs it only for names the tree does not intern and foreign elements.
struct Subject<'d> {
    el: Element<'d>,
    html: bool,
    /// The interned name: [`htmltok_tree::Tag::Unknown`] for names the tree does not
    /// intern.
    tag: htmltok_tree::Tag,
}

impl<'d> Subject<'d> {
    #[inline]
    fn of(node: NodeRef<'d>) -> Option<Subject<'d>> {
        Some(Subject::named(node, node.element_name()?))
    }

    /// The element `node`, whose name (read already) is `name`.
    #[inline]
    fn named(node: NodeRef<'d>, name: htmltok_tree::Name) -> Subject<'d> {
        Subject {
            el: Element(node),
            html: name.ns == htmltok_tree::Ns::Html,
            tag: name.tag,
        }
    }

    /// The local name (`div`, `foreignObject`, `my-widget`).
    fn name(&self) -> &'d str {
        // An HTML element's name is lowercase: an interned one is its tag's name,
        // without looking the name up in the document.
        if self.html && self.tag != htmltok_tree::Tag::Unknown {
            self.tag.as_str()
        } else {
            self.el.0.name().unwrap_or_default()
        }
    }
}

impl std::str::FromStr for Selector {
    type Err = SelectError;

    fn from_str(css: &str) -> Result<Selector, SelectError> {
        Selector::parse(css)
    }
}

/// `selectors`' name for the document's quirks mode.
fn quirks(doc: DocumentRef<'_>) -> QuirksMode {
    match doc.quirks_mode() {
        htmltok_tree::QuirksMode::NoQuirks => QuirksMode::NoQuirks,
        htmltok_tree::QuirksMode::LimitedQuirks => QuirksMode::LimitedQuirks,
        htmltok_tree::QuirksMode::Quirks => QuirksMode::Quirks,
    }
}

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
    fn new(
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

#[cfg(test)]
mod tests;
