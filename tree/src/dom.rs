//! The DOM's storage: every node of a document in one arena (`Vec<Node>`), linked by `u32`
//! indices (parent, first and last child, previous and next sibling), with no lifetime:
//! the arena ([`Dom`]) names the input's bytes by span and never borrows them, so the
//! same arena serves a document that borrows its input ([`crate::Document`]) and one that
//! owns it ([`crate::OwnedDocument`]); the handles ([`crate::NodeRef`]) pair it with the
//! input when they read.
//!
//! Text and comment data, uninterned element names and attribute names are a [`Str`]: a
//! span of the input when decoding changed nothing (the common case: nothing is copied),
//! else an index into the arena's owned strings, which are ranges of one text buffer per
//! document (see [`Owned`]). Attribute values are spans, decoded when read. Most text is
//! decoded when read too: the "in body" rules and the "text" mode's (script, style) store
//! a text run's span as a lazy [`Str`] ([`Str::lazy`]) without reading its bytes, and the
//! first read of such a text decodes them all ([`Dom::lazy_decoded`]). Interned element
//! names are a [`Name`].
//!
//! # Source positions
//!
//! Every element keeps the byte span of its start tag ([`crate::NodeRef::span`]; empty
//! for the elements the parser creates without a tag, such as an implied `<body>`) and of
//! the end tag that closed it, when one did ([`crate::NodeRef::end_span`]). Every
//! attribute keeps the spans of its name and value; every text node the spans of the
//! character tokens it was made from ([`crate::NodeRef::text_spans`]; adjacent tokens
//! inserted into one text node merge, so there can be several). When a token's text was
//! split (leading whitespace handled by one insertion mode, the rest by another) and
//! decoding changed it, each piece carries the whole token's span.
//!
//! # Bytes per node
//!
//! A [`Node`] is 56 bytes: five `u32` links (20 bytes) and the payload, whose largest kind
//! is an element's (interned name, the attribute range, one `u32` for its contents or its
//! uninterned name, and its start and end tag spans as `u32` pairs). A text node is its
//! [`Str`] and its first span. Each attribute is a 28-byte record in the document's
//! attribute list (its name as a [`Str`], the spans of name and value), shared by the
//! copies the adoption agency algorithm makes. The rare DOCTYPE is an index into a side
//! list, so that no field of a node needs 8-byte alignment. Spans are stored as `u32`: in
//! inputs over 4 GiB, offsets past 4 GiB saturate (text past 2 GiB is stored owned, so it
//! stays right). `size_of::<Node>()` is checked by a unit test.
//!
//! Nothing here recurses: dropping, walking and serializing a million nested elements
//! uses loops over the links.
//!
//! Small accessors are `#[inline]` so that the crates reading the DOM can inline them.

use std::borrow::Cow;
use std::cell::Cell;

use std::sync::OnceLock;

use htmltok::{Span, TextKind};

use crate::names::{AttrNs, Name, Tag};
use crate::spare;

/// A node's index in its document's arena.
pub type NodeId = u32;

/// "No node" in a link.
pub(crate) const NONE: NodeId = u32::MAX;

/// The quirks mode of a document (13.2.6.4.1, from its DOCTYPE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum QuirksMode {
    /// No quirks.
    #[default]
    NoQuirks,
    /// Limited quirks.
    LimitedQuirks,
    /// Quirks.
    Quirks,
}

/// One node: its links and its data.
#[derive(Clone, Debug)]
pub struct Node {
    pub(crate) parent: NodeId,
    pub(crate) first_child: NodeId,
    pub(crate) last_child: NodeId,
    pub(crate) prev_sibling: NodeId,
    pub(crate) next_sibling: NodeId,
    pub(crate) data: NodeData,
}

/// What a node is.
#[derive(Clone, Debug)]
pub enum NodeData {
    /// The document (always node 0).
    Document,
    /// A document fragment: a template's contents, or a fragment parse's result holder.
    Fragment,
    /// `<!DOCTYPE name "public" "system">`: an index into the document's DOCTYPE list
    /// (rare, and large: read it with [`crate::NodeRef::doctype`]).
    Doctype(u32),
    /// An element.
    Element(ElementData),
    /// A text node.
    Text(TextData),
    /// A comment.
    Comment(CommentData),
}

/// A DOCTYPE node's fields (missing ones are empty, as the DOM has them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DoctypeData {
    /// The name.
    pub name: String,
    /// The public identifier.
    pub public_id: String,
    /// The system identifier.
    pub system_id: String,
    /// The DOCTYPE token's span.
    pub span: Span,
}

/// An element's fields.
#[derive(Clone, Copy, Debug)]
pub struct ElementData {
    pub(crate) name: Name,
    /// For [`Tag::Unknown`] (adjusted SVG names included): the index of the local name in
    /// the document's name list; for an HTML `template`: its contents (a
    /// [`NodeData::Fragment`]); else NONE.
    pub(crate) extra: u32,
    /// The attributes: `attrs_start..attrs_start + attrs_len` in the document's list.
    pub(crate) attrs_start: u32,
    pub(crate) attrs_len: u32,
    /// MathML `annotation-xml` whose `encoding` makes it an HTML integration point.
    pub(crate) html_integration_point: bool,
    pub(crate) start_span: Sp,
    /// [`Sp::NONE`] until an end tag closes the element.
    pub(crate) end_span: Sp,
}

/// A text node's fields (read them with [`crate::NodeRef::text`]).
#[derive(Clone, Copy, Debug)]
pub struct TextData {
    pub(crate) text: Str,
    /// The first token's span (the document's span lists hold all of them when more
    /// tokens merged into this node).
    pub(crate) span: Sp,
}

/// A comment's fields (read them with [`crate::NodeRef::text`]).
#[derive(Clone, Copy, Debug)]
pub struct CommentData {
    pub(crate) data: Str,
    pub(crate) span: Sp,
}

impl ElementData {
    /// The interned name.
    pub fn name(&self) -> Name {
        self.name
    }

    /// The template contents of an HTML `template` element.
    pub(crate) fn template_contents(&self) -> Option<NodeId> {
        self.name.is_html(Tag::Template).then_some(self.extra)
    }

    /// Records the end tag that closed the element.
    pub(crate) fn set_end(&mut self, span: Span) {
        self.end_span = span.into();
    }
}

#[cold]
#[inline(never)]
fn not_an_element(id: NodeId) -> ! {
    unreachable!("node {id} is not an element")
}

/// A byte range stored in eight bytes (inputs up to 4 GiB; offsets beyond saturate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sp {
    start: u32,
    end: u32,
}

impl Sp {
    /// "No span".
    pub(crate) const NONE: Sp = Sp {
        start: u32::MAX,
        end: u32::MAX,
    };

    pub(crate) fn get(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }

    pub(crate) fn get_opt(self) -> Option<Span> {
        (self != Sp::NONE).then(|| self.get())
    }
}

impl Sp {
    /// `span` of an input whose every span fits ([`AttrRec::spans_fit`]): the offsets
    /// as they are, without the clamp of `From<Span>` (two compares and two conditional
    /// moves a span, per attribute in the token loop).
    pub(crate) fn of_fitting(span: Span) -> Sp {
        debug_assert!(span.end < u32::MAX as usize - 1);
        Sp {
            start: span.start as u32,
            end: span.end as u32,
        }
    }

    /// [`Sp::of_fitting`] for an optional span (None is [`Sp::NONE`]).
    pub(crate) fn of_fitting_opt(span: Option<Span>) -> Sp {
        span.map_or(Sp::NONE, Sp::of_fitting)
    }
}

impl From<Span> for Sp {
    fn from(s: Span) -> Sp {
        let clamp = |x: usize| x.min(u32::MAX as usize - 1) as u32;
        Sp {
            start: clamp(s.start),
            end: clamp(s.end),
        }
    }
}

impl From<Option<Span>> for Sp {
    fn from(s: Option<Span>) -> Sp {
        s.map_or(Sp::NONE, Sp::from)
    }
}

/// A string of the document: the input's bytes `start..end` (valid UTF-8: only text the
/// tokenizer handed out as a slice of the input is stored so), or, when `start` is
/// [`Str::OWNED`], the owned string number `end` of the arena ([`Dom::owned`]), or, when
/// `start` has the [`Str::LAZY`] bit, a lazy text: the input's bytes at `start..end`
/// (that bit cleared, and `end`'s [`Str::VERBATIM`] bit, which gives its [`LazyKind`]), not
/// decoded yet ([`Str::lazy`]).
/// The spans of the first kind stay below [`Str::LAZY`] (inputs under 2 GiB; text past
/// that is stored owned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Str {
    start: u32,
    end: u32,
}

