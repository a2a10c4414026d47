//! The views of a parsed document: [`DocumentRef`] (its arena and input, and the reads
//! written once for every form of document), the handles on its nodes and attributes
//! ([`NodeRef`]: a document view and a node id, cheap to copy; [`AttrRef`]), and the
//! iterators over children and descendants. The same views serve a borrowing
//! [`crate::Document`] and an [`crate::OwnedDocument`]: both lend a [`DocumentRef`].
//!
//! Small accessors are `#[inline]` so that the crates reading the DOM can inline them.

use std::borrow::Cow;

use htmltok::Span;

use crate::dom::{
    AttrRec, DoctypeData, Dom, NONE, Node, NodeData, NodeId, QuirksMode,
    strip_and_collapse_ascii_whitespace,
};
use crate::names::{AttrNs, Name, Ns, Tag};

/// A view of a parsed document: its arena and its input. Cheap to copy; what
/// [`NodeRef::document`] gives.
#[derive(Clone, Copy)]
pub struct DocumentRef<'d> {
    input: &'d [u8],
    dom: &'d Dom,
}

impl std::fmt::Debug for DocumentRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DocumentRef({} nodes, {} bytes)",
            self.dom.nodes.len(),
            self.input.len()
        )
    }
}

impl<'d> DocumentRef<'d> {
    pub(crate) fn new(input: &'d [u8], dom: &'d Dom) -> DocumentRef<'d> {
        DocumentRef { input, dom }
    }

    /// The same document (the same arena).
    pub(crate) fn same(&self, other: &DocumentRef<'_>) -> bool {
        std::ptr::eq(self.dom, other.dom)
    }

    pub(crate) fn dom(&self) -> &'d Dom {
        self.dom
    }

    /// The document's input.
    pub fn input(&self) -> &'d [u8] {
        self.input
    }

    /// A handle on node `id` (panics when there is no such node: ids come from this
    /// document's handles, or are below [`Self::node_count`]).
    pub fn node(&self, id: NodeId) -> NodeRef<'d> {
        assert!((id as usize) < self.dom.nodes.len(), "no node {id}");
        NodeRef::new(*self, id)
    }

    /// The document node (for a fragment parse: the document that holds the `html` element
    /// whose children are the fragment; see [`Self::fragment_root`]).
    pub fn root(&self) -> NodeRef<'d> {
        self.node(0)
    }

    /// For a fragment parse, the element whose children are the parsed fragment.
    pub fn fragment_root(&self) -> Option<NodeRef<'d>> {
        self.dom.fragment_root.map(|id| self.node(id))
    }

    /// The quirks mode the DOCTYPE set.
    pub fn quirks_mode(&self) -> QuirksMode {
        self.dom.quirks
    }

    /// The bytes the document holds beside its input (see [`crate::Document::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        self.dom.heap_bytes()
    }

    /// The number of nodes in the arena.
    pub fn node_count(&self) -> usize {
        self.dom.nodes.len()
    }

    /// Whether the arena's order is tree order: node 0 is the document and ids
    /// `1..node_count()` are its descendants in tree order (what `root().descendants()`
    /// gives), so every node of the arena is in the document. True for most pages: the tree builder appended each node as
    /// it was created, at the end of the tree; false once it did anything else (foster
    /// parenting, the adoption agency algorithm's moves, a `template`, a fragment parse's
    /// context element, ...).
    pub fn in_tree_order(&self) -> bool {
        self.dom.in_tree_order()
    }

    /// The document's elements in tree order by a scan of the arena, when its order is
    /// tree order ([`Self::in_tree_order`]); else None (walk `root().descendants()`).
    /// The scan reads the nodes in memory order and skips the others with one
    /// comparison, where the walk follows the links (and visits every text node).
    pub fn elements_in_tree_order(&self) -> Option<Elements<'d>> {
        self.dom
            .in_tree_order()
            .then(|| Elements::new(*self, &self.dom.nodes))
    }

    /// The `<html>` element (the document element), if any.
    pub fn document_element(&self) -> Option<NodeRef<'d>> {
        self.root().children().find(|n| n.is_element())
    }

    /// The `head` element: the first `head` child of the document element.
    pub fn head(&self) -> Option<NodeRef<'d>> {
        self.document_element()?
            .children()
            .find(|n| n.element_name().is_some_and(|e| e.is_html(Tag::Head)))
    }

    /// The body element: the first `body` or `frameset` child of the document element.
    pub fn body(&self) -> Option<NodeRef<'d>> {
        self.document_element()?.children().find(|n| {
            n.element_name()
                .is_some_and(|e| e.is_html(Tag::Body) || e.is_html(Tag::Frameset))
        })
    }

    /// The `href` of the first HTML `base` element with an `href` attribute in tree order
    /// (see [`crate::Document::base_href`]).
    pub fn base_href(&self) -> Option<Cow<'d, str>> {
        let is_base = |n: &NodeRef<'d>| n.element_name().is_some_and(|e| e.is_html(Tag::Base));
        // The arena's scan when it is in tree order: a page without `base` is read
        // whole, and the scan skips its text nodes.
        match self.elements_in_tree_order() {
            Some(elements) => elements.filter(is_base).find_map(|n| n.attr("href")),
            None => self
                .root()
                .descendants()
                .filter(is_base)
                .find_map(|n| n.attr("href")),
        }
    }

    /// The `meta` elements whose `charset` or `http-equiv` attribute the tree builder's
    /// "in head" `meta` rule read, in document order: the elements of 13.2.6.4.4, "A start
    /// tag whose tag name is "meta"", that have a `charset` attribute or an `http-equiv`
    /// attribute. The rule also runs from "in body", "after head", "in head noscript",
    /// "in template" and from foreign content (a `meta` breaks out of it), through "using
    /// the rules for in head"; a `meta` in a mode that ignores it, such as "in frameset",
    /// is not an element and is not here. On them the rule says: "If the element has a
    /// charset attribute, and getting an encoding from its value results in an encoding,
    /// and the confidence is currently tentative, then change the encoding to the
    /// resulting encoding. Otherwise, if the element has an http-equiv attribute whose
    /// value is an ASCII case-insensitive match for the string "Content-Type", and the
    /// element has a content attribute, and applying the algorithm for extracting a
    /// character encoding from a meta element to that attribute's value returns an
    /// encoding, and the confidence is currently tentative, then change the encoding to
    /// the extracted encoding."
    ///
    /// The tree knows no encodings: a caller that decoded the input with a tentative
    /// encoding walks these to find the first that names one (`htmltok_crawl::encoding::
    /// decode_and_parse` does). Empty for a fragment parse (no encoding applies).
    ///
    /// ```
    /// let doc = htmltok_tree::parse(b"<meta name=x><meta charset=gbk><frameset><meta charset=big5>");
    /// let charsets: Vec<_> = doc.encoding_metas().map(|m| m.attr("charset").unwrap()).collect();
    /// assert_eq!(charsets, ["gbk"]); // "in frameset" ignores a meta start tag
    /// ```
    pub fn encoding_metas(&self) -> impl ExactSizeIterator<Item = NodeRef<'d>> + use<'d> {
        let doc = *self;
        self.dom.encoding_metas.iter().map(move |&id| doc.node(id))
    }

    /// `document.title` (see [`crate::Document::title`]).
    pub fn title(&self) -> Option<String> {
        let title = self
            .root()
            .descendants()
            .find(|n| n.element_name().is_some_and(|e| e.is_html(Tag::Title)))?;
        Some(strip_and_collapse_ascii_whitespace(&title.text()))
    }
}

