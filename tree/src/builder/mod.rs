//! 13.2.6 Tree construction: the tree builder's state (13.2.4), the dispatcher, and the
//! algorithms the insertion modes share (creating and inserting nodes, the adoption agency
//! algorithm, reconstructing the active formatting elements, resetting the insertion
//! mode). The insertion modes are in `modes.rs`, one function each; the rules for foreign
//! content in `foreign.rs`.
//!
//! The builder drives htmltok's tokenizer (simulation off): after each token it tells the
//! tokenizer the state a start tag switched it to (RCDATA after `<title>`, …) and whether
//! the adjusted current node is foreign (which allows `<![CDATA[`).

mod foreign;
mod modes;
mod quirks;
mod token;

use std::borrow::Cow;

use htmltok::{Span, State, Tokenizer};

use crate::dom::{Characters, Dom, NONE, NodeData, NodeId};
use crate::formatting::{ActiveFormatting, Entry};
use crate::names::{AttrNs, Name, Ns, Tag};
use crate::stack::{OpenElements, Scope};

pub(crate) use token::{Drive, Mark, TagTok, TextTok, Tok};

/// 13.2.4.1 The insertion modes. The 2026 rules for `<select>` (which the html5lib tests
/// follow) parse a select's content with the "in body" rules, so the old "in select" and
/// "in select in table" modes are gone.
///
/// "In body" and "in cell" come first, out of the spec's order: the tokenizer's sink
/// (`Drive`) runs the "in body" rules itself in those two modes, and with them as 0 and 1
/// [`TreeBuilder::sink_bits`] tells them with one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    InBody,
    InCell,
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InTemplate,
    AfterBody,
    InFrameset,
    AfterFrameset,
    AfterAfterBody,
    AfterAfterFrameset,
}

/// [`TreeBuilder::sink`]'s bits: what the tokenizer's sink (`Drive`) runs itself when the
/// adjusted current node is an HTML element.
pub(crate) mod sink {
    /// The insertion mode is "in body" or "in cell" and no leading newline is to be skipped:
    /// the sink runs the "in body" rules' first step for text and most tags.
    pub(crate) const IN_BODY: u8 = 1;
    /// The mode is "in cell" (with [`IN_BODY`]): its own table tags are left to the
    /// dispatcher.
    pub(crate) const IN_CELL: u8 = 2;
    /// With [`IN_BODY`], frameset-ok is "not ok": a data run is inserted as its span
    /// (`in_body_lazy_text`).
    pub(crate) const LAZY_TEXT: u8 = 4;
    /// The mode is "text" and no leading newline is to be skipped: a RAWTEXT or script data
    /// run is inserted as its span (`Characters::Lazy`, as 13.2.6.4.8 "text" inserts it).
    pub(crate) const TEXT_MODE: u8 = 8;
}

/// What an insertion mode did with a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Handled.
    Done,
    /// "Reprocess the token" in the (possibly new) current insertion mode.
    Reprocess,
    /// Reprocess with the current insertion mode's rules, not the foreign content rules
    /// (13.2.6.5's "process the token according to the rules given in the section
    /// corresponding to the current insertion mode in HTML content").
    ReprocessHtml,
}

/// The parse options.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    pub(crate) scripting: bool,
    /// See `Parser::simulated_feedback`.
    pub(crate) simulated_feedback: bool,
}

/// The tree builder.
pub(crate) struct TreeBuilder<'a> {
    /// The input, whose bytes the arena names by span.
    pub(crate) input: &'a [u8],
    /// The input as a `&str` when the caller gave one (`Parser::parse_str`): its text
    /// tokens are then decoded without validating their UTF-8 again.
    pub(crate) input_str: Option<&'a str>,
    pub(crate) doc: Dom,
    pub(crate) opts: Options,
    pub(crate) mode: Mode,
    pub(crate) original_mode: Mode,
    pub(crate) template_modes: Vec<Mode>,
    pub(crate) open: OpenElements,
    pub(crate) active: ActiveFormatting,
    pub(crate) head: NodeId,
    pub(crate) form: NodeId,
    pub(crate) frameset_ok: bool,
    pub(crate) foster_parenting: bool,
    /// Skip a leading newline in the next token (after `<pre>`, `<listing>`,
    /// `<textarea>`).
    pub(crate) skip_newline: bool,
    /// What the tokenizer's sink (`Drive`) may run itself, as [`sink`]'s bits: a function of
    /// `mode`, `frameset_ok` and `skip_newline`, kept up to date by their setters
    /// ([`Self::set_mode`], [`Self::set_frameset_not_ok`], [`Self::set_skip_newline`]),
    /// which are the only writes of those fields. The sink tested the three for every
    /// token; they change a few times a table row.
    pub(crate) sink: u8,
    pub(crate) pending_table_text: Vec<TextTok<'a>>,
    /// The fragment parsing context element (13.4), not in the tree.
    pub(crate) context: Option<(NodeId, Name)>,
    /// The tokenizer state a token asked for, applied before the next token.
    pub(crate) switch_to: Option<State>,
    pub(crate) done: bool,
}