impl Str {
    const OWNED: u32 = u32::MAX;
    /// The bit of `start` that marks a lazy text; the offsets of every span a `Str`
    /// holds are below it.
    const LAZY: u32 = 1 << 31;

    /// The bit of a lazy text's `end` that says its kind is [`LazyKind::Verbatim`].
    const VERBATIM: u32 = 1 << 31;

    /// A lazy text: the bytes of `span` (not empty, and below [`Str::LAZY`]) as the
    /// tokenizer read them in a state of `kind`, whose text is what the rule that stored
    /// it inserts ([`LazyKind`]). The tree builder stores a run of text so when nothing
    /// of the text decides how it is inserted (see `TreeBuilder::in_body_lazy_text` and
    /// `TreeBuilder::text_mode_lazy_text`); it is decoded when first read
    /// ([`Dom::lazy_decoded`]).
    fn lazy(span: Span, kind: LazyKind) -> Option<Str> {
        let verbatim = match kind {
            LazyKind::Data => 0,
            LazyKind::Verbatim => Str::VERBATIM,
        };
        (span.start < span.end && span.end < Str::LAZY as usize).then_some(Str {
            start: span.start as u32 | Str::LAZY,
            end: span.end as u32 | verbatim,
        })
    }

    /// The span and kind of a lazy text ([`Str::lazy`]), None for the other strings.
    #[inline]
    fn lazy_span(self) -> Option<(Span, LazyKind)> {
        (self.start & Str::LAZY != 0 && !self.is_owned()).then(|| {
            let span = Span::new(
                (self.start & !Str::LAZY) as usize,
                (self.end & !Str::VERBATIM) as usize,
            );
            let kind = if self.end & Str::VERBATIM != 0 {
                LazyKind::Verbatim
            } else {
                LazyKind::Data
            };
            (span, kind)
        })
    }

    /// A span of the input (neither owned nor lazy).
    fn is_span(self) -> bool {
        self.start < Str::LAZY
    }

    fn owned(index: usize) -> Str {
        Str {
            start: Str::OWNED,
            end: u32::try_from(index).expect("fewer than 2^32 owned strings"),
        }
    }

    fn is_owned(self) -> bool {
        self.start == Str::OWNED
    }

    /// `span` of the input as a string, when it fits in `u32`s: for text known to be the
    /// input's bytes there.
    fn of_exact_span(span: Span) -> Option<Str> {
        (span.end < Str::LAZY as usize).then_some(Str {
            start: span.start as u32,
            end: span.end as u32,
        })
    }

    /// The span of a borrowed string of `input`, when it is one and fits in `u32`s.
    fn of_input(input: &[u8], s: &str) -> Option<Str> {
        let at = (s.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
        let end = at.wrapping_add(s.len());
        (at <= input.len() && end <= input.len() && end < Str::LAZY as usize).then_some(Str {
            start: at as u32,
            end: end as u32,
        })
    }
}

/// The text of a span of the input (`s` not owned): "" if it is not one (never for the
/// spans the tree makes, which come from `&str`s of the input).
fn input_str(input: &[u8], s: Str) -> &str {
    span_str(input, Span::new(s.start as usize, s.end as usize))
}

/// The input's bytes at `span` as a `&str`: "" if they are not one.
fn span_str(input: &[u8], span: Span) -> &str {
    input
        .get(span.start..span.end)
        .and_then(|b| std::str::from_utf8(b).ok())
        .unwrap_or("")
}

/// What a lazy text's bytes are ([`Str::lazy`]), and so how they decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LazyKind {
    /// The data state's text as 13.2.6.4.7 "in body" inserts it: decoded
    /// ([`TextKind::Data`]: references, CR), without U+0000 ("in body" ignores a U+0000
    /// character token; the data state emits a raw NUL as one, and no character reference
    /// decodes to it).
    Data,
    /// The RAWTEXT or script data state's text as 13.2.6.4.8 "text" inserts it (every
    /// character): CR and CRLF as LF, U+0000 as U+FFFD, nothing else changed (the two
    /// states decode alike).
    Verbatim,
}

/// A run of characters for 13.2.6.1 "insert a character" ([`Dom::insert_characters`]),
/// in the form the tree builder holds it.
pub(crate) enum Characters<'t, 'c> {
    /// Decoded text; `exact` when it is the input's bytes at `span`.
    Decoded {
        text: &'t mut Cow<'c, str>,
        span: Span,
        exact: bool,
    },
    /// Not decoded: the input's bytes at `span`, which decode as the tokenizer's text of
    /// `kind` (and decoding may change them).
    Raw { span: Span, kind: TextKind },
    /// Not decoded: the input's bytes at `span`, decoded when read as the rule of `kind`
    /// inserts them.
    Lazy { span: Span, kind: LazyKind },
}

/// The text of a lazy text's bytes ([`Str::lazy`]) of `kind`.
fn decode_lazy(input: &[u8], span: Span, kind: LazyKind) -> Cow<'_, str> {
    match kind {
        LazyKind::Data => {
            let text = TextKind::Data.decode(input, span);
            if text.contains('\0') {
                return Cow::Owned(text.replace('\0', ""));
            }
            text
        }
        LazyKind::Verbatim => TextKind::Rawtext.decode(input, span),
    }
}

/// A string decoding changed (or merged text that is not one span of the input).
#[derive(Clone, Debug)]
pub(crate) enum Owned {
    /// `Dom::text[start..end]`: where every owned string starts. One buffer per document,
    /// so that a decoded text is not an allocation kept until the document is dropped
    /// (it was a `String` each, moved in from the token: the tokenizer's `malloc` lived
    /// on, and dropping the document freed every one of them, cold, through the
    /// allocator's slow paths). Copied here, the token's string is freed at once and its
    /// memory reused by the next decoded text. Text merged into the buffer's last string
    /// is appended in place.
    Buf { start: usize, end: usize },
    /// A string of its own: text merged into an owned string that is no longer the
    /// buffer's last (rare: foster-parented text beside other decoded text). Moved out
    /// of the buffer once, so that each later merge appends in amortized O(1) (copying it
    /// to the buffer's end on every merge would be quadratic on hostile input).
    Heap(String),
    /// A text node's text that decoding may change, not decoded yet: the input's bytes
    /// `start..end` (a text token's content span) and the tokenizer state they came
    /// from, which says how they decode. Decoded when first read, with every other such
    /// text of the document ([`Dom::raw_decoded`]).
    Raw {
        start: u32,
        end: u32,
        kind: TextKind,
    },
}

/// The decoded text of a document's lazy texts ([`Str::lazy`]) that decoding changes (a
/// character reference, a CR, a NUL, bytes that are not UTF-8), by text node: the others
/// are their input's bytes.
#[derive(Clone, Debug, Default)]
pub(crate) struct LazyDecoded {
    text: String,
    /// (the text node, its text's range in `text`), in node order.
    changed: Vec<(NodeId, (usize, usize))>,
    /// A bit per node: set for the text nodes in `changed`, so that a read of an
    /// unchanged one, most reads, is one bit test.
    node_changed: Vec<u64>,
}

/// The decoded text of a document's [`Owned::Raw`] strings: the text of `owned[i]` is
/// `text[at[i].0..at[i].1]` (`(0, 0)` for the other kinds of owned string).
#[derive(Clone, Debug, Default)]
pub(crate) struct RawDecoded {
    text: String,
    at: Vec<(usize, usize)>,
}

/// One attribute as the document stores it: its name, and the spans of its name and
/// value (the value is decoded when read: [`crate::AttrRef::value`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttrRec {
    /// The local name (lowercased; the SVG/MathML adjustments applied).
    pub(crate) name: Str,
    pub(crate) ns: AttrNs,
    pub(crate) name_span: Sp,
    /// [`Sp::NONE`] when the attribute has no `=` (its value is empty).
    pub(crate) value_span: Sp,
}

impl AttrRec {
    /// The value, decoded from `input` (the document's input).
    pub(crate) fn value<'i>(&self, input: &'i [u8]) -> Cow<'i, str> {
        match self.value_span.get_opt() {
            Some(span) if span.end <= input.len() => htmltok::decode_attribute_value(input, span),
            _ => Cow::Borrowed(""),
        }
    }
}

impl AttrRec {
    /// Whether every span of `input` fits a [`Str`] (inputs under 2 GiB), so that an
    /// attribute whose name decoding leaves as it is can have its span as the name
    /// ([`AttrRec::named_by_span`]). One test of the input's length, which the compiler
    /// keeps out of the loop over a tag's attributes, rather than a test of each name's
    /// span and an `Option` made for every attribute.
    pub(crate) fn spans_fit(input: &[u8]) -> bool {
        input.len() < Str::LAZY as usize
    }

