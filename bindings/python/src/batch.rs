//! `extract_batch`: the extraction columns of a batch of HTML documents already in memory
//! (a column of a Ray Dataset, a Spark or pandas DataFrame), as one Arrow record batch.
//!
//! Each row goes through the same Rust code as `process()`: a [`batch::Source::Bytes`]
//! with the row's charset (the transport charset of the encoding decision) and URL, read
//! by [`batch::map_reduce`] (decoded as a browser decodes, the tree parsed as it is
//! decoded when a column needs it), one [`Page`] per row ([`crate::want::page`]),
//! written by [`PageColumns`](htmltok_crawl::extract::columns::PageColumns). The whole
//! batch runs with the GIL released. `htmltok.ray` (Python) adds the columns to the
//! caller's batch.

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use htmltok_crawl::batch::{self, Source};
use htmltok_crawl::extract::Page;
use htmltok_crawl::sniff::{InputKind, sniff};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use crate::args::{absolute_url, input_bytes, type_name};
use crate::arrow::ArrowBatch;
use crate::links::LinkForm;
use crate::want::{Want, page};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(extract_batch, m)?)?;
    Ok(())
}

/// The name of the column of why a row has no extraction (`errors=True`).
const ERROR_COLUMN: &str = "extract_error";

/// The reason of a row whose HTML is null.
const NULL_HTML: &str = "null-html";

/// The reason of a row whose bytes are a WARC or ARC archive, not one document.
const ARCHIVE: &str = "archive";

/// One row's HTML, borrowed from its Python object.
#[derive(Clone, Copy)]
struct Row<'a> {
    bytes: &'a [u8],
    /// The row was a `str` (or the column a string column): already decoded, UTF-8.
    decoded: bool,
}