impl<'a> TreeBuilder<'a> {
    pub(crate) fn new(input: &'a [u8], opts: Options) -> TreeBuilder<'a> {
        TreeBuilder {
            input,
            input_str: None,
            doc: Dom::new(input.len()),
            opts,
            mode: Mode::Initial,
            original_mode: Mode::Initial,
            template_modes: Vec::new(),
            open: OpenElements::new(),
            active: ActiveFormatting::default(),
            head: NONE,
            form: NONE,
            frameset_ok: true,
            foster_parenting: false,
            skip_newline: false,
            sink: 0,
            pending_table_text: Vec::new(),
            context: None,
            switch_to: None,
            done: false,
        }
    }

    /// Runs the tokenizer to the end, building the tree.
    pub(crate) fn run(self, tokenizer: Tokenizer<'a>) -> Dom {
        self.drive::<false>(tokenizer)
    }

    /// Builds the tree from a tokenizer that simulates tree construction itself
    /// (`Builder::simulation`): the builder tells it nothing, so the tree shows what the
    /// simulation decided. For the differential test of the simulator against this
    /// builder only (`Parser::simulated_feedback`).
    pub(crate) fn run_simulated(self, tokenizer: Tokenizer<'a>) -> Dom {
        self.drive::<true>(tokenizer)
    }

    /// The loop of [`Self::run`]; with `SIMULATED`, that of [`Self::run_simulated`]
    /// (the switches and the foreign-content flag not passed on).
    fn drive<const SIMULATED: bool>(self, tokenizer: Tokenizer<'a>) -> Dom {
        // Both moved into this frame. Passed by value, each is the caller's memory behind
        // a pointer, and this loop (too large to keep two pointers in registers) would
        // reload them from the stack before most field accesses. A local of the frame is
        // addressed from the stack pointer.
        let (mut this, mut tokenizer) = (self, tokenizer);
        loop {
            let foreign = this.adjusted_current_is_foreign();
            if !SIMULATED {
                tokenizer.set_foreign_content(foreign);
            }
            // The common case, "in body" with an HTML current node, is run by the sink
            // itself (`Drive`); it hands back the tokens it leaves to the dispatcher.
            debug_assert_eq!(
                this.sink,
                this.sink_bits(),
                "a field written past its setter"
            );
            // The sink's bits as they are before this token (none for foreign content).
            let sink = if foreign { 0 } else { this.sink };
            let next = tokenizer.next_token_into(&mut Drive::<'_, '_, SIMULATED> {
                builder: &mut this,
                sink,
            });
            if let Some(mut tok) = next {
                if let Tok::Text(text) = &mut tok {
                    // The text after `<pre>`, `<listing>` ("in body") or `<textarea>`
                    // ("text"), raw: its leading newline skipped on its bytes when they
                    // tell (`TextTok::skip_raw_leading_newline`), for the two modes'
                    // rules, which insert a raw text as it is. Decoded first, a long
                    // `pre` would be decoded and copied for nothing.
                    if this.skip_newline
                        && !foreign
                        && matches!(text.mark, Mark::Raw(_))
                        && matches!(this.mode, Mode::InBody | Mode::InCell | Mode::Text)
                        && text.skip_raw_leading_newline()
                    {
                        this.set_skip_newline(false);
                        if text.text.is_empty() {
                            continue;
                        }
                    }
                    // A raw text the sink did not insert: decoded for the rules that
                    // read it (see `Mark::Raw`), all but the "text" mode's (script,
                    // style, title), which inserts it as it is (its leading newline
                    // skipped, for a `textarea` or `pre`, on the decoded text), and "in
                    // body"'s (also for "in cell"), which decodes it if it must.
                    if matches!(text.mark, Mark::Raw(_))
                        && (foreign
                            || this.skip_newline
                            || !matches!(this.mode, Mode::InBody | Mode::InCell | Mode::Text))
                    {
                        text.decode_raw();
                    }
                    if text.text.is_empty() {
                        continue;
                    }
                }
                if this.skip_newline {
                    this.set_skip_newline(false);
                    if let Tok::Text(text) = &mut tok {
                        text.skip_leading_newline();
                        if text.text.is_empty() {
                            continue;
                        }
                    }
                }
                let eof = matches!(tok, Tok::Eof);
                this.dispatch(&mut tok);
                if eof || this.done {
                    break;
                }
                // Read, and cleared only when set (rare): `take` wrote it back every
                // token. Only the dispatcher's steps set it: the sink leaves the tags
                // whose rules switch the tokenizer to it (`InBodyStart::Dispatcher`), so
                // a token the sink finished needs no test.
                if let Some(state) = this.switch_to {
                    this.switch_to = None;
                    if !SIMULATED {
                        tokenizer.set_state(state);
                    }
                }
            }
            debug_assert!(this.switch_to.is_none());
        }
        // The text buffer grew by doubling: its slack given back (one `realloc`, usually
        // in place), so that a kept document holds what its text needs.
        this.doc.text.shrink_to_fit();
        this.doc.finish_tag_attrs();
        this.open.give_back();
        this.doc
    }

    /// 13.2.6 The tree construction dispatcher: the insertion mode's rules or the rules
    /// for parsing tokens in foreign content, until the token is handled. (The common
    /// "in body" tokens do not come here: `Drive`, the tokenizer's sink, runs their first
    /// step.)
    #[inline(always)]
    fn dispatch(&mut self, tok: &mut Tok<'a>) {
        let mut step = Step::Reprocess;
        while step != Step::Done {
            let for_foreign = step == Step::Reprocess && self.is_foreign_token(tok);
            step = if for_foreign {
                self.foreign_content(tok)
            } else {
                self.process_in_mode(tok)
            };
        }
    }

    /// Processes `tok` with the rules of the current insertion mode.
    pub(crate) fn process_in_mode(&mut self, tok: &mut Tok<'a>) -> Step {
        self.process_in(self.mode, tok)
    }

    /// Processes `tok` with the rules of `mode` (the spec's "using the rules for").
    pub(crate) fn process_in(&mut self, mode: Mode, tok: &mut Tok<'a>) -> Step {
        match mode {
            Mode::Initial => self.initial(tok),
            Mode::BeforeHtml => self.before_html(tok),
            Mode::BeforeHead => self.before_head(tok),
            Mode::InHead => self.in_head(tok),
            Mode::InHeadNoscript => self.in_head_noscript(tok),
            Mode::AfterHead => self.after_head(tok),
            Mode::InBody => self.in_body(tok),
            Mode::Text => self.text(tok),
            Mode::InTable => self.in_table(tok),
            Mode::InTableText => self.in_table_text(tok),
            Mode::InCaption => self.in_caption(tok),
            Mode::InColumnGroup => self.in_column_group(tok),
            Mode::InTableBody => self.in_table_body(tok),
            Mode::InRow => self.in_row(tok),
            Mode::InCell => self.in_cell(tok),
            Mode::InTemplate => self.in_template(tok),
            Mode::AfterBody => self.after_body(tok),
            Mode::InFrameset => self.in_frameset(tok),
            Mode::AfterFrameset => self.after_frameset(tok),
            Mode::AfterAfterBody => self.after_after_body(tok),
            Mode::AfterAfterFrameset => self.after_after_frameset(tok),
        }
    }

    // ----- 13.2.4 parse state -----

    /// 13.2.4.2 The adjusted current node: the context element when parsing a fragment
    /// with only the `html` element open, else the current node.
    pub(crate) fn adjusted_current(&self) -> Option<(NodeId, Name)> {
        match self.context {
            Some(ctx) if self.open.len() == 1 => Some(ctx),
            _ => self.open.current(),
        }
    }

    /// Whether the adjusted current node is an element outside the HTML namespace: asked
    /// before every token. With no foreign element on the stack and no fragment context
    /// (nearly every token of a page) the answer is no, from one count rarely written
    /// (`OpenElements::has_foreign`, which counts the context too); reading the current
    /// node's name would take two dependent loads (the stack's length, then its last
    /// entry) at the top of every turn of the loop.
    #[inline(always)]
    pub(crate) fn adjusted_current_is_foreign(&self) -> bool {
        if !self.open.has_foreign() {
            return false;
        }
        self.adjusted_current_is_foreign_general()
    }

    #[cold]
    #[inline(never)]
    fn adjusted_current_is_foreign_general(&self) -> bool {
        self.adjusted_current()
            .is_some_and(|(_, n)| n.ns != Ns::Html)
    }

    pub(crate) fn current_name(&self) -> Option<Name> {
        self.open.current_name()
    }

    /// True when the stack has an HTML `template` element.
    pub(crate) fn has_template(&self) -> bool {
        self.open.contains_tag(Tag::Template)
    }

    /// Whether element `id` (with `name`) has the token's tag name: by id for interned
    /// names, by text otherwise.
    pub(crate) fn same_name(&self, id: NodeId, name: Name, tag: &TagTok<'a>) -> bool {
        if name.tag != tag.tag {
            return false;
        }
        name.tag != Tag::Unknown || self.doc.local_name(self.input, id) == tag.other_name
    }

    // ----- 13.2.6.1 creating and inserting nodes -----

    /// The appropriate place for inserting a node: (parent, the node to insert before or
    /// NONE for "after its last child").
    #[inline]
    pub(crate) fn insertion_place(&self, override_target: Option<NodeId>) -> (NodeId, NodeId) {
        let (target, target_name) = match override_target {
            Some(t) => (t, self.name_of(t)),
            None => match self.open.current() {
                Some(c) => c,
                None => return (0, NONE),
            },
        };
        let foster = self.foster_parenting
            && target_name.ns == Ns::Html
            && matches!(
                target_name.tag,
                Tag::Table | Tag::Tbody | Tag::Tfoot | Tag::Thead | Tag::Tr
            );
        if !foster {
            // The common case, answered from the target's name without reading the DOM:
            // only a template has its contents as the place.
            if !target_name.is_html(Tag::Template) {
                return (target, NONE);
            }
            return self.template_contents_place(target, NONE);
        }
        let (parent, before) = self.foster_place();
        self.template_contents_place(parent, before)
    }

    /// Foster parenting's place (13.2.6.1 step 2): before the last table, or in the last
    /// template after it.
    #[cold]
    fn foster_place(&self) -> (NodeId, NodeId) {
        let items = self.open.items();
        let last_template = items.iter().rposition(|e| e.1.is_html(Tag::Template));
        let last_table = items.iter().rposition(|e| e.1.is_html(Tag::Table));
        match (last_template, last_table) {
            (Some(tp), Some(tb)) if tp > tb => (items[tp].0, NONE),
            (Some(tp), None) => (items[tp].0, NONE),
            (_, None) => (items[0].0, NONE),
            (_, Some(tb)) => {
                let table = items[tb].0;
                let parent = self.doc.nodes[table as usize].parent;
                if parent != NONE {
                    (parent, table)
                } else {
                    (items[tb - 1].0, NONE)
                }
            }
        }
    }

    /// "If the adjusted insertion location is inside a template element, let it instead
    /// be inside the template element's template contents".
    fn template_contents_place(&self, parent: NodeId, before: NodeId) -> (NodeId, NodeId) {
        if let NodeData::Element(e) = &self.doc.nodes[parent as usize].data
            && let Some(contents) = e.template_contents()
        {
            return (contents, NONE);
        }
        (parent, before)
    }

    /// The value of attribute `name` (no namespace) of the tag being processed, decoded.
    pub(crate) fn tag_attr(&self, tag: &TagTok<'a>, name: &str) -> Option<Cow<'a, str>> {
        if !tag.has_attrs {
            return None;
        }
        self.doc
            .tag_attrs()
            .iter()
            .find(|a| a.ns == AttrNs::None && self.doc.bytes(self.input, a.name) == name.as_bytes())
            .map(|a| a.value(self.input))
    }

    pub(crate) fn name_of(&self, id: NodeId) -> Name {
        self.doc.element(id).name
    }

    #[inline]
    fn insert_at(&mut self, (parent, before): (NodeId, NodeId), child: NodeId) {
        if before == NONE {
            self.doc.append(parent, child);
        } else {
            self.doc.insert_before(before, child);
        }
    }

    /// Creates an element for a tag token in `ns` (13.2.6.1 "create an element for the
    /// token"), with the adjustments of foreign content already applied to the token.
    #[inline(always)]
    pub(crate) fn create_element(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> (NodeId, Name) {
        let tag_id = tag.tag;
        // "Adjust SVG tag name" changes no interned name (`foreignObject` is interned and
        // spelled by `Name::known_local_name`), so only an uninterned SVG name is looked
        // up: `<path>`, `<g>`, `<svg>` skip the list.
        let local = if tag_id != Tag::Unknown {
            None
        } else if ns == Ns::Svg
            && let Some(adjusted) = crate::names::adjust_svg_tag_name(&tag.other_name)
        {
            Some(self.doc.store(self.input, Cow::Borrowed(adjusted)))
        } else {
            Some(self.doc.store(self.input, tag.other_name.clone()))
        };
        debug_assert!(
            tag_id == Tag::Unknown
                || ns != Ns::Svg
                || crate::names::adjust_svg_tag_name(tag.name()).is_none()
        );
        let name = Name { ns, tag: tag_id };
        // Known while the attributes are the tag's; compiled out of `insert_html_element`,
        // which knows the namespace.
        let integration_point = ns == Ns::MathMl
            && tag_id == Tag::AnnotationXml
            && tag.has_attrs
            && self.doc.encoding_is_html_integration_point(self.input);
        let id = self.doc.new_element(name, local, tag.has_attrs, tag.span);
        if integration_point {
            self.doc.element_mut(id).html_integration_point = true;
        }
        (id, name)
    }

    /// 13.2.6.1 "insert an HTML element" for a start tag: at the appropriate place, and
    /// pushed onto the stack of open elements.
    /// Its own copy of [`Self::insert_element`] with the namespace known, so that the
    /// SVG name adjustment and the MathML checks are compiled out of the common case.
    #[inline(never)]
    pub(crate) fn insert_html_element(&mut self, tag: &mut TagTok<'a>) -> NodeId {
        self.insert_element(tag, Ns::Html)
    }

    /// 13.2.6.1 "insert a foreign element".
    pub(crate) fn insert_foreign_element(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> NodeId {
        self.insert_element(tag, ns)
    }

    /// "Insert a foreign element" in `ns` ("insert an HTML element" is the same in the
    /// HTML namespace). In the HTML namespace, the common case first
    /// ([`Self::append_html_element`]); every other case is a call.
    #[inline(always)]
    pub(crate) fn insert_element(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> NodeId {
        if ns == Ns::Html {
            if let Some(id) = self.append_html_element(tag) {
                return id;
            }
            return self.insert_html_element_general(tag);
        }
        self.insert_element_in(tag, ns)
    }

    /// "Insert an HTML element" when 13.2.6.1's "appropriate place for inserting a node"
    /// is after the current node's last child (no foster parenting, and no `template` on
    /// the stack, so that the current node is not one) and the element is made of its
    /// tag alone (an interned name, not `template`): through `Dom::append_element`, whose
    /// links are written once. None, doing nothing, in every other case. The stack's
    /// push inlined too (`OpenElements::push_html_with_room`): left a call, it would give
    /// back nearly all of the gain. Room in the arena and on the stack is tested first,
    /// and the element pushed onto the stack before the DOM makes it, so that nothing
    /// grows on this path and its one call (the arena order's walk) is the last, a tail
    /// call, and the path saves fewer registers.
    #[inline(always)]
    fn append_html_element(&mut self, tag: &TagTok<'a>) -> Option<NodeId> {
        let (parent, _) = self.open.current()?;
        if self.foster_parenting
            || tag.tag == Tag::Unknown
            || tag.tag == Tag::Template
            || self.open.contains_tag(Tag::Template)
        {
            return None;
        }
        let id = self.doc.next_id_with_room()?;
        let name = Name::html(tag.tag);
        if !self.open.push_html_with_room(id, name) {
            return None;
        }
        Some(
            self.doc
                .append_element(id, parent, name, tag.has_attrs, tag.span),
        )
    }

    /// [`Self::insert_element`] in the HTML namespace, in every case.
    #[inline(never)]
    fn insert_html_element_general(&mut self, tag: &mut TagTok<'a>) -> NodeId {
        self.insert_element_in(tag, Ns::Html)
    }

    /// [`Self::insert_element`] in every case.
    #[inline(always)]
    fn insert_element_in(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> NodeId {
        let place = self.insertion_place(None);
        let (id, name) = self.create_element(tag, ns);
        self.insert_at(place, id);
        self.open.push(id, name);
        id
    }

    /// Inserts an HTML element the parser implies (no token: `<html>`, `<head>`, `<body>`,
    /// `<tbody>`, …), with an empty span at `at`.
    pub(crate) fn insert_implied(&mut self, tag: Tag, at: usize) -> NodeId {
        let mut t = TagTok::implied(tag, at);
        self.insert_html_element(&mut t)
    }

    /// Inserts an element and pops it at once (void elements).
    pub(crate) fn insert_void(&mut self, tag: &mut TagTok<'a>) -> NodeId {
        let id = self.insert_html_element(tag);
        self.open.pop();
        id
    }

    /// 13.2.6.1 "insert a character" (a run of them) at the appropriate place: the one
    /// entry for text in every form the rules hold it ([`Characters`]: decoded, raw or
    /// lazy); the document decides how to store it ([`Dom::insert_characters`]).
    #[inline(always)]
    pub(crate) fn insert_characters(&mut self, characters: Characters<'_, 'a>) {
        let (parent, before) = self.insertion_place(None);
        // Text is never a child of the document, node 0 (the only `NodeData::Document`):
        // compared by id, the parent's node is not read.
        if parent == 0 {
            return;
        }
        self.doc
            .insert_characters(self.input, parent, before, characters);
    }

    /// 13.2.6.1 "insert a comment", at the appropriate place or as the last child of
    /// `parent`.
    pub(crate) fn insert_comment(
        &mut self,
        data: Cow<'a, str>,
        span: Span,
        parent: Option<NodeId>,
    ) {
        let place = match parent {
            Some(p) => (p, NONE),
            None => self.insertion_place(None),
        };
        let id = self.doc.new_comment(self.input, data, span);
        self.insert_at(place, id);
    }

    /// Inserts a formatting element and pushes it onto the list of active formatting
    /// elements.
    ///
    /// Its own copy of the element insertion (as [`Self::insert_html_element`]), not a
    /// call of it: a formatting element (`<code>`, `<a>`, `<b>`) paid two frames. Out of
    /// line for the rare callers (`nobr`); the two common rules (`a`, and `b`, `code`, …)
    /// inline [`Self::insert_formatting_inlined`] into their own out-of-line functions.
    #[inline(never)]
    pub(crate) fn insert_formatting(&mut self, tag: &mut TagTok<'a>) {
        self.insert_formatting_inlined(tag);
    }

    /// [`Self::insert_formatting`] in the caller's frame: the `a` rule and the other
    /// formatting start tags' rule, out of line themselves, would pay a second frame for
    /// it on every formatting element.
    #[inline(always)]
    pub(crate) fn insert_formatting_inlined(&mut self, tag: &mut TagTok<'a>) {
        let id = self.insert_element(tag, Ns::Html);
        // The name `insert_html_element` gave it (formatting tags are interned), not read
        // back from the DOM.
        let name = Name::html(tag.tag);
        debug_assert_eq!(name, self.name_of(id));
        let (doc, input) = (&self.doc, self.input);
        self.active.push(
            id,
            name,
            |e| attrs_key(doc, input, e),
            |other| same_attrs(doc, input, id, other),
        );
    }

    // ----- 13.2.4.3 reconstructing the active formatting elements -----

    /// Steps 1 to 3 (nothing to reconstruct: the list is empty, or its last entry is a
    /// marker or an open element), inlined into the callers: they answer for almost
    /// every text and start tag.
    #[inline(always)]
    pub(crate) fn reconstruct_active_formatting(&mut self) {
        if self.formatting_to_reconstruct() {
            self.reconstruct_from_rewind();
        }
    }

    /// Whether steps 1 to 3 leave anything to reconstruct: false when the list is empty
    /// or its last entry is a marker or an element on the stack of open elements.
    #[inline(always)]
    pub(crate) fn formatting_to_reconstruct(&self) -> bool {
        match self.active.last() {
            None | Some(Entry::Marker) => false,
            Some(Entry::Element(id, _)) => !self.open.contains(id),
        }
    }

    /// Steps 4 to 10: rewind to the first entry to reconstruct, then create the rest.
    #[inline(never)]
    fn reconstruct_from_rewind(&mut self) {
        let len = self.active.len();
        let mut i = len - 1;
        while i > 0 {
            match self.active.get(i - 1) {
                Entry::Marker => break,
                Entry::Element(id, _) if self.open.contains(id) => break,
                _ => i -= 1,
            }
        }
        for j in i..len {
            let Entry::Element(old, name) = self.active.get(j) else {
                unreachable!("no marker after the rewind point")
            };
            let place = self.insertion_place(None);
            let new = self.doc.clone_element(old);
            self.insert_at(place, new);
            self.open.push(new, name);
            self.active.set(j, Entry::Element(new, name));
        }
    }

    // ----- 13.2.6.4.7 the adoption agency algorithm -----

    /// Runs the adoption agency algorithm for an end tag `tag`; false when the caller must
    /// instead act as for "any other end tag". The common case inlined into the callers:
    /// the rest ([`Self::adoption_agency_steps`]) is a large function whose frame (every
    /// register saved) cost the common case more than its own work.
    #[inline]
    pub(crate) fn adoption_agency(&mut self, tag: &TagTok<'a>) -> bool {
        self.close_current_formatting(tag) || self.adoption_agency_steps(tag)
    }

    /// The adoption agency algorithm's common case, which "in body" also tries first for
    /// the end tags of formatting elements: when the current node is an HTML element of
    /// the tag's name and the list's last entry (`<b>…</b>`), it is the formatting
    /// element of 4.3 (the last `subject` after the last marker) and the shortcut of
    /// steps 4.4 to 4.8 applies: it is popped and removed from the list, without searching
    /// the list twice. False (nothing done) otherwise.
    #[inline(always)]
    pub(crate) fn close_current_formatting(&mut self, tag: &TagTok<'a>) -> bool {
        match self.open.current() {
            Some((cur, name))
                if name.is_html(tag.tag)
                    && self.active.last() == Some(Entry::Element(cur, name)) =>
            {
                self.open.pop_current(cur, name);
                self.active.pop_element();
                self.doc.element_mut(cur).set_end(tag.span);
                true
            }
            _ => false,
        }
    }

    /// The adoption agency algorithm (13.2.6.4.7) but for the common case of
    /// [`Self::adoption_agency`].
    #[inline(never)]
    fn adoption_agency_steps(&mut self, tag: &TagTok<'a>) -> bool {
        let subject = tag.tag;
        if let Some((cur, name)) = self.open.current()
            && name.is_html(subject)
        {
            // 2.
            if self.active.position(cur).is_none() {
                self.open.pop();
                self.doc.element_mut(cur).set_end(tag.span);
                return true;
            }
        }
        for _outer in 0..8 {
            // 4.3
            let Some((fe_index, fe)) = self.active.find_after_last_marker(subject) else {
                return false;
            };
            // 4.4 - 4.8 when the formatting element is the current node (`<a>…</a>`, the
            // common case): it is on the stack and in scope, no furthest block can be
            // above it, so it is popped and removed from the list, without the scans.
            if self.open.current().is_some_and(|(cur, _)| cur == fe) {
                self.open.pop();
                self.active.remove_at(fe_index);
                self.doc.element_mut(fe).set_end(tag.span);
                return true;
            }
            // 4.4
            if !self.open.contains(fe) {
                self.active.remove(fe);
                return true;
            }
            // 4.5
            if !self.open.has_node_in_scope(fe, Scope::Default) {
                return true;
            }
            // 4.7
            let fe_stack = self.open.index_of(fe).expect("on the stack");
            let furthest =
                (fe_stack + 1..self.open.len()).find(|&i| self.open.get(i).1.is_special());
            let Some(fb_stack) = furthest else {
                // 4.8
                self.open.truncate(fe_stack);
                self.active.remove(fe);
                self.doc.element_mut(fe).set_end(tag.span);
                return true;
            };
            let furthest_block = self.open.get(fb_stack).0;
            // 4.9, 4.10
            let common_ancestor = self.open.get(fe_stack - 1).0;
            let mut bookmark = fe_index;
            // 4.11 - 4.13
            let mut node_index = fb_stack;
            let mut last_node = furthest_block;
            let mut inner = 0;
            loop {
                inner += 1;
                node_index -= 1;
                let (node, node_name) = self.open.get(node_index);
                if node == fe {
                    break;
                }
                let mut in_list = self.active.position(node);
                if inner > 3
                    && let Some(p) = in_list
                {
                    self.active.remove(node);
                    if p < bookmark {
                        bookmark -= 1;
                    }
                    in_list = None;
                }
                let Some(list_index) = in_list else {
                    self.open.remove(node);
                    continue;
                };
                let new = self.doc.clone_element(node);
                self.active.set(list_index, Entry::Element(new, node_name));
                self.open.replace(node_index, new, node_name);
                if last_node == furthest_block {
                    bookmark = list_index + 1;
                }
                self.doc.detach(last_node);
                self.doc.append(new, last_node);
                last_node = new;
            }
            // 4.14
            self.doc.detach(last_node);
            let place = self.insertion_place(Some(common_ancestor));
            self.insert_at(place, last_node);
            // 4.15 - 4.17
            let fe_name = self.name_of(fe);
            let new = self.doc.clone_element(fe);
            self.doc.reparent_children(furthest_block, new);
            self.doc.append(furthest_block, new);
            // 4.18
            let fe_pos = self.active.position(fe).expect("in the list");
            let key = self.active.key_at(fe_pos);
            if fe_pos < bookmark {
                bookmark -= 1;
            }
            self.active.remove(fe);
            self.active.insert(
                bookmark.min(self.active.len()),
                Entry::Element(new, fe_name),
                key,
            );
            // 4.19
            self.open.remove(fe);
            let fb_now = self.open.index_of(furthest_block).expect("on the stack");
            self.open.insert(fb_now + 1, new, fe_name);
        }
        true
    }

    // ----- shared steps of the insertion modes -----

    /// "Close a p element".
    pub(crate) fn close_p(&mut self, end: Option<Span>) {
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
    pub(crate) fn close_p_in_button_scope(&mut self) {
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

    /// Pops until the HTML element `tag` is popped, recording `end` as its end tag.
    pub(crate) fn pop_until_closing(&mut self, tag: Tag, end: Span) {
        if let Some(id) = self.open.pop_until(tag) {
            self.doc.element_mut(id).set_end(end);
        }
    }

    /// 13.2.4.1 "Reset the insertion mode appropriately".
    pub(crate) fn reset_insertion_mode(&mut self) {
        let items = self.open.items();
        for i in (0..items.len()).rev() {
            let last = i == 0;
            let name = match (last, self.context) {
                (true, Some((_, ctx))) => ctx,
                _ => items[i].1,
            };
            if name.ns != Ns::Html {
                continue;
            }
            let mode = match name.tag {
                Tag::Td | Tag::Th if !last => Mode::InCell,
                Tag::Tr => Mode::InRow,
                Tag::Tbody | Tag::Thead | Tag::Tfoot => Mode::InTableBody,
                Tag::Caption => Mode::InCaption,
                Tag::Colgroup => Mode::InColumnGroup,
                Tag::Table => Mode::InTable,
                Tag::Template => *self.template_modes.last().unwrap_or(&Mode::InBody),
                Tag::Head if !last => Mode::InHead,
                Tag::Body => Mode::InBody,
                Tag::Frameset => Mode::InFrameset,
                Tag::Html => {
                    if self.head == NONE {
                        Mode::BeforeHead
                    } else {
                        Mode::AfterHead
                    }
                }
                _ if last => Mode::InBody,
                _ => continue,
            };
            self.set_mode(mode);
            return;
        }
        self.set_mode(Mode::InBody);
    }

    /// "Close the cell" (13.2.6.4.15) when the current node is the cell (an HTML `td` or
    /// `th`): no implied end tag is generated above it (it is the current node and not in
    /// that list), and the popping ends with it. False (nothing done) otherwise. Inlined into
    /// "in cell"'s start tag rule: `<td>x<td>` (a cell left open, common in dense
    /// tables) would otherwise take the scope walk and [`Self::close_cell`]'s calls.
    #[inline(always)]
    pub(crate) fn close_current_cell(&mut self) -> bool {
        match self.open.current() {
            Some((id, name)) if name.is_html(Tag::Td) || name.is_html(Tag::Th) => {
                self.open.pop_current(id, name);
                self.active.clear_to_last_marker();
                self.set_mode(Mode::InRow);
                true
            }
            _ => false,
        }
    }

    /// "Close the cell" (13.2.6.4.15).
    pub(crate) fn close_cell(&mut self) {
        self.open.generate_implied_end_tags(None);
        self.open
            .pop_until_matching(|n| n.ns == Ns::Html && matches!(n.tag, Tag::Td | Tag::Th));
        self.active.clear_to_last_marker();
        self.set_mode(Mode::InRow);
    }

    /// Switches the insertion mode.
    #[inline(always)]
    pub(crate) fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        self.update_sink();
    }

    /// Sets the frameset-ok flag to "not ok".
    #[inline(always)]
    pub(crate) fn set_frameset_not_ok(&mut self) {
        self.frameset_ok = false;
        self.update_sink();
    }

    /// Sets or clears "skip a leading newline in the next token".
    #[inline(always)]
    pub(crate) fn set_skip_newline(&mut self, skip: bool) {
        self.skip_newline = skip;
        self.update_sink();
    }

    #[inline(always)]
    fn update_sink(&mut self) {
        self.sink = self.sink_bits();
    }

    /// [`Self::sink`] as the mode, frameset-ok and skip-newline make it.
    #[inline(always)]
    fn sink_bits(&self) -> u8 {
        if self.skip_newline {
            0
        } else {
            let lazy = if self.frameset_ok { 0 } else { sink::LAZY_TEXT };
            match self.mode {
                Mode::InBody => sink::IN_BODY | lazy,
                Mode::InCell => sink::IN_BODY | sink::IN_CELL | lazy,
                Mode::Text => sink::TEXT_MODE,
                _ => 0,
            }
        }
    }

    /// Asks the tokenizer to switch state after this token.
    pub(crate) fn switch_tokenizer(&mut self, state: State) {
        self.switch_to = Some(state);
    }

    /// 13.2.6.2 The generic raw text and RCDATA element parsing algorithms.
    pub(crate) fn parse_raw_text(&mut self, tag: &mut TagTok<'a>, state: State) {
        self.insert_html_element(tag);
        self.switch_tokenizer(state);
        self.original_mode = self.mode;
        self.set_mode(Mode::Text);
    }

    /// Adds missing attributes to an element (a second `<html>` or `<body>`).
    pub(crate) fn add_missing_attrs(&mut self, id: NodeId, tag: &mut TagTok<'a>) {
        if tag.has_attrs {
            self.doc.add_missing_attrs(self.input, id);
        }
    }
}

/// A hash of an element's name and attributes, the same for any order of the attributes
/// (for the Noah's Ark clause's counts).
fn attrs_key(doc: &Dom, input: &[u8], id: NodeId) -> u64 {
    /// A multiply-xorshift over eight bytes at a time (attribute values can be long URLs).
    fn mix(h: u64, bytes: &[u8]) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = h ^ (bytes.len() as u64).wrapping_mul(K);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            h = (h ^ w).wrapping_mul(K);
            h ^= h >> 29;
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K);
        h ^ (h >> 32)
    }
    let e = doc.element(id);
    let mut key = mix(
        0,
        &[
            e.name.ns as u8,
            e.name.tag as u8,
            (e.name.tag as u16 >> 8) as u8,
        ],
    );
    for a in doc.attrs_of(id) {
        let h = mix(
            mix(a.ns as u64 + 1, doc.bytes(input, a.name)),
            a.value(input).as_bytes(),
        );
        key = key.wrapping_add(h);
    }
    key
}

/// Whether two elements have the same attributes (names, namespaces and values), for the
/// Noah's Ark clause.
fn same_attrs(doc: &Dom, input: &[u8], a: NodeId, b: NodeId) -> bool {
    let (ea, eb) = (doc.element(a), doc.element(b));
    if ea.attrs_start == eb.attrs_start && ea.attrs_len == eb.attrs_len {
        return true;
    }
    if ea.attrs_len != eb.attrs_len {
        return false;
    }
    let (xa, xb) = (doc.attrs_of(a), doc.attrs_of(b));
    xa.iter().all(|x| {
        xb.iter().any(|y| {
            doc.bytes(input, x.name) == doc.bytes(input, y.name)
                && x.ns == y.ns
                && x.value(input) == y.value(input)
        })
    })
}
