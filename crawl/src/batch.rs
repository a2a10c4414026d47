//! Tokenize many documents in parallel: files, directories, WARC files and byte buffers,
//! with a map-reduce API.
//!
//! ```no_run
//! use htmltok::Token;
//! use htmltok_crawl::batch::{self, Options, Source};
//!
//! // Count the start tags of every page under `corpus/`, on every core.
//! let result = batch::map_reduce(
//!     [Source::from("corpus/")],
//!     &Options::new(),
//!     |doc| {
//!         let mut tokenizer = doc.tokenizer();
//!         let mut tags = 0u64;
//!         while let Some(token) = tokenizer.next_token() {
//!             tags += matches!(token, Token::StartTag(_)) as u64;
//!         }
//!         tags
//!     },
//!     |a, b| a + b,
//!     || 0,
//! );
//! println!("{} start tags in {} documents", result.value, result.documents);
//! for failure in &result.failures {
//!     eprintln!("skipped {failure}");
//! }
//! ```
//!
//! # Sources
//!
//! - **A file** named as a source is always read, whatever its name, and what it is comes
//!   from its first bytes: a WARC or ARC file, plain or compressed (`WARC/`, an ARC header
//!   line, or gzip, zstd or LZ4 data that begins so), is read as an archive (see below);
//!   text is an HTML document; anything else (an image, gzip data that is not an archive)
//!   is a [`FailureKind::NotHtml`] failure, not a document of garbage.
//! - **A directory** is walked recursively, in byte order of the names (so the order of
//!   the documents is the same from run to run before the parallel part). The walk takes
//!   the files whose name ends in `.html`, `.htm`, `.xhtml`, `.xht` or `.shtml` (any
//!   case), `.warc`, `.warc.gz`, `.warc.zst`, `.warc.lz4`, `.arc` and `.arc.gz`; other
//!   files (a `MANIFEST.tsv`, images, …) are left out unless [`Options::all_files`] is on
//!   (then each is taken as a named file is, by its first bytes). Names
//!   beginning with `.` are skipped, and symbolic links to directories are not followed
//!   (no cycles); symbolic links to files are.
//! - **A WARC or ARC file** (read with [`crate::warc`]): every record is a document or
//!   is counted under a reason. [`crate::documents`] says which records are documents
//!   (HTML `response` and `resource` records); the others are counted in
//!   [`BatchResult::skipped`] by reason (`request`, `revisit`, `not-html`, …), damage in
//!   [`BatchResult::failures`], and documents read with something to say (a body whose
//!   coding the headers name but the bytes are not in, a record cut off) are documents
//!   and [`BatchResult::notices`]. A document's URL comes from `WARC-Target-URI` and its
//!   transport charset from the HTTP `Content-Type` header. On several threads
//!   a WARC file is cut into parts (as [`warc::ParallelReader`](crate::warc::ParallelReader)
//!   cuts it; [`Options::warc_part_size`]), and each part is a job: the worker that takes
//!   it reads (inflates) the part and then maps its records, while they are still in its
//!   cache, so that one big file keeps every core busy. A part read from a guessed record
//!   start is checked against where the sequential reader is before any of its records
//!   is mapped (and read again from there if the guess was wrong), so `map` is called, and
//!   [`Options::on_failure`] told, exactly once for each record and failure the
//!   sequential reader yields, never for one read on a guess and thrown away; only the
//!   order differs. With one thread, or a file under two parts, the file is read record
//!   by record on the thread that asks for the next job.
//!
//! # Encodings
//!
//! Each document is decoded to UTF-8 before it is tokenized,
//! by the encoding sniffing algorithm of [`crate::encoding`] (byte order mark, then the
//! transport charset of a WARC record or [`Source::Bytes`], then the `<meta>` prescan,
//! then a detector); [`Document::decoded_as`] says which encoding and which rule.
//! [`Document::raw`] is always the bytes as read. [`Options::decode`] turns this off.
//! - **A byte buffer** ([`Source::bytes`]), with a name and optionally a URL.
//!
//! # Memory
//!
//! Memory stays bounded whatever the size of the corpus: sources are taken from the
//! iterator lazily, directories are walked lazily, and each worker thread holds one
//! document at a time (rayon's `par_bridge` hands out one item per request), or the
//! records of one part of a WARC file (about 1.5 MB), so about as many documents (parts)
//! are in memory at once as there are threads. Files are read (with
//! `std::fs::File` and `read_to_end`) into a buffer each worker thread reuses from file
//! to file (kept up to 16 MiB); they are not memory-mapped, because mapping a file needs
//! `unsafe` and the crate keeps its only `unsafe` code in its SIMD scanners.
//!
//! # Failures
//!
//! A document that cannot be read (an unreadable file, a directory that cannot be
//! listed, a broken WARC record or a truncated gzip member) becomes a [`Failure`] with its
//! source and, where there is one, its byte offset; the rest of the batch goes on. A
//! `map` call that panics is a failure of its document too.
//!
//! # Order
//!
//! Documents are processed in parallel in no fixed order, so `reduce` must be
//! associative and commutative (sums, counts, maxima, merged maps) for the result not to
//! depend on the scheduling; [`BatchResult::failures`] is sorted by source and offset.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use htmltok::{Builder, Tokenizer};

use crate::warc::BufferPool;

/// Where documents come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A file (HTML, or WARC by its name) or a directory to walk.
    Path(PathBuf),
    /// A document in memory.
    Bytes {
        /// The name failures and [`Document::source`] report.
        name: String,
        /// The document's URL, if known.
        url: Option<String>,
        /// The charset given by the transport layer (an HTTP `Content-Type` parameter),
        /// used by the encoding decision.
        charset: Option<String>,
        /// The document's bytes.
        bytes: Vec<u8>,
    },
}

