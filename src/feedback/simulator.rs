//! The simulated tree builder: the stack of open elements from the outermost `<svg>` or
//! `<math>` up (13.2.6.5), and where the document is with respect to `<frameset>`.

use super::names::*;
use super::start_tag::{HtmlStartTag, html_start_tag_kind};
use crate::state::State;

/// An element's namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ns {
    Html,
    Svg,
    Math,
}

/// What kind of boundary a foreign element is (13.2.6.5; "has an element in scope").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Point {
    /// An ordinary element.
    None,
    /// An HTML integration point: SVG `foreignObject`, `desc`, `title`; MathML
    /// `annotation-xml` with a `text/html` or `application/xhtml+xml` encoding.
    Html,
    /// A MathML text integration point: `mi`, `mo`, `mn`, `ms`, `mtext`.
    MathText,
    /// MathML `annotation-xml` without an HTML encoding: `<svg>` below it is HTML.
    AnnotationXml,
}

/// One open element above the outermost foreign root; its lowercase name is
/// `names[start..start + len]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Elem {
    ns: Ns,
    point: Point,
    /// [`lower_key`] of the name.
    key: u64,
    /// The name's bytes in `names` (kept for names over 8 bytes only: `key` and `len` say
    /// the others whole).
    start: u32,
    len: u32,
    /// For an HTML element that decides the insertion mode ("reset the insertion mode
    /// appropriately", 13.2.4.1): the mode it stands for; [`Mode::InBody`] otherwise.
    mode: Mode,
    /// For an HTML element: its name's [`cat`] bits.
    flags: u32,
    /// For a `template`: its current template insertion mode (13.2.4.1, the stack of
    /// template insertion modes), [`Mode::InTemplate`] until a start tag sets it.
    template_mode: Mode,
}

/// The insertion modes (13.2.4.1) that decide what HTML start and end tags do to the
/// stack of open elements, as "reset the insertion mode appropriately" finds them from
/// the stack. ("In head", "after head", "in select" and "text" put nothing on the stack
/// that these rules would treat differently; "in select" is "in body" under the select
/// parser relaxation.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // The spec's names: "in body", "in table", …
pub(super) enum Mode {
    InBody,
    InTable,
    InTableBody,
    InRow,
    InCell,
    InCaption,
    InColumnGroup,
    /// "In template" (13.2.6.4.18): a `template` whose current template insertion mode is
    /// still "in template".
    InTemplate,
}

impl Mode {
    /// The mode an HTML element named `name` stands for on the stack (13.2.4.1).
    fn of(name: &[u8]) -> Mode {
        match name.len() {
            2 if eq(name, b"td") || eq(name, b"th") => Mode::InCell,
            2 if eq(name, b"tr") => Mode::InRow,
            5 if eq(name, b"tbody") || eq(name, b"thead") || eq(name, b"tfoot") => {
                Mode::InTableBody
            }
            5 if eq(name, b"table") => Mode::InTable,
            7 if eq(name, b"caption") => Mode::InCaption,
            8 if eq(name, b"colgroup") => Mode::InColumnGroup,
            8 if eq(name, b"template") => Mode::InTemplate,
            _ => Mode::InBody,
        }
    }
}

/// What a tag's processing asks of the caller.
enum Step {
    Done,
    /// "Parse error; ignore the token": a switching start tag does not switch.
    Ignored,
    /// "Reprocess the token" in the (new) current insertion mode.
    Reprocess,
}

/// Where the document is with respect to `<frameset>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Frameset {
    /// No `<frameset>` processed as HTML yet.
    Unknown,
    /// A `<frameset>` was ignored: the frameset-ok flag is "not ok" for good.
    Ignored,
    /// "In frameset", "after frameset" or "after after frameset".
    Active,
    /// Never look (the re-reading tokenizer of `Tokenizer::frameset_allowed`).
    Never,
}

/// What a start tag does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing for the tokenizer.
    None,
    /// The tokenizer switches to this state.
    Switch(State),
    /// A `<frameset>` start tag processed by "in body": the caller decides with
    /// [`Simulator::frameset_decided`] whether the frameset-ok flag lets it through.
    CheckFrameset,
    /// The answer depends on the HTML elements below the outermost foreign root, which a
    /// lazy simulator does not know: the caller replaces it with a whole-stack simulator
    /// that has seen the document so far ([`Simulator::new_whole_stack`]) and gives it the
    /// tag again. The lazy simulator's state is then meaningless.
    NeedsWholeStack,
}

/// The simulated tree builder.
#[derive(Clone, Debug)]
pub(crate) struct Simulator {
    scripting: bool,
    /// The stack of open elements from the outermost foreign root up; empty in HTML
    /// content.
    stack: Vec<Elem>,
    names: Vec<u8>,
    frameset: Frameset,
    /// Whether the last start tag was processed by the HTML rules (not as foreign
    /// content).
    last_start_html: bool,
    /// Whether `stack` is the whole stack of open elements (below `html` and `body`,
    /// which are never popped), tracked from the first token on; else it starts at the
    /// outermost foreign root and is empty in HTML content.
    whole: bool,
    /// [`Simulator::is_idle`], kept up to date by every call that changes the state (one
    /// load on the hot path).
    idle: bool,
    /// `Builder::simulate_html5ever_quirks`.
    html5ever_quirks: bool,
    /// How many HTML `p` elements `stack` holds ("close a p element" needs no walk when
    /// none is open).
    p_open: usize,
    /// The index of the topmost element that stands for an insertion mode (`usize::MAX`:
    /// none).
    mode_top: usize,
    /// How many elements of `stack` stand for a table or template insertion mode
    /// ([`Elem::mode`] not "in body"): none, the mode is "in body" without a walk.
    mode_elems: usize,
}

/// Which "has an element in scope" variant (13.2.4.2).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Default,
    ListItem,
    Button,
}

impl Simulator {
    pub(crate) fn new(scripting: bool) -> Self {
        Simulator {
            scripting,
            stack: Vec::new(),
            names: Vec::new(),
            frameset: Frameset::Unknown,
            last_start_html: true,
            whole: false,
            idle: true,
            html5ever_quirks: false,
            p_open: 0,
            mode_top: usize::MAX,
            mode_elems: 0,
        }
    }