    /// An attribute whose name is the input's bytes at `name_span` (decoding leaves them
    /// as they are), in an input whose spans fit ([`AttrRec::spans_fit`]): the span is the
    /// name's [`Str`], and the offsets are stored as they are, without the clamp of
    /// `From<Span>`.
    pub(crate) fn named_by_span(name_span: Span, value_span: Option<Span>) -> AttrRec {
        let name_span = Sp::of_fitting(name_span);
        AttrRec {
            name: Str {
                start: name_span.start,
                end: name_span.end,
            },
            ns: AttrNs::None,
            name_span,
            value_span: Sp::of_fitting_opt(value_span),
        }
    }

    /// An attribute whose name, `name`, is stored already ([`Dom::store`]).
    pub(crate) fn named(name: Str, name_span: Span, value_span: Option<Span>) -> AttrRec {
        AttrRec {
            name,
            ns: AttrNs::None,
            name_span: name_span.into(),
            value_span: value_span.into(),
        }
    }
}

/// The arena of a parsed document (or fragment), without its input.
#[derive(Clone, Debug)]
pub(crate) struct Dom {
    pub(crate) nodes: Vec<Node>,
    pub(crate) attrs: Vec<AttrRec>,
    /// Where the attributes of the start tag being processed begin in `attrs`: the
    /// records from here on are that tag's, no element's yet. The tree builder writes a
    /// start tag's attributes here as it converts the token
    /// ([`Dom::begin_tag_attrs`]), and the element created for the tag takes them where
    /// they are ([`Dom::new_element`]): held in a list of the builder's first, each
    /// attribute would be copied twice.
    pub(crate) tag_attrs_start: usize,
    /// Uninterned element names (`extra` of an element with [`Tag::Unknown`]).
    pub(crate) names: Vec<Str>,
    /// The strings decoding changed (a [`Str`] of index `i` is `owned[i]`).
    pub(crate) owned: Vec<Owned>,
    /// The text of the [`Owned::Buf`] strings.
    pub(crate) text: String,
    /// The text of the [`Owned::Raw`] strings, decoded all at once by the first read of
    /// one (after the parse: the builder reads no text it stored). A document whose text
    /// is never read never decodes it; a `OnceLock`, so that documents stay `Sync` and
    /// threads reading one share the decoding.
    pub(crate) raw_decoded: OnceLock<RawDecoded>,
    /// The text of the lazy texts ([`Str::lazy`]) that decoding changes, found and decoded
    /// all at once by the first read of a lazy text. A document whose text is never read
    /// never reads its text's bytes after the tokenizer's search for `<`.
    pub(crate) lazy_decoded: OnceLock<LazyDecoded>,
    /// The input is known to be UTF-8 (parsed from a `&str`, `Parser::parse_str`): a lazy
    /// text that is not plain ASCII is then changed by decoding only where it holds a
    /// byte its kind transforms, which one `memchr` finds ([`Dom::decode_lazy_texts`]).
    pub(crate) input_is_str: bool,
    pub(crate) doctypes: Vec<DoctypeData>,
    /// The spans of the text nodes made of several tokens.
    pub(crate) span_lists: std::collections::HashMap<NodeId, Vec<Span>>,
    pub(crate) quirks: QuirksMode,
    /// For a fragment parse, the `html` element whose children are the fragment.
    pub(crate) fragment_root: Option<NodeId>,
    /// Whether a `selectedcontent` element was created (see `select.rs`); set by the
    /// "in body" rule that creates one, the only place an HTML `selectedcontent` is made.
    pub(crate) has_selectedcontent: bool,
    /// The `meta` elements with a `charset` or `http-equiv` attribute that the "in head"
    /// `meta` rule processed, in document order (see `Document::encoding_metas`).
    pub(crate) encoding_metas: Vec<NodeId>,
    /// Whether every link made so far kept the arena in tree order (see
    /// [`Dom::in_tree_order`]): cleared for good by the first that did not.
    in_tree_order: bool,
}

thread_local! {
    /// The arena vectors of the last document dropped on this thread (see `spare`).
    static SPARE_NODES: Cell<Vec<Node>> = const { Cell::new(Vec::new()) };
    static SPARE_ATTRS: Cell<Vec<AttrRec>> = const { Cell::new(Vec::new()) };
}

impl Drop for Dom {
    fn drop(&mut self) {
        spare::keep(&SPARE_NODES, std::mem::take(&mut self.nodes));
        spare::keep(&SPARE_ATTRS, std::mem::take(&mut self.attrs));
    }
}

impl Dom {
    pub(crate) fn new(input_len: usize) -> Dom {
        let mut dom = Dom {
            // Reserved for the densest pages, not the average one, so that the arena is
            // not copied as it grows: each doubling copies it into freshly faulted pages, a
            // wall-time cost that instruction counts do not show. Untouched capacity costs
            // address space, not memory. The reservation is kept after parsing (no
            // `shrink_to_fit`), so that a dropped document's vectors fit the next parse on
            // the thread, which reuses them (`spare`); shrunk, they would fit only sparser
            // pages.
            nodes: spare::take(&SPARE_NODES, input_len / 12 + 8),
            attrs: spare::take(&SPARE_ATTRS, input_len / 24 + 8),
            tag_attrs_start: 0,
            names: Vec::new(),
            owned: Vec::new(),
            // Decoded text is a small part of most pages: a thirty-second of the input
            // is reserved, so that the buffer is not copied as it doubles from nothing;
            // `run` gives back the slack at the end.
            text: String::with_capacity(input_len / 32),
            raw_decoded: OnceLock::new(),
            lazy_decoded: OnceLock::new(),
            input_is_str: false,
            doctypes: Vec::new(),
            span_lists: std::collections::HashMap::new(),
            quirks: QuirksMode::NoQuirks,
            fragment_root: None,
            has_selectedcontent: false,
            encoding_metas: Vec::new(),
            in_tree_order: true,
        };
        dom.new_node(NodeData::Document);
        dom
    }

    /// The text of `s` (empty if the input is not the one the document was parsed from).
    pub(crate) fn str<'d>(&'d self, input: &'d [u8], s: Str) -> &'d str {
        debug_assert!(
            s.lazy_span().is_none(),
            "a lazy text is read by its node: text_of"
        );
        if s.is_owned() {
            return self.owned_str(input, s);
        }
        input_str(input, s)
    }

    /// The text of an owned `s` ([`Str::is_owned`]).
    fn owned_str<'d>(&'d self, input: &'d [u8], s: Str) -> &'d str {
        match &self.owned[s.end as usize] {
            Owned::Buf { start, end } => self.text.get(*start..*end).unwrap_or(""),
            Owned::Heap(h) => h,
            Owned::Raw { .. } => {
                let raw = self.raw_decoded.get_or_init(|| self.decode_raw(input));
                let (start, end) = raw.at.get(s.end as usize).copied().unwrap_or_default();
                raw.text.get(start..end).unwrap_or("")
            }
        }
    }

    /// The text of text node `id`, whose string is `s` (the only reader of a lazy one:
    /// it is looked up by the node, one bit test when decoding left it as it is).
    pub(crate) fn text_of<'d>(&'d self, input: &'d [u8], id: NodeId, s: Str) -> &'d str {
        match s.lazy_span() {
            Some((span, _)) => match self.lazy_changed(input, id) {
                Some(text) => text,
                None => span_str(input, span),
            },
            None => self.str(input, s),
        }
    }

    /// [`Dom::text_of`]'s bytes, without a UTF-8 check where they are the input's.
    #[inline]
    pub(crate) fn text_bytes_of<'d>(&'d self, input: &'d [u8], id: NodeId, s: Str) -> &'d [u8] {
        match s.lazy_span() {
            Some((span, _)) => match self.lazy_changed(input, id) {
                Some(text) => text.as_bytes(),
                None => input.get(span.start..span.end).unwrap_or_default(),
            },
            None => self.bytes(input, s),
        }
    }

    /// The decoded text of text node `id`'s lazy text when decoding changes it; None when
    /// its text is the input's bytes at its span (then valid UTF-8).
    fn lazy_changed<'d>(&'d self, input: &'d [u8], id: NodeId) -> Option<&'d str> {
        let lazy = self
            .lazy_decoded
            .get_or_init(|| self.decode_lazy_texts(input));
        let word = lazy
            .node_changed
            .get(id as usize / 64)
            .copied()
            .unwrap_or(0);
        if word & (1 << (id % 64)) == 0 {
            return None;
        }
        let i = lazy
            .changed
            .binary_search_by_key(&id, |&(node, _)| node)
            .ok()?;
        let (from, to) = lazy.changed[i].1;
        Some(lazy.text.get(from..to).unwrap_or(""))
    }

