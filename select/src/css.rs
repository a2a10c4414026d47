//! The selector language: the types Servo's `selectors` crate asks a DOM to define
//! ([`SelectorImpl`]), the pseudo-classes and pseudo-elements it leaves to us, and the
//! parser hooks that recognise them.
//!
//! What `selectors` parses itself: type, universal, class, id and attribute selectors
//! (with the `i` / `s` flags), the four combinators, the structural pseudo-classes of
//! Selectors Level 3 (`:root`, `:empty`, `:first-child`, `:nth-of-type(2n+1)`, …), `:not`,
//! `:is` and `:where` with selector lists, `:nth-child(An+B of S)` and `:scope`. What it
//! leaves to the DOM, and this module defines ([`PseudoClass`]): `:has` (parsed here and
//! matched by `has.rs` without recursion, see there), `:lang()`, the link and user-action
//! pseudo-classes, and the form states. The pseudo-elements ([`PseudoElement`]) are
//! parsel's and Scrapy's `::text` and `::attr(name)`.
//!
//! Namespace prefixes (`svg|rect`, `[xlink|href]`) are the usual ones, there being no
//! `@namespace` rule to declare them: `html`, `svg`, `math`, `xlink`, `xml`, `xmlns`. There
//! is no default namespace, so `rect` matches an SVG `rect` as well.

use std::cell::Cell;
use std::fmt;

use cssparser::{CowRcStr, ParseError, SourceLocation, ToCss};
use precomputed_hash::PrecomputedHash;
use selectors::SelectorList;
use selectors::parser::{ParseRelative, SelectorParseErrorKind};

/// The namespace URLs of the DOM (Infra § 8, "namespaces").
pub(crate) mod ns {
    pub const HTML: &str = "http://www.w3.org/1999/xhtml";
    pub const SVG: &str = "http://www.w3.org/2000/svg";
    pub const MATHML: &str = "http://www.w3.org/1998/Math/MathML";
    pub const XLINK: &str = "http://www.w3.org/1999/xlink";
    pub const XML: &str = "http://www.w3.org/XML/1998/namespace";
    pub const XMLNS: &str = "http://www.w3.org/2000/xmlns/";
}

/// Our instance of `selectors`' [`selectors::SelectorImpl`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Impl;

/// A name in a selector (a local name, class, id, namespace URL or prefix) with its hash,
/// computed once when the selector is parsed.
#[derive(Clone, Debug, Default)]
pub struct Ident {
    text: Box<str>,
    hash: u32,
}

