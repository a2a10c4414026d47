//! `process`: many files, folders and WARC files tokenized in parallel by
//! `htmltok_crawl::batch`, one `extract::Page` per document, handed to Python as dicts or
//! in Arrow record batches (IPC bytes, PyCapsule objects, pyarrow batches), the options
//! read by [`crate::options::ProcessOptions`] for all of them.
//!
//! The batch runs on a thread of its own (rayon's workers inside it) and sends each page
//! over a bounded channel; the Python iterator receives with the GIL released. Dropping
//! (or closing) the iterator sets the batch's stop flag and drops the receiver, so workers
//! blocked on a full channel wake up with an error, no further document is started, and
//! the thread ends by itself: nothing waits for it, nothing deadlocks.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use htmltok_crawl::batch;
use htmltok_crawl::extract::Page;
use htmltok_crawl::extract::columns::PageColumns;
use pyo3::exceptions::{PyImportError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyString, PyTuple};
use url::Url;

use crate::args::{path_arg, type_name};
use crate::arrow::ArrowBatch;
use crate::links::{LinkForm, links_list};
use crate::options::{ProcessOptions, RunOptions, check_names};
use crate::want::{Want, page};
use crate::warn::deprecated;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(process, m)?)?;
    m.add_class::<ArrowBatch>()?;
    m.add_class::<Pages>()?;
    Ok(())
}

/// How many pages may wait in the channel.
const CHANNEL: usize = 256;

/// How many record batches may wait in the channel (each up to `batch_bytes` of strings:
/// some 128 MiB with the default 4 MiB). Fewer made the workers wait on a consumer that
/// takes batches in bursts (a Spark task writing to the JVM): with 4, a `local[2]` job
/// took 1.6 times as long.
const BATCH_CHANNEL: usize = 32;

/// What the batch thread sends.
enum Message {
    Page(Box<Page>),
    /// A record batch of pages, built by the worker that extracted them
    /// (the Arrow outputs).
    Batch(RecordBatch),
    /// The batch is over: its failures (file, offset, reason) and counts.
    Done {
        failures: Vec<(String, Option<u64>, String)>,
        ignored: u64,
        counts: Counts,
    },
}

/// What a run counted by reason ([`Pages::counts`]).
#[derive(Clone, Debug, Default)]
struct Counts {
    /// Archive records that are not documents (`BatchResult::skipped`).
    skipped: BTreeMap<&'static str, u64>,
    /// Documents read with a notice (`BatchResult::recovered`).
    recovered: BTreeMap<&'static str, u64>,
    /// Inputs that could not be read, by `FailureKind::reason`.
    failures: BTreeMap<&'static str, u64>,
    /// Files a folder walk left out (`BatchResult::passed_over`).
    passed_over: BTreeMap<&'static str, u64>,
}

/// An encoding's name as an interned `str` for the usual ones.
fn encoding_str<'py>(py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
    match name {
        "UTF-8" => intern!(py, "UTF-8").clone(),
        "windows-1252" => intern!(py, "windows-1252").clone(),
        _ => PyString::new(py, name),
    }
}

