//! Feedback without a tree builder: a small simulation of the tree construction stage's
//! decisions that change how the tokenizer reads what follows.
//!
//! The tree builder switches the tokenizer to RCDATA, RAWTEXT, script data or PLAINTEXT
//! after certain HTML start tags (13.2.6.4.4 "in head", 13.2.6.4.7 "in body"), and lets
//! `<![CDATA[` open a CDATA section only when the adjusted current node is not an HTML
//! element (13.2.5.42). Two things decide whether a start tag does that:
//!
//! - **Foreign content** (13.2.6.5, and the dispatcher of 13.2.6): from the first `<svg>`
//!   or `<math>` processed as HTML, the simulation keeps the stack of open elements above
//!   it exactly enough: every SVG and MathML element, the HTML integration points and
//!   MathML text integration points (13.2.6.5's lists, `annotation-xml` with a
//!   `text/html` or `application/xhtml+xml` encoding, `mglyph`/`malignmark` staying
//!   MathML), the HTML elements opened inside integration points (with the in-body rules
//!   that pop them: the end tags' "in scope" and "special" walks, `p` closed by the block
//!   start tags, `li`/`dd`/`dt`/headings/`option`), the break-out start tags (and `<font>`
//!   with `color`/`face`/`size`), `</br>` and `</p>`, and the "any other end tag" loop of
//!   13.2.6.5 that closes the matching element. The HTML elements *below* the outermost
//!   foreign root are not tracked (that would be a whole tree builder on the hot path):
//!   an end tag that reaches them is assumed to close an open ancestor (the usual case: a
//!   page that forgot `</svg>`), unless no element of that name can be open (void
//!   elements), and then it is ignored.
//! - **Insertion modes**: a `<frameset>` start tag switches to "in frameset" when the
//!   body element does not exist yet, or when the frameset-ok flag is still "ok"
//!   (13.2.6.4.6, 13.2.6.4.7); from then on ("in frameset", "after frameset", "after after
//!   frameset": 13.2.6.4.19–22) only `<noframes>` switches the tokenizer (RAWTEXT), every
//!   other start tag is ignored and foreign content never opens. The frameset-ok flag is
//!   not tracked on the hot path: the first `<frameset>` processed as HTML re-reads the
//!   document before it once (see `Tokenizer::frameset_allowed`). The other modes need
//!   nothing: `<select>`'s content is parsed by "in body" (the select parser relaxation,
//!   as in html5ever 0.40), and the table modes send these start tags to "in head" or
//!   "in body", which switch the same way.
//!
//! Most pages never open `<svg>`, `<math>` or `<frameset>`: then the simulator is idle and
//! each start tag is classified inline by length and packed name (`html_start_tag_kind_at`).

use crate::state::State;

/// Start tags that break out of foreign content (13.2.6.5, "A start tag whose tag name is
/// one of: …"); `font` only with a `color`, `face` or `size` attribute.
const BREAKOUT_TAGS: &[&[u8]] = &[
    b"b",
    b"big",
    b"blockquote",
    b"body",
    b"br",
    b"center",
    b"code",
    b"dd",
    b"div",
    b"dl",
    b"dt",
    b"em",
    b"embed",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"hr",
    b"i",
    b"img",
    b"li",
    b"listing",
    b"menu",
    b"meta",
    b"nobr",
    b"ol",
    b"p",
    b"pre",
    b"ruby",
    b"s",
    b"small",
    b"span",
    b"strong",
    b"strike",
    b"sub",
    b"sup",
    b"table",
    b"tt",
    b"u",
    b"ul",
    b"var",
];

/// What an HTML start tag means to the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HtmlStartTag {
    /// The tokenizer switches to this state.
    Switch(State),
    /// `<svg>`: SVG content follows (unless self-closing).
    Svg,
    /// `<math>`: MathML content follows (unless self-closing).
    Math,
    /// `<frameset>`: may switch to the frameset insertion modes (13.2.6.4.7).
    Frameset,
    /// Nothing changes.
    Other,
}