impl Source {
    /// A document in memory with this name.
    pub fn bytes(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Source {
        Source::Bytes {
            name: name.into(),
            url: None,
            charset: None,
            bytes: bytes.into(),
        }
    }
}

impl From<PathBuf> for Source {
    fn from(path: PathBuf) -> Source {
        Source::Path(path)
    }
}

impl From<&Path> for Source {
    fn from(path: &Path) -> Source {
        Source::Path(path.to_path_buf())
    }
}

impl From<&str> for Source {
    /// A path.
    fn from(path: &str) -> Source {
        Source::Path(PathBuf::from(path))
    }
}

impl From<String> for Source {
    /// A path.
    fn from(path: String) -> Source {
        Source::Path(PathBuf::from(path))
    }
}

/// A function told about each failure as it happens (for live reporting).
pub type FailureHook = Arc<dyn Fn(&Failure) + Send + Sync>;

/// A function told about each [`Notice`] as it happens (for live reporting).
pub type NoticeHook = Arc<dyn Fn(&Notice) + Send + Sync>;

/// How a batch runs; [`Options::new`] gives the defaults.
#[derive(Clone)]
pub struct Options {
    threads: usize,
    all_files: bool,
    all_records: bool,
    no_decode: bool,
    tree: Option<htmltok_tree::Parser>,
    tokenizer: Option<Builder>,
    stop: Option<Arc<AtomicBool>>,
    on_failure: Option<FailureHook>,
    on_notice: Option<NoticeHook>,
    max_document_size: u64,
    warc_part_size: Option<u64>,
}

/// The default for [`Options::max_document_size`]: 256 MiB.
pub const DEFAULT_MAX_DOCUMENT_SIZE: u64 = 256 << 20;

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 0,
            all_files: false,
            all_records: false,
            no_decode: false,
            tree: None,
            tokenizer: None,
            stop: None,
            on_failure: None,
            on_notice: None,
            max_document_size: DEFAULT_MAX_DOCUMENT_SIZE,
            warc_part_size: None,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("threads", &self.threads)
            .field("all_files", &self.all_files)
            .field("all_records", &self.all_records)
            .field("decode", &!self.no_decode)
            .field("tokenizer", &self.tokenizer)
            .field("stop", &self.stop)
            .field("on_failure", &self.on_failure.as_ref().map(|_| ".."))
            .field("on_notice", &self.on_notice.as_ref().map(|_| ".."))
            .field("max_document_size", &self.max_document_size)
            .field("warc_part_size", &self.warc_part_size)
            .finish()
    }
}

impl Options {
    /// The defaults: rayon's global thread pool, only HTML (and WARC) files from
    /// directory walks, documents decoded to UTF-8.
    pub fn new() -> Options {
        Options::default()
    }

    /// Run on a new pool of this many threads, built for the call (0, the default: the
    /// current rayon pool — the global one, one thread per core unless
    /// `RAYON_NUM_THREADS` says otherwise, or the pool whose `install` the batch is
    /// called in; use that to run many batches on one pool of your own).
    pub fn threads(mut self, threads: usize) -> Options {
        self.threads = threads;
        self
    }

    /// The largest document read, in bytes (default [`DEFAULT_MAX_DOCUMENT_SIZE`], 256 MiB):
    /// a larger file, WARC record or buffer is skipped with a
    /// [`FailureKind::TooLarge`] failure (a WARC record: [`FailureKind::Warc`] with
    /// `ContentLengthError::OverLimit`), never read whole, and the batch goes on.
    pub fn max_document_size(mut self, bytes: u64) -> Options {
        self.max_document_size = bytes;
        self
    }

    /// The size of the parts a WARC file is cut into when the batch reads it on several
    /// threads, as [`ParallelReader::part_size`] (at least 1). Each worker reads one part
    /// at a time and then maps its records. The default is about 1.5 MB of records: 256
    /// KiB of a `.warc.gz` or `.warc.zst`, 512 KiB of a `.warc.lz4`, 1.5 MiB of a `.warc`
    /// (a part's records are then still in the worker's cache when it maps them). Smaller
    /// parts share a small file among more workers, but each costs a search for a record
    /// start.
    ///
    /// [`ParallelReader::part_size`]: crate::warc::ParallelReader::part_size
    pub fn warc_part_size(mut self, bytes: u64) -> Options {
        self.warc_part_size = Some(bytes);
        self
    }

    /// Take every file in a directory walk, not only `.html`, `.htm`, `.xhtml`, `.xht`,
    /// `.shtml` (and `.warc`, `.warc.gz`, `.warc.zst`, `.warc.lz4`) files.
    pub fn all_files(mut self, on: bool) -> Options {
        self.all_files = on;
        self
    }

    /// Take every `response` and `resource` record of a WARC or ARC file as a document,
    /// not only the HTML ones ([`crate::documents`]; the others are counted in
    /// [`BatchResult::skipped`] as `not-html`).
    pub fn all_records(mut self, on: bool) -> Options {
        self.all_records = on;
        self
    }

    /// Decode each document to UTF-8 with the WHATWG encoding sniffing rules before it
    /// is tokenized (on by default).
    /// Off, [`Document::html`] is the raw bytes, read as UTF-8.
    pub fn decode(mut self, on: bool) -> Options {
        self.no_decode = !on;
        self
    }

    /// Parse each document's tree with `parser` as it is decoded ([`Document::tree`]), for
    /// a `map` that reads the tree: the encoding's late `<meta>` is then decided by the
    /// tree builder as it meets it ([`crate::encoding::decode_and_parse`]), instead of by
    /// the extra tokenizing pass [`crate::encoding::decode`] makes before the parse (the
    /// same answer on every page of the shared corpus; the tree's where they differ). None
    /// (the default): no tree is parsed. With [`Options::decode`] off, no tree either.
    pub fn tree(mut self, parser: Option<htmltok_tree::Parser>) -> Options {
        self.tree = parser;
        self
    }

    /// The tokenizer options [`Document::tokenizer`] uses (default: [`Tokenizer::new`]'s).
    pub fn tokenizer(mut self, builder: Builder) -> Options {
        self.tokenizer = Some(builder);
        self
    }

    /// A flag that stops the batch when set: no further document is started (the ones
    /// being processed finish).
    pub fn stop_flag(mut self, stop: Arc<AtomicBool>) -> Options {
        self.stop = Some(stop);
        self
    }

    /// Calls `hook` with each failure as it happens, from the thread that found it (the
    /// failures are also in [`BatchResult::failures`]). Once per failure: damage in a part
    /// of a WARC file read on a guess is reported only once the guess is confirmed (see
    /// the module documentation).
    pub fn on_failure(mut self, hook: impl Fn(&Failure) + Send + Sync + 'static) -> Options {
        self.on_failure = Some(Arc::new(hook));
        self
    }