impl Ident {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl PartialEq for Ident {
    fn eq(&self, other: &Ident) -> bool {
        self.text == other.text
    }
}

impl Eq for Ident {}

/// The hash of a name (FNV-1a): what `selectors` puts in and looks up in the ancestor
/// Bloom filter (`ancestors.rs`), so the element side must hash the same way.
pub(crate) fn hash(text: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    hash
}

impl From<&str> for Ident {
    fn from(text: &str) -> Ident {
        Ident {
            text: text.into(),
            hash: hash(text),
        }
    }
}

impl AsRef<str> for Ident {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl PrecomputedHash for Ident {
    fn precomputed_hash(&self) -> u32 {
        self.hash
    }
}

impl ToCss for Ident {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_identifier(&self.text, dest)
    }
}

/// An attribute selector's value (`[rel="canonical"]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrValue(Box<str>);

impl From<&str> for AttrValue {
    fn from(text: &str) -> AttrValue {
        AttrValue(text.into())
    }
}

impl AsRef<str> for AttrValue {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl ToCss for AttrValue {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_string(&self.0, dest)
    }
}

impl selectors::SelectorImpl for Impl {
    type ExtraMatchingData<'a> = Option<&'a crate::memo::WalkMemo>;
    type AttrValue = AttrValue;
    type Identifier = Ident;
    type LocalName = Ident;
    type NamespaceUrl = Ident;
    type NamespacePrefix = Ident;
    type BorrowedNamespaceUrl = Ident;
    type BorrowedLocalName = Ident;
    type NonTSPseudoClass = PseudoClass;
    type PseudoElement = PseudoElement;
}

/// The pseudo-classes `selectors` leaves to the DOM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PseudoClass {
    /// `:has(<relative selector list>)` (Selectors 4 § 4.5).
    Has(SelectorList<Impl>),
    /// `:lang(en, "fr-*")`: the element's language (from the nearest `lang` or
    /// `xml:lang`) is one of the ranges or starts with one and a `-`, ASCII
    /// case-insensitively.
    Lang(Box<[Box<str>]>),
    /// `:link` and `:any-link`: `a` and `area` elements with an `href` (a static document
    /// has no visited links).
    Link,
    /// `:enabled`: a form control (`button`, `input`, `select`, `textarea`, `optgroup`,
    /// `option`, `fieldset`) that is not `:disabled`.
    Enabled,
    /// `:disabled`: such a control with a `disabled` attribute, or a `button`, `input`,
    /// `select`, `textarea` inside a disabled `fieldset` (not in its first `legend`), or an
    /// `option` inside a disabled `optgroup`.
    Disabled,
    /// `:checked`: a checkbox or radio `input` with `checked`, an `option` with `selected`.
    Checked,
    /// `:visited`, `:hover`, `:active`, `:focus`, `:focus-within`, `:focus-visible`,
    /// `:target`: states a parsed document never has; they match nothing.
    Never(&'static str),
}

impl ToCss for PseudoClass {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        match self {
            PseudoClass::Has(list) => {
                dest.write_str(":has(")?;
                list.to_css(dest)?;
                dest.write_str(")")
            }
            PseudoClass::Lang(ranges) => {
                dest.write_str(":lang(")?;
                for (i, r) in ranges.iter().enumerate() {
                    if i > 0 {
                        dest.write_str(", ")?;
                    }
                    cssparser::serialize_string(r, dest)?;
                }
                dest.write_str(")")
            }
            PseudoClass::Link => dest.write_str(":link"),
            PseudoClass::Enabled => dest.write_str(":enabled"),
            PseudoClass::Disabled => dest.write_str(":disabled"),
            PseudoClass::Checked => dest.write_str(":checked"),
            PseudoClass::Never(name) => write!(dest, ":{name}"),
        }
    }
}

impl selectors::parser::NonTSPseudoClass for PseudoClass {
    type Impl = Impl;

    fn is_active_or_hover(&self) -> bool {
        matches!(self, PseudoClass::Never("active" | "hover"))
    }

    fn is_user_action_state(&self) -> bool {
        matches!(
            self,
            PseudoClass::Never("active" | "hover" | "focus" | "focus-within" | "focus-visible")
        )
    }
}

/// The pseudo-elements of parsel and Scrapy: what a selector gives instead of elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PseudoElement {
    /// `::text`: the matched element's own text-node children, one string each.
    Text,
    /// `::attr(name)`: the value of the matched element's attribute `name`.
    Attr(Box<str>),
}

impl ToCss for PseudoElement {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        match self {
            PseudoElement::Text => dest.write_str("::text"),
            PseudoElement::Attr(name) => {
                dest.write_str("::attr(")?;
                cssparser::serialize_identifier(name, dest)?;
                dest.write_str(")")
            }
        }
    }
}

impl selectors::parser::PseudoElement for PseudoElement {
    type Impl = Impl;
}

/// The parser hooks: which Level 4 parts to accept, our pseudo-classes and
/// pseudo-elements, and the namespace prefixes.
#[derive(Default)]
pub(crate) struct Parser {
    /// Inside `:has()`, where neither `:has` nor a pseudo-element may appear.
    in_has: Cell<bool>,
}

type PResult<'i, T> = Result<T, ParseError<'i, SelectorParseErrorKind<'i>>>;

impl<'i> selectors::Parser<'i> for Parser {
    type Impl = Impl;
    type Error = SelectorParseErrorKind<'i>;

