//! The visible text of a page as plain text with its line structure, the way the
//! html2text family and the DOM's `innerText` lay it out, without CSS beyond the user
//! agent style sheet's `display` and inline `style` attributes:
//!
//! - **Left out**: what the user agent style sheet never renders (HTML § 15.3.1: `head`,
//!   `script`, `style`, `template`, `title`, `datalist`, `noembed`, `noframes`, `rp`,
//!   `param`, …); elements with the `hidden` attribute (but `hidden=until-found`, whose
//!   content a reader can find and reveal), with `aria-hidden="true"`, or with
//!   `display: none` or `visibility: hidden|collapse` in their `style` attribute; a
//!   closed `details` element's content but its summary; `noscript` unless asked for
//!   ([`Options::noscript`]: a crawler parses with scripting off, so `noscript` holds
//!   markup, which a browser with scripting on does not show); SVG `title`, `desc`, `style` and `script`.
//! - **Line breaks**: block-level elements (the style sheet's `display: block`,
//!   `list-item`, table rows, …) start and end a line; paragraphs, headings, block
//!   quotes, lists, tables, `pre` and figures are set apart by a blank line; `<br>` is a
//!   line break; `<hr>` a line of its own.
//! - **Whitespace**: outside `pre`, `textarea`, `listing` and `plaintext`, each run of
//!   ASCII whitespace is one space, and none is kept at the start or end of a line (CSS
//!   `white-space: normal`); inside them the text is kept as it is.
//! - **Tables**: one line per row, cells separated by a tab (as `innerText` does).
//!
//! The walk is iterative (first child, next sibling, parent): a million nested elements
//! take no stack.

use htmltok_tree::{AttrNs, Name, NodeData, NodeRef, Ns, Tag};

use crate::Tree;

/// What [`visible_text`] includes beyond the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Include the content of `noscript` elements (as a browser without scripting shows
    /// it). Off by default.
    pub noscript: bool,
}

/// How an element lays out, from the user agent style sheet (HTML § 15.3).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Not rendered.
    None,
    /// Inline: no line break of its own.
    Inline,
    /// A block: a line of its own.
    Block,
    /// A block set apart by a blank line.
    Paragraph,
    /// A table row: a line of its own.
    Row,
    /// A table cell: a tab before it unless it is its row's first.
    Cell,
    /// `<br>`: a line break.
    Break,
}

pub(crate) fn layout(tag: Tag) -> Layout {
    use Tag::*;
    match tag {
        Area | Base | Basefont | Datalist | Head | Link | Meta | Noembed | Noframes | Param
        | Rp | Script | Style | Template | Title => Layout::None,
        P | H1 | H2 | H3 | H4 | H5 | H6 | Blockquote | Ul | Ol | Dl | Menu | Dir | Table | Pre
        | Listing | Plaintext | Xmp | Figure => Layout::Paragraph,
        Address | Article | Aside | Body | Center | Dd | Details | Dialog | Div | Dt | Fieldset
        | Figcaption | Footer | Form | Header | Hgroup | Hr | Html | Legend | Li | Main | Nav
        | Search | Section | Summary | Caption | Optgroup | Option => Layout::Block,
        Tr => Layout::Row,
        Td | Th => Layout::Cell,
        Br => Layout::Break,
        _ => Layout::Inline,
    }
}

fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// Whether an inline `style` attribute hides the element: a `display: none`,
/// `visibility: hidden` or `visibility: collapse` declaration (ASCII case-insensitive,
/// `!important` allowed). The last declaration of a property wins, as in CSS.
fn style_hides(style: &str) -> bool {
    // Both properties that can hide have a `y`: a style without one (most: widths,
    // colours, fonts) is passed over without the cost of splitting it into declarations.
    if memchr::memchr2(b'y', b'Y', style.as_bytes()).is_none() {
        return false;
    }
    let mut display_none = false;
    let mut invisible = false;
    for declaration in style.split(';') {
        let Some((property, value)) = declaration.split_once(':') else {
            continue;
        };
        let property = property.trim_matches(is_ascii_whitespace);
        let value = value.trim_matches(is_ascii_whitespace);
        let value = value
            .strip_suffix("!important")
            .or_else(|| value.strip_suffix("!IMPORTANT"))
            .unwrap_or(value)
            .trim_matches(is_ascii_whitespace);
        if property.eq_ignore_ascii_case("display") {
            display_none = value.eq_ignore_ascii_case("none");
        } else if property.eq_ignore_ascii_case("visibility") {
            invisible =
                value.eq_ignore_ascii_case("hidden") || value.eq_ignore_ascii_case("collapse");
        }
    }
    display_none || invisible
}