/// A node handle: a document and an index. Cheap to copy.
#[derive(Clone, Copy)]
pub struct NodeRef<'d> {
    doc: DocumentRef<'d>,
    id: NodeId,
}

impl std::fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NodeRef({}, {:?})", self.id, self.kind())
    }
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.doc.same(&other.doc) && self.id == other.id
    }
}

impl Eq for NodeRef<'_> {}

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

impl<'d> NodeRef<'d> {
    pub(crate) fn new(doc: DocumentRef<'d>, id: NodeId) -> NodeRef<'d> {
        NodeRef { doc, id }
    }

    fn node(&self) -> &'d Node {
        &self.doc.dom().nodes[self.id as usize]
    }

    fn link(&self, id: NodeId) -> Option<NodeRef<'d>> {
        (id != NONE).then_some(NodeRef { doc: self.doc, id })
    }

    /// The node's index in the arena.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The document.
    pub fn document(&self) -> DocumentRef<'d> {
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
    pub fn data(&self) -> &'d NodeData {
        &self.node().data
    }

    /// True for an element.
    pub fn is_element(&self) -> bool {
        matches!(self.node().data, NodeData::Element(_))
    }

    /// The parent, if any (template contents have none).
    pub fn parent(&self) -> Option<NodeRef<'d>> {
        self.link(self.node().parent)
    }

    /// The first child.
    pub fn first_child(&self) -> Option<NodeRef<'d>> {
        self.link(self.node().first_child)
    }

    /// The last child.
    pub fn last_child(&self) -> Option<NodeRef<'d>> {
        self.link(self.node().last_child)
    }

    /// The next sibling.
    pub fn next_sibling(&self) -> Option<NodeRef<'d>> {
        self.link(self.node().next_sibling)
    }

    /// The previous sibling.
    pub fn prev_sibling(&self) -> Option<NodeRef<'d>> {
        self.link(self.node().prev_sibling)
    }

    /// The children in order.
    pub fn children(&self) -> Children<'d> {
        Children {
            doc: self.doc,
            next: self.node().first_child,
        }
    }

    /// Every node below this one in document order (not this one; template contents not
    /// entered). Iterative.
    pub fn descendants(&self) -> Descendants<'d> {
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
            NodeData::Element(_) => Some(self.doc.dom().local_name(self.doc.input(), self.id)),
            _ => None,
        }
    }

    /// The element's namespace.
    pub fn namespace(&self) -> Option<Ns> {
        self.element_name().map(|n| n.ns)
    }

    /// The element's attributes in source order (none for other nodes).
    pub fn attrs(&self) -> impl ExactSizeIterator<Item = AttrRef<'d>> + use<'d> {
        let attrs = match &self.node().data {
            NodeData::Element(_) => self.doc.dom().attrs_of(self.id),
            _ => &[],
        };
        let doc = self.doc;
        attrs.iter().map(move |attr| AttrRef { attr, doc })
    }

    /// The attribute in no namespace whose name is the bytes `name` (an element has one
    /// attribute of a name at most), its value not decoded; None for other nodes and when
    /// there is none. Names are compared as stored (lowercased on HTML elements, as
    /// [`AttrRef::name`] gives them). For callers that look an attribute up by name for
    /// each element they test (selectors: `a[href]` on every `a`): one loop over the
    /// element's records, the node read once, each name's length compared before its
    /// bytes, in line (where `attrs().find(..)` read the node twice and the slices' `==`
    /// called `memcmp`).
    ///
    /// ```
    /// let doc = htmltok_tree::parse(b"<a CLASS=x href='/y' xlink:href=z>");
    /// let a = doc.body().unwrap().first_child().unwrap();
    /// assert_eq!(a.attr_in_no_namespace(b"href").unwrap().value(), "/y");
    /// assert_eq!(a.attr_in_no_namespace(b"class").unwrap().value(), "x");
    /// assert!(a.attr_in_no_namespace(b"CLASS").is_none());
    /// assert!(a.first_child().is_none_or(|t| t.attr_in_no_namespace(b"href").is_none()));
    /// ```
    #[inline(always)]
    pub fn attr_in_no_namespace(&self, name: &[u8]) -> Option<AttrRef<'d>> {
        let NodeData::Element(e) = &self.node().data else {
            return None;
        };
        let (dom, input) = (self.doc.dom(), self.doc.input());
        let start = e.attrs_start as usize;
        let attrs = dom.attrs.get(start..start + e.attrs_len as usize)?;
        for attr in attrs {
            if attr.ns == AttrNs::None && same_name(dom.bytes(input, attr.name), name) {
                return Some(AttrRef {
                    attr,
                    doc: self.doc,
                });
            }
        }
        None
    }

    /// The value of the attribute named `name` (in no namespace), decoded.
    pub fn attr(&self, name: &str) -> Option<Cow<'d, str>> {
        self.attr_in_no_namespace(name.as_bytes())
            .map(|a| a.value())
    }

    /// The text of a text node, the data of a comment; for an element or document, the
    /// concatenated text of its descendant text nodes (its `textContent`).
    pub fn text(&self) -> Cow<'d, str> {
        let (dom, input) = (self.doc.dom(), self.doc.input());
        match &self.node().data {
            NodeData::Text(t) => Cow::Borrowed(dom.text_of(input, self.id, t.text)),
            NodeData::Comment(c) => Cow::Borrowed(dom.str(input, c.data)),
            NodeData::Doctype(_) => Cow::Borrowed(""),
            _ => {
                let mut out = String::new();
                for n in self.descendants() {
                    if let NodeData::Text(t) = &n.node().data {
                        out.push_str(dom.text_of(input, n.id, t.text));
                    }
                }
                Cow::Owned(out)
            }
        }
    }

    /// The bytes of a text node's text or a comment's data: exactly the UTF-8 bytes of
    /// [`NodeRef::text`]'s `&str` for those nodes, without its UTF-8 check (the tree holds
    /// only text the tokenizer decoded, so it is always valid UTF-8). For callers that
    /// only count or compare (characters, whitespace, commas): decode with `text()` where
    /// the text is output. None for other nodes (an element's text is its descendants',
    /// read one text node at a time).
    ///
    /// ```
    /// let doc = htmltok_tree::parse(b"<p>caf\xC3\xA9 &amp; cr\xC3\xA8me<!--x-->");
    /// let p = doc.body().unwrap().first_child().unwrap();
    /// let text = p.first_child().unwrap();
    /// assert_eq!(text.text_bytes(), Some("caf\u{e9} & cr\u{e8}me".as_bytes()));
    /// assert_eq!(text.text_bytes(), Some(text.text().as_bytes()));
    /// assert_eq!(p.last_child().unwrap().text_bytes(), Some(&b"x"[..]));
    /// assert_eq!(p.text_bytes(), None);
    /// ```
    #[inline]
    pub fn text_bytes(&self) -> Option<&'d [u8]> {
        let (dom, input) = (self.doc.dom(), self.doc.input());
        match &self.node().data {
            NodeData::Text(t) => Some(dom.text_bytes_of(input, self.id, t.text)),
            NodeData::Comment(c) => Some(dom.bytes(input, c.data)),
            _ => None,
        }
    }

    /// A DOCTYPE's name and identifiers (None for other nodes).
    pub fn doctype(&self) -> Option<&'d DoctypeData> {
        match &self.node().data {
            NodeData::Doctype(i) => self.doc.dom().doctypes.get(*i as usize),
            _ => None,
        }
    }

    /// The node's span in the input: an element's start tag (empty when the parser
    /// implied it), a text node's first token, a comment or DOCTYPE token.
    pub fn span(&self) -> Span {
        match &self.node().data {
            NodeData::Element(e) => e.start_span.get(),
            NodeData::Text(t) => t.span.get(),
            NodeData::Comment(c) => c.span.get(),
            NodeData::Doctype(_) => self.doctype().map_or(Span::default(), |d| d.span),
            NodeData::Document | NodeData::Fragment => Span::new(0, self.doc.input().len()),
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
            NodeData::Text(t) => match self.doc.dom().span_lists.get(&self.id) {
                Some(spans) => spans.clone(),
                None => vec![t.span.get()],
            },
            _ => Vec::new(),
        }
    }

    /// A `template` element's contents (a fragment node).
    pub fn template_contents(&self) -> Option<NodeRef<'d>> {
        match &self.node().data {
            NodeData::Element(e) if e.name.is_html(Tag::Template) => self.link(e.extra),
            _ => None,
        }
    }
}