/// Packs a name of up to 8 bytes into a `u64`, each byte `| 0x20`. For names made of
/// letters this is exactly ASCII-case-insensitive: a byte maps to a lowercase letter only
/// if it is that letter in either case.
#[inline(always)]
const fn pack(name: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < name.len() && i < 8 {
        key |= ((name[i] | 0x20) as u64) << (8 * i);
        i += 1;
    }
    key
}

/// Classifies an HTML start tag name (raw bytes, any case) for the simulation: the state
/// switches of 13.2.6.4.4 "in head" and 13.2.6.4.7 "in body", and the foreign roots.
#[inline(always)]
pub(crate) fn html_start_tag_kind(name: &[u8], scripting: bool) -> HtmlStartTag {
    classify_html_start_tag(name, pack(name), scripting)
}

/// [`html_start_tag_kind`] for the name at `start..end` of `input`: packs the name with
/// one 8-byte load of `input` when the input goes on that far (names of 3 to 8 bytes are
/// the ones that need the packed form).
#[inline(always)]
pub(crate) fn html_start_tag_kind_at(
    input: &[u8],
    start: usize,
    end: usize,
    scripting: bool,
) -> HtmlStartTag {
    let name = &input[start..end];
    if !(3..=9).contains(&name.len()) {
        return HtmlStartTag::Other;
    }
    let packed = match input.get(start..start + 8) {
        Some(word) if name.len() < 8 => {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            let kept = (1u64 << (8 * name.len())) - 1;
            (word | 0x2020_2020_2020_2020) & kept
        }
        _ => pack(name),
    };
    classify_html_start_tag(name, packed, scripting)
}

/// The classification, given the name and its [`pack`]ed form.
#[inline(always)]
fn classify_html_start_tag(name: &[u8], packed: u64, scripting: bool) -> HtmlStartTag {
    const SVG: u64 = pack(b"svg");
    const XMP: u64 = pack(b"xmp");
    const MATH: u64 = pack(b"math");
    const TITLE: u64 = pack(b"title");
    const STYLE: u64 = pack(b"style");
    const SCRIPT: u64 = pack(b"script");
    const IFRAME: u64 = pack(b"iframe");
    const NOEMBED: u64 = pack(b"noembed");
    const TEXTAREA: u64 = pack(b"textarea");
    const NOFRAMES: u64 = pack(b"noframes");
    const FRAMESET: u64 = pack(b"frameset");
    const NOSCRIPT: u64 = pack(b"noscript");
    let len = name.len();
    if !(3..=9).contains(&len) {
        return HtmlStartTag::Other;
    }
    if len == 9 {
        return if name.eq_ignore_ascii_case(b"plaintext") {
            HtmlStartTag::Switch(State::Plaintext)
        } else {
            HtmlStartTag::Other
        };
    }
    match (len, packed) {
        (3, SVG) => HtmlStartTag::Svg,
        (4, MATH) => HtmlStartTag::Math,
        (5, TITLE) | (8, TEXTAREA) => HtmlStartTag::Switch(State::Rcdata),
        (3, XMP) | (5, STYLE) | (6, IFRAME) | (7, NOEMBED) | (8, NOFRAMES) => {
            HtmlStartTag::Switch(State::Rawtext)
        }
        (8, NOSCRIPT) if scripting => HtmlStartTag::Switch(State::Rawtext),
        (6, SCRIPT) => HtmlStartTag::Switch(State::ScriptData),
        (8, FRAMESET) => HtmlStartTag::Frameset,
        _ => HtmlStartTag::Other,
    }
}

/// An element's namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

/// What kind of boundary a foreign element is (13.2.6.5; "has an element in scope").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
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
struct Elem {
    ns: Ns,
    point: Point,
    /// [`lower_key`] of the name.
    key: u64,
    /// The name's bytes in `names` (kept for HTML elements and names over 8 bytes only).
    start: u32,
    len: u32,
}

