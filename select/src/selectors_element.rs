//! [`selectors::Element`] for the tree's elements ([`Element`], in `element.rs`), and the
//! pseudo-classes this crate matches itself: `:has()` (in `has.rs`), `:lang()`,
//! `:enabled` / `:disabled` (their inherited parts through the walk's memo, `memo.rs`),
//! `:checked`, `:link`.
//!
//! The case rules are the DOM's for an HTML document (Selectors 4 § 6.1, HTML § 4.16):
//! `selectors` lowercases type selectors and attribute names when
//! [`Element::is_html_element_in_html_document`] says so (every HTML element: the tree
//! only builds HTML documents), and compares them as the selector wrote them on SVG and
//! MathML elements, whose names the tree keeps in their adjusted case (`foreignObject`,
//! `viewBox`). Class and id compare ASCII case-insensitively in quirks mode, as
//! `selectors` asks through its matching context.

use htmltok_tree::{AttrNs, NodeKind, Ns, Tag};
use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::matching::{ElementSelectorFlags, MatchingContext};
use selectors::{Element as _, OpaqueElement};

use crate::css::{AttrValue, Ident, Impl, PseudoClass, PseudoElement, ns};
use crate::element::Element;
use crate::memo::{self, WalkMemo};

/// The URL of an element namespace.
fn ns_url(ns: Ns) -> &'static str {
    match ns {
        Ns::Html => ns::HTML,
        Ns::Svg => ns::SVG,
        Ns::MathMl => ns::MATHML,
    }
}

/// The URL of an attribute namespace ("" for none, as `selectors` writes it).
fn attr_ns_url(ns: AttrNs) -> &'static str {
    match ns {
        AttrNs::None => "",
        AttrNs::XLink => ns::XLINK,
        AttrNs::Xml => ns::XML,
        AttrNs::Xmlns => ns::XMLNS,
    }
}

impl selectors::Element for Element<'_> {
    type Impl = Impl;

    fn opaque(&self) -> OpaqueElement {
        // A node's data lives at a fixed place in the arena for as long as the document
        // is borrowed: its address identifies the node (for `selectors`' nth-index cache).
        OpaqueElement::new(self.0.data())
    }

    fn parent_element(&self) -> Option<Self> {
        self.0.parent().and_then(Element::of)
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        std::iter::successors(self.0.prev_sibling(), |n| n.prev_sibling()).find_map(Element::of)
    }

    fn next_sibling_element(&self) -> Option<Self> {
        std::iter::successors(self.0.next_sibling(), |n| n.next_sibling()).find_map(Element::of)
    }

    fn first_element_child(&self) -> Option<Self> {
        self.0.children().find_map(Element::of)
    }

    fn is_html_element_in_html_document(&self) -> bool {
        self.0.namespace() == Some(Ns::Html)
    }

    fn has_local_name(&self, local_name: &Ident) -> bool {
        self.0.name() == Some(local_name.as_str())
    }

    fn has_namespace(&self, ns: &Ident) -> bool {
        self.0.namespace().map(ns_url) == Some(ns.as_str())
    }

    fn is_same_type(&self, other: &Self) -> bool {
        self.0.namespace() == other.0.namespace() && self.0.name() == other.0.name()
    }

    fn attr_matches(
        &self,
        ns: &NamespaceConstraint<&Ident>,
        local_name: &Ident,
        operation: &AttrSelectorOperation<&AttrValue>,
    ) -> bool {
        if let NamespaceConstraint::Specific(url) = ns
            && url.as_str().is_empty()
        {
            // In no namespace (`[href]`, the common case): the tree's lookup, which
            // compares names as bytes; an element has one attribute of a name at most.
            return self
                .attr(local_name.as_str())
                .is_some_and(|v| operation.eval_str(&v));
        }
        self.0.attrs().any(|a| {
            a.name_bytes() == local_name.as_str().as_bytes()
                && match ns {
                    NamespaceConstraint::Any => true,
                    NamespaceConstraint::Specific(url) => attr_ns_url(a.ns()) == url.as_str(),
                }
                && operation.eval_str(&a.value())
        })
    }

    fn has_attr_in_no_namespace(&self, local_name: &Ident) -> bool {
        // `[href]`: presence only, the names compared as bytes; the value is not decoded
        // (`NodeRef::attr` would decode it, a large part of `a[href]`'s matching cost).
        self.has_attr(local_name.as_str())
    }

    fn match_non_ts_pseudo_class(
        &self,
        pc: &PseudoClass,
        context: &mut MatchingContext<Impl>,
    ) -> bool {
        match pc {
            PseudoClass::Has(list) => crate::has::matches_has(list, *self, context),
            PseudoClass::Lang(ranges) => matches_lang(*self, ranges, context.extra_data),
            PseudoClass::Link => self.is_link(),
            PseudoClass::Enabled => {
                is_form_control(*self) && !is_disabled(*self, context.extra_data)
            }
            PseudoClass::Disabled => {
                is_form_control(*self) && is_disabled(*self, context.extra_data)
            }
            PseudoClass::Checked => {
                (self.is_html(Tag::Input)
                    && self.has_attr("checked")
                    && self.attr("type").is_some_and(|t| {
                        t.eq_ignore_ascii_case("checkbox") || t.eq_ignore_ascii_case("radio")
                    }))
                    || (self.is_html(Tag::Option) && self.has_attr("selected"))
            }
            PseudoClass::Never(_) => false,
        }
    }

    fn match_pseudo_element(
        &self,
        _pe: &PseudoElement,
        _context: &mut MatchingContext<Impl>,
    ) -> bool {
        // `::text` and `::attr()` are consumed by the matching mode (see `lib.rs`): the
        // element that matches is the one the pseudo-element is taken from.
        false
    }

    fn apply_selector_flags(&self, _flags: ElementSelectorFlags) {}

    fn is_link(&self) -> bool {
        // HTML § 4.16.3: `a` and `area` elements with an `href`.
        (self.is_html(Tag::A) || self.is_html(Tag::Area)) && self.has_attr("href")
    }

    fn is_html_slot_element(&self) -> bool {
        self.is_html(Tag::Slot)
    }

    fn has_id(&self, id: &Ident, case_sensitivity: CaseSensitivity) -> bool {
        self.attr("id")
            .is_some_and(|v| case_sensitivity.eq(v.as_bytes(), id.as_str().as_bytes()))
    }

    fn has_class(&self, name: &Ident, case_sensitivity: CaseSensitivity) -> bool {
        self.attr("class").is_some_and(|v| {
            v.split(['\t', '\n', '\x0c', '\r', ' '])
                .any(|c| case_sensitivity.eq(c.as_bytes(), name.as_str().as_bytes()))
        })
    }

    fn has_custom_state(&self, _name: &Ident) -> bool {
        false
    }

    fn imported_part(&self, _name: &Ident) -> Option<Ident> {
        None
    }

    fn is_part(&self, _name: &Ident) -> bool {
        false
    }

    fn is_empty(&self) -> bool {
        // Selectors 4 § 13.2: no children but comments and processing instructions.
        self.0.children().all(|c| match c.kind() {
            NodeKind::Element => false,
            NodeKind::Text => c.text().is_empty(),
            _ => true,
        })
    }

    fn is_root(&self) -> bool {
        self.0
            .parent()
            .is_some_and(|p| p.kind() == NodeKind::Document)
    }

    fn add_element_unique_hashes(&self, _filter: &mut BloomFilter) -> bool {
        // Only `selectors`' own `:has` asks, to fill a filter of the subtree by recursing
        // over it, a stack frame per level; `:has` is matched in `has.rs` instead. (The
        // ancestor filter is kept by `ancestors.rs`.)
        false
    }
}

