//! CSS selectors from Python, over the tree (`htmltok_select`):
//!
//! - `htmltok.Selector(css)`: a selector list compiled once, for any number of documents;
//! - `Tree.select(css)` / `select_one`, `Node.select(css)` / `select_one` (the methods in
//!   `tree.rs` call [`select`] here and make the `Node` views): the matching elements;
//! - `Tree.getall(css)` / `get`, `Node.getall(css)` / `get` ([`get`]): the strings, as
//!   parsel gives them: `::text` the elements' own text nodes, `::attr(name)` an
//!   attribute's values, else each element's outer HTML;
//! - `htmltok.extract(data, fields)`, `Tree.extract(fields)` and `htmltok.Fields`: named
//!   selectors all matched in one walk ([`htmltok_select::Fields`]), one list of strings
//!   per field.
//!
//! The GIL is released for decoding, parsing and matching: a selection collects node ids
//! (or the strings' slices of the tree) without Python, then makes the Python objects.
//!
//! The `Selector` and `Fields` classes are here, their Python methods in `methods.rs`,
//! above `tree.rs` (`Selector.matches` takes a `Node`; `Node.select` takes a `Selector`).

use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyString};

use htmltok_crawl::encoding;
use htmltok_select::Select as _;
use htmltok_tree::{DocumentRef, NodeId};

use crate::args::{input_bytes, type_name};
use crate::warn::deprecated;

mod methods;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Selector>()?;
    m.add_class::<Fields>()?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    Ok(())
}

/// `Selector(css)`: a CSS selector list compiled once, for `select` / `select_one` and
/// `getall` / `get` on any number of trees and nodes. A selector that does not parse raises ValueError saying
/// where it fails and what was expected.
#[pyclass(module = "htmltok._htmltok", name = "Selector", frozen)]
pub(crate) struct Selector {
    inner: htmltok_select::Selector,
}

fn parse(css: &str) -> PyResult<htmltok_select::Selector> {
    htmltok_select::Selector::parse(css).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The selectors last given as `str` to `select` / `getall` and the like, compiled, newest last:
/// a loop that passes the same text for every page (`parse(d).select("a::attr(href)")`,
/// parsel's way) compiles it once instead of per page (about 28,000 instructions a
/// compile, 1% of the parse of a news page).
static RECENT: Mutex<Vec<(Box<str>, Arc<htmltok_select::Selector>)>> = Mutex::new(Vec::new());

/// How many compiled selectors [`RECENT`] keeps.
const RECENT_LEN: usize = 16;

/// `css` compiled, from [`RECENT`] when it was given lately.
fn parse_recent(css: &str) -> PyResult<Arc<htmltok_select::Selector>> {
    let lock = || {
        RECENT
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some((_, s)) = lock().iter().find(|(text, _)| **text == *css) {
        return Ok(Arc::clone(s));
    }
    let compiled = Arc::new(parse(css)?);
    let mut recent = lock();
    if recent.len() == RECENT_LEN {
        recent.remove(0);
    }
    recent.push((css.into(), Arc::clone(&compiled)));
    Ok(compiled)
}

/// A `css` argument: an `htmltok.Selector` as compiled, else a str compiled now (from
/// [`RECENT`] when given lately) into `compiled`, which the caller keeps alive. ValueError
/// for a selector that does not parse, TypeError for another type.
fn selector_arg<'a>(
    css: &'a Bound<'_, PyAny>,
    compiled: &'a mut Option<Arc<htmltok_select::Selector>>,
) -> PyResult<&'a htmltok_select::Selector> {
    if let Ok(s) = css.cast::<Selector>() {
        return Ok(&s.get().inner);
    }
    if let Ok(text) = css.cast::<PyString>() {
        return Ok(compiled.insert(parse_recent(&text.to_cow()?)?));
    }
    Err(PyTypeError::new_err(format!(
        "css: expected a str or an htmltok.Selector, not {}",
        type_name(css)
    )))
}

/// What [`select`] found.
pub(crate) enum Selection<'py> {
    /// The matching elements' ids, in document order.
    Elements(Vec<NodeId>),
    /// The strings of a selector ending in `::text` / `::attr()`, as [`get`] gives them.
    Strings(Bound<'py, PyAny>),
}