    /// Decodes the document's lazy texts ([`Str::lazy`]): those decoding changes, in one
    /// buffer (see [`Dom::lazy_decoded`]).
    fn decode_lazy_texts(&self, input: &[u8]) -> LazyDecoded {
        let mut out = LazyDecoded {
            node_changed: vec![0; self.nodes.len().div_ceil(64)],
            ..LazyDecoded::default()
        };
        // Most texts are plain ASCII with nothing to decode, which the decoder's first
        // test (one SIMD pass) tells; the others are decoded, and kept if that changed them.
        // Over an input known to be UTF-8, a text that is not plain ASCII changes only at
        // an `&` (data: a reference), a CR or a NUL, which one `memchr` finds (the decoder
        // would validate its UTF-8 first).
        let unchanged = |span: Span, kind: LazyKind| {
            let text_kind = match kind {
                LazyKind::Data => TextKind::Data,
                LazyKind::Verbatim => TextKind::Rawtext,
            };
            text_kind.is_plain(input, span)
                || self.input_is_str
                    && input
                        .get(span.start..span.end)
                        .is_some_and(|bytes| match kind {
                            LazyKind::Data => memchr::memchr3(b'&', b'\r', 0, bytes).is_none(),
                            LazyKind::Verbatim => memchr::memchr2(b'\r', 0, bytes).is_none(),
                        })
        };
        for (id, node) in self.nodes.iter().enumerate() {
            if let NodeData::Text(t) = &node.data
                && let Some((span, kind)) = t.text.lazy_span()
                && !unchanged(span, kind)
                && let Cow::Owned(text) = decode_lazy(input, span, kind)
            {
                let from = out.text.len();
                out.text.push_str(&text);
                out.changed.push((id as NodeId, (from, out.text.len())));
                out.node_changed[id / 64] |= 1 << (id % 64);
            }
        }
        out
    }

    /// Decodes every [`Owned::Raw`] string, in one buffer (see [`Dom::raw_decoded`]).
    fn decode_raw(&self, input: &[u8]) -> RawDecoded {
        let mut out = RawDecoded {
            text: String::new(),
            at: Vec::with_capacity(self.owned.len()),
        };
        let raw_len: usize = self
            .owned
            .iter()
            .map(|o| match o {
                Owned::Raw { start, end, .. } => (end - start) as usize,
                _ => 0,
            })
            .sum();
        // Decoding seldom lengthens a text (a reference is mostly longer than its
        // replacement; a NUL's U+FFFD and a few references are not): one allocation,
        // rarely two.
        out.text.reserve_exact(raw_len);
        for o in &self.owned {
            let at = match o {
                Owned::Raw { start, end, kind } => {
                    let span = Span::new(*start as usize, *end as usize);
                    let from = out.text.len();
                    out.text.push_str(&kind.decode(input, span));
                    (from, out.text.len())
                }
                _ => (0, 0),
            };
            out.at.push(at);
        }
        out
    }

    /// The bytes of `s` (no UTF-8 check: for comparisons).
    #[inline]
    pub(crate) fn bytes<'d>(&'d self, input: &'d [u8], s: Str) -> &'d [u8] {
        debug_assert!(
            s.lazy_span().is_none(),
            "a lazy text is read by its node: text_bytes_of"
        );
        if s.is_owned() {
            return self.owned_str(input, s).as_bytes();
        }
        input
            .get(s.start as usize..s.end as usize)
            .unwrap_or_default()
    }

    /// Stores a string: as its span when it is a slice of `input`, else owned. The span
    /// case inlined, the rest out of line.
    #[inline(always)]
    pub(crate) fn store(&mut self, input: &[u8], s: Cow<'_, str>) -> Str {
        if let Cow::Borrowed(b) = &s
            && let Some(str) = Str::of_input(input, b)
        {
            return str;
        }
        self.store_copy(s)
    }

    /// [`Dom::store`] for a string that lies where the caller keeps it: read in place, and
    /// an owned `String` taken (leaving an empty one), not copied.
    pub(crate) fn store_taken(&mut self, input: &[u8], s: &mut Cow<'_, str>) -> Str {
        if let Cow::Borrowed(b) = &*s
            && let Some(str) = Str::of_input(input, b)
        {
            return str;
        }
        self.store_copy(std::mem::take(s))
    }

    #[inline(never)]
    fn store_copy(&mut self, s: Cow<'_, str>) -> Str {
        if s.is_empty() {
            return Str { start: 0, end: 0 };
        }
        self.own(&s)
    }

    /// Appends `text` to the owned string `s`: in place while `s` is the text buffer's
    /// last string; else `s` moves once to a `String` of its own, so that each later merge
    /// appends in amortized O(1) (copying it to the buffer's end on every merge would be
    /// quadratic on hostile input).
    fn append_owned(&mut self, input: &[u8], s: Str, text: &str) {
        let buf_len = self.text.len();
        match &mut self.owned[s.end as usize] {
            // Text merged into a text not decoded yet: decoded now, moved to a string of
            // its own (rare: text after an undecoded one, with nothing between them).
            Owned::Raw { start, end, kind } => {
                let span = Span::new(*start as usize, *end as usize);
                let mut own = kind.decode(input, span).into_owned();
                own.push_str(text);
                self.owned[s.end as usize] = Owned::Heap(own);
            }
            Owned::Buf { end, .. } if *end == buf_len => {
                self.text.push_str(text);
                *end = self.text.len();
            }
            Owned::Buf { start, end } => {
                let mut own = self.text[*start..*end].to_owned();
                own.push_str(text);
                self.owned[s.end as usize] = Owned::Heap(own);
            }
            Owned::Heap(own) => own.push_str(text),
        }
    }

    /// Copies `s` to the end of the text buffer, as a new owned string.
    fn own(&mut self, s: &str) -> Str {
        let start = self.text.len();
        self.text.push_str(s);
        self.owned.push(Owned::Buf {
            start,
            end: self.text.len(),
        });
        Str::owned(self.owned.len() - 1)
    }

    pub(crate) fn new_node(&mut self, data: NodeData) -> NodeId {
        let id = self.nodes.len() as NodeId;
        assert!(id != NONE, "more than 2^32 - 1 nodes");
        self.nodes.push(Node {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev_sibling: NONE,
            next_sibling: NONE,
            data,
        });
        id
    }

    /// Creates a DOCTYPE node (not inserted).
    pub(crate) fn new_doctype(&mut self, doctype: DoctypeData) -> NodeId {
        self.doctypes.push(doctype);
        self.new_node(NodeData::Doctype((self.doctypes.len() - 1) as u32))
    }

    /// Creates a comment node (not inserted).
    pub(crate) fn new_comment(&mut self, input: &[u8], data: Cow<'_, str>, span: Span) -> NodeId {
        let data = self.store(input, data);
        self.new_node(NodeData::Comment(CommentData {
            data,
            span: span.into(),
        }))
    }

    /// Creates an element (not inserted). `local` is its local name when not interned
    /// (stored with [`Dom::store`]). With `takes_tag_attrs`, its attributes are those of
    /// the start tag being processed, which the builder wrote at the end of the attribute
    /// list ([`Dom::begin_tag_attrs`]): the element's range is theirs, and they are no
    /// longer the tag's; without, it has none (an element the parser implies, or its tag's
    /// attributes went elsewhere). Inlined into the builder's two element insertions (out
    /// of line themselves), which saves the call's argument passing and frame per
    /// element.
    #[inline(always)]
    pub(crate) fn new_element(
        &mut self,
        name: Name,
        local: Option<Str>,
        takes_tag_attrs: bool,
        start_span: Span,
    ) -> NodeId {
        let (attrs_start, attrs_len) = self.take_tag_attrs(takes_tag_attrs);
        let local = match local {
            Some(s) => {
                self.names.push(s);
                (self.names.len() - 1) as u32
            }
            None => NONE,
        };
        debug_assert!(local == NONE || name.tag == Tag::Unknown);
        // (`has_selectedcontent` is set by the builder's "in body" rule that creates a
        // `selectedcontent` element, not tested here for every element.)
        let template_contents = if name.is_html(Tag::Template) {
            // The contents hang from the element, not from the tree.
            self.in_tree_order = false;
            self.new_node(NodeData::Fragment)
        } else {
            NONE
        };
        self.new_node(NodeData::Element(ElementData {
            name,
            extra: if template_contents != NONE {
                template_contents
            } else {
                local
            },
            attrs_start,
            attrs_len,
            // Set by the builder for a MathML `annotation-xml` (see
            // `encoding_is_html_integration_point`), not checked here for every element.
            html_integration_point: false,
            start_span: start_span.into(),
            end_span: Sp::NONE,
        }))
    }