/// The batch, run on its own thread until done or stopped.
///
/// For the Arrow outputs each worker adds its pages to columns of its own and sends the
/// batch when full: the strings go straight from extraction into the columns on the
/// thread that made them (no page crosses threads, nothing is built on the consumer's
/// thread), and the batches are built in parallel.
#[allow(clippy::too_many_arguments)]
fn run(
    sources: Vec<PathBuf>,
    options: batch::Options,
    want: Want,
    base: Option<Url>,
    tx: SyncSender<Message>,
    stop: Arc<AtomicBool>,
    limits: Option<(usize, usize)>,
    form: LinkForm,
) {
    let send = |message: Message| {
        if tx.send(message).is_err() {
            // The iterator is gone: stop the batch.
            stop.store(true, Ordering::Relaxed);
        }
    };
    // Columns not being filled: at most one per worker.
    let spare: Mutex<Vec<PageColumns>> = Mutex::new(Vec::new());
    let result = batch::for_each(
        sources.into_iter().map(batch::Source::Path),
        &options,
        |document| {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let mut page = page(&document, &want, base.as_ref());
            let Some((rows, bytes)) = limits else {
                send(Message::Page(Box::new(page)));
                return;
            };
            page.links.retain(|link| form.keeps(link));
            let taken = spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut columns = taken.unwrap_or_else(|| want.columns());
            columns.push(&page, want.links, want.text);
            if columns.rows() >= rows || columns.bytes() >= bytes {
                send(Message::Batch(columns.finish()));
            }
            spare
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(columns);
        },
    );
    for mut columns in spare.into_inner().unwrap_or_else(|e| e.into_inner()) {
        if columns.rows() > 0 {
            send(Message::Batch(columns.finish()));
        }
    }
    let failures = result
        .failures
        .iter()
        .map(|f| (f.source.clone(), f.offset, f.kind.to_string()))
        .collect();
    let counts = Counts {
        failures: result.failures_by_reason(),
        skipped: result.skipped,
        recovered: result.recovered,
        passed_over: result.passed_over,
    };
    let _ = tx.send(Message::Done {
        failures,
        ignored: result.ignored,
        counts,
    });
}

