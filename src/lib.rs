//! # htmltok
//!
//! An HTML tokenizer that is exact to the WHATWG standard (HTML § 13.2.5, "Tokenization":
//! all 80 states, character references, every named parse error) and fast: it finds token
//! boundaries on raw bytes, hands out tokens that borrow the input, and decodes text only
//! when asked.
//!
//! ```
//! use htmltok::{Token, Tokenizer};
//!
//! let html = b"<!DOCTYPE html><title>Caf&eacute;</title><a href='/menu?x=1&amp;y=2'>Menu</a>";
//! let mut tok = Tokenizer::new(html);
//! let mut links = Vec::new();
//! while let Some(token) = tok.next_token() {
//!     if let Token::StartTag(tag) = token {
//!         if let Some(href) = tag.attr("href") {
//!             links.push((href.value().into_owned(), href.value_span().unwrap().range()));
//!         }
//!     }
//! }
//! assert_eq!(links, [("/menu?x=1&y=2".to_string(), 50..67)]);
//! ```
//!
//! ## Contracts
//!
//! - **Input** is any `&[u8]`, read as UTF-8. Invalid UTF-8 is decoded as the WHATWG UTF-8
//!   decoder does (one U+FFFD per maximal invalid subpart) wherever text is decoded; the
//!   raw bytes stay available. Nothing panics, whatever the bytes.
//! - **Tokens borrow the input.** Names, text, attribute values, comment data and DOCTYPE
//!   fields come back as `Cow<str>`: borrowed unless a transform (character reference,
//!   CR LF, NUL replacement, ASCII lowercasing, invalid UTF-8) applies.
//! - **Spans** ([`Token::span`]) are in increasing order and never overlap; a gap between
//!   them only holds markup the standard drops without a token (`</>`, or a tag cut off by
//!   the end of the input) or a leading UTF-8 byte order mark (skipped as the Encoding
//!   standard's decode skips it; [`Builder::keep_bom`] keeps it as text), so the input can
//!   be reproduced byte for byte.
//! - **Text runs**: adjacent character tokens come as one [`Text`] (a CDATA section is its
//!   own [`Text`] of kind [`TextKind::Cdata`]).
//! - **Parse errors** are off by default and free then; when on ([`Builder::errors`]),
//!   [`Tokenizer::errors`] lists each spec code at a byte offset, and [`position`] turns
//!   offsets into the one-based line and column the html5lib tests use.
//! - **Feedback**: by default a small tree-builder simulation switches to RCDATA, RAWTEXT,
//!   script data and PLAINTEXT after the right start tags and recognises CDATA sections
//!   inside `<svg>`/`<math>`; turn it off ([`Builder::simulation`]) and drive the state with
//!   [`Tokenizer::set_state`], [`Tokenizer::set_last_start_tag`] and
//!   [`Tokenizer::set_foreign_content`] from a real tree builder, which can take its
//!   tokens through [`Tokenizer::next_token_into`] (a [`TokenSink`] called once per kind of
//!   token) to convert each without matching it twice.
//! - **No allocation per token**: attribute storage is reused from tag to tag.
//! - **Streaming input**: [`StreamTokenizer`] (chunks by [`StreamTokenizer::feed`]) and
//!   [`ReadTokenizer`] (any [`std::io::Read`]) give the same tokens and errors while
//!   holding only the unfinished tail of the input; spans are relative to
//!   [`StreamTokenizer::base`], and a long text run may come in pieces
//!   ([`StreamTokenizer::text_continues`]).
//!
//! ## The workspace
//!
//! This crate is the tokenizer alone; its only dependency is `memchr`. Beside it:
//! `htmltok-crawl` (encoding detection, WARC files, parallel batches, link/text/stats
//! extraction) and `htmltok-cli` (the `htmltok` program). See the README for which to pick.
//!
//! ## Scanners
//!
//! The byte scanners use SSE2 and AVX2 on x86_64 (detected at run time), NEON on aarch64,
//! and scalar code everywhere else; [`Builder::scanner`] picks one explicitly, and every
//! [`Scanner`] gives the same tokens.

#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod attrs;
mod charref;
mod decode;
pub mod elements;
mod error;
mod feedback;
mod machine;
mod scan;
mod span;
mod state;
mod stream;
mod tape;
mod token;

pub use attrs::AttrRecord;
pub use decode::TextForm;
pub use error::{ErrorCode, ParseError, Position, PositionTracker, position};
pub use machine::{Builder, TokenSink, Tokenizer};
pub use scan::Scanner;
pub use span::Span;
pub use state::State;
pub use stream::{ReadTokenizer, StreamTokenizer};
pub use tape::{DoctypeRecord, Tape, TapeError, TokenRecord};
pub use token::{Attribute, Comment, Doctype, Tag, Text, TextKind, Token};

/// Decodes the bytes of an attribute value at `span` in `input` exactly as
/// [`Attribute::value`] does (character references with the attribute value rule, NUL as
/// U+FFFD, CR LF and CR as LF): `Cow::Borrowed` when nothing changes. For consumers that
/// keep [`Attribute::value_span`] and decode later (htmltok-tree's DOM).
///
/// ```
/// let html = b"<a href='x&amp;y'>";
/// let mut tok = htmltok::Tokenizer::new(html);
/// let Some(htmltok::Token::StartTag(tag)) = tok.next_token() else { unreachable!() };
/// let href = tag.attr("href").unwrap();
/// let later = htmltok::decode_attribute_value(html, href.value_span().unwrap());
/// assert_eq!(later, "x&y");
/// assert_eq!(later, href.value());
/// ```
pub fn decode_attribute_value(input: &[u8], span: Span) -> std::borrow::Cow<'_, str> {
    decode::decode_span(input, span, decode::Context::AttributeValue)
}

/// The replacement text of one named character reference given exactly as it appears
/// after the `&` (for example `"amp;"` or `"not"`), or None when it is not a name in the
/// standard's table.
pub fn named_character_reference(name: &str) -> Option<&'static str> {
    charref::lookup_named(name.as_bytes())
}
