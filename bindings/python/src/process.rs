//! `process`: many files, folders and WARC files tokenized in parallel by
//! `htmltok_crawl::batch`, one `extract::Page` per document, handed to Python as dicts.
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

use arrow_array::{Array, RecordBatch, StructArray};
use htmltok_crawl::batch::{self, Document};
use htmltok_crawl::extract::columns::PageColumns;
use htmltok_crawl::extract::{Page, TreeColumns};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict, PyString};
use url::Url;

use crate::document::{LinkForm, links_list, parse_base};
use crate::path_arg;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(process, m)?)?;
    m.add_function(wrap_pyfunction!(process_ipc, m)?)?;
    m.add_function(wrap_pyfunction!(process_batches, m)?)?;
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
    /// ([`Output::Ipc`], [`Output::Capsules`]).
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

/// What to extract (also `extract_batch`'s, in `batch.rs`).
#[derive(Clone)]
pub(crate) struct Want {
    pub(crate) links: bool,
    pub(crate) text: bool,
    /// The `fields` argument, compiled (empty: none).
    pub(crate) fields: Arc<htmltok_select::Fields>,
    /// The `main_text`, `main_markdown` and `metadata` arguments: the columns read from
    /// the tree
    /// (opt-in: building the tree costs about three times the tokenizer's pass).
    pub(crate) tree: TreeColumns,
}

impl Want {
    /// The field names, for the columns and the dicts.
    pub(crate) fn field_names(&self) -> Vec<&str> {
        self.fields
            .fields()
            .iter()
            .map(|f| f.name.as_str())
            .collect()
    }

    /// Empty columns for the pages (the page's and the fields').
    pub(crate) fn columns(&self) -> PageColumns {
        PageColumns::with(&self.field_names(), self.tree)
    }

    /// The parser of the batch's trees: one is parsed for the fields and the tree's
    /// columns, as the page is decoded, so that the tree builder decides the encoding's
    /// late `<meta>` (`batch::Options::tree`); None when nothing reads a tree.
    pub(crate) fn parser(&self) -> Option<htmltok_tree::Parser> {
        (!self.fields.is_empty() || self.tree.any()).then(htmltok_tree::Parser::new)
    }
}

/// Compiles the `fields` argument (a dict of names to selectors, or a `Fields`), refusing
/// names of the page's columns and of the tree's columns asked for; ValueError for a
/// selector that does not parse.
pub(crate) fn compile_fields(
    fields: Option<&Bound<'_, PyAny>>,
    tree: TreeColumns,
) -> PyResult<Arc<htmltok_select::Fields>> {
    let Some(fields) = fields.filter(|f| !f.is_none()) else {
        return Ok(Arc::default());
    };
    let compiled = match fields.cast::<crate::select::Fields>() {
        Ok(f) => f.get().inner.clone(),
        Err(_) => crate::select::compile(fields)?,
    };
    htmltok_crawl::extract::check_column_names(&compiled, tree).map_err(PyValueError::new_err)?;
    Ok(Arc::new(compiled))
}

