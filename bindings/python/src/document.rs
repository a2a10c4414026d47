//! `Document`: a page decoded as a browser decodes it, and what `htmltok_crawl::extract`
//! takes out of it.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use htmltok::Tokenizer;
use htmltok_crawl::batch::DecodedAs;
use htmltok_crawl::encoding::{self, Encoding, Rule};
use htmltok_crawl::extract::{self, ElementSet, Link, Stats, Text};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use url::Url;

use crate::input_bytes;
use crate::tokens::{Tokens, builder, tokens_of};
use crate::tree::Tree;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Document>()?;
    Ok(())
}

/// The decoded document's UTF-8 bytes: the input object itself (from `start`, after a
/// byte order mark) when decoding changed nothing, else the decoded text. Held as a
/// [`PyBackedBytes`] (whose bytes can be read without the GIL), a [`PyBackedStr`] (a
/// `str` given by the caller: its UTF-8 as CPython keeps it, the `str`'s own characters
/// when it is ASCII, encoded once and cached in the `str` otherwise) or an `Arc<String>`
/// (made without the GIL: what `parse` decodes while it parses, see [`Html::of_text`]),
/// so that a tree can own a handle on them (`htmltok_tree::OwnedDocument<Html>`) and no
/// copy is made.
pub(crate) enum Html {
    Python { bytes: PyBackedBytes, start: usize },
    Str(PyBackedStr),
    Rust(Arc<String>),
}

impl Html {
    /// Another handle on the same bytes.
    pub(crate) fn clone_ref(&self, py: Python<'_>) -> Html {
        match self {
            Html::Python { bytes, start } => Html::Python {
                bytes: bytes.clone_ref(py),
                start: *start,
            },
            Html::Str(text) => Html::Str(text.clone_ref(py)),
            Html::Rust(text) => Html::Rust(Arc::clone(text)),
        }
    }

    /// The text when the type says it is UTF-8 (a `str`'s, or decoded by Rust); `None`
    /// for bytes, which are UTF-8 too (decoded, or checked by decoding) but would have to
    /// be checked again to be a `&str`.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Html::Python { .. } => None,
            Html::Str(text) => Some(text),
            Html::Rust(text) => Some(text),
        }
    }

    /// The handle on `text`, the decoding of `input` (without the GIL): `input` itself
    /// from the start of `text` when `text` is borrowed from it and `input_handle` (a
    /// handle on `input`) has not been taken yet, else `text` as it is (an owned text
    /// moves, a borrowed one is copied).
    pub(crate) fn of_text(
        input: &[u8],
        input_handle: &mut Option<PyBackedBytes>,
        text: Cow<'_, str>,
    ) -> Html {
        if let Cow::Borrowed(t) = &text {
            // Borrowed text is the input minus a byte order mark: a pointer into the input
            // and the rest of it (compared by address, not byte by byte).
            let start = (t.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
            if start <= input.len()
                && input.len() - start == t.len()
                && let Some(bytes) = input_handle.take()
            {
                return Html::Python { bytes, start };
            }
        }
        Html::Rust(Arc::new(text.into_owned()))
    }
}

impl AsRef<[u8]> for Html {
    fn as_ref(&self) -> &[u8] {
        match self {
            Html::Python { bytes, start } => bytes.get(*start..).unwrap_or_default(),
            Html::Str(text) => text.as_bytes(),
            Html::Rust(text) => text.as_bytes(),
        }
    }
}

/// An HTML page decoded to Unicode as a browser decodes it (`htmltok_crawl::encoding`:
/// byte order mark, then `http_charset` — the charset of the HTTP `Content-Type` — then
/// the `<meta>` prescan of the first 1024 bytes, then a statistical detector, else
/// windows-1252), and the extraction of `htmltok links`, `htmltok text` and `htmltok
/// stats` over it (`htmltok_crawl::extract`).
///
/// `data` is `bytes` (not copied when it is UTF-8 or ASCII already), `bytearray` or
/// `memoryview` (copied once). `url` is the page's URL: the base for its relative links
/// (a `<base href>` in the page is resolved against it). The GIL is released while the
/// page is decoded and while it is tokenized by `links()`, `text()`, `stats()`,
/// `tokenize()` and `title`.
///
/// >>> doc = htmltok.Document(b"<title>Tides</title><p>High <a href=six.html>water</a>", url="https://example.org/")
/// >>> doc.encoding, doc.title, doc.text()
/// ('windows-1252', 'Tides', 'High water')
/// >>> doc.links()[0]["url"]
/// 'https://example.org/six.html'
#[pyclass(frozen, module = "htmltok", name = "Document")]
pub(crate) struct Document {
    html: Html,
    encoding: &'static Encoding,
    rule: Rule,
    had_replacements: bool,
    url: Option<String>,
    text: OnceLock<Text>,
}