    /// `Builder::simulate_html5ever_quirks`: html5ever 0.40's departures from the standard
    /// (for the comparison with it only).
    pub(crate) fn with_html5ever_quirks(mut self, on: bool) -> Self {
        self.html5ever_quirks = on;
        self
    }

    pub(crate) fn html5ever_quirks(&self) -> bool {
        self.html5ever_quirks
    }

    /// A simulator that tracks the whole stack of open elements from the start: never
    /// idle, it needs every tag; it never answers [`Outcome::NeedsWholeStack`].
    pub(crate) fn new_whole_stack(scripting: bool) -> Self {
        Simulator {
            whole: true,
            idle: false,
            ..Simulator::new(scripting)
        }
    }

    /// Whether this simulator tracks the whole stack ([`Simulator::new_whole_stack`]).
    pub(crate) fn tracks_whole_stack(&self) -> bool {
        self.whole
    }

    /// This simulator's state taken as the whole stack (below it, only `html` and `body`
    /// are open).
    pub(crate) fn assume_whole_stack(&self) -> Simulator {
        Simulator {
            whole: true,
            idle: false,
            ..self.clone()
        }
    }

    /// Takes the frameset state of `other` (the lazy simulator this one replaces).
    pub(crate) fn take_frameset_state(&mut self, other: &Simulator) {
        self.frameset = other.frameset;
        self.idle = self.compute_idle();
    }

    /// Whether scripting is enabled (`<noscript>` is RAWTEXT).
    pub(crate) fn scripting(&self) -> bool {
        self.scripting
    }

    /// True when no foreign content is open and no frameset mode is on: only HTML start
    /// tags can matter, classified inline.
    #[inline]
    pub(crate) fn is_idle(&self) -> bool {
        debug_assert_eq!(self.idle, self.compute_idle());
        self.idle
    }

    fn compute_idle(&self) -> bool {
        self.stack.is_empty() && self.frameset != Frameset::Active && !self.whole
    }

    /// True when the adjusted current node is an SVG or MathML element.
    pub(crate) fn in_foreign_content(&self) -> bool {
        self.stack.last().is_some_and(|e| e.ns != Ns::Html)
    }

    /// Whether the last start tag was processed by the HTML rules.
    pub(crate) fn last_start_was_html(&self) -> bool {
        self.last_start_html
    }

    /// Stops the simulator from ever re-reading the document for `<frameset>`.
    pub(crate) fn never_check_frameset(&mut self) {
        self.frameset = Frameset::Never;
    }

    /// The answer to [`Outcome::CheckFrameset`]: whether the `<frameset>` start tag
    /// switched to "in frameset" (then the stack is just `html`, `frameset`).
    pub(crate) fn frameset_decided(&mut self, allowed: bool) {
        if allowed {
            self.stack.clear();
            self.names.clear();
            self.mode_elems = 0;
            self.mode_top = usize::MAX;
            self.p_open = 0;
            self.frameset = Frameset::Active;
        } else {
            self.frameset = Frameset::Ignored;
        }
        self.idle = self.compute_idle();
    }

    fn name(&self, e: &Elem) -> &[u8] {
        &self.names[e.start as usize..(e.start + e.len) as usize]
    }

    #[inline]
    fn push(&mut self, ns: Ns, point: Point, name: &[u8]) {
        let flags = if ns == Ns::Html { categories(name) } else { 0 };
        self.push_with(ns, point, name, flags);
    }

    /// [`Simulator::push`] given the name's [`cat`] bits (0 for SVG and MathML).
    #[inline]
    fn push_with(&mut self, ns: Ns, point: Point, name: &[u8], flags: u32) {
        self.push_keyed(ns, point, name, lower_key(name), flags);
    }

    /// [`Simulator::push_with`] given the name's [`lower_key`].
    #[inline(always)]
    fn push_keyed(&mut self, ns: Ns, point: Point, name: &[u8], key: u64, flags: u32) {
        let start = self.names.len() as u32;
        if name.len() > 8 {
            self.names.extend_from_slice(name);
            self.names[start as usize..].make_ascii_lowercase();
        }
        if ns == Ns::Html && name.len() == 1 && name[0] | 0x20 == b'p' {
            self.p_open += 1;
        }
        // Only the table elements and `template` stand for a mode.
        let mode = if flags & (cat::TABLE_END | cat::TABLE_SCOPE) != 0 {
            Mode::of(name)
        } else {
            Mode::InBody
        };
        if mode != Mode::InBody {
            self.mode_elems += 1;
            self.mode_top = self.stack.len();
        }
        self.stack.push(Elem {
            ns,
            point,
            key,
            start,
            len: name.len() as u32,
            mode,
            flags,
            template_mode: Mode::InTemplate,
        });
    }

    /// Removes the element at `i` alone (`</form>`, the adoption agency algorithm).
    fn remove(&mut self, i: usize) {
        if self.stack[i].mode != Mode::InBody {
            self.mode_elems -= 1;
        }
        if is_p(&self.stack[i]) {
            self.p_open -= 1;
        }
        self.stack.remove(i);
        self.find_mode_top();
    }

    fn find_mode_top(&mut self) {
        self.mode_top = if self.mode_elems == 0 {
            usize::MAX
        } else {
            self.stack
                .iter()
                .rposition(|e| e.mode != Mode::InBody)
                .unwrap_or(usize::MAX)
        };
    }

    /// Whether the insertion mode is decided below the tracked part of the stack (a lazy
    /// simulator with no table or template open above the foreign root).
    fn mode_is_below(&self) -> bool {
        !self.whole && self.mode_elems == 0
    }

    /// The current insertion mode as "reset the insertion mode appropriately" finds it
    /// (13.2.4.1): the nearest table part, table or template on the stack, else "in body".
    fn mode(&self) -> (Mode, usize) {
        debug_assert_eq!(
            self.mode_top,
            self.stack
                .iter()
                .rposition(|e| e.mode != Mode::InBody)
                .unwrap_or(usize::MAX)
        );
        match self.stack.get(self.mode_top) {
            None => (Mode::InBody, usize::MAX),
            Some(e) if e.mode == Mode::InTemplate => (e.template_mode, self.mode_top),
            Some(e) => (e.mode, self.mode_top),
        }
    }

