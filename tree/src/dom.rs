//! The DOM: every node of a document in one arena (`Vec<Node>`), linked by `u32` indices
//! (parent, first and last child, previous and next sibling). Text and comment data borrow
//! the input (`Cow::Borrowed`) whenever decoding changes nothing; attribute values are
//! spans, decoded when read (borrowed too when nothing changes);
//! element names are interned ([`Name`]) except for names outside the list, which keep
//! their text.
//!
//! # Source positions
//!
//! Every element keeps the byte span of its start tag ([`NodeRef::span`]; empty for the
//! elements the parser creates without a tag, such as an implied `<body>`) and of the end
//! tag that closed it, when one did ([`NodeRef::end_span`]). Every attribute keeps the
//! spans of its name and value; every text node the spans of the character tokens it was
//! made from ([`NodeRef::text_spans`]; adjacent tokens inserted into one text node merge,
//! so there can be several). When a token's text was split (leading whitespace handled by
//! one insertion mode, the rest by another) and decoding changed it, each piece carries
//! the whole token's span.
//!
//! # Bytes per node
//!
//! A [`Node`] is 64 bytes on 64-bit targets: five `u32` links (20 bytes) and the payload,
//! whose largest kinds are an element's (interned name, the attribute range, one `u32`
//! for its contents or its uninterned name, and its start and end tag spans as `u32`
//! pairs) and a text node's (a `Cow<str>` and its first span). Each attribute is an
//! attribute record of 48 bytes in the document's attribute list (its name as a
//! `Cow<str>`, the spans of name and value: values are decoded when read, by
//! [`AttrRef::value`]), shared by the copies the adoption agency algorithm makes.
//! Text decoded differently from the input (a character reference, CR LF, NUL) is an
//! owned `String` beside that; a text node made of several tokens has a span list. Spans
//! are stored as `u32`: in inputs over 4 GiB, offsets past 4 GiB saturate.
//! `size_of::<Node>()` is checked by a unit test.
//!
//! Nothing here recurses: dropping, walking and serializing a million nested elements
//! uses loops over the links.

use std::borrow::Cow;

use htmltok::Span;

use crate::names::{AttrNs, Name, Ns, Tag};

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
pub struct Node<'a> {
    pub(crate) parent: NodeId,
    pub(crate) first_child: NodeId,
    pub(crate) last_child: NodeId,
    pub(crate) prev_sibling: NodeId,
    pub(crate) next_sibling: NodeId,
    pub(crate) data: NodeData<'a>,
}

/// What a node is.
#[derive(Clone, Debug)]
pub enum NodeData<'a> {
    /// The document (always node 0).
    Document,
    /// A document fragment: a template's contents, or a fragment parse's result holder.
    Fragment,
    /// `<!DOCTYPE name "public" "system">` (boxed: rare, and large).
    Doctype(Box<DoctypeData<'a>>),
    /// An element.
    Element(ElementData<'a>),
    /// A text node.
    Text(TextData<'a>),
    /// A comment.
    Comment(CommentData<'a>),
}

/// A DOCTYPE node's fields (missing ones are empty, as the DOM has them).
#[derive(Clone, Debug)]
pub struct DoctypeData<'a> {
    /// The name.
    pub name: Cow<'a, str>,
    /// The public identifier.
    pub public_id: Cow<'a, str>,
    /// The system identifier.
    pub system_id: Cow<'a, str>,
    /// The DOCTYPE token's span.
    pub span: Span,
}

/// An element's fields.
#[derive(Clone, Debug)]
pub struct ElementData<'a> {
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
    _lifetime: std::marker::PhantomData<&'a ()>,
}

/// A text node's fields.
#[derive(Clone, Debug)]
pub struct TextData<'a> {
    pub(crate) text: Cow<'a, str>,
    /// The first token's span (the document's span lists hold all of them when more
    /// tokens merged into this node).
    pub(crate) span: Sp,
}

