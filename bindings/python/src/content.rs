//! What `htmltok.Tree.main_text()`, `article()`, `markdown()`, `metadata()` and
//! `visible_text()` (and
//! `Document`'s, which parse and delegate) call: htmltok-content on the tree the Python
//! object holds, with the GIL released, and the Rust results turned into Python values.
//!
//! Nothing here reads the page: the main text, the metadata and the visible text are the
//! content crate's, so Python, the CLI and the batches give the same answers.

use htmltok_content::main_text::{MainText, Options as MainTextOptions};
use htmltok_content::markdown::Options as MarkdownOptions;
use htmltok_content::metadata::{Href, ImagePreview, Metadata, Robots};
use htmltok_content::visible::{Options as VisibleOptions, visible_text};
use htmltok_tree::OwnedDocument;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::args::absolute_url;
use crate::html::Html;

/// The main text (paragraphs set apart by a blank line) and the fields read beside it.
pub(crate) fn main_text(py: Python<'_>, doc: &OwnedDocument<Html>) -> MainText {
    py.detach(|| htmltok_content::main_text(doc, &MainTextOptions::default()))
}

/// The main text alone (`Tree.main_text()`): the fields are not read (the title only if
/// a heading must be compared with it).
pub(crate) fn main_text_only(py: Python<'_>, doc: &OwnedDocument<Html>) -> String {
    py.detach(|| htmltok_content::main_text::text(doc, &MainTextOptions::default()))
}

/// The markdown options: `url` (else `default_url`, the document's) is the page's own
/// URL, which links resolve against. A bad URL is a ValueError.
pub(crate) fn markdown_options(
    links: bool,
    images: bool,
    noscript: bool,
    url: Option<&str>,
    default_url: Option<&str>,
) -> PyResult<MarkdownOptions> {
    Ok(MarkdownOptions {
        links,
        images,
        noscript,
        url: absolute_url("url", url.or(default_url))?,
    })
}

/// The whole visible page as Markdown (`Tree.markdown()`).
pub(crate) fn markdown(
    py: Python<'_>,
    doc: &OwnedDocument<Html>,
    options: &MarkdownOptions,
) -> String {
    py.detach(|| htmltok_content::markdown::markdown(doc, options))
}

/// The main text as Markdown (`Tree.main_text(format="markdown")`).
pub(crate) fn main_markdown(
    py: Python<'_>,
    doc: &OwnedDocument<Html>,
    options: &MarkdownOptions,
) -> String {
    py.detach(|| htmltok_content::main_text::markdown(doc, &MainTextOptions::default(), options))
}

/// `article()`'s dict: `text`, `title`, `byline`, `date` (None when the page has none),
/// `kind` (the page kind's name) and `confidence` (a float in [0, 1]).
pub(crate) fn article<'py>(
    py: Python<'py>,
    doc: &OwnedDocument<Html>,
) -> PyResult<Bound<'py, PyDict>> {
    let main = main_text(py, doc);
    let dict = PyDict::new(py);
    dict.set_item("text", main.text)?;
    dict.set_item("title", main.title)?;
    dict.set_item("byline", main.byline)?;
    dict.set_item("date", main.date)?;
    dict.set_item("kind", main.kind.as_str())?;
    dict.set_item("confidence", main.confidence)?;
    Ok(dict)
}

/// The visible text (`noscript` content included when asked).
pub(crate) fn visible(py: Python<'_>, doc: &OwnedDocument<Html>, noscript: bool) -> String {
    py.detach(|| visible_text(doc, VisibleOptions { noscript }))
}

/// `metadata(url)`'s dict (see `metadata_dict`); `url` (else `default_url`, the
/// document's) is the page's own URL. A bad URL is a ValueError.
pub(crate) fn metadata<'py>(
    py: Python<'py>,
    doc: &OwnedDocument<Html>,
    url: Option<&str>,
    default_url: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let url = absolute_url("url", url.or(default_url))?;
    let m = py.detach(|| htmltok_content::metadata(doc, url.as_ref()));
    metadata_dict(py, &m)
}

fn href_dict<'py>(py: Python<'py>, href: &Href) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("raw", &href.raw)?;
    dict.set_item("url", &href.url)?;
    Ok(dict)
}

/// Robots directives as a dict: the flags as bools, the limits as int or None, the
/// image preview as 'none' / 'standard' / 'large' or None, `other` a list of str.
fn robots_dict<'py>(py: Python<'py>, r: &Robots) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("present", r.present)?;
    set_robots(py, &dict, r)?;
    Ok(dict)
}

/// The directives of `r` set on `dict`: the flags (named and ordered as the Arrow
/// struct's, `htmltok_crawl::extract::robots_flags`), then the limits and `other`.
fn set_robots<'py>(py: Python<'py>, dict: &Bound<'py, PyDict>, r: &Robots) -> PyResult<()> {
    for (key, flag) in htmltok_crawl::extract::robots_flags(r) {
        dict.set_item(key, flag)?;
    }
    dict.set_item("max_snippet", r.max_snippet)?;
    dict.set_item(
        "max_image_preview",
        r.max_image_preview.map(ImagePreview::as_str),
    )?;
    dict.set_item("max_video_preview", r.max_video_preview)?;
    dict.set_item("unavailable_after", &r.unavailable_after)?;
    dict.set_item("other", PyList::new(py, &r.other)?)?;
    Ok(())
}

fn pairs<'py>(py: Python<'py>, pairs: &[(String, String)]) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyTuple>> = pairs
        .iter()
        .map(|(k, v)| PyTuple::new(py, [k, v]))
        .collect::<PyResult<_>>()?;
    PyList::new(py, items)
}