/// The HTML of a batch's rows, borrowed from the Python objects that hold it.
enum Html<'py> {
    /// A list of `bytes`/`bytearray`/`memoryview`/`str`/`None`: the objects (bytes
    /// for bytes-like ones, copied once) and whether each is a `str`.
    Items(Vec<Option<(Bound<'py, PyAny>, bool)>>),
    /// An Arrow binary or string column as its buffers: the values, the `n + 1` offsets
    /// (little-endian int64, relative to the values' first byte at the first offset), the
    /// rows that are null, and whether the column is a string column.
    Buffers {
        values: Bound<'py, PyBytes>,
        offsets: Vec<i64>,
        nulls: Option<Vec<bool>>,
        decoded: bool,
    },
}

impl<'py> Html<'py> {
    /// `html` as `extract_batch` takes it (see there).
    fn of(html: &Bound<'py, PyAny>, decoded: bool) -> PyResult<Html<'py>> {
        if let Ok(tuple) = html.cast::<PyTuple>() {
            if tuple.len() != 3 {
                return Err(PyTypeError::new_err(
                    "extract_batch: html as Arrow buffers is a tuple (values, offsets, nulls)",
                ));
            }
            let values = tuple.get_item(0)?.cast_into::<PyBytes>().map_err(|_| {
                PyTypeError::new_err("extract_batch: the values buffer must be bytes")
            })?;
            let offsets_obj = tuple.get_item(1)?;
            let raw = offsets_obj.cast::<PyBytes>().map_err(|_| {
                PyTypeError::new_err("extract_batch: the offsets buffer must be bytes")
            })?;
            let raw = raw.as_bytes();
            if raw.len() % 8 != 0 || raw.len() < 8 {
                return Err(PyValueError::new_err(
                    "extract_batch: the offsets are n + 1 little-endian int64 values",
                ));
            }
            let offsets: Vec<i64> = raw
                .chunks_exact(8)
                .map(|b| i64::from_le_bytes(b.try_into().expect("chunks of 8 bytes")))
                .collect();
            let first = offsets[0];
            let len = values.as_bytes().len() as i64;
            if offsets.windows(2).any(|w| w[1] < w[0])
                || first < 0
                || offsets[offsets.len() - 1] - first > len
            {
                return Err(PyValueError::new_err(
                    "extract_batch: the offsets do not fit the values buffer",
                ));
            }
            let nulls = tuple.get_item(2)?;
            let nulls: Option<Vec<bool>> = if nulls.is_none() {
                None
            } else {
                Some(nulls.extract()?)
            };
            if nulls.as_ref().is_some_and(|n| n.len() + 1 != offsets.len()) {
                return Err(PyValueError::new_err(
                    "extract_batch: one null flag per row, as many as the offsets less one",
                ));
            }
            return Ok(Html::Buffers {
                values,
                offsets,
                nulls,
                decoded,
            });
        }
        let iter = html.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "extract_batch: html must be a list of bytes, str or None, not {}",
                type_name(html)
            ))
        })?;
        let mut items = Vec::new();
        for item in iter {
            let item = item?;
            if item.is_none() {
                items.push(None);
            } else if item.is_instance_of::<PyString>() {
                items.push(Some((item, true)));
            } else {
                let bytes = input_bytes(&item).map_err(|_| {
                    PyTypeError::new_err(format!(
                        "extract_batch: each html value must be bytes, str or None, not {}",
                        type_name(&item)
                    ))
                })?;
                items.push(Some((bytes.into_any(), decoded)));
            }
        }
        Ok(Html::Items(items))
    }

    /// The rows, borrowed (None: a null row).
    fn rows(&self) -> PyResult<Vec<Option<Row<'_>>>> {
        match self {
            Html::Items(items) => items
                .iter()
                .map(|item| {
                    let Some((obj, is_str)) = item else {
                        return Ok(None);
                    };
                    let bytes = match obj.cast::<PyString>() {
                        Ok(s) => s.to_str()?.as_bytes(),
                        Err(_) => obj.cast::<PyBytes>()?.as_bytes(),
                    };
                    Ok(Some(Row {
                        bytes,
                        decoded: *is_str,
                    }))
                })
                .collect(),
            Html::Buffers {
                values,
                offsets,
                nulls,
                decoded,
            } => {
                let values = values.as_bytes();
                let first = offsets[0];
                Ok(offsets
                    .windows(2)
                    .enumerate()
                    .map(|(i, w)| {
                        if nulls.as_ref().is_some_and(|n| n[i]) {
                            return None;
                        }
                        // Checked in `Html::of`: in order, within the values.
                        let (start, end) = ((w[0] - first) as usize, (w[1] - first) as usize);
                        Some(Row {
                            bytes: &values[start..end],
                            decoded: *decoded,
                        })
                    })
                    .collect())
            }
        }
    }
}

/// A per-row argument (`charsets`, `urls`): None, or one value (or None) per row.
fn per_row(
    name: &str,
    values: Option<Vec<Option<String>>>,
    rows: usize,
) -> PyResult<Vec<Option<String>>> {
    match values {
        None => Ok(vec![None; rows]),
        Some(v) if v.len() == rows => Ok(v),
        Some(v) => Err(PyValueError::new_err(format!(
            "extract_batch: {name} has {} values for {rows} rows",
            v.len()
        ))),
    }
}

/// What one batch gave: a page or the reason there is none, for each row.
struct Extracted {
    pages: Vec<Option<Page>>,
    reasons: Vec<Option<&'static str>>,
}