/// What `select` / `select_one` found below node `below` of `doc` (or in the whole
/// document), `css` a str (compiled here, ValueError before any matching when it does not
/// parse) or a `Selector`: the matching elements' ids (`first`: only the first). `owner`
/// (`Tree`, `Node`) names the caller in the warning of a selector ending in `::text` /
/// `::attr()`: its strings, as `getall` / `get` give them, deprecated here.
pub(crate) fn select<'py>(
    py: Python<'py>,
    doc: DocumentRef<'_>,
    below: Option<NodeId>,
    css: &Bound<'py, PyAny>,
    first: bool,
    owner: &str,
) -> PyResult<Selection<'py>> {
    let mut compiled = None;
    let selector = selector_arg(css, &mut compiled)?;
    if selector.pseudo_element().is_some() {
        let (old, new) = if first {
            ("select_one", "get")
        } else {
            ("select", "getall")
        };
        let source = PyString::new(py, selector.source()).repr()?;
        let message = format!(
            "{owner}.{old}({source}) giving strings is deprecated: use {owner}.{new}({source}) \
             (select() and select_one() give nodes, getall() and get() strings)"
        );
        let message = std::ffi::CString::new(message)
            .map_err(|_| PyValueError::new_err("css: a selector may not hold a NUL character"))?;
        deprecated(py, &message)?;
        let found = strings(py, doc, below, selector, first, None)?;
        return Ok(Selection::Strings(found));
    }
    let ids = py.detach(|| elements(doc, below, selector, first));
    Ok(Selection::Elements(ids))
}

/// `getall` and `get` below node `below` of `doc` (or in the whole document): the strings
/// `css` gives, in document order — with `::text` each matched element's own text nodes,
/// with `::attr(name)` the attribute's value (elements without it skipped), without a
/// pseudo-element each matched element's outer HTML (parsel's answers, and `extract`'s).
/// `first`: only the first, else `default`.
pub(crate) fn get<'py>(
    py: Python<'py>,
    doc: DocumentRef<'_>,
    below: Option<NodeId>,
    css: &Bound<'py, PyAny>,
    first: bool,
    default: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut compiled = None;
    let selector = selector_arg(css, &mut compiled)?;
    strings(py, doc, below, selector, first, default)
}

/// The strings of [`get`] for a compiled selector.
fn strings<'py>(
    py: Python<'py>,
    doc: DocumentRef<'_>,
    below: Option<NodeId>,
    selector: &htmltok_select::Selector,
    first: bool,
    default: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let values = py.detach(|| values(doc, below, selector, first));
    if first {
        return Ok(match values.first() {
            Some(v) => PyString::new(py, v).into_any(),
            None => match default {
                Some(default) => default.clone(),
                None => py.None().into_bound(py),
            },
        });
    }
    Ok(PyList::new(py, values)?.into_any())
}

/// The ids of the matching elements (the first alone with `first`).
fn elements(
    doc: DocumentRef<'_>,
    below: Option<NodeId>,
    selector: &htmltok_select::Selector,
    first: bool,
) -> Vec<NodeId> {
    let matches = match below {
        Some(id) => doc.node(id).select(selector),
        None => doc.select(selector),
    };
    if first {
        return matches.take(1).map(|n| n.id()).collect();
    }
    // `for_each` is `Matches::fold`: one loop over the walk, not a `next` call a match.
    let mut ids = Vec::new();
    matches.for_each(|n| ids.push(n.id()));
    ids
}

/// The strings a selector gives ([`htmltok_select::Selector::values`]), in document
/// order (the first alone with `first`: matches without one, an element lacking the
/// attribute, skipped).
fn values<'d>(
    doc: DocumentRef<'d>,
    below: Option<NodeId>,
    selector: &htmltok_select::Selector,
    first: bool,
) -> Vec<std::borrow::Cow<'d, str>> {
    let mut matches = match below {
        Some(id) => doc.node(id).select(selector),
        None => doc.select(selector),
    };
    let mut out = Vec::new();
    if !first {
        // One loop over the walk for all the matches (`for_each_value`); as
        // `next_with_values`, `a[href]::attr(href)` reads the `href` its test found.
        matches.for_each_value(|v| out.push(v));
        return out;
    }
    while matches.next_with_values(|v| out.push(v)).is_some() {
        if first && !out.is_empty() {
            out.truncate(1);
            break;
        }
    }
    out
}