/// `process(inputs, options=None, *, output="dicts", **keywords)`: many files, folders and
/// WARC/ARC files read in parallel in Rust (the GIL released), one page per document.
///
/// `inputs` is one path or an iterable of paths (`str` or `os.PathLike`): HTML files (any
/// name), `.warc`/`.warc.gz`/`.warc.zst`/`.warc.lz4` and ARC (`.arc`/`.arc.gz`) files
/// (every HTML `response`/`resource` record is a document; `all_records=True` takes the
/// others too) and directories, walked recursively for `.html`, `.htm`, `.xhtml`, `.xht`,
/// `.shtml` and archive files (every file with `all_files=True`). What a file is comes
/// from its first bytes, as in every htmltok front: a UTF-16 page with its byte order
/// mark is HTML, an archive under any name is read as one, binary data is listed in
/// `errors`, as is a path that does not exist (one missing file does not stop the run).
///
/// `options` is an `htmltok.ProcessOptions`; or give its keywords here instead (not both,
/// as with `pyarrow.compute`'s `options=`): `links`, `text`, `threads` (0: one per core;
/// documents come in no fixed order, with `threads=1` in the order of the paths),
/// `base`, `data_urls`, `link_urls`, `all_files`, `all_records`, `fields`, `main_text`,
/// `main_markdown`, `metadata`, `batch_rows`, `batch_bytes` (see `ProcessOptions`).
///
/// `output` chooses what the returned `Pages` iterator yields:
///
/// - `"dicts"` (default): one dict per document — `warc_filename` (the file; for a
///   record, the WARC file), `warc_record_offset`, `warc_record_length` (the record's
///   gzip member, zstd or LZ4 frame; None for an HTML file), `warc_record_id`, `url`,
///   `fetch_time` (the WARC-Date as written), `fetch_status` (int), `content_mime_type`
///   (lowercase, without parameters) — named as Common Crawl's columnar index names them
///   —, `encoding`, `encoding_rule` (as `Document`), `title`, `links` (link dicts as
///   `Document.links()`, or their URLs with `link_urls=True`; None with `links=False`),
///   `text` (as `Document.text()`; None with `text=False`); then one list of strings per
///   field of `fields` (as `htmltok.extract`), with `main_text=True` `main_text`,
///   `main_kind` and `main_confidence` (as `Tree.article()`), with `main_markdown=True`
///   `main_markdown` (as `Tree.main_text(format="markdown")`), with `metadata=True` the
///   `htmltok.METADATA_COLUMNS` (as `htmltok extract --metadata` writes them).
/// - `"ipc"`: record batches of up to `batch_rows` pages (fewer when their strings reach
///   `batch_bytes`), each an Arrow IPC stream (`bytes`) that `pyarrow.ipc.open_stream`,
///   polars or DuckDB read without a copy; the columns of `htmltok.spark.SCHEMA` (the same
///   names; `links` the URLs, `fetch_status` int32, `main_confidence` float32, the
///   metadata typed: structs, lists of structs), then the fields'.
/// - `"capsules"`: the same batches as `ArrowBatch` objects of the Arrow PyCapsule
///   interface (`__arrow_c_array__`), which pyarrow, polars, DuckDB or nanoarrow take over
///   without a copy and without encoding.
/// - `"pyarrow"`: the same batches as `pyarrow.RecordBatch` objects (needs pyarrow).
///
/// The batches are built in Rust on the worker threads: no Python object per page or per
/// link. The run goes on in the background while the iterator is consumed. Documents that
/// cannot be read are never raised: they are listed in the iterator's `errors`, and its
/// `counts` gives what the run counted by reason, once the iteration has ended. Dropping
/// the iterator, or calling its `close()`, stops the run. TypeError for arguments of the
/// wrong type or unknown keywords, ValueError for bad values (before the run starts).
#[pyfunction]
// `inputs` is optional only for the deprecated `paths=` keyword: the signature shown is
// the one to use.
#[pyo3(signature = (inputs = None, options = None, *args, output = "dicts", **kwargs))]
#[pyo3(text_signature = "(inputs, options=None, *args, output='dicts', **kwargs)")]
fn process<'py>(
    py: Python<'py>,
    inputs: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyAny>>,
    args: &Bound<'py, PyTuple>,
    output: &str,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Pages> {
    let kwargs = match kwargs {
        Some(kwargs) => kwargs.copy()?,
        None => PyDict::new(py),
    };
    let inputs = match (inputs, kwargs.get_item("paths")?) {
        (Some(_), Some(_)) => {
            return Err(PyTypeError::new_err(
                "process() got multiple values for its inputs (inputs and paths)",
            ));
        }
        (Some(inputs), None) => inputs.clone(),
        (None, Some(paths)) => {
            kwargs.del_item("paths")?;
            deprecated(
                py,
                c"htmltok.process(paths=...) is deprecated: pass the paths first, positionally \
                  (the argument is named inputs)",
            )?;
            paths
        }
        (None, None) => {
            return Err(PyTypeError::new_err(
                "process() missing 1 required positional argument: 'inputs'",
            ));
        }
    };
    let options = legacy_positional(py, options, args, &kwargs)?;
    let options: Bound<'py, ProcessOptions> = match options {
        Some(options) => {
            if !kwargs.is_empty() {
                let names: Vec<String> = kwargs.keys().iter().map(|k| k.to_string()).collect();
                return Err(PyTypeError::new_err(format!(
                    "process() got both options and keyword options ({}): give one or the other \
                     (options.replace({}=...) makes a changed copy)",
                    names.join(", "),
                    names[0]
                )));
            }
            options.cast::<ProcessOptions>().cloned().map_err(|_| {
                PyTypeError::new_err(format!(
                    "process(): options must be an htmltok.ProcessOptions or None, not {}",
                    type_name(&options)
                ))
            })?
        }
        None => {
            check_names("process", &kwargs)?;
            py.get_type::<ProcessOptions>()
                .call((), Some(&kwargs))?
                .cast_into::<ProcessOptions>()?
        }
    };
    let (output, record_batch) = match output {
        "dicts" => (Output::Dicts, None),
        "ipc" => (Output::Ipc, None),
        "capsules" => (Output::Capsules, None),
        "pyarrow" => {
            let pyarrow = py.import("pyarrow").map_err(|err| {
                let new = PyImportError::new_err(
                    "htmltok.process(output='pyarrow') needs pyarrow (pip install pyarrow); \
                     output='ipc' gives the same batches as Arrow IPC bytes, \
                     output='capsules' as Arrow PyCapsule objects",
                );
                new.set_cause(py, Some(err));
                new
            })?;
            (
                Output::PyArrow,
                Some(pyarrow.getattr("record_batch")?.unbind()),
            )
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "process(): output must be 'dicts', 'ipc', 'capsules' or 'pyarrow', not {}",
                PyString::new(py, other).repr()?
            )));
        }
    };
    let run = options.get().run(output != Output::Dicts);
    start(&inputs, run, output, record_batch)
}