    /// Whether `e` is named `name` (any case).
    fn elem_is(&self, e: &Elem, name: &[u8]) -> bool {
        e.len as usize == name.len() && self.is_named(e, name, lower_key(name))
    }

    /// Whether `e` is named one of `names` (any case).
    fn elem_in(&self, e: &Elem, names: &[&[u8]]) -> bool {
        names.iter().any(|n| self.elem_is(e, n))
    }

    /// Whether `e` is named `name` (any case; `key` is its [`lower_key`]).
    fn is_named(&self, e: &Elem, name: &[u8], key: u64) -> bool {
        e.len as usize == name.len()
            && e.key == key
            && (name.len() <= 8 || self.name(e).eq_ignore_ascii_case(name))
    }

    /// Pops the current node: [`Simulator::truncate`] to one below the top, inline.
    #[inline(always)]
    fn pop(&mut self) {
        let Some(e) = self.stack.pop() else {
            return;
        };
        if e.len > 8 {
            self.names.truncate(e.start as usize);
        }
        if e.mode != Mode::InBody {
            self.mode_elems -= 1;
            self.find_mode_top();
        }
        if is_p(&e) {
            self.p_open -= 1;
        }
    }

    fn truncate(&mut self, i: usize) {
        if let Some(e) = self.stack.get(i) {
            self.names.truncate(e.start as usize);
            if self.mode_elems > 0 || self.p_open > 0 {
                for e in &self.stack[i..] {
                    if e.mode != Mode::InBody {
                        self.mode_elems -= 1;
                    }
                    if is_p(e) {
                        self.p_open -= 1;
                    }
                }
            }
            self.stack.truncate(i);
            if self.mode_top != usize::MAX && self.mode_top >= i {
                self.find_mode_top();
            }
        }
    }

    /// Whether the current node is an HTML element with one of the [`cat`] bits `flags`.
    fn top_is_html_in(&self, flags: u32) -> bool {
        self.stack
            .last()
            .is_some_and(|e| e.ns == Ns::Html && e.flags & flags != 0)
    }

    fn top_is_html(&self, names: &[&[u8]]) -> bool {
        self.stack
            .last()
            .is_some_and(|e| e.ns == Ns::Html && self.elem_in(e, names))
    }

    /// The common cases of a whole-stack simulator, decided without the full rules (the
    /// stream tokenizer gives it every tag): with no table, template or frameset mode on
    /// and the current node an HTML element, a start tag that "in body" (13.2.6.4.7) only
    /// pushes (or ignores, when void), with no `p` element open if it closes one and no
    /// heading current if it is one; an end tag that closes the current node. The tag is
    /// `input[start..end]`. None when the full rules are needed: nothing changed then.
    #[inline]
    pub(crate) fn fast_tag(
        &mut self,
        input: &[u8],
        start: usize,
        end: usize,
        is_end: bool,
    ) -> Option<Outcome> {
        if !self.whole || self.frameset == Frameset::Active {
            return None;
        }
        // The insertion mode: "in body", or a table mode that hands these tags to it.
        let mode = match self.stack.get(self.mode_top) {
            None => Mode::InBody,
            Some(e) => e.mode,
        };
        if matches!(mode, Mode::InTemplate | Mode::InColumnGroup) {
            return None;
        }
        let top = self.stack.last();
        if top.is_some_and(|e| e.ns != Ns::Html) {
            return None;
        }
        let name = &input[start..end];
        let name_key = lower_key_at(input, start, end);
        if is_end {
            // "Any other end tag", the scoped end tags, `</p>`, `</form>` and the adoption
            // agency algorithm all close the current node when it has the tag's name
            // (`br`, `body` and `html` are never pushed), and so do the table modes'
            // end tags (the current node is in table scope).
            let Some(top) = top else {
                return Some(Outcome::None);
            };
            if top.flags & cat::NOT_PUSHED == 0 && self.is_named(top, name, name_key) {
                self.pop();
                return Some(Outcome::None);
            }
            return None;
        }
        const INPUT: u64 = key(b"input");
        let flags = categories_keyed(name, name_key);
        // "In table", "in table body" and "in row" (13.2.6.4.9, .13, .14) take the table
        // parts, `table`, `template`, `input` and `form` themselves and hand the other
        // start tags to "in body"; "in cell" and "in caption" (.15, .11) all but the table
        // parts.
        let in_table = matches!(mode, Mode::InTable | Mode::InTableBody | Mode::InRow);
        if flags & (cat::START_SLOW | cat::TABLE_SCOPE | cat::TABLE_END) != 0
            || (in_table && name.len() == 4 && name_key == key(b"form"))
        {
            return None;
        }
        // "In body" closes an open `select` for an `input` (the table modes insert and pop
        // an `input` themselves): the full rules do that.
        if !in_table
            && name.len() == 5
            && name_key == INPUT
            && self.find_in_scope(&[b"select"], Scope::Default).is_some()
        {
            return None;
        }
        self.close_before_inserting(name, name_key, flags);
        self.last_start_html = true;
        if flags & cat::NOT_PUSHED == 0 {
            self.push_keyed(Ns::Html, Point::None, name, name_key, flags);
        }
        if flags & cat::SWITCH != 0
            && let HtmlStartTag::Switch(state) = html_start_tag_kind(name, self.scripting)
        {
            return Some(Outcome::Switch(state));
        }
        Some(Outcome::None)
    }

    /// A start tag was emitted; returns what the tree builder does to the tokenizer.
    /// `attr` looks up an attribute's decoded value by lowercase name.
    #[inline]
    pub(crate) fn start_tag(
        &mut self,
        name: &[u8],
        self_closing: bool,
        attr: impl Fn(&[u8]) -> Option<String>,
    ) -> Outcome {
        let outcome = self.process_start_tag(name, self_closing, attr);
        self.idle = self.compute_idle();
        outcome
    }

