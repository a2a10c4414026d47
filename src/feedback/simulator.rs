//! The simulated tree builder: the stack of open elements from the outermost `<svg>` or
//! `<math>` up (13.2.6.5), and where the document is with respect to `<frameset>`.

use super::names::*;
use super::{HtmlStartTag, html_start_tag_kind};
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
#[derive(Clone, Copy, Debug)]
pub(super) struct Elem {
    ns: Ns,
    point: Point,
    /// [`lower_key`] of the name.
    key: u64,
    /// The name's bytes in `names` (kept for HTML elements and names over 8 bytes only).
    start: u32,
    len: u32,
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
        }
    }

    /// Makes `self` a copy of `other`, reusing `self`'s allocations (`clone_from`).
    pub(crate) fn copy_from(&mut self, other: &Simulator) {
        self.scripting = other.scripting;
        self.stack.clone_from(&other.stack);
        self.names.clone_from(&other.names);
        self.frameset = other.frameset;
        self.last_start_html = other.last_start_html;
    }

    /// Whether scripting is enabled (`<noscript>` is RAWTEXT).
    pub(crate) fn scripting(&self) -> bool {
        self.scripting
    }

    /// True when no foreign content is open and no frameset mode is on: only HTML start
    /// tags can matter, classified inline.
    #[inline]
    pub(crate) fn is_idle(&self) -> bool {
        self.stack.is_empty() && self.frameset != Frameset::Active
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
            self.frameset = Frameset::Active;
        } else {
            self.frameset = Frameset::Ignored;
        }
    }

    fn name(&self, e: &Elem) -> &[u8] {
        &self.names[e.start as usize..(e.start + e.len) as usize]
    }

    fn push(&mut self, ns: Ns, point: Point, name: &[u8]) {
        let start = self.names.len() as u32;
        if ns == Ns::Html || name.len() > 8 {
            self.names.extend(name.iter().map(u8::to_ascii_lowercase));
        }
        self.stack.push(Elem {
            ns,
            point,
            key: lower_key(name),
            start,
            len: name.len() as u32,
        });
    }

    /// Whether `e` is named `name` (any case; `key` is its [`lower_key`]).
    fn is_named(&self, e: &Elem, name: &[u8], key: u64) -> bool {
        e.len as usize == name.len()
            && e.key == key
            && (name.len() <= 8 || self.name(e).eq_ignore_ascii_case(name))
    }

    fn truncate(&mut self, i: usize) {
        if let Some(e) = self.stack.get(i) {
            self.names.truncate(e.start as usize);
            self.stack.truncate(i);
        }
    }

    fn top_is_html(&self, names: &[&[u8]]) -> bool {
        self.stack
            .last()
            .is_some_and(|e| e.ns == Ns::Html && one_of(self.name(e), names))
    }

    /// A start tag was emitted; returns what the tree builder does to the tokenizer.
    /// `attr` looks up an attribute's decoded value by lowercase name.
    pub(crate) fn start_tag(
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
                if e.ns == Ns::Html || matches!(e.point, Point::Html | Point::MathText) {
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

    /// A start tag processed by the HTML rules ("in body", or "in head" through it).
    fn html_start_tag(&mut self, name: &[u8], self_closing: bool) -> Outcome {
        match html_start_tag_kind(name, self.scripting) {
            HtmlStartTag::Svg | HtmlStartTag::Math if self_closing => Outcome::None,
            HtmlStartTag::Svg => {
                self.push(Ns::Svg, Point::None, name);
                Outcome::None
            }
            HtmlStartTag::Math => {
                self.push(Ns::Math, Point::None, name);
                Outcome::None
            }
            HtmlStartTag::Frameset => match self.frameset {
                Frameset::Unknown => Outcome::CheckFrameset,
                _ => Outcome::None,
            },
            HtmlStartTag::Switch(state) => {
                if !self.stack.is_empty() {
                    self.html_element(name);
                }
                Outcome::Switch(state)
            }
            HtmlStartTag::Other => {
                if !self.stack.is_empty() {
                    self.html_element(name);
                }
                Outcome::None
            }
        }
    }

    /// An HTML start tag inside an integration point: what "in body" does to the stack.
    fn html_element(&mut self, name: &[u8]) {
        if one_of(name, TABLE_PARTS) && self.table_open() {
            // The table modes insert these (approximately: implied `tbody`/`tr` are not
            // modelled, they never switch the tokenizer).
            self.push(Ns::Html, Point::None, name);
            return;
        }
        if one_of(name, CLOSES_P) {
            self.close_p();
        }
        if eq(name, b"input") || eq(name, b"select") {
            // html5ever 0.40 (the select parser relaxation): these close an open select.
            if let Some(i) = self.find_in_scope(&[b"select"], Scope::Default) {
                self.truncate(i);
                if eq(name, b"select") {
                    return;
                }
            }
        }
        if one_of(name, NOT_PUSHED) {
            return;
        }
        if eq(name, b"li") {
            self.close_list_item(&[b"li"]);
        } else if eq(name, b"dd") || eq(name, b"dt") {
            self.close_list_item(&[b"dd", b"dt"]);
        } else if (one_of(name, HEADINGS) && self.top_is_html(HEADINGS))
            || ((eq(name, b"option") || eq(name, b"optgroup")) && self.top_is_html(&[b"option"]))
        {
            // A heading closes a heading; an option or optgroup closes an option.
            self.truncate(self.stack.len() - 1);
        }
        self.push(Ns::Html, Point::None, name);
    }

    /// Whether an HTML `table` is open above the nearest integration point.
    fn table_open(&self) -> bool {
        for e in self.stack.iter().rev() {
            if e.ns != Ns::Html {
                return false;
            }
            if eq(self.name(e), b"table") {
                return true;
            }
        }
        false
    }

    /// "Close a p element" if one is in button scope.
    fn close_p(&mut self) {
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
            let n = self.name(&e);
            if one_of(n, names) {
                self.truncate(i);
                return;
            }
            if self.is_special(&e) && !one_of(n, &[b"address", b"div", b"p"]) {
                return;
            }
        }
    }

    fn is_special(&self, e: &Elem) -> bool {
        match e.ns {
            Ns::Html => one_of(self.name(e), SPECIAL),
            _ => e.point != Point::None,
        }
    }

    fn is_scope_marker(&self, e: &Elem, scope: Scope) -> bool {
        match e.ns {
            Ns::Html => {
                let n = self.name(e);
                one_of(
                    n,
                    &[
                        b"applet",
                        b"caption",
                        b"html",
                        b"table",
                        b"td",
                        b"th",
                        b"marquee",
                        b"object",
                        b"template",
                    ],
                ) || (scope == Scope::ListItem && one_of(n, &[b"ol", b"ul"]))
                    || (scope == Scope::Button && eq(n, b"button"))
            }
            _ => e.point != Point::None,
        }
    }

    /// The index of an HTML element named one of `names` in the given scope, if it is in
    /// the tracked part of the stack.
    fn find_in_scope(&self, names: &[&[u8]], scope: Scope) -> Option<usize> {
        for i in (0..self.stack.len()).rev() {
            let e = &self.stack[i];
            if e.ns == Ns::Html && one_of(self.name(e), names) {
                return Some(i);
            }
            if self.is_scope_marker(e, scope) {
                return None;
            }
        }
        None
    }

    /// An end tag was emitted.
    pub(crate) fn end_tag(&mut self, name: &[u8]) {
        let Some(top) = self.stack.last().copied() else {
            // HTML content (or a frameset mode): end tags never switch anything.
            return;
        };
        if top.ns == Ns::Html {
            self.html_end_tag(name);
            return;
        }
        let name_key = lower_key(name);
        if (name.len() == 2 && name_key == key(b"br")) || (name.len() == 1 && name_key == key(b"p"))
        {
            // 13.2.6.5: `</br>` and `</p>` leave foreign content like the break-out
            // start tags, then go to "in body".
            while let Some(e) = self.stack.last() {
                if e.ns == Ns::Html || matches!(e.point, Point::Html | Point::MathText) {
                    break;
                }
                self.truncate(self.stack.len() - 1);
            }
            self.html_end_tag(name);
            return;
        }
        // 13.2.6.5, "any other end tag": close the nearest element of that name, down to
        // the first HTML element, which hands the token to "in body".
        let mut i = self.stack.len() - 1;
        loop {
            let e = self.stack[i];
            if self.is_named(&e, name, name_key) {
                self.truncate(i);
                return;
            }
            if i == 0 || self.stack[i - 1].ns == Ns::Html {
                self.html_end_tag(name);
                return;
            }
            i -= 1;
        }
    }

    /// An end tag processed by "in body" (or "in head" for `</template>`).
    fn html_end_tag(&mut self, name: &[u8]) {
        if eq(name, b"p") {
            self.close_p();
            return;
        }
        if one_of(name, &[b"br", b"body", b"html"]) {
            return;
        }
        if eq(name, b"form") {
            // The form element is removed from the stack, nothing above it popped.
            if let Some(i) = self.find_in_scope(&[b"form"], Scope::Default) {
                self.stack.remove(i);
            }
            return;
        }
        if eq(name, b"template") {
            match self
                .stack
                .iter()
                .rposition(|e| e.ns == Ns::Html && eq(self.name(e), b"template"))
            {
                Some(i) => self.truncate(i),
                None => self.below_foreign_root(name),
            }
            return;
        }
        if one_of(name, SCOPED_END) {
            let scope = if eq(name, b"li") {
                Scope::ListItem
            } else {
                Scope::Default
            };
            let names: &[&[u8]] = if one_of(name, HEADINGS) {
                HEADINGS
            } else {
                &[name]
            };
            for i in (0..self.stack.len()).rev() {
                let e = &self.stack[i];
                if e.ns == Ns::Html && one_of(self.name(e), names) {
                    self.truncate(i);
                    return;
                }
                if self.is_scope_marker(e, scope) {
                    return;
                }
            }
        } else {
            for i in (0..self.stack.len()).rev() {
                let e = &self.stack[i];
                if e.ns == Ns::Html && eq(self.name(e), name) {
                    self.truncate(i);
                    return;
                }
                if self.is_special(e) {
                    return;
                }
            }
        }
        self.below_foreign_root(name);
    }

    /// An "in body" end tag walked down past the outermost foreign root, into the HTML
    /// elements the simulation does not track: assume it closes one of them (so the
    /// whole foreign subtree) when it names an HTML element that can be an open ancestor
    /// there ([`ANCESTORS`], or a custom element name); any other name (a void or raw
    /// text element, an SVG or MathML name, an unknown one) cannot be open: ignored.
    fn below_foreign_root(&mut self, name: &[u8]) {
        let custom = name.contains(&b'-') && !eq(name, b"annotation-xml");
        if custom || one_of(name, ANCESTORS) {
            self.stack.clear();
            self.names.clear();
        }
    }
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