/// The options of the old positional form `process(paths, links, text, threads)` (a
/// bool where the options go) put into `kwargs`, with a DeprecationWarning; else
/// `options` (None for None), TypeError for more positional arguments.
fn legacy_positional<'py>(
    py: Python<'py>,
    options: Option<&Bound<'py, PyAny>>,
    args: &Bound<'py, PyTuple>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let options = options.filter(|o| !o.is_none());
    let legacy = options.is_some_and(|o| o.is_instance_of::<PyBool>());
    if !legacy {
        if !args.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "process() takes from 1 to 2 positional arguments (inputs, options) but {} were given",
                2 + args.len()
            )));
        }
        return Ok(options.cloned());
    }
    let values: Vec<Bound<'py, PyAny>> = options.into_iter().cloned().chain(args.iter()).collect();
    if values.len() > 3 {
        return Err(PyTypeError::new_err(format!(
            "process() takes at most 4 positional arguments (paths, links, text, threads) but {} were given",
            1 + values.len()
        )));
    }
    for (name, value) in ["links", "text", "threads"].into_iter().zip(values) {
        if kwargs.contains(name)? {
            return Err(PyTypeError::new_err(format!(
                "process() got multiple values for argument '{name}'"
            )));
        }
        kwargs.set_item(name, value)?;
    }
    deprecated(
        py,
        c"htmltok.process(paths, links, text, threads) with positional options is deprecated: \
          pass them as keywords (links=..., text=..., threads=...) or as an htmltok.ProcessOptions",
    )?;
    Ok(None)
}

/// What a `Pages` iterator yields.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    /// One dict per page.
    Dicts,
    /// Record batches as Arrow IPC streams (`bytes`).
    Ipc,
    /// The same batches as [`ArrowBatch`] objects (the Arrow PyCapsule interface).
    Capsules,
    /// The same batches as `pyarrow.RecordBatch` objects.
    PyArrow,
}

/// Starts the batch thread for `inputs`; `record_batch` is `pyarrow.record_batch` for
/// [`Output::PyArrow`].
fn start(
    inputs: &Bound<'_, PyAny>,
    run_options: RunOptions,
    output: Output,
    record_batch: Option<Py<PyAny>>,
) -> PyResult<Pages> {
    let RunOptions {
        want,
        threads,
        all_files,
        all_records,
        base,
        form,
        batch_rows,
        batch_bytes,
    } = run_options;
    let sources: Vec<PathBuf> =
        if inputs.is_instance_of::<PyString>() || inputs.hasattr("__fspath__")? {
            vec![path_arg(inputs, "process")?]
        } else {
            let iter = inputs.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "process: expected a path or an iterable of paths, not {}",
                    type_name(inputs)
                ))
            })?;
            iter.map(|p| path_arg(&p?, "process"))
                .collect::<PyResult<_>>()?
        };
    let stop = Arc::new(AtomicBool::new(false));
    let tree = want.parser();
    let options = batch::Options::new()
        .threads(threads)
        .all_files(all_files)
        .all_records(all_records)
        .tree(tree)
        .stop_flag(stop.clone());
    let limits = (output != Output::Dicts).then_some((batch_rows, batch_bytes));
    let (tx, rx) = sync_channel(match output {
        Output::Dicts => CHANNEL,
        _ => BATCH_CHANNEL,
    });
    let batch_stop = stop.clone();
    let batch_form = form.clone();
    let batch_want = want.clone();
    std::thread::Builder::new()
        .name("htmltok-process".to_string())
        .spawn(move || {
            run(
                sources, options, batch_want, base, tx, batch_stop, limits, batch_form,
            )
        })?;
    Ok(Pages {
        rx: Mutex::new(Some(rx)),
        stop,
        columns: Mutex::new(want.columns()),
        want,
        form,
        output,
        limits: (batch_rows, batch_bytes),
        record_batch,
        errors: Mutex::new(Vec::new()),
        documents: AtomicU64::new(0),
        ignored: AtomicU64::new(0),
        counts: Mutex::new(None),
    })
}