impl<'a> TextData<'a> {
    /// The text: `Cow::Borrowed` from the input when decoding changed nothing.
    pub fn text(&self) -> &Cow<'a, str> {
        &self.text
    }
}

/// A comment's fields.
#[derive(Clone, Debug)]
pub struct CommentData<'a> {
    pub(crate) data: Cow<'a, str>,
    pub(crate) span: Sp,
}

impl<'a> CommentData<'a> {
    /// The comment's data.
    pub fn data(&self) -> &Cow<'a, str> {
        &self.data
    }
}

impl ElementData<'_> {
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

/// One attribute as the document stores it: its name, and the spans of its name and
/// value (the value is decoded when read: [`AttrRef::value`]).
#[derive(Clone, Debug)]
pub(crate) struct Attribute<'a> {
    /// The local name (lowercased; the SVG/MathML adjustments applied).
    pub(crate) name: Cow<'a, str>,
    pub(crate) ns: AttrNs,
    pub(crate) name_span: Sp,
    /// [`Sp::NONE`] when the attribute has no `=` (its value is empty).
    pub(crate) value_span: Sp,
}

impl<'a> Attribute<'a> {
    /// The value, decoded from `input` (the document's input).
    pub(crate) fn value(&self, input: &'a [u8]) -> Cow<'a, str> {
        match self.value_span.get_opt() {
            Some(span) => htmltok::decode_attribute_value(input, span),
            None => Cow::Borrowed(""),
        }
    }
}

/// A handle on one attribute of an element.
#[derive(Clone, Copy)]
pub struct AttrRef<'d, 'a> {
    attr: &'d Attribute<'a>,
    input: &'a [u8],
}

impl std::fmt::Debug for AttrRef<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={:?}", self.attr.name, self.value())
    }
}

impl<'d, 'a> AttrRef<'d, 'a> {
    /// The local name (lowercased; the SVG/MathML adjustments applied).
    pub fn name(&self) -> &'d str {
        &self.attr.name
    }

    /// The namespace (none except for adjusted foreign attributes: `xlink:href` on an SVG
    /// element is `href` in XLink).
    pub fn ns(&self) -> AttrNs {
        self.attr.ns
    }

    /// The value, character references decoded, decoded now: `Cow::Borrowed` from the
    /// input when decoding changes nothing.
    pub fn value(&self) -> Cow<'a, str> {
        self.attr.value(self.input)
    }

    /// The span of the name in the input.
    pub fn name_span(&self) -> Span {
        self.attr.name_span.get()
    }

    /// The span of the value in the input (without quotes); None when there was no `=`.
    pub fn value_span(&self) -> Option<Span> {
        self.attr.value_span.get_opt()
    }
}

/// A parsed document (or fragment): the arena and the input it borrows.
#[derive(Clone, Debug)]
pub struct Document<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) nodes: Vec<Node<'a>>,
    pub(crate) attrs: Vec<Attribute<'a>>,
    pub(crate) names: Vec<Cow<'a, str>>,
    /// The spans of the text nodes made of several tokens.
    pub(crate) span_lists: std::collections::HashMap<NodeId, Vec<Span>>,
    pub(crate) quirks: QuirksMode,
    /// For a fragment parse, the `html` element whose children are the fragment.
    pub(crate) fragment_root: Option<NodeId>,
    /// Whether a `selectedcontent` element was created (see `select.rs`).
    pub(crate) has_selectedcontent: bool,
}