    /// The id of the next node when the arena has room for it without growing (and ids
    /// left): for the builder's common element insertion, which then pushes the element
    /// onto the stack of open elements before [`Dom::append_element`] creates it, so that
    /// the append's last call (the arena order's walk) is a tail call.
    pub(crate) fn next_id_with_room(&self) -> Option<NodeId> {
        // Tested apart (see `append_lazy_text`).
        let id = self.nodes.len();
        if id == self.nodes.capacity() {
            return None;
        }
        if id >= NONE as usize {
            return None;
        }
        Some(id as NodeId)
    }

    /// [`Dom::new_element`] then [`Dom::append`] to `parent` in the common case: an
    /// interned name other than an HTML `template` (no local name to store, no contents to
    /// create), as node `id`, which [`Dom::next_id_with_room`] gave. The element's links
    /// are written once, as they end up, and the arena order's common cases are in line,
    /// as in [`Dom::append_lazy_text`]; only its walk is a call, the last
    /// ([`Dom::check_tree_order_of`]). Returns `id`.
    #[inline(always)]
    pub(crate) fn append_element(
        &mut self,
        id: NodeId,
        parent: NodeId,
        name: Name,
        takes_tag_attrs: bool,
        start_span: Span,
    ) -> NodeId {
        debug_assert!(name.tag != Tag::Unknown && !name.is_html(Tag::Template));
        debug_assert_eq!(Some(id), self.next_id_with_room());
        let (attrs_start, attrs_len) = self.take_tag_attrs(takes_tag_attrs);
        let data = NodeData::Element(ElementData {
            name,
            extra: NONE,
            attrs_start,
            attrs_len,
            html_integration_point: false,
            start_span: start_span.into(),
            end_span: Sp::NONE,
        });
        let last = self.nodes[parent as usize].last_child;
        self.nodes[parent as usize].last_child = id;
        // The rest once for each case of `last`, as in `append_lazy_text`.
        if last != NONE {
            self.nodes[last as usize].next_sibling = id;
            self.push_node(parent, last, data);
            // `id - 1` is `last` or a child of it (see `append_lazy_text`).
            if self.in_tree_order && id - 1 != last && self.nodes[(id - 1) as usize].parent != last
            {
                return self.check_tree_order_of(last, id);
            }
        } else {
            self.nodes[parent as usize].first_child = id;
            self.push_node(parent, NONE, data);
            if self.in_tree_order && id - 1 != parent {
                return self.check_tree_order_of(last, id);
            }
        }
        // The order's common cases answered as `appends_in_tree_order` answers them.
        debug_assert!(!self.in_tree_order || self.appends_in_tree_order(parent, last, id));
        id
    }

    /// Pushes a new node of `data`, child of `parent` after `last` (NONE: its first
    /// child).
    /// Always inlined: otherwise a call for every new element and text node.
    #[inline(always)]
    fn push_node(&mut self, parent: NodeId, last: NodeId, data: NodeData) {
        self.nodes.push(Node {
            parent,
            first_child: NONE,
            last_child: NONE,
            prev_sibling: last,
            next_sibling: NONE,
            data,
        });
    }

    /// The attribute range of a new element (start, length): with `takes_tag_attrs`, the
    /// records of the start tag being processed, which are then no longer the tag's
    /// ([`Dom::tag_attrs`]); without, an empty range. An empty range starts where the
    /// tag's records begin, not at the list's end: those records may be dropped
    /// ([`Dom::finish_tag_attrs`]), and a range must stay within the list.
    fn take_tag_attrs(&mut self, takes_tag_attrs: bool) -> (u32, u32) {
        let attrs_start = self.tag_attrs_start;
        let attrs_len = if takes_tag_attrs {
            self.attrs.len() - attrs_start
        } else {
            0
        };
        self.tag_attrs_start = attrs_start + attrs_len;
        (attrs_start as u32, attrs_len as u32)
    }

    /// Starts the attributes of a start tag: the records of the last one that no element
    /// took are dropped, and the records pushed from now on are this tag's
    /// ([`Dom::tag_attrs`]).
    pub(crate) fn begin_tag_attrs(&mut self) {
        self.attrs.truncate(self.tag_attrs_start);
    }

    /// The attributes of the start tag being processed (empty once its element took them).
    pub(crate) fn tag_attrs(&self) -> &[AttrRec] {
        &self.attrs[self.tag_attrs_start..]
    }

    /// Drops the records of the last start tag if no element took them (the parse's end),
    /// so that the list holds only elements' attributes.
    pub(crate) fn finish_tag_attrs(&mut self) {
        self.attrs.truncate(self.tag_attrs_start);
    }

    /// Whether a MathML `annotation-xml` with the attributes of the start tag being
    /// processed ([`Dom::tag_attrs`]) is an HTML integration point (13.2.6.5: its
    /// `encoding` is `text/html` or `application/xhtml+xml`, ASCII case-insensitively).
    pub(crate) fn encoding_is_html_integration_point(&self, input: &[u8]) -> bool {
        self.tag_attrs().iter().any(|a| {
            a.ns == AttrNs::None && self.bytes(input, a.name) == b"encoding" && {
                let v = a.value(input);
                v.eq_ignore_ascii_case("text/html")
                    || v.eq_ignore_ascii_case("application/xhtml+xml")
            }
        })
    }

    /// A new element like `of` (same name and attributes, which it shares), for the
    /// adoption agency algorithm and the reconstruction of formatting elements.
    pub(crate) fn clone_element(&mut self, of: NodeId) -> NodeId {
        let mut e = *self.element(of);
        e.end_span = Sp::NONE;
        if e.name.is_html(Tag::Template) {
            self.in_tree_order = false;
            e.extra = self.new_node(NodeData::Fragment);
        }
        self.new_node(NodeData::Element(e))
    }

    pub(crate) fn element(&self, id: NodeId) -> &ElementData {
        match &self.nodes[id as usize].data {
            NodeData::Element(e) => e,
            _ => unreachable!("node {id} is not an element"),
        }
    }

    /// Inlined, the panic out of line: the builder calls it for most end tags (to record
    /// the end tag's span on the element it pops). `#[inline(always)]`, as a plain
    /// `#[inline]` is not honoured in the sink's end tag shortcut.
    #[inline(always)]
    pub(crate) fn element_mut(&mut self, id: NodeId) -> &mut ElementData {
        match &mut self.nodes[id as usize].data {
            NodeData::Element(e) => e,
            _ => not_an_element(id),
        }
    }

    pub(crate) fn attrs_of(&self, id: NodeId) -> &[AttrRec] {
        let e = self.element(id);
        &self.attrs[e.attrs_start as usize..(e.attrs_start + e.attrs_len) as usize]
    }

    /// The local name of element `id`.
    pub(crate) fn local_name<'d>(&'d self, input: &'d [u8], id: NodeId) -> &'d str {
        let e = self.element(id);
        match e.name.known_local_name() {
            Some(name) => name,
            None => self.str(input, self.names[e.extra as usize]),
        }
    }

    /// Adds the attributes of the start tag being processed ([`Dom::tag_attrs`]) that `id`
    /// does not have yet (for a second `<html>` or `<body>` start tag). The element's
    /// attributes move to the end of the list; the tag's are dropped.
    pub(crate) fn add_missing_attrs(&mut self, input: &[u8], id: NodeId) {
        let have = self.attrs_of(id);
        let mut all = have.to_vec();
        all.extend(self.tag_attrs().iter().filter(|a| {
            !have
                .iter()
                .any(|h| self.bytes(input, h.name) == self.bytes(input, a.name) && h.ns == a.ns)
        }));
        let added = all.len() > have.len();
        self.finish_tag_attrs();
        if !added {
            return;
        }
        let start = self.attrs.len() as u32;
        let len = all.len() as u32;
        self.attrs.extend(all);
        self.tag_attrs_start = self.attrs.len();
        let e = self.element_mut(id);
        e.attrs_start = start;
        e.attrs_len = len;
    }

    /// Unlinks `id` from its parent.
    pub(crate) fn detach(&mut self, id: NodeId) {
        let (parent, prev, next) = {
            let n = &self.nodes[id as usize];
            (n.parent, n.prev_sibling, n.next_sibling)
        };
        if parent == NONE {
            return;
        }
        // A removal (the adoption agency algorithm's moves, the frameset's `body`, the
        // `selectedcontent` refill) leaves a node outside the tree or moves it.
        self.in_tree_order = false;
        if prev != NONE {
            self.nodes[prev as usize].next_sibling = next;
        } else {
            self.nodes[parent as usize].first_child = next;
        }
        if next != NONE {
            self.nodes[next as usize].prev_sibling = prev;
        } else {
            self.nodes[parent as usize].last_child = prev;
        }
        let n = &mut self.nodes[id as usize];
        n.parent = NONE;
        n.prev_sibling = NONE;
        n.next_sibling = NONE;
    }

