//! `htmltok.parse`: a page's tree (`htmltok_tree`), its nodes lazy views over an arena.
//!
//! One way from bytes to UTF-8: a [`Tree`] is built from a [`Document`] (the page decoded
//! as `htmltok.Document` decodes it) and keeps it: `parse(data)` is
//! `Document(data).tree()`, and the tree's spans are offsets into `Document.html_bytes`.
//!
//! Ownership. `htmltok_tree::Document<'a>` borrows its input, and a Python object cannot
//! hold a borrow of its own field in safe Rust (`unsafe_code` is denied; no self-referential
//! crate). So the parse runs with the GIL released over the document's `bytes`, and its
//! result is copied into an [`Arena`] without a lifetime: the same node ids and links, text
//! as spans into the input when the tree borrowed it (owned only where decoding changed
//! it), attribute values as spans decoded when read (`htmltok::decode_attribute_value`, as
//! the tree does). The arena and the `Document` that owns the bytes live in one Python
//! object; a node is (tree, id). Serialization (`.html`, `to_test_format()`) is the tree
//! crate's own, on a parse of the same input made for the call (the GIL released): node
//! ids are the same in every parse of an input.

use std::borrow::Cow;

use htmltok::Span;
use htmltok_tree::{FragmentContext, NodeData, NodeKind, NodeRef, Ns, Parser, QuirksMode};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::document::Document;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tree>()?;
    m.add_class::<Node>()?;
    m.add_class::<NodeIter>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_fragment, m)?)?;
    Ok(())
}

/// "No node" in a link.
const NONE: u32 = u32::MAX;

/// A byte range of the input (`NONE..NONE`: none).
#[derive(Clone, Copy)]
struct Sp(u32, u32);

impl Sp {
    const NONE: Sp = Sp(NONE, NONE);

    fn of(span: Span) -> Sp {
        let c = |x: usize| u32::try_from(x).unwrap_or(NONE - 1);
        Sp(c(span.start), c(span.end))
    }

    fn get(self) -> Option<(usize, usize)> {
        (self.0 != NONE).then_some((self.0 as usize, self.1 as usize))
    }
}