/// Runs the rows through [`batch::map_reduce`] (GIL released by the caller).
fn run(
    rows: &[Option<Row<'_>>],
    charsets: &[Option<String>],
    urls: &[Option<String>],
    want: &Want,
    base: Option<&url::Url>,
    form: &LinkForm,
    threads: usize,
) -> Extracted {
    let n = rows.len();
    if n == 0 {
        // No thread pool for no rows (`htmltok.ray` asks so for the column names).
        return Extracted {
            pages: Vec::new(),
            reasons: Vec::new(),
        };
    }
    let mut reasons: Vec<Option<&'static str>> = rows
        .iter()
        .map(|row| match row {
            None => Some(NULL_HTML),
            // A row is one document: a WARC or ARC file in it would be read as many.
            Some(row) if sniff(row.bytes) == InputKind::Archive => Some(ARCHIVE),
            Some(_) => None,
        })
        .collect();
    let sources = (0..n).filter_map(|i| {
        let row = rows[i].filter(|_| reasons[i].is_none())?;
        // A str is UTF-8 already: UTF-8 is its transport charset, whatever the page's
        // `<meta>` says (a BOM still comes first, and says the same).
        let charset = if row.decoded {
            Some("utf-8".to_string())
        } else {
            charsets[i].clone()
        };
        Some(Source::Bytes {
            name: i.to_string(),
            url: urls[i].clone(),
            charset,
            bytes: row.bytes.to_vec(),
        })
    });
    let options = batch::Options::new().threads(threads).tree(want.parser());
    let result = batch::map_reduce(
        sources,
        &options,
        |document| {
            let mut page = page(&document, want, base);
            page.links.retain(|link| form.keeps(link));
            vec![(
                document.source().parse::<usize>().unwrap_or(usize::MAX),
                page,
            )]
        },
        |mut a, b| {
            a.extend(b);
            a
        },
        Vec::new,
    );
    let mut pages: Vec<Option<Page>> = (0..n).map(|_| None).collect();
    for (i, page) in result.value {
        if let Some(slot) = pages.get_mut(i) {
            *slot = Some(page);
        }
    }
    for failure in &result.failures {
        if let Some(slot) = failure
            .source
            .parse::<usize>()
            .ok()
            .and_then(|i| reasons.get_mut(i))
        {
            *slot = Some(failure.kind.reason());
        }
    }
    for (page, reason) in pages.iter().zip(reasons.iter_mut()) {
        if page.is_none() && reason.is_none() {
            // Never seen: every source is mapped or fails.
            *reason = Some("not-processed");
        }
    }
    Extracted { pages, reasons }
}

/// The names of the columns to give, in order.
fn column_names(want: &Want, title: bool, encoding: bool) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if title {
        names.push("title".into());
    }
    if encoding {
        names.push("encoding".into());
        names.push("encoding_rule".into());
    }
    if want.links {
        names.push("links".into());
    }
    if want.text {
        names.push("text".into());
    }
    names.extend(want.field_names().into_iter().map(String::from));
    names.extend(want.tree.names().map(String::from));
    names
}