    /// Calls `hook` with each [`Notice`] as it happens, before its document is mapped,
    /// from the thread that maps it (the notices are also in [`BatchResult::notices`]).
    pub fn on_notice(mut self, hook: impl Fn(&Notice) + Send + Sync + 'static) -> Options {
        self.on_notice = Some(Arc::new(hook));
        self
    }

    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// A document that could not be read or processed: where, and a typed [`FailureKind`].
#[derive(Debug)]
pub struct Failure {
    /// The file (or buffer name) it came from.
    pub source: String,
    /// The byte offset in the file where the trouble is, when there is one (the start of
    /// a WARC record, or where a truncated gzip stream ends).
    pub offset: Option<u64>,
    /// What went wrong.
    pub kind: FailureKind,
}

impl fmt::Display for Failure {
    /// `source: reason`, or `source: offset N: reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "{}: offset {}: {}", self.source, offset, self.kind),
            None => write!(f, "{}: {}", self.source, self.kind),
        }
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// Why a document was skipped. Its `Display` is the reason alone ([`Failure`]'s adds the
/// source and offset).
#[derive(Debug)]
#[non_exhaustive]
pub enum FailureKind {
    /// A file could not be opened or read, or a directory listed: `cannot read: …`.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
    /// A WARC file is damaged at [`Failure::offset`]: a malformed or truncated record, a
    /// record over the size limit, a bad gzip member, or a read error (see
    /// [`warc::ErrorKind`](crate::warc::ErrorKind) and its parts to tell them apart).
    Warc(crate::warc::ErrorKind),
    /// A WARC record's HTTP body is in a `Transfer-Encoding` or `Content-Encoding` its
    /// headers name, but does not decode (see [`crate::http`]).
    StillEncoded {
        /// `Transfer-Encoding` or `Content-Encoding`.
        header: &'static str,
        /// The codings, as written.
        coding: String,
        /// Why it does not decode.
        why: String,
    },
    /// A file named as a source (or taken by [`Options::all_files`]) is neither HTML nor
    /// an archive, by its first bytes.
    NotHtml {
        /// What it looks like instead.
        what: &'static str,
    },
    /// A file or buffer is larger than [`Options::max_document_size`]; it was not read.
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The `map` function panicked on the document.
    Panicked {
        /// The panic's message (`a panic` when it had none).
        message: String,
    },
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailureKind::TooLarge { size, limit } => write!(
                f,
                "document of {size} bytes is over the size limit of {limit} bytes (skipped)"
            ),
            FailureKind::Io { error, .. } => write!(f, "cannot read: {}", IoReason(error)),
            FailureKind::Warc(kind) => kind.fmt(f),
            FailureKind::StillEncoded {
                header,
                coding,
                why,
            } => {
                write!(f, "the body ({header}: {coding}) does not decode: {why}")
            }
            FailureKind::NotHtml { what } => {
                write!(f, "neither HTML nor a WARC or ARC file: {what}")
            }
            FailureKind::Panicked { message } => write!(f, "processing panicked: {message}"),
        }
    }
}

impl std::error::Error for FailureKind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FailureKind::Io { error, .. } => Some(error),
            FailureKind::Warc(kind) => Some(kind),
            FailureKind::StillEncoded { .. }
            | FailureKind::NotHtml { .. }
            | FailureKind::TooLarge { .. }
            | FailureKind::Panicked { .. } => None,
        }
    }
}

impl FailureKind {
    /// A short name for counting: `unreadable`, `bad-gzip-member`, `bad-zstd-frame`,
    /// `bad-lz4-frame`, `malformed-header`, `bad-length`, `truncated-header`,
    /// `truncated-http-head`, `truncated-before-body`, `record-end`, `read-error`,
    /// `body-does-not-decode`, `not-html-file`, `too-large`, `panicked`.
    pub fn reason(&self) -> &'static str {
        match self {
            FailureKind::Io { .. } => "unreadable",
            FailureKind::Warc(kind) => kind.reason(),
            FailureKind::StillEncoded { .. } => "body-does-not-decode",
            FailureKind::NotHtml { .. } => "not-html-file",
            FailureKind::TooLarge { .. } => "too-large",
            FailureKind::Panicked { .. } => "panicked",
        }
    }
}

/// An archive record read with something to say about it: a body used as stored though
/// its headers name a coding, a body or record cut off, a wrong length, `WARC-Truncated`.
/// A document with a notice is mapped and counted in [`BatchResult::documents`]; a record
/// that is no document is counted in [`BatchResult::skipped`] too. The notice says what
/// and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The file it came from.
    pub source: String,
    /// The record's offset in the file.
    pub offset: Option<u64>,
    /// A short name for counting ([`BatchResult::recovered`]).
    pub reason: &'static str,
    /// What happened, in a sentence.
    pub detail: String,
}

impl fmt::Display for Notice {
    /// `source: offset N: detail`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "{}: offset {}: {}", self.source, offset, self.detail),
            None => write!(f, "{}: {}", self.source, self.detail),
        }
    }
}

/// An I/O error's message without the trailing ` (os error N)` (`No such file or
/// directory`), for one-line reports such as [`FailureKind::Io`]'s.
#[derive(Clone, Copy, Debug)]
pub struct IoReason<'a>(pub &'a io::Error);

impl fmt::Display for IoReason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        match text.rfind(" (os error ") {
            Some(i) if text.ends_with(')') => f.write_str(&text[..i]),
            _ => f.write_str(&text),
        }
    }
}

/// What a batch produced.
#[derive(Debug)]
pub struct BatchResult<T> {
    /// The reduction of every document's `map` value (the identity when there was none).
    pub value: T,
    /// How many documents were mapped.
    pub documents: u64,
    /// Their size in bytes, as read (before any decoding).
    pub bytes: u64,
    /// Archive records that are not documents: the sum of [`BatchResult::skipped`].
    pub ignored: u64,
    /// Archive records that are not documents, by reason ([`crate::documents`]:
    /// `request`, `revisit`, `not-html`, …).
    pub skipped: BTreeMap<&'static str, u64>,
    /// Records read with a [`Notice`], by its reason (`coding-not-applied`,
    /// `record-cut-off`, `warc-truncated`, …; a record may count under several).
    pub recovered: BTreeMap<&'static str, u64>,
    /// Those notices, sorted by source and offset.
    pub notices: Vec<Notice>,
    /// The documents that were skipped, sorted by source and offset.
    pub failures: Vec<Failure>,
    /// Files a directory walk left out, by reason: `not-html-name` (a name that is not an
    /// HTML or archive file's; [`Options::all_files`] takes them), `hidden` (a name
    /// beginning with `.`), `directory-link` (a symbolic link to a directory).
    pub passed_over: BTreeMap<&'static str, u64>,
    /// How many worker threads the batch ran on.
    pub threads: usize,
}

impl<T> BatchResult<T> {
    /// The [`BatchResult::failures`] counted by [`FailureKind::reason`].
    pub fn failures_by_reason(&self) -> BTreeMap<&'static str, u64> {
        let mut counts = BTreeMap::new();
        for failure in &self.failures {
            *counts.entry(failure.kind.reason()).or_default() += 1;
        }
        counts
    }
}

/// How [`crate::encoding`] decided a document's encoding.
#[derive(Clone, Copy, Debug)]
pub struct DecodedAs {
    /// The encoding the bytes were decoded from.
    pub encoding: &'static crate::encoding::Encoding,
    /// The rule that chose it.
    pub rule: crate::encoding::Rule,
    /// Whether some bytes were malformed in that encoding (decoded to U+FFFD).
    pub had_replacements: bool,
}