/// A string of the tree (text, a comment's data, a DOCTYPE's name, an element or attribute
/// name): a span of the input when it is there as it is, a known name, else an index into
/// [`Arena::strings`]. Nothing is hashed or allocated for the common cases.
#[derive(Clone, Copy)]
enum Str {
    Input(Sp),
    Static(&'static str),
    Owned(u32),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Document,
    Fragment,
    Doctype,
    Element,
    Text,
    Comment,
}

/// One node: the tree's links (same ids), its kind and its data.
struct ANode {
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    kind: Kind,
    ns: Ns,
    /// Element: its local name.
    name: Str,
    /// Element: `attrs_start..attrs_start + attrs_len` in [`Arena::attrs`]; template:
    /// `template` is its contents.
    attrs_start: u32,
    attrs_len: u32,
    template: u32,
    /// Text and comment: the text; DOCTYPE: its name.
    text: Str,
    span: Sp,
    end_span: Sp,
}

struct AAttr {
    /// The qualified name (`href`, `xlink:href`).
    name: Str,
    value: Sp,
}

/// The parsed tree without a lifetime (see the module documentation).
struct Arena {
    nodes: Vec<ANode>,
    attrs: Vec<AAttr>,
    strings: Vec<Box<str>>,
    quirks: QuirksMode,
    fragment_root: u32,
    document_element: u32,
    head: u32,
    body: u32,
    title: Option<String>,
}

fn id_of(node: Option<NodeRef<'_, '_>>) -> u32 {
    node.map_or(NONE, |n| n.id())
}

impl Arena {
    /// Copies a parsed document's nodes (ids kept).
    fn of(doc: &htmltok_tree::Document<'_>) -> Arena {
        let input = doc.input();
        let base = input.as_ptr() as usize;
        let mut strings: Vec<Box<str>> = Vec::new();
        let text_of = |text: &Cow<'_, str>, strings: &mut Vec<Box<str>>| -> Str {
            let at = (text.as_ptr() as usize).wrapping_sub(base);
            if matches!(text, Cow::Borrowed(_))
                && at <= input.len()
                && text.len() <= input.len() - at
            {
                return Str::Input(Sp::of(Span::new(at, at + text.len())));
            }
            strings.push(text.as_ref().into());
            Str::Owned((strings.len() - 1) as u32)
        };
        let mut attrs = Vec::new();
        let mut nodes = Vec::with_capacity(doc.node_count());
        for id in 0..doc.node_count() as u32 {
            let n = doc.node(id);
            let mut a = ANode {
                parent: id_of(n.parent()),
                first_child: id_of(n.first_child()),
                next_sibling: id_of(n.next_sibling()),
                kind: Kind::Document,
                ns: Ns::Html,
                name: Str::Static(""),
                attrs_start: 0,
                attrs_len: 0,
                template: NONE,
                text: Str::Input(Sp::NONE),
                span: Sp::of(n.span()),
                end_span: n.end_span().map_or(Sp::NONE, Sp::of),
            };
            match n.data() {
                NodeData::Document => {}
                NodeData::Fragment => a.kind = Kind::Fragment,
                NodeData::Doctype(d) => {
                    a.kind = Kind::Doctype;
                    a.text = text_of(&d.name, &mut strings);
                }
                NodeData::Text(t) => {
                    a.kind = Kind::Text;
                    a.text = text_of(t.text(), &mut strings);
                }
                NodeData::Comment(c) => {
                    a.kind = Kind::Comment;
                    a.text = text_of(c.data(), &mut strings);
                }
                NodeData::Element(_) => {
                    a.kind = Kind::Element;
                    a.ns = n.namespace().unwrap_or(Ns::Html);
                    a.name = match n.element_name().and_then(|e| e.known_local_name()) {
                        Some(known) => Str::Static(known),
                        None => {
                            strings.push(n.name().unwrap_or("").into());
                            Str::Owned((strings.len() - 1) as u32)
                        }
                    };
                    a.template = id_of(n.template_contents());
                    a.attrs_start = attrs.len() as u32;
                    for attr in n.attrs() {
                        let span = attr.name_span();
                        let name = match attr.ns().prefix() {
                            None if input.get(span.start..span.end)
                                == Some(attr.name().as_bytes()) =>
                            {
                                Str::Input(Sp::of(span))
                            }
                            prefix => {
                                strings.push(match prefix {
                                    Some(prefix) => format!("{prefix}:{}", attr.name()).into(),
                                    None => attr.name().into(),
                                });
                                Str::Owned((strings.len() - 1) as u32)
                            }
                        };
                        attrs.push(AAttr {
                            name,
                            value: attr.value_span().map_or(Sp::NONE, Sp::of),
                        });
                    }
                    a.attrs_len = attrs.len() as u32 - a.attrs_start;
                }
            }
            nodes.push(a);
        }
        Arena {
            nodes,
            attrs,
            strings,
            quirks: doc.quirks_mode(),
            fragment_root: id_of(doc.fragment_root()),
            document_element: id_of(doc.document_element()),
            head: id_of(doc.head()),
            body: id_of(doc.body()),
            title: doc.title(),
        }
    }

    fn str<'i>(&'i self, input: &'i [u8], s: Str) -> &'i str {
        match s {
            Str::Input(sp) => match sp.get() {
                // Spans of borrowed text are on character boundaries of valid UTF-8.
                Some((start, end)) => std::str::from_utf8(&input[start..end]).unwrap_or(""),
                None => "",
            },
            Str::Static(s) => s,
            Str::Owned(i) => &self.strings[i as usize],
        }
    }

    /// The node after `id` in a walk of `root`'s descendants (template contents not
    /// entered), or NONE.
    fn next_in(&self, root: u32, id: u32) -> u32 {
        let n = &self.nodes[id as usize];
        if n.first_child != NONE {
            return n.first_child;
        }
        let mut cur = id;
        while cur != root && cur != NONE {
            let c = &self.nodes[cur as usize];
            if c.next_sibling != NONE {
                return c.next_sibling;
            }
            cur = c.parent;
        }
        NONE
    }

    /// The text of a node, as `NodeRef::text` has it.
    fn text(&self, input: &[u8], id: u32) -> String {
        let n = &self.nodes[id as usize];
        match n.kind {
            Kind::Text | Kind::Comment => self.str(input, n.text).to_owned(),
            Kind::Doctype => String::new(),
            _ => {
                let mut out = String::new();
                let mut cur = n.first_child;
                while cur != NONE {
                    let c = &self.nodes[cur as usize];
                    if c.kind == Kind::Text {
                        out.push_str(self.str(input, c.text));
                    }
                    cur = self.next_in(id, cur);
                }
                out
            }
        }
    }
}

/// How the tree was parsed, to parse it again for serialization.
#[derive(Clone)]
struct How {
    scripting: bool,
    context: Option<FragmentContext>,
}

impl How {
    fn parse<'a>(&self, input: &'a [u8]) -> htmltok_tree::Document<'a> {
        let parser = Parser::new().scripting(self.scripting);
        match &self.context {
            Some(ctx) => parser.parse_fragment(input, ctx),
            None => parser.parse(input),
        }
    }
}