impl<'a> Document<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Document<'a> {
        let mut doc = Document {
            input,
            // Reserved for the densest pages (the corpus averages a node per 55 bytes and
            // an attribute per 110, single pages up to about twice that), so that the arena
            // is not copied as it grows; untouched capacity costs no memory, and what is
            // left is given back after parsing (`shrink_to_fit`).
            nodes: Vec::with_capacity(input.len() / 24 + 8),
            attrs: Vec::with_capacity(input.len() / 48 + 8),
            names: Vec::new(),
            span_lists: std::collections::HashMap::new(),
            quirks: QuirksMode::NoQuirks,
            fragment_root: None,
            has_selectedcontent: false,
        };
        doc.new_node(NodeData::Document);
        doc
    }

    #[inline]
    pub(crate) fn new_node(&mut self, data: NodeData<'a>) -> NodeId {
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

    /// Creates an element (not inserted). `local` is its local name when not interned.
    pub(crate) fn new_element(
        &mut self,
        name: Name,
        local: Option<Cow<'a, str>>,
        attrs: &mut Vec<Attribute<'a>>,
        start_span: Span,
    ) -> NodeId {
        let attrs_start = self.attrs.len() as u32;
        let attrs_len = attrs.len() as u32;
        let html_integration_point = name.ns == Ns::MathMl
            && name.tag == Tag::AnnotationXml
            && attrs.iter().any(|a| {
                a.ns == AttrNs::None && a.name == "encoding" && {
                    let v = a.value(self.input);
                    v.eq_ignore_ascii_case("text/html")
                        || v.eq_ignore_ascii_case("application/xhtml+xml")
                }
            });
        self.attrs.append(attrs);
        let local = match local {
            Some(text) => {
                self.names.push(text);
                (self.names.len() - 1) as u32
            }
            None => NONE,
        };
        debug_assert!(local == NONE || name.tag == Tag::Unknown);
        self.has_selectedcontent |= name.is_html(Tag::Selectedcontent);
        let template_contents = if name.is_html(Tag::Template) {
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
            html_integration_point,
            start_span: start_span.into(),
            end_span: Sp::NONE,
            _lifetime: std::marker::PhantomData,
        }))
    }

    /// A new element like `of` (same name and attributes, which it shares), for the
    /// adoption agency algorithm and the reconstruction of formatting elements.
    pub(crate) fn clone_element(&mut self, of: NodeId) -> NodeId {
        let NodeData::Element(e) = &self.nodes[of as usize].data else {
            unreachable!("only elements are cloned")
        };
        let mut e = e.clone();
        e.end_span = Sp::NONE;
        if e.name.is_html(Tag::Template) {
            e.extra = self.new_node(NodeData::Fragment);
        }
        self.new_node(NodeData::Element(e))
    }

    pub(crate) fn element(&self, id: NodeId) -> &ElementData<'a> {
        match &self.nodes[id as usize].data {
            NodeData::Element(e) => e,
            _ => unreachable!("node {id} is not an element"),
        }
    }

    pub(crate) fn element_mut(&mut self, id: NodeId) -> &mut ElementData<'a> {
        match &mut self.nodes[id as usize].data {
            NodeData::Element(e) => e,
            _ => unreachable!("node {id} is not an element"),
        }
    }

    pub(crate) fn attrs_of(&self, id: NodeId) -> &[Attribute<'a>] {
        let e = self.element(id);
        &self.attrs[e.attrs_start as usize..(e.attrs_start + e.attrs_len) as usize]
    }

    /// The local name of element `id`.
    pub(crate) fn local_name(&self, id: NodeId) -> &str {
        let e = self.element(id);
        match e.name.known_local_name() {
            Some(name) => name,
            None => &self.names[e.extra as usize],
        }
    }

    /// Adds the attributes of `attrs` that `id` does not have yet (for a second `<html>`
    /// or `<body>` start tag). The element's attributes move to the end of the list.
    pub(crate) fn add_missing_attrs(&mut self, id: NodeId, attrs: &mut Vec<Attribute<'a>>) {
        let have = self.attrs_of(id);
        let missing: Vec<Attribute<'a>> = attrs
            .drain(..)
            .filter(|a| !have.iter().any(|h| h.name == a.name && h.ns == a.ns))
            .collect();
        if missing.is_empty() {
            return;
        }
        let mut all = have.to_vec();
        all.extend(missing);
        let start = self.attrs.len() as u32;
        let len = all.len() as u32;
        self.attrs.extend(all);
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
    #[inline]
    pub(crate) fn append(&mut self, parent: NodeId, child: NodeId) {
        let last = self.nodes[parent as usize].last_child;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev_sibling = last;
            c.next_sibling = NONE;
        }
        if last != NONE {
            self.nodes[last as usize].next_sibling = child;
        } else {
            self.nodes[parent as usize].first_child = child;
        }
        self.nodes[parent as usize].last_child = child;
    }

    /// Inserts `child` (detached) before `sibling`, which has a parent.
    pub(crate) fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
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

    /// Adds text at a place (`parent`, before `before` or at the end): merges into the
    /// text node just before that place if there is one.
    pub(crate) fn insert_text(
        &mut self,
        parent: NodeId,
        before: NodeId,
        text: Cow<'a, str>,
        span: Span,
    ) {
        let prev = if before == NONE {
            self.nodes[parent as usize].last_child
        } else {
            self.nodes[before as usize].prev_sibling
        };
        if prev != NONE {
            let input = self.input;
            if let NodeData::Text(t) = &mut self.nodes[prev as usize].data {
                // Two borrowed pieces that touch in the input stay one borrowed slice.
                let joined = match (&t.text, &text) {
                    (Cow::Borrowed(a), Cow::Borrowed(b)) => {
                        let (sa, sb) = (offset_in(input, a), offset_in(input, b));
                        if sa <= input.len() && sa + a.len() == sb && sb + b.len() <= input.len() {
                            std::str::from_utf8(&input[sa..sb + b.len()]).ok()
                        } else {
                            None
                        }
                    }
                    _ => None,
                };
                match joined {
                    Some(s) => t.text = Cow::Borrowed(s),
                    None => t.text.to_mut().push_str(&text),
                }
                let first = t.span.get();
                self.span_lists
                    .entry(prev)
                    .or_insert_with(|| vec![first])
                    .push(span);
                return;
            }
        }
        let id = self.new_node(NodeData::Text(TextData {
            text,
            span: span.into(),
        }));
        if before == NONE {
            self.append(parent, id);
        } else {
            self.insert_before(before, id);
        }
    }

    /// A handle on node `id`.
    pub fn node(&self, id: NodeId) -> NodeRef<'_, 'a> {
        assert!((id as usize) < self.nodes.len(), "no node {id}");
        NodeRef { doc: self, id }
    }

    /// The document node (for a fragment parse: the document that holds the `html` element
    /// whose children are the fragment; see [`Document::fragment_root`]).
    pub fn root(&self) -> NodeRef<'_, 'a> {
        self.node(0)
    }

    /// For a fragment parse, the element whose children are the parsed fragment.
    pub fn fragment_root(&self) -> Option<NodeRef<'_, 'a>> {
        self.fragment_root.map(|id| self.node(id))
    }

    /// The quirks mode the DOCTYPE set.
    pub fn quirks_mode(&self) -> QuirksMode {
        self.quirks
    }

    /// The input the document borrows.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Gives back the arena's unused capacity (a shrinking `realloc`, which moves nothing
    /// in practice).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.attrs.shrink_to_fit();
    }

    /// The bytes the document holds beside its input: the arena (as allocated), the
    /// attribute records, the uninterned names and the text that decoding changed.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let owned = |c: &Cow<'_, str>| match c {
            Cow::Owned(s) => s.capacity(),
            Cow::Borrowed(_) => 0,
        };
        let mut bytes = self.nodes.capacity() * size_of::<Node<'_>>()
            + self.attrs.capacity() * size_of::<Attribute<'_>>()
            + self.names.capacity() * size_of::<Cow<'_, str>>()
            + self.names.iter().map(owned).sum::<usize>()
            + self.attrs.iter().map(|a| owned(&a.name)).sum::<usize>()
            + self
                .span_lists
                .values()
                .map(|v| v.capacity() * size_of::<Span>() + 32)
                .sum::<usize>();
        for n in &self.nodes {
            bytes += match &n.data {
                NodeData::Text(t) => owned(&t.text),
                NodeData::Comment(c) => owned(&c.data),
                NodeData::Doctype(d) => {
                    size_of::<DoctypeData<'_>>()
                        + owned(&d.name)
                        + owned(&d.public_id)
                        + owned(&d.system_id)
                }
                _ => 0,
            };
        }
        bytes
    }

    /// The number of nodes in the arena (including template contents and nodes the parser
    /// detached, such as a `<body>` replaced by a `<frameset>`).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The `<html>` element (the document element), if any.
    pub fn document_element(&self) -> Option<NodeRef<'_, 'a>> {
        self.root().children().find(|n| n.is_element())
    }

    /// The `head` element: the first `head` child of the document element.
    pub fn head(&self) -> Option<NodeRef<'_, 'a>> {
        self.document_element()?
            .children()
            .find(|n| n.element_name().is_some_and(|e| e.is_html(Tag::Head)))
    }

    /// The body element: the first `body` or `frameset` child of the document element.
    pub fn body(&self) -> Option<NodeRef<'_, 'a>> {
        self.document_element()?.children().find(|n| {
            n.element_name()
                .is_some_and(|e| e.is_html(Tag::Body) || e.is_html(Tag::Frameset))
        })
    }

    /// The `href` of the document's base element, as written: that of the first HTML
    /// `base` element with an `href` attribute in tree order (HTML § 4.2.3; template
    /// contents are not in the tree). None when there is none. Resolve it against the
    /// document's URL to get the document base URL.
    pub fn base_href(&self) -> Option<Cow<'a, str>> {
        self.root()
            .descendants()
            .filter(|n| n.element_name().is_some_and(|e| e.is_html(Tag::Base)))
            .find_map(|n| n.attr("href"))
    }

    /// The document's title as the DOM's `document.title` has it: the text of the first
    /// HTML `title` element in tree order, ASCII whitespace stripped and collapsed to single
    /// spaces. None when there is no `title` element.
    pub fn title(&self) -> Option<String> {
        let title = self
            .root()
            .descendants()
            .find(|n| n.element_name().is_some_and(|e| e.is_html(Tag::Title)))?;
        Some(strip_and_collapse_ascii_whitespace(&title.text()))
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

fn offset_in(input: &[u8], s: &str) -> usize {
    (s.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize)
}

/// A node handle: a document and an index. Cheap to copy.
#[derive(Clone, Copy)]
pub struct NodeRef<'d, 'a> {
    doc: &'d Document<'a>,
    id: NodeId,
}

impl std::fmt::Debug for NodeRef<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NodeRef({}, {:?})", self.id, self.kind())
    }
}

