//! 13.2.6.4.1–13.2.6.4.6: the insertion modes before the body: "initial", "before
//! html", "before head", "in head", "in head noscript", "after head".

use std::borrow::Cow;

use htmltok::State;

use crate::builder::quirks::quirks_mode;
use crate::builder::state::{Mode, Step, TreeBuilder};
use crate::builder::token::{DoctypeTok, TagTok, Tok};
use crate::dom::DoctypeData;
use crate::names::{AttrNs, Ns, Tag};

use super::Whitespace;
use Step::{Done, Reprocess};

impl<'a> TreeBuilder<'a> {
    // 13.2.6.4.1 The "initial" insertion mode
    pub(in crate::builder) fn initial(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if Self::drop_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Comment(data, span) => return self.comment_rule(data.clone(), *span, Some(0)),
            Tok::Doctype(doctype) => {
                let DoctypeTok {
                    name,
                    public_id,
                    system_id,
                    force_quirks,
                    span,
                } = &**doctype;
                let text = |s: &Option<Cow<'_, str>>| s.as_deref().unwrap_or("").to_owned();
                let id = self.doc.new_doctype(DoctypeData {
                    name: text(name),
                    public_id: text(public_id),
                    system_id: text(system_id),
                    span: *span,
                });
                self.doc.append(0, id);
                self.doc.quirks = quirks_mode(
                    name.as_deref(),
                    public_id.as_deref(),
                    system_id.as_deref(),
                    *force_quirks,
                );
                self.set_mode(Mode::BeforeHtml);
                return Done;
            }
            _ => {}
        }
        self.doc.quirks = crate::dom::QuirksMode::Quirks;
        self.set_mode(Mode::BeforeHtml);
        Reprocess
    }

    // 13.2.6.4.2 The "before html" insertion mode
    pub(in crate::builder) fn before_html(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Doctype(_) => return Done,
            Tok::Comment(data, span) => return self.comment_rule(data.clone(), *span, Some(0)),
            Tok::Text(text) => {
                if Self::drop_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Tag(tag) if tag.is_start(Tag::Html) => {
                self.insert_document_element(tag);
                return Done;
            }
            Tok::Tag(tag) if is_other_end_tag_before_head(tag) => return Done,
            _ => {}
        }
        let at = self.implied_at(tok);
        self.insert_document_element(&mut TagTok::implied(Tag::Html, at));
        Reprocess
    }

    /// "Before html"'s steps for an `html` element, of the start tag or implied: "create
    /// an element for the token in the HTML namespace, with the Document as the intended
    /// parent. Append it to the Document object. Put this element in the stack of open
    /// elements. … Switch the insertion mode to "before head"."
    fn insert_document_element(&mut self, tag: &mut TagTok<'a>) {
        let (id, name) = self.create_element(tag, Ns::Html);
        self.doc.append(0, id);
        self.open.push(id, name);
        self.set_mode(Mode::BeforeHead);
    }

    // 13.2.6.4.3 The "before head" insertion mode
    pub(in crate::builder) fn before_head(&mut self, tok: &mut Tok<'a>) -> Step {
        if let Some(step) = self.whitespace_comment_doctype_html(tok, Whitespace::Ignore) {
            return step;
        }
        match tok {
            Tok::Tag(tag) if tag.is_start(Tag::Head) => {
                self.head = self.insert_html_element(tag);
                self.set_mode(Mode::InHead);
                return Done;
            }
            Tok::Tag(tag) if is_other_end_tag_before_head(tag) => return Done,
            _ => {}
        }
        let at = self.implied_at(tok);
        self.head = self.insert_implied(Tag::Head, at);
        self.set_mode(Mode::InHead);
        Reprocess
    }

    // 13.2.6.4.4 The "in head" insertion mode
    pub(in crate::builder) fn in_head(&mut self, tok: &mut Tok<'a>) -> Step {
        if let Some(step) = self.whitespace_comment_doctype_html(tok, Whitespace::Insert) {
            return step;
        }
        match tok {
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Tag::Base | Tag::Basefont | Tag::Bgsound | Tag::Link => {
                    self.insert_void(tag);
                    return Done;
                }
                Tag::Meta => {
                    self.in_head_meta(tag);
                    return Done;
                }
                Tag::Title => {
                    self.parse_raw_text(tag, State::Rcdata);
                    return Done;
                }
                Tag::Noscript if self.opts.scripting => {
                    self.parse_raw_text(tag, State::Rawtext);
                    return Done;
                }
                Tag::Noframes | Tag::Style => {
                    self.parse_raw_text(tag, State::Rawtext);
                    return Done;
                }
                Tag::Noscript => {
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InHeadNoscript);
                    return Done;
                }
                Tag::Script => {
                    self.parse_raw_text(tag, State::ScriptData);
                    return Done;
                }
                Tag::Template => {
                    self.insert_html_element(tag);
                    self.active.push_marker();
                    self.set_frameset_not_ok();
                    self.set_mode(Mode::InTemplate);
                    self.template_modes.push(Mode::InTemplate);
                    return Done;
                }
                Tag::Head => return Done,
                _ => {}
            },
            Tok::Tag(tag) => match tag.tag {
                Tag::Head => {
                    if let Some((id, _)) = self.open.pop() {
                        self.doc.element_mut(id).set_end(tag.span);
                    }
                    self.set_mode(Mode::AfterHead);
                    return Done;
                }
                Tag::Body | Tag::Html | Tag::Br => {}
                Tag::Template => {
                    if !self.has_template() {
                        return Done;
                    }
                    self.open.generate_implied_end_tags_thoroughly();
                    self.pop_until_closing(Tag::Template, tag.span);
                    self.active.clear_to_last_marker();
                    self.template_modes.pop();
                    self.reset_insertion_mode();
                    return Done;
                }
                _ => return Done,
            },
            _ => {}
        }
        self.open.pop();
        self.set_mode(Mode::AfterHead);
        Reprocess
    }

    /// 13.2.6.4.4, "A start tag whose tag name is "meta"": "Insert an HTML element for the
    /// token. Immediately pop the current node off the stack of open elements.
    /// Acknowledge the token's self-closing flag, if it is set." Then, while the
    /// confidence is tentative, "if the element has a charset attribute, and getting an
    /// encoding from its value results in an encoding, … change the encoding to the
    /// resulting encoding. Otherwise, if the element has an http-equiv attribute whose
    /// value is an ASCII case-insensitive match for the string "Content-Type", and the
    /// element has a content attribute, … change the encoding to the extracted encoding."
    ///
    /// The tree knows no encodings: it records the elements those steps would read (a
    /// `charset` or an `http-equiv` attribute) for the caller that decided the tentative
    /// encoding (`Document::encoding_metas`). A fragment has no encoding to change, so
    /// nothing is recorded there. The rule is rare (a few `meta` per page), so the check
    /// costs nothing on the hot path; every recorded element is a node, so the list is
    /// bounded by the arena.
    fn in_head_meta(&mut self, tag: &mut TagTok<'a>) {
        let id = self.insert_void(tag);
        if self.context.is_some() {
            return;
        }
        let declares = self.doc.attrs_of(id).iter().any(|attr| {
            attr.ns == AttrNs::None
                && matches!(
                    self.doc.bytes(self.input, attr.name),
                    b"charset" | b"http-equiv"
                )
        });
        if declares {
            self.doc.encoding_metas.push(id);
        }
    }

    // 13.2.6.4.5 The "in head noscript" insertion mode
    pub(in crate::builder) fn in_head_noscript(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Doctype(_) => return Done,
            Tok::Tag(tag) if tag.is_start(Tag::Html) => return self.in_body(tok),
            Tok::Tag(tag) if tag.end && tag.tag == Tag::Noscript => {
                if let Some((id, _)) = self.open.pop() {
                    self.doc.element_mut(id).set_end(tag.span);
                }
                self.set_mode(Mode::InHead);
                return Done;
            }
            Tok::Text(text) => {
                if self.insert_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Comment(..) => return self.in_head(tok),
            Tok::Tag(tag)
                if !tag.end
                    && matches!(
                        tag.tag,
                        Tag::Basefont
                            | Tag::Bgsound
                            | Tag::Link
                            | Tag::Meta
                            | Tag::Noframes
                            | Tag::Style
                    ) =>
            {
                return self.in_head(tok);
            }
            Tok::Tag(tag) if !tag.end && matches!(tag.tag, Tag::Head | Tag::Noscript) => {
                return Done;
            }
            Tok::Tag(tag) if tag.end && tag.tag != Tag::Br => return Done,
            _ => {}
        }
        self.open.pop();
        self.set_mode(Mode::InHead);
        Reprocess
    }

    // 13.2.6.4.6 The "after head" insertion mode
    pub(in crate::builder) fn after_head(&mut self, tok: &mut Tok<'a>) -> Step {
        if let Some(step) = self.whitespace_comment_doctype_html(tok, Whitespace::Insert) {
            return step;
        }
        match tok {
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Tag::Body => {
                    self.insert_html_element(tag);
                    self.set_frameset_not_ok();
                    self.set_mode(Mode::InBody);
                    return Done;
                }
                Tag::Frameset => {
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InFrameset);
                    return Done;
                }
                Tag::Base
                | Tag::Basefont
                | Tag::Bgsound
                | Tag::Link
                | Tag::Meta
                | Tag::Noframes
                | Tag::Script
                | Tag::Style
                | Tag::Template
                | Tag::Title => {
                    let head = self.head;
                    let name = self.name_of(head);
                    self.open.push(head, name);
                    let step = self.in_head(tok);
                    self.open.remove(head);
                    return step;
                }
                Tag::Head => return Done,
                _ => {}
            },
            Tok::Tag(tag) if tag.end => match tag.tag {
                Tag::Template => return self.in_head(tok),
                Tag::Body | Tag::Html | Tag::Br => {}
                _ => return Done,
            },
            _ => {}
        }
        let at = self.implied_at(tok);
        self.insert_implied(Tag::Body, at);
        self.set_mode(Mode::InBody);
        Reprocess
    }
}

/// "Any other end tag" of "before html" (13.2.6.4.2) and "before head" (13.2.6.4.3),
/// which ignore it: not `head`, `body`, `html` or `br`, which both "act as described in
/// the "anything else" entry".
fn is_other_end_tag_before_head(tag: &TagTok<'_>) -> bool {
    tag.end && !matches!(tag.tag, Tag::Head | Tag::Body | Tag::Html | Tag::Br)
}