/// A page's tree (WHATWG tree construction, `htmltok_tree`): `htmltok.parse(data)` or
/// `Document.tree()`. Its nodes are `Node` views; spans are byte offsets into the decoded
/// page (`tree.document.html_bytes`, UTF-8).
#[pyclass(frozen, module = "htmltok", name = "Tree")]
pub(crate) struct Tree {
    document: Py<Document>,
    arena: Arena,
    how: How,
}

impl Tree {
    /// Parses `document`'s decoded page (the GIL released).
    pub(crate) fn build(
        py: Python<'_>,
        document: Py<Document>,
        scripting: bool,
        context: Option<&str>,
    ) -> Tree {
        let how = How {
            scripting,
            context: context.map(FragmentContext::from_test_string),
        };
        let arena = {
            let input = document.get().html(py);
            py.detach(|| Arena::of(&how.parse(input)))
        };
        Tree {
            document,
            arena,
            how,
        }
    }

    fn input<'a>(&'a self, py: Python<'a>) -> &'a [u8] {
        self.document.get().html(py)
    }

    /// Runs `f` on a parse of the same input (the GIL released).
    fn reparsed<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&htmltok_tree::Document<'_>) -> T + Send,
    ) -> T {
        let input = self.input(py);
        let how = &self.how;
        py.detach(|| f(&how.parse(input)))
    }
}

fn node(py: Python<'_>, tree: &Py<Tree>, id: u32) -> PyResult<Option<Node>> {
    Ok((id != NONE).then(|| Node {
        tree: tree.clone_ref(py),
        id,
    }))
}

fn quirks_str(q: QuirksMode) -> &'static str {
    match q {
        QuirksMode::NoQuirks => "no-quirks",
        QuirksMode::LimitedQuirks => "limited-quirks",
        QuirksMode::Quirks => "quirks",
    }
}

#[pymethods]
impl Tree {
    /// The decoded page (`htmltok.Document`: encoding, links, text, ...).
    #[getter]
    fn document(&self, py: Python<'_>) -> Py<Document> {
        self.document.clone_ref(py)
    }

    /// The document node.
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> PyResult<Option<Node>> {
        node(slf.py(), &slf.clone().unbind(), 0)
    }

    /// For `parse_fragment`: the `html` element whose children are the fragment's nodes;
    /// None for a document.
    #[getter]
    fn fragment_root(slf: &Bound<'_, Self>) -> PyResult<Option<Node>> {
        node(
            slf.py(),
            &slf.clone().unbind(),
            slf.get().arena.fragment_root,
        )
    }

    /// The `html` element.
    #[getter]
    fn document_element(slf: &Bound<'_, Self>) -> PyResult<Option<Node>> {
        node(
            slf.py(),
            &slf.clone().unbind(),
            slf.get().arena.document_element,
        )
    }

    /// The `head` element.
    #[getter]
    fn head(slf: &Bound<'_, Self>) -> PyResult<Option<Node>> {
        node(slf.py(), &slf.clone().unbind(), slf.get().arena.head)
    }

    /// The `body` (or `frameset`) element.
    #[getter]
    fn body(slf: &Bound<'_, Self>) -> PyResult<Option<Node>> {
        node(slf.py(), &slf.clone().unbind(), slf.get().arena.body)
    }

    /// `document.title`: the first `title` element's text, whitespace stripped and
    /// collapsed; None without one.
    #[getter]
    fn title(&self) -> Option<String> {
        self.arena.title.clone()
    }

    /// 'no-quirks', 'limited-quirks' or 'quirks' (from the DOCTYPE).
    #[getter]
    fn quirks_mode(&self) -> &'static str {
        quirks_str(self.arena.quirks)
    }

    /// The number of nodes (template contents and nodes the parser detached included).
    fn __len__(&self) -> usize {
        self.arena.nodes.len()
    }

    /// Node `id` (0 is the document node).
    fn node(slf: &Bound<'_, Self>, id: u32) -> PyResult<Node> {
        if id as usize >= slf.get().arena.nodes.len() {
            return Err(PyIndexError::new_err(format!("no node {id}")));
        }
        Ok(Node {
            tree: slf.clone().unbind(),
            id,
        })
    }

    /// The tree in the html5lib tree-construction test format (`| <html>` ...).
    fn to_test_format(&self, py: Python<'_>) -> String {
        self.reparsed(py, |doc| doc.to_test_format())
    }

    /// The whole document serialized (HTML § 13.3); for a fragment, the fragment.
    #[getter]
    fn html(&self, py: Python<'_>) -> String {
        self.reparsed(py, |doc| doc.outer_html())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<htmltok.Tree {} nodes, {} bytes{}>",
            self.arena.nodes.len(),
            self.input(py).len(),
            if self.how.context.is_some() {
                ", fragment"
            } else {
                ""
            }
        )
    }
}