impl Document {
    /// Decodes `bytes` (the GIL released).
    pub(crate) fn decode(
        py: Python<'_>,
        bytes: Bound<'_, PyBytes>,
        http_charset: Option<&str>,
        url: Option<String>,
    ) -> Document {
        let input = bytes.as_bytes();
        let (owned, start, encoding, rule, had_replacements) = py.detach(|| {
            let decoded = encoding::decode(input, http_charset);
            let text = decoded.text;
            // Borrowed text is the input minus its byte order mark.
            let (owned, start) = match text {
                std::borrow::Cow::Borrowed(t)
                    if input.ends_with(t.as_bytes()) && input.len() - t.len() <= 3 =>
                {
                    (None, input.len() - t.len())
                }
                text => (Some(text.into_owned()), 0),
            };
            (
                owned,
                start,
                decoded.encoding,
                decoded.rule,
                decoded.had_replacements,
            )
        });
        let html = match owned {
            None => Html::Python {
                bytes: PyBackedBytes::from(bytes),
                start,
            },
            Some(text) => Html::Python {
                bytes: PyBackedBytes::from(PyBytes::new(py, text.as_bytes())),
                start: 0,
            },
        };
        Document::of_parts(html, encoding, rule, had_replacements, url)
    }

    /// A `Document` of a page decoded already (`html`), its encoding decided by `rule`.
    pub(crate) fn of_parts(
        html: Html,
        encoding: &'static Encoding,
        rule: Rule,
        had_replacements: bool,
        url: Option<String>,
    ) -> Document {
        Document {
            html,
            encoding,
            rule,
            had_replacements,
            url,
            text: OnceLock::new(),
        }
    }

    /// A `Document` of `data`: `bytes`, `bytearray` or `memoryview` decoded by
    /// [`Document::decode`]; a `str` taken as it is (already Unicode: its UTF-8, encoding
    /// 'UTF-8' by the rule 'transport', as if the caller's transport had declared it).
    pub(crate) fn of_input(
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        http_charset: Option<&str>,
        url: Option<String>,
    ) -> PyResult<Document> {
        if let Ok(text) = data.cast::<PyString>() {
            if http_charset.is_some() {
                return Err(PyValueError::new_err(
                    "http_charset is for bytes: a str is decoded already",
                ));
            }
            // The str's UTF-8 as CPython keeps it: no copy (an ASCII `str` is its UTF-8;
            // another is encoded once, and the `str` keeps that for its later uses).
            // A lone surrogate, which UTF-8 cannot hold, is a UnicodeEncodeError.
            return Ok(Document {
                html: Html::Str(PyBackedStr::try_from(text.clone())?),
                encoding: Encoding::for_label(b"utf-8").expect("UTF-8 is an encoding"),
                rule: Rule::Transport,
                had_replacements: false,
                url,
                text: OnceLock::new(),
            });
        }
        Ok(Document::decode(py, input_bytes(data)?, http_charset, url))
    }

    /// The decoded document, UTF-8.
    pub(crate) fn html<'a>(&'a self, _py: Python<'a>) -> &'a [u8] {
        self.html.as_ref()
    }

    /// A handle on the decoded document's bytes (no copy).
    pub(crate) fn html_handle(&self, py: Python<'_>) -> Html {
        self.html.clone_ref(py)
    }

    /// The title and text, extracted once (the GIL released).
    fn extracted(&self, py: Python<'_>) -> &Text {
        if let Some(text) = self.text.get() {
            return text;
        }
        let html = self.html(py);
        py.detach(|| self.text.get_or_init(|| extract::text(html)))
    }
}