impl PartialEq for NodeRef<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.id == other.id
    }
}

/// What kind of node a [`NodeRef`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The document.
    Document,
    /// A document fragment (a template's contents).
    Fragment,
    /// A DOCTYPE.
    Doctype,
    /// An element.
    Element,
    /// Text.
    Text,
    /// A comment.
    Comment,
}

impl<'d, 'a> NodeRef<'d, 'a> {
    fn node(&self) -> &'d Node<'a> {
        &self.doc.nodes[self.id as usize]
    }

    fn link(&self, id: NodeId) -> Option<NodeRef<'d, 'a>> {
        (id != NONE).then_some(NodeRef { doc: self.doc, id })
    }

    /// The node's index in the arena.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The document.
    pub fn document(&self) -> &'d Document<'a> {
        self.doc
    }

    /// What kind of node this is.
    pub fn kind(&self) -> NodeKind {
        match &self.node().data {
            NodeData::Document => NodeKind::Document,
            NodeData::Fragment => NodeKind::Fragment,
            NodeData::Doctype(_) => NodeKind::Doctype,
            NodeData::Element(_) => NodeKind::Element,
            NodeData::Text(_) => NodeKind::Text,
            NodeData::Comment(_) => NodeKind::Comment,
        }
    }

    /// The node's data.
    pub fn data(&self) -> &'d NodeData<'a> {
        &self.node().data
    }