/// One document of a batch, handed to the `map` function.
#[derive(Debug)]
pub struct Document<'a> {
    source: &'a str,
    offset: Option<u64>,
    length: Option<u64>,
    url: Option<&'a str>,
    raw: &'a [u8],
    html: &'a [u8],
    tree: Option<htmltok_tree::DocumentRef<'a>>,
    builder: Option<&'a Builder>,
    decoded_as: Option<DecodedAs>,
    record: Option<&'a RecordInfo>,
}

impl<'a> Document<'a> {
    /// For an archive record, what the record says of itself (its ID, date, HTTP status
    /// and content type, `WARC-Truncated`, the body as stored); None for other documents.
    pub fn record(&self) -> Option<&'a RecordInfo> {
        self.record
    }

    /// The MIME type essence of the document's `Content-Type` (`text/html`), lowercase,
    /// without parameters: Common Crawl's `content_mime_type`. None without one.
    pub fn content_mime_type(&self) -> Option<String> {
        let value = self.record?.content_type.as_deref()?;
        let essence = crate::mime::essence(value);
        (!essence.is_empty()).then(|| essence.to_ascii_lowercase())
    }

    /// The file (or buffer name) the document came from; for a WARC record, the WARC
    /// file.
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// For a WARC record, the byte offset of the record in the WARC file.
    pub fn offset(&self) -> Option<u64> {
        self.offset
    }

    /// For a WARC record, its length in the WARC file as stored (see
    /// [`warc::Record::length`](crate::warc::Record::length)): `offset()..offset() + length()`
    /// are the bytes to fetch to read the record again (in a `.warc.gz`, its gzip member).
    /// None for other documents, and for a record that shares its gzip member.
    pub fn length(&self) -> Option<u64> {
        self.length
    }

    /// A name for the document: the source, or for a WARC record `source@offset`.
    pub fn label(&self) -> String {
        match self.offset {
            Some(offset) => format!("{}@{}", self.source, offset),
            None => self.source.to_string(),
        }
    }

    /// The document's URL when known (a WARC record's `WARC-Target-URI`, or the URL of a
    /// [`Source::Bytes`]).
    pub fn url(&self) -> Option<&'a str> {
        self.url
    }

    /// The bytes as read (for a WARC record, the HTTP body).
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The bytes to tokenize: UTF-8 decoded from [`Document::raw`] by the WHATWG
    /// encoding rules (unless [`Options::decode`] is turned off), else the raw bytes
    /// themselves.
    pub fn html(&self) -> &'a [u8] {
        self.html
    }

    /// The document's tree, parsed as it was decoded, when the batch was asked for it
    /// ([`Options::tree`]); its input is [`Document::html`].
    pub fn tree(&self) -> Option<htmltok_tree::DocumentRef<'a>> {
        self.tree
    }

    /// Calls `f` with the document's tree: the batch's ([`Document::tree`]) when it parsed
    /// one as it decoded, else one parsed here from [`Document::html`] (no tree asked for,
    /// or [`Options::decode`] off).
    pub fn with_tree<R>(&self, f: impl FnOnce(htmltok_tree::DocumentRef<'_>) -> R) -> R {
        match self.tree {
            Some(tree) => f(tree),
            None => f(htmltok_tree::parse(self.html).view()),
        }
    }

    /// A tokenizer over [`Document::html`] with the batch's tokenizer options.
    pub fn tokenizer(&self) -> Tokenizer<'a> {
        match self.builder {
            Some(builder) => builder.clone().build(self.html),
            None => Tokenizer::new(self.html),
        }
    }

    /// Like [`Document::tokenizer`], but when the batch's options turn parse errors on,
    /// they go to `sink` as they are found ([`htmltok::Builder::build_with_sink`]) instead
    /// of piling up in the tokenizer, so memory stays flat however many a page has.
    pub fn tokenizer_with_sink<'s>(
        &self,
        sink: impl FnMut(htmltok::ParseError) + Send + Sync + 's,
    ) -> Tokenizer<'s>
    where
        'a: 's,
    {
        match self.builder {
            Some(builder) if builder.errors_enabled() => {
                builder.clone().build_with_sink(self.html, sink)
            }
            _ => self.tokenizer(),
        }
    }

    /// The encoding the document was decoded from and the rule that chose it; None when
    /// the document was not decoded ([`Options::decode`] off).
    pub fn decoded_as(&self) -> Option<DecodedAs> {
        self.decoded_as
    }
}