    /// Appends `child` (detached) as the last child of `parent`.
    pub(crate) fn append(&mut self, parent: NodeId, child: NodeId) {
        let last = self.nodes[parent as usize].last_child;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev_sibling = last;
            c.next_sibling = NONE;
        }
        self.link_last_child(parent, last, child);
    }

    /// The rest of [`Dom::append`], once `child`'s own links name `parent` and `last` (its
    /// last child so far): the links to `child`, and the arena order.
    /// Always inlined: otherwise a call in the insertions off the shortcuts (foreign content).
    #[inline(always)]
    fn link_last_child(&mut self, parent: NodeId, last: NodeId, child: NodeId) {
        if last != NONE {
            self.nodes[last as usize].next_sibling = child;
        } else {
            self.nodes[parent as usize].first_child = child;
        }
        self.nodes[parent as usize].last_child = child;
        // The order checked after the links are made (it reads only the parents of nodes
        // older than `child`, which they do not change), so that the walk's call comes
        // last, with no link stores waiting for it in registers.
        if self.in_tree_order && !self.appends_in_tree_order(parent, last, child) {
            self.in_tree_order = false;
        }
    }

    /// Inserts `child` (detached) before `sibling`, which has a parent.
    pub(crate) fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        // (Foster parenting, text before a table.) `child` is newer than `sibling` and
        // would come before it.
        self.in_tree_order = false;
        let parent = self.nodes[sibling as usize].parent;
        let prev = self.nodes[sibling as usize].prev_sibling;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev_sibling = prev;
            c.next_sibling = sibling;
        }
        self.nodes[sibling as usize].prev_sibling = child;
        if prev != NONE {
            self.nodes[prev as usize].next_sibling = child;
        } else {
            self.nodes[parent as usize].first_child = child;
        }
    }

    /// Whether appending `child` (detached) to `parent` keeps the arena in tree order,
    /// given that it was so far. What holds while the flag is set: the arena is a row of
    /// trees, each over consecutive ids in tree order, the first the document's (a node
    /// is created as a tree of its own at the end; a detached node is the root of its
    /// tree). `child` is then the first id of its tree, and the append keeps the row in
    /// order, joining `child`'s tree to the one before it, exactly when `parent` is
    /// `child - 1` (the last node of the tree before, in tree order) or an ancestor of
    /// it: its subtree ends there. Found by walking up from `child - 1` while the ids are
    /// above `parent`'s (an ancestor's id is smaller than its descendants' in tree
    /// order); leaving that tree (a parent of NONE) or stopping short of `parent`
    /// refuses. Whether everything ended in the document's tree is asked once, when the
    /// flag is read ([`Dom::in_tree_order`]). Amortized O(1): when the append is allowed,
    /// the nodes passed leave their tree's rightmost path for good (`child` comes after
    /// all of them), so each node is passed at most once in a parse; the first refusal
    /// ends the checks. A million nested elements and then a sibling of the outermost
    /// cost one walk of a million steps, once. (A few instructions an append; see
    /// ARCHITECTURE.md, "Arena order".)
    ///
    /// Asked of `parent`'s last child `last` (read for the links anyway) rather than of
    /// `parent`: `parent` is `child - 1` or an ancestor of it exactly when it is `child -
    /// 1` itself (a node with no children: the newest) or has children and its last child
    /// `last` is `child - 1` or an ancestor of it (in tree order the last node of
    /// `parent`'s subtree is in its last child's). One level lower, the common cases are
    /// answered without the walk: the next sibling of an element whose only descendant
    /// is one child (`<p>x</p><p>`), and text after a closed inline element (`<code>x</code>
    /// y`): `child - 1`'s parent is `last`.
    fn appends_in_tree_order(&self, parent: NodeId, last: NodeId, child: NodeId) -> bool {
        let before = child.wrapping_sub(1);
        // The common cases in line: the first child of the node just made (which has no
        // children: a child's id is above its parent's), the next sibling of a node just
        // made that has no children, and of a node whose last descendant is its child.
        // (For `child` 0, `before` is NONE: refused.)
        before == parent || last != NONE && (before == last || self.ends_under(before, last))
    }

    /// Whether `before`'s parent is `last` or, walking up, reaches it
    /// ([`Dom::appends_in_tree_order`]).
    fn ends_under(&self, before: NodeId, last: NodeId) -> bool {
        self.nodes
            .get(before as usize)
            .is_some_and(|n| n.parent == last || self.walk_up_to(n.parent, last))
    }

    /// Whether walking up from `at` through the parents, while the ids are above
    /// `parent`'s, reaches `parent` (NONE, above every id, ends the walk: it left the
    /// tree before `child`).
    fn walk_up_to(&self, mut at: NodeId, parent: NodeId) -> bool {
        while at > parent {
            at = match self.nodes.get(at as usize) {
                Some(node) => node.parent,
                None => return false,
            };
        }
        at == parent
    }

    /// Whether the arena's order is tree order: the nodes by increasing id are the
    /// document and its descendants in tree order (preorder; `root().descendants()` gives
    /// all but the document), every node of the arena among them. True when the tree builder only ever appended each
    /// new node as the last child of a node on the path from the document to the newest
    /// node (the common case: most pages), false after anything else: an insertion before
    /// a sibling (foster parenting), a removal or move (the adoption agency algorithm,
    /// the frameset's `body`), a `template` (its contents are outside the tree), a node
    /// created and never inserted (a fragment parse's context element), an append to an
    /// earlier element (the `selectedcontent` copies, text for an element that is no
    /// longer the last). Text merged into an existing text node changes no link. Selectors
    /// scan the arena instead of following the links when it holds. O(depth of the last
    /// node).
    pub(crate) fn in_tree_order(&self) -> bool {
        // While the flag holds, the arena is a row of trees over consecutive ids, the
        // document's first (see `appends_in_tree_order`): there is only the document's
        // when the last node is in it.
        if !self.in_tree_order {
            return false;
        }
        let mut at = self.nodes.len() as NodeId - 1;
        while at != 0 {
            at = self.nodes[at as usize].parent;
            if at == NONE {
                return false;
            }
        }
        true
    }

    /// Moves all children of `from` to the end of `to`'s children.
    pub(crate) fn reparent_children(&mut self, from: NodeId, to: NodeId) {
        let mut child = self.nodes[from as usize].first_child;
        while child != NONE {
            let next = self.nodes[child as usize].next_sibling;
            self.detach(child);
            self.append(to, child);
            child = next;
        }
    }

    /// 13.2.6.1 "insert a character" (a run of them) at a place (`parent`, before `before`
    /// or at the end): merged into the text node just before the place if there is one,
    /// else a new text node. The one entry for text of every form ([`Characters`]); how the
    /// string is kept is decided here: a span of the input when the text is exactly its
    /// bytes, a raw or lazy span decoded when read, else a copy.
    pub(crate) fn insert_characters(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        characters: Characters<'_, '_>,
    ) {
        match characters {
            Characters::Decoded { text, span, exact } => {
                self.insert_text_of(input, parent, before, text, span, exact)
            }
            Characters::Raw { span, kind } => {
                self.insert_raw_text(input, parent, before, span, kind)
            }
            Characters::Lazy { span, kind } => {
                self.insert_lazy_text(input, parent, before, span, kind)
            }
        }
    }

    /// [`Dom::insert_characters`] for decoded text. When `exact` (the builder's
    /// `TextTok::exact`), the text is the input's bytes at `span`, and a new node's
    /// string is then the span itself, not found again from the text's address
    /// (`Str::of_input`: its three compares and the `Cow`'s test).
    /// Always inlined: otherwise a call for each text off the lazy shortcut (foreign content).
    #[inline(always)]
    fn insert_text_of(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        text: &mut Cow<'_, str>,
        span: Span,
        exact: bool,
    ) {
        debug_assert!(
            !exact
                || matches!(&*text, Cow::Borrowed(b)
                    if Str::of_input(input, b) == Str::of_exact_span(span)),
            "an exact text is the input's bytes at its span"
        );
        let prev = self.node_before_place(parent, before);
        if prev != NONE
            && let NodeData::Text(t) = &self.nodes[prev as usize].data
        {
            let (old, first) = (t.text, t.span.get());
            return self.merge_text(input, prev, old, first, text, span);
        }
        let text = match Str::of_exact_span(span) {
            Some(str) if exact => str,
            // Decoded text: copied, in a frame of its own (see `insert_text_copied`).
            _ => return self.insert_text_copied(input, parent, before, text, span),
        };
        self.insert_text_node(parent, before, text, span);
    }

    /// The node just before an insertion place (`parent`, before `before` or at the
    /// end), or NONE: the text node a new text merges into, when it is one.
    fn node_before_place(&self, parent: NodeId, before: NodeId) -> NodeId {
        if before == NONE {
            self.nodes[parent as usize].last_child
        } else {
            self.nodes[before as usize].prev_sibling
        }
    }

    /// [`Dom::insert_text_of`] for a text not decoded: the input's bytes at `span`, which
    /// decode as text of `kind` (the tokenizer's) says, and may change in decoding. A new
    /// text node keeps them undecoded ([`Owned::Raw`]), decoded when read. Text that
    /// merges into the node before it, and a span past 2 GiB, are decoded now.
    fn insert_raw_text(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        span: Span,
        kind: TextKind,
    ) {
        let prev = self.node_before_place(parent, before);
        let merges = prev != NONE && matches!(self.nodes[prev as usize].data, NodeData::Text(_));
        match Str::of_exact_span(span) {
            Some(raw) if !merges => {
                self.owned.push(Owned::Raw {
                    start: raw.start,
                    end: raw.end,
                    kind,
                });
                let text = Str::owned(self.owned.len() - 1);
                self.insert_text_node(parent, before, text, span);
            }
            _ => self.insert_raw_text_decoded(input, parent, before, span, kind),
        }
    }

    /// 13.2.6.1 "insert a character" for a run of text as the rule of `kind` inserts it,
    /// stored as its span ([`Str::lazy`]): decoded when read. Text that merges into the
    /// node before it, and a span past 2 GiB, are decoded now.
    fn insert_lazy_text(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        span: Span,
        kind: LazyKind,
    ) {
        let prev = self.node_before_place(parent, before);
        let merges = prev != NONE && matches!(self.nodes[prev as usize].data, NodeData::Text(_));
        match Str::lazy(span, kind) {
            Some(text) if !merges => self.insert_text_node(parent, before, text, span),
            _ => self.insert_lazy_text_decoded(input, parent, before, span, kind),
        }
    }

    /// [`Dom::insert_lazy_text`] after `parent`'s last child in its common case, a new
    /// node with room in the arena; false, doing nothing, in every other case. A leaf
    /// but for the arena order's uncommon cases (a tail call, [`Dom::check_tree_order`]),
    /// so that the caller's path saves few registers. The links are written
    /// before the node is pushed, through the indices the merge check has just
    /// bounds-checked.
    #[inline(always)]
    pub(crate) fn append_lazy_text(&mut self, parent: NodeId, span: Span, kind: LazyKind) -> bool {
        // Room first, tested apart: after the reads of the parent and its last child, the
        // compiler merges the two tests into one branch through flag registers, which
        // costs the path one more saved register.
        let Some(id) = self.next_id_with_room() else {
            return false;
        };
        let Some(text) = Str::lazy(span, kind) else {
            return false;
        };
        let last = self.nodes[parent as usize].last_child;
        if last != NONE && matches!(self.nodes[last as usize].data, NodeData::Text(_)) {
            return false;
        }
        self.nodes[parent as usize].last_child = id;
        // The rest twice, once for each case of `last`, which then knows the links to
        // write and the node that the arena order's common cases compare with, so that
        // the path holds one value less and saves one register less.
        // `appends_in_tree_order`'s common cases are in line (all three: the third is
        // frequent too), its walk out of line ([`Dom::check_tree_order`]).
        if last != NONE {
            self.nodes[last as usize].next_sibling = id;
            self.push_text(parent, last, text, span);
            // `id - 1` is `last` or a child of it. (Not the parent: while the arena is in
            // tree order a parent is older than its children. Were it, the walk would
            // clear the flag, which is never wrong, only pessimistic.)
            if self.in_tree_order && id - 1 != last && self.nodes[(id - 1) as usize].parent != last
            {
                return self.check_tree_order(last, id);
            }
        } else {
            self.nodes[parent as usize].first_child = id;
            self.push_text(parent, NONE, text, span);
            if self.in_tree_order && id - 1 != parent {
                return self.check_tree_order(last, id);
            }
        }
        // The order's common cases answered as `appends_in_tree_order` answers them.
        debug_assert!(!self.in_tree_order || self.appends_in_tree_order(parent, last, id));
        true
    }

    /// Pushes a new text node, child of `parent` after `last` (NONE: its first child).
    /// Always inlined: otherwise a call in `append_lazy_text`, for most text of a page.
    #[inline(always)]
    fn push_text(&mut self, parent: NodeId, last: NodeId, text: Str, span: Span) {
        let data = NodeData::Text(TextData {
            text,
            span: span.into(),
        });
        self.push_node(parent, last, data);
    }

    /// Clears the arena order's flag unless appending `child` after `last` kept it, when
    /// `child - 1` is not the parent (for `last` NONE), nor `last` or a child of it (the
    /// walk of [`Dom::appends_in_tree_order`]). True, for [`Dom::append_lazy_text`] to
    /// return (a tail call).
    #[inline(never)]
    fn check_tree_order(&mut self, last: NodeId, child: NodeId) -> bool {
        self.clear_tree_order_unless_kept(last, child);
        true
    }

    /// [`Dom::check_tree_order`] returning `child`, for [`Dom::append_element`] to return
    /// (a tail call).
    #[inline(never)]
    fn check_tree_order_of(&mut self, last: NodeId, child: NodeId) -> NodeId {
        self.clear_tree_order_unless_kept(last, child);
        child
    }

    fn clear_tree_order_unless_kept(&mut self, last: NodeId, child: NodeId) {
        if last == NONE || !self.ends_under(child.wrapping_sub(1), last) {
            self.in_tree_order = false;
        }
    }

    /// [`Dom::insert_lazy_text`] for a text decoded now.
    fn insert_lazy_text_decoded(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        span: Span,
        kind: LazyKind,
    ) {
        let mut text = decode_lazy(input, span, kind);
        if !text.is_empty() {
            self.insert_text_of(input, parent, before, &mut text, span, false);
        }
    }

    /// [`Dom::insert_raw_text`] for a text decoded now.
    fn insert_raw_text_decoded(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        span: Span,
        kind: TextKind,
    ) {
        let mut text = kind.decode(input, span);
        self.insert_text_of(input, parent, before, &mut text, span, false);
    }

    /// [`Dom::insert_text_of`] for a text that is not the input's bytes at its span
    /// (decoding changed it): its string stored, then the node. Out of line, so that the
    /// common path calls nothing it must come back from with values in registers.
    #[inline(never)]
    fn insert_text_copied(
        &mut self,
        input: &[u8],
        parent: NodeId,
        before: NodeId,
        text: &mut Cow<'_, str>,
        span: Span,
    ) {
        let text = self.store_taken(input, text);
        self.insert_text_node(parent, before, text, span);
    }

    /// A new text node of `text` and `span`, inserted as `insert_text_of` says.
    /// Always inlined: otherwise a call for each new text node off the lazy shortcut.
    #[inline(always)]
    fn insert_text_node(&mut self, parent: NodeId, before: NodeId, text: Str, span: Span) {
        let data = NodeData::Text(TextData {
            text,
            span: span.into(),
        });
        if before == NONE {
            self.new_last_child(parent, data);
        } else {
            let id = self.new_node(data);
            self.insert_before(before, id);
        }
    }

    /// A new node of `data`, appended to `parent`: [`Dom::new_node`] then [`Dom::append`]
    /// in one, its links written once, as they end up. For text, the commonest node,
    /// where it pays; not for elements (`new_element`), where it does not.
    /// Always inlined: otherwise a call for each new text node off the lazy shortcut.
    #[inline(always)]
    fn new_last_child(&mut self, parent: NodeId, data: NodeData) -> NodeId {
        let id = self.nodes.len() as NodeId;
        assert!(id != NONE, "more than 2^32 - 1 nodes");
        let last = self.nodes[parent as usize].last_child;
        self.push_node(parent, last, data);
        self.link_last_child(parent, last, id);
        id
    }

    /// [`Dom::insert_text_of`] into the text node `prev` (whose string is `old` and first
    /// span `first`). Out of line: text merges rarely, and inlined, its copies and the
    /// span list's map would make the common path save and restore every register.
    #[cold]
    #[inline(never)]
    fn merge_text(
        &mut self,
        input: &[u8],
        prev: NodeId,
        old: Str,
        first: Span,
        text: &mut Cow<'_, str>,
        span: Span,
    ) {
        // Two pieces of the input that touch stay one span.
        let joined = match &*text {
            Cow::Borrowed(b) if old.is_span() => {
                Str::of_input(input, b).filter(|new| new.start == old.end)
            }
            _ => None,
        };
        let merged = match joined {
            Some(new) => Str {
                start: old.start,
                end: new.end,
            },
            None if old.is_owned() => {
                self.append_owned(input, old, text);
                old
            }
            None => {
                // A span of the input (decoded now if it is a lazy text's), then `text`:
                // copied as one new owned string.
                let merged = match old.lazy_span() {
                    Some((span, kind)) => self.own(&decode_lazy(input, span, kind)),
                    None => self.own(input_str(input, old)),
                };
                self.append_owned(input, merged, text);
                merged
            }
        };

        if let NodeData::Text(t) = &mut self.nodes[prev as usize].data {
            t.text = merged;
        }
        self.span_lists
            .entry(prev)
            .or_insert_with(|| vec![first])
            .push(span);
    }

    /// The bytes the arena holds: the nodes and attribute records it has (not the
    /// reservation past them, which the parse did not write), the uninterned names and
    /// the text that decoding changed.
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.len() * size_of::<Node>()
            + self.attrs.len() * size_of::<AttrRec>()
            + self.names.capacity() * size_of::<Str>()
            + self.owned.capacity() * size_of::<Owned>()
            + self.text.capacity()
            + self.raw_decoded.get().map_or(0, |r| {
                r.text.capacity() + r.at.capacity() * size_of::<(usize, usize)>()
            })
            + self.lazy_decoded.get().map_or(0, |r| {
                r.text.capacity()
                    + r.changed.capacity() * size_of::<(u32, (usize, usize))>()
                    + r.node_changed.capacity() * size_of::<u64>()
            })
            + self
                .owned
                .iter()
                .map(|o| match o {
                    Owned::Heap(h) => h.capacity(),
                    Owned::Buf { .. } | Owned::Raw { .. } => 0,
                })
                .sum::<usize>()
            + self.doctypes.capacity() * size_of::<DoctypeData>()
            + self.encoding_metas.capacity() * size_of::<NodeId>()
            + self
                .doctypes
                .iter()
                .map(|d| d.name.capacity() + d.public_id.capacity() + d.system_id.capacity())
                .sum::<usize>()
            + self
                .span_lists
                .values()
                .map(|v| v.capacity() * size_of::<Span>() + 32)
                .sum::<usize>()
    }
}