/// `:lang()` (Selectors 4 § 7.2): the language is that of the nearest inclusive ancestor
/// with `xml:lang` or `lang` (HTML § 3.2.6.2), matched by implicit wildcard: a range
/// matches the language itself and its subtags (`en` matches `en-GB`). The ancestor is
/// found through the walk's memo when there is one (`memo.rs`: linear on deep trees).
fn matches_lang(el: Element<'_>, ranges: &[Box<str>], memo: Option<&WalkMemo>) -> bool {
    let Some(holder) = memo::language_holder(el, memo) else {
        return false;
    };
    let lang = holder
        .attrs()
        .find(|a| a.ns() == AttrNs::Xml && a.name_bytes() == b"lang")
        .map(|a| a.value())
        .or_else(|| holder.attr("lang"))
        .unwrap_or_default();
    !lang.is_empty()
        && ranges.iter().any(|r| {
            lang.len() >= r.len()
                && lang.as_bytes()[..r.len()].eq_ignore_ascii_case(r.as_bytes())
                && (lang.len() == r.len() || lang.as_bytes()[r.len()] == b'-')
        })
}

/// The elements that can be disabled (HTML § 4.16.3, `:enabled`).
fn is_form_control(el: Element<'_>) -> bool {
    [
        Tag::Button,
        Tag::Input,
        Tag::Select,
        Tag::Textarea,
        Tag::Optgroup,
        Tag::Option,
        Tag::Fieldset,
    ]
    .iter()
    .any(|&t| el.is_html(t))
}

/// HTML § 4.10.18.5 "disabled": a control with `disabled`, a control or fieldset inside
/// a disabled fieldset but not inside its first `legend` child, an `option` in a
/// disabled `optgroup`. The fieldset part through the walk's memo when there is one
/// (`memo.rs`: linear on deep trees).
fn is_disabled(el: Element<'_>, memo: Option<&WalkMemo>) -> bool {
    if el.has_attr("disabled") {
        return true;
    }
    if el.is_html(Tag::Option) {
        return el
            .parent_element()
            .is_some_and(|p| p.is_html(Tag::Optgroup) && p.has_attr("disabled"));
    }
    if el.is_html(Tag::Optgroup) {
        return false;
    }
    memo::inside_disabled_fieldset(el, memo)
}