/// The iterator `process` returns: one dict per document, or one record batch of pages
/// (IPC bytes, `ArrowBatch`, `pyarrow.RecordBatch`, as `output` says), as the run
/// produces them.
///
/// `errors` lists the documents that could not be read, as `(file, offset, reason)`
/// (offset None for a file), complete once the iteration has ended; `documents` counts
/// the pages yielded (not the batches), `ignored` the archive records left out as not documents, `counts`
/// all of these by reason (once the iteration has ended). `close()` (or dropping the
/// iterator) stops the run.
#[pyclass(frozen, module = "htmltok", name = "Pages")]
pub(crate) struct Pages {
    rx: Mutex<Option<Receiver<Message>>>,
    stop: Arc<AtomicBool>,
    want: Want,
    form: LinkForm,
    output: Output,
    /// The Arrow outputs' batch size: at most so many rows, or a batch ends once its
    /// strings reach so many bytes.
    limits: (usize, usize),
    /// `pyarrow.record_batch`, for [`Output::PyArrow`].
    record_batch: Option<Py<PyAny>>,
    /// The pages of the next batch (the Arrow outputs).
    columns: Mutex<PageColumns>,
    errors: Mutex<Vec<(String, Option<u64>, String)>>,
    documents: AtomicU64,
    ignored: AtomicU64,
    /// The run's counts by reason, once it is over.
    counts: Mutex<Option<Counts>>,
}

impl Pages {
    fn dict<'py>(&self, py: Python<'py>, page: &Page) -> PyResult<Bound<'py, PyDict>> {
        // Interned keys: made once, hashed once.
        let dict = PyDict::new(py);
        dict.set_item(intern!(py, "warc_filename"), &page.source)?;
        dict.set_item(intern!(py, "warc_record_offset"), page.offset)?;
        dict.set_item(intern!(py, "warc_record_length"), page.length)?;
        dict.set_item(intern!(py, "warc_record_id"), &page.warc_record_id)?;
        dict.set_item(intern!(py, "url"), &page.url)?;
        dict.set_item(intern!(py, "fetch_time"), &page.fetch_time)?;
        dict.set_item(intern!(py, "fetch_status"), page.fetch_status)?;
        dict.set_item(intern!(py, "content_mime_type"), &page.content_mime_type)?;
        dict.set_item(
            intern!(py, "encoding"),
            page.encoding.map(|e| encoding_str(py, e)),
        )?;
        dict.set_item(intern!(py, "encoding_rule"), page.rule.map(|r| r.as_str()))?;
        dict.set_item(intern!(py, "title"), &page.title)?;
        if self.want.links {
            dict.set_item(
                intern!(py, "links"),
                links_list(py, &page.links, &self.form)?,
            )?;
        } else {
            dict.set_item(intern!(py, "links"), py.None())?;
        }
        if self.want.text {
            dict.set_item(intern!(py, "text"), &page.text)?;
        } else {
            dict.set_item(intern!(py, "text"), py.None())?;
        }
        for (field, values) in self.want.fields.fields().iter().zip(&page.fields) {
            dict.set_item(&field.name, values)?;
        }
        if self.want.tree.main_text {
            dict.set_item(intern!(py, "main_text"), &page.main_text)?;
            dict.set_item(intern!(py, "main_kind"), page.main_kind.map(|k| k.as_str()))?;
            dict.set_item(intern!(py, "main_confidence"), page.main_confidence)?;
        }
        if self.want.tree.main_markdown {
            dict.set_item(intern!(py, "main_markdown"), &page.main_markdown)?;
        }
        if self.want.tree.metadata {
            crate::content::metadata_columns(py, &dict, page.metadata.as_deref())?;
        }
        Ok(dict)
    }
}