/// Tokenizes every document of `sources` in parallel: calls `map` on each and folds the
/// results with `reduce`, starting from `identity()` (which may be called many times).
/// `map` is called exactly once per document, so its side effects (counting, sending
/// pages on) are safe: a WARC file read in parts on several threads maps only the
/// records the sequential reader yields. `reduce` must be associative and commutative;
/// see the module documentation for the sources, the memory bound and how failures are
/// reported.
pub fn map_reduce<T, I, M, R, Z>(
    sources: I,
    options: &Options,
    map: M,
    reduce: R,
    identity: Z,
) -> BatchResult<T>
where
    T: Send,
    I: IntoIterator<Item = Source>,
    I::IntoIter: Send,
    M: Fn(Document<'_>) -> T + Sync,
    R: Fn(T, T) -> T + Sync,
    Z: Fn() -> T + Sync,
{
    let threads = match options.threads {
        0 => rayon::current_num_threads(),
        n => n,
    };
    let passed_over = std::sync::Mutex::new(BTreeMap::new());
    let jobs = Jobs::new(sources.into_iter(), options, threads, &passed_over);
    let run = || {
        jobs.par_bridge()
            .fold(
                || Partial::new(identity()),
                |partial, job| run_job(partial, job, options, &map, &reduce),
            )
            .reduce(|| Partial::new(identity()), |a, b| a.merge(b, &reduce))
    };
    let pool = match options.threads {
        0 => None,
        n => rayon::ThreadPoolBuilder::new().num_threads(n).build().ok(),
    };
    let (partial, threads) = match pool {
        Some(pool) => (pool.install(run), pool.current_num_threads()),
        None => (run(), rayon::current_num_threads()),
    };
    let mut failures = partial.failures;
    failures.sort_by(|a, b| {
        (&a.source, a.offset)
            .cmp(&(&b.source, b.offset))
            .then_with(|| a.kind.to_string().cmp(&b.kind.to_string()))
    });
    let mut notices = partial.notices;
    notices.sort_by(|a, b| (&a.source, a.offset, a.reason).cmp(&(&b.source, b.offset, b.reason)));
    BatchResult {
        value: partial.value,
        documents: partial.documents,
        bytes: partial.bytes,
        ignored: partial.skipped.values().sum(),
        skipped: partial.skipped,
        recovered: partial.recovered,
        notices,
        failures,
        passed_over: passed_over.into_inner().unwrap_or_else(|e| e.into_inner()),
        threads,
    }
}

/// Calls `each` on every document of `sources` in parallel (a [`map_reduce`] to `()`).
pub fn for_each<I, F>(sources: I, options: &Options, each: F) -> BatchResult<()>
where
    I: IntoIterator<Item = Source>,
    I::IntoIter: Send,
    F: Fn(Document<'_>) + Sync,
{
    map_reduce(sources, options, each, |(), ()| (), || ())
}

/// The running result of one worker.
struct Partial<T> {
    value: T,
    documents: u64,
    bytes: u64,
    skipped: BTreeMap<&'static str, u64>,
    recovered: BTreeMap<&'static str, u64>,
    notices: Vec<Notice>,
    failures: Vec<Failure>,
}

impl<T> Partial<T> {
    fn new(value: T) -> Self {
        Partial {
            value,
            documents: 0,
            bytes: 0,
            skipped: BTreeMap::new(),
            recovered: BTreeMap::new(),
            notices: Vec::new(),
            failures: Vec::new(),
        }
    }

    fn merge(mut self, other: Partial<T>, reduce: &impl Fn(T, T) -> T) -> Partial<T> {
        for (reason, n) in other.skipped {
            *self.skipped.entry(reason).or_default() += n;
        }
        for (reason, n) in other.recovered {
            *self.recovered.entry(reason).or_default() += n;
        }
        self.notices.extend(other.notices);
        self.failures.extend(other.failures);
        Partial {
            value: reduce(self.value, other.value),
            documents: self.documents + other.documents,
            bytes: self.bytes + other.bytes,
            ..self
        }
    }

    fn notice(&mut self, notice: Notice, options: &Options) {
        if let Some(hook) = &options.on_notice {
            hook(&notice);
        }
        *self.recovered.entry(notice.reason).or_default() += 1;
        self.notices.push(notice);
    }

    fn fail(&mut self, failure: Failure, options: &Options) {
        if let Some(hook) = &options.on_failure {
            hook(&failure);
        }
        self.failures.push(failure);
    }
}

/// One unit of work, produced in order by [`Jobs`] and run by any worker.
enum Job {
    /// A file to read (in the worker).
    File { path: PathBuf, name: String },
    /// A document already in memory (a buffer, or a record read from a WARC file).
    Loaded(Loaded),
    /// Something that went wrong while listing sources or reading a WARC file.
    Failed(Failure),
    /// An archive record that is not a document, and why ([`crate::documents`]); with a
    /// notice when it was read in part.
    Ignored(&'static str, Option<Notice>),
    /// One part of a WARC file read on several threads: the worker reads it, then runs
    /// its records (see [`WarcFile`]).
    WarcPart(WarcPart),
}

struct Loaded {
    name: String,
    offset: Option<u64>,
    length: Option<u64>,
    url: Option<String>,
    charset: Option<String>,
    bytes: Vec<u8>,
    /// Where `bytes` goes back when done (a WARC record's body), else to this thread's
    /// buffer ([`recycle`]).
    pool: Option<Arc<BufferPool>>,
    /// For an archive record: what the record says of itself.
    record: Option<Box<RecordInfo>>,
    /// For an archive record: the notices to give before it is mapped.
    notices: Vec<(&'static str, String)>,
}

/// What an archive record says of itself, beyond its place and URL: the columns Common
/// Crawl's index joins on.
#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// Which container the record came from.
    pub format: crate::warc::Format,
    /// `WARC-Record-ID` (None in an ARC file).
    pub record_id: Option<String>,
    /// `WARC-Date` (an ARC record's date, in that form).
    pub date: Option<String>,
    /// The HTTP status.
    pub http_status: Option<u16>,
    /// The HTTP `Content-Type` (for a block that is not an HTTP message, the record's).
    pub content_type: Option<String>,
    /// `WARC-Truncated`, as written.
    pub warc_truncated: Option<String>,
    /// The HTTP body as stored, when decoding changed it (see [`crate::http`]).
    pub raw_body: Option<Vec<u8>>,
}

fn run_job<T, M, R>(
    mut partial: Partial<T>,
    job: Job,
    options: &Options,
    map: &M,
    reduce: &R,
) -> Partial<T>
where
    M: Fn(Document<'_>) -> T,
    R: Fn(T, T) -> T,
{
    let mut loaded = match job {
        Job::Failed(failure) => {
            partial.fail(failure, options);
            return partial;
        }
        Job::Ignored(reason, notice) => {
            *partial.skipped.entry(reason).or_default() += 1;
            if let Some(notice) = notice {
                partial.notice(notice, options);
            }
            return partial;
        }
        Job::WarcPart(part) => {
            // The part's items are the sequential reader's (read on a guess, they were
            // checked before they came back), so each record is mapped and each failure
            // reported exactly once, as with one thread.
            return run_records(
                partial,
                &part.file,
                part.parts.read(part.k),
                options,
                map,
                reduce,
            );
        }
        Job::Loaded(loaded) => loaded,
        Job::File { path, name } => match read_file(&path, options.max_document_size) {
            Ok(bytes) => match crate::sniff::sniff(&bytes) {
                crate::sniff::InputKind::Html => Loaded {
                    name,
                    offset: None,
                    length: None,
                    url: None,
                    charset: None,
                    bytes,
                    pool: None,
                    record: None,
                    notices: Vec::new(),
                },
                crate::sniff::InputKind::Archive => {
                    return run_archive_in_memory(partial, name, bytes, options, map, reduce);
                }
                crate::sniff::InputKind::NotHtml(what) => {
                    recycle(bytes);
                    partial.fail(
                        Failure {
                            source: name,
                            offset: None,
                            kind: FailureKind::NotHtml { what },
                        },
                        options,
                    );
                    return partial;
                }
            },
            Err(kind) => {
                partial.fail(
                    Failure {
                        source: name,
                        offset: None,
                        kind,
                    },
                    options,
                );
                return partial;
            }
        },
    };
    if loaded.bytes.len() as u64 > options.max_document_size {
        partial.fail(
            Failure {
                source: loaded.name,
                offset: loaded.offset,
                kind: FailureKind::TooLarge {
                    size: loaded.bytes.len() as u64,
                    limit: options.max_document_size,
                },
            },
            options,
        );
        return partial;
    }
    for (reason, detail) in std::mem::take(&mut loaded.notices) {
        partial.notice(
            Notice {
                source: loaded.name.clone(),
                offset: loaded.offset,
                reason,
                detail,
            },
            options,
        );
    }
    let html = decode(&loaded.bytes, loaded.charset.as_deref(), options);
    let document = Document {
        source: &loaded.name,
        offset: loaded.offset,
        length: loaded.length,
        url: loaded.url.as_deref(),
        raw: &loaded.bytes,
        html: html.bytes(),
        tree: html.tree(),
        builder: options.tokenizer.as_ref(),
        decoded_as: html.decoded_as,
        record: loaded.record.as_deref(),
    };
    match catch_unwind(AssertUnwindSafe(|| map(document))) {
        Ok(value) => {
            partial.value = reduce(partial.value, value);
            partial.documents += 1;
            partial.bytes += loaded.bytes.len() as u64;
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            partial.fail(
                Failure {
                    source: loaded.name.clone(),
                    offset: loaded.offset,
                    kind: FailureKind::Panicked { message: what },
                },
                options,
            );
        }
    }
    drop(html);
    match loaded.pool {
        Some(pool) => pool.give(loaded.bytes),
        None => recycle(loaded.bytes),
    }
    partial
}

/// An archive found under an HTML name in a directory walk: read on this worker, record
/// by record, as a named archive is read on one thread.
fn run_archive_in_memory<T, M, R>(
    partial: Partial<T>,
    name: String,
    bytes: Vec<u8>,
    options: &Options,
    map: &M,
    reduce: &R,
) -> Partial<T>
where
    M: Fn(Document<'_>) -> T,
    R: Fn(T, T) -> T,
{
    let file = WarcSource {
        name,
        all_records: options.all_records,
        pool: Arc::new(BufferPool::new(4, KEEP_BUFFER)),
    };
    let reader = crate::warc::ParallelReader::from_bytes(bytes, 1)
        .every_record(true)
        .max_record_len(options.max_document_size)
        .buffer_pool(Arc::clone(&file.pool));
    run_records(partial, &file, reader, options, map, reduce)
}

/// Runs the jobs of an archive's records and failures, in order, until the batch stops.
fn run_records<T, M, R>(
    mut partial: Partial<T>,
    file: &WarcSource,
    items: impl IntoIterator<Item = Result<crate::warc::Record, crate::warc::Error>>,
    options: &Options,
    map: &M,
    reduce: &R,
) -> Partial<T>
where
    M: Fn(Document<'_>) -> T,
    R: Fn(T, T) -> T,
{
    for item in items {
        if options.stopped() {
            break;
        }
        partial = run_job(partial, file.job(item), options, map, reduce);
    }
    partial
}

/// The largest buffer a worker keeps for the next file.
const KEEP_BUFFER: usize = 16 << 20;

thread_local! {
    /// A worker's file buffer, reused from file to file: the pages are mapped already,
    /// so reading a file costs no page faults (which, taken by every thread at once,
    /// also contend in the kernel).
    static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Reads a file into this thread's reused buffer (taken out of it for the time being, so
/// a nested batch on the same thread is no problem).
fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, FailureKind> {
    use std::io::Read as _;
    let io = |error| FailureKind::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > limit {
        return Err(FailureKind::TooLarge { size, limit });
    }
    let mut buffer = BUFFER.with(|b| b.take());
    buffer.clear();
    // The file may grow while it is read: never read past the limit.
    let read = file
        .take(limit.saturating_add(1))
        .read_to_end(&mut buffer)
        .map_err(io)?;
    if read as u64 > limit {
        recycle(buffer);
        return Err(FailureKind::TooLarge {
            size: read as u64,
            limit,
        });
    }
    Ok(buffer)
}

/// Gives a document's buffer back to this thread for the next file, unless it is large.
fn recycle(buffer: Vec<u8>) {
    if buffer.capacity() <= KEEP_BUFFER {
        BUFFER.with(|b| {
            let old = b.take();
            b.set(if old.capacity() > buffer.capacity() {
                old
            } else {
                buffer
            });
        });
    }
}

/// A document's bytes as the tokenizer will see them, and its tree when one was asked
/// for (then the tree's input is the bytes).
struct Html<'a> {
    text: HtmlText<'a>,
    decoded_as: Option<DecodedAs>,
}

enum HtmlText<'a> {
    Bytes(Cow<'a, [u8]>),
    Tree(Box<htmltok_tree::OwnedDocument<Cow<'a, [u8]>>>),
}

impl Html<'_> {
    fn bytes(&self) -> &[u8] {
        match &self.text {
            HtmlText::Bytes(bytes) => bytes,
            HtmlText::Tree(tree) => tree.input(),
        }
    }

    fn tree(&self) -> Option<htmltok_tree::DocumentRef<'_>> {
        match &self.text {
            HtmlText::Bytes(_) => None,
            HtmlText::Tree(tree) => Some(tree.view()),
        }
    }
}

/// Decodes `bytes` to UTF-8 with the encoding sniffing algorithm (see
/// [`crate::encoding`]), `charset` being the transport layer's label; with
/// [`Options::tree`], parses it in the same go ([`crate::encoding::decode_and_parse`]).
fn decode<'a>(bytes: &'a [u8], charset: Option<&str>, options: &Options) -> Html<'a> {
    if options.no_decode {
        return Html {
            text: HtmlText::Bytes(Cow::Borrowed(bytes)),
            decoded_as: None,
        };
    }
    if let Some(parser) = &options.tree {
        let parsed = crate::encoding::decode_and_parse(bytes, charset, parser);
        return Html {
            decoded_as: Some(DecodedAs {
                encoding: parsed.encoding,
                rule: parsed.rule,
                had_replacements: parsed.had_replacements,
            }),
            text: HtmlText::Tree(Box::new(parsed.document)),
        };
    }
    let decoded = crate::encoding::decode(bytes, charset);
    Html {
        text: HtmlText::Bytes(match decoded.text {
            Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
            Cow::Owned(text) => Cow::Owned(text.into_bytes()),
        }),
        decoded_as: Some(DecodedAs {
            encoding: decoded.encoding,
            rule: decoded.rule,
            had_replacements: decoded.had_replacements,
        }),
    }
}

/// What a file is: by its name in a directory walk (which files the walk takes), by its
/// first bytes when it is read ([`crate::sniff`]: what it is, whatever its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    Html,
    Archive,
    Other,
    /// Neither HTML nor an archive, by its first bytes: what it is instead.
    NotHtml(&'static str),
}

impl From<crate::sniff::InputKind> for FileKind {
    fn from(kind: crate::sniff::InputKind) -> Self {
        match kind {
            crate::sniff::InputKind::Html => FileKind::Html,
            crate::sniff::InputKind::Archive => FileKind::Archive,
            crate::sniff::InputKind::NotHtml(what) => FileKind::NotHtml(what),
        }
    }
}

/// Which files a directory walk takes, by their name: `.html`, `.htm`, `.xhtml`, `.xht`,
/// `.shtml`; `.warc`, `.warc.gz`, `.warc.zst`, `.warc.lz4`, `.arc`, `.arc.gz` (any case).
/// What a taken file is then comes from its first bytes, as for a named file.
fn file_kind(path: &Path) -> FileKind {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return FileKind::Other;
    };
    let lower = name.to_ascii_lowercase();
    let archive = [
        ".warc",
        ".warc.gz",
        ".warc.zst",
        ".warc.lz4",
        ".arc",
        ".arc.gz",
    ];
    if archive.iter().any(|ext| lower.ends_with(ext)) {
        return FileKind::Archive;
    }
    let html = [".html", ".htm", ".xhtml", ".xht", ".shtml"];
    if html.iter().any(|ext| lower.ends_with(ext)) {
        FileKind::Html
    } else {
        FileKind::Other
    }
}

/// What a file is by its first bytes ([`crate::sniff`]).
fn sniff_file(path: &Path) -> io::Result<FileKind> {
    let mut head = Vec::with_capacity(crate::sniff::SNIFF_LEN);
    let kind = crate::sniff::sniff_reader(&mut fs::File::open(path)?, &mut head)?;
    Ok(kind.into())
}

struct Jobs<'o, I> {
    sources: I,
    options: &'o Options,
    /// Files the directory walk left out, by reason ([`BatchResult::passed_over`]).
    passed_over: &'o std::sync::Mutex<BTreeMap<&'static str, u64>>,
    /// The batch's threads: a WARC file is read on as many.
    threads: usize,
    /// Directories being walked: the entries not yet visited, last first.
    walk: Vec<Vec<PathBuf>>,
    warc: Option<WarcFile>,
}

impl<'o, I: Iterator<Item = Source>> Jobs<'o, I> {
    fn new(
        sources: I,
        options: &'o Options,
        threads: usize,
        passed_over: &'o std::sync::Mutex<BTreeMap<&'static str, u64>>,
    ) -> Self {
        Jobs {
            sources,
            options,
            passed_over,
            threads,
            walk: Vec::new(),
            warc: None,
        }
    }

    /// The job for a source given by the caller; None when there is none yet (a directory
    /// walk or a WARC file started).
    fn source(&mut self, source: Source) -> Option<Job> {
        match source {
            Source::Bytes {
                name,
                url,
                charset,
                bytes,
            } => match crate::sniff::sniff(&bytes) {
                crate::sniff::InputKind::Html => Some(Job::Loaded(Loaded {
                    name,
                    offset: None,
                    length: None,
                    url,
                    charset,
                    bytes,
                    pool: None,
                    record: None,
                    notices: Vec::new(),
                })),
                crate::sniff::InputKind::Archive => {
                    self.warc = Some(WarcFile::from_bytes(
                        name,
                        bytes,
                        self.options,
                        self.threads,
                    ));
                    None
                }
                crate::sniff::InputKind::NotHtml(what) => Some(Job::Failed(Failure {
                    source: name,
                    offset: None,
                    kind: FailureKind::NotHtml { what },
                })),
            },
            Source::Path(path) => match fs::metadata(&path) {
                Err(err) => Some(failed_path(path, err)),
                Ok(meta) if meta.is_dir() => self.enter(&path),
                Ok(_) => match sniff_file(&path) {
                    Ok(kind) => self.file(path, kind),
                    Err(err) => Some(failed_path(path, err)),
                },
            },
        }
    }

    /// The job for an entry of a directory walk; None when there is none (a file the walk
    /// leaves out, a directory entered, a WARC file started).
    fn walked(&mut self, path: PathBuf) -> Option<Job> {
        let meta = match fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(err) => return Some(failed_path(path, err)),
        };
        let is_file = if meta.file_type().is_symlink() {
            // Links to files are followed, links to directories are not (no cycles). A
            // dangling link the walk would have taken is an unreadable file.
            match fs::metadata(&path) {
                Ok(target) => target.is_file(),
                Err(err) if self.options.all_files || file_kind(&path) != FileKind::Other => {
                    return Some(failed_path(path, err));
                }
                Err(_) => false,
            }
        } else if meta.is_dir() {
            return self.enter(&path);
        } else {
            meta.is_file()
        };
        match file_kind(&path) {
            _ if !is_file && meta.file_type().is_symlink() => {
                self.pass_over("directory-link");
                None
            }
            _ if !is_file => None,
            FileKind::Other if !self.options.all_files => {
                self.pass_over("not-html-name");
                None
            }
            // Read and sniffed by the worker (Job::File), which takes any kind.
            FileKind::Html => self.file(path, FileKind::Html),
            _ => match sniff_file(&path) {
                Ok(kind) => self.file(path, kind),
                Err(err) => Some(failed_path(path, err)),
            },
        }
    }

    /// Counts a file the walk leaves out ([`BatchResult::passed_over`]).
    fn pass_over(&self, reason: &'static str) {
        if let Ok(mut counts) = self.passed_over.lock() {
            *counts.entry(reason).or_default() += 1;
        }
    }

    /// Starts walking a directory.
    fn enter(&mut self, dir: &Path) -> Option<Job> {
        match list(dir) {
            Ok((entries, hidden)) => {
                for _ in 0..hidden {
                    self.pass_over("hidden");
                }
                self.walk.push(entries);
                None
            }
            Err(err) => Some(failed_path(dir.to_path_buf(), err)),
        }
    }

    /// The job for one file; None when it is a WARC file whose reading started.
    fn file(&mut self, path: PathBuf, kind: FileKind) -> Option<Job> {
        match kind {
            FileKind::NotHtml(what) => Some(Job::Failed(Failure {
                source: path.display().to_string(),
                offset: None,
                kind: FailureKind::NotHtml { what },
            })),
            FileKind::Archive => match WarcFile::open(&path, self.options, self.threads) {
                Ok(warc) => {
                    self.warc = Some(warc);
                    None
                }
                Err(failure) => Some(Job::Failed(failure)),
            },
            _ => Some(Job::File {
                name: path.display().to_string(),
                path,
            }),
        }
    }
}