/// A `fields` argument: an `htmltok.Fields` as compiled, else a dict compiled now into
/// `compiled` (which the caller keeps alive).
fn fields_arg<'a>(
    fields: &'a Bound<'_, PyAny>,
    compiled: &'a mut Option<htmltok_select::Fields>,
) -> PyResult<&'a htmltok_select::Fields> {
    match fields.cast::<Fields>() {
        Ok(f) => Ok(&f.get().inner),
        Err(_) => Ok(compiled.insert(compile(fields)?)),
    }
}

/// `Tree.extract(fields)`: the fields matched in one walk of a parsed tree.
pub(crate) fn extract_tree<'py>(
    py: Python<'py>,
    doc: DocumentRef<'_>,
    fields: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut compiled = None;
    let fields = fields_arg(fields, &mut compiled)?;
    let columns = py.detach(|| columns(fields, doc));
    columns_dict(py, fields, columns)
}

/// The fields' columns on `doc`, the strings borrowed from the tree where decoding
/// changed nothing: each is copied once, into its Python `str`.
fn columns<'d>(
    fields: &htmltok_select::Fields,
    doc: DocumentRef<'d>,
) -> Vec<Vec<std::borrow::Cow<'d, str>>> {
    let mut columns = vec![Vec::new(); fields.len()];
    fields.extract_each(doc, |i, v| columns[i].push(v));
    columns
}

/// `Fields({"title": "title::text", ...})`: named selectors compiled once, for
/// `extract(data, fields)` on many documents. A selector that does not parse raises
/// ValueError saying where it fails and what was expected.
#[pyclass(module = "htmltok._htmltok", frozen)]
pub(crate) struct Fields {
    pub(crate) inner: htmltok_select::Fields,
}

/// Compiles a mapping of names to selectors (in its order).
pub(crate) fn compile(fields: &Bound<'_, PyAny>) -> PyResult<htmltok_select::Fields> {
    let dict = fields.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "fields: expected a dict of names to CSS selectors or a Fields, not {}",
            type_name(fields)
        ))
    })?;
    let mut pairs = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let name: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("fields: the names must be str"))?;
        let css: String = v.extract().map_err(|_| {
            PyTypeError::new_err(format!("fields: the selector of {name:?} must be a str"))
        })?;
        pairs.push((name, css));
    }
    htmltok_select::Fields::new(pairs).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `extract(data, fields, *, http_charset=None) -> dict[str, list[str]]`: bytes decoded as
/// `Document` decodes them (a str taken as it is), parsed into a tree (scripting off), and
/// every field matched in one walk.
#[pyfunction]
#[pyo3(signature = (data, fields, *, http_charset = None))]
fn extract<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyAny>,
    http_charset: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut compiled = None;
    let fields = fields_arg(fields, &mut compiled)?;
    if let Ok(text) = data.cast::<PyString>() {
        // A str is taken as it is, as `parse` takes it.
        if http_charset.is_some() {
            return Err(PyValueError::new_err(
                "http_charset is for bytes: a str is decoded already",
            ));
        }
        // Its UTF-8 as CPython keeps it (no copy), parsed as text known to be UTF-8.
        let html = PyBackedStr::try_from(text.clone())?;
        let doc = py.detach(|| htmltok_tree::Parser::new().parse_str(&html));
        let out = py.detach(|| columns(fields, doc.view()));
        let dict = columns_dict(py, fields, out);
        py.detach(|| drop(doc));
        return dict;
    }
    let bytes = input_bytes(data)?;
    let input = bytes.as_bytes();
    // Decided with the tree it parses anyway (the late `<meta>` as the tree builder
    // meets it: `htmltok_crawl::encoding::decode_and_parse`). The tree is kept until the
    // `str`s are made from its strings, then freed without the GIL.
    let parsed = py.detach(|| encoding::decode_and_parse(input, http_charset, &Default::default()));
    let out = py.detach(|| columns(fields, parsed.document.view()));
    let dict = columns_dict(py, fields, out);
    py.detach(|| drop(parsed));
    dict
}

/// The columns as a dict of lists, in the fields' order.
fn columns_dict<'py>(
    py: Python<'py>,
    fields: &htmltok_select::Fields,
    columns: Vec<Vec<std::borrow::Cow<'_, str>>>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (field, column) in fields.fields().iter().zip(columns) {
        out.set_item(&field.name, PyList::new(py, column)?)?;
    }
    Ok(out)
}
