//! `htmltok.parse`: a page's tree (`htmltok_tree`), its nodes lazy views over it.
//!
//! One way from bytes to UTF-8: a [`Tree`] is built from a [`Document`] (the page decoded
//! as `htmltok.Document` decodes it) and keeps it: `parse(data)` is
//! `Document(data).tree()`, and the tree's spans are offsets into `Document.html_bytes`.
//!
//! Ownership. The tree is an `htmltok_tree::OwnedDocument` over a handle on the
//! document's decoded bytes (the `bytes` object itself, [`Html`]: nothing is copied), so a
//! Python object holds it in safe Rust, and every read (names, attributes, text,
//! serialization) is the tree crate's own, on the parse itself. The parse runs with the
//! GIL released; a node is (tree, id).

use std::sync::Arc;

use htmltok_crawl::encoding;
use htmltok_tree::{
    AttrRef, FragmentContext, NodeId, NodeKind, NodeRef, Ns, OwnedDocument, Parser, QuirksMode,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::args::input_bytes;
use crate::document::Document;
use crate::html::Html;
use crate::select::Selection;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tree>()?;
    m.add_class::<Node>()?;
    m.add_class::<NodeIter>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_fragment, m)?)?;
    Ok(())
}

/// "No node" in the descendants iterator.
const NONE: u32 = u32::MAX;

/// A page's tree (WHATWG tree construction, `htmltok_tree`): `htmltok.parse(data)` or
/// `Document.tree()`. Its nodes are `Node` views; spans are byte offsets into the decoded
/// page (`tree.document.html_bytes`, UTF-8).
#[pyclass(frozen, module = "htmltok", name = "Tree")]
pub(crate) struct Tree {
    document: Py<Document>,
    pub(crate) doc: OwnedDocument<Html>,
    fragment: bool,
}

impl Tree {
    /// Parses `document`'s decoded page (the GIL released).
    pub(crate) fn build(
        py: Python<'_>,
        document: Py<Document>,
        scripting: bool,
        context: Option<&str>,
    ) -> Tree {
        let html = document.get().html_handle(py);
        let parser = Parser::new().scripting(scripting);
        let doc = py.detach(|| match context {
            Some(ctx) => parser.parse_fragment_owned(html, &FragmentContext::from_test_string(ctx)),
            // Text the type says is UTF-8 is parsed as such: no text checked again.
            None if html.as_str().is_some() => parser.parse_str_owned(Utf8(html), |t| t.0),
            None => parser.parse_owned(html),
        });
        Tree {
            document,
            doc,
            fragment: context.is_some(),
        }
    }
}

impl Tree {
    /// Decodes `bytes` and parses them in one go (the GIL released): the late `<meta>` is
    /// decided by the tree builder as it meets it (`htmltok_crawl::encoding::
    /// decode_and_parse`, 13.2.3.4), so the tree's document has the tree's encoding and
    /// rule, and no extra tokenizing pass is made for it.
    fn decode_and_parse(
        py: Python<'_>,
        bytes: Bound<'_, PyBytes>,
        http_charset: Option<&str>,
        url: Option<String>,
        scripting: bool,
    ) -> PyResult<Tree> {
        let input = bytes.as_bytes();
        let parser = Parser::new().scripting(scripting);
        let mut input_handle = Some(PyBackedBytes::from(bytes.clone()));
        // The tree's input is the one the last call made: the document shares it.
        let mut last_text = None;
        let parsed = py.detach(|| {
            encoding::decode_and_parse_into(input, http_charset, &parser, |text| {
                let html = Html::of_text(input, &mut input_handle, text);
                last_text = match &html {
                    Html::Rust(text) => Some(Arc::clone(text)),
                    Html::Python { .. } | Html::Str(_) => None,
                };
                html
            })
        });
        let html = match last_text {
            Some(text) => Html::Rust(text),
            None => Html::Python {
                bytes: PyBackedBytes::from(bytes.clone()),
                start: (parsed.document.input().as_ptr() as usize)
                    .wrapping_sub(input.as_ptr() as usize),
            },
        };
        let document = Document::of_parts(
            html,
            parsed.encoding,
            parsed.rule,
            parsed.had_replacements,
            url,
        );
        Ok(Tree {
            document: Py::new(py, document)?,
            doc: parsed.document,
            fragment: false,
        })
    }
}