/// The page of one document: [`Page::of`] when links are wanted, else
/// [`Page::without_links`] (no link resolution). The title is always there.
pub(crate) fn page(document: &Document<'_>, want: &Want, base: Option<&Url>) -> Page {
    let mut page = if want.links {
        Page::of(document, base)
    } else {
        Page::without_links(document)
    };
    if !want.text {
        page.text = String::new();
    }
    page.with_tree_columns(document, base, &want.fields, want.tree)
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
    output: Output,
    form: LinkForm,
) {
    let send = |message: Message| {
        if tx.send(message).is_err() {
            // The iterator is gone: stop the batch.
            stop.store(true, Ordering::Relaxed);
        }
    };
    let limits = match output {
        Output::Dicts => None,
        Output::Ipc { rows, bytes } | Output::Capsules { rows, bytes } => Some((rows, bytes)),
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

/// Tokenizes many documents in parallel in Rust and yields one dict per document — the
/// columns Common Crawl's index joins on, and what was extracted:
///
/// - `warc_filename`: the file (for a WARC record, the WARC file);
/// - `warc_record_offset`, `warc_record_length`: the record's place in the WARC file (its
///   gzip member in a `.warc.gz`, zstd or LZ4 frame in a `.warc.zst`, `.warc.lz4`); None for an HTML file;
/// - `warc_record_id`: the record's WARC-Record-ID (None for an HTML file, an ARC record);
/// - `url`: the record's target URI (None for an HTML file);
/// - `fetch_time`: the record's WARC-Date as written (`2024-02-29T12:00:00Z`; an ARC
///   record's date in that form); `fetch_status`: the HTTP status (`int`);
///   `content_mime_type`: the MIME type of the HTTP Content-Type (else the record's),
///   lowercase, without parameters (all three None for an HTML file) — named, with the
///   four above, as Common Crawl's columnar index names its columns;
/// - `encoding`, `encoding_rule`: how the page was decoded (see `Document`);
/// - `title`; `links`: a list of link dicts as `Document.links()` gives them, or with
///   `link_urls=True` a list of their resolved URLs (`str`), the column the Spark job and
///   `htmltok extract` write, and much cheaper: no dict per link (None with `links=False`);
///   `text`: the visible text as `Document.text()` (None with `text=False`);
/// - with `fields` (a dict of names to CSS selectors, or an `htmltok.Fields`), one more key
///   per field: the list of strings its selector gives on the page's tree, as
///   `htmltok.extract` gives it (the tree is built only when fields are given). A name may
///   not be one of the keys above; a selector that does not parse raises ValueError
///   before the run starts.
/// - with `main_text=True`, three more keys: `main_text`, the page's main text (as
///   `Tree.main_text()` gives it; the tree is built for it, about 1.4x the parse with
///   it, so it is opt-in), `main_kind` (str: the page kind, as `Tree.article()`'s
///   `kind`) and `main_confidence` (float in [0, 1], its `confidence`).
///   `process_ipc`/`process_arrow` add them as columns: `main_text` and `main_kind`
///   strings, `main_confidence` a float32.
/// - with `main_markdown=True`, the key `main_markdown`: the main text as GitHub-flavoured
///   Markdown (as `Tree.main_text(format="markdown")` gives it, links resolved against
///   the page's URL, else `base`; with `main_text=True`, both from one extraction), a
///   string column for `process_ipc`/`process_arrow`.
/// - with `metadata=True`, the metadata columns `htmltok.METADATA_COLUMNS` (as
///   `htmltok extract --metadata` writes them; the tree is built for them):
///   `canonical` (str), `robots` and `googlebot` (a dict of the directives: the flags as
///   bools, `max_snippet`/`max_video_preview` int, `max_image_preview` str,
///   `unavailable_after` str, `other` a list; None without such a tag), `description`,
///   `open_graph` and `twitter` (lists of `{'name', 'content'}`), `lang`,
///   `content_language`, `hreflang` (a list of `{'hreflang', 'url'}`), `refresh`
///   (`{'delay', 'url'}` or None), `json_ld` (the blocks as written), `qualified_links` (a
///   list of `{'url', 'nofollow', 'ugc', 'sponsored'}`); URLs resolved against the
///   page's URL and `<base href>` (else `base`), None where they do not resolve.
///   `process_ipc`/`process_arrow` add them as typed columns (structs, lists of structs).
///
/// `paths` is one path or an iterable of paths (`str` or `os.PathLike`): HTML files (any
/// name), `.warc`/`.warc.gz`/`.warc.zst`/`.warc.lz4` and ARC (`.arc`/`.arc.gz`) files (every HTML `response`/`resource` record is a document;
/// `all_records=True` takes the others too) and directories, walked recursively for
/// `.html`, `.htm`, `.xhtml`, `.xht`, `.shtml` and archive (`.warc`, `.warc.gz`, `.warc.zst`,
/// `.warc.lz4`, `.arc`, `.arc.gz`) files (every file with
/// `all_files=True`). What a file is comes from its first bytes, as in every htmltok
/// front (`htmltok_crawl::sniff`): a UTF-16 page with its byte order mark is HTML, an
/// archive under any name is read as one, binary data is listed in `errors`. A path that
/// does not exist is listed in `errors` too (as the `htmltok` CLI skips it), so one
/// missing file does not stop the run over the others.
///
/// `threads` is the number of worker threads (0: one per core). Documents come in no
/// fixed order (with `threads=1`, in the order of the paths). `base` is the URL to
/// resolve the links of documents without a URL of their own against.
///
/// The run goes on in the background, with the GIL released, while the returned `Pages`
/// iterator is consumed (at most 256 pages wait for it). Documents that cannot be read are
/// never raised: they are listed in the iterator's `errors` as `(file, offset, reason)`,
/// complete once the iteration has ended; its `counts` then gives what the run counted by
/// reason (archive records that are not documents, documents read with a note, inputs
/// that could not be read). Dropping the iterator, or calling its `close()`, stops the
/// run.
#[pyfunction]
#[pyo3(signature = (paths, links = true, text = true, threads = 0, *, base = None, data_urls = false, link_urls = false, all_files = false, all_records = false, fields = None, main_text = false, main_markdown = false, metadata = false))]
#[allow(clippy::too_many_arguments)]
fn process(
    paths: &Bound<'_, PyAny>,
    links: bool,
    text: bool,
    threads: usize,
    base: Option<&str>,
    data_urls: bool,
    link_urls: bool,
    all_files: bool,
    all_records: bool,
    fields: Option<&Bound<'_, PyAny>>,
    main_text: bool,
    main_markdown: bool,
    metadata: bool,
) -> PyResult<Pages> {
    let tree = TreeColumns {
        main_text,
        main_markdown,
        metadata,
    };
    let run = Run {
        want: Want {
            links,
            text,
            fields: compile_fields(fields, tree)?,
            tree,
        },
        threads,
        all_files,
        all_records,
        form: LinkForm {
            data_urls,
            urls: link_urls,
            ..LinkForm::default()
        },
    };
    start(paths, base, run, Output::Dicts)
}

/// Like `process`, but yields the pages in record batches, each an Arrow IPC stream
/// (`bytes`: the schema, one record batch, the end marker) that `pyarrow.ipc.open_stream`
/// (or polars, DuckDB, ...) reads without a copy. The columns are those of
/// `htmltok.spark.SCHEMA` and of `htmltok extract --format parquet`: `warc_filename`,
/// `warc_record_offset`, `warc_record_length`, `warc_record_id`, `url`, `fetch_time`,
/// `fetch_status` (int32), `content_mime_type`, `encoding`, `encoding_rule`, `title`,
/// `links` (the resolved URLs; null with `links=False`), `text` (null with `text=False`),
/// then one list-of-strings column per field of `fields` (as for `process`), then with
/// `main_text=True` the `main_text` and `main_kind` string columns and a float32
/// `main_confidence`, with `main_markdown=True` the `main_markdown` string column, and
/// with `metadata=True` the metadata
/// columns (`htmltok.METADATA_COLUMNS`: strings, structs and lists of structs).
///
/// A batch holds `batch_rows` pages, or fewer when their strings reach `batch_bytes`
/// (default 4 MiB; and the last one). Batches stay well under glibc's largest heap block
/// (32 MiB): a bigger buffer is always a fresh `mmap`, every page of it a page fault
/// (measured: 32 MiB batches spent 13% of the run in the kernel, 4 MiB ones 3%). The batches are built and encoded in Rust with the GIL released:
/// no Python object per page or per link. `htmltok.process_arrow` gives them as
/// `pyarrow.RecordBatch` objects. The other arguments, `errors`, `documents` (pages, not
/// batches), `ignored`, `counts` and `close()` are as for `process`.
#[pyfunction]
#[pyo3(signature = (paths, links = true, text = true, threads = 0, *, base = None, data_urls = false, all_files = false, all_records = false, batch_rows = 1024, batch_bytes = 4 << 20, fields = None, main_text = false, main_markdown = false, metadata = false))]
#[allow(clippy::too_many_arguments)]
fn process_ipc(
    paths: &Bound<'_, PyAny>,
    links: bool,
    text: bool,
    threads: usize,
    base: Option<&str>,
    data_urls: bool,
    all_files: bool,
    all_records: bool,
    batch_rows: usize,
    batch_bytes: usize,
    fields: Option<&Bound<'_, PyAny>>,
    main_text: bool,
    main_markdown: bool,
    metadata: bool,
) -> PyResult<Pages> {
    let tree = TreeColumns {
        main_text,
        main_markdown,
        metadata,
    };
    let run = Run {
        want: Want {
            links,
            text,
            fields: compile_fields(fields, tree)?,
            tree,
        },
        threads,
        all_files,
        all_records,
        form: LinkForm {
            data_urls,
            urls: true,
            ..LinkForm::default()
        },
    };
    let (rows, bytes) = batch_limits("process_ipc", batch_rows, batch_bytes)?;
    start(paths, base, run, Output::Ipc { rows, bytes })
}

/// Like `process_ipc`, but yields each record batch as an `ArrowBatch`: an object of the
/// Arrow PyCapsule interface (`__arrow_c_array__`), which `pyarrow.record_batch(b)` (or
/// polars, DuckDB, nanoarrow) takes over without a copy and without encoding: the
/// columns built in Rust are handed over as they are. `htmltok.process_arrow` uses it.
#[pyfunction]
#[pyo3(signature = (paths, links = true, text = true, threads = 0, *, base = None, data_urls = false, all_files = false, all_records = false, batch_rows = 1024, batch_bytes = 4 << 20, fields = None, main_text = false, main_markdown = false, metadata = false))]
#[allow(clippy::too_many_arguments)]
fn process_batches(
    paths: &Bound<'_, PyAny>,
    links: bool,
    text: bool,
    threads: usize,
    base: Option<&str>,
    data_urls: bool,
    all_files: bool,
    all_records: bool,
    batch_rows: usize,
    batch_bytes: usize,
    fields: Option<&Bound<'_, PyAny>>,
    main_text: bool,
    main_markdown: bool,
    metadata: bool,
) -> PyResult<Pages> {
    let tree = TreeColumns {
        main_text,
        main_markdown,
        metadata,
    };
    let run = Run {
        want: Want {
            links,
            text,
            fields: compile_fields(fields, tree)?,
            tree,
        },
        threads,
        all_files,
        all_records,
        form: LinkForm {
            data_urls,
            urls: true,
            ..LinkForm::default()
        },
    };
    let (rows, bytes) = batch_limits("process_batches", batch_rows, batch_bytes)?;
    start(paths, base, run, Output::Capsules { rows, bytes })
}

/// Checks the batch size arguments of `function`.
fn batch_limits(function: &str, rows: usize, bytes: usize) -> PyResult<(usize, usize)> {
    if rows == 0 {
        return Err(PyValueError::new_err(format!(
            "{function}: batch_rows must be at least 1"
        )));
    }
    Ok((rows, bytes))
}

/// One record batch of `process_batches`, for any Arrow library to take over through
/// the Arrow PyCapsule interface (`pyarrow.record_batch(batch)`); the columns are those
/// of `htmltok.spark.SCHEMA`.
#[pyclass(frozen, module = "htmltok", name = "ArrowBatch")]
pub(crate) struct ArrowBatch {
    pub(crate) batch: RecordBatch,
}

#[pymethods]
impl ArrowBatch {
    /// How many pages (rows) the batch holds.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// The Arrow PyCapsule interface: the batch as a struct array, in two capsules
    /// (`arrow_schema`, `arrow_array`) of the Arrow C data interface. Each call exports
    /// the same columns again (they are shared, not copied). A `requested_schema` is not
    /// needed: the batch has one schema, which the consumer gets as it is.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let data = StructArray::from(self.batch.clone()).into_data();
        let (array, schema) = arrow_array::ffi::to_ffi(&data).map_err(|err| {
            PyValueError::new_err(format!("cannot export an Arrow record batch: {err}"))
        })?;
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        Ok((schema, array))
    }
}

/// The options of a run.
struct Run {
    want: Want,
    threads: usize,
    all_files: bool,
    all_records: bool,
    form: LinkForm,
}

/// What a `Pages` iterator yields.
#[derive(Clone, Copy)]
enum Output {
    /// One dict per page.
    Dicts,
    /// Arrow IPC streams of up to `rows` pages or `bytes` of strings.
    Ipc { rows: usize, bytes: usize },
    /// The same batches as [`ArrowBatch`] objects (the Arrow PyCapsule interface).
    Capsules { rows: usize, bytes: usize },
}

/// Starts the batch thread for `paths`.
fn start(
    paths: &Bound<'_, PyAny>,
    base: Option<&str>,
    run_options: Run,
    output: Output,
) -> PyResult<Pages> {
    let Run {
        want,
        threads,
        all_files,
        all_records,
        form,
    } = run_options;
    let sources: Vec<PathBuf> =
        if paths.is_instance_of::<PyString>() || paths.hasattr("__fspath__")? {
            vec![path_arg(paths, "process")?]
        } else {
            let iter = paths.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "process: expected a path or an iterable of paths, not {}",
                    crate::type_name(paths)
                ))
            })?;
            iter.map(|p| path_arg(&p?, "process"))
                .collect::<PyResult<_>>()?
        };
    let base = parse_base(base)?;
    let stop = Arc::new(AtomicBool::new(false));
    let tree = want.parser();
    let options = batch::Options::new()
        .threads(threads)
        .all_files(all_files)
        .all_records(all_records)
        .tree(tree)
        .stop_flag(stop.clone());
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
                sources, options, batch_want, base, tx, batch_stop, output, batch_form,
            )
        })?;
    Ok(Pages {
        rx: Mutex::new(Some(rx)),
        stop,
        columns: Mutex::new(want.columns()),
        want,
        form,
        output,
        errors: Mutex::new(Vec::new()),
        documents: AtomicU64::new(0),
        ignored: AtomicU64::new(0),
        counts: Mutex::new(None),
    })
}