impl<I: Iterator<Item = Source>> Iterator for Jobs<'_, I> {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        loop {
            if self.options.stopped() {
                return None;
            }
            if let Some(warc) = &mut self.warc {
                match warc.next_job() {
                    Some(job) => return Some(job),
                    None => {
                        self.warc = None;
                        continue;
                    }
                }
            }
            let job = match self.walk.last_mut() {
                Some(entries) => match entries.pop() {
                    Some(path) => self.walked(path),
                    None => {
                        self.walk.pop();
                        continue;
                    }
                },
                None => {
                    let source = self.sources.next()?;
                    self.source(source)
                }
            };
            if job.is_some() {
                return job;
            }
        }
    }
}

fn failed_path(path: PathBuf, error: io::Error) -> Job {
    Job::Failed(Failure {
        source: path.display().to_string(),
        offset: None,
        kind: FailureKind::Io { path, error },
    })
}

/// A directory's entries, sorted so that popping gives them in byte order of their names;
/// names beginning with `.` left out.
fn list(dir: &Path) -> io::Result<(Vec<PathBuf>, u64)> {
    let mut entries = Vec::new();
    let mut hidden = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().as_encoded_bytes().starts_with(b".") {
            hidden += 1;
            continue;
        }
        entries.push(entry.path());
    }
    entries.sort_by(|a, b| b.as_os_str().cmp(a.as_os_str()));
    Ok((entries, hidden))
}

