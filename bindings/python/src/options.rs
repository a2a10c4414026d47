//! `htmltok.ProcessOptions`: what a `process` run extracts and how it runs, read in one
//! place for every output (dicts, Arrow IPC bytes, Arrow capsules, pyarrow batches).
//!
//! `process(inputs, options, *, output=..., **keywords)` takes either a `ProcessOptions`
//! or the same keywords (as `pyarrow.compute` functions take `options=` or keywords): the
//! keywords are handed to `ProcessOptions` itself, so that the names, defaults and checks
//! cannot drift between outputs.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use url::Url;

use crate::args::absolute_url;
use crate::links::LinkForm;
use crate::want::Want;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ProcessOptions>()?;
    Ok(())
}

/// The options' names, in the order of the constructor's keywords (and of `repr`).
pub(crate) const NAMES: [&str; 14] = [
    "links",
    "text",
    "threads",
    "base",
    "data_urls",
    "link_urls",
    "all_files",
    "all_records",
    "fields",
    "main_text",
    "main_markdown",
    "metadata",
    "batch_rows",
    "batch_bytes",
];

/// `ProcessOptions(*, links=True, text=True, threads=0, ...)`: the options of a `process`
/// run, checked when made (ValueError for a `base` that is not an absolute URL, a field
/// selector that does not parse or a field named as a column, a negative `threads`,
/// `batch_rows` below 1). Immutable; `replace(**changes)` makes a changed copy. Equal
/// when their values are equal; picklable (for Spark and multiprocessing workers).
#[pyclass(frozen, module = "htmltok", name = "ProcessOptions")]
pub(crate) struct ProcessOptions {
    /// Each page's links (a list of dicts, or of URLs with `link_urls`); None without.
    #[pyo3(get)]
    links: bool,
    /// Each page's visible text; None without.
    #[pyo3(get)]
    text: bool,
    /// Worker threads (0: one per core).
    #[pyo3(get)]
    threads: usize,
    /// The URL to resolve links of documents without a URL of their own against.
    #[pyo3(get)]
    base: Option<String>,
    /// Keep `data:` URLs among the links.
    #[pyo3(get)]
    data_urls: bool,
    /// The dicts' `links` as URL strings rather than dicts (the Arrow outputs' `links`
    /// column is always the URLs).
    #[pyo3(get)]
    link_urls: bool,
    /// Every file of a folder, not only HTML and archive names.
    #[pyo3(get)]
    all_files: bool,
    /// Every archive record, not only HTML responses and resources.
    #[pyo3(get)]
    all_records: bool,
    /// Named CSS selectors (a copy of the dict given, or the `Fields`), or None.
    #[pyo3(get)]
    fields: Option<Py<PyAny>>,
    /// The `MAIN_TEXT_COLUMNS`.
    #[pyo3(get)]
    main_text: bool,
    /// The `main_markdown` column.
    #[pyo3(get)]
    main_markdown: bool,
    /// The `METADATA_COLUMNS`.
    #[pyo3(get)]
    metadata: bool,
    /// The Arrow outputs' rows per batch (at most).
    #[pyo3(get)]
    batch_rows: usize,
    /// The Arrow outputs' bytes of strings per batch (a batch ends once it has them).
    #[pyo3(get)]
    batch_bytes: usize,
    /// `base`, parsed.
    base_url: Option<Url>,
    /// `links`, `text`, `fields` (compiled) and the tree's columns, as a run reads them.
    want: Want,
}

/// A count argument, ValueError when negative (rather than pyo3's OverflowError).
fn count(name: &str, value: i64, least: i64) -> PyResult<usize> {
    if value < least {
        return Err(PyValueError::new_err(format!(
            "{name} must be at least {least}, not {value}"
        )));
    }
    usize::try_from(value)
        .map_err(|_| PyValueError::new_err(format!("{name}: {value} is too large")))
}