    /// True for an element.
    pub fn is_element(&self) -> bool {
        matches!(self.node().data, NodeData::Element(_))
    }

    /// The parent, if any (template contents have none).
    pub fn parent(&self) -> Option<NodeRef<'d, 'a>> {
        self.link(self.node().parent)
    }

    /// The first child.
    pub fn first_child(&self) -> Option<NodeRef<'d, 'a>> {
        self.link(self.node().first_child)
    }

    /// The last child.
    pub fn last_child(&self) -> Option<NodeRef<'d, 'a>> {
        self.link(self.node().last_child)
    }

    /// The next sibling.
    pub fn next_sibling(&self) -> Option<NodeRef<'d, 'a>> {
        self.link(self.node().next_sibling)
    }

    /// The previous sibling.
    pub fn prev_sibling(&self) -> Option<NodeRef<'d, 'a>> {
        self.link(self.node().prev_sibling)
    }

    /// The children in order.
    pub fn children(&self) -> Children<'d, 'a> {
        Children {
            doc: self.doc,
            next: self.node().first_child,
        }
    }

    /// Every node below this one in document order (not this one; template contents not
    /// entered). Iterative.
    pub fn descendants(&self) -> Descendants<'d, 'a> {
        Descendants {
            doc: self.doc,
            root: self.id,
            next: self.node().first_child,
        }
    }