/// A node of a `Tree`: a view (the tree and the node's id), made when asked for.
#[pyclass(frozen, module = "htmltok", name = "Node")]
pub(crate) struct Node {
    tree: Py<Tree>,
    id: u32,
}

impl Node {
    fn a(&self) -> &ANode {
        &self.tree.get().arena.nodes[self.id as usize]
    }

    fn link(&self, py: Python<'_>, id: u32) -> PyResult<Option<Node>> {
        node(py, &self.tree, id)
    }
}

#[pymethods]
impl Node {
    /// The node's id in its tree (`tree.node(id)`).
    #[getter]
    fn id(&self) -> u32 {
        self.id
    }

    /// The tree.
    #[getter]
    fn tree(&self, py: Python<'_>) -> Py<Tree> {
        self.tree.clone_ref(py)
    }

    /// 'element', 'text', 'comment', 'doctype', 'document' or 'fragment' (a template's
    /// contents).
    #[getter]
    fn r#type(&self) -> &'static str {
        match self.a().kind {
            Kind::Document => "document",
            Kind::Fragment => "fragment",
            Kind::Doctype => "doctype",
            Kind::Element => "element",
            Kind::Text => "text",
            Kind::Comment => "comment",
        }
    }

    /// An element's local name ('div', 'foreignObject', 'my-widget'); None for other
    /// nodes.
    #[getter]
    fn name<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        let a = self.a();
        let tree = self.tree.get();
        (a.kind == Kind::Element).then(|| PyString::new(py, tree.arena.str(tree.input(py), a.name)))
    }

    /// An element's namespace: 'html', 'svg' or 'math'; None for other nodes.
    #[getter]
    fn namespace(&self) -> Option<&'static str> {
        let a = self.a();
        (a.kind == Kind::Element).then_some(match a.ns {
            Ns::Html => "html",
            Ns::Svg => "svg",
            Ns::MathMl => "math",
        })
    }

    /// An element's attributes as a dict in source order, values decoded (foreign
    /// attributes as `xlink:href`); empty for other nodes.
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tree = self.tree.get();
        let a = self.a();
        let dict = PyDict::new(py);
        let input = tree.input(py);
        for attr in
            &tree.arena.attrs[a.attrs_start as usize..(a.attrs_start + a.attrs_len) as usize]
        {
            dict.set_item(tree.arena.str(input, attr.name), value(input, attr))?;
        }
        Ok(dict)
    }

    /// The value of attribute `name`, decoded; `default` when the element has none.
    #[pyo3(signature = (name, default = None))]
    fn attr<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> Bound<'py, PyAny> {
        let tree = self.tree.get();
        let a = self.a();
        let attrs =
            &tree.arena.attrs[a.attrs_start as usize..(a.attrs_start + a.attrs_len) as usize];
        let input = tree.input(py);
        match attrs
            .iter()
            .find(|attr| tree.arena.str(input, attr.name) == name)
        {
            Some(attr) => PyString::new(py, &value(input, attr)).into_any(),
            None => default.unwrap_or_else(|| py.None().into_bound(py)),
        }
    }

    /// The text of a text node, a comment's data; for an element, document or fragment
    /// the text of its descendant text nodes (`textContent`); '' for a DOCTYPE.
    fn text(&self, py: Python<'_>) -> String {
        let tree = self.tree.get();
        let input = tree.input(py);
        let arena = &tree.arena;
        let id = self.id;
        if arena.nodes[id as usize].first_child == NONE {
            return arena.text(input, id);
        }
        py.detach(|| arena.text(input, id))
    }

    /// The children, in order.
    #[getter]
    fn children<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let nodes = &self.tree.get().arena.nodes;
        let mut out = Vec::new();
        let mut cur = self.a().first_child;
        while cur != NONE {
            out.push(Node {
                tree: self.tree.clone_ref(py),
                id: cur,
            });
            cur = nodes[cur as usize].next_sibling;
        }
        PyList::new(py, out)
    }

    /// The parent (None for the document node and a template's contents).
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.link(py, self.a().parent)
    }

    /// The next sibling.
    #[getter]
    fn next_sibling(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.link(py, self.a().next_sibling)
    }

    /// A `template` element's contents (a 'fragment' node); None for other nodes.
    #[getter]
    fn template_contents(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.link(py, self.a().template)
    }

    /// Every node below this one in document order (not this one; template contents not
    /// entered): an iterator, iterative at any depth.
    fn descendants(&self, py: Python<'_>) -> NodeIter {
        NodeIter {
            tree: self.tree.clone_ref(py),
            root: self.id,
            next: std::sync::atomic::AtomicU32::new(self.a().first_child),
        }
    }

    /// (start, end): byte offsets in the decoded page (`tree.document.html_bytes`, UTF-8)
    /// of an element's start tag (empty when the parser implied the element), a text
    /// node's first character token, a comment or DOCTYPE; the whole input for the
    /// document node.
    #[getter]
    fn span(&self) -> (usize, usize) {
        self.a().span.get().unwrap_or((0, 0))
    }

    /// (start, end) of the end tag that closed an element, when one did; else None.
    #[getter]
    fn end_span(&self) -> Option<(usize, usize)> {
        self.a().end_span.get()
    }

    /// The node serialized (HTML § 13.3 `outerHTML`; for the document node, the
    /// document), by the tree's serializer.
    #[getter]
    fn html(&self, py: Python<'_>) -> String {
        let id = self.id;
        self.tree.get().reparsed(py, |doc| {
            if doc.node(id).kind() == NodeKind::Document {
                doc.outer_html()
            } else {
                doc.node(id).outer_html()
            }
        })
    }

    /// The serialization of the node's children (`innerHTML`).
    #[getter]
    fn inner_html(&self, py: Python<'_>) -> String {
        let id = self.id;
        self.tree
            .get()
            .reparsed(py, |doc| doc.node(id).inner_html())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Node>()
            .is_ok_and(|o| o.get().id == self.id && o.get().tree.is(&self.tree))
    }

    fn __hash__(&self) -> u64 {
        (self.tree.as_ptr() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(self.id)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.a().kind {
            Kind::Element => {
                let tree = self.tree.get();
                format!(
                    "<htmltok.Node element '{}'>",
                    tree.arena.str(tree.input(py), self.a().name)
                )
            }
            Kind::Text | Kind::Comment => {
                let text = self.text(py);
                let short: String = text.chars().take(30).collect();
                format!(
                    "<htmltok.Node {} {:?}{}>",
                    self.r#type(),
                    short,
                    if short.len() < text.len() { "..." } else { "" }
                )
            }
            _ => format!("<htmltok.Node {}>", self.r#type()),
        }
    }
}

fn value<'i>(input: &'i [u8], attr: &AAttr) -> Cow<'i, str> {
    match attr.value.get() {
        Some((start, end)) => htmltok::decode_attribute_value(input, Span::new(start, end)),
        None => Cow::Borrowed(""),
    }
}