#[pymethods]
impl Pages {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.output == Output::Dicts {
            return Ok(self.next_dict(py)?.map(Bound::into_any));
        }
        let (rows, bytes) = self.limits;
        let Some(batch) = self.next_batch(py, rows, bytes)? else {
            return Ok(None);
        };
        match (self.output, &self.record_batch) {
            (Output::Ipc, _) => Ok(Some(self.encode(py, batch)?.into_any())),
            (Output::PyArrow, Some(record_batch)) => {
                let capsules = Bound::new(py, ArrowBatch { batch })?;
                Ok(Some(record_batch.bind(py).call1((capsules,))?))
            }
            _ => Ok(Some(Bound::new(py, ArrowBatch { batch })?.into_any())),
        }
    }

    /// `Pages[bytes]` and the like in annotations (the class is generic in the stubs).
    #[classmethod]
    fn __class_getitem__<'py>(
        cls: &Bound<'py, pyo3::types::PyType>,
        item: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        py.import("types")?
            .getattr("GenericAlias")?
            .call1((cls, item))
    }

    /// The documents that could not be read, as `(file, offset, reason)` tuples.
    #[getter]
    fn errors(&self) -> Vec<(String, Option<u64>, String)> {
        self.errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// How many documents have been yielded.
    #[getter]
    fn documents(&self) -> u64 {
        self.documents.load(Ordering::Relaxed)
    }

    /// How many archive records were left out as not documents (known once the
    /// iteration ended): the sum of `counts["skipped"]`.
    #[getter]
    fn ignored(&self) -> u64 {
        self.ignored.load(Ordering::Relaxed)
    }

    /// The run's counts by reason, once the iteration has ended (None before, and after a
    /// run stopped early): `{"skipped": {...}, "recovered": {...}, "failures": {...},
    /// "passed_over": {...}}`,
    /// each a dict of reason to count — archive records that are not documents
    /// (`request`, `revisit`, `not-html`, `warcinfo`, ...), documents read with a note
    /// (`coding-not-applied`, `record-cut-off`, `warc-truncated`, ...; a document may count
    /// under several), inputs that could not be read, the entries of `errors`
    /// (`bad-gzip-member`, `unreadable`, ...), files a folder walk passed over
    /// (`not-html-name`, `hidden`, `directory-link`). Reasons that did not occur are left
    /// out.
    #[getter]
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let counts = self
            .counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let Some(counts) = counts else {
            return Ok(None);
        };
        let out = PyDict::new(py);
        for (name, map) in [
            ("skipped", &counts.skipped),
            ("recovered", &counts.recovered),
            ("failures", &counts.failures),
            ("passed_over", &counts.passed_over),
        ] {
            let group = PyDict::new(py);
            for (reason, n) in map {
                group.set_item(*reason, *n)?;
            }
            out.set_item(name, group)?;
        }
        Ok(Some(out))
    }

    /// Stops the run: no further document is started, and the iteration ends.
    fn close(&self) {
        self.finish();
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.finish();
    }
}

