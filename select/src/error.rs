//! Selector errors: where a selector fails and what was expected, in words.

use std::fmt;

use cssparser::{BasicParseErrorKind, ParseError, ParseErrorKind, ToCss, Token};
use selectors::parser::SelectorParseErrorKind;

/// How deeply a selector may nest brackets (`:is(:not(:has(…)))`, `[…]`). The selector
/// parser recurses per level; a selector past this is refused before it is parsed.
pub const MAX_NESTING: usize = 64;

/// A selector that does not compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectError {
    /// The selector as given.
    pub selector: String,
    /// The byte offset in the selector where it fails.
    pub offset: usize,
    /// What was wrong, and what was expected there.
    pub message: String,
}

impl SelectError {
    pub(crate) fn new(selector: &str, offset: usize, message: impl Into<String>) -> SelectError {
        SelectError {
            selector: selector.to_owned(),
            offset,
            message: message.into(),
        }
    }

    /// From `cssparser`'s error: its location (line from 0, column from 1, in bytes) made
    /// a byte offset, its kind put in words.
    pub(crate) fn from_parse(
        css: &str,
        e: ParseError<'_, SelectorParseErrorKind<'_>>,
    ) -> SelectError {
        let line_start: usize = css
            .split_inclusive('\n')
            .take(e.location.line as usize)
            .map(str::len)
            .sum();
        let offset = (line_start + e.location.column.saturating_sub(1) as usize).min(css.len());
        SelectError::new(css, offset, describe(&e.kind))
    }
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid selector {:?} at offset {}: {}",
            self.selector, self.offset, self.message
        )
    }
}

impl std::error::Error for SelectError {}

fn token(t: &Token<'_>) -> String {
    format!("`{}`", t.to_css_string())
}

fn describe(kind: &ParseErrorKind<'_, SelectorParseErrorKind<'_>>) -> String {
    use SelectorParseErrorKind as K;
    match kind {
        ParseErrorKind::Basic(BasicParseErrorKind::UnexpectedToken(t)) => {
            format!("unexpected {}", token(t))
        }
        ParseErrorKind::Basic(BasicParseErrorKind::EndOfInput) => {
            "the selector ends too soon: expected more".to_owned()
        }
        ParseErrorKind::Basic(other) => format!("{other:?}"),
        ParseErrorKind::Custom(k) => match k {
            K::EmptySelector => "expected a selector".to_owned(),
            K::DanglingCombinator => "expected a selector after the combinator".to_owned(),
            K::NonCompoundSelector => {
                "expected a compound selector (no combinator) here".to_owned()
            }
            K::InvalidState => "a pseudo-element (::text, ::attr()) may only end a selector: not \
                 inside :not(), :is(), :where() or :has(), and nothing after it"
                .to_owned(),
            K::UnexpectedTokenInAttributeSelector(t) => format!(
                "unexpected {} in an attribute selector: expected `]`, an operator (= ~= |= ^= \
                 $= *=) or a flag (i, s)",
                token(t)
            ),
            K::PseudoElementExpectedColon(t) | K::PseudoElementExpectedIdent(t) => {
                format!("expected a pseudo-element name, found {}", token(t))
            }
            K::NoIdentForPseudo(t) => format!("expected a pseudo-class name, found {}", token(t)),
            K::UnsupportedPseudoClassOrElement(name) => {
                match name.to_ascii_lowercase().as_str() {
                    // Only refused inside `:has()` (see `css::Parser`).
                    "has" => ":has() may not be nested inside :has()".to_owned(),
                    "text" | "attr" => {
                        format!("::{name} may only end a selector, not appear inside :has()")
                    }
                    _ => format!(
                        "unknown or unsupported pseudo-class or pseudo-element `{name}` (the \
                         pseudo-elements are ::text and ::attr(name))"
                    ),
                }
            }
            K::UnexpectedIdent(name) => format!("unexpected identifier `{name}`"),
            K::ExpectedNamespace(prefix) => format!(
                "unknown namespace prefix `{prefix}` (known: html, svg, math, xlink, xml, xmlns)"
            ),
            K::ExpectedBarInAttr(t) => {
                format!("expected `|` in an attribute name, found {}", token(t))
            }
            K::BadValueInAttr(t) => format!(
                "expected an attribute value (an identifier or a quoted string), found {}",
                token(t)
            ),
            K::InvalidQualNameInAttr(t) | K::NoQualifiedNameInAttributeSelector(t) => {
                format!("expected an attribute name, found {}", token(t))
            }
            K::ExplicitNamespaceUnexpectedToken(t) => {
                format!(
                    "expected a name after the namespace prefix, found {}",
                    token(t)
                )
            }
            K::ClassNeedsIdent(t) => format!("expected a class name after `.`, found {}", token(t)),
            other => format!("{other:?}"),
        },
    }
}

/// Refuses a selector whose brackets nest deeper than [`MAX_NESTING`] (strings and
/// escapes skipped), so that parsing never recurses deeply.
pub(crate) fn check_nesting(css: &str) -> Result<(), SelectError> {
    let bytes = css.as_bytes();
    let (mut depth, mut i, mut quote) = (0usize, 0, None);
    while i < bytes.len() {
        let b = bytes[i];
        match (quote, b) {
            (_, b'\\') => i += 1,
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'(' | b'[') => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(SelectError::new(
                        css,
                        i,
                        format!("brackets nest more than {MAX_NESTING} levels deep"),
                    ));
                }
            }
            (None, b')' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// `selectors` lets some pseudo-classes follow a pseudo-element (`::text:is(b)`), which
/// mean nothing for parsel's `::text` and `::attr()`, and which the two ways of matching
/// read differently (the top-down plan left them out, `selectors` did not: found by the
/// random-text property test). Refused, as anything else after a pseudo-element is.
pub(crate) fn check_pseudo_element_last(
    css: &str,
    list: &selectors::SelectorList<crate::css::Impl>,
) -> Result<(), SelectError> {
    use selectors::parser::Component;
    for sel in list.slice() {
        // In match order the pseudo-element's compound comes first.
        let mut first = sel
            .iter_raw_match_order()
            .take_while(|c| !matches!(c, Component::Combinator(_)));
        let pseudo = first
            .clone()
            .any(|c| matches!(c, Component::PseudoElement(_)));
        if pseudo && first.nth(1).is_some() {
            let offset = css.rfind("::").unwrap_or(0);
            return Err(SelectError::new(
                css,
                offset,
                "a pseudo-element (::text, ::attr()) may only end a selector: nothing may \
                 follow it",
            ));
        }
    }
    Ok(())
}
