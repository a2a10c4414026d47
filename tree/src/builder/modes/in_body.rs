//! 13.2.6.4.7 The "in body" insertion mode: every rule of it, in the standard's order
//! (characters, then start tags, then end tags), with the shortcuts the tokenizer's sink
//! takes (`super::super::drive`) named where they lead.

use htmltok::{Span, State, TextKind};

use crate::builder::state::{Mode, Step, TreeBuilder};
use crate::builder::token::{Mark, TagTok, TextTok, Tok};
use crate::dom::{Characters, LazyKind, NONE, NodeId};
use crate::names::{ALL_TAGS, Name, Ns, Tag};
use crate::stack::Scope;

use Step::{Done, Reprocess};

impl<'a> TreeBuilder<'a> {
    /// The characters rule of "in body": NULs dropped, the active formatting elements
    /// reconstructed, frameset-ok cleared by anything but whitespace.
    pub(in crate::builder) fn body_text(&mut self, mut text: TextTok<'a>) {
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

    /// Shortcut of 13.2.6.4.7 "in body", "any other character token" and "a character
    /// token that is U+0000", taken by the tokenizer's sink (`Drive`) without the
    /// dispatcher for a run of the data state's text whose first character is not U+0000,
    /// while frameset-ok is "not ok": "reconstruct the active formatting elements" and
    /// "insert the character" for each character but U+0000 ("ignore the token"); setting
    /// frameset-ok to "not ok" again changes nothing, and nothing else of the text decides
    /// what the rules do. The first character does the reconstruction, which then has
    /// nothing left to do for the others; the text is stored as its span
    /// (`Dom::insert_lazy_text`), its U+0000 dropped when it is decoded.
    ///
    /// The common case is a leaf: nothing to reconstruct, and no `template` open, so that
    /// 13.2.6.1's "appropriate place for inserting a node" is after the current node's
    /// last child (foster parenting is on only while "in table" runs these rules, never
    /// for the tokenizer's sink, which calls this). Every other case is a tail call
    /// ([`Self::in_body_lazy_text_general`], or `Dom::append_lazy_text`'s own). With
    /// calls to come back from on its path, the function would save and restore
    /// registers for every text.
    pub(crate) fn in_body_lazy_text(&mut self, span: Span) {
        debug_assert_eq!(self.dispatched_mode(None), Mode::InBody);
        debug_assert!(!self.frameset_ok);
        debug_assert!(!self.foster_parenting);
        // The leaf's place is the appropriate place for inserting a node.
        debug_assert!(
            self.formatting_to_reconstruct()
                || self.open.contains_tag(Tag::Template)
                || self
                    .open
                    .current()
                    .is_none_or(|(parent, _)| self.insertion_place(None) == (parent, NONE))
        );
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

    /// Shortcut of 13.2.6.4.7 "in body", "any other character token", for a raw text
    /// (`Mark::Raw`: decoding may change it) while frameset-ok is "not ok": the active
    /// formatting elements reconstructed and the text inserted undecoded, as its span of
    /// the input and its kind (the document decodes it when it is read), without the
    /// decoding the rules' U+0000 test would take: a raw text decodes to none
    /// (`Mark::Raw`).
    fn in_body_raw_text(&mut self, span: Span, kind: TextKind) {
        debug_assert!(!self.frameset_ok);
        debug_assert!(!kind.decode(self.input, span).contains('\0'));
        self.reconstruct_active_formatting();
        self.insert_characters(Characters::Raw { span, kind });
    }

    /// The "in body" rules for characters. Called by the tokenizer's sink (`Drive`) for
    /// text (the most common token), without `in_body`'s large frame (the sink asserts
    /// that the dispatcher would run "in body"'s rules).
    pub(in crate::builder) fn in_body_characters(&mut self, text: &mut TextTok<'a>) -> Step {
        self.body_text_mut(text);
        Done
    }

    /// Shortcut of 13.2.6.4.7 "in body"'s end tag rules ("an end tag whose tag name is one
    /// of: "address", "article", …", "li", "dd", "dt", "p", "h1" to "h6", "any other end
    /// tag") for an end tag of the current node's name (`</p>`, `</div>`,
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
    /// Always inlined: otherwise a call for most end tags, in the sink's `in_body_tag`.
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
                debug_assert!(!uses_in_head_rules(tag) && tag.tag != Tag::Unknown);
                // "Generate implied end tags" stops at the element: the rules that run it
                // for a special element but `li`, `dd`, `dt`, `p` except no name.
                debug_assert!(
                    !self.open.implies_end_of_current(
                        (!name.is_special()
                            || matches!(tag.tag, Tag::Li | Tag::Dd | Tag::Dt | Tag::P))
                        .then_some(tag.tag)
                    )
                );
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
            Tok::Comment(data, span) => self.comment_rule(data.clone(), *span, None),
            Tok::Doctype(_) => Done,
            Tok::Eof => {
                if !self.template_modes.is_empty() {
                    return self.in_template(tok);
                }
                self.stop_parsing()
            }
            Tok::Tag(tag) if uses_in_head_rules(tag) => self.in_head(tok),
            Tok::Tag(tag) => self.in_body_tag(tag),
        }
    }

