//! 13.2.6.4 The rules for parsing tokens in HTML content: one function per insertion
//! mode, each a match on the token and then on the interned tag, and one file per group
//! of modes in the standard's order (each mode's rules in one home). A function returns
//! [`Step::Reprocess`] where the spec says "reprocess the token".
//!
//! This file holds what several modes share: the rules they word alike (whitespace,
//! comments, DOCTYPEs, end of file), 13.2.6.2's raw text parsing, and
//! [`TreeBuilder::dispatched_mode`], the dispatcher's choice that the shortcuts past it
//! assert they match.

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

use std::borrow::Cow;

use htmltok::{Span, State};

use super::state::{Mode, Step, TreeBuilder};
use super::token::{TagTok, TextTok, Tok};
use crate::dom::NodeId;
use crate::names::{AttrNs, Tag};

/// What a mode's rule for whitespace characters does with them (see
/// [`TreeBuilder::whitespace_comment_doctype_html`]).
#[derive(Clone, Copy)]
enum Whitespace {
    /// "Ignore the token."
    Ignore,
    /// "Insert the character."
    Insert,
}

impl<'a> TreeBuilder<'a> {
    /// The insertion mode whose rules 13.2.6's dispatcher runs for a token when it takes
    /// the current insertion mode's rules (the adjusted current node is an HTML element):
    /// the current mode, followed through the hand-offs the tokenizer's sink skips: "in
    /// cell"'s "anything else" (13.2.6.4.15: "process the token using the rules for the "in
    /// body" insertion mode") and "in body"'s tags for "the rules for the "in head"
    /// insertion mode". `tag` for a tag token, None for any other. For the debug
    /// assertions of the shortcuts that run a mode's rules without the dispatcher: written
    /// from the standard's lists, not from the tables the shortcuts read.
    pub(crate) fn dispatched_mode(&self, tag: Option<&TagTok<'a>>) -> Mode {
        use Tag::*;
        let in_cell_own_rule = tag.is_some_and(|t| {
            if t.end {
                matches!(
                    t.tag,
                    Td | Th
                        | Body
                        | Caption
                        | Col
                        | Colgroup
                        | Html
                        | Table
                        | Tbody
                        | Tfoot
                        | Thead
                        | Tr
                )
            } else {
                matches!(
                    t.tag,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                )
            }
        });
        let mode = match self.mode {
            Mode::InCell if !in_cell_own_rule => Mode::InBody,
            mode => mode,
        };
        match tag {
            Some(t) if mode == Mode::InBody && in_body::uses_in_head_rules(t) => Mode::InHead,
            _ => mode,
        }
    }

    /// The four rules "before head" (13.2.6.4.3), "in head" (13.2.6.4.4), "after head"
    /// (13.2.6.4.6) and "in column group" (13.2.6.4.12) begin with, worded alike in each:
    /// whitespace characters (`ws`: "ignore the token" before the head, "insert the
    /// character" in the others), "a comment token: insert a comment", "a DOCTYPE token:
    /// parse error; ignore the token", and "a start tag whose tag name is "html": process
    /// the token using the rules for the "in body" insertion mode". `Some` when one of
    /// them took the token; `None` leaves it to the mode's later rules (a text then holds
    /// what follows its leading whitespace).
    fn whitespace_comment_doctype_html(
        &mut self,
        tok: &mut Tok<'a>,
        ws: Whitespace,
    ) -> Option<Step> {
        match tok {
            Tok::Text(text) => {
                let nothing_left = match ws {
                    Whitespace::Ignore => Self::drop_leading_ws(text),
                    Whitespace::Insert => self.insert_leading_ws(text),
                };
                nothing_left.then_some(Step::Done)
            }
            Tok::Comment(data, span) => Some(self.comment_rule(data.clone(), *span, None)),
            Tok::Doctype(_) => Some(Step::Done),
            Tok::Tag(tag) if tag.is_start(Tag::Html) => Some(self.in_body(tok)),
            _ => None,
        }
    }

    /// "A comment token: insert a comment" (13.2.6.1), at the appropriate place or, with
    /// `parent`, as its last child (the rules' "as the last child of the Document object",
    /// "… of the first element in the stack of open elements").
    fn comment_rule(&mut self, data: Cow<'a, str>, span: Span, parent: Option<NodeId>) -> Step {
        self.insert_comment(data, span, parent);
        Step::Done
    }

    /// "An end-of-file token: stop parsing" (13.2.7).
    fn stop_parsing(&mut self) -> Step {
        self.done = true;
        Step::Done
    }

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

    /// Splits leading whitespace off a text token and processes it "using the rules for
    /// the "in body" insertion mode" (the whitespace rule of "after body" and "after
    /// after body"); true when nothing is left.
    fn leading_ws_in_body(&mut self, text: &mut TextTok<'a>) -> bool {
        if let Some(ws) = text.split_leading_ws() {
            self.body_text(ws);
        }
        text.text.is_empty()
    }

    /// "In frameset" and "after frameset" for a run of characters: whitespace, "insert
    /// the character"; anything else, "parse error; ignore the token". So only the
    /// whitespace characters are inserted.
    fn insert_whitespace_only(&mut self, text: &TextTok<'a>) -> Step {
        if let Some(mut ws) = text.whitespace_only() {
            self.insert_characters(ws.characters());
        }
        Step::Done
    }

    fn implied_at(&self, tok: &Tok<'a>) -> usize {
        tok.offset().min(self.input.len())
    }

    /// Pops until the HTML element `tag` is popped, recording `end` as its end tag.
    fn pop_until_closing(&mut self, tag: Tag, end: Span) {
        if let Some(id) = self.open.pop_until(tag) {
            self.doc.element_mut(id).set_end(end);
        }
    }

    /// 13.2.6.2 The generic raw text and RCDATA element parsing algorithms.
    fn parse_raw_text(&mut self, tag: &mut TagTok<'a>, state: State) {
        self.insert_html_element(tag);
        self.switch_tokenizer(state);
        self.original_mode = self.mode;
        self.set_mode(Mode::Text);
    }

    /// The value of attribute `name` (no namespace) of the tag being processed, decoded.
    fn tag_attr(&self, tag: &TagTok<'a>, name: &str) -> Option<Cow<'a, str>> {
        if !tag.has_attrs {
            return None;
        }
        self.doc
            .tag_attrs()
            .iter()
            .find(|a| a.ns == AttrNs::None && self.doc.bytes(self.input, a.name) == name.as_bytes())
            .map(|a| a.value(self.input))
    }
}
