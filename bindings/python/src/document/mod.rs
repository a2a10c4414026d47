//! `htmltok.Document`: a page decoded as a browser decodes it. This file holds what a
//! `Document` is and how one is made; its Python methods are in `methods.rs`, above
//! `tree.rs` (a `Document` makes `Tree`s, and a `Tree` keeps its `Document`).

use std::sync::OnceLock;

use htmltok_crawl::encoding::{self, Encoding, Rule};
use htmltok_crawl::extract::{self, Text};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyString};

use crate::args::input_bytes;
use crate::html::Html;

mod methods;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Document>()?;
    Ok(())
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

    /// The page's URL, as given.
    pub(crate) fn url(&self) -> Option<&str> {
        self.url.as_deref()
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