/// `a == b` for attribute names, a few bytes long: the lengths first, then names of 4 to
/// 16 bytes as two overlapping words a side (`href`, `class`, `content`: one or two
/// comparisons), others byte by byte in line (the slices' `==` calls `memcmp` for every
/// name of the right length).
#[inline(always)]
fn same_name(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match a.len() {
        4..=8 => {
            a.first_chunk::<4>() == b.first_chunk::<4>()
                && a.last_chunk::<4>() == b.last_chunk::<4>()
        }
        9..=16 => {
            a.first_chunk::<8>() == b.first_chunk::<8>()
                && a.last_chunk::<8>() == b.last_chunk::<8>()
        }
        _ => a.iter().zip(b).all(|(x, y)| x == y),
    }
}

/// A handle on one attribute of an element.
#[derive(Clone, Copy)]
pub struct AttrRef<'d> {
    attr: &'d AttrRec,
    doc: DocumentRef<'d>,
}

impl std::fmt::Debug for AttrRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={:?}", self.name(), self.value())
    }
}

impl<'d> AttrRef<'d> {
    /// The local name (lowercased; the SVG/MathML adjustments applied).
    pub fn name(&self) -> &'d str {
        self.doc.dom().str(self.doc.input(), self.attr.name)
    }

    /// The bytes of the local name: exactly those of [`AttrRef::name`], without its
    /// UTF-8 check. For comparisons against known names.
    ///
    /// ```
    /// let doc = htmltok_tree::parse(b"<p CLASS=x data-\xC3\xA9=y>");
    /// let p = doc.body().unwrap().first_child().unwrap();
    /// let names: Vec<&[u8]> = p.attrs().map(|a| a.name_bytes()).collect();
    /// assert_eq!(names, [&b"class"[..], "data-\u{e9}".as_bytes()]);
    /// assert!(p.attrs().all(|a| a.name_bytes() == a.name().as_bytes()));
    /// ```
    #[inline]
    pub fn name_bytes(&self) -> &'d [u8] {
        self.doc.dom().bytes(self.doc.input(), self.attr.name)
    }

    /// The namespace (none except for adjusted foreign attributes: `xlink:href` on an SVG
    /// element is `href` in XLink).
    pub fn ns(&self) -> AttrNs {
        self.attr.ns
    }

    /// The prefix of the attribute's qualified name, as 13.2.6.3 "adjust foreign
    /// attributes" sets it: `xlink` for XLink attributes, `xml` for `xml:lang` and
    /// `xml:space`, `xmlns` for `xmlns:xlink`, and none for `xmlns` itself (the table
    /// gives it the namespace XMLNS, the local name `xmlns` and no prefix, so its
    /// qualified name is `xmlns`, not `xmlns:xmlns`) or for an attribute in no namespace.
    ///
    /// [`AttrNs::prefix`] is the html5lib test format's prefix, which writes every XMLNS
    /// attribute with `xmlns` (`xmlns xmlns`); this is the DOM's, for qualified names
    /// (13.3 "attribute's serialized name" writes the same).
    ///
    /// ```
    /// let doc = htmltok_tree::parse(
    ///     b"<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink=x xlink:href=h xml:lang=en>",
    /// );
    /// let svg = doc.body().unwrap().first_child().unwrap();
    /// let qualified: Vec<String> = svg
    ///     .attrs()
    ///     .map(|a| match a.prefix() {
    ///         Some(p) => format!("{p}:{}", a.name()),
    ///         None => a.name().to_string(),
    ///     })
    ///     .collect();
    /// assert_eq!(qualified, ["xmlns", "xmlns:xlink", "xlink:href", "xml:lang"]);
    /// ```
    pub fn prefix(&self) -> Option<&'static str> {
        self.attr.ns.qualified_prefix(self.name_bytes())
    }

    /// The value, character references decoded, decoded now: `Cow::Borrowed` from the
    /// input when decoding changes nothing.
    pub fn value(&self) -> Cow<'d, str> {
        self.attr.value(self.doc.input())
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