/// The first 8 bytes of `name`, ASCII-lowercased, packed little-endian: with the length,
/// the whole name when it has at most 8 bytes.
#[inline]
fn lower_key(name: &[u8]) -> u64 {
    let mut key = 0u64;
    for (i, &b) in name.iter().take(8).enumerate() {
        key |= u64::from(b.to_ascii_lowercase()) << (8 * i);
    }
    key
}

/// [`lower_key`] of a lowercase name, at compile time.
const fn key(name: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < name.len() && i < 8 {
        key |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    key
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

fn eq(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn one_of(name: &[u8], list: &[&[u8]]) -> bool {
    list.iter().any(|n| eq(n, name))
}

/// HTML start tags that never stay on the stack in "in body": the void elements and
/// `image`, and the ones "in body" ignores (13.2.6.4.7).
const NOT_PUSHED: &[&[u8]] = &[
    b"area",
    b"base",
    b"basefont",
    b"bgsound",
    b"br",
    b"col",
    b"embed",
    b"hr",
    b"image",
    b"img",
    b"input",
    b"keygen",
    b"link",
    b"meta",
    b"param",
    b"source",
    b"track",
    b"wbr",
    b"frame",
    b"html",
    b"body",
    b"head",
    b"caption",
    b"colgroup",
    b"tbody",
    b"td",
    b"tfoot",
    b"th",
    b"thead",
    b"tr",
];

/// The table tags "in body" ignores but the table modes insert.
const TABLE_PARTS: &[&[u8]] = &[
    b"caption",
    b"col",
    b"colgroup",
    b"tbody",
    b"td",
    b"tfoot",
    b"th",
    b"thead",
    b"tr",
];

/// Start tags that close a `p` element in button scope first (13.2.6.4.7).
const CLOSES_P: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"header",
    b"hgroup",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"p",
    b"search",
    b"section",
    b"summary",
    b"ul",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"pre",
    b"listing",
    b"form",
    b"plaintext",
    b"table",
    b"hr",
    b"xmp",
];

const HEADINGS: &[&[u8]] = &[b"h1", b"h2", b"h3", b"h4", b"h5", b"h6"];

/// The HTML elements of the special category (13.2.4.3).
const SPECIAL: &[&[u8]] = &[
    b"address",
    b"applet",
    b"area",
    b"article",
    b"aside",
    b"base",
    b"basefont",
    b"bgsound",
    b"blockquote",
    b"body",
    b"br",
    b"button",
    b"caption",
    b"center",
    b"col",
    b"colgroup",
    b"dd",
    b"details",
    b"dir",
    b"div",
    b"dl",
    b"dt",
    b"embed",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"frame",
    b"frameset",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"header",
    b"hgroup",
    b"hr",
    b"html",
    b"iframe",
    b"img",
    b"input",
    b"keygen",
    b"li",
    b"link",
    b"listing",
    b"main",
    b"marquee",
    b"menu",
    b"meta",
    b"nav",
    b"noembed",
    b"noframes",
    b"noscript",
    b"object",
    b"ol",
    b"p",
    b"param",
    b"plaintext",
    b"pre",
    b"script",
    b"search",
    b"section",
    b"select",
    b"source",
    b"style",
    b"summary",
    b"table",
    b"tbody",
    b"td",
    b"template",
    b"textarea",
    b"tfoot",
    b"th",
    b"thead",
    b"title",
    b"tr",
    b"track",
    b"ul",
    b"wbr",
    b"xmp",
];

/// End tags with an "in scope" rule in "in body" (13.2.6.4.7), including the formatting
/// elements (the adoption agency algorithm, which gives up unless the element is in
/// scope).
const SCOPED_END: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"button",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"header",
    b"hgroup",
    b"listing",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"pre",
    b"search",
    b"section",
    b"select",
    b"summary",
    b"ul",
    b"li",
    b"dd",
    b"dt",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"applet",
    b"marquee",
    b"object",
    b"a",
    b"b",
    b"big",
    b"code",
    b"em",
    b"font",
    b"i",
    b"nobr",
    b"s",
    b"small",
    b"strike",
    b"strong",
    b"tt",
    b"u",
];

/// Which "has an element in scope" variant (13.2.4.2).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
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

/// HTML elements that can be open below an `<svg>` or `<math>` in the body (not void,
/// not raw text, not `html`/`head`/`body`, whose end tags pop nothing).
const ANCESTORS: &[&[u8]] = &[
    b"a",
    b"abbr",
    b"address",
    b"applet",
    b"article",
    b"aside",
    b"audio",
    b"b",
    b"bdi",
    b"bdo",
    b"big",
    b"blockquote",
    b"button",
    b"canvas",
    b"caption",
    b"center",
    b"cite",
    b"code",
    b"colgroup",
    b"data",
    b"dd",
    b"del",
    b"details",
    b"dfn",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"dt",
    b"em",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"font",
    b"footer",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"header",
    b"hgroup",
    b"i",
    b"ins",
    b"kbd",
    b"label",
    b"legend",
    b"li",
    b"listing",
    b"main",
    b"map",
    b"mark",
    b"marquee",
    b"menu",
    b"meter",
    b"nav",
    b"nobr",
    b"object",
    b"ol",
    b"optgroup",
    b"option",
    b"output",
    b"picture",
    b"pre",
    b"progress",
    b"q",
    b"rb",
    b"rp",
    b"rt",
    b"rtc",
    b"ruby",
    b"s",
    b"samp",
    b"search",
    b"section",
    b"select",
    b"small",
    b"span",
    b"strike",
    b"strong",
    b"sub",
    b"summary",
    b"sup",
    b"table",
    b"tbody",
    b"td",
    b"template",
    b"tfoot",
    b"th",
    b"thead",
    b"time",
    b"tr",
    b"tt",
    b"u",
    b"ul",
    b"var",
    b"video",
];

/// Start tags that break out of foreign content; `font` only with a `color`, `face` or
/// `size` attribute.
/// `name_key` is the name's [`lower_key`]: the common names (every SVG and MathML one)
/// are told apart by length and a few integer comparisons.
fn is_breakout(name: &[u8], name_key: u64, attr: &impl Fn(&[u8]) -> Option<String>) -> bool {
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

fn html_encoding(attr: &impl Fn(&[u8]) -> Option<String>) -> bool {
    attr(b"encoding").is_some_and(|v| {
        v.eq_ignore_ascii_case("text/html") || v.eq_ignore_ascii_case("application/xhtml+xml")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &[u8]) -> Option<String> {
        None
    }

    #[test]
    fn packed_names_match_case_insensitively_and_only_letters() {
        assert_eq!(
            html_start_tag_kind(b"ScRiPt", true),
            HtmlStartTag::Switch(State::ScriptData)
        );
        assert_eq!(html_start_tag_kind(b"SVG", true), HtmlStartTag::Svg);
        assert_eq!(
            html_start_tag_kind(b"PlainText", true),
            HtmlStartTag::Switch(State::Plaintext)
        );
        assert_eq!(html_start_tag_kind(b"noscript", false), HtmlStartTag::Other);
        // `@` | 0x20 is a backquote, not a letter: no false match.
        assert_eq!(html_start_tag_kind(b"s\x16g", true), HtmlStartTag::Other);
        assert_eq!(html_start_tag_kind(b"divs", true), HtmlStartTag::Other);
        assert_eq!(html_start_tag_kind(b"scripts", true), HtmlStartTag::Other);
        // The 8-byte load form gives the same answers, near the input's end or not.
        for input in [
            &b"<SVG x>"[..],
            b"<svg",
            b"<TexTarea>",
            b"<scriptx>",
            b"<style>",
            b"<mathematics>",
        ] {
            for end in 1..input.len() {
                assert_eq!(
                    html_start_tag_kind_at(input, 1, end, true),
                    html_start_tag_kind(&input[1..end], true),
                    "{input:?} 1..{end}"
                );
            }
        }
    }

    #[test]
    fn html_start_tags_switch_states() {
        let mut sim = Simulator::new(true);
        assert_eq!(
            sim.start_tag(b"TITLE", false, none),
            Outcome::Switch(State::Rcdata)
        );
        assert_eq!(
            sim.start_tag(b"script", true, none),
            Outcome::Switch(State::ScriptData)
        );
        assert_eq!(
            sim.start_tag(b"noscript", false, none),
            Outcome::Switch(State::Rawtext)
        );
        assert_eq!(
            Simulator::new(false).start_tag(b"noscript", false, none),
            Outcome::None
        );
        assert_eq!(
            sim.start_tag(b"plaintext", false, none),
            Outcome::Switch(State::Plaintext)
        );
    }

    #[test]
    fn foreign_content_suppresses_switches_and_allows_cdata() {
        let mut sim = Simulator::new(true);
        sim.start_tag(b"svg", false, none);
        assert!(sim.in_foreign_content());
        assert_eq!(sim.start_tag(b"script", false, none), Outcome::None);
        assert_eq!(sim.start_tag(b"foreignObject", false, none), Outcome::None);
        assert!(
            sim.in_foreign_content(),
            "foreignObject itself is an SVG element"
        );
        assert_eq!(
            sim.start_tag(b"style", false, none),
            Outcome::Switch(State::Rawtext)
        );
        assert!(
            !sim.in_foreign_content(),
            "an HTML element inside it is current"
        );
        sim.end_tag(b"style");
        sim.end_tag(b"foreignobject");
        assert!(sim.in_foreign_content());
        sim.end_tag(b"svg");
        assert!(!sim.in_foreign_content());
    }

    #[test]
    fn breakout_tags_leave_foreign_content() {
        let mut sim = Simulator::new(true);
        sim.start_tag(b"math", false, none);
        assert_eq!(sim.start_tag(b"p", false, none), Outcome::None);
        assert!(!sim.in_foreign_content());
        sim.start_tag(b"svg", false, none);
        assert_eq!(sim.start_tag(b"font", false, none), Outcome::None);
        assert!(sim.in_foreign_content());
        sim.start_tag(b"font", false, |n: &[u8]| {
            (n == b"color").then(|| "red".to_string())
        });
        assert!(!sim.in_foreign_content());
    }

    #[test]
    fn cdata_stays_allowed_directly_inside_an_integration_point() {
        let mut sim = Simulator::new(true);
        sim.start_tag(b"math", false, none);
        sim.start_tag(b"mtext", false, none);
        assert!(sim.in_foreign_content(), "mtext itself is a MathML element");
        sim.start_tag(b"br", false, none);
        assert!(sim.in_foreign_content(), "a void element is popped at once");
        sim.start_tag(b"b", false, none);
        assert!(!sim.in_foreign_content(), "an HTML <b> is the current node");
    }

    #[test]
    fn annotation_xml_with_html_encoding_is_an_integration_point() {
        let mut sim = Simulator::new(true);
        sim.start_tag(b"math", false, none);
        sim.start_tag(b"annotation-xml", false, |n: &[u8]| {
            (n == b"encoding").then(|| "text/html".to_string())
        });
        assert_eq!(
            sim.start_tag(b"title", false, none),
            Outcome::Switch(State::Rcdata)
        );
        assert!(!sim.in_foreign_content());
    }

    /// Feeds `tags` (`"<a>"`, `"</a>"`, `"<a/>"`, attributes as `"<font color>"`) and
    /// returns the last start tag's outcome.
    fn feed(sim: &mut Simulator, tags: &[&str]) -> Outcome {
        let mut last = Outcome::None;
        for t in tags {
            let inner = t.trim_start_matches('<').trim_end_matches('>');
            if let Some(name) = inner.strip_prefix('/') {
                sim.end_tag(name.as_bytes());
                continue;
            }
            let (inner, self_closing) = match inner.strip_suffix('/') {
                Some(i) => (i, true),
                None => (inner, false),
            };
            let mut parts = inner.split(' ');
            let name = parts.next().unwrap();
            let attrs: Vec<(String, String)> = parts
                .map(|a| match a.split_once('=') {
                    Some((n, v)) => (n.to_string(), v.to_string()),
                    None => (a.to_string(), String::new()),
                })
                .collect();
            last = sim.start_tag(name.as_bytes(), self_closing, |n: &[u8]| {
                attrs
                    .iter()
                    .find(|(a, _)| a.as_bytes() == n)
                    .map(|(_, v)| v.clone())
            });
            if last == Outcome::CheckFrameset {
                sim.frameset_decided(true);
                last = Outcome::None;
            }
        }
        last
    }

    #[test]
    fn nested_svg_keeps_the_outer_one_open() {
        // Issue #15: `<style>` after an inner `</svg>` is still SVG.
        let mut sim = Simulator::new(true);
        let tags = ["<svg>", "<svg>", "</svg>", "<style>"];
        assert_eq!(feed(&mut sim, &tags), Outcome::None);
        assert!(sim.in_foreign_content());
        feed(&mut sim, &["</style>", "</svg>"]);
        assert!(sim.is_idle());
    }

    #[test]
    fn frameset_modes_ignore_switching_start_tags() {
        // Issue #15: `<frameset><plaintext>` never enters PLAINTEXT.
        let mut sim = Simulator::new(true);
        assert_eq!(feed(&mut sim, &["<frameset>"]), Outcome::None);
        assert!(!sim.is_idle());
        for tag in [
            "<plaintext>",
            "<script>",
            "<style>",
            "<title>",
            "<svg>",
            "<math>",
        ] {
            assert_eq!(feed(&mut sim, &[tag]), Outcome::None, "{tag}");
        }
        assert!(!sim.in_foreign_content());
        feed(&mut sim, &["</frameset>", "</html>"]);
        assert_eq!(
            feed(&mut sim, &["<noframes>"]),
            Outcome::Switch(State::Rawtext)
        );
        // The tokenizer asks first; an ignored `<frameset>` changes nothing.
        let mut sim = Simulator::new(true);
        assert_eq!(
            sim.start_tag(b"frameset", false, none),
            Outcome::CheckFrameset
        );
        sim.frameset_decided(false);
        assert!(sim.is_idle());
        assert_eq!(sim.start_tag(b"frameset", false, none), Outcome::None);
    }

    #[test]
    fn any_other_end_tag_closes_the_matching_foreign_element() {
        let mut sim = Simulator::new(true);
        feed(
            &mut sim,
            &["<svg>", "<g>", "<foreignObject>", "<div>", "<svg>", "<g>"],
        );
        // `</foreignobject>` inside HTML content inside it: "in body" stops at the div.
        feed(&mut sim, &["</div>"]);
        assert!(sim.in_foreign_content());
        assert_eq!(
            feed(&mut sim, &["<style>"]),
            Outcome::Switch(State::Rawtext)
        );
        feed(&mut sim, &["</style>", "</foreignObject>"]);
        assert!(sim.in_foreign_content(), "back in the outer <g>");
        assert_eq!(feed(&mut sim, &["<style>"]), Outcome::None);
        feed(&mut sim, &["</style>", "</G>"]);
        assert!(sim.in_foreign_content());
        feed(&mut sim, &["</svg>"]);
        assert!(sim.is_idle());
    }

    #[test]
    fn end_tags_reaching_untracked_html_close_the_foreign_subtree() {
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<svg>", "<path>", "</div>"]);
        assert!(sim.is_idle(), "an open <div> below is assumed");
        feed(&mut sim, &["<svg>", "<path>", "</img>", "</x>", "</mi>"]);
        assert!(sim.in_foreign_content(), "no <img>, <x>, <mi> can be open");
        // An integration point stops the in-body walk.
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<svg>", "<foreignObject>", "</div>"]);
        assert!(sim.in_foreign_content());
    }

    #[test]
    fn br_and_p_end_tags_leave_foreign_content() {
        for end in ["</br>", "</p>"] {
            let mut sim = Simulator::new(true);
            feed(&mut sim, &["<math>", "<mrow>", end]);
            assert!(sim.is_idle(), "{end}");
            // Inside an integration point they stop there.
            let mut sim = Simulator::new(true);
            feed(&mut sim, &["<svg>", "<desc>", "<svg>", "<g>", end]);
            assert!(sim.in_foreign_content(), "{end}: desc is current");
            assert_eq!(
                feed(&mut sim, &["<textarea>"]),
                Outcome::Switch(State::Rcdata)
            );
        }
    }

    #[test]
    fn mathml_text_integration_points_keep_mglyph_and_malignmark() {
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<math>", "<mi>", "<mglyph>"]);
        assert!(sim.in_foreign_content());
        assert_eq!(feed(&mut sim, &["<style>"]), Outcome::None);
        feed(&mut sim, &["</style>", "</mglyph>"]);
        assert_eq!(
            feed(&mut sim, &["<style>"]),
            Outcome::Switch(State::Rawtext)
        );
    }

    #[test]
    fn annotation_xml_without_encoding_takes_svg_as_html() {
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<math>", "<annotation-xml>"]);
        assert_eq!(feed(&mut sim, &["<style>"]), Outcome::None);
        feed(&mut sim, &["</style>", "<svg>", "<foreignObject>"]);
        assert_eq!(
            feed(&mut sim, &["<style>"]),
            Outcome::Switch(State::Rawtext)
        );
    }

    #[test]
    fn html_elements_in_integration_points_pop_by_in_body_rules() {
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<svg>", "<foreignObject>", "<b>", "</b>"]);
        assert!(sim.in_foreign_content(), "foreignObject is current again");
        feed(&mut sim, &["<p>", "<div>", "</div>"]);
        assert!(sim.in_foreign_content(), "<div> closed the <p>");
        feed(&mut sim, &["<li>", "<li>", "</li>"]);
        assert!(sim.in_foreign_content(), "the second <li> closed the first");
        feed(&mut sim, &["<span>", "<div>", "</span>"]);
        assert!(
            !sim.in_foreign_content(),
            "</span> stops at the special <div>"
        );
        feed(&mut sim, &["</div>", "</span>", "<br>", "<img>"]);
        assert!(sim.in_foreign_content(), "void elements are never current");
    }

    #[test]
    fn breakout_keys_match_the_list() {
        let none = |_: &[u8]| None;
        for name in BREAKOUT_TAGS {
            let upper = name.to_ascii_uppercase();
            assert!(is_breakout(name, lower_key(name), &none), "{name:?}");
            assert!(is_breakout(&upper, lower_key(&upper), &none), "{upper:?}");
        }
        for name in [
            &b"path"[..],
            b"g",
            b"svg",
            b"blockquotes",
            b"bb",
            b"font",
            b"p1",
        ] {
            assert!(!is_breakout(name, lower_key(name), &none), "{name:?}");
        }
    }

    #[test]
    fn font_breaks_out_only_with_its_attributes() {
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<svg>", "<font>"]);
        assert!(sim.in_foreign_content());
        feed(&mut sim, &["</font>", "<font size=2>"]);
        assert!(sim.is_idle());
    }
}