/// An element or attribute name of [`extract::LINK_ATTRIBUTES`] as an interned `str`
/// (made once per interpreter), any other name as a new `str`.
fn name_str<'py>(py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
    macro_rules! interned {
        ($($n:literal),*) => {
            match name {
                $($n => intern!(py, $n).clone(),)*
                _ => PyString::new(py, name),
            }
        };
    }
    interned!(
        "a",
        "area",
        "link",
        "img",
        "source",
        "script",
        "iframe",
        "frame",
        "embed",
        "track",
        "audio",
        "video",
        "input",
        "button",
        "form",
        "object",
        "blockquote",
        "q",
        "del",
        "ins",
        "href",
        "imagesrcset",
        "src",
        "srcset",
        "poster",
        "formaction",
        "action",
        "data",
        "cite"
    )
}

/// A link as the dict `htmltok links --json` prints (without the document). The keys and
/// the element and attribute names are interned strings; `url` and `raw` are one `str`
/// when they are equal.
pub(crate) fn link_dict<'py>(py: Python<'py>, link: &Link) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "element"), name_str(py, link.element))?;
    dict.set_item(intern!(py, "attribute"), name_str(py, link.attribute))?;
    let url = PyString::new(py, &link.url);
    let raw = if link.raw == link.url {
        url.clone()
    } else {
        PyString::new(py, &link.raw)
    };
    dict.set_item(intern!(py, "url"), url)?;
    dict.set_item(intern!(py, "raw"), raw)?;
    Ok(dict)
}

/// Which links to hand to Python, and how.
#[derive(Clone, Default)]
pub(crate) struct LinkForm {
    /// Keep data: URLs.
    pub(crate) data_urls: bool,
    /// Plain URL strings rather than dicts.
    pub(crate) urls: bool,
    /// Only the links on these elements.
    pub(crate) elements: Option<Vec<String>>,
}

impl LinkForm {
    pub(crate) fn keeps(&self, link: &Link) -> bool {
        (self.data_urls || !link.is_data_url())
            && self
                .elements
                .as_ref()
                .is_none_or(|names| names.iter().any(|n| n == link.element))
    }
}

/// The links as a list of dicts (or of URL strings with `form.urls`), filtered by `form`.
pub(crate) fn links_list<'py>(
    py: Python<'py>,
    links: &[Link],
    form: &LinkForm,
) -> PyResult<Bound<'py, PyList>> {
    let kept = links.iter().filter(|l| form.keeps(l));
    if form.urls {
        let urls: Vec<Bound<'py, PyString>> = kept.map(|l| PyString::new(py, &l.url)).collect();
        return PyList::new(py, urls);
    }
    let dicts = kept
        .map(|l| link_dict(py, l))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, dicts)
}

/// A `base=` argument: an absolute URL.
pub(crate) fn parse_base(base: Option<&str>) -> PyResult<Option<Url>> {
    base.map(|b| {
        Url::parse(b)
            .map_err(|err| PyValueError::new_err(format!("base {b:?}: not an absolute URL: {err}")))
    })
    .transpose()
}

/// A string-keyed count map as a dict, largest count first (then by key), as `htmltok
/// stats` lists them.
fn counts<'py, K: Ord + Clone + ToString>(
    py: Python<'py>,
    map: &std::collections::HashMap<K, u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, n) in Stats::by_count(map) {
        dict.set_item(key.to_string(), n)?;
    }
    Ok(dict)
}

#[pymethods]
impl Document {
    #[new]
    #[pyo3(signature = (data, http_charset = None, url = None))]
    fn new(
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        http_charset: Option<&str>,
        url: Option<String>,
    ) -> PyResult<Document> {
        let bytes = input_bytes(data)?;
        Ok(Document::decode(py, bytes, http_charset, url))
    }