/// Whether an element (by its attributes) is hidden: `hidden` (not `until-found`),
/// `aria-hidden="true"`, or an inline style that hides it. One scan of the attributes.
pub(crate) fn attributes_hide(node: &NodeRef<'_>) -> bool {
    node.attrs().any(|a| {
        a.ns() == AttrNs::None
            && matches!(a.name_bytes(), b"hidden" | b"aria-hidden" | b"style")
            && attribute_hides(a.name_bytes(), &a.value())
    })
}

/// Whether one attribute (`hidden`, `aria-hidden` or `style`, in no namespace) hides its
/// element; any other attribute does not. The name as its bytes
/// ([`htmltok_tree::AttrRef::name_bytes`]: no UTF-8 check to compare it).
pub(crate) fn attribute_hides(name: &[u8], value: &str) -> bool {
    match name {
        b"hidden" => !value
            .trim_matches(is_ascii_whitespace)
            .eq_ignore_ascii_case("until-found"),
        b"aria-hidden" => value
            .trim_matches(is_ascii_whitespace)
            .eq_ignore_ascii_case("true"),
        b"style" => style_hides(value),
        _ => false,
    }
}

/// Whether a byte is ASCII whitespace (HTML's: tab, line feed, form feed, carriage
/// return, space).
pub(crate) fn is_space_byte(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// The index of the first ASCII whitespace byte of `bytes` at or after `from`, or the
/// length. Eight bytes at a time: a word with no byte under 0x21 has no whitespace, and
/// the lowest byte the test flags is the first under 0x21 (a borrow can only flag bytes
/// after it), so only such bytes are looked at one by one: this scan is the hottest loop
/// of laying out text.
fn next_space(bytes: &[u8], from: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut i = from;
    while let Some(word) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // A byte's high bit here: that byte, or one before it, is under 0x21.
        let low = word.wrapping_sub(ONES * 0x21) & !word & HIGHS;
        if low == 0 {
            i += 8;
            continue;
        }
        let at = i + (low.trailing_zeros() / 8) as usize;
        if is_space_byte(bytes[at]) {
            return at;
        }
        // A control character: go on after it.
        i = at + 1;
    }
    while i < bytes.len() && !is_space_byte(bytes[i]) {
        i += 1;
    }
    i
}

/// The end of the run of ASCII whitespace at `from`: the index of the first byte at or
/// after `from` that is not whitespace, or the length.
#[inline]
pub(crate) fn spaces_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() && is_space_byte(bytes[i]) {
        i += 1;
    }
    i
}

/// The end of the stretch of words at `from` (a byte that is not whitespace) in which
/// one space separates each word from the next: the index of the first whitespace that
/// is not a single space before more text, or the length. Whitespace collapsed, such a
/// stretch is laid out as it is, in one copy (most text is such stretches).
#[inline]
pub(crate) fn words_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        i = next_space(bytes, i);
        if i + 1 < bytes.len() && bytes[i] == b' ' && !is_space_byte(bytes[i + 1]) {
            i += 1;
        } else {
            return i;
        }
    }
}

/// The text being laid out: pending line breaks and spaces are written only when more
/// text follows, so no blank lines or spaces pile up at block edges.
///
/// The text is kept as UTF-8 bytes and checked once, when finished: text nodes are
/// copied from [`htmltok_tree::NodeRef::text_bytes`] without a UTF-8 check each (one check
/// over the output costs less than one per text node: see ARCHITECTURE "Page content").
/// Only whole text nodes and stretches cut at ASCII whitespace are copied, so the bytes
/// stay UTF-8.
#[derive(Default)]
pub(crate) struct Writer {
    out: Vec<u8>,
    /// Line breaks owed before the next text (0, 1 or 2: a blank line).
    breaks: u8,
    /// A collapsed space owed before the next text on the same line.
    space: bool,
    /// Tabs owed before the next text (one per table cell passed since the last text
    /// in the row, so that an empty cell keeps its column).
    tabs: usize,
    /// How many whitespace-keeping elements (`pre`, …) are open.
    pre: usize,
    /// Whether `noscript` content is laid out ([`Options::noscript`]).
    noscript: bool,
}