/// Infra's "strip and collapse ASCII whitespace": runs of tab, LF, FF, CR and space become
/// one space, none at either end (what `document.title` does to the title's text).
pub fn strip_and_collapse_ascii_whitespace(text: &str) -> String {
    let words: Vec<&str> = text
        .split(['\t', '\n', '\x0c', '\r', ' '])
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserts `text` (decoded, not exact: `span` is where it came from) as the last child
    /// of `parent`, or appended to its last text.
    fn insert_text(
        dom: &mut Dom,
        input: &[u8],
        parent: NodeId,
        mut text: Cow<'_, str>,
        span: Span,
    ) {
        let characters = Characters::Decoded {
            text: &mut text,
            span,
            exact: false,
        };
        dom.insert_characters(input, parent, NONE, characters);
    }

    #[test]
    fn node_size() {
        assert_eq!(std::mem::size_of::<Node>(), 56);
        assert_eq!(std::mem::size_of::<AttrRec>(), 28);
    }

    #[test]
    fn links() {
        let input = b"x    y";
        let mut dom = Dom::new(input.len());
        let new =
            |dom: &mut Dom, tag| dom.new_element(Name::html(tag), None, false, Span::default());
        let a = new(&mut dom, Tag::Div);
        let b = new(&mut dom, Tag::P);
        let c = new(&mut dom, Tag::I);
        dom.append(0, a);
        dom.append(a, c);
        dom.insert_before(c, b);
        let doc = crate::DocumentRef::new(input, &dom);
        let names: Vec<_> = doc.node(a).children().map(|n| n.name().unwrap()).collect();
        assert_eq!(names, ["p", "i"]);
        dom.detach(b);
        let doc = crate::DocumentRef::new(input, &dom);
        let names: Vec<_> = doc
            .root()
            .descendants()
            .map(|n| n.name().unwrap())
            .collect();
        assert_eq!(names, ["div", "i"]);
        let s = std::str::from_utf8(input).unwrap();
        insert_text(&mut dom, input, a, Cow::Borrowed(&s[0..1]), Span::new(0, 1));
        insert_text(&mut dom, input, a, Cow::Borrowed(&s[5..6]), Span::new(5, 6));
        let doc = crate::DocumentRef::new(input, &dom);
        let t = doc.node(a).last_child().unwrap();
        assert_eq!(t.text(), "xy");
        assert_eq!(t.text_spans().len(), 2);
    }

    /// The flag on links the tree builder does not make: a subtree built detached and
    /// then appended in place keeps tree order; a node appended before an older detached
    /// one, or anything left detached, does not.
    #[test]
    fn tree_order_of_detached_subtrees() {
        let input = b"";
        let new =
            |dom: &mut Dom| dom.new_element(Name::html(Tag::Div), None, false, Span::default());
        let walked = |dom: &Dom| -> Vec<NodeId> {
            let doc = crate::DocumentRef::new(input, dom);
            doc.root().descendants().map(|n| n.id()).collect()
        };
        // 0 <- a <- b, b appended first (under a, detached): then a in place.
        let mut dom = Dom::new(0);
        let a = new(&mut dom);
        let b = new(&mut dom);
        dom.append(a, b);
        assert!(!dom.in_tree_order(), "a and b are not in the document");
        dom.append(0, a);
        assert!(dom.in_tree_order());
        assert_eq!(walked(&dom), [a, b]);
        // b appended while the older a is left out.
        let mut dom = Dom::new(0);
        let a = new(&mut dom);
        let b = new(&mut dom);
        dom.append(0, b);
        dom.append(0, a);
        assert!(!dom.in_tree_order());
        assert_eq!(walked(&dom), [b, a]);
        // A node created and never inserted, then one appended to the document.
        let mut dom = Dom::new(0);
        let _context = new(&mut dom);
        let root = new(&mut dom);
        dom.append(0, root);
        assert!(!dom.in_tree_order());
        // Appended to an element that is no longer on the last node's path.
        let mut dom = Dom::new(0);
        let a = new(&mut dom);
        let b = new(&mut dom);
        let c = new(&mut dom);
        dom.append(0, a);
        dom.append(0, b);
        dom.append(a, c);
        assert!(!dom.in_tree_order());
        assert_eq!(walked(&dom), [a, c, b]);
    }

    /// Owned text merges: in place while it is the buffer's last string, moved to a
    /// string of its own (once) when another owned string came after it.
    #[test]
    fn owned_text_merges() {
        let input = b"ab";
        let mut dom = Dom::new(input.len());
        let new = |dom: &mut Dom| {
            let p = dom.new_element(Name::html(Tag::P), None, false, Span::default());
            dom.append(0, p);
            p
        };
        let (p, q) = (new(&mut dom), new(&mut dom));
        let owned = |s: &str| Cow::Owned(s.to_owned());
        let at = Span::new(0, 1);
        insert_text(&mut dom, input, p, owned("x"), at);
        insert_text(&mut dom, input, p, owned("y"), at);
        assert!(
            matches!(dom.owned[..], [Owned::Buf { .. }]),
            "appended in place"
        );
        insert_text(&mut dom, input, q, owned("z"), at);
        for piece in ["1", "2", "3"] {
            insert_text(&mut dom, input, p, owned(piece), at);
        }
        assert!(matches!(dom.owned[0], Owned::Heap(_)), "moved out once");
        // A span of the input merged with owned text.
        let s = std::str::from_utf8(input).unwrap();
        insert_text(&mut dom, input, q, Cow::Borrowed(&s[1..2]), Span::new(1, 2));
        let r = new(&mut dom);
        insert_text(&mut dom, input, r, Cow::Borrowed(&s[0..1]), Span::new(0, 1));
        insert_text(&mut dom, input, r, owned("!"), at);
        let doc = crate::DocumentRef::new(input, &dom);
        let texts: Vec<_> = [p, q, r].map(|e| doc.node(e).text()).into();
        assert_eq!(texts, ["xy123", "zb", "a!"]);
    }

    #[test]
    fn touching_pieces_stay_one_span() {
        let input = b"abcdef";
        let s = std::str::from_utf8(input).unwrap();
        let mut dom = Dom::new(input.len());
        let p = dom.new_element(Name::html(Tag::P), None, false, Span::default());
        dom.append(0, p);
        insert_text(&mut dom, input, p, Cow::Borrowed(&s[1..3]), Span::new(1, 3));
        insert_text(&mut dom, input, p, Cow::Borrowed(&s[3..5]), Span::new(3, 5));
        assert!(dom.owned.is_empty(), "nothing copied");
        insert_text(&mut dom, input, p, Cow::Owned("!".into()), Span::new(5, 6));
        let doc = crate::DocumentRef::new(input, &dom);
        assert_eq!(doc.node(p).text(), "bcde!");
    }
}
