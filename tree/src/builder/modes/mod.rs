//! 13.2.6.4 The rules for parsing tokens in HTML content: one function per insertion
//! mode, each a match on the token and then on the interned tag, and one file per group
//! of modes in the standard's order (each mode's rules in one home). A function returns
//! [`Step::Reprocess`](super::Step::Reprocess) where the spec says "reprocess the token".

// "Whitespace: insert it; anything else: …" splits the token in place, which a match
// guard cannot do.
#![allow(clippy::collapsible_match)]

mod after_body;
mod before_body;
mod in_body;
mod in_table;
mod in_template;
mod text;

pub(crate) use in_body::InBodyStart;

use super::{TagTok, TextTok, Tok, TreeBuilder};
use crate::names::Tag;

/// The tags "in body" processes "using the rules for the in head insertion mode".
pub(super) fn uses_in_head_rules(tag: &TagTok<'_>) -> bool {
    use Tag::*;
    if tag.end {
        tag.tag == Template
    } else {
        matches!(
            tag.tag,
            Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style | Template | Title
        )
    }
}

impl<'a> TreeBuilder<'a> {
    /// Splits leading whitespace off a text token and inserts it; true when nothing is
    /// left (the shape of "whitespace: insert the character; anything else: …").
    fn insert_leading_ws(&mut self, text: &mut TextTok<'a>) -> bool {
        // All whitespace, the common case (the newlines between the head's elements):
        // inserted where it lies, not split into two new pieces first.
        if text.is_all_ws() {
            if !text.text.is_empty() {
                self.insert_characters(text.characters());
            }
            return true;
        }
        if let Some(mut ws) = text.split_leading_ws() {
            self.insert_characters(ws.characters());
        }
        text.text.is_empty()
    }

    /// Drops leading whitespace; true when nothing is left.
    fn drop_leading_ws(text: &mut TextTok<'a>) -> bool {
        text.split_leading_ws();
        text.text.is_empty()
    }

    fn implied_at(&self, tok: &Tok<'a>) -> usize {
        tok.offset().min(self.input.len())
    }
}