    /// The name of the encoding the page was decoded from ('UTF-8', 'windows-1252',
    /// 'Shift_JIS', ...: the Encoding Standard's names).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding.name()
    }

    /// Which rule decided the encoding: 'bom', 'transport' (the HTTP charset), 'meta'
    /// (the `<meta>` prescan), 'late-meta', 'detector' or 'default'.
    #[getter]
    fn encoding_rule(&self) -> &'static str {
        self.rule.as_str()
    }

    /// Whether some bytes were malformed in the encoding (decoded to U+FFFD).
    #[getter]
    fn had_replacements(&self) -> bool {
        self.had_replacements
    }

    /// The page's URL, as given.
    #[getter]
    pub(crate) fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The text of the first `<title>`, whitespace collapsed; None without a `<title>`.
    #[getter]
    fn title(&self, py: Python<'_>) -> Option<String> {
        self.extracted(py).title.clone()
    }

    /// The decoded page as a `str` (the `str` given, when one was).
    #[getter]
    fn html_text<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        match &self.html {
            Html::Str(text) => text.as_py_str().bind(py).clone(),
            _ => PyString::new(py, &String::from_utf8_lossy(self.html(py))),
        }
    }

    /// The decoded page as UTF-8 `bytes` (the input object itself when decoding changed
    /// nothing).
    #[getter]
    fn html_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        match &self.html {
            Html::Python { bytes, start: 0 } => {
                let Ok(bytes) = bytes.into_pyobject(py);
                bytes
            }
            _ => PyBytes::new(py, self.html(py)),
        }
    }

    /// Every link of the page in document order, as `htmltok links --json` lists them: a
    /// list of dicts with `element` ('a'), `attribute` ('href'), `url` (resolved) and `raw`
    /// (as written). The URL-valued attributes: a/area/link[href], img/source[src,
    /// srcset], script/iframe/... [src], form[action], object[data], ...; each URL of a
    /// srcset is one link. URLs are resolved against the first `<base href>`, itself
    /// resolved against the document's `url`, or `base` when the document has none;
    /// queries are percent-encoded from the page's encoding. data: URLs are left out
    /// unless `data_urls`.
    ///
    /// `elements` (an iterable of element names, e.g. `("a",)`) keeps only the links of
    /// those elements; `urls=True` gives the resolved URLs as a list of `str` instead of
    /// dicts (cheaper: no dict per link).
    #[pyo3(signature = (base = None, data_urls = false, *, elements = None, urls = false))]
    fn links<'py>(
        &self,
        py: Python<'py>,
        base: Option<&str>,
        data_urls: bool,
        elements: Option<Vec<String>>,
        urls: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let base = parse_base(base)?;
        let own = self.url.as_deref().and_then(|u| Url::parse(u.trim()).ok());
        let html = self.html(py);
        let encoding = self.encoding;
        // The element filter goes down to the collector, so other elements' values are
        // never decoded or resolved.
        let set = elements.as_ref().map_or(ElementSet::ALL, |names| {
            ElementSet::of(names.iter().map(String::as_str))
        });
        let links = py.detach(|| {
            extract::links_of_elements(
                &mut Tokenizer::new(html),
                own.as_ref().or(base.as_ref()),
                Some(encoding),
                set,
            )
        });
        let form = LinkForm {
            data_urls,
            urls,
            elements,
        };
        links_list(py, &links, &form)
    }

    /// The visible text, as `htmltok text` gives it: character references decoded,
    /// nothing from `<script>`, `<style>`, `<template>`, `<noscript>`, `<title>`, ...,
    /// whitespace collapsed, block elements on lines of their own.
    fn text(&self, py: Python<'_>) -> String {
        self.extracted(py).text.clone()
    }

    /// The page's counts as `htmltok stats --json` counts them: a dict with `tokens` (a
    /// dict: total, text, start_tag, end_tag, comment, doctype, cdata), `tags` (start tag
    /// name -> count, most frequent first), `encodings` (`by_rule`, `by_encoding`,
    /// `with_replacements`) and `errors` (parse error code -> count with `errors=True`,
    /// else None).
    #[pyo3(signature = (errors = false))]
    fn stats<'py>(&self, py: Python<'py>, errors: bool) -> PyResult<Bound<'py, PyDict>> {
        let html = self.html(py);
        let decoded = DecodedAs {
            encoding: self.encoding,
            rule: self.rule,
            had_replacements: self.had_replacements,
        };
        let stats = py.detach(|| {
            let mut stats =
                Stats::of_tokenizer(&mut Tokenizer::builder().errors(errors).build(html));
            stats.count_decoded(&decoded);
            stats
        });
        let t = &stats.tokens;
        let tokens = PyDict::new(py);
        for (key, n) in [
            ("total", t.total()),
            ("text", t.text),
            ("start_tag", t.start_tag),
            ("end_tag", t.end_tag),
            ("comment", t.comment),
            ("doctype", t.doctype),
            ("cdata", t.cdata),
        ] {
            tokens.set_item(key, n)?;
        }
        let encodings = PyDict::new(py);
        encodings.set_item("by_rule", counts(py, &stats.by_rule)?)?;
        encodings.set_item("by_encoding", counts(py, &stats.by_encoding)?)?;
        encodings.set_item("with_replacements", stats.with_replacements)?;
        let dict = PyDict::new(py);
        dict.set_item("tokens", tokens)?;
        dict.set_item("tags", counts(py, &stats.tags)?)?;
        dict.set_item("encodings", encodings)?;
        if errors {
            let codes: std::collections::HashMap<&str, u64> =
                stats.errors.iter().map(|(c, n)| (c.as_str(), *n)).collect();
            dict.set_item("errors", counts(py, &codes)?)?;
        } else {
            dict.set_item("errors", py.None())?;
        }
        Ok(dict)
    }

    /// The tokens of the decoded page (see `htmltok.tokenize`); their offsets are into
    /// `html_bytes`, the page as UTF-8.
    #[pyo3(signature = (*, errors = false, simulation = true, scripting = true, state = None, last_start_tag = None))]
    fn tokenize(
        &self,
        py: Python<'_>,
        errors: bool,
        simulation: bool,
        scripting: bool,
        state: Option<&str>,
        last_start_tag: Option<&str>,
    ) -> PyResult<Tokens> {
        let builder = builder(errors, simulation, scripting, state, last_start_tag)?;
        tokens_of(py, self.html_bytes(py), builder)
    }

    /// The page's main text: `self.tree().main_text(...)` (see `Tree.main_text`; the
    /// tree is parsed for it and dropped: keep `tree()` to ask it more).
    #[pyo3(signature = (*, format = "text", links = true, images = true, url = None))]
    fn main_text(
        slf: &Bound<'_, Self>,
        format: &str,
        links: bool,
        images: bool,
        url: Option<&str>,
    ) -> PyResult<String> {
        Tree::build(slf.py(), slf.clone().unbind(), false, None).main_text(
            slf.py(),
            format,
            links,
            images,
            url,
        )
    }

    /// The page as Markdown: `self.tree().markdown(...)` (see `Tree.markdown`).
    #[pyo3(signature = (*, links = true, images = true, noscript = false, url = None))]
    fn markdown(
        slf: &Bound<'_, Self>,
        links: bool,
        images: bool,
        noscript: bool,
        url: Option<&str>,
    ) -> PyResult<String> {
        Tree::build(slf.py(), slf.clone().unbind(), false, None).markdown(
            slf.py(),
            links,
            images,
            noscript,
            url,
        )
    }

    /// The page's metadata: `self.tree().metadata(url)` (see `Tree.metadata`; `url`
    /// defaults to the document's).
    #[pyo3(signature = (url = None))]
    fn metadata<'py>(slf: &Bound<'py, Self>, url: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        Tree::build(slf.py(), slf.clone().unbind(), false, None).metadata(slf.py(), url)
    }

    /// The page's tree (WHATWG tree construction; see `htmltok.parse`), parsed from the
    /// decoded page (the GIL released); `context` (as the html5lib tests write it: 'td',
    /// 'svg path') parses it as a fragment in the context of that element.
    #[pyo3(signature = (*, scripting = false, context = None))]
    fn tree(slf: &Bound<'_, Self>, scripting: bool, context: Option<&str>) -> Tree {
        Tree::build(slf.py(), slf.clone().unbind(), scripting, context)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<htmltok.Document {} bytes, {} ({}){}>",
            self.html(py).len(),
            self.encoding.name(),
            self.rule.as_str(),
            self.url
                .as_deref()
                .map(|u| format!(", url={u:?}"))
                .unwrap_or_default()
        )
    }
}