    fn process_start_tag(
        &mut self,
        name: &[u8],
        self_closing: bool,
        attr: impl Fn(&[u8]) -> Option<String>,
    ) -> Outcome {
        if self.frameset == Frameset::Active {
            // 13.2.6.4.19–22: only `<noframes>` ("in head") does anything here.
            self.last_start_html = true;
            return if eq(name, b"noframes") {
                Outcome::Switch(State::Rawtext)
            } else {
                Outcome::None
            };
        }
        let mut html = match self.stack.last() {
            None => true,
            Some(e) => match (e.ns, e.point) {
                (Ns::Html, _) | (_, Point::Html) => true,
                (_, Point::MathText) => !eq(name, b"mglyph") && !eq(name, b"malignmark"),
                (_, Point::AnnotationXml) => eq(name, b"svg"),
                _ => false,
            },
        };
        let name_key = lower_key(name);
        if !html && is_breakout(name, name_key, &attr) {
            // 13.2.6.5: pop until the current node is an HTML element or an integration
            // point, then reprocess the token as HTML.
            while let Some(e) = self.stack.last() {
                if self.ends_leaving_foreign_content(e) {
                    break;
                }
                self.truncate(self.stack.len() - 1);
            }
            html = true;
        }
        self.last_start_html = html;
        if html {
            return self.html_start_tag(name, self_closing);
        }
        // A foreign element in the adjusted current node's namespace.
        if !self_closing {
            let ns = self.stack.last().map_or(Ns::Html, |e| e.ns);
            const SVG_POINTS: [(usize, u64); 3] = [
                (13, key(b"foreignobject")),
                (4, key(b"desc")),
                (5, key(b"title")),
            ];
            const MATH_TEXT: [(usize, u64); 5] = [
                (2, key(b"mi")),
                (2, key(b"mo")),
                (2, key(b"mn")),
                (2, key(b"ms")),
                (5, key(b"mtext")),
            ];
            let this = (name.len(), name_key);
            let point = match ns {
                // (Keys hold 8 bytes: the long names are checked whole.)
                Ns::Svg
                    if SVG_POINTS.contains(&this) && (this.0 < 8 || eq(name, b"foreignobject")) =>
                {
                    Point::Html
                }
                Ns::Math if MATH_TEXT.contains(&this) => Point::MathText,
                Ns::Math if this == (14, key(b"annotation-xml")) && eq(name, b"annotation-xml") => {
                    if html_encoding(&attr) {
                        Point::Html
                    } else {
                        Point::AnnotationXml
                    }
                }
                _ => Point::None,
            };
            self.push(ns, point, name);
        }
        Outcome::None
    }

    /// A start tag processed by the HTML rules: the current insertion mode (13.2.6, in
    /// HTML content or reprocessed after leaving foreign content).
    fn html_start_tag(&mut self, name: &[u8], self_closing: bool) -> Outcome {
        let kind = html_start_tag_kind(name, self.scripting);
        if kind == HtmlStartTag::Frameset {
            // 13.2.6.4.7: ignored unless the frameset-ok flag lets it through; the stack
            // then holds `html` and `frameset` only. On its way to "in body" it may set
            // a template insertion mode or pop a `colgroup` (13.2.6.4.18, .12).
            if self.whole || !self.stack.is_empty() {
                self.insert_html(name, self_closing, kind);
            }
            return match self.frameset {
                Frameset::Unknown => Outcome::CheckFrameset,
                _ => Outcome::None,
            };
        }
        if self.whole || !self.stack.is_empty() {
            if self.mode_is_below() && categories(name) & cat::TABLE_END != 0 {
                // The table modes (13.2.6.4.9–15) may be on below the foreign root.
                return Outcome::NeedsWholeStack;
            }
            if !self.insert_html(name, self_closing, kind) {
                return Outcome::None;
            }
        } else if !self_closing || kind == HtmlStartTag::Template {
            // HTML content of a lazy simulator: only a foreign root or a template (whose
            // contents the template insertion modes decide, 13.2.6.4.18) is tracked.
            match kind {
                HtmlStartTag::Svg => self.push(Ns::Svg, Point::None, name),
                HtmlStartTag::Math => self.push(Ns::Math, Point::None, name),
                HtmlStartTag::Template => self.push(Ns::Html, Point::None, name),
                _ => {}
            }
        }
        match kind {
            HtmlStartTag::Switch(state) => Outcome::Switch(state),
            _ => Outcome::None,
        }
    }

    /// An HTML start tag in the current insertion mode, as it changes the stack of open
    /// elements: "in body" (13.2.6.4.7), and the table and template modes
    /// (13.2.6.4.9–15, 13.2.6.4.18) that hand every other tag to it. False when the
    /// mode ignored the tag.
    fn insert_html(&mut self, name: &[u8], self_closing: bool, kind: HtmlStartTag) -> bool {
        // Each pass but the last pops or pushes a table part or sets a template insertion
        // mode ("reprocess the token"): a few passes at most.
        for _ in 0..8 {
            let (mode, at) = self.mode();
            let step = match mode {
                Mode::InBody => self.in_body_start_tag(name, self_closing, kind),
                Mode::InTable => self.in_table_start_tag(name, self_closing, kind),
                Mode::InTableBody => self.in_table_body_start_tag(name, self_closing, kind),
                Mode::InRow => self.in_row_start_tag(name, self_closing, kind),
                Mode::InCell | Mode::InCaption => {
                    // 13.2.6.4.15 "in cell" (close the cell), 13.2.6.4.11 "in caption"
                    // (pop the caption): the element found by `mode` is in table scope.
                    if categories(name) & cat::TABLE_PART != 0 {
                        self.truncate(at);
                        Step::Reprocess
                    } else {
                        self.in_body_start_tag(name, self_closing, kind)
                    }
                }
                Mode::InColumnGroup => {
                    // 13.2.6.4.12 "in column group": anything but `col` and `template`
                    // pops the current `colgroup` and goes to "in table", or is ignored
                    // when the current node is not a `colgroup` (in a template).
                    if eq(name, b"col") {
                        Step::Done
                    } else if eq(name, b"template") {
                        self.push(Ns::Html, Point::None, name);
                        Step::Done
                    } else if self.top_is_html(&[b"colgroup"]) {
                        self.truncate(self.stack.len() - 1);
                        Step::Reprocess
                    } else {
                        Step::Ignored
                    }
                }
                Mode::InTemplate => {
                    // 13.2.6.4.18 "in template": the start tag sets the template
                    // insertion mode, except the ones "in head" processes.
                    let new = if categories(name) & cat::IN_HEAD != 0 {
                        // "In head" inserts these. The ones that switch the tokenizer
                        // to a text state (`title`, `style`, `script`, `noframes`)
                        // are popped by "text" (13.2.6.4.8) at their end tag, which
                        // "in template" here would ignore: they are not pushed.
                        if !matches!(kind, HtmlStartTag::Switch(_)) {
                            self.push_unless_void(name);
                        }
                        return true;
                    } else if one_of(
                        name,
                        &[b"caption", b"colgroup", b"tbody", b"tfoot", b"thead"],
                    ) {
                        Mode::InTable
                    } else if eq(name, b"col") {
                        Mode::InColumnGroup
                    } else if eq(name, b"tr") {
                        Mode::InTableBody
                    } else if eq(name, b"td") || eq(name, b"th") {
                        Mode::InRow
                    } else {
                        Mode::InBody
                    };
                    self.stack[at].template_mode = new;
                    Step::Reprocess
                }
            };
            match step {
                Step::Done => return true,
                Step::Ignored => return false,
                Step::Reprocess => {}
            }
        }
        true
    }

