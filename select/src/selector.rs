//! [`Selector`]: a selector list compiled once, matched top down, flat, or right to left.

use std::borrow::Cow;

use htmltok_tree::NodeRef;
use selectors::Element as _;
use selectors::SelectorList;
use selectors::bloom::BloomFilter;
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::parser::AncestorHashes;

use crate::css;
use crate::css::PseudoElement;
use crate::element::Element;
use crate::error::{self, SelectError};
use crate::flat;
use crate::memo::WalkMemo;
use crate::subject::{Subject, TypeName, quirks};
use crate::topdown;

/// A compiled selector list, with what it gives: elements, or with `::text` / `::attr()`
/// strings taken from them.
#[derive(Clone, Debug)]
pub struct Selector {
    pub(crate) list: SelectorList<css::Impl>,
    pub(crate) pseudo: Option<PseudoElement>,
    pub(crate) source: Box<str>,
    /// When every selector of the list names the element's type (`a[href]`, `h1::text`):
    /// those names, as written and lowercased, to reject other elements before
    /// `selectors` is asked (see [`subject_names`]).
    pub(crate) names: Option<Box<[TypeName]>>,
    /// Each selector's ancestor hashes for the Bloom filter (`ancestors.rs`), computed
    /// for no-quirks and for quirks mode (where ids and classes are left out); None when
    /// no selector has any (`a[href]`), so no filter need be kept.
    pub(crate) ancestor_hashes: Option<[Box<[AncestorHashes]>; 2]>,
    /// The top-down plan (`topdown.rs`): matched so, in time linear in the tree's size.
    /// None only should a compound holding a nested complex selector not be rebuilt
    /// (`topdown::Compound::with_nested`); then right to left, with the Bloom filter.
    pub(crate) plan: Option<Box<topdown::Plan>>,
    /// The flat form (`flat.rs`) when every selector is one compound of a type and
    /// conditions on the element (`a[href]`): matched without the top-down walk's state.
    pub(crate) flat: Option<Box<flat::Flat>>,
}

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
    pub(crate) fn matches_with(
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
    pub(crate) fn matches_subject(
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
    pub(crate) fn uses_ancestors(&self) -> bool {
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

impl std::str::FromStr for Selector {
    type Err = SelectError;

    fn from_str(css: &str) -> Result<Selector, SelectError> {
        Selector::parse(css)
    }
}