impl Writer {
    pub(crate) fn new(options: Options) -> Writer {
        Writer {
            noscript: options.noscript,
            ..Writer::default()
        }
    }

    pub(crate) fn line_break(&mut self, count: u8) {
        self.breaks = self.breaks.max(count);
        self.space = false;
        // Cells left empty at a row's end leave no trailing tabs.
        self.tabs = 0;
    }

    fn flush(&mut self) {
        if self.out.is_empty() {
            self.breaks = 0;
        }
        if self.breaks > 0 {
            // Line breaks a `<br>` already wrote count: a `<br>` that ends a block
            // leaves no empty line of its own.
            // (Looking back no further than the breaks owed keeps this constant time.)
            let owed = usize::from(self.breaks);
            let written = self
                .out
                .iter()
                .rev()
                .take(owed)
                .take_while(|&&b| b == b'\n')
                .count();
            for _ in written..owed {
                self.out.push(b'\n');
            }
            self.breaks = 0;
            self.space = false;
        }
        if self.tabs > 0 {
            for _ in 0..self.tabs {
                self.out.push(b'\t');
            }
            self.tabs = 0;
            self.space = false;
        }
        if self.space {
            self.out.push(b' ');
            self.space = false;
        }
    }

    /// Writes a text node's text, given as its UTF-8 bytes.
    fn text(&mut self, bytes: &[u8]) {
        if self.pre > 0 {
            if !bytes.is_empty() {
                self.flush();
                self.out.extend_from_slice(bytes);
            }
            return;
        }
        // Whitespace runs collapse to one space. Words that one space already separates
        // are copied as one stretch (most text is such stretches), and the scan is over
        // bytes: ASCII whitespace bytes are always character boundaries in UTF-8.
        let mut i = 0;
        while i < bytes.len() {
            if is_space_byte(bytes[i]) {
                i = spaces_end(bytes, i);
                if !self.out.is_empty() && !self.out.ends_with(b"\n") {
                    self.space = true;
                }
                continue;
            }
            let start = i;
            i = words_end(bytes, i);
            self.flush();
            self.out.extend_from_slice(&bytes[start..i]);
        }
    }

    pub(crate) fn finish(self) -> String {
        finish_text(self.out)
    }
}