/// The iterator `process` returns: one dict per document, as the run produces them.
///
/// `errors` lists the documents that could not be read, as `(file, offset, reason)`
/// (offset None for a file), complete once the iteration has ended; `documents` counts
/// the dicts yielded, `ignored` the archive records left out as not documents, `counts`
/// all of these by reason (once the iteration has ended). `close()` (or dropping the
/// iterator) stops the run.
#[pyclass(frozen, module = "htmltok", name = "Pages")]
pub(crate) struct Pages {
    rx: Mutex<Option<Receiver<Message>>>,
    stop: Arc<AtomicBool>,
    want: Want,
    form: LinkForm,
    output: Output,
    /// The pages of the next batch (`Output::Ipc`).
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
        match self.output {
            Output::Dicts => Ok(self.next_dict(py)?.map(Bound::into_any)),
            Output::Ipc { rows, bytes } => match self.next_batch(py, rows, bytes)? {
                Some(batch) => Ok(Some(self.encode(py, batch)?.into_any())),
                None => Ok(None),
            },
            Output::Capsules { rows, bytes } => match self.next_batch(py, rows, bytes)? {
                Some(batch) => Ok(Some(Bound::new(py, ArrowBatch { batch })?.into_any())),
                None => Ok(None),
            },
        }
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
