//! `htmltok.Document`'s Python methods: the decoded page's properties, what
//! `htmltok_crawl::extract` takes out of it (links, text, stats), its tokens, and its
//! tree and what `htmltok-content` reads of the tree.

use htmltok::Tokenizer;
use htmltok_crawl::batch::DecodedAs;
use htmltok_crawl::extract::{self, ElementSet, Stats};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use url::Url;

use super::Document;
use crate::args::{absolute_url, input_bytes};
use crate::html::Html;
use crate::links::{LinkForm, links_list};
use crate::tokens::{Tokens, tokenize};
use crate::tree::Tree;

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
    #[getter(url)]
    fn url_getter(&self) -> Option<&str> {
        self.url()
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
        let base = absolute_url("base", base)?;
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
        let html = self.html_bytes(py);
        tokenize(
            py,
            &html,
            errors,
            simulation,
            scripting,
            state,
            last_start_tag,
        )
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
        Document::tree(slf, false, None).main_text(slf.py(), format, links, images, url)
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
        Document::tree(slf, false, None).markdown(slf.py(), links, images, noscript, url)
    }

    /// The page's metadata: `self.tree().metadata(url)` (see `Tree.metadata`; `url`
    /// defaults to the document's).
    #[pyo3(signature = (url = None))]
    fn metadata<'py>(slf: &Bound<'py, Self>, url: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        Document::tree(slf, false, None).metadata(slf.py(), url)
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