    /// The element's interned name (None for other nodes).
    pub fn element_name(&self) -> Option<Name> {
        match &self.node().data {
            NodeData::Element(e) => Some(e.name),
            _ => None,
        }
    }

    /// The element's local name (`div`, `foreignObject`, `my-widget`); None for other
    /// nodes.
    pub fn name(&self) -> Option<&'d str> {
        match &self.node().data {
            NodeData::Element(_) => Some(self.doc.local_name(self.id)),
            _ => None,
        }
    }

    /// The element's namespace.
    pub fn namespace(&self) -> Option<Ns> {
        self.element_name().map(|n| n.ns)
    }

    /// The element's attributes in source order (none for other nodes).
    pub fn attrs(&self) -> impl ExactSizeIterator<Item = AttrRef<'d, 'a>> + use<'d, 'a> {
        let attrs = match &self.node().data {
            NodeData::Element(_) => self.doc.attrs_of(self.id),
            _ => &[],
        };
        let input = self.doc.input;
        attrs.iter().map(move |attr| AttrRef { attr, input })
    }

    /// The value of the attribute named `name` (in no namespace), decoded.
    pub fn attr(&self, name: &str) -> Option<Cow<'a, str>> {
        self.attrs()
            .find(|a| a.ns() == AttrNs::None && a.name() == name)
            .map(|a| a.value())
    }

    /// The text of a text node, the data of a comment; for an element or document, the
    /// concatenated text of its descendant text nodes (its `textContent`).
    pub fn text(&self) -> Cow<'d, str> {
        match &self.node().data {
            NodeData::Text(t) => Cow::Borrowed(&t.text),
            NodeData::Comment(c) => Cow::Borrowed(&c.data),
            NodeData::Doctype(_) => Cow::Borrowed(""),
            _ => {
                let mut out = String::new();
                for n in self.descendants() {
                    if let NodeData::Text(t) = &n.node().data {
                        out.push_str(&t.text);
                    }
                }
                Cow::Owned(out)
            }
        }
    }

    /// The node's span in the input: an element's start tag (empty when the parser
    /// implied it), a text node's first token, a comment or DOCTYPE token.
    pub fn span(&self) -> Span {
        match &self.node().data {
            NodeData::Element(e) => e.start_span.get(),
            NodeData::Text(t) => t.span.get(),
            NodeData::Comment(c) => c.span.get(),
            NodeData::Doctype(d) => d.span,
            NodeData::Document | NodeData::Fragment => Span::new(0, self.doc.input.len()),
        }
    }

    /// The span of the end tag that closed this element, when one did.
    pub fn end_span(&self) -> Option<Span> {
        match &self.node().data {
            NodeData::Element(e) => e.end_span.get_opt(),
            _ => None,
        }
    }

    /// The spans of the character tokens a text node was made from.
    pub fn text_spans(&self) -> Vec<Span> {
        match &self.node().data {
            NodeData::Text(t) => match self.doc.span_lists.get(&self.id) {
                Some(spans) => spans.clone(),
                None => vec![t.span.get()],
            },
            _ => Vec::new(),
        }
    }

    /// A `template` element's contents (a fragment node).
    pub fn template_contents(&self) -> Option<NodeRef<'d, 'a>> {
        match &self.node().data {
            NodeData::Element(e) if e.name.is_html(Tag::Template) => self.link(e.extra),
            _ => None,
        }
    }
}

