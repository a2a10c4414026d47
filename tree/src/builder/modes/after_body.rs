//! 13.2.6.4.19–13.2.6.4.23: the insertion modes after the body: "after body", "in
//! frameset", "after frameset", "after after body", "after after frameset".

use crate::builder::state::{Mode, Step, TreeBuilder};
use crate::builder::token::Tok;
use crate::names::Tag;

use Step::{Done, Reprocess};

impl<'a> TreeBuilder<'a> {
    // 13.2.6.4.19 The "after body" insertion mode
    pub(in crate::builder) fn after_body(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if self.leading_ws_in_body(text) {
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                let html = self.open.get(0).0;
                return self.comment_rule(data.clone(), *span, Some(html));
            }
            Tok::Doctype(_) => return Done,
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => return self.in_body(tok),
            Tok::Tag(tag) if tag.end && tag.tag == Tag::Html => {
                if self.context.is_none() {
                    let html = self.open.get(0).0;
                    self.doc.element_mut(html).set_end(tag.span);
                    self.set_mode(Mode::AfterAfterBody);
                }
                return Done;
            }
            Tok::Eof => return self.stop_parsing(),
            _ => {}
        }
        self.set_mode(Mode::InBody);
        Reprocess
    }

    // 13.2.6.4.20 The "in frameset" insertion mode
    pub(in crate::builder) fn in_frameset(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => self.insert_whitespace_only(text),
            Tok::Comment(data, span) => self.comment_rule(data.clone(), *span, None),
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Tag::Html => self.in_body(tok),
                Tag::Frameset => {
                    self.insert_html_element(tag);
                    Done
                }
                Tag::Frame => {
                    self.insert_void(tag);
                    Done
                }
                Tag::Noframes => self.in_head(tok),
                _ => Done,
            },
            Tok::Tag(tag) if tag.tag == Tag::Frameset => {
                if self.open.len() == 1 {
                    return Done;
                }
                if let Some((id, _)) = self.open.pop() {
                    self.doc.element_mut(id).set_end(tag.span);
                }
                if self.context.is_none() && !self.open.current_is(Tag::Frameset) {
                    self.set_mode(Mode::AfterFrameset);
                }
                Done
            }
            Tok::Eof => self.stop_parsing(),
            _ => Done,
        }
    }

    // 13.2.6.4.21 The "after frameset" insertion mode
    pub(in crate::builder) fn after_frameset(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => self.insert_whitespace_only(text),
            Tok::Comment(data, span) => self.comment_rule(data.clone(), *span, None),
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => self.in_body(tok),
            Tok::Tag(tag) if tag.end && tag.tag == Tag::Html => {
                let html = self.open.get(0).0;
                self.doc.element_mut(html).set_end(tag.span);
                self.set_mode(Mode::AfterAfterFrameset);
                Done
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Noframes => self.in_head(tok),
            Tok::Eof => self.stop_parsing(),
            _ => Done,
        }
    }

    // 13.2.6.4.22 The "after after body" insertion mode
    pub(in crate::builder) fn after_after_body(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Comment(data, span) => return self.comment_rule(data.clone(), *span, Some(0)),
            Tok::Doctype(_) => return self.in_body(tok),
            Tok::Text(text) => {
                if self.leading_ws_in_body(text) {
                    return Done;
                }
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => return self.in_body(tok),
            Tok::Eof => return self.stop_parsing(),
            _ => {}
        }
        self.set_mode(Mode::InBody);
        Reprocess
    }

    // 13.2.6.4.23 The "after after frameset" insertion mode
    pub(in crate::builder) fn after_after_frameset(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Comment(data, span) => self.comment_rule(data.clone(), *span, Some(0)),
            Tok::Doctype(_) => self.in_body(tok),
            Tok::Text(text) => {
                if let Some(ws) = text.whitespace_only() {
                    self.body_text(ws);
                }
                Done
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => self.in_body(tok),
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Noframes => self.in_head(tok),
            Tok::Eof => self.stop_parsing(),
            _ => Done,
        }
    }
}