/// Laid-out text as a string: ASCII whitespace trimmed at its end, line breaks at its
/// start. Valid UTF-8 by construction (text is copied whole or cut at ASCII bytes);
/// lossy rather than a panic all the same.
pub(crate) fn finish_text(mut out: Vec<u8>) -> String {
    let end = out
        .iter()
        .rposition(|&b| !is_space_byte(b))
        .map_or(0, |i| i + 1);
    out.truncate(end);
    let start = out.iter().take_while(|&&b| b == b'\n').count();
    out.drain(..start);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Whether the node is a child of a closed `details` element other than its first
/// `summary` (which is all a closed `details` shows). Linear over a page: only a
/// `summary` looks back, and only as far as the `summary` before it.
fn in_closed_details(node: &NodeRef<'_>) -> bool {
    node.parent().is_some_and(|parent| {
        parent
            .element_name()
            .is_some_and(|name| is_closed_details(name, &parent))
    }) && hidden_in_details(node)
}

/// Whether an element (`node`, named `name`) is a `details` element without the `open`
/// attribute.
fn is_closed_details(name: Name, node: &NodeRef<'_>) -> bool {
    name.is_html(Tag::Details) && node.attr("open").is_none()
}

/// Whether a child of a closed `details` element is hidden: all but its first
/// `summary` are.
fn hidden_in_details(node: &NodeRef<'_>) -> bool {
    let is_summary = |n: &NodeRef<'_>| n.element_name().is_some_and(|n| n.is_html(Tag::Summary));
    !is_summary(node)
        || std::iter::successors(node.prev_sibling(), |s| s.prev_sibling()).any(|s| is_summary(&s))
}

/// What a walk of [`render`] lays its elements and texts out into: the visible text's
/// [`Writer`], or Markdown's ([`crate::markdown`]). `render` decides what is shown (the
/// hidden elements, a closed `details`, what its caller skips); the sink, how it is
/// written.
pub(crate) trait Sink {
    /// What leaving an element needs.
    type Open;
    /// Enters an element that is shown (its opening break written): what leaving it
    /// needs, or None when its content is not laid out (an element never rendered).
    fn enter(&mut self, node: &NodeRef<'_>, name: Name) -> Option<Self::Open>;
    /// Leaves an element [`Sink::enter`] entered.
    fn leave(&mut self, open: Self::Open);
    /// Writes a text node's text, given as its UTF-8 bytes.
    fn text(&mut self, bytes: &[u8]);
    /// Owes a line break (1) or a blank line (2) before the next text.
    fn line_break(&mut self, count: u8);
    /// The text laid out.
    fn finish(self) -> String;
}

/// How the visible text lays out an element: its [`Layout`] by the user agent style
/// sheet, `noscript` by the option, SVG's `title`, `desc`, `style` and `script` not at all, other foreign
/// elements inline.
pub(crate) fn element_layout(name: Name, noscript: bool) -> Layout {
    match name.ns {
        Ns::Html if name.tag == Tag::Noscript && !noscript => Layout::None,
        Ns::Html => layout(name.tag),
        Ns::Svg if matches!(name.tag, Tag::Title | Tag::Desc | Tag::Style | Tag::Script) => {
            Layout::None
        }
        _ => Layout::Inline,
    }
}

/// An element the walk is inside: what leaving it needs, and what its children need of
/// it (kept here so that neither reads the element again: reading the parent's name and
/// the element's own a second time for each node visited is a large part of the layout).
#[derive(Clone, Copy)]
pub(crate) struct Open {
    /// Its closing break.
    layout: Layout,
    /// A whitespace-keeping element (`pre`, …): [`Writer::pre`] counts it.
    pre: bool,
}

impl Sink for Writer {
    type Open = Open;

    fn enter(&mut self, node: &NodeRef<'_>, name: Name) -> Option<Open> {
        let layout = element_layout(name, self.noscript);
        match layout {
            Layout::None => return None,
            Layout::Block | Layout::Row => self.line_break(1),
            Layout::Paragraph => self.line_break(2),
            Layout::Break => {
                // A <br> is a line break even in a run of them: written at once.
                self.flush();
                self.out.push(b'\n');
                self.space = false;
            }
            Layout::Cell => {
                if !first_cell(node) {
                    self.tabs += 1;
                    self.space = false;
                }
            }
            Layout::Inline => {}
        }
        let pre = name.ns == Ns::Html
            && matches!(
                name.tag,
                Tag::Pre | Tag::Textarea | Tag::Listing | Tag::Plaintext
            );
        if pre {
            self.pre += 1;
        }
        Some(Open { layout, pre })
    }

    fn leave(&mut self, open: Open) {
        if open.pre {
            self.pre -= 1;
        }
        match open.layout {
            Layout::Block | Layout::Row => self.line_break(1),
            Layout::Paragraph => self.line_break(2),
            _ => {}
        }
    }

    fn text(&mut self, bytes: &[u8]) {
        Writer::text(self, bytes);
    }

    fn line_break(&mut self, count: u8) {
        Writer::line_break(self, count);
    }

    fn finish(self) -> String {
        Writer::finish(self)
    }
}

/// Whether a table cell is the first cell of its row (no `td` or `th` before it).
pub(crate) fn first_cell(node: &NodeRef<'_>) -> bool {
    std::iter::successors(node.prev_sibling(), |p| p.prev_sibling()).all(|s| {
        !s.element_name()
            .is_some_and(|n| n.is_html(Tag::Td) || n.is_html(Tag::Th))
    })
}

/// The visible text of the document (see the module's doc for the rules).
///
/// ```
/// let doc = htmltok_tree::parse(b"<h1>Title</h1><p>One <b>two</b>\n  three<br>four</p>\
///     <div hidden>no</div><table><tr><td>a<td>b</table><script>x()</script>");
/// let text = htmltok_content::visible::visible_text(&doc, Default::default());
/// assert_eq!(text, "Title\n\nOne two three\nfour\n\na\tb");
/// ```
pub fn visible_text<D: Tree + ?Sized>(doc: &D, options: Options) -> String {
    let view = doc.view();
    let mut w = Writer::new(options);
    render_document(&view, &mut w);
    w.finish()
}

/// Lays out the whole document into `sink`, hidden elements left out.
pub(crate) fn render_document<S: Sink>(doc: &htmltok_tree::DocumentRef<'_>, sink: &mut S) {
    let mut child = doc.root().first_child();
    while let Some(node) = child {
        render(node, sink, true, &mut |_| false, &mut |_| true);
        child = node.next_sibling();
    }
}

/// Lays out `start` and its descendants into `sink` by the module's rules, leaving out
/// the elements `skip` says to (with their descendants) besides the hidden ones (whose
/// attributes are read only with `check_hidden`: a caller whose `skip` already leaves
/// them out saves reading them twice), and the text nodes `keep_text` refuses (their
/// elements' line breaks stay, written only if kept text follows). Iterative:
/// the layouts of the open elements are kept on the heap, not the call stack. (Main
/// text renders its selected blocks with it.)
pub(crate) fn render<W, S, K>(
    start: NodeRef<'_>,
    sink: &mut W,
    check_hidden: bool,
    skip: &mut S,
    keep_text: &mut K,
) where
    W: Sink,
    S: FnMut(&NodeRef<'_>) -> bool,
    K: FnMut(&NodeRef<'_>) -> bool,
{
    // The elements the walk is inside, innermost last, each with whether it is a closed
    // `details` (whose children but the first `summary` are hidden): the top is the
    // parent of the node visited (but for `start`, whose parent is read from the tree).
    let mut open: Vec<(W::Open, bool)> = Vec::new();
    let mut node = start;
    'walk: loop {
        let hidden = match open.last() {
            Some(&(_, closed_details)) => closed_details && hidden_in_details(&node),
            None => in_closed_details(&node),
        };
        let mut entered = None;
        if !hidden {
            match node.data() {
                NodeData::Text(_) if keep_text(&node) => {
                    sink.text(node.text_bytes().unwrap_or_default());
                }
                NodeData::Element(_) if !skip(&node) => {
                    if let Some(name) = node.element_name()
                        && !(check_hidden && attributes_hide(&node))
                    {
                        entered = sink
                            .enter(&node, name)
                            .map(|o| (o, is_closed_details(name, &node)));
                    }
                }
                _ => {}
            }
        }
        if let Some(entered) = entered {
            if let Some(child) = node.first_child() {
                open.push(entered);
                node = child;
                continue;
            }
            sink.leave(entered.0);
        }
        // Climb: the next sibling, else leave the parent and try its sibling; never
        // past `start`.
        loop {
            if node.id() == start.id() {
                break 'walk;
            }
            if let Some(sibling) = node.next_sibling() {
                node = sibling;
                continue 'walk;
            }
            match node.parent() {
                Some(parent) => {
                    if let Some((left, _)) = open.pop() {
                        sink.leave(left);
                    }
                    node = parent;
                }
                None => break 'walk,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `next_space` finds what a byte-by-byte scan finds, wherever the whitespace and
    /// the control characters (flagged by the word test, but not whitespace) fall
    /// within and across the eight-byte words.
    #[test]
    fn next_space_is_the_byte_by_byte_scan() {
        let by_bytes = |bytes: &[u8], from: usize| {
            (from..bytes.len())
                .find(|&i| is_space_byte(bytes[i]))
                .unwrap_or(bytes.len())
        };
        let fillers: [&[u8]; 6] = [b"a", b"\x01", b"\x0B", b"!", "\u{e9}".as_bytes(), b"\x7F"];
        for len in 0..20 {
            for at in 0..=len {
                for space in [b' ', b'\t', b'\n', b'\x0C', b'\r'] {
                    for filler in fillers {
                        let mut bytes: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                        if at < len {
                            bytes[at] = space;
                        }
                        for from in 0..=len {
                            assert_eq!(
                                next_space(&bytes, from),
                                by_bytes(&bytes, from),
                                "{bytes:?} from {from}"
                            );
                        }
                    }
                }
            }
        }
    }
}