    /// The "in body" rules for a tag they do not hand to the "in head" rules: start tags,
    /// and end tags (those of the current node's name first, on the short path of
    /// [`Self::in_body_end_of_current`]). Inlined into `in_body` and into the tokenizer's
    /// sink (`Drive`), which calls it for most tags of a page without `in_body`'s frame.
    /// The common start tags' rules ([`Tag::in_body_start`]) are run here, not in
    /// [`Self::in_body_start_tag`]'s match.
    #[inline(always)]
    pub(in crate::builder) fn in_body_tag(&mut self, tag: &mut TagTok<'a>) -> Step {
        debug_assert!(!uses_in_head_rules(tag), "for the in head rules");
        if !tag.end {
            match tag.tag.in_body_start() {
                InBodyStart::ClosesPThenInserts => {
                    // 13.2.6.4.7's rule for these tags (`<div>`, `<p>`, …): "if the stack
                    // of open elements has a p element in button scope, close a p
                    // element; insert an HTML element for the token".
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
                debug_assert!(name.is_special());
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
    fn any_other_end_tag(&mut self, tag: &TagTok<'a>) {
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

    /// "Close a p element".
    fn close_p(&mut self, end: Option<Span>) {
        self.open.generate_implied_end_tags(Some(Tag::P));
        if let Some(p) = self.open.pop_until(Tag::P)
            && let Some(span) = end
        {
            self.doc.element_mut(p).set_end(span);
        }
    }

    /// "If the stack of open elements has a p element in button scope, then close a p
    /// element."
    ///
    /// The common answer (no HTML `p` open at all: the stack's count) inlined into the
    /// callers, the scope walk out of line: most block start tags (`<div>`, `<p>`, `<ul>`,
    /// …) ask it, and out of line it would be a call each.
    #[inline(always)]
    fn close_p_in_button_scope(&mut self) {
        debug_assert!(
            self.open.contains_tag(Tag::P) || !self.open.has_in_scope(Tag::P, Scope::Button)
        );
        if self.open.contains_tag(Tag::P) {
            self.close_p_if_in_button_scope();
        }
    }

    #[inline(never)]
    fn close_p_if_in_button_scope(&mut self) {
        if self.open.has_in_scope(Tag::P, Scope::Button) {
            self.close_p(None);
        }
    }

    /// Adds missing attributes to an element (a second `<html>` or `<body>`).
    fn add_missing_attrs(&mut self, id: NodeId, tag: &mut TagTok<'a>) {
        if tag.has_attrs {
            self.doc.add_missing_attrs(self.input, id);
        }
    }
}

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

/// Whether the "in body" rules for an end tag `tag`, met when the current node is the
/// HTML element `tag`, do nothing but pop it and record the end tag (see
/// `TreeBuilder::in_body_end_of_current`): every tag but those whose rules do more (`body`,
/// `html`, `form`, `template`, `br`; the marker-pushing `applet`, `marquee`, `object`; the
/// formatting elements, whose list entry the adoption agency algorithm removes) and
/// [`Tag::Unknown`] (compared by text). A table indexed by the tag's id, so that the
/// check is one load (a `match` on the set cost the parse loop more than it saved).
static END_POPS_CURRENT_ONLY: [bool; 256] = {
    use Tag::*;
    let mut table = [false; 256];
    let mut i = 0;
    while i < ALL_TAGS.len() {
        let tag = ALL_TAGS[i];
        table[tag as usize] = !(matches!(
            tag,
            Body | Html | Form | Template | Br | Applet | Marquee | Object
        ) || Name::html(tag).is_formatting());
        i += 1;
    }
    table
};

/// How the "in body" rules (13.2.6.4.7) begin for a start tag, by the tag's id
/// ([`IN_BODY_START`]): one load tells the tokenizer's sink (`Drive`) whether the tag is
/// its to run, and `TreeBuilder::in_body_tag` which rule runs without the start tag rules'
/// frame and match (on the dense spec pages, `<code>`, `<span>`, `<var>`, `<dfn>`: most
/// start tags). (A flag per question, as three tables and two `matches!`, cost the sink
/// about a dozen instructions a start tag.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InBodyStart {
    /// None of the rules below: the start tag rules decide.
    Rules,
    /// The tags "in body" processes "using the rules for the in head insertion mode"
    /// (`uses_in_head_rules`), and those whose rules switch the tokenizer's state
    /// (13.2.6.2, and `plaintext`, `textarea`): the sink leaves them to the dispatcher, so
    /// that the parse loop reads the state to switch to only after a token the dispatcher
    /// ran.
    Dispatcher,
    /// "If the stack of open elements has a p element in button scope, close a p element;
    /// insert an HTML element for the token" and nothing else (`div`, `p`, `ul`,
    /// `section`, …: 13.2.6.4.7's first group of that shape).
    ClosesPThenInserts,
    /// "Any other start tag": "reconstruct the active formatting elements, if any; insert
    /// an HTML element for the token" (`span`, `var`, `dfn`, custom names, …). Only tags
    /// with no rule of their own in 13.2.6.4.7 (nor in the "in head" rules it defers to).
    Ordinary,
    /// "A start tag whose tag name is one of: b, big, code, em, font, i, s, small, strike,
    /// strong, tt, u": reconstruct, insert, "push onto the list of active formatting
    /// elements that element".
    Formatting,
    /// `a`: its formatting rule, after the step that closes an `a` still open after the
    /// last marker.
    A,
    /// `li`, `dd`, `dt`: close an open list item of the kind (unless a special element
    /// other than `address`, `div`, `p` comes first), close a `p` in button scope,
    /// insert (on Wikipedia pages, `<li>` is most of the start tags left to the start
    /// tag rules).
    ListItem,
}

/// [`InBodyStart`] by the tag's id, as [`END_POPS_CURRENT_ONLY`]. [`Tag::Unknown`] (a
/// name not interned) is "any other start tag".
static IN_BODY_START: [InBodyStart; 256] = {
    use InBodyStart::*;
    let mut table = [Rules; 256];
    table[Tag::Unknown as usize] = Ordinary;
    table[Tag::A as usize] = A;
    table = with_rule(table, LIST_ITEM_START_TAGS, ListItem);
    table = with_rule(table, IN_HEAD_START_TAGS, Dispatcher);
    table = with_rule(table, SWITCHING_START_TAGS, Dispatcher);
    table = with_rule(table, CLOSES_P_THEN_INSERTS_START_TAGS, ClosesPThenInserts);
    table = with_rule(table, ORDINARY_START_TAGS, Ordinary);
    with_rule(table, FORMATTING_START_TAGS, Formatting)
};

/// `table` with `rule` for each of `tags`.
const fn with_rule(
    mut table: [InBodyStart; 256],
    tags: &[Tag],
    rule: InBodyStart,
) -> [InBodyStart; 256] {
    let mut i = 0;
    while i < tags.len() {
        table[tags[i] as usize] = rule;
        i += 1;
    }
    table
}

/// "A start tag whose tag name is "li"" and "… one of: "dd", "dt"" ([`InBodyStart::ListItem`]).
const LIST_ITEM_START_TAGS: &[Tag] = &[Tag::Li, Tag::Dd, Tag::Dt];

/// The start tags "in body" processes "using the rules for the in head insertion mode"
/// ([`uses_in_head_rules`]).
const IN_HEAD_START_TAGS: &[Tag] = {
    use Tag::*;
    &[
        Base, Basefont, Bgsound, Link, Meta, Noframes, Script, Style, Template, Title,
    ]
};

/// The start tags whose "in body" rules switch the tokenizer's state (13.2.6.2, and
/// `plaintext`, `textarea`).
const SWITCHING_START_TAGS: &[Tag] = {
    use Tag::*;
    &[Iframe, Noembed, Noscript, Plaintext, Textarea, Xmp]
};

/// 13.2.6.4.7's "a start tag whose tag name is one of: "address", "article", … "ul"":
/// close a `p` in button scope, insert ([`InBodyStart::ClosesPThenInserts`]).
const CLOSES_P_THEN_INSERTS_START_TAGS: &[Tag] = {
    use Tag::*;
    &[
        Address, Article, Aside, Blockquote, Center, Details, Dialog, Dir, Div, Dl, Fieldset,
        Figcaption, Figure, Footer, Header, Hgroup, Main, Menu, Nav, Ol, P, Search, Section,
        Summary, Ul,
    ]
};

/// Interned tags with no rule of their own in 13.2.6.4.7 (nor in the "in head" rules it
/// defers to): "any other start tag" ([`InBodyStart::Ordinary`]).
const ORDINARY_START_TAGS: &[Tag] = {
    use Tag::*;
    &[
        Abbr, Audio, Bdi, Bdo, Canvas, Cite, Data, Datalist, Del, Dfn, Ins, Kbd, Label, Legend,
        Map, Mark, Meter, Output, Picture, Progress, Q, Ruby, Samp, Slot, Span, Sub, Sup, Time,
        Var, Video,
    ]
};

/// "A start tag whose tag name is one of: "b", "big", "code", "em", "font", "i", "s",
/// "small", "strike", "strong", "tt", "u"" ([`InBodyStart::Formatting`]).
const FORMATTING_START_TAGS: &[Tag] = {
    use Tag::*;
    &[B, Big, Code, Em, Font, I, S, Small, Strike, Strong, Tt, U]
};

impl Tag {
    /// See [`IN_BODY_START`].
    pub(crate) fn in_body_start(self) -> InBodyStart {
        IN_BODY_START[self as usize]
    }

    /// See [`END_POPS_CURRENT_ONLY`]. (A tag's id is below 256, as the stack's per-tag
    /// counts also assume.)
    pub(crate) fn end_pops_current_only(self) -> bool {
        END_POPS_CURRENT_ONLY[self as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::{ALL_TAGS, InBodyStart, TagTok, uses_in_head_rules};
    use crate::names::Tag;

    /// The start tags the sink leaves to the dispatcher (`InBodyStart::Dispatcher`) are
    /// those "in body" gives the "in head" rules and those whose rules switch the
    /// tokenizer's state.
    #[test]
    fn dispatcher_start_tags() {
        for &tag in ALL_TAGS {
            use Tag::*;
            let switches = matches!(
                tag,
                Iframe | Noembed | Noscript | Plaintext | Textarea | Xmp
            );
            assert_eq!(
                tag.in_body_start() == InBodyStart::Dispatcher,
                uses_in_head_rules(&TagTok::implied(tag, 0)) || switches,
                "{tag:?}"
            );
        }
    }
}