/// A WARC file being read. With one thread (or a file under two parts), record by
/// record: the worker that asks for the next job reads it. With more, part by part: the
/// jobs are the file's parts ([`crate::warc::ParallelReader`]'s, taken in order), and the
/// worker that takes one reads (inflates) it and maps its records right away, while they
/// are in its cache — no reading threads beside the batch's, and no records waiting
/// between the thread that inflated them and the one that tokenizes them.
struct WarcFile {
    file: Arc<WarcSource>,
    reading: Reading,
}

enum Reading {
    Records(Box<crate::warc::ParallelReader>),
    Parts {
        parts: crate::warc::Parts,
        next: u64,
    },
}

/// What the jobs of one WARC file share.
struct WarcSource {
    name: String,
    all_records: bool,
    /// The record bodies' buffers, given back by the workers once a record is done.
    pool: Arc<BufferPool>,
}

/// Part `k` of a WARC file, for a worker to read and run.
struct WarcPart {
    file: Arc<WarcSource>,
    parts: crate::warc::Parts,
    k: u64,
}

impl WarcFile {
    /// Opens a WARC file to be read on `threads` threads (one big file keeps every core
    /// busy; a small one is read on the thread that asks).
    fn open(path: &Path, options: &Options, threads: usize) -> Result<WarcFile, Failure> {
        let name = path.display().to_string();
        match crate::warc::open_parallel(path, threads) {
            Ok(reader) => Ok(WarcFile::new(name, reader, options, threads)),
            Err(error) => Err(Failure {
                source: name,
                offset: None,
                kind: FailureKind::Io {
                    path: path.to_path_buf(),
                    error,
                },
            }),
        }
    }

