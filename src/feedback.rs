//! Feedback without a tree builder: a small simulation of the tree construction stage's
//! decisions that change how the tokenizer reads what follows.
//!
//! The tree builder switches the tokenizer to RCDATA, RAWTEXT, script data or PLAINTEXT
//! after certain HTML start tags (13.2.6.4.4 "in head", 13.2.6.4.7 "in body"), and lets
//! `<![CDATA[` open a CDATA section only when the adjusted current node is not an HTML
//! element (13.2.5.42). This module tracks just enough of the stack of open elements to
//! make those decisions: the `<svg>` and `<math>` subtrees, the HTML integration points
//! and MathML text integration points inside them, and the tags that break out of foreign
//! content (13.2.6.5). It does not model insertion modes (so `<style>` inside `<select>`,
//! which a browser ignores, still switches to RAWTEXT here).

use crate::state::State;

/// One open element that matters for namespaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// An `<svg>` element: SVG content below.
    Svg,
    /// A `<math>` element: MathML content below.
    Math,
    /// An HTML integration point or MathML text integration point (`foreignObject`,
    /// `desc`, `title` in SVG; `mi`, `mo`, `mn`, `ms`, `mtext`, and `annotation-xml` with
    /// an HTML encoding in MathML): HTML content below, closed by the same name. The
    /// flag tells whether an HTML element has been opened inside it: until then the
    /// integration point itself (an SVG or MathML element) is the current node, so
    /// `<![CDATA[` still opens a CDATA section.
    Integration(IntegrationPoint, bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IntegrationPoint {
    ForeignObject,
    Desc,
    Title,
    Mi,
    Mo,
    Mn,
    Ms,
    Mtext,
    AnnotationXml,
}

impl IntegrationPoint {
    fn in_svg(name: &[u8]) -> Option<Self> {
        match_lower(
            name,
            &[
                (b"foreignobject", IntegrationPoint::ForeignObject),
                (b"desc", IntegrationPoint::Desc),
                (b"title", IntegrationPoint::Title),
            ],
        )
    }

    fn in_math(name: &[u8]) -> Option<Self> {
        match_lower(
            name,
            &[
                (b"mi", IntegrationPoint::Mi),
                (b"mo", IntegrationPoint::Mo),
                (b"mn", IntegrationPoint::Mn),
                (b"ms", IntegrationPoint::Ms),
                (b"mtext", IntegrationPoint::Mtext),
            ],
        )
    }

    fn name(self) -> &'static [u8] {
        match self {
            IntegrationPoint::ForeignObject => b"foreignobject",
            IntegrationPoint::Desc => b"desc",
            IntegrationPoint::Title => b"title",
            IntegrationPoint::Mi => b"mi",
            IntegrationPoint::Mo => b"mo",
            IntegrationPoint::Mn => b"mn",
            IntegrationPoint::Ms => b"ms",
            IntegrationPoint::Mtext => b"mtext",
            IntegrationPoint::AnnotationXml => b"annotation-xml",
        }
    }
}

fn match_lower<T: Copy>(name: &[u8], table: &[(&[u8], T)]) -> Option<T> {
    table
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, v)| v)
}

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
        _ => HtmlStartTag::Other,
    }
}

/// The simulated tree builder.
#[derive(Clone, Debug)]
pub(crate) struct Simulator {
    scripting: bool,
    stack: Vec<Frame>,
}

impl Simulator {
    pub(crate) fn new(scripting: bool) -> Self {
        Simulator {
            scripting,
            stack: Vec::new(),
        }
    }

    /// Whether scripting is enabled (`<noscript>` is RAWTEXT).
    pub(crate) fn scripting(&self) -> bool {
        self.scripting
    }

    /// True when no foreign content is open: only HTML start tags can matter.
    #[inline]
    pub(crate) fn is_idle(&self) -> bool {
        self.stack.is_empty()
    }