    /// "In head" start tags: void ones are popped at once.
    fn push_unless_void(&mut self, name: &[u8]) {
        if categories(name) & cat::NOT_PUSHED == 0 {
            self.push(Ns::Html, Point::None, name);
        }
    }

    /// 13.2.6.4.7 "in body": a start tag's effect on the stack.
    fn in_body_start_tag(&mut self, name: &[u8], self_closing: bool, kind: HtmlStartTag) -> Step {
        match kind {
            HtmlStartTag::Svg | HtmlStartTag::Math if self_closing => return Step::Done,
            HtmlStartTag::Svg => {
                self.push(Ns::Svg, Point::None, name);
                return Step::Done;
            }
            HtmlStartTag::Math => {
                self.push(Ns::Math, Point::None, name);
                return Step::Done;
            }
            // Ignored here; let through, it replaces the whole stack
            // (`Simulator::frameset_decided`).
            HtmlStartTag::Frameset => return Step::Ignored,
            _ => {}
        }
        let name_key = lower_key(name);
        let flags = categories_keyed(name, name_key);
        if eq(name, b"input") || eq(name, b"select") {
            // html5ever 0.40 (the select parser relaxation): these close an open select.
            if let Some(i) = self.find_in_scope(&[b"select"], Scope::Default) {
                self.truncate(i);
                if eq(name, b"select") {
                    return Step::Done;
                }
            }
        }
        self.close_before_inserting(name, name_key, flags);
        if flags & cat::NOT_PUSHED != 0 {
            // Void elements, and the tags "in body" ignores (table parts, `html`, …).
            return Step::Done;
        }
        self.push_keyed(Ns::Html, Point::None, name, name_key, flags);
        Step::Done
    }

    /// 13.2.6.4.7 "in body": what a start tag closes before it is inserted (`name_key` is
    /// the name's [`lower_key`], `flags` its [`cat`] bits): a `p` element in button scope for
    /// the tags that close one; for `li`, `dd` and `dt` an open list item, then a `p`; for
    /// `button` a button in scope; for a heading a current heading; for `option` and
    /// `optgroup` a current `option`. The full rules and [`Simulator::fast_tag`] share it.
    #[inline]
    fn close_before_inserting(&mut self, name: &[u8], name_key: u64, flags: u32) {
        const LI: u64 = key(b"li");
        const DD: u64 = key(b"dd");
        const DT: u64 = key(b"dt");
        const BUTTON: u64 = key(b"button");
        const OPTION: u64 = key(b"option");
        const OPTGROUP: u64 = key(b"optgroup");
        if flags & cat::CLOSES_P != 0 {
            self.close_p();
        }
        if flags & cat::HEADING != 0 && self.top_is_html_in(cat::HEADING) {
            // A heading closes a heading.
            self.pop();
        }
        if flags & cat::START_SPECIAL == 0 {
            return;
        }
        match (name.len(), name_key) {
            (2, LI) => {
                // Close an open `li`, then "if the stack of open elements has a p element
                // in button scope, then close a p element".
                self.close_list_item(&[b"li"]);
                self.close_p();
            }
            (2, DD | DT) => {
                self.close_list_item(&[b"dd", b"dt"]);
                self.close_p();
            }
            (6, BUTTON) => {
                // A button in scope is closed first.
                if let Some(i) = self.find_in_scope(&[b"button"], Scope::Default) {
                    self.truncate(i);
                }
            }
            // An option or optgroup closes a current option.
            (6, OPTION) | (8, OPTGROUP) if self.top_is_html(&[b"option"]) => self.pop(),
            _ => {}
        }
    }

    /// 13.2.6.4.9 "in table": a start tag's effect on the stack; the tags not listed go
    /// to "in body" (foster parenting changes where they go in the tree, not the stack).
    fn in_table_start_tag(&mut self, name: &[u8], self_closing: bool, kind: HtmlStartTag) -> Step {
        const TABLE_CONTEXT: &[&[u8]] = &[b"table", b"template"];
        if eq(name, b"caption") || eq(name, b"colgroup") || one_of(name, TABLE_SECTIONS) {
            self.clear_back_to(TABLE_CONTEXT);
            self.push(Ns::Html, Point::None, name);
            Step::Done
        } else if eq(name, b"col") {
            self.clear_back_to(TABLE_CONTEXT);
            self.push(Ns::Html, Point::None, b"colgroup");
            Step::Reprocess
        } else if one_of(name, &[b"td", b"th", b"tr"]) {
            self.clear_back_to(TABLE_CONTEXT);
            self.push(Ns::Html, Point::None, b"tbody");
            Step::Reprocess
        } else if eq(name, b"table") {
            match self.find_in_table_scope(&[b"table"]) {
                Some(i) => {
                    self.truncate(i);
                    Step::Reprocess
                }
                None => Step::Ignored,
            }
        } else if one_of(name, &[b"style", b"script", b"template"]) {
            self.push(Ns::Html, Point::None, name);
            Step::Done
        } else if eq(name, b"input") || eq(name, b"form") {
            // Inserted and popped at once (a hidden input, a form), or void.
            Step::Done
        } else {
            self.in_body_start_tag(name, self_closing, kind)
        }
    }