impl Pages {
    fn next_dict<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        loop {
            let received = py.detach(|| {
                let rx = self.rx.lock().unwrap_or_else(|e| e.into_inner());
                rx.as_ref()
                    .map(|rx| rx.recv_timeout(Duration::from_millis(100)))
            });
            let message = match received {
                None => return Ok(None),
                Some(Ok(message)) => message,
                Some(Err(RecvTimeoutError::Timeout)) => {
                    // Let Ctrl-C (KeyboardInterrupt) through while waiting.
                    py.check_signals()?;
                    continue;
                }
                Some(Err(RecvTimeoutError::Disconnected)) => {
                    self.errors.lock().unwrap_or_else(|e| e.into_inner()).push((
                        String::new(),
                        None,
                        "the batch thread ended unexpectedly".to_string(),
                    ));
                    self.finish();
                    return Ok(None);
                }
            };
            match message {
                Message::Page(page) => {
                    self.documents.fetch_add(1, Ordering::Relaxed);
                    return self.dict(py, &page).map(Some);
                }
                // Only the Arrow outputs get batches.
                Message::Batch(_) => continue,
                Message::Done {
                    failures,
                    ignored,
                    counts,
                } => {
                    self.done(failures, ignored, counts);
                    self.finish();
                    return Ok(None);
                }
            }
        }
    }

    /// The next record batch of up to `rows` pages (or `bytes` of strings): pages are
    /// received and added to the columns with the GIL released.
    fn next_batch(
        &self,
        py: Python<'_>,
        rows: usize,
        bytes: usize,
    ) -> PyResult<Option<RecordBatch>> {
        enum Step {
            Full,
            Built(RecordBatch),
            Over,
            Waiting,
        }
        loop {
            let step = py.detach(|| {
                let rx = self.rx.lock().unwrap_or_else(|e| e.into_inner());
                let Some(rx) = rx.as_ref() else {
                    return Step::Over;
                };
                let mut columns = self.columns.lock().unwrap_or_else(|e| e.into_inner());
                // Back to the interpreter every 100 ms, for Ctrl-C.
                let deadline = Instant::now() + Duration::from_millis(100);
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match rx.recv_timeout(left) {
                        Ok(Message::Batch(batch)) => {
                            self.documents
                                .fetch_add(batch.num_rows() as u64, Ordering::Relaxed);
                            return Step::Built(batch);
                        }
                        Ok(Message::Page(mut page)) => {
                            page.links.retain(|link| self.form.keeps(link));
                            columns.push(&page, self.want.links, self.want.text);
                            self.documents.fetch_add(1, Ordering::Relaxed);
                            if columns.rows() >= rows || columns.bytes() >= bytes {
                                return Step::Full;
                            }
                        }
                        Ok(Message::Done {
                            failures,
                            ignored,
                            counts,
                        }) => {
                            self.done(failures, ignored, counts);
                            return Step::Over;
                        }
                        Err(RecvTimeoutError::Timeout) => return Step::Waiting,
                        Err(RecvTimeoutError::Disconnected) => {
                            self.errors.lock().unwrap_or_else(|e| e.into_inner()).push((
                                String::new(),
                                None,
                                "the batch thread ended unexpectedly".to_string(),
                            ));
                            return Step::Over;
                        }
                    }
                }
            });
            let finish = || {
                py.detach(|| {
                    self.columns
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .finish()
                })
            };
            match step {
                Step::Waiting => py.check_signals()?,
                Step::Full => return Ok(Some(finish())),
                Step::Built(batch) => return Ok(Some(batch)),
                Step::Over => {
                    self.finish();
                    let pending = self
                        .columns
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .rows();
                    return Ok((pending > 0).then(finish));
                }
            }
        }
    }

    /// `batch` as one Arrow IPC stream (encoded with the GIL released).
    fn encode<'py>(&self, py: Python<'py>, batch: RecordBatch) -> PyResult<Bound<'py, PyBytes>> {
        let encoded = py.detach(|| {
            let mut out = Vec::with_capacity(batch.get_array_memory_size() + 4096);
            arrow_ipc::writer::StreamWriter::try_new(&mut out, &batch.schema())
                .and_then(|mut writer| {
                    writer.write(&batch)?;
                    writer.finish()
                })
                .map(|()| out)
        });
        let encoded = encoded.map_err(|err| {
            PyValueError::new_err(format!("cannot encode an Arrow record batch: {err}"))
        })?;
        Ok(PyBytes::new(py, &encoded))
    }

    /// Keeps what the run's last message says.
    fn done(&self, failures: Vec<(String, Option<u64>, String)>, ignored: u64, counts: Counts) {
        self.errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(failures);
        self.ignored.store(ignored, Ordering::Relaxed);
        *self.counts.lock().unwrap_or_else(|e| e.into_inner()) = Some(counts);
    }

    /// Stops the batch and drops the receiver (waking workers blocked on sending).
    fn finish(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.rx.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
