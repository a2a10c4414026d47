//! `htmltok.warc.ArchiveIterator`: the records of a WARC or ARC file, read by
//! `htmltok_crawl::warc::Reader`.

use std::io::{self, Read};
use std::sync::Mutex;

use htmltok_crawl::warc::{self, Reader};
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::args::{path_arg, type_name};
use crate::document::Document;

pyo3::create_exception!(
    htmltok.warc,
    ArchiveError,
    PyValueError,
    "A source that is not a WARC or ARC file, or (with `strict=True`) damage in one: the \
     message names the file and, for damage, the offset."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ArchiveError", m.py().get_type::<ArchiveError>())?;
    m.add_class::<ArchiveIterator>()?;
    m.add_class::<WarcRecord>()?;
    Ok(())
}

/// The records of a file, from the sequential or the parallel reader.
type Records = Box<dyn Iterator<Item = Result<warc::Record, warc::Error>> + Send>;

/// A binary Python file object read through its `read(n)` method, the GIL taken for
/// each call (the reader runs with it released).
struct PyFile {
    file: Py<PyAny>,
    /// Bytes a `read(n)` returned beyond `n`.
    spare: Vec<u8>,
    /// The Python exception behind the last failed read, to raise as it is.
    error: Option<PyErr>,
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.spare.is_empty() {
            let chunk = Python::attach(|py| -> PyResult<Vec<u8>> {
                let chunk = self.file.bind(py).call_method1("read", (buf.len(),))?;
                match chunk.cast::<PyBytes>() {
                    Ok(bytes) => Ok(bytes.as_bytes().to_vec()),
                    Err(_) if chunk.is_none() => Ok(Vec::new()),
                    Err(_) => Err(PyTypeError::new_err(format!(
                        "read() returned {}, not bytes (open the file in binary mode)",
                        type_name(&chunk)
                    ))),
                }
            })
            .map_err(|err| {
                let error = io::Error::other(err.to_string());
                self.error = Some(err);
                error
            })?;
            self.spare = chunk;
        }
        let n = self.spare.len().min(buf.len());
        buf[..n].copy_from_slice(&self.spare[..n]);
        self.spare.drain(..n);
        Ok(n)
    }
}

/// Iterates over the `response` records (and `resource` records, unless
/// `resources=False`) of a WARC file (`.warc`, `.warc.gz`, `.warc.zst`, `.warc.lz4`) or an
/// ARC file (`.arc`, `.arc.gz`, versions 1 and 2; each record read as a `response` when
/// its block is an HTTP response, else as a `resource`), told apart by their first bytes,
/// yielding `WarcRecord`s. Other record types (`warcinfo`, an ARC file's `filedesc://`
/// record, `request`, `metadata`, `revisit`, ...) are skipped.
///
/// `source` is a path (`str` or `os.PathLike`; a missing file is a FileNotFoundError) or
/// a binary file object, read in pieces of 64 KiB through its `read(n)` method as the
/// iteration goes (it is not read into memory as a whole; it is not closed). A source
/// whose first bytes are not an archive's (HTML, binary data, gzip data that holds no
/// record: the test every htmltok front makes, `htmltok_crawl::sniff`) raises
/// `ArchiveError` (a ValueError) at once; an empty source is an archive of no records.
///
/// Damage does not stop the iteration (the default, `strict=False`, as warcio and the
/// `htmltok` CLI read): a bad record header or gzip member is reported in `errors` as
/// `(file, offset, reason)` and reading resumes at the next record; a record cut off, or
/// whose length is wrong, is yielded with what could be read of it (its `damage` says so)
/// and reading resumes at the next record start. With `strict=True` the first damage
/// raises `ArchiveError` instead (naming the file and offset; it is in `errors` too). A
/// read error ends the iteration. The GIL is released while a record is read and
/// decompressed.
///
/// `threads` (for a path only): read the file on this many threads (0: one per core) with
/// the parallel reader, which yields exactly the records and errors of the sequential one,
/// in the same order; worth it for large `.warc.gz` files when the caller's own work per
/// record is small. The default, 1, reads on the calling thread.
#[pyclass(frozen, module = "htmltok.warc", name = "ArchiveIterator")]
pub(crate) struct ArchiveIterator {
    reader: Mutex<Records>,
    name: String,
    errors: Mutex<Vec<(String, u64, String)>>,
    strict: bool,
}

/// FileNotFoundError (with errno, strerror and filename set, as `open()` gives it) unless
/// `path` exists.
fn require_exists(path: &std::path::Path) -> PyResult<()> {
    match std::fs::metadata(path) {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            Err(PyFileNotFoundError::new_err((
                2,
                "No such file or directory",
                path.to_string_lossy().into_owned(),
            )))
        }
        Err(err) => Err(err.into()),
    }
}