    /// An archive in memory (standard input, a buffer), read as a file is.
    fn from_bytes(name: String, bytes: Vec<u8>, options: &Options, threads: usize) -> WarcFile {
        let reader = crate::warc::ParallelReader::from_bytes(bytes, threads);
        WarcFile::new(name, reader, options, threads)
    }

    fn new(
        name: String,
        reader: crate::warc::ParallelReader,
        options: &Options,
        threads: usize,
    ) -> WarcFile {
        // Enough buffers for the records in flight: a part's per worker (a handful of
        // records in its 1.5 MB) when the workers read the parts, else the records of the
        // parts a ParallelReader reads ahead (some 20 in a 1 MiB part of a .warc.gz).
        let pool = Arc::new(BufferPool::new(32 * (threads + 1), KEEP_BUFFER));
        let reader = reader
            .every_record(true)
            .max_record_len(options.max_document_size)
            .buffer_pool(Arc::clone(&pool));
        let reader = match options.warc_part_size {
            Some(size) => reader.part_size(size),
            None => reader.record_sized_parts(),
        };
        let reading = match reader.into_parts() {
            Ok(parts) => Reading::Parts { parts, next: 0 },
            Err(reader) => Reading::Records(reader),
        };
        WarcFile {
            file: Arc::new(WarcSource {
                name,
                all_records: options.all_records,
                pool,
            }),
            reading,
        }
    }

    /// The next job: a record (or damage), or a part; None at the end of the file.
    fn next_job(&mut self) -> Option<Job> {
        match &mut self.reading {
            Reading::Records(reader) => {
                let item = reader.next()?;
                Some(self.file.job(item))
            }
            Reading::Parts { parts, next } => {
                if *next >= parts.count() {
                    return None;
                }
                *next += 1;
                Some(Job::WarcPart(WarcPart {
                    file: Arc::clone(&self.file),
                    parts: parts.clone(),
                    k: *next - 1,
                }))
            }
        }
    }
}

impl WarcSource {
    /// The job for one item of the reader: a record to map, one left out, or a failure.
    fn job(&self, item: Result<crate::warc::Record, crate::warc::Error>) -> Job {
        let record = match item {
            Ok(record) => record,
            Err(err) => {
                return Job::Failed(Failure {
                    source: self.name.clone(),
                    offset: Some(err.offset),
                    kind: FailureKind::Warc(err.kind),
                });
            }
        };
        if let Some(error) = &record.body_error {
            let (header, coding) = match (&record.transfer_encoding, &record.content_encoding) {
                (Some(te), _) => ("Transfer-Encoding", te.clone()),
                (None, Some(ce)) => ("Content-Encoding", ce.clone()),
                (None, None) => ("Content-Encoding", error.coding.clone()),
            };
            let failure = Failure {
                source: self.name.clone(),
                offset: Some(record.offset),
                kind: FailureKind::StillEncoded {
                    header,
                    coding,
                    why: error.why.clone(),
                },
            };
            self.pool.give(record.body);
            return Job::Failed(failure);
        }
        if let Err(reason) = crate::documents::classify_record(&record, self.all_records) {
            // Not a document; read in part, it is said (a notice), never passed over in
            // silence.
            let notice = record.damage.as_ref().map(|damage| Notice {
                source: self.name.clone(),
                offset: Some(record.offset),
                reason: damage.reason(),
                detail: format!("a {} record: {damage}", record.warc_type),
            });
            self.pool.give(record.body);
            if let Some(raw) = record.raw_body {
                self.pool.give(raw);
            }
            return Job::Ignored(reason, notice);
        }
        let mut notices: Vec<(&'static str, String)> = Vec::new();
        if let Some(damage) = &record.damage {
            notices.push((damage.reason(), damage.to_string()));
        }
        if let Some(truncated) = &record.warc_truncated {
            notices.push((
                "warc-truncated",
                format!("WARC-Truncated: {truncated}: the crawler stored less than was sent"),
            ));
        }
        for note in &record.payload_notes {
            notices.push((note.reason(), note.to_string()));
        }
        let info = RecordInfo {
            format: record.format,
            record_id: record.record_id,
            date: record.date,
            http_status: record.http_status,
            content_type: record.content_type,
            warc_truncated: record.warc_truncated,
            raw_body: record.raw_body,
        };
        Job::Loaded(Loaded {
            name: self.name.clone(),
            offset: Some(record.offset),
            length: record.length,
            url: record.target_uri,
            charset: record.charset,
            bytes: record.body,
            pool: Some(Arc::clone(&self.pool)),
            record: Some(Box::new(info)),
            notices,
        })
    }
}