    /// 13.2.6.4.13 "in table body".
    fn in_table_body_start_tag(
        &mut self,
        name: &[u8],
        self_closing: bool,
        kind: HtmlStartTag,
    ) -> Step {
        const TABLE_BODY_CONTEXT: &[&[u8]] = &[b"tbody", b"tfoot", b"thead", b"template"];
        if eq(name, b"tr") {
            self.clear_back_to(TABLE_BODY_CONTEXT);
            self.push(Ns::Html, Point::None, name);
            Step::Done
        } else if eq(name, b"td") || eq(name, b"th") {
            self.clear_back_to(TABLE_BODY_CONTEXT);
            self.push(Ns::Html, Point::None, b"tr");
            Step::Reprocess
        } else if one_of(name, &[b"caption", b"col", b"colgroup"]) || one_of(name, TABLE_SECTIONS) {
            match self.find_in_table_scope(TABLE_SECTIONS) {
                Some(_) => {
                    self.clear_back_to(TABLE_BODY_CONTEXT);
                    self.truncate(self.stack.len() - 1);
                    Step::Reprocess
                }
                None => Step::Ignored,
            }
        } else {
            self.in_table_start_tag(name, self_closing, kind)
        }
    }

    /// 13.2.6.4.14 "in row".
    fn in_row_start_tag(&mut self, name: &[u8], self_closing: bool, kind: HtmlStartTag) -> Step {
        const ROW_CONTEXT: &[&[u8]] = &[b"tr", b"template"];
        if eq(name, b"td") || eq(name, b"th") {
            self.clear_back_to(ROW_CONTEXT);
            self.push(Ns::Html, Point::None, name);
            Step::Done
        } else if one_of(name, &[b"caption", b"col", b"colgroup", b"tr"])
            || one_of(name, TABLE_SECTIONS)
        {
            match self.find_in_table_scope(&[b"tr"]) {
                Some(i) => {
                    self.truncate(i);
                    Step::Reprocess
                }
                None => Step::Ignored,
            }
        } else {
            self.in_table_start_tag(name, self_closing, kind)
        }
    }

    /// "Clear the stack back to a … context" (13.2.6.4.9, .13, .14): pop until the
    /// current node is an HTML element named one of `names` (or `html`).
    fn clear_back_to(&mut self, names: &[&[u8]]) {
        let keep = self
            .stack
            .iter()
            .rposition(|e| e.ns == Ns::Html && self.elem_in(e, names))
            .map_or(0, |i| i + 1);
        self.truncate(keep);
    }

    /// "Has an element in table scope" (13.2.4.2): the index of the nearest HTML element
    /// named one of `names`, unless an HTML `html`, `table` or `template` comes first.
    fn find_in_table_scope(&self, names: &[&[u8]]) -> Option<usize> {
        for i in (0..self.stack.len()).rev() {
            let e = &self.stack[i];
            if e.ns == Ns::Html {
                if self.elem_in(e, names) {
                    return Some(i);
                }
                if e.flags & cat::TABLE_SCOPE != 0 {
                    return None;
                }
            }
        }
        None
    }

    /// "Close a p element" if one is in button scope.
    fn close_p(&mut self) {
        if self.p_open == 0 {
            return;
        }
        if let Some(i) = self.find_in_scope(&[b"p"], Scope::Button) {
            self.truncate(i);
        }
    }

    /// The `li`/`dd`/`dt` start tag loop: close the nearest such element unless a
    /// special element other than `address`, `div`, `p` comes first.
    fn close_list_item(&mut self, names: &[&[u8]]) {
        for i in (0..self.stack.len()).rev() {
            let e = self.stack[i];
            if e.ns != Ns::Html {
                if e.point != Point::None {
                    return;
                }
                continue;
            }
            if self.elem_in(&e, names) {
                self.truncate(i);
                return;
            }
            if e.flags & cat::SPECIAL != 0 && !self.elem_in(&e, &[b"address", b"div", b"p"]) {
                return;
            }
        }
    }

    /// "While the current node is not a MathML text integration point, an HTML
    /// integration point, or an element in the HTML namespace, pop" (13.2.6.5).
    fn ends_leaving_foreign_content(&self, e: &Elem) -> bool {
        match (e.ns, e.point) {
            (Ns::Html, _) | (_, Point::MathText) => true,
            // html5ever 0.40 knows the SVG HTML integration points only here.
            (Ns::Math, Point::Html) => !self.html5ever_quirks,
            (_, Point::Html) => true,
            _ => false,
        }
    }

    /// Whether `e` is in the special category (13.2.4.3): the listed HTML elements and
    /// the SVG and MathML elements that are integration points or `annotation-xml`.
    fn is_special(&self, e: &Elem) -> bool {
        match e.ns {
            Ns::Html => e.flags & cat::SPECIAL != 0,
            // html5ever 0.40's special category has HTML elements only.
            _ => e.point != Point::None && !self.html5ever_quirks,
        }
    }

    /// Whether `e` ends the search of "has an element in scope" (13.2.4.2; the list has
    /// `select` since the select parser relaxation, as in html5ever 0.40).
    fn is_scope_marker(&self, e: &Elem, scope: Scope) -> bool {
        match e.ns {
            Ns::Html => {
                e.flags & cat::SCOPE != 0
                    || (scope == Scope::ListItem && e.flags & cat::LIST_SCOPE != 0)
                    || (scope == Scope::Button && self.elem_is(e, b"button"))
            }
            // html5ever 0.40's list lacks `annotation-xml`.
            Ns::Math if self.html5ever_quirks => e.point == Point::MathText,
            _ => e.point != Point::None,
        }
    }