    fn parse_is_and_where(&self) -> bool {
        true
    }

    fn parse_nth_child_of(&self) -> bool {
        true
    }

    fn parse_non_ts_pseudo_class(
        &self,
        location: SourceLocation,
        name: CowRcStr<'i>,
    ) -> PResult<'i, PseudoClass> {
        let pc = cssparser::match_ignore_ascii_case! { &name,
            "link" | "any-link" => PseudoClass::Link,
            "enabled" => PseudoClass::Enabled,
            "disabled" => PseudoClass::Disabled,
            "checked" => PseudoClass::Checked,
            "visited" => PseudoClass::Never("visited"),
            "hover" => PseudoClass::Never("hover"),
            "active" => PseudoClass::Never("active"),
            "focus" => PseudoClass::Never("focus"),
            "focus-within" => PseudoClass::Never("focus-within"),
            "focus-visible" => PseudoClass::Never("focus-visible"),
            "target" => PseudoClass::Never("target"),
            _ => return Err(location.new_custom_error(
                SelectorParseErrorKind::UnsupportedPseudoClassOrElement(name),
            )),
        };
        Ok(pc)
    }

    fn parse_non_ts_functional_pseudo_class<'t>(
        &self,
        name: CowRcStr<'i>,
        parser: &mut cssparser::Parser<'i, 't>,
        _after_part: bool,
    ) -> PResult<'i, PseudoClass> {
        cssparser::match_ignore_ascii_case! { &name,
            "has" => {
                if self.in_has.get() {
                    // Selectors 4 § 4.5: `:has()` does not nest.
                    return Err(parser.new_custom_error(
                        SelectorParseErrorKind::UnsupportedPseudoClassOrElement(name),
                    ));
                }
                self.in_has.set(true);
                let list = SelectorList::parse(self, parser, ParseRelative::ForHas);
                self.in_has.set(false);
                Ok(PseudoClass::Has(list?))
            },
            "lang" => {
                let ranges = parser.parse_comma_separated(|p| {
                    let location = p.current_source_location();
                    match p.next()? {
                        cssparser::Token::Ident(s) | cssparser::Token::QuotedString(s) => {
                            Ok(Box::<str>::from(&**s))
                        }
                        t => {
                            let t = t.clone();
                            Err(location.new_unexpected_token_error(t))
                        }
                    }
                })?;
                Ok(PseudoClass::Lang(ranges.into()))
            },
            _ => Err(parser.new_custom_error(
                SelectorParseErrorKind::UnsupportedPseudoClassOrElement(name),
            )),
        }
    }

    fn parse_pseudo_element(
        &self,
        location: SourceLocation,
        name: CowRcStr<'i>,
    ) -> PResult<'i, PseudoElement> {
        if !self.in_has.get() && name.eq_ignore_ascii_case("text") {
            return Ok(PseudoElement::Text);
        }
        Err(
            location.new_custom_error(SelectorParseErrorKind::UnsupportedPseudoClassOrElement(
                name,
            )),
        )
    }

    fn parse_functional_pseudo_element<'t>(
        &self,
        name: CowRcStr<'i>,
        arguments: &mut cssparser::Parser<'i, 't>,
    ) -> PResult<'i, PseudoElement> {
        if !self.in_has.get() && name.eq_ignore_ascii_case("attr") {
            let attr = arguments.expect_ident()?;
            return Ok(PseudoElement::Attr(Box::from(&**attr)));
        }
        Err(
            arguments.new_custom_error(SelectorParseErrorKind::UnsupportedPseudoClassOrElement(
                name,
            )),
        )
    }

    fn namespace_for_prefix(&self, prefix: &Ident) -> Option<Ident> {
        let url = match prefix.as_str() {
            "html" => ns::HTML,
            "svg" => ns::SVG,
            "math" => ns::MATHML,
            "xlink" => ns::XLINK,
            "xml" => ns::XML,
            "xmlns" => ns::XMLNS,
            _ => return None,
        };
        Some(Ident::from(url))
    }
}