/// An [`Html`] whose [`Html::as_str`] is `Some`, as a `&str` for
/// `Parser::parse_str_owned`. (Were it bytes, it would read as "" and `parse_str_owned`,
/// seeing the lengths differ, would parse the bytes as `parse_owned` does.)
struct Utf8(Html);

impl AsRef<str> for Utf8 {
    fn as_ref(&self) -> &str {
        self.0.as_str().unwrap_or_default()
    }
}

fn node(py: Python<'_>, tree: &Py<Tree>, n: Option<NodeRef<'_>>) -> Option<Node> {
    n.map(|n| Node {
        tree: tree.clone_ref(py),
        id: n.id(),
    })
}

/// `select` and `select_one` on `tree` (below node `below`, or the whole document), as
/// [`crate::select::select`] finds them: the elements as `Node` views; `first`: only the
/// first (a `Node` or None) instead of a list.
fn select_nodes<'py>(
    py: Python<'py>,
    tree: &Py<Tree>,
    below: Option<NodeId>,
    css: &Bound<'py, PyAny>,
    first: bool,
    owner: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let doc = tree.get().doc.view();
    let ids = match crate::select::select(py, doc, below, css, first, owner)? {
        Selection::Elements(ids) => ids,
        Selection::Strings(strings) => return Ok(strings),
    };
    let node = |id| Node {
        tree: tree.clone_ref(py),
        id,
    };
    if first {
        return Ok(match ids.first() {
            Some(&id) => Bound::new(py, node(id))?.into_any(),
            None => py.None().into_bound(py),
        });
    }
    Ok(PyList::new(py, ids.into_iter().map(node))?.into_any())
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
    fn root(slf: &Bound<'_, Self>) -> Option<Node> {
        node(slf.py(), &slf.clone().unbind(), Some(slf.get().doc.root()))
    }

    /// For `parse_fragment`: the `html` element whose children are the fragment's nodes;
    /// None for a document.
    #[getter]
    fn fragment_root(slf: &Bound<'_, Self>) -> Option<Node> {
        node(
            slf.py(),
            &slf.clone().unbind(),
            slf.get().doc.fragment_root(),
        )
    }

    /// The `html` element.
    #[getter]
    fn document_element(slf: &Bound<'_, Self>) -> Option<Node> {
        node(
            slf.py(),
            &slf.clone().unbind(),
            slf.get().doc.document_element(),
        )
    }

    /// The `head` element.
    #[getter]
    fn head(slf: &Bound<'_, Self>) -> Option<Node> {
        node(slf.py(), &slf.clone().unbind(), slf.get().doc.head())
    }

    /// The `body` (or `frameset`) element.
    #[getter]
    fn body(slf: &Bound<'_, Self>) -> Option<Node> {
        node(slf.py(), &slf.clone().unbind(), slf.get().doc.body())
    }

    /// `document.title`: the first `title` element's text, whitespace stripped and
    /// collapsed; None without one.
    #[getter]
    fn title(&self, py: Python<'_>) -> Option<String> {
        let doc = &self.doc;
        py.detach(|| doc.title())
    }

    /// 'no-quirks', 'limited-quirks' or 'quirks' (from the DOCTYPE).
    #[getter]
    fn quirks_mode(&self) -> &'static str {
        quirks_str(self.doc.quirks_mode())
    }

    /// The number of nodes (template contents and nodes the parser detached included).
    fn __len__(&self) -> usize {
        self.doc.node_count()
    }

    /// Node `id` (0 is the document node).
    fn node(slf: &Bound<'_, Self>, id: u32) -> PyResult<Node> {
        if id as usize >= slf.get().doc.node_count() {
            return Err(PyIndexError::new_err(format!("no node {id}")));
        }
        Ok(Node {
            tree: slf.clone().unbind(),
            id,
        })
    }

    /// The tree in the html5lib tree-construction test format (`| <html>` ...).
    fn to_test_format(&self, py: Python<'_>) -> String {
        let doc = &self.doc;
        py.detach(|| doc.to_test_format())
    }

    /// The whole document serialized (HTML § 13.3); for a fragment, the fragment.
    #[getter]
    fn html(&self, py: Python<'_>) -> String {
        let doc = &self.doc;
        py.detach(|| doc.outer_html())
    }

    // Selectors (`select/` matches; `select_nodes` makes the `Node` views).

    /// The elements matching `css` (a str or an `htmltok.Selector`) in document order, as
    /// `Node` views. The GIL is released while matching. (A selector ending in `::text` /
    /// `::attr(name)` gives the strings of `getall`, with a DeprecationWarning.)
    fn select<'py>(slf: &Bound<'py, Self>, css: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        select_nodes(slf.py(), slf.as_unbound(), None, css, false, "Tree")
    }

    /// The first of `select(css)`, or None.
    fn select_one<'py>(
        slf: &Bound<'py, Self>,
        css: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        select_nodes(slf.py(), slf.as_unbound(), None, css, true, "Tree")
    }

    /// The strings `css` gives, in document order (parsel's `getall`): with `::text` each
    /// matched element's own text nodes, with `::attr(name)` the attribute's value
    /// (elements without it skipped), without a pseudo-element each element's outer HTML.
    fn getall<'py>(slf: &Bound<'py, Self>, css: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        crate::select::get(slf.py(), slf.get().doc.view(), None, css, false, None)
    }

    /// The first of `getall(css)`, else `default` (parsel's `get`).
    #[pyo3(signature = (css, default = None))]
    fn get<'py>(
        slf: &Bound<'py, Self>,
        css: &Bound<'py, PyAny>,
        default: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::select::get(slf.py(), slf.get().doc.view(), None, css, true, default)
    }

    /// `htmltok.extract`'s columns on this tree: a dict of fields or an `htmltok.Fields`.
    fn extract<'py>(
        &self,
        py: Python<'py>,
        fields: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        crate::select::extract_tree(py, self.doc.view(), fields)
    }

    // Page content (htmltok-content, issue #27): bindings/python/src/content.rs.

    /// The page's main text: the article without menus, headers, footers, comment
    /// threads, sharing and related-links blocks, cookie banners and link lists, as plain
    /// text, paragraphs set apart by a blank line ('' when the page has no text); with
    /// `format="markdown"`, the same blocks as GitHub-flavoured Markdown (see
    /// `markdown()`; links resolved against `url`, default the document's). The GIL
    /// is released while it runs. `article()` gives the title, byline and date with it.
    #[pyo3(signature = (*, format = "text", links = true, images = true, url = None))]
    pub(crate) fn main_text(
        &self,
        py: Python<'_>,
        format: &str,
        links: bool,
        images: bool,
        url: Option<&str>,
    ) -> PyResult<String> {
        match format {
            "text" => Ok(crate::content::main_text_only(py, &self.doc)),
            "markdown" => {
                let options = crate::content::markdown_options(
                    links,
                    images,
                    false,
                    url,
                    self.document.get().url(),
                )?;
                Ok(crate::content::main_markdown(py, &self.doc, &options))
            }
            other => Err(PyValueError::new_err(format!(
                "format {other:?}: expected 'text' or 'markdown'"
            ))),
        }
    }

    /// The whole visible page as GitHub-flavoured Markdown: headings, paragraphs,
    /// lists, block quotes, fenced code blocks (a `pre`'s text exactly), tables, links
    /// `[text](url)` and images `![alt](src)` (each optional, resolved against `url`,
    /// default the document's), math as TeX where the page has it; hidden content left
    /// out as `visible_text()` leaves it out. The GIL is released while it runs.
    #[pyo3(signature = (*, links = true, images = true, noscript = false, url = None))]
    pub(crate) fn markdown(
        &self,
        py: Python<'_>,
        links: bool,
        images: bool,
        noscript: bool,
        url: Option<&str>,
    ) -> PyResult<String> {
        let options = crate::content::markdown_options(
            links,
            images,
            noscript,
            url,
            self.document.get().url(),
        )?;
        Ok(crate::content::markdown(py, &self.doc, &options))
    }

    /// The main text with the fields read beside it: a dict with `text` (as
    /// `main_text()`), `title` (`og:title`, else the `title` element), `byline` (the
    /// author's meta) and `date` (the publication date as the page writes it), each None
    /// when the page has none; `kind`, what sort of page it is ('article', 'forum',
    /// 'product', 'collection', 'listing', 'documentation', 'service' or 'other'); and
    /// `confidence`, a float in [0, 1]: how likely the text is what a person would have
    /// kept of the page (send the pages below a threshold to a slower tool).
    fn article<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::content::article(py, &self.doc)
    }

    /// The page's metadata with crawler semantics, as a dict: `title`, `base_url`,
    /// `canonical` ({'raw', 'url'} or None), `robots` and `googlebot` (dicts of the
    /// directives: noindex, nofollow, noarchive, ... as bools; max_snippet, ...),
    /// `description`, `open_graph` and `twitter` (lists of (name, value)), `lang`,
    /// `content_language`, `language`, `alternates` (dicts with `hreflang`), `refresh`
    /// ({'delay', 'raw', 'url'} or None), `json_ld` (the blocks as written) and
    /// `qualified_links` (the a/area links with rel nofollow, ugc or sponsored). `url` is
    /// the page's own URL (default: the document's), against which relative URLs are
    /// resolved; ValueError when it is not an absolute URL.
    #[pyo3(signature = (url = None))]
    pub(crate) fn metadata<'py>(
        &self,
        py: Python<'py>,
        url: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let document = self.document.get();
        crate::content::metadata(py, &self.doc, url, document.url())
    }

    /// The visible text, laid out: block elements on lines of their own, paragraphs and
    /// headings set apart by a blank line, `<br>` a line break, `<pre>` as written,
    /// tables a line per row and a tab between cells, hidden content left out (`hidden`,
    /// `aria-hidden=true`, inline `display:none`, `template`, ...; `noscript` content only
    /// with `noscript=True`).
    #[pyo3(signature = (*, noscript = false))]
    fn visible_text(&self, py: Python<'_>, noscript: bool) -> String {
        crate::content::visible(py, &self.doc, noscript)
    }

    fn __repr__(&self) -> String {
        format!(
            "<htmltok.Tree {} nodes, {} bytes{}>",
            self.doc.node_count(),
            self.doc.input().len(),
            if self.fragment { ", fragment" } else { "" }
        )
    }
}