/// The `Metadata` fields as a dict (the keys are the Rust field names, plus `language`,
/// `Metadata::language()`): URL attributes as `{'raw', 'url'}` dicts, Open Graph and
/// Twitter fields as lists of (name, value) tuples (repeats kept), JSON-LD blocks as the
/// strings the page wrote.
pub(crate) fn metadata_dict<'py>(py: Python<'py>, m: &Metadata) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("title", &m.title)?;
    dict.set_item("base_url", &m.base_url)?;
    dict.set_item(
        "canonical",
        m.canonical.as_ref().map(|h| href_dict(py, h)).transpose()?,
    )?;
    dict.set_item("robots", robots_dict(py, &m.robots)?)?;
    dict.set_item("googlebot", robots_dict(py, &m.googlebot)?)?;
    dict.set_item("description", &m.description)?;
    dict.set_item("open_graph", pairs(py, &m.open_graph)?)?;
    dict.set_item("twitter", pairs(py, &m.twitter)?)?;
    dict.set_item("lang", &m.lang)?;
    dict.set_item("content_language", &m.content_language)?;
    dict.set_item("language", m.language())?;
    let alternates = PyList::empty(py);
    for a in &m.alternates {
        let d = href_dict(py, &a.href)?;
        d.set_item("hreflang", &a.hreflang)?;
        alternates.append(d)?;
    }
    dict.set_item("alternates", alternates)?;
    let refresh = match &m.refresh {
        Some(r) => {
            let d = PyDict::new(py);
            d.set_item("delay", r.delay)?;
            d.set_item("raw", &r.raw)?;
            d.set_item("url", &r.url)?;
            Some(d)
        }
        None => None,
    };
    dict.set_item("refresh", refresh)?;
    dict.set_item("json_ld", PyList::new(py, &m.json_ld)?)?;
    let links = PyList::empty(py);
    for l in &m.qualified_links {
        let d = href_dict(py, &l.href)?;
        d.set_item("element", l.element)?;
        d.set_item("offset", l.offset)?;
        d.set_item("nofollow", l.nofollow)?;
        d.set_item("ugc", l.ugc)?;
        d.set_item("sponsored", l.sponsored)?;
        links.append(d)?;
    }
    dict.set_item("qualified_links", links)?;
    Ok(dict)
}

/// A dict of `pairs` items: `{'name': …, 'content': …}`.
fn pair_dicts<'py>(py: Python<'py>, pairs: &[(String, String)]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for (name, content) in pairs {
        let d = PyDict::new(py);
        d.set_item("name", name)?;
        d.set_item("content", content)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The robots columns' dict (None when no tag was read): the struct of
/// `htmltok_crawl::extract::columns::metadata`, without `present`.
fn robots_column<'py>(py: Python<'py>, r: &Robots) -> PyResult<Option<Bound<'py, PyDict>>> {
    if !r.present {
        return Ok(None);
    }
    let dict = PyDict::new(py);
    set_robots(py, &dict, r)?;
    Ok(Some(dict))
}

/// Sets the metadata columns (`htmltok_crawl::extract::METADATA_COLUMNS`) of a
/// `process(metadata=True)` dict, in the shapes of the Arrow columns (structs as dicts,
/// lists of structs as lists of dicts, URLs resolved); all None when `m` is None.
pub(crate) fn metadata_columns(
    py: Python<'_>,
    dict: &Bound<'_, PyDict>,
    m: Option<&Metadata>,
) -> PyResult<()> {
    for name in htmltok_crawl::extract::METADATA_COLUMNS {
        let Some(m) = m else {
            dict.set_item(name, py.None())?;
            continue;
        };
        let value: Bound<'_, PyAny> = match name {
            "canonical" => m
                .canonical
                .as_ref()
                .and_then(|c| c.url.as_deref())
                .into_pyobject(py)?,
            "robots" => robots_column(py, &m.robots)?.into_pyobject(py)?,
            "googlebot" => robots_column(py, &m.googlebot)?.into_pyobject(py)?,
            "description" => m.description.as_deref().into_pyobject(py)?,
            "open_graph" => pair_dicts(py, &m.open_graph)?.into_any(),
            "twitter" => pair_dicts(py, &m.twitter)?.into_any(),
            "lang" => m.lang.as_deref().into_pyobject(py)?,
            "content_language" => m.content_language.as_deref().into_pyobject(py)?,
            "hreflang" => {
                let list = PyList::empty(py);
                for a in &m.alternates {
                    let d = PyDict::new(py);
                    d.set_item("hreflang", &a.hreflang)?;
                    d.set_item("url", &a.href.url)?;
                    list.append(d)?;
                }
                list.into_any()
            }
            "refresh" => match &m.refresh {
                Some(r) => {
                    let d = PyDict::new(py);
                    d.set_item("delay", r.delay)?;
                    d.set_item("url", &r.url)?;
                    d.into_any()
                }
                None => py.None().into_bound(py),
            },
            "json_ld" => PyList::new(py, &m.json_ld)?.into_any(),
            "qualified_links" => {
                let list = PyList::empty(py);
                for l in &m.qualified_links {
                    let d = PyDict::new(py);
                    d.set_item("url", &l.href.url)?;
                    d.set_item("nofollow", l.nofollow)?;
                    d.set_item("ugc", l.ugc)?;
                    d.set_item("sponsored", l.sponsored)?;
                    list.append(d)?;
                }
                list.into_any()
            }
            // METADATA_COLUMNS and this match are one list; the tests hold the dict's keys
            // to the Arrow columns'.
            _ => py.None().into_bound(py),
        };
        dict.set_item(name, value)?;
    }
    Ok(())
}