    /// True when the adjusted current node is an SVG or MathML element.
    pub(crate) fn in_foreign_content(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame::Svg | Frame::Math | Frame::Integration(_, false))
        )
    }

    /// A start tag was emitted; returns the state the tree builder would switch to.
    /// `attr` looks up an attribute's decoded value by lowercase name.
    pub(crate) fn start_tag(
        &mut self,
        name: &[u8],
        self_closing: bool,
        attr: impl Fn(&[u8]) -> Option<String>,
    ) -> Option<State> {
        match self.stack.last_mut() {
            Some(Frame::Svg | Frame::Math) if is_breakout(name, &attr) => {
                self.leave_foreign_content();
                self.html_start_tag(name, self_closing)
            }
            Some(Frame::Svg) => {
                if !self_closing && let Some(point) = IntegrationPoint::in_svg(name) {
                    self.stack.push(Frame::Integration(point, false));
                }
                None
            }
            Some(Frame::Math) => {
                if !self_closing {
                    if let Some(point) = IntegrationPoint::in_math(name) {
                        self.stack.push(Frame::Integration(point, false));
                    } else if name.eq_ignore_ascii_case(b"annotation-xml") && html_encoding(&attr) {
                        self.stack
                            .push(Frame::Integration(IntegrationPoint::AnnotationXml, false));
                    }
                }
                None
            }
            Some(Frame::Integration(_, html_open)) => {
                // An HTML element opened here becomes the current node, unless it is a
                // void element (inserted and popped at once).
                if !is_void(name) {
                    *html_open = true;
                }
                self.html_start_tag(name, self_closing)
            }
            None => self.html_start_tag(name, self_closing),
        }
    }

    /// A start tag processed by the HTML rules.
    fn html_start_tag(&mut self, name: &[u8], self_closing: bool) -> Option<State> {
        match html_start_tag_kind(name, self.scripting) {
            HtmlStartTag::Switch(state) => Some(state),
            HtmlStartTag::Svg | HtmlStartTag::Math if self_closing => None,
            HtmlStartTag::Svg => {
                self.stack.push(Frame::Svg);
                None
            }
            HtmlStartTag::Math => {
                self.stack.push(Frame::Math);
                None
            }
            HtmlStartTag::Other => None,
        }
    }

    /// An end tag was emitted.
    pub(crate) fn end_tag(&mut self, name: &[u8]) {
        match self.stack.last() {
            None => {}
            Some(Frame::Integration(point, _)) if point.name().eq_ignore_ascii_case(name) => {
                self.stack.pop();
            }
            Some(Frame::Integration(..)) => {}
            Some(Frame::Svg | Frame::Math) => {
                if name.eq_ignore_ascii_case(b"br") || name.eq_ignore_ascii_case(b"p") {
                    // 13.2.6.5: `</br>` and `</p>` break out of foreign content.
                    self.leave_foreign_content();
                } else if name.eq_ignore_ascii_case(b"svg") || name.eq_ignore_ascii_case(b"math") {
                    let root = if name.eq_ignore_ascii_case(b"svg") {
                        Frame::Svg
                    } else {
                        Frame::Math
                    };
                    // Pop up to the matching root, if it is in the current foreign subtree.
                    let subtree = self
                        .stack
                        .iter()
                        .rposition(|f| matches!(f, Frame::Integration(..)))
                        .map_or(0, |i| i + 1);
                    if let Some(i) = self.stack[subtree..].iter().rposition(|&f| f == root) {
                        self.stack.truncate(subtree + i);
                    }
                }
            }
        }
    }

    /// Pops foreign frames until an integration point or HTML content is current.
    fn leave_foreign_content(&mut self) {
        while matches!(self.stack.last(), Some(Frame::Svg | Frame::Math)) {
            self.stack.pop();
        }
    }
}

/// The HTML void elements (13.1.2): inserted and popped at once, never the current node.
fn is_void(name: &[u8]) -> bool {
    const VOID: &[&[u8]] = &[
        b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
        b"source", b"track", b"wbr",
    ];
    VOID.iter().any(|v| v.eq_ignore_ascii_case(name))
}

fn is_breakout(name: &[u8], attr: &impl Fn(&[u8]) -> Option<String>) -> bool {
    if BREAKOUT_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
        return true;
    }
    name.eq_ignore_ascii_case(b"font")
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
        assert_eq!(sim.start_tag(b"TITLE", false, none), Some(State::Rcdata));
        assert_eq!(
            sim.start_tag(b"script", true, none),
            Some(State::ScriptData)
        );
        assert_eq!(
            sim.start_tag(b"noscript", false, none),
            Some(State::Rawtext)
        );
        assert_eq!(
            Simulator::new(false).start_tag(b"noscript", false, none),
            None
        );
        assert_eq!(
            sim.start_tag(b"plaintext", false, none),
            Some(State::Plaintext)
        );
    }

    #[test]
    fn foreign_content_suppresses_switches_and_allows_cdata() {
        let mut sim = Simulator::new(true);
        sim.start_tag(b"svg", false, none);
        assert!(sim.in_foreign_content());
        assert_eq!(sim.start_tag(b"script", false, none), None);
        assert_eq!(sim.start_tag(b"foreignObject", false, none), None);
        assert!(
            sim.in_foreign_content(),
            "foreignObject itself is an SVG element"
        );
        assert_eq!(sim.start_tag(b"style", false, none), Some(State::Rawtext));
        assert!(
            !sim.in_foreign_content(),
            "an HTML element inside it is current"
        );
        sim.end_tag(b"foreignobject");
        assert!(sim.in_foreign_content());
        sim.end_tag(b"svg");
        assert!(!sim.in_foreign_content());
    }

    #[test]
    fn breakout_tags_leave_foreign_content() {
        let mut sim = Simulator::new(true);
        sim.start_tag(b"math", false, none);
        assert_eq!(sim.start_tag(b"p", false, none), None);
        assert!(!sim.in_foreign_content());
        sim.start_tag(b"svg", false, none);
        assert_eq!(sim.start_tag(b"font", false, none), None);
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
        assert_eq!(sim.start_tag(b"title", false, none), Some(State::Rcdata));
        assert!(!sim.in_foreign_content());
    }
}