    /// The index of an HTML element named one of `names` in the given scope, if it is in
    /// the tracked part of the stack.
    fn find_in_scope(&self, names: &[&[u8]], scope: Scope) -> Option<usize> {
        for i in (0..self.stack.len()).rev() {
            let e = &self.stack[i];
            if e.ns == Ns::Html && self.elem_in(e, names) {
                return Some(i);
            }
            if self.is_scope_marker(e, scope) {
                return None;
            }
        }
        None
    }

    /// An end tag was emitted; returns [`Outcome::None`] or [`Outcome::NeedsWholeStack`].
    #[inline]
    pub(crate) fn end_tag(&mut self, name: &[u8]) -> Outcome {
        let outcome = self.process_end_tag(name);
        self.idle = self.compute_idle();
        outcome
    }

    fn process_end_tag(&mut self, name: &[u8]) -> Outcome {
        let Some(top) = self.stack.last().copied() else {
            // HTML content with nothing tracked open (or a frameset mode): end tags never
            // switch anything.
            return Outcome::None;
        };
        if top.ns == Ns::Html {
            return self.html_end_tag(name);
        }
        let name_key = lower_key(name);
        if (name.len() == 2 && name_key == key(b"br")) || (name.len() == 1 && name_key == key(b"p"))
        {
            // 13.2.6.5: `</br>` and `</p>` leave foreign content like the break-out
            // start tags, then go to "in body".
            while let Some(e) = self.stack.last() {
                if self.ends_leaving_foreign_content(e) {
                    break;
                }
                self.truncate(self.stack.len() - 1);
            }
            return self.html_end_tag(name);
        }
        // 13.2.6.5, "any other end tag": close the nearest element of that name, down to
        // the first HTML element, which hands the token to the current insertion mode.
        let mut i = self.stack.len() - 1;
        loop {
            let e = self.stack[i];
            if self.is_named(&e, name, name_key) {
                self.truncate(i);
                return Outcome::None;
            }
            if i == 0 || self.stack[i - 1].ns == Ns::Html {
                return self.html_end_tag(name);
            }
            i -= 1;
        }
    }

    /// An end tag processed by the current insertion mode in HTML content.
    fn html_end_tag(&mut self, name: &[u8]) -> Outcome {
        if eq(name, b"template") {
            // 13.2.6.4.4 "in head", from every mode.
            return match self
                .stack
                .iter()
                .rposition(|e| e.ns == Ns::Html && self.elem_is(e, b"template"))
            {
                Some(i) => {
                    self.truncate(i);
                    Outcome::None
                }
                None => self.below_foreign_root(),
            };
        }
        let flags = categories(name);
        let table_end = flags & cat::TABLE_END != 0;
        if table_end && self.mode_is_below() {
            // The table modes may be on below the foreign root.
            return Outcome::NeedsWholeStack;
        }
        match self.mode().0 {
            Mode::InTable | Mode::InTableBody | Mode::InRow | Mode::InCell | Mode::InCaption
                if table_end || eq(name, b"body") || eq(name, b"html") =>
            {
                // 13.2.6.4.9, .11, .13–15: `</table>`, `</tbody>`, `</tr>`, `</td>`, …
                // pop to the element of that name when it is in table scope (closing
                // the cell, row, section or caption on the way); `</col>`,
                // `</colgroup>`, `</body>`, `</html>` and the others are ignored.
                if !one_of(name, &[b"col", b"colgroup", b"body", b"html"])
                    && let Some(i) = self.find_in_table_scope(&[name])
                {
                    self.truncate(i);
                }
                return Outcome::None;
            }
            Mode::InColumnGroup => {
                // 13.2.6.4.12: `</colgroup>` and every other end tag pop the current
                // `colgroup` (the others reprocessed "in table"); `</col>` is ignored.
                if eq(name, b"col") || !self.top_is_html(&[b"colgroup"]) {
                    return Outcome::None;
                }
                self.truncate(self.stack.len() - 1);
                if eq(name, b"colgroup") {
                    return Outcome::None;
                }
                return self.html_end_tag(name);
            }
            // 13.2.6.4.18 "in template": any other end tag is ignored.
            Mode::InTemplate => return Outcome::None,
            _ => {}
        }
        self.in_body_end_tag(name, flags)
    }

    /// 13.2.6.4.7 "in body": an end tag's effect on the stack; `flags` are the name's
    /// [`cat`] bits.
    fn in_body_end_tag(&mut self, name: &[u8], flags: u32) -> Outcome {
        if flags == 0 {
            return self.any_other_end_tag(name);
        }
        if eq(name, b"p") {
            self.close_p();
            return Outcome::None;
        }
        if one_of(name, &[b"br", b"body", b"html"]) {
            return Outcome::None;
        }
        if eq(name, b"form") {
            // The form element is removed from the stack, nothing above it popped.
            if let Some(i) = self.find_in_scope(&[b"form"], Scope::Default) {
                self.remove(i);
            }
            return Outcome::None;
        }
        if flags & cat::FORMATTING != 0 {
            return self.adoption_agency(name);
        }
        if flags & cat::SCOPED_END != 0 {
            let scope = if eq(name, b"li") {
                Scope::ListItem
            } else {
                Scope::Default
            };
            let heading = flags & cat::HEADING != 0;
            let name_key = lower_key(name);
            for i in (0..self.stack.len()).rev() {
                let e = &self.stack[i];
                if e.ns == Ns::Html
                    && (if heading {
                        e.flags & cat::HEADING != 0
                    } else {
                        self.is_named(e, name, name_key)
                    })
                {
                    self.truncate(i);
                    return Outcome::None;
                }
                if self.is_scope_marker(e, scope) {
                    return Outcome::None;
                }
            }
            return self.below_foreign_root();
        }
        self.any_other_end_tag(name)
    }

    /// 13.2.6.4.7 "in body", "any other end tag": pop to the nearest HTML element of that
    /// name unless a special element comes first.
    fn any_other_end_tag(&mut self, name: &[u8]) -> Outcome {
        let name_key = lower_key(name);
        for i in (0..self.stack.len()).rev() {
            let e = &self.stack[i];
            if e.ns == Ns::Html && self.is_named(e, name, name_key) {
                self.truncate(i);
                return Outcome::None;
            }
            if self.is_special(e) {
                return Outcome::None;
            }
        }
        self.below_foreign_root()
    }