/// A node of a `Tree`: a view (the tree and the node's id), made when asked for.
///
/// Kept on a free list of 4,096 (under 256 KiB when full): a `select` makes one per match
/// (84,243 for `a[href]` on the shared corpus) and a loop drops them as fast, and an
/// object from the list skips the allocator and the cycle collector's bookkeeping (a
/// collection every 700 new container objects, each `Node` traversed in it; pyo3's
/// classes are all GC containers). No `Node` can be part of a cycle (it holds only its
/// `Tree`, which holds no `Node`), so that reused ones are not tracked is harmless.
/// Callgrind, `parse(d).select(Selector("a[href]"))` on ten pages (10,496 `Node`s):
/// 22.0 M -> 16.6 M instructions above the parse (2026-11-26).
#[pyclass(frozen, freelist = 4096, module = "htmltok", name = "Node")]
pub(crate) struct Node {
    pub(crate) tree: Py<Tree>,
    pub(crate) id: u32,
}

impl Node {
    fn n(&self) -> NodeRef<'_> {
        self.tree.get().doc.node(self.id)
    }

    fn link(&self, py: Python<'_>, n: Option<NodeRef<'_>>) -> Option<Node> {
        node(py, &self.tree, n)
    }
}

/// An attribute's qualified name, as the Python API writes it: `href`, `xlink:href`,
/// `xmlns` (13.2.6.3's table gives `xmlns` no prefix: [`AttrRef::prefix`]).
fn qualified_name<'d>(attr: &AttrRef<'d>) -> std::borrow::Cow<'d, str> {
    match attr.prefix() {
        Some(prefix) => format!("{prefix}:{}", attr.name()).into(),
        None => attr.name().into(),
    }
}