/// The extraction columns of a batch of HTML documents, as one Arrow record batch (an
/// `ArrowBatch`: `pyarrow.record_batch(b)` takes it over without a copy), one row per
/// input row, in order. `htmltok.ray.extract` is the Python front of it.
///
/// `html` is a list of `bytes` (or `bytearray`, `memoryview`), `str` or `None`, or an
/// Arrow binary or string column as a tuple of its buffers `(values, offsets, nulls)`:
/// `values` the bytes of the rows (`bytes`), `offsets` `n + 1` little-endian int64 (row
/// `i` is `values[offsets[i] - offsets[0]:offsets[i + 1] - offsets[0]]`), `nulls` None or
/// a list of `n` bools (True: the row is null); `decoded=True` says the column is a
/// string column. `charsets` and `urls`, when given, have one value (or None) per row:
/// the HTTP charset of the row's bytes (the transport charset of the encoding decision:
/// BOM, then it, then the `<meta>` prescan, then the detector, as for a WARC record) and
/// its URL (links, Markdown links and metadata URLs are resolved against it, else
/// against `base`). A `str` row is UTF-8 already: its charset is not used.
///
/// The columns, in order: `title` (unless `title=False`), `encoding` and
/// `encoding_rule` (with `encoding=True`), `links` (with `links=True`: the resolved
/// URLs, data: URLs left out unless `data_urls=True`), `text` (with `text=True`: the
/// visible text), one list-of-strings column per field of `fields`, the main-text
/// columns (`main_text`, `main_kind`, `main_confidence`: on by default), `main_markdown`
/// (with `main_markdown=True`), the metadata columns (with `metadata=True`); their types
/// are `process_arrow`'s. With `errors=True`, a last string column `extract_error`: null
/// for a row read, else why it has none — `null-html` (the row's HTML is null),
/// `archive` (its bytes are a WARC or ARC file), `not-html-file` (binary data),
/// `too-large` (over 256 MiB), `panicked`. A row without a document has null in every
/// column.
///
/// The batch runs on `threads` Rust threads (default 1, for a Ray or Spark task that has
/// one core; 0: one per core) with the GIL released.
#[pyfunction]
#[pyo3(signature = (html, charsets = None, urls = None, *, decoded = false, base = None, title = true, encoding = false, links = false, text = false, data_urls = false, fields = None, main_text = true, main_markdown = false, metadata = false, errors = false, threads = 1))]
#[allow(clippy::too_many_arguments)]
fn extract_batch(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    charsets: Option<Vec<Option<String>>>,
    urls: Option<Vec<Option<String>>>,
    decoded: bool,
    base: Option<&str>,
    title: bool,
    encoding: bool,
    links: bool,
    text: bool,
    data_urls: bool,
    fields: Option<&Bound<'_, PyAny>>,
    main_text: bool,
    main_markdown: bool,
    metadata: bool,
    errors: bool,
    threads: usize,
) -> PyResult<ArrowBatch> {
    let want = Want::new(links, text, fields, main_text, main_markdown, metadata)?;
    let names = column_names(&want, title, encoding);
    if names.is_empty() && !errors {
        return Err(PyValueError::new_err(
            "extract_batch: no column asked for (title, encoding, links, text, fields, main_text, main_markdown, metadata or errors)",
        ));
    }
    if errors && names.iter().any(|n| n == ERROR_COLUMN) {
        return Err(PyValueError::new_err(format!(
            "extract_batch: field name {ERROR_COLUMN:?} is the errors column: choose another"
        )));
    }
    let base = absolute_url("base", base)?;
    let html = Html::of(html, decoded)?;
    let rows = html.rows()?;
    let charsets = per_row("charsets", charsets, rows.len())?;
    let urls = per_row("urls", urls, rows.len())?;
    let form = LinkForm {
        data_urls,
        urls: true,
        ..LinkForm::default()
    };
    let batch = py.detach(|| -> Result<RecordBatch, String> {
        let extracted = run(
            &rows,
            &charsets,
            &urls,
            &want,
            base.as_ref(),
            &form,
            threads,
        );
        let mut columns = want.columns();
        let empty = Page::default();
        for page in &extracted.pages {
            match page {
                Some(page) => columns.push(page, want.links, want.text),
                None => columns.push(&empty, false, false),
            }
        }
        let all = columns.finish();
        let schema = all.schema();
        let mut out: Vec<(String, ArrayRef, bool)> = Vec::with_capacity(names.len() + 1);
        for name in &names {
            let i = schema
                .index_of(name)
                .map_err(|err| format!("no column {name:?}: {err}"))?;
            out.push((name.clone(), all.column(i).clone(), true));
        }
        if errors {
            let reasons: StringArray = extracted.reasons.iter().copied().collect();
            out.push((ERROR_COLUMN.to_string(), Arc::new(reasons), true));
        }
        RecordBatch::try_from_iter_with_nullable(out).map_err(|err| err.to_string())
    });
    let batch = batch.map_err(|err| {
        PyValueError::new_err(format!(
            "extract_batch: cannot build the record batch: {err}"
        ))
    })?;
    Ok(ArrowBatch { batch })
}