/// The iterator `Node.descendants()` returns.
#[pyclass(frozen, module = "htmltok", name = "NodeIterator")]
pub(crate) struct NodeIter {
    tree: Py<Tree>,
    root: u32,
    next: std::sync::atomic::AtomicU32,
}

#[pymethods]
impl NodeIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> Option<Node> {
        use std::sync::atomic::Ordering;
        let id = self.next.load(Ordering::Relaxed);
        if id == NONE {
            return None;
        }
        let next = self.tree.get().arena.next_in(self.root, id);
        self.next.store(next, Ordering::Relaxed);
        Some(Node {
            tree: self.tree.clone_ref(py),
            id,
        })
    }
}

/// `parse(data, *, scripting=False, http_charset=None, url=None)`: see the stubs.
#[pyfunction]
#[pyo3(signature = (data, *, scripting = false, http_charset = None, url = None))]
fn parse(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    scripting: bool,
    http_charset: Option<&str>,
    url: Option<String>,
) -> PyResult<Tree> {
    let document = Py::new(py, Document::of_input(py, data, http_charset, url)?)?;
    Ok(Tree::build(py, document, scripting, None))
}

/// `parse_fragment(data, context, *, scripting=False, http_charset=None, url=None)`.
#[pyfunction]
#[pyo3(signature = (data, context, *, scripting = false, http_charset = None, url = None))]
fn parse_fragment(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    context: &str,
    scripting: bool,
    http_charset: Option<&str>,
    url: Option<String>,
) -> PyResult<Tree> {
    if context.trim().is_empty() {
        return Err(PyValueError::new_err(
            "context: an element name as the html5lib tests write it ('td', 'svg path')",
        ));
    }
    let document = Py::new(py, Document::of_input(py, data, http_charset, url)?)?;
    Ok(Tree::build(py, document, scripting, Some(context)))
}
