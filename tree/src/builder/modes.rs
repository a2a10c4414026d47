//! 13.2.6.4 The rules for parsing tokens in HTML content: one function per insertion
//! mode, each a match on the token and then on the interned tag. A function returns
//! [`Step::Reprocess`] where the spec says "reprocess the token".

// "Whitespace: insert it; anything else: …" splits the token in place, which a match
// guard cannot do.
#![allow(clippy::collapsible_match)]

use std::borrow::Cow;

use htmltok::{Span, State, TextKind};

use super::quirks::quirks_mode;
use super::token::{DoctypeTok, Mark, is_ws};
use super::{Mode, Step, TagTok, TextTok, Tok, TreeBuilder};
use crate::dom::{Characters, DoctypeData, LazyKind, NONE, NodeId};
use crate::names::{AttrNs, InBodyStart, Name, Ns, Tag};
use crate::stack::Scope;

use Step::{Done, Reprocess};

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

    // 13.2.6.4.1 The "initial" insertion mode
    pub(super) fn initial(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if Self::drop_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, Some(0));
                return Done;
            }
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
    pub(super) fn before_html(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Doctype(_) => return Done,
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, Some(0));
                return Done;
            }
            Tok::Text(text) => {
                if Self::drop_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Tag(tag) if tag.is_start(Tag::Html) => {
                let (id, name) = self.create_element(tag, Ns::Html);
                self.doc.append(0, id);
                self.open.push(id, name);
                self.set_mode(Mode::BeforeHead);
                return Done;
            }
            Tok::Tag(tag)
                if tag.end && !matches!(tag.tag, Tag::Head | Tag::Body | Tag::Html | Tag::Br) =>
            {
                return Done;
            }
            _ => {}
        }
        let at = self.implied_at(tok);
        let mut t = TagTok::implied(Tag::Html, at);
        let (id, name) = self.create_element(&mut t, Ns::Html);
        self.doc.append(0, id);
        self.open.push(id, name);
        self.set_mode(Mode::BeforeHead);
        Reprocess
    }

    // 13.2.6.4.3 The "before head" insertion mode
    pub(super) fn before_head(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if Self::drop_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                return Done;
            }
            Tok::Doctype(_) => return Done,
            Tok::Tag(tag) if tag.is_start(Tag::Html) => return self.in_body(tok),
            Tok::Tag(tag) if tag.is_start(Tag::Head) => {
                self.head = self.insert_html_element(tag);
                self.set_mode(Mode::InHead);
                return Done;
            }
            Tok::Tag(tag)
                if tag.end && !matches!(tag.tag, Tag::Head | Tag::Body | Tag::Html | Tag::Br) =>
            {
                return Done;
            }
            _ => {}
        }
        let at = self.implied_at(tok);
        self.head = self.insert_implied(Tag::Head, at);
        self.set_mode(Mode::InHead);
        Reprocess
    }

    // 13.2.6.4.4 The "in head" insertion mode
    pub(super) fn in_head(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if self.insert_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                return Done;
            }
            Tok::Doctype(_) => return Done,
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Tag::Html => return self.in_body(tok),
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
            Tok::Eof => {}
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
    pub(super) fn in_head_noscript(&mut self, tok: &mut Tok<'a>) -> Step {
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
    pub(super) fn after_head(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if self.insert_leading_ws(text) {
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                return Done;
            }
            Tok::Doctype(_) => return Done,
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Tag::Html => return self.in_body(tok),
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

    /// The characters rule of "in body": NULs dropped, the active formatting elements
    /// reconstructed, frameset-ok cleared by anything but whitespace.
    #[inline(always)]
    pub(super) fn body_text(&mut self, mut text: TextTok<'a>) {
        self.body_text_mut(&mut text);
    }

    /// [`Self::body_text`] on the token in place: its text is taken, the rest is not
    /// moved (see [`TextTok::characters`]).
    ///
    /// The NUL case out of line: with its loop inlined here, this function would save
    /// and restore registers for every text, only to tail-call `insert_characters` on the
    /// common path.
    fn body_text_mut(&mut self, text: &mut TextTok<'a>) {
        if text.mark != Mark::Plain {
            return self.body_text_marked(text);
        }
        self.body_text_piece(text);
    }

    /// [`Self::body_text_mut`] for a text the tokenizer marked as possibly holding NUL,
    /// or as raw (decoding may change it). A raw text is inserted undecoded when
    /// frameset-ok is already "not ok" (nothing then reads the text); else it is decoded
    /// first, for the whitespace test.
    #[cold]
    #[inline(never)]
    fn body_text_marked(&mut self, text: &mut TextTok<'a>) {
        if let Mark::Raw(kind) = text.mark {
            if !self.frameset_ok {
                return self.in_body_raw_text(text.span, kind);
            }
            text.decode_raw();
        }
        if text.has_nul() {
            for mut piece in text.without_nul() {
                self.body_text_piece(&mut piece);
            }
        } else {
            self.body_text_piece(text);
        }
    }

    #[inline(always)]
    fn body_text_piece(&mut self, text: &mut TextTok<'a>) {
        self.reconstruct_active_formatting();
        if self.frameset_ok {
            self.clear_frameset_ok_unless_ws(text);
        }
        self.insert_characters(text.characters());
    }

    /// "Set the frameset-ok flag to not ok" for text that is not all whitespace: out of
    /// line, since the flag is cleared by a page's first words and then stays so.
    #[inline(never)]
    fn clear_frameset_ok_unless_ws(&mut self, text: &TextTok<'a>) {
        if !text.is_all_ws() {
            self.set_frameset_not_ok();
        }
    }

    /// The "in body" rules for a run of the data state's text whose first character is
    /// not U+0000, while frameset-ok is "not ok": "reconstruct the active formatting
    /// elements" and "insert the character" for each character but U+0000 ("ignore the
    /// token"). The first character does the reconstruction, which then has nothing left
    /// to do for the others; the text is stored as its span (`Dom::insert_lazy_text`),
    /// its U+0000 dropped when it is decoded.
    ///
    /// The common case is a leaf: nothing to reconstruct, and no `template` open, so that
    /// 13.2.6.1's "appropriate place for inserting a node" is after the current node's
    /// last child (foster parenting is on only while "in table" runs these rules, never
    /// for the tokenizer's sink, which calls this). Every other case is a tail call
    /// ([`Self::in_body_lazy_text_general`], or `Dom::append_lazy_text`'s own). With
    /// calls to come back from on its path, the function would save and restore
    /// registers for every text.
    pub(crate) fn in_body_lazy_text(&mut self, span: Span) {
        debug_assert!(!self.frameset_ok);
        debug_assert!(!self.foster_parenting);
        match self.open.current() {
            // With no `template` on the stack the current node is not one: the stack's
            // count, one load, where the current node's name takes two, and two tests.
            Some((parent, _))
                if !self.formatting_to_reconstruct()
                    && !self.open.contains_tag(Tag::Template)
                    && self.doc.append_lazy_text(parent, span, LazyKind::Data) => {}
            _ => self.in_body_lazy_text_general(span),
        }
    }

    /// [`Self::in_body_lazy_text`] in every case.
    #[inline(never)]
    fn in_body_lazy_text_general(&mut self, span: Span) {
        self.reconstruct_active_formatting();
        self.insert_characters(Characters::Lazy {
            span,
            kind: LazyKind::Data,
        });
    }

    /// The "in body" rules for characters, for a raw text (`Mark::Raw`: decoding may
    /// change it, and it keeps no U+0000) while frameset-ok is "not ok": the active
    /// formatting elements reconstructed and the text inserted undecoded, as its span of
    /// the input and its kind (the document decodes it when it is read).
    fn in_body_raw_text(&mut self, span: Span, kind: TextKind) {
        debug_assert!(!self.frameset_ok);
        self.reconstruct_active_formatting();
        self.insert_characters(Characters::Raw { span, kind });
    }

    /// The "in body" rules for characters. Called by the tokenizer's sink (`Drive`) for
    /// text (the most common token), without `in_body`'s large frame.
    #[inline]
    pub(super) fn in_body_characters(&mut self, text: &mut TextTok<'a>) -> Step {
        self.body_text_mut(text);
        Done
    }

    /// The "in body" rules for an end tag of the current node's name (`</p>`, `</div>`,
    /// `</li>`, `</span>`: most end tags of a page), when each rule that can meet it then
    /// pops just that element and records its end tag: the element is in every scope
    /// (it is the current node), "generate implied end tags" stops at it (it is the
    /// current node, or the tag excepted), and the popping ends with it. Excluded: the
    /// tags whose rules do more (`body`, `html`, `form`, `template`, `br`, the
    /// marker-pushing `applet`, `marquee`, `object`, the formatting elements, whose
    /// list entry the adoption agency algorithm removes) and uninterned names (compared
    /// by text, in "any other end tag"). Called before the end tag rules, without their
    /// scope checks (costly for `</p>`, through `close_p`); false leaves the token to
    /// the rules.
    ///
    /// Also the adoption agency algorithm's common case (see
    /// [`TreeBuilder::adoption_agency`]): a formatting element's end tag (`</a>`, `</b>`)
    /// when it is the current node and the list of active formatting elements' last
    /// entry: popped from both, without the end tag rules' frame and the call.
    #[inline(always)]
    fn in_body_end_of_current(&mut self, tag: &TagTok<'a>) -> bool {
        if !tag.end {
            return false;
        }
        if !tag.tag.end_pops_current_only() {
            return Name::html(tag.tag).is_formatting() && self.close_current_formatting(tag);
        }
        match self.open.current() {
            Some((id, name)) if name.is_html(tag.tag) => {
                self.open.pop_current(id, name);
                self.doc.element_mut(id).set_end(tag.span);
                true
            }
            _ => false,
        }
    }

    // 13.2.6.4.7 The "in body" insertion mode
    pub(crate) fn in_body(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => self.in_body_characters(text),
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                Done
            }
            Tok::Doctype(_) => Done,
            Tok::Eof => {
                if !self.template_modes.is_empty() {
                    return self.in_template(tok);
                }
                self.done = true;
                Done
            }
            Tok::Tag(tag) if uses_in_head_rules(tag) => self.in_head(tok),
            Tok::Tag(tag) => self.in_body_tag(tag),
        }
    }

    /// The "in body" rules for a tag they do not hand to the "in head" rules: start tags,
    /// and end tags (those of the current node's name first, on the short path of
    /// [`Self::in_body_end_of_current`]). Inlined into `in_body` and into the tokenizer's
    /// sink (`Drive`), which calls it for most tags of a page without `in_body`'s frame.
    #[inline(always)]
    pub(super) fn in_body_tag(&mut self, tag: &mut TagTok<'a>) -> Step {
        if !tag.end {
            match tag.tag.in_body_start() {
                InBodyStart::ClosesPThenInserts => {
                    // `in_body_start_tag`'s rule for these tags (`<div>`, `<p>`, …),
                    // without its frame and match.
                    self.close_p_in_button_scope();
                    self.insert_html_element(tag);
                }
                InBodyStart::Ordinary => self.reconstruct_then_insert(tag),
                InBodyStart::Formatting => self.reconstruct_then_insert_formatting(tag),
                InBodyStart::A => self.in_body_start_a(tag),
                InBodyStart::ListItem => self.in_body_start_list_item(tag),
                InBodyStart::Rules | InBodyStart::Dispatcher => {
                    return self.in_body_start_tag(tag);
                }
            }
            Done
        } else if self.in_body_end_of_current(tag) {
            Done
        } else {
            self.in_body_end_tag(tag)
        }
    }

    /// "Any other start tag" (13.2.6.4.7): "reconstruct the active formatting elements,
    /// if any; insert an HTML element for the token". Out of line, so that the tokenizer's
    /// sink, which inlines [`Self::in_body_tag`] (the tags [`Tag::in_body_start`] names),
    /// grows by a call; [`Self::in_body_start_tag`] calls it for the other tags.
    #[inline(never)]
    fn reconstruct_then_insert(&mut self, tag: &mut TagTok<'a>) {
        self.reconstruct_active_formatting();
        // The element insertion in this frame (as `insert_html_element`'s own copy), not
        // a call of it: a second frame per `<span>`, `<code>`, `<sup>`.
        self.insert_element(tag, Ns::Html);
    }

    /// The formatting start tags' rule (`b`, `code`, `em`, …, not `a` or `nobr`).
    #[inline(never)]
    fn reconstruct_then_insert_formatting(&mut self, tag: &mut TagTok<'a>) {
        self.reconstruct_active_formatting();
        self.insert_formatting_inlined(tag);
    }

    /// The "in body" rule for an `a` start tag.
    #[inline(never)]
    fn in_body_start_a(&mut self, tag: &mut TagTok<'a>) {
        if let Some((_, a)) = self.active.find_after_last_marker(Tag::A) {
            let end = TagTok {
                end: true,
                ..TagTok::implied(Tag::A, tag.span.start)
            };
            if !self.adoption_agency(&end) {
                self.any_other_end_tag(&end);
            }
            self.active.remove(a);
            self.open.remove(a);
        }
        self.reconstruct_active_formatting();
        self.insert_formatting_inlined(tag);
    }

    /// The "in body" rule for an `li`, `dd` or `dt` start tag (13.2.6.4.7), out of line
    /// as [`Self::in_body_start_a`], without [`Self::in_body_start_tag`]'s frame and
    /// match.
    #[inline(never)]
    fn in_body_start_list_item(&mut self, tag: &mut TagTok<'a>) {
        use Tag::*;
        self.set_frameset_not_ok();
        let is_li = tag.tag == Li;
        // "Loop": from the current node down the stack.
        for i in (0..self.open.len()).rev() {
            let name = self.open.get(i).1;
            let closes = if is_li {
                name.is_html(Li)
            } else {
                name.is_html(Dd) || name.is_html(Dt)
            };
            if closes {
                self.open.generate_implied_end_tags(Some(name.tag));
                self.open.pop_until(name.tag);
                break;
            }
            // "If node is in the special category, but is not an address, div, or p
            // element, then jump to the step labeled done": the list itself (`ul`, `ol`,
            // `dl`, special) is the common current node, answered without the call.
            if name.ns == Ns::Html && matches!(name.tag, Ul | Ol | Dl) {
                break;
            }
            if name.is_special() && !(name.ns == Ns::Html && matches!(name.tag, Address | Div | P))
            {
                break;
            }
        }
        // "Done": close a `p` element, insert (in this frame, as `reconstruct_then_insert`).
        self.close_p_in_button_scope();
        self.insert_element(tag, Ns::Html);
    }

    /// The start tag rules but for the tags whose rule [`Tag::in_body_start`] names (the
    /// close-p-then-insert group, `div`, `p`, …; the plain insertions, `a`, the formatting
    /// tags, `li`/`dd`/`dt`), which [`Self::in_body_tag`] runs itself.
    fn in_body_start_tag(&mut self, tag: &mut TagTok<'a>) -> Step {
        use Tag::*;
        debug_assert!(
            matches!(
                tag.tag.in_body_start(),
                InBodyStart::Rules | InBodyStart::Dispatcher
            ),
            "handled by in_body_tag"
        );
        match tag.tag {
            Html => {
                if !self.has_template() {
                    let html = self.open.get(0).0;
                    self.add_missing_attrs(html, tag);
                }
            }
            Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style | Template
            | Title => unreachable!("handled by in_body with the in head rules"),
            Body => {
                if self.open.len() == 1 || !self.open.get(1).1.is_html(Body) || self.has_template()
                {
                    return Done;
                }
                self.set_frameset_not_ok();
                let body = self.open.get(1).0;
                self.add_missing_attrs(body, tag);
            }
            Frameset => {
                if self.open.len() == 1 || !self.open.get(1).1.is_html(Body) || !self.frameset_ok {
                    return Done;
                }
                let body = self.open.get(1).0;
                self.doc.detach(body);
                self.open.truncate(1);
                self.insert_html_element(tag);
                self.set_mode(Mode::InFrameset);
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.close_p_in_button_scope();
                if self.current_name().is_some_and(|n| {
                    n.ns == Ns::Html && matches!(n.tag, H1 | H2 | H3 | H4 | H5 | H6)
                }) {
                    self.open.pop();
                }
                self.insert_html_element(tag);
            }
            Pre | Listing => {
                self.close_p_in_button_scope();
                self.insert_html_element(tag);
                self.set_skip_newline(true);
                self.set_frameset_not_ok();
            }
            Form => {
                let in_template = self.has_template();
                if self.form != NONE && !in_template {
                    return Done;
                }
                self.close_p_in_button_scope();
                let id = self.insert_html_element(tag);
                if !in_template {
                    self.form = id;
                }
            }
            Plaintext => {
                self.close_p_in_button_scope();
                self.insert_html_element(tag);
                self.switch_tokenizer(State::Plaintext);
            }
            Button => {
                if self.open.has_in_scope(Button, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                    self.open.pop_until(Button);
                }
                self.reconstruct_active_formatting();
                self.insert_html_element(tag);
                self.set_frameset_not_ok();
            }
            // `a`, the formatting group (`b`, `big`, `code`, …, `u`) and `li`/`dd`/`dt`
            // are run by `in_body_tag` ([`Tag::in_body_start`]), never here.
            Nobr => {
                self.reconstruct_active_formatting();
                if self.open.has_in_scope(Nobr, Scope::Default) {
                    let end = TagTok {
                        end: true,
                        ..TagTok::implied(Nobr, tag.span.start)
                    };
                    if !self.adoption_agency(&end) {
                        self.any_other_end_tag(&end);
                    }
                    self.reconstruct_active_formatting();
                }
                self.insert_formatting(tag);
            }
            Applet | Marquee | Object => {
                self.reconstruct_active_formatting();
                self.insert_html_element(tag);
                self.active.push_marker();
                self.set_frameset_not_ok();
            }
            Table => {
                if self.doc.quirks != crate::dom::QuirksMode::Quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_html_element(tag);
                self.set_frameset_not_ok();
                self.set_mode(Mode::InTable);
            }
            Area | Br | Embed | Img | Keygen | Wbr => {
                self.reconstruct_active_formatting();
                self.insert_void(tag);
                self.set_frameset_not_ok();
            }
            Input => {
                if self.context.is_some_and(|(_, n)| n.is_html(Select)) {
                    return Done;
                }
                if self.open.has_in_scope(Select, Scope::Default) {
                    self.open.pop_until(Select);
                }
                self.reconstruct_active_formatting();
                let hidden = self
                    .tag_attr(tag, "type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden"));
                self.insert_void(tag);
                if !hidden {
                    self.set_frameset_not_ok();
                }
            }
            Param | Source | Track => {
                self.insert_void(tag);
            }
            Hr => {
                self.close_p_in_button_scope();
                if self.open.has_in_scope(Select, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                }
                self.insert_void(tag);
                self.set_frameset_not_ok();
            }
            Image => {
                tag.tag = Img;
                return Reprocess;
            }
            Textarea => {
                self.insert_html_element(tag);
                self.set_skip_newline(true);
                self.switch_tokenizer(State::Rcdata);
                self.original_mode = self.mode;
                self.set_frameset_not_ok();
                self.set_mode(Mode::Text);
            }
            Xmp => {
                self.close_p_in_button_scope();
                self.reconstruct_active_formatting();
                self.set_frameset_not_ok();
                self.parse_raw_text(tag, State::Rawtext);
            }
            Iframe => {
                self.set_frameset_not_ok();
                self.parse_raw_text(tag, State::Rawtext);
            }
            Noembed => self.parse_raw_text(tag, State::Rawtext),
            Noscript if self.opts.scripting => self.parse_raw_text(tag, State::Rawtext),
            Select => {
                if self.context.is_some_and(|(_, n)| n.is_html(Select)) {
                    // Ignored: a select in a select fragment.
                } else if self.open.has_in_scope(Select, Scope::Default) {
                    self.open.pop_until(Select);
                } else {
                    self.reconstruct_active_formatting();
                    self.insert_html_element(tag);
                    self.set_frameset_not_ok();
                }
            }
            Option => {
                if self.open.has_in_scope(Select, Scope::Default) {
                    self.open.generate_implied_end_tags(Some(Optgroup));
                } else if self.open.current_is(Option) {
                    self.open.pop();
                }
                self.reconstruct_active_formatting();
                self.insert_html_element(tag);
            }
            Optgroup => {
                if self.open.has_in_scope(Select, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                } else if self.open.current_is(Option) {
                    self.open.pop();
                }
                self.reconstruct_active_formatting();
                self.insert_html_element(tag);
            }
            Rb | Rtc => {
                if self.open.has_in_scope(Ruby, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                }
                self.insert_html_element(tag);
            }
            Rp | Rt => {
                if self.open.has_in_scope(Ruby, Scope::Default) {
                    self.open.generate_implied_end_tags(Some(Rtc));
                }
                self.insert_html_element(tag);
            }
            Math | Svg => {
                self.reconstruct_active_formatting();
                let ns = if tag.tag == Math { Ns::MathMl } else { Ns::Svg };
                self.adjust_foreign_attrs(tag, ns);
                self.insert_foreign_element(tag, ns);
                if tag.self_closing {
                    self.open.pop();
                }
            }
            Caption | Col | Colgroup | Frame | Head | Tbody | Td | Tfoot | Th | Thead | Tr => {}
            Selectedcontent => {
                // "Any other start tag" (no rule of its own); the one place an HTML
                // `selectedcontent` element is created, so the document learns here that
                // its selects' copies are to be made (`select.rs`), not in `new_element`
                // for every element.
                self.doc.has_selectedcontent = true;
                self.reconstruct_then_insert(tag);
            }
            _ => self.reconstruct_then_insert(tag),
        }
        Done
    }

    fn in_body_end_tag(&mut self, tag: &mut TagTok<'a>) -> Step {
        use Tag::*;
        match tag.tag {
            Template => unreachable!("handled by in_body with the in head rules"),
            Body => {
                if self.open.has_in_scope(Body, Scope::Default) {
                    if let Some((id, _)) = self.open.items().get(1).copied()
                        && self.name_of(id).is_html(Body)
                    {
                        self.doc.element_mut(id).set_end(tag.span);
                    }
                    self.set_mode(Mode::AfterBody);
                }
            }
            Html => {
                if self.open.has_in_scope(Body, Scope::Default) {
                    self.set_mode(Mode::AfterBody);
                    return Reprocess;
                }
            }
            Address | Article | Aside | Blockquote | Button | Center | Details | Dialog | Dir
            | Div | Dl | Fieldset | Figcaption | Figure | Footer | Header | Hgroup | Listing
            | Main | Menu | Nav | Ol | Pre | Search | Section | Select | Summary | Ul => {
                if self.open.has_in_scope(tag.tag, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                    self.pop_until_closing(tag.tag, tag.span);
                }
            }
            Form => {
                if !self.has_template() {
                    let node = std::mem::replace(&mut self.form, NONE);
                    if node == NONE || !self.open.has_node_in_scope(node, Scope::Default) {
                        return Done;
                    }
                    self.open.generate_implied_end_tags(None);
                    self.open.remove(node);
                    self.doc.element_mut(node).set_end(tag.span);
                } else if self.open.has_in_scope(Form, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                    self.pop_until_closing(Form, tag.span);
                }
            }
            P => {
                if !self.open.has_in_scope(P, Scope::Button) {
                    self.insert_implied(P, tag.span.start);
                }
                self.close_p(Some(tag.span));
            }
            Li => {
                if self.open.has_in_scope(Li, Scope::ListItem) {
                    self.open.generate_implied_end_tags(Some(Li));
                    self.pop_until_closing(Li, tag.span);
                }
            }
            Dd | Dt => {
                if self.open.has_in_scope(tag.tag, Scope::Default) {
                    self.open.generate_implied_end_tags(Some(tag.tag));
                    self.pop_until_closing(tag.tag, tag.span);
                }
            }
            H1 | H2 | H3 | H4 | H5 | H6 => {
                let heading =
                    |n: Name| n.ns == Ns::Html && matches!(n.tag, H1 | H2 | H3 | H4 | H5 | H6);
                if self.open.has_matching_in_scope(heading, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                    if let Some(id) = self.open.pop_until_matching(heading) {
                        self.doc.element_mut(id).set_end(tag.span);
                    }
                }
            }
            A | B | Big | Code | Em | Font | I | Nobr | S | Small | Strike | Strong | Tt | U => {
                if !self.adoption_agency(tag) {
                    self.any_other_end_tag(tag);
                }
            }
            Applet | Marquee | Object => {
                if self.open.has_in_scope(tag.tag, Scope::Default) {
                    self.open.generate_implied_end_tags(None);
                    self.pop_until_closing(tag.tag, tag.span);
                    self.active.clear_to_last_marker();
                }
            }
            Br => {
                let mut start = TagTok::implied(Br, tag.span.start);
                start.span = tag.span;
                self.reconstruct_active_formatting();
                self.insert_void(&mut start);
                self.set_frameset_not_ok();
            }
            _ => {
                self.any_other_end_tag(tag);
            }
        }
        Done
    }

    /// "Any other end tag" in body.
    pub(super) fn any_other_end_tag(&mut self, tag: &TagTok<'a>) {
        for i in (0..self.open.len()).rev() {
            let (id, name) = self.open.get(i);
            if name.ns == Ns::Html && self.same_name(id, name, tag) {
                self.open
                    .generate_implied_end_tags(Some(tag.tag).filter(|&t| t != Tag::Unknown));
                self.open.truncate(i);
                self.doc.element_mut(id).set_end(tag.span);
                return;
            }
            if name.is_special() {
                return;
            }
        }
    }

    // 13.2.6.4.8 The "text" insertion mode
    pub(super) fn text(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                // A raw text (script, style, title: see `Mark::Raw`) is inserted as it
                // is: this rule reads nothing of it.
                match text.mark {
                    Mark::Raw(kind) => self.insert_characters(Characters::Raw {
                        span: text.span,
                        kind,
                    }),
                    _ => self.insert_characters(text.characters()),
                }
                Done
            }
            Tok::Eof => {
                self.open.pop();
                self.set_mode(self.original_mode);
                Reprocess
            }
            Tok::Tag(tag) if tag.end => {
                if let Some((id, _)) = self.open.pop() {
                    self.doc.element_mut(id).set_end(tag.span);
                }
                self.set_mode(self.original_mode);
                Done
            }
            _ => Done,
        }
    }

    // 13.2.6.4.9 The "in table" insertion mode
    pub(super) fn in_table(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        match tok {
            Tok::Text(text)
                if self.current_name().is_some_and(|n| {
                    n.ns == Ns::Html && matches!(n.tag, Table | Tbody | Tfoot | Thead | Tr)
                }) =>
            {
                self.pending_table_text.clear();
                self.original_mode = self.mode;
                self.set_mode(Mode::InTableText);
                // "Reprocess the token": the current node is an HTML table element, so
                // the dispatcher would not take the foreign content rules, and "in table
                // text" appends a character token to the pending list. Done here, not by
                // another trip through the dispatcher: the whitespace between table tags
                // (`<tr>\n<td>`) is common.
                self.pending_table_text_push(text);
                Done
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                Done
            }
            Tok::Doctype(_) => Done,
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Caption => {
                    self.open.clear_back_to_table_context();
                    self.active.push_marker();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InCaption);
                    Done
                }
                Colgroup => {
                    self.open.clear_back_to_table_context();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InColumnGroup);
                    Done
                }
                Col => {
                    self.open.clear_back_to_table_context();
                    self.insert_implied(Colgroup, tag.span.start);
                    self.set_mode(Mode::InColumnGroup);
                    Reprocess
                }
                Tbody | Tfoot | Thead => {
                    self.open.clear_back_to_table_context();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InTableBody);
                    Done
                }
                Td | Th | Tr => {
                    self.open.clear_back_to_table_context();
                    self.insert_implied(Tbody, tag.span.start);
                    self.set_mode(Mode::InTableBody);
                    Reprocess
                }
                Table => {
                    if !self.open.has_in_scope(Table, Scope::Table) {
                        return Done;
                    }
                    self.open.pop_until(Table);
                    self.reset_insertion_mode();
                    Reprocess
                }
                Style | Script | Template => self.in_head(tok),
                Input
                    if self
                        .tag_attr(tag, "type")
                        .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
                {
                    self.insert_void(tag);
                    Done
                }
                Form => {
                    if self.has_template() || self.form != NONE {
                        return Done;
                    }
                    self.form = self.insert_void(tag);
                    Done
                }
                _ => self.in_table_anything_else(tok),
            },
            Tok::Tag(tag) => match tag.tag {
                Table => {
                    if self.open.has_in_scope(Table, Scope::Table) {
                        self.pop_until_closing(Table, tag.span);
                        self.reset_insertion_mode();
                    }
                    Done
                }
                Body | Caption | Col | Colgroup | Html | Tbody | Td | Tfoot | Th | Thead | Tr => {
                    Done
                }
                Template => self.in_head(tok),
                _ => self.in_table_anything_else(tok),
            },
            Tok::Eof => self.in_body(tok),
            Tok::Text(_) => self.in_table_anything_else(tok),
        }
    }

    /// "In table", anything else: in body with foster parenting.
    fn in_table_anything_else(&mut self, tok: &mut Tok<'a>) -> Step {
        self.foster_parenting = true;
        let step = self.in_body(tok);
        self.foster_parenting = false;
        step
    }

    // 13.2.6.4.10 The "in table text" insertion mode
    pub(super) fn in_table_text(&mut self, tok: &mut Tok<'a>) -> Step {
        if let Tok::Text(text) = tok {
            self.pending_table_text_push(text);
            return Done;
        }
        // Drained, then given back: the list keeps its allocation for the next table
        // text (consumed, it was allocated again and grown for each one).
        let mut pending = std::mem::take(&mut self.pending_table_text);
        if pending.iter().any(|t| !t.is_all_ws()) {
            self.foster_parenting = true;
            for piece in pending.drain(..) {
                self.body_text(piece);
            }
            self.foster_parenting = false;
        } else {
            // Inserted where they lie (`TextTok::characters`), then dropped together:
            // moved out one by one, each piece would be copied and dropped.
            for piece in pending.iter_mut() {
                self.insert_characters(piece.characters());
            }
            pending.clear();
        }
        self.pending_table_text = pending;
        self.set_mode(self.original_mode);
        Reprocess
    }

    /// "In table text"'s rule for a character token: U+0000 dropped (a parse error), the
    /// rest appended to the pending table character tokens. Inlined into its two callers
    /// ("in table text" and "in table"'s text rule, which runs it at once).
    #[inline(always)]
    fn pending_table_text_push(&mut self, text: &mut TextTok<'a>) {
        if text.has_nul() {
            self.pending_table_text.extend(text.without_nul());
        } else {
            // The token is done with: its text is moved, not cloned (cloned, a decoded
            // text would be copied and the original freed).
            self.pending_table_text.push(TextTok {
                text: std::mem::take(&mut text.text),
                ..*text
            });
        }
    }

    // 13.2.6.4.11 The "in caption" insertion mode
    pub(super) fn in_caption(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            let closes = if tag.end {
                matches!(tag.tag, Caption | Table)
            } else {
                matches!(
                    tag.tag,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                )
            };
            if closes {
                if !self.open.has_in_scope(Caption, Scope::Table) {
                    return Done;
                }
                self.open.generate_implied_end_tags(None);
                let end = tag.end && tag.tag == Caption;
                if let Some(id) = self.open.pop_until(Caption)
                    && end
                {
                    self.doc.element_mut(id).set_end(tag.span);
                }
                self.active.clear_to_last_marker();
                self.set_mode(Mode::InTable);
                return if end { Done } else { Reprocess };
            }
            if tag.end
                && matches!(
                    tag.tag,
                    Body | Col | Colgroup | Html | Tbody | Td | Tfoot | Th | Thead | Tr
                )
            {
                return Done;
            }
        }
        self.in_body(tok)
    }

    // 13.2.6.4.12 The "in column group" insertion mode
    pub(super) fn in_column_group(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        match tok {
            Tok::Text(text) => {
                if self.insert_leading_ws(text) {
                    return Done;
                }
                if !self.open.current_is(Colgroup) {
                    self.column_group_ignored_text(text);
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                return Done;
            }
            Tok::Doctype(_) => return Done,
            Tok::Tag(tag) if !tag.end && tag.tag == Html => return self.in_body(tok),
            Tok::Tag(tag) if !tag.end && tag.tag == Col => {
                self.insert_void(tag);
                return Done;
            }
            Tok::Tag(tag) if tag.end && tag.tag == Colgroup => {
                if self.open.current_is(Colgroup) {
                    if let Some((id, _)) = self.open.pop() {
                        self.doc.element_mut(id).set_end(tag.span);
                    }
                    self.set_mode(Mode::InTable);
                }
                return Done;
            }
            Tok::Tag(tag) if tag.end && tag.tag == Col => return Done,
            Tok::Tag(tag) if tag.tag == Template => return self.in_head(tok),
            Tok::Eof => return self.in_body(tok),
            _ => {}
        }
        if !self.open.current_is(Colgroup) {
            return Done;
        }
        self.open.pop();
        self.set_mode(Mode::InTable);
        Reprocess
    }

    /// 13.2.6.4.12 "in column group" for the rest of a run of characters that starts
    /// with one that is not whitespace, when the current node is not a `colgroup` (a
    /// template's contents, `<template><col>`, or a `colgroup` fragment): the rules take
    /// one character at a time, so each non-whitespace one is "anything else" (a parse
    /// error, ignored) and the whitespace after it is inserted again. The mode and the
    /// current node do not change, so the rest of the run takes the same two rules.
    #[cold]
    #[inline(never)]
    fn column_group_ignored_text(&mut self, text: &TextTok<'a>) {
        // Each whitespace piece sliced from the token, not the rest split off again and
        // again (which copied an owned text's rest per piece).
        let bytes = text.text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let ws = at + bytes[at..].iter().take_while(|&&c| !is_ws(c)).count();
            at = ws + bytes[ws..].iter().take_while(|&&c| is_ws(c)).count();
            if at > ws {
                self.insert_characters(text.slice(ws, at).characters());
            }
        }
    }

    // 13.2.6.4.13 The "in table body" insertion mode
    pub(super) fn in_table_body(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            match (tag.end, tag.tag) {
                (false, Tr) => {
                    self.open.clear_back_to_table_body_context();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InRow);
                    return Done;
                }
                (false, Th | Td) => {
                    self.open.clear_back_to_table_body_context();
                    self.insert_implied(Tr, tag.span.start);
                    self.set_mode(Mode::InRow);
                    return Reprocess;
                }
                (true, Tbody | Tfoot | Thead) => {
                    if self.open.has_in_scope(tag.tag, Scope::Table) {
                        self.open.clear_back_to_table_body_context();
                        if let Some((id, _)) = self.open.pop() {
                            self.doc.element_mut(id).set_end(tag.span);
                        }
                        self.set_mode(Mode::InTable);
                    }
                    return Done;
                }
                (false, Caption | Col | Colgroup | Tbody | Tfoot | Thead) | (true, Table) => {
                    if !self.open.has_matching_in_scope(
                        |n| n.ns == Ns::Html && matches!(n.tag, Tbody | Thead | Tfoot),
                        Scope::Table,
                    ) {
                        return Done;
                    }
                    self.open.clear_back_to_table_body_context();
                    self.open.pop();
                    self.set_mode(Mode::InTable);
                    return Reprocess;
                }
                (true, Body | Caption | Col | Colgroup | Html | Td | Th | Tr) => return Done,
                _ => {}
            }
        }
        self.in_table(tok)
    }

    // 13.2.6.4.14 The "in row" insertion mode
    pub(super) fn in_row(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            match (tag.end, tag.tag) {
                (false, Th | Td) => {
                    self.in_row_cell_start(tag);
                    return Done;
                }
                (true, Tr) => {
                    if self.open.has_in_scope(Tr, Scope::Table) {
                        self.open.clear_back_to_table_row_context();
                        if let Some((id, _)) = self.open.pop() {
                            self.doc.element_mut(id).set_end(tag.span);
                        }
                        self.set_mode(Mode::InTableBody);
                    }
                    return Done;
                }
                (false, Caption | Col | Colgroup | Tbody | Tfoot | Thead | Tr) | (true, Table) => {
                    // The common case, the row the current node (`<tr><td>x</td><tr>`): it
                    // is in table scope and the clearing leaves it; popped. "Reprocess the
                    // token" in "in table body": with a table section the current node
                    // (HTML, so not the foreign content rules), a `<tr>` takes that mode's
                    // row rule (whose clearing then leaves the section), run here.
                    if let Some((id, name)) = self.open.current()
                        && name.is_html(Tr)
                    {
                        return self.close_current_row(id, name, tag);
                    }
                    if !self.open.has_in_scope(Tr, Scope::Table) {
                        return Done;
                    }
                    self.open.clear_back_to_table_row_context();
                    self.open.pop();
                    self.set_mode(Mode::InTableBody);
                    return Reprocess;
                }
                (true, Tbody | Tfoot | Thead) => {
                    if !self.open.has_in_scope(tag.tag, Scope::Table) {
                        return Done;
                    }
                    if !self.open.has_in_scope(Tr, Scope::Table) {
                        return Done;
                    }
                    self.open.clear_back_to_table_row_context();
                    self.open.pop();
                    self.set_mode(Mode::InTableBody);
                    return Reprocess;
                }
                (true, Body | Caption | Col | Colgroup | Html | Td | Th) => return Done,
                _ => {}
            }
        }
        self.in_table(tok)
    }

    /// "In row"'s rule for the tags that end the row (`tr`, the table sections, `caption`,
    /// `col`, `colgroup`, `</table>`) when the row, `(id, name)`, is the current node: it
    /// is in table scope and clearing the stack back to a table row context leaves it, so
    /// it is popped, and the token reprocessed in "in table body". With a table section
    /// then the current node (HTML, so not the foreign content rules), a `<tr>` takes that
    /// mode's row rule (whose clearing leaves the section), run here.
    #[inline(always)]
    fn close_current_row(&mut self, id: NodeId, name: Name, tag: &mut TagTok<'a>) -> Step {
        use Tag::*;
        self.open.pop_current(id, name);
        self.set_mode(Mode::InTableBody);
        if !tag.end
            && tag.tag == Tr
            && self
                .open
                .current_name()
                .is_some_and(|n| n.ns == Ns::Html && matches!(n.tag, Tbody | Thead | Tfoot))
        {
            self.insert_html_element(tag);
            self.set_mode(Mode::InRow);
            return Step::Done;
        }
        Step::Reprocess
    }

    /// "In row"'s rule for a `td` or `th` start tag.
    #[inline(always)]
    fn in_row_cell_start(&mut self, tag: &mut TagTok<'a>) {
        self.open.clear_back_to_table_row_context();
        self.insert_html_element(tag);
        self.set_mode(Mode::InCell);
        self.active.push_marker();
    }

    // 13.2.6.4.15 The "in cell" insertion mode
    pub(crate) fn in_cell(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            match (tag.end, tag.tag) {
                (true, Td | Th) => {
                    // The common case, the cell the current node (`<td>x</td>`): it is
                    // in table scope, "generate implied end tags" stops at it (a cell
                    // is not in that list), and the popping ends with it.
                    if let Some((id, name)) = self.open.current()
                        && name.is_html(tag.tag)
                    {
                        self.open.pop_current(id, name);
                        self.doc.element_mut(id).set_end(tag.span);
                        self.active.clear_to_last_marker();
                        self.set_mode(Mode::InRow);
                        return Done;
                    }
                    if self.open.has_in_scope(tag.tag, Scope::Table) {
                        self.open.generate_implied_end_tags(None);
                        self.pop_until_closing(tag.tag, tag.span);
                        self.active.clear_to_last_marker();
                        self.set_mode(Mode::InRow);
                    }
                    return Done;
                }
                (false, Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr) => {
                    // The common case, the cell the current node (`<td>x<td>`): it is
                    // in table scope, and closing it pops just it.
                    if self.close_current_cell() {
                        // "Reprocess the token" in "in row": with the row the current
                        // node (HTML, so the dispatcher would not take the foreign content
                        // rules), a `<td>` or `<th>` (`<td>x<td>`) takes "in row"'s cell
                        // rule, run here without the dispatcher's second step.
                        if matches!(tag.tag, Td | Th) && self.open.current_is(Tr) {
                            self.in_row_cell_start(tag);
                            return Done;
                        }
                        // A `<tr>` (`<td>x<tr>`) takes "in row"'s rule for it, which with
                        // the row the current node is `close_current_row`, run here
                        // without the dispatcher's second step.
                        if tag.tag == Tr
                            && let Some((id, name)) = self.open.current()
                            && name.is_html(Tr)
                        {
                            return self.close_current_row(id, name, tag);
                        }
                        return Reprocess;
                    }
                    if !self.open.has_matching_in_scope(
                        |n| n.ns == Ns::Html && matches!(n.tag, Td | Th),
                        Scope::Table,
                    ) {
                        return Done;
                    }
                    self.close_cell();
                    return Reprocess;
                }
                (true, Body | Caption | Col | Colgroup | Html) => return Done,
                (true, Table | Tbody | Tfoot | Thead | Tr) => {
                    if !self.open.has_in_scope(tag.tag, Scope::Table) {
                        return Done;
                    }
                    self.close_cell();
                    return Reprocess;
                }
                _ => {}
            }
        }
        self.in_body(tok)
    }

    // 13.2.6.4.16 The "in select" and 13.2.6.4.17 "in select in table" insertion modes
    // are gone in the rules the html5lib tests follow (2026): a select's content is
    // parsed by "in body", whose select, option, optgroup, hr and input rules say how.

    // 13.2.6.4.18 The "in template" insertion mode
    pub(super) fn in_template(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        match tok {
            Tok::Text(_) | Tok::Comment(..) | Tok::Doctype(_) => self.in_body(tok),
            Tok::Tag(tag) if !tag.end => {
                let new_mode = match tag.tag {
                    Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style
                    | Template | Title => return self.in_head(tok),
                    Caption | Colgroup | Tbody | Tfoot | Thead => Mode::InTable,
                    Col => Mode::InColumnGroup,
                    Tr => Mode::InTableBody,
                    Td | Th => Mode::InRow,
                    _ => Mode::InBody,
                };
                self.template_modes.pop();
                self.template_modes.push(new_mode);
                self.set_mode(new_mode);
                Reprocess
            }
            Tok::Tag(tag) => {
                if tag.tag == Template {
                    self.in_head(tok)
                } else {
                    Done
                }
            }
            Tok::Eof => {
                if !self.has_template() {
                    self.done = true;
                    return Done;
                }
                self.open.pop_until(Template);
                self.active.clear_to_last_marker();
                self.template_modes.pop();
                self.reset_insertion_mode();
                Reprocess
            }
        }
    }

    // 13.2.6.4.19 The "after body" insertion mode
    pub(super) fn after_body(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                if let Some(ws) = text.split_leading_ws() {
                    self.body_text(ws);
                }
                if text.text.is_empty() {
                    return Done;
                }
            }
            Tok::Comment(data, span) => {
                let html = self.open.get(0).0;
                self.insert_comment(data.clone(), *span, Some(html));
                return Done;
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
            Tok::Eof => {
                self.done = true;
                return Done;
            }
            _ => {}
        }
        self.set_mode(Mode::InBody);
        Reprocess
    }

    // 13.2.6.4.20 The "in frameset" insertion mode
    pub(super) fn in_frameset(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                // Only the whitespace characters are inserted; the others are ignored.
                if let Some(mut ws) = text.whitespace_only() {
                    self.insert_characters(ws.characters());
                }
                Done
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                Done
            }
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
            Tok::Eof => {
                self.done = true;
                Done
            }
            _ => Done,
        }
    }

    // 13.2.6.4.21 The "after frameset" insertion mode
    pub(super) fn after_frameset(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                // Only the whitespace characters are inserted; the others are ignored.
                if let Some(mut ws) = text.whitespace_only() {
                    self.insert_characters(ws.characters());
                }
                Done
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                Done
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => self.in_body(tok),
            Tok::Tag(tag) if tag.end && tag.tag == Tag::Html => {
                let html = self.open.get(0).0;
                self.doc.element_mut(html).set_end(tag.span);
                self.set_mode(Mode::AfterAfterFrameset);
                Done
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Noframes => self.in_head(tok),
            Tok::Eof => {
                self.done = true;
                Done
            }
            _ => Done,
        }
    }

    // 13.2.6.4.22 The "after after body" insertion mode
    pub(super) fn after_after_body(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, Some(0));
                return Done;
            }
            Tok::Doctype(_) => return self.in_body(tok),
            Tok::Text(text) => {
                if let Some(ws) = text.split_leading_ws() {
                    self.body_text(ws);
                }
                if text.text.is_empty() {
                    return Done;
                }
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => return self.in_body(tok),
            Tok::Eof => {
                self.done = true;
                return Done;
            }
            _ => {}
        }
        self.set_mode(Mode::InBody);
        Reprocess
    }

    // 13.2.6.4.23 The "after after frameset" insertion mode
    pub(super) fn after_after_frameset(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, Some(0));
                Done
            }
            Tok::Doctype(_) => self.in_body(tok),
            Tok::Text(text) => {
                if let Some(ws) = text.whitespace_only() {
                    self.body_text(ws);
                }
                Done
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Html => self.in_body(tok),
            Tok::Tag(tag) if !tag.end && tag.tag == Tag::Noframes => self.in_head(tok),
            Tok::Eof => {
                self.done = true;
                Done
            }
            _ => Done,
        }
    }
}
