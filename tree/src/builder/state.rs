//! 13.2.4 The parse state: the insertion mode ([`Mode`]), the tree builder's fields (the
//! stack of open elements, the list of active formatting elements, the element pointers,
//! the flags), and the reads and writes of them that the rest of the builder shares: the
//! adjusted current node, "reset the insertion mode appropriately", and the setters that
//! keep the tokenizer's sink's bits ([`sink`]) up to date. Built on the token types alone;
//! the loop, the sink and the insertion modes build on it.

use htmltok::State;

use super::token::{TagTok, TextTok};
use crate::dom::{Dom, NONE, NodeId};
use crate::formatting::ActiveFormatting;
use crate::names::{Name, Ns, Tag};
use crate::stack::OpenElements;

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
            debug_assert!(!self.adjusted_current_is_foreign_general());
            return false;
        }
        self.adjusted_current_is_foreign_general()
    }

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

    pub(crate) fn name_of(&self, id: NodeId) -> Name {
        self.doc.element(id).name
    }

    /// Whether element `id` (with `name`) has the token's tag name: by id for interned
    /// names, by text otherwise.
    pub(crate) fn same_name(&self, id: NodeId, name: Name, tag: &TagTok<'a>) -> bool {
        if name.tag != tag.tag {
            return false;
        }
        name.tag != Tag::Unknown || self.doc.local_name(self.input, id) == tag.other_name
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

    /// Switches the insertion mode.
    pub(crate) fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        self.update_sink();
    }

    /// Sets the frameset-ok flag to "not ok".
    pub(crate) fn set_frameset_not_ok(&mut self) {
        self.frameset_ok = false;
        self.update_sink();
    }

    /// Sets or clears "skip a leading newline in the next token".
    pub(crate) fn set_skip_newline(&mut self, skip: bool) {
        self.skip_newline = skip;
        self.update_sink();
    }

    fn update_sink(&mut self) {
        self.sink = self.sink_bits();
    }

    /// [`Self::sink`] as the mode, frameset-ok and skip-newline make it.
    pub(super) fn sink_bits(&self) -> u8 {
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
}
