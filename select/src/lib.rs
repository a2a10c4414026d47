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
//! - [`Select`] (implemented for every [`DocumentView`](htmltok_tree::DocumentView) by reference and for [`NodeRef`](htmltok_tree::NodeRef)): `select` iterates the
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
mod matches;
mod memo;
mod scan;
mod selector;
mod selectors_element;
mod subject;
mod topdown;

pub use css::PseudoElement;
pub use element::Element;
pub use error::{MAX_NESTING, SelectError};
pub use fields::{Field, Fields};
pub use matches::{Matches, Select};
pub use selector::Selector;

#[cfg(test)]
mod tests;