    /// The adoption agency algorithm (13.2.6.4.7), as it changes the stack of open
    /// elements. The list of active formatting elements is not kept: it is taken to hold
    /// the formatting elements on the stack above the last element that inserts a marker
    /// (`applet`, `caption`, `marquee`, `object`, `td`, `th`, `template`).
    fn adoption_agency(&mut self, name: &[u8]) -> Outcome {
        let name_key = lower_key(name);
        for _ in 0..8 {
            // The formatting element: the nearest one of that name after the last marker.
            let mut found = None;
            for i in (0..self.stack.len()).rev() {
                let e = &self.stack[i];
                if e.ns == Ns::Html {
                    if self.is_named(e, name, name_key) {
                        found = Some(i);
                        break;
                    }
                    if e.flags & cat::AFE_MARKER != 0 {
                        break;
                    }
                }
            }
            let Some(fe) = found else {
                return self.any_other_end_tag(name);
            };
            // Not in scope: ignored.
            if self.stack[fe + 1..]
                .iter()
                .any(|e| self.is_scope_marker(e, Scope::Default))
            {
                return Outcome::None;
            }
            // The furthest block: the first special element above it.
            let Some(fb) = (fe + 1..self.stack.len()).find(|&i| self.is_special(&self.stack[i]))
            else {
                self.truncate(fe);
                return Outcome::None;
            };
            // The inner loop: from the furthest block down, the first three formatting
            // elements stay (as new elements), every other element between is removed;
            // the formatting element moves to just above the furthest block.
            let mut kept = Vec::new();
            for (count, i) in (fe + 1..fb).rev().enumerate() {
                let e = self.stack[i];
                if count < 3 && e.ns == Ns::Html && e.flags & cat::FORMATTING != 0 {
                    kept.push(e);
                }
            }
            kept.reverse();
            let formatting = self.stack[fe];
            let mut rebuilt: Vec<Elem> = self.stack[..fe].to_vec();
            rebuilt.extend(kept);
            rebuilt.push(self.stack[fb]);
            rebuilt.push(formatting);
            rebuilt.extend_from_slice(&self.stack[fb + 1..]);
            self.replace_stack(rebuilt);
        }
        Outcome::None
    }

    /// Makes `stack` the stack of open elements, with its names copied in order (the
    /// adoption agency algorithm reorders elements).
    fn replace_stack(&mut self, stack: Vec<Elem>) {
        let mut names = Vec::with_capacity(self.names.len());
        let mut out = Vec::with_capacity(stack.len());
        for mut e in stack {
            let start = names.len() as u32;
            if e.len > 8 {
                names.extend_from_slice(self.name(&e));
            }
            e.start = start;
            out.push(e);
        }
        self.mode_elems = out.iter().filter(|e| e.mode != Mode::InBody).count();
        self.p_open = out.iter().filter(|e| is_p(e)).count();
        self.stack = out;
        self.names = names;
        self.find_mode_top();
    }

    /// An "in body" end tag walked down past the outermost foreign root into the HTML
    /// elements a lazy simulator does not track: only the whole stack can tell what it
    /// does. With the whole stack, the walk ended at `body` or `html` (a special element,
    /// a scope marker): ignored.
    fn below_foreign_root(&self) -> Outcome {
        if self.whole {
            Outcome::None
        } else {
            Outcome::NeedsWholeStack
        }
    }
}

/// Whether `e` is an HTML `p` element.
fn is_p(e: &Elem) -> bool {
    e.ns == Ns::Html && e.len == 1 && e.key == key(b"p")
}

/// Start tags that break out of foreign content; `font` only with a `color`, `face` or
/// `size` attribute.
/// `name_key` is the name's [`lower_key`]: the common names (every SVG and MathML one)
/// are told apart by length and a few integer comparisons.
pub(super) fn is_breakout(
    name: &[u8],
    name_key: u64,
    attr: &impl Fn(&[u8]) -> Option<String>,
) -> bool {
    const fn keys<const N: usize>(names: [&[u8]; N]) -> [u64; N] {
        let mut out = [0u64; N];
        let mut i = 0;
        while i < N {
            out[i] = key(names[i]);
            i += 1;
        }
        out
    }
    const L1: [u64; 5] = keys([b"b", b"i", b"p", b"s", b"u"]);
    const L2: [u64; 16] = keys([
        b"br", b"dd", b"dl", b"dt", b"em", b"h1", b"h2", b"h3", b"h4", b"h5", b"h6", b"hr", b"li",
        b"ol", b"tt", b"ul",
    ]);
    const L3: [u64; 7] = keys([b"big", b"div", b"img", b"pre", b"sub", b"sup", b"var"]);
    const L4: [u64; 8] = keys([
        b"body", b"code", b"head", b"menu", b"meta", b"nobr", b"ruby", b"span",
    ]);
    const L5: [u64; 3] = keys([b"embed", b"small", b"table"]);
    const L6: [u64; 3] = keys([b"center", b"strike", b"strong"]);
    let listed = match name.len() {
        1 => L1.contains(&name_key),
        2 => L2.contains(&name_key),
        3 => L3.contains(&name_key),
        4 => L4.contains(&name_key),
        5 => L5.contains(&name_key),
        6 => L6.contains(&name_key),
        7 => name_key == key(b"listing"),
        10 => eq(name, b"blockquote"),
        _ => false,
    };
    debug_assert_eq!(
        listed,
        BREAKOUT_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name))
    );
    if listed {
        return true;
    }
    name.len() == 4
        && name_key == key(b"font")
        && (attr(b"color").is_some() || attr(b"face").is_some() || attr(b"size").is_some())
}

pub(super) fn html_encoding(attr: &impl Fn(&[u8]) -> Option<String>) -> bool {
    attr(b"encoding").is_some_and(|v| {
        v.eq_ignore_ascii_case("text/html") || v.eq_ignore_ascii_case("application/xhtml+xml")
    })
}