/// The children of a node.
pub struct Children<'d, 'a> {
    doc: &'d Document<'a>,
    next: NodeId,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = NodeRef<'d, 'a>;

    fn next(&mut self) -> Option<NodeRef<'d, 'a>> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.doc.nodes[id as usize].next_sibling;
        Some(NodeRef { doc: self.doc, id })
    }
}

/// The descendants of a node in document order.
pub struct Descendants<'d, 'a> {
    doc: &'d Document<'a>,
    root: NodeId,
    next: NodeId,
}

impl<'d, 'a> Iterator for Descendants<'d, 'a> {
    type Item = NodeRef<'d, 'a>;

    fn next(&mut self) -> Option<NodeRef<'d, 'a>> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        let nodes = &self.doc.nodes;
        let n = &nodes[id as usize];
        self.next = if n.first_child != NONE {
            n.first_child
        } else {
            let mut cur = id;
            loop {
                if cur == self.root {
                    break NONE;
                }
                let c = &nodes[cur as usize];
                if c.next_sibling != NONE {
                    break c.next_sibling;
                }
                cur = c.parent;
                if cur == NONE || cur == self.root {
                    break NONE;
                }
            }
        };
        Some(NodeRef { doc: self.doc, id })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_size() {
        assert_eq!(std::mem::size_of::<Node<'_>>(), 64);
        assert_eq!(std::mem::size_of::<Attribute<'_>>(), 48);
    }

    #[test]
    fn links() {
        let mut doc = Document::new(b"");
        let a = doc.new_element(Name::html(Tag::Div), None, &mut Vec::new(), Span::default());
        let b = doc.new_element(Name::html(Tag::P), None, &mut Vec::new(), Span::default());
        let c = doc.new_element(Name::html(Tag::I), None, &mut Vec::new(), Span::default());
        doc.append(0, a);
        doc.append(a, c);
        doc.insert_before(c, b);
        let names: Vec<_> = doc.node(a).children().map(|n| n.name().unwrap()).collect();
        assert_eq!(names, ["p", "i"]);
        doc.detach(b);
        let names: Vec<_> = doc
            .root()
            .descendants()
            .map(|n| n.name().unwrap())
            .collect();
        assert_eq!(names, ["div", "i"]);
        doc.insert_text(a, NONE, Cow::Borrowed("x"), Span::new(0, 1));
        doc.insert_text(a, NONE, Cow::Borrowed("y"), Span::new(5, 6));
        let t = doc.node(a).last_child().unwrap();
        assert_eq!(t.text(), "xy");
        assert_eq!(t.text_spans().len(), 2);
    }
}