/// ArchiveError unless `head`, a source's first bytes, begin an archive (or are empty).
fn require_archive(head: &[u8], name: &str) -> PyResult<()> {
    use htmltok_crawl::sniff::{InputKind, sniff};
    let what = match sniff(head) {
        InputKind::Archive => return Ok(()),
        _ if head.is_empty() => return Ok(()),
        InputKind::Html => "an HTML document (htmltok.process reads HTML files and archives)",
        InputKind::NotHtml(what) => what,
    };
    Err(ArchiveError::new_err(format!(
        "{name}: not a WARC or ARC file: {what}"
    )))
}

/// The first bytes of `reader` (up to what the sniffing reads).
fn read_head(reader: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    htmltok_crawl::sniff::sniff_reader(reader, &mut head)?;
    Ok(head)
}

#[pymethods]
impl ArchiveIterator {
    #[new]
    #[pyo3(signature = (source, *, resources = true, threads = 1, strict = false))]
    fn new(
        source: &Bound<'_, PyAny>,
        resources: bool,
        threads: usize,
        strict: bool,
    ) -> PyResult<ArchiveIterator> {
        let is_path = source.is_instance_of::<PyString>() || source.hasattr("__fspath__")?;
        let path = if is_path {
            Some(path_arg(source, "ArchiveIterator")?)
        } else {
            None
        };
        if let Some(path) = &path {
            require_exists(path)?;
            let head = read_head(&mut std::fs::File::open(path)?)?;
            require_archive(&head, &path.to_string_lossy())?;
        }
        if let Some(path) = &path
            && threads != 1
        {
            let threads = if threads == 0 {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                threads
            };
            let reader = warc::open_parallel(path, threads)?.resources(resources);
            return Ok(ArchiveIterator {
                reader: Mutex::new(Box::new(reader)),
                name: path.to_string_lossy().into_owned(),
                errors: Mutex::new(Vec::new()),
                strict,
            });
        }
        let (input, name): (Box<dyn Read + Send>, String) = if let Some(path) = path {
            let file = std::fs::File::open(&path)?;
            (Box::new(file), path.to_string_lossy().into_owned())
        } else if source.hasattr("read")? {
            let name = source
                .getattr("name")
                .ok()
                .and_then(|n| n.extract::<String>().ok())
                .unwrap_or_else(|| "<stream>".to_string());
            let mut file = PyFile {
                file: source.clone().unbind(),
                spare: Vec::new(),
                error: None,
            };
            // The first bytes, read to tell what the stream is, are handed back to the
            // reader before what `read(n)` returned beyond them.
            let mut head = match read_head(&mut file) {
                Ok(head) => head,
                Err(error) => return Err(file.error.take().unwrap_or_else(|| error.into())),
            };
            require_archive(&head, &name)?;
            head.append(&mut file.spare);
            file.spare = head;
            (Box::new(file), name)
        } else {
            return Err(PyTypeError::new_err(format!(
                "ArchiveIterator: expected a path (str or os.PathLike) or a binary file object, not {}",
                type_name(source)
            )));
        };
        Ok(ArchiveIterator {
            reader: Mutex::new(Box::new(Reader::new(input).resources(resources))),
            name,
            errors: Mutex::new(Vec::new()),
            strict,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<WarcRecord>> {
        loop {
            let next = py.detach(|| {
                let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
                reader.next()
            });
            match next {
                None => return Ok(None),
                Some(Ok(record)) => match &record.damage {
                    Some(damage) if self.strict => {
                        let reason = format!("a damaged record: {damage}");
                        return Err(self.damage(record.offset, reason));
                    }
                    _ => return Ok(Some(WarcRecord::new(py, record))),
                },
                Some(Err(error)) => {
                    let damage = self.damage(error.offset, error.kind.to_string());
                    if self.strict {
                        return Err(damage);
                    }
                }
            }
        }
    }

    /// The damage met so far, as `(file, offset, reason)` tuples: the file's name (the
    /// path, or a file object's `name`, else '<stream>'), the byte offset of the bad
    /// record (in a `.warc.gz`, of its gzip member) and what is wrong.
    #[getter]
    fn errors(&self) -> Vec<(String, u64, String)> {
        self.errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The file's name, as `errors` reports it.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!("<htmltok.warc.ArchiveIterator {:?}>", self.name)
    }
}

impl ArchiveIterator {
    /// Records damage in `errors`; the ArchiveError that `strict=True` raises for it.
    fn damage(&self, offset: u64, reason: String) -> PyErr {
        let error = ArchiveError::new_err(format!("{}: offset {offset}: {reason}", self.name));
        self.errors.lock().unwrap_or_else(|e| e.into_inner()).push((
            self.name.clone(),
            offset,
            reason,
        ));
        error
    }
}

/// One `response` or `resource` record of a WARC or ARC file:
///
/// - `format`: 'warc' or 'arc', the container it came from;
/// - `offset`, `length`: where the record is in the file as stored (in a `.warc.gz`, its
///   gzip member: Common Crawl's `warc_record_offset` and `warc_record_length`; `length`
///   is None for a record sharing its member, or a damaged one);
/// - `type`: 'response' or 'resource'; `url`: WARC-Target-URI (an ARC record's URL);
///   `date`: WARC-Date (an ARC record's date, in that form: `2014-02-16T05:02:21Z`);
///   `record_id`: WARC-Record-ID (None in an ARC file); `ip_address`: WARC-IP-Address (an
///   ARC record's IP address);
/// - `http_status`; `http_headers`: the HTTP headers as `(name, value)` tuples, in order
///   (as stored: they may still name codings that were undone);
/// - `content_type`, `charset`: the HTTP Content-Type and its charset parameter;
/// - `content`: the HTTP body as `bytes`, its transfer and content codings undone
///   (chunked; gzip, x-gzip, deflate, br, zstd, stacked as the headers list them);
///   `raw_body`: the body as stored when decoding changed it, else None (`content` is
///   then the stored bytes);
/// - `payload_notes`: the reasons where decoding departed from what the headers say, a
///   list of str (`coding-not-applied`: the headers name a coding the stored bytes are
///   evidently not in, so they are used as stored; `unknown-coding`; `payload-truncated`:
///   the body ends inside its coding, what decoded is used; `chunk-framing-ends`);
/// - `body_error`: None, or why the body, in a coding its headers name, does not decode:
///   `content` is then the bytes as stored, and `transfer_encoding`/`content_encoding`
///   name the codings still applied to it (both None whenever decoding succeeded or was
///   not needed);
/// - `warc_truncated`: WARC-Truncated as written (`length`, `time`, `disconnect`, ...):
///   the crawler stored less than the server sent; None when absent;
/// - `damage`: None, or how the record was read in part — `record-cut-off` (the file, or
///   its gzip member, ends inside the record) or `record-length-wrong` (its length field
///   is wrong): `content` is what could be read; or `member-cut-off` (read whole, but the
///   file ends inside its compressed member after it, so its checksum went unchecked);
/// - `document()`: the body as a `Document`, decoded with the record's charset.
#[pyclass(frozen, module = "htmltok.warc", name = "WarcRecord")]
pub(crate) struct WarcRecord {
    #[pyo3(get)]
    format: &'static str,
    #[pyo3(get)]
    offset: u64,
    #[pyo3(get)]
    length: Option<u64>,
    #[pyo3(get, name = "type")]
    warc_type: String,
    #[pyo3(get)]
    url: Option<String>,
    #[pyo3(get)]
    date: Option<String>,
    #[pyo3(get)]
    record_id: Option<String>,
    #[pyo3(get)]
    ip_address: Option<String>,
    #[pyo3(get)]
    http_status: Option<u16>,
    #[pyo3(get)]
    http_headers: Vec<(String, String)>,
    #[pyo3(get)]
    content_type: Option<String>,
    #[pyo3(get)]
    charset: Option<String>,
    #[pyo3(get)]
    transfer_encoding: Option<String>,
    #[pyo3(get)]
    content_encoding: Option<String>,
    #[pyo3(get)]
    payload_notes: Vec<&'static str>,
    #[pyo3(get)]
    body_error: Option<String>,
    #[pyo3(get)]
    warc_truncated: Option<String>,
    #[pyo3(get)]
    damage: Option<&'static str>,
    #[pyo3(get)]
    content: Py<PyBytes>,
    #[pyo3(get)]
    raw_body: Option<Py<PyBytes>>,
}

impl WarcRecord {
    fn new(py: Python<'_>, record: warc::Record) -> WarcRecord {
        WarcRecord {
            format: match record.format {
                warc::Format::Warc => "warc",
                warc::Format::Arc => "arc",
            },
            offset: record.offset,
            length: record.length,
            warc_type: record.warc_type,
            url: record.target_uri,
            date: record.date,
            record_id: record.record_id,
            ip_address: record.ip_address,
            http_status: record.http_status,
            http_headers: record.http_headers,
            content_type: record.content_type,
            charset: record.charset,
            transfer_encoding: record.transfer_encoding,
            content_encoding: record.content_encoding,
            payload_notes: record.payload_notes.iter().map(|n| n.reason()).collect(),
            body_error: record.body_error.map(|e| e.to_string()),
            warc_truncated: record.warc_truncated,
            damage: record.damage.map(|d| d.reason()),
            content: PyBytes::new(py, &record.body).unbind(),
            raw_body: record.raw_body.map(|b| PyBytes::new(py, &b).unbind()),
        }
    }
}

#[pymethods]
impl WarcRecord {
    /// The body as a `Document`: decoded with the record's HTTP charset as the transport
    /// charset, its URL the record's target URI (the base of its links).
    fn document(&self, py: Python<'_>) -> Document {
        Document::decode(
            py,
            self.content.bind(py).clone(),
            self.charset.as_deref(),
            self.url.clone(),
        )
    }

    /// The value of the last HTTP header named `name` (any case), or None.
    fn header(&self, name: &str) -> Option<&str> {
        self.http_headers
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<htmltok.warc.WarcRecord {} @{} {:?} {} bytes>",
            self.warc_type,
            self.offset,
            self.url.as_deref().unwrap_or(""),
            self.content.bind(py).as_bytes().len()
        )
    }
}