#[pymethods]
impl ProcessOptions {
    #[new]
    #[pyo3(signature = (*, links = true, text = true, threads = 0, base = None, data_urls = false, link_urls = false, all_files = false, all_records = false, fields = None, main_text = false, main_markdown = false, metadata = false, batch_rows = 1024, batch_bytes = 4 << 20))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        links: bool,
        text: bool,
        threads: i64,
        base: Option<String>,
        data_urls: bool,
        link_urls: bool,
        all_files: bool,
        all_records: bool,
        fields: Option<&Bound<'_, PyAny>>,
        main_text: bool,
        main_markdown: bool,
        metadata: bool,
        batch_rows: i64,
        batch_bytes: i64,
    ) -> PyResult<ProcessOptions> {
        let fields = fields.filter(|f| !f.is_none());
        let want = Want::new(links, text, fields, main_text, main_markdown, metadata)?;
        // A dict is copied: changing the caller's afterwards changes nothing here.
        let fields = match fields {
            Some(f) if f.is_instance_of::<PyDict>() => {
                Some(f.cast::<PyDict>()?.copy()?.into_any().unbind())
            }
            Some(f) => Some(f.clone().unbind()),
            None => None,
        };
        Ok(ProcessOptions {
            links,
            text,
            threads: count("threads", threads, 0)?,
            base_url: absolute_url("base", base.as_deref())?,
            base,
            data_urls,
            link_urls,
            all_files,
            all_records,
            fields,
            main_text,
            main_markdown,
            metadata,
            batch_rows: count("batch_rows", batch_rows, 1)?,
            batch_bytes: count("batch_bytes", batch_bytes, 0)?,
            want,
        })
    }

    /// A copy with the given options changed (`dataclasses.replace`'s way); TypeError for
    /// a name that is not an option.
    #[pyo3(signature = (**changes))]
    fn replace<'py>(
        slf: &Bound<'py, Self>,
        changes: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, ProcessOptions>> {
        let kwargs = slf.get().to_dict(slf.py())?;
        if let Some(changes) = changes {
            check_names("ProcessOptions.replace", changes)?;
            kwargs.update(changes.as_mapping())?;
        }
        Ok(slf
            .get_type()
            .call((), Some(&kwargs))?
            .cast_into::<ProcessOptions>()?)
    }

    /// `copy.replace(options, **changes)` (Python 3.13).
    #[pyo3(signature = (**changes))]
    fn __replace__<'py>(
        slf: &Bound<'py, Self>,
        changes: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, ProcessOptions>> {
        ProcessOptions::replace(slf, changes)
    }

    /// The options as a dict of keywords (`ProcessOptions(**options.to_dict())` is equal).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("links", self.links)?;
        dict.set_item("text", self.text)?;
        dict.set_item("threads", self.threads)?;
        dict.set_item("base", &self.base)?;
        dict.set_item("data_urls", self.data_urls)?;
        dict.set_item("link_urls", self.link_urls)?;
        dict.set_item("all_files", self.all_files)?;
        dict.set_item("all_records", self.all_records)?;
        dict.set_item("fields", self.fields.as_ref().map(|f| f.bind(py)))?;
        dict.set_item("main_text", self.main_text)?;
        dict.set_item("main_markdown", self.main_markdown)?;
        dict.set_item("metadata", self.metadata)?;
        dict.set_item("batch_rows", self.batch_rows)?;
        dict.set_item("batch_bytes", self.batch_bytes)?;
        Ok(dict)
    }

    /// Pickling: the keywords to make the options again with.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        Ok((PyTuple::empty(py), self.to_dict(py)?))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.cast::<ProcessOptions>() else {
            return Ok(false);
        };
        self.to_dict(py)?.eq(other.get().to_dict(py)?)
    }

    /// The hash of the values (TypeError when `fields` is a dict, which has none).
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let values = self.to_dict(py)?.values();
        PyTuple::new(py, values)?.hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::with_capacity(NAMES.len());
        for (name, value) in self.to_dict(py)?.iter() {
            parts.push(format!("{}={}", name, value.repr()?));
        }
        Ok(format!("ProcessOptions({})", parts.join(", ")))
    }
}

/// TypeError unless every key of `kwargs` is an option's name.
pub(crate) fn check_names(function: &str, kwargs: &Bound<'_, PyDict>) -> PyResult<()> {
    for key in kwargs.keys() {
        let name: String = key.extract()?;
        if !NAMES.contains(&name.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "{function}() got an unexpected keyword argument {} (the options: {})",
                key.repr()?,
                NAMES.join(", ")
            )));
        }
    }
    Ok(())
}

/// What a run needs of its options.
pub(crate) struct RunOptions {
    pub(crate) want: Want,
    pub(crate) threads: usize,
    pub(crate) all_files: bool,
    pub(crate) all_records: bool,
    pub(crate) base: Option<Url>,
    /// The links kept, and (for the dicts) their form.
    pub(crate) form: LinkForm,
    pub(crate) batch_rows: usize,
    pub(crate) batch_bytes: usize,
}

impl ProcessOptions {
    /// The run's options; `arrow`: the links as URLs whatever `link_urls` says (the Arrow
    /// outputs' `links` column is the URLs).
    pub(crate) fn run(&self, arrow: bool) -> RunOptions {
        RunOptions {
            want: self.want.clone(),
            threads: self.threads,
            all_files: self.all_files,
            all_records: self.all_records,
            base: self.base_url.clone(),
            form: LinkForm {
                data_urls: self.data_urls,
                urls: arrow || self.link_urls,
                ..LinkForm::default()
            },
            batch_rows: self.batch_rows,
            batch_bytes: self.batch_bytes,
        }
    }
}