/// Whether `attr`'s [`qualified_name`] is `name`, compared as bytes: without the UTF-8
/// check of `AttrRef::name` and the `String` of a prefixed name for every attribute
/// `Node.attr` passes over (it is called once per node in `[a.attr("href") for a in
/// tree.select("a[href]")]`).
///
/// The bytes are compared in line (`same_bytes`): the slices' `==` calls `memcmp` for each
/// name of the right length (0.19 M of the `.attr("href")` loop's 11.3 M instructions
/// on the ten-page subset).
fn is_named(attr: &AttrRef<'_>, name: &str) -> bool {
    let (local, name) = (attr.name_bytes(), name.as_bytes());
    match attr.prefix() {
        Some(prefix) => name
            .strip_prefix(prefix.as_bytes())
            .and_then(|rest| rest.strip_prefix(b":"))
            .is_some_and(|rest| same_bytes(rest, local)),
        None => same_bytes(local, name),
    }
}

/// `a == b` for names a few bytes long, byte by byte in line.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
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
        match self.n().kind() {
            NodeKind::Document => "document",
            NodeKind::Fragment => "fragment",
            NodeKind::Doctype => "doctype",
            NodeKind::Element => "element",
            NodeKind::Text => "text",
            NodeKind::Comment => "comment",
        }
    }

    /// An element's local name ('div', 'foreignObject', 'my-widget'); None for other
    /// nodes.
    #[getter]
    fn name<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.n().name().map(|name| PyString::new(py, name))
    }

    /// An element's namespace: 'html', 'svg' or 'math'; None for other nodes.
    #[getter]
    fn namespace(&self) -> Option<&'static str> {
        self.n().namespace().map(|ns| match ns {
            Ns::Html => "html",
            Ns::Svg => "svg",
            Ns::MathMl => "math",
        })
    }

    /// An element's attributes as a dict in source order, values decoded (foreign
    /// attributes as `xlink:href`); empty for other nodes.
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for attr in self.n().attrs() {
            dict.set_item(qualified_name(&attr), attr.value())?;
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
        let n = self.n();
        // An HTML attribute's qualified name is its local name: the tree's one loop over
        // the element's records (`attr_in_no_namespace`, as `a[href]` tests it) finds it.
        // Only a name with a colon (`xlink:href`: every prefixed name has one) or
        // `xmlns` (13.2.6.3: in the XMLNS namespace, with no prefix) can be a foreign
        // attribute's, so only then are the records passed again, prefixes and all. The
        // qualified names of an element's attributes are distinct (the tokenizer drops
        // repeated names; the foreign adjustments map names one to one), so the first
        // found is the one the general search finds.
        let found = match n.attr_in_no_namespace(name.as_bytes()) {
            Some(attr) => Some(attr),
            None if name == "xmlns" || name.contains(':') => n.attrs().find(|a| is_named(a, name)),
            None => None,
        };
        match found {
            Some(attr) => PyString::new(py, &attr.value()).into_any(),
            None => default.unwrap_or_else(|| py.None().into_bound(py)),
        }
    }

    /// The text of a text node, a comment's data; for an element, document or fragment
    /// the text of its descendant text nodes (`textContent`); '' for a DOCTYPE.
    fn text(&self, py: Python<'_>) -> String {
        let n = self.n();
        if n.first_child().is_none() {
            return n.text().into_owned();
        }
        py.detach(|| n.text().into_owned())
    }

    /// The children, in order.
    #[getter]
    fn children<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out: Vec<Node> = self
            .n()
            .children()
            .map(|c| Node {
                tree: self.tree.clone_ref(py),
                id: c.id(),
            })
            .collect();
        PyList::new(py, out)
    }

    /// The parent (None for the document node and a template's contents).
    #[getter]
    fn parent(&self, py: Python<'_>) -> Option<Node> {
        self.link(py, self.n().parent())
    }

    /// The next sibling.
    #[getter]
    fn next_sibling(&self, py: Python<'_>) -> Option<Node> {
        self.link(py, self.n().next_sibling())
    }

    /// A `template` element's contents (a 'fragment' node); None for other nodes.
    #[getter]
    fn template_contents(&self, py: Python<'_>) -> Option<Node> {
        self.link(py, self.n().template_contents())
    }

    /// Every node below this one in document order (not this one; template contents not
    /// entered): an iterator, iterative at any depth.
    fn descendants(&self, py: Python<'_>) -> NodeIter {
        NodeIter {
            tree: self.tree.clone_ref(py),
            root: self.id,
            next: std::sync::atomic::AtomicU32::new(
                self.n().first_child().map_or(NONE, |c| c.id()),
            ),
        }
    }

    /// (start, end): byte offsets in the decoded page (`tree.document.html_bytes`, UTF-8)
    /// of an element's start tag (empty when the parser implied the element), a text
    /// node's first character token, a comment or DOCTYPE; the whole input for the
    /// document node.
    #[getter]
    fn span(&self) -> (usize, usize) {
        let span = self.n().span();
        (span.start, span.end)
    }

    /// (start, end) of the end tag that closed an element, when one did; else None.
    #[getter]
    fn end_span(&self) -> Option<(usize, usize)> {
        self.n().end_span().map(|s| (s.start, s.end))
    }

    /// The node serialized (HTML § 13.3 `outerHTML`; for the document node, the
    /// document), by the tree's serializer.
    #[getter]
    fn html(&self, py: Python<'_>) -> String {
        let n = self.n();
        py.detach(|| {
            if n.kind() == NodeKind::Document {
                n.document().outer_html()
            } else {
                n.outer_html()
            }
        })
    }

    /// The serialization of the node's children (`innerHTML`).
    #[getter]
    fn inner_html(&self, py: Python<'_>) -> String {
        let n = self.n();
        py.detach(|| n.inner_html())
    }

    // Selectors (`select/` matches; `select_nodes` makes the `Node` views).

    /// The descendants matching `css` (a str or an `htmltok.Selector`; matched against
    /// the whole tree, `:scope` being this node, as `querySelectorAll`), as `Node` views.
    /// (A selector ending in `::text` / `::attr(name)` gives the strings of `getall`,
    /// with a DeprecationWarning.)
    fn select<'py>(&self, py: Python<'py>, css: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        select_nodes(py, &self.tree, Some(self.id), css, false, "Node")
    }

    /// The first of `select(css)`, or None.
    fn select_one<'py>(
        &self,
        py: Python<'py>,
        css: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        select_nodes(py, &self.tree, Some(self.id), css, true, "Node")
    }

    /// The strings `css` gives below this node, in document order (as `Tree.getall`).
    fn getall<'py>(&self, py: Python<'py>, css: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let doc = self.tree.get().doc.view();
        crate::select::get(py, doc, Some(self.id), css, false, None)
    }

    /// The first of `getall(css)`, else `default`.
    #[pyo3(signature = (css, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        css: &Bound<'py, PyAny>,
        default: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let doc = self.tree.get().doc.view();
        crate::select::get(py, doc, Some(self.id), css, true, default)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Node>()
            .is_ok_and(|o| o.get().id == self.id && o.get().tree.is(&self.tree))
    }

    fn __hash__(&self) -> u64 {
        (self.tree.as_ptr() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(self.id)
    }

    fn __repr__(&self) -> String {
        let n = self.n();
        match n.kind() {
            NodeKind::Element => {
                format!("<htmltok.Node element '{}'>", n.name().unwrap_or(""))
            }
            NodeKind::Text | NodeKind::Comment => {
                let text = n.text();
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

/// The iterator `Node.descendants()` returns.
#[pyclass(frozen, module = "htmltok", name = "NodeIterator")]
pub(crate) struct NodeIter {
    tree: Py<Tree>,
    root: u32,
    next: std::sync::atomic::AtomicU32,
}

impl NodeIter {
    /// The node after `id` in a walk of `root`'s descendants (template contents not
    /// entered), or NONE.
    fn after(&self, id: u32) -> u32 {
        let doc = &self.tree.get().doc;
        let n = doc.node(id);
        if let Some(c) = n.first_child() {
            return c.id();
        }
        let mut cur = Some(n);
        while let Some(c) = cur {
            if c.id() == self.root {
                break;
            }
            if let Some(s) = c.next_sibling() {
                return s.id();
            }
            cur = c.parent();
        }
        NONE
    }
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
        self.next.store(self.after(id), Ordering::Relaxed);
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
    if data.cast::<PyString>().is_ok() {
        // A str is decoded already: parsed as it is.
        let document = Py::new(py, Document::of_input(py, data, http_charset, url)?)?;
        return Ok(Tree::build(py, document, scripting, None));
    }
    Tree::decode_and_parse(py, input_bytes(data)?, http_charset, url, scripting)
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