/// The children of a node.
pub struct Children<'d> {
    doc: DocumentRef<'d>,
    next: NodeId,
}

impl<'d> Iterator for Children<'d> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.doc.dom().nodes[id as usize].next_sibling;
        Some(NodeRef { doc: self.doc, id })
    }
}

/// The descendants of a node in document order.
pub struct Descendants<'d> {
    doc: DocumentRef<'d>,
    root: NodeId,
    next: NodeId,
}

impl<'d> Iterator for Descendants<'d> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        let nodes = &self.doc.dom().nodes;
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

/// A document's elements in tree order, by a scan of an arena whose order is tree order
/// (see [`DocumentRef::elements_in_tree_order`]).
pub struct Elements<'d> {
    doc: DocumentRef<'d>,
    nodes: &'d [Node],
    /// The next id to look at.
    at: usize,
}

impl<'d> Elements<'d> {
    pub(crate) fn new(doc: DocumentRef<'d>, nodes: &'d [Node]) -> Elements<'d> {
        Elements { doc, nodes, at: 0 }
    }

    /// The next element whose name `wanted` accepts, with that name; the other elements
    /// (and the other nodes) are passed by in the scan's own loop. A selection that
    /// rejects most elements by their name alone (`a[href]`: most elements are no `a`)
    /// tests the name where the scan has the node at hand, instead of receiving each
    /// element as a [`NodeRef`] and looking its node up again in the arena, which costs
    /// several times as much per element.
    pub fn next_named(
        &mut self,
        mut wanted: impl FnMut(Name) -> bool,
    ) -> Option<(NodeRef<'d>, Name)> {
        while let Some(node) = self.nodes.get(self.at) {
            let id = self.at as NodeId;
            self.at += 1;
            if let NodeData::Element(e) = &node.data
                && wanted(e.name)
            {
                return Some((NodeRef { doc: self.doc, id }, e.name));
            }
        }
        None
    }
}

impl<'d> Iterator for Elements<'d> {
    type Item = NodeRef<'d>;

    #[inline]
    fn next(&mut self) -> Option<NodeRef<'d>> {
        // A plain loop over the slice: the iterator adapters (`enumerate().find_map`)
        // cost several times as much per node.
        while let Some(node) = self.nodes.get(self.at) {
            let id = self.at as NodeId;
            self.at += 1;
            if let NodeData::Element(_) = node.data {
                return Some(NodeRef { doc: self.doc, id });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::same_name;

    /// `same_name` is `==` for every length up to 20 (the byte loop, the 4-byte and the
    /// 8-byte word pairs), a byte differing at each place.
    #[test]
    fn same_name_is_slice_equality() {
        for n in 0..=20usize {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i).collect();
            assert!(same_name(&a, &a.clone()), "length {n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_name(&a, &b), "length {n}, differing at {at}");
            }
            let longer = [a.as_slice(), b"x"].concat();
            assert!(!same_name(&a, &longer) && !same_name(&longer, &a));
        }
    }
}
