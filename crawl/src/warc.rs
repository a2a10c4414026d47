//! Reading and writing WARC files: `.warc`; `.warc.gz` with one gzip member per record
//! as Common Crawl, wget and Heritrix write them; `.warc.zst` with one zstd frame per
//! record as the IIPC proposal has it, perhaps with a dictionary in a skippable frame at
//! the start; and `.warc.lz4` with one LZ4 frame per record, as FastWARC reads them. The
//! reader tells them apart by their first bytes, not by the name.
//!
//! Below, what is said of a gzip member holds of a zstd or LZ4 frame alike.
//!
//! [`Reader`] yields the `response` records (and, unless turned off, the `resource`
//! records) of a WARC file as [`Record`]s: the record's offset in the file, its
//! `WARC-Target-URI` and `WARC-Date`, and for HTTP responses the status, the
//! `Content-Type` and its `charset` parameter, and the HTTP body. Other record types
//! (`warcinfo`, `request`, `metadata`, `revisit`, …) are skipped.
//!
//! ```no_run
//! # fn main() -> std::io::Result<()> {
//! for record in htmltok_crawl::warc::open("CC-MAIN-example.warc.gz".as_ref())? {
//!     match record {
//!         Ok(record) => println!("{} {:?} {} bytes", record.offset, record.target_uri, record.body.len()),
//!         Err(error) => eprintln!("{error}"), // names the offset; reading goes on
//!     }
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Why not the `warc` crate
//!
//! crates.io's `warc` (0.4) reads records but cannot say where a record starts in a
//! compressed file (it reads through libflate's multi-member decoder), stops at the first
//! malformed record, and pulls in chrono, uuid 0.8, url and nom. Corpus-scale tokenizing
//! needs the offsets (to point at a bad page, or to look a record up in a Common Crawl
//! index) and needs to get past damage, so this module has its own small reader on
//! `flate2` (one dependency, already common) and, for `.warc.zst`, the `zstd` crate
//! (libzstd, which the IIPC proposal's dictionaries need), for `.warc.lz4` `lz4_flex`.
//!
//! # Offsets
//!
//! [`Record::offset`] and [`Error::offset`] are byte offsets in the file as stored. In a
//! `.warc` that is the record's first byte (the `W` of `WARC/1.1`). In a `.warc.gz` it is
//! the start of the gzip member the record begins in — what Common Crawl's index calls the
//! record's `offset`: seek there and decompress one member to get the record. (A file
//! gzipped as a whole is one member; all its records then report offset 0.)
//!
//! # Damage
//!
//! No input makes the reader panic or loop. Each problem is one [`Error`] naming its
//! offset, and reading goes on where it can:
//!
//! - a gzip member that does not decompress (corrupt, truncated, wrong checksum, or bytes
//!   that are not gzip at all): reading resumes at the next gzip member that starts with
//!   `WARC/`, searched from the byte after the bad member's start (the member's compressed
//!   bytes are kept, up to 64 MiB, to search them again; a candidate is judged on its
//!   first bytes alone: a gzip member on its first 1 KiB, an LZ4 frame on its header and
//!   the start of its first block, a zstd frame on its first block, which libzstd decodes
//!   whole, up to 128 KiB, so a search through a crafted payload with a false frame start
//!   every few bytes is linear and flat in memory but slow, some 7.5 µs a false start);
//!   an LZ4 frame that the input ends in before its end mark is cut off, even when all
//!   of its record was decoded;
//! - a record that is malformed (no `WARC/` version line, a header line without a colon,
//!   a header block over 1 MiB, a missing or non-numeric `Content-Length`, one over
//!   [`Reader::max_record_len`], a block not followed by CR LF CR LF, input that ends
//!   inside it): in a `.warc`, reading resumes at the next WARC version line (a line
//!   that is `WARC/` digits `.` digits) after the record's first byte, so records that a
//!   too-large `Content-Length` swallowed are found again; in a `.warc.gz`, at the next
//!   member when the record was its member's first (the usual one record per member;
//!   a file gzipped as a whole then loses the rest), else at the next version line in the
//!   member. A record may not run past the end of its gzip member. If the member then
//!   turns out not to decompress, the gzip error, the cause, is the one reported;
//! - an I/O error from the underlying reader ends the iteration after it is reported.
//!
//! # HTTP payloads
//!
//! A `response` record whose block starts with `HTTP/` is split into status line, headers
//! and body. `Transfer-Encoding: chunked` is undone (WARC writers are meant to store the
//! message as received, chunk framing included); so are `Content-Encoding: gzip`,
//! `x-gzip` and `deflate`. Crawlers that store bodies already decoded rename those headers
//! (Common Crawl's `X-Crawler-Content-Encoding`, …), so nothing is undone there. A coding that is unknown (`br`, `zstd`) or fails to decode is left in
//! place and named in [`Record::transfer_encoding`] / [`Record::content_encoding`]; the
//! body is then the raw bytes. A block that does not start with an HTTP status line is the
//! body as a whole (a `resource` record, or a `response` to a `dns:` or `ftp:` request),
//! with the WARC `Content-Type`.

use std::borrow::Cow;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use flate2::Compression;
use flate2::bufread::GzDecoder;
use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};
use flate2::write::GzEncoder;

mod parallel;
mod pool;
pub(crate) use parallel::Parts;
pub use parallel::{ParallelReader, open_parallel};
pub use pool::BufferPool;

/// The first bytes of a gzip member: magic and the deflate method.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];
/// The first bytes of a zstd frame (the magic number 0xFD2FB528, little-endian).
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
/// The first bytes of an LZ4 frame (the magic number 0x184D2204, little-endian).
const LZ4_MAGIC: &[u8] = &[0x04, 0x22, 0x4d, 0x18];
/// The largest zstd dictionary read from a `.warc.zst`'s first frame.
const MAX_DICTIONARY: usize = 16 << 20;
/// Where a record starts after damage: a line beginning `WARC/`.
const RECORD_START: &[u8] = b"\nWARC/";
/// How many compressed bytes of one gzip member (or one plain record) are kept to search
/// again after damage.
const MAX_REWIND: usize = 64 << 20;
/// The largest WARC header block (version line and fields) accepted.
const MAX_HEADER: usize = 1 << 20;
/// Decompressed bytes are pulled in pieces of this size.
const CHUNK: usize = 64 << 10;
/// A record's block is inflated straight into it in pieces of up to this size.
const DIRECT: usize = 1 << 20;
/// The default for [`Reader::max_record_len`].
const DEFAULT_MAX_RECORD: u64 = 1 << 30;

// ---------------------------------------------------------------------------------------
// Records and errors
// ---------------------------------------------------------------------------------------

/// One `response` or `resource` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Where the record starts in the file (in a `.warc.gz`, the start of its gzip member).
    pub offset: u64,
    /// How many bytes of the file, from [`Record::offset`], the record takes as stored:
    /// in a `.warc`, through the CR LF CR LF after its block; in a `.warc.gz`, its gzip
    /// member's length (what Common Crawl's index calls `length`), or None when the record
    /// shares its member with other records (a file gzipped as a whole).
    pub length: Option<u64>,
    /// `WARC-Type`: `response` or `resource`.
    pub warc_type: String,
    /// `WARC-Target-URI` (angle brackets, which some WARC 1.0 writers put around it,
    /// removed).
    pub target_uri: Option<String>,
    /// `WARC-Date`, as written (`2024-02-29T12:00:00Z`).
    pub date: Option<String>,
    /// `WARC-Record-ID`, as written (`<urn:uuid:…>`).
    pub record_id: Option<String>,
    /// The HTTP status code, for a response with an HTTP status line.
    pub http_status: Option<u16>,
    /// The HTTP response's headers, in order, as `(name, value)` (values trimmed, folded
    /// lines joined); empty for a block that is not an HTTP message.
    pub http_headers: Vec<(String, String)>,
    /// The HTTP `Content-Type` header (the last one), or for a block that is not an HTTP
    /// message, the WARC record's `Content-Type`.
    pub content_type: Option<String>,
    /// The `charset` parameter of `content_type` (Fetch's "extract a MIME type"), as
    /// written: resolve it with `htmltok_crawl::encoding` or `encoding_rs`.
    pub charset: Option<String>,
    /// The `Transfer-Encoding` still applied to `body`: None when there was none or it was
    /// undone (`chunked`).
    pub transfer_encoding: Option<String>,
    /// The `Content-Encoding` still applied to `body`: None when there was none or it was
    /// undone (`gzip`, `x-gzip`, `deflate`).
    pub content_encoding: Option<String>,
    /// The HTTP body (for a block that is not an HTTP message, the whole block).
    pub body: Vec<u8>,
}

/// A problem in the input, at an offset in the file.
#[derive(Debug)]
pub struct Error {
    /// The offset of the record (in a `.warc.gz`, of the gzip member) where it is, or for an
    /// I/O error, how far reading got.
    pub offset: u64,
    /// What went wrong.
    pub kind: ErrorKind,
}

/// What went wrong; see the [module documentation](self#damage) for where reading resumes.
/// Its `Display` is the reason alone; [`Error`]'s adds the offset in front.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading the underlying input failed. The reader stops.
    Io(io::Error),
    /// A gzip member is corrupt or truncated, or the bytes there are not gzip.
    Gzip(io::Error),
    /// A zstd frame (`.warc.zst`) is corrupt or truncated, or the bytes there are not zstd;
    /// or the dictionary frame a `.warc.zst` starts with is.
    Zstd(io::Error),
    /// An LZ4 frame (`.warc.lz4`) is corrupt or truncated, or the bytes there are not LZ4.
    Lz4(io::Error),
    /// The record has no `WARC/` version line, or a header line is malformed, or the
    /// header block is too long.
    Header(HeaderError),
    /// `Content-Length` is missing, not a number, or over [`Reader::max_record_len`].
    ContentLength(ContentLengthError),
    /// The input (or the record's gzip member) ends inside the record.
    Truncated(Truncation),
    /// The record's block is not followed by CR LF CR LF: `Content-Length` is wrong.
    RecordEnd,
}

/// How a WARC header block is malformed ([`ErrorKind::Header`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// The record does not start with a version line such as `WARC/1.1`.
    NoVersionLine {
        /// The start of the line found instead (up to 60 bytes, lossily decoded).
        found: String,
    },
    /// A header line has no colon.
    NoColon {
        /// The start of the line (up to 60 bytes, lossily decoded).
        line: String,
    },
    /// A field name is empty or holds whitespace.
    BadFieldName {
        /// The start of the line (up to 60 bytes, lossily decoded).
        line: String,
    },
    /// The header block is longer than the limit.
    TooLong {
        /// The limit in bytes (1 MiB).
        limit: usize,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::NoVersionLine { found } => write!(
                f,
                "expected a version line such as `WARC/1.1`, found {found:?}"
            ),
            HeaderError::NoColon { line } => write!(f, "a field without a colon: {line:?}"),
            HeaderError::BadFieldName { line } => write!(f, "a malformed field name: {line:?}"),
            HeaderError::TooLong { limit } => {
                write!(f, "the header block is longer than {limit} bytes")
            }
        }
    }
}

impl std::error::Error for HeaderError {}

/// What is wrong with a record's `Content-Length` ([`ErrorKind::ContentLength`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentLengthError {
    /// The record has no `Content-Length` field.
    Missing,
    /// The value is not a decimal number.
    NotANumber {
        /// The value as written.
        value: String,
    },
    /// The record is larger than [`Reader::max_record_len`]: a document too large to read.
    OverLimit {
        /// The record's `Content-Length`.
        length: u64,
        /// The limit.
        limit: u64,
    },
}

impl fmt::Display for ContentLengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContentLengthError::Missing => f.write_str("the record has none"),
            ContentLengthError::NotANumber { value } => write!(f, "{value:?} is not a number"),
            ContentLengthError::OverLimit { length, limit } => {
                write!(f, "{length} is over the limit of {limit} bytes")
            }
        }
    }
}

impl std::error::Error for ContentLengthError {}

/// Where the input ended inside a record ([`ErrorKind::Truncated`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Truncation {
    /// In the WARC header block.
    InHeader,
    /// In the record's block.
    InBlock {
        /// The record's `Content-Length`.
        length: u64,
        /// How many bytes of block there were.
        read: u64,
        /// Whether it was the record's gzip member (or zstd frame) that ended (else the
        /// input).
        in_gzip_member: bool,
    },
}

impl fmt::Display for Truncation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Truncation::InHeader => f.write_str("the input ends in the WARC header"),
            Truncation::InBlock {
                length,
                read,
                in_gzip_member,
            } => write!(
                f,
                "Content-Length is {length} but the {} ends after {read} bytes of block",
                if *in_gzip_member {
                    "compressed member"
                } else {
                    "input"
                },
            ),
        }
    }
}

impl std::error::Error for Truncation {}

impl Error {
    /// Whether reading stopped because of this error (an I/O error).
    pub fn is_fatal(&self) -> bool {
        matches!(self.kind, ErrorKind::Io(_))
    }

    fn new(offset: u64, kind: ErrorKind) -> Self {
        Error { offset, kind }
    }
}

impl fmt::Display for ErrorKind {
    /// The reason, without the offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(error) => write!(f, "read error: {error}"),
            ErrorKind::Gzip(error) => write!(f, "bad gzip member: {error}"),
            ErrorKind::Zstd(error) => write!(f, "bad zstd frame: {error}"),
            ErrorKind::Lz4(error) => write!(f, "bad LZ4 frame: {error}"),
            ErrorKind::Header(what) => write!(f, "malformed WARC header: {what}"),
            ErrorKind::ContentLength(what) => write!(f, "bad Content-Length: {what}"),
            ErrorKind::Truncated(what) => write!(f, "truncated record: {what}"),
            ErrorKind::RecordEnd => f.write_str(
                "the record's block is not followed by CR LF CR LF (is Content-Length wrong?)",
            ),
        }
    }
}

impl std::error::Error for ErrorKind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ErrorKind::Io(error)
            | ErrorKind::Gzip(error)
            | ErrorKind::Zstd(error)
            | ErrorKind::Lz4(error) => Some(error),
            ErrorKind::Header(error) => Some(error),
            ErrorKind::ContentLength(error) => Some(error),
            ErrorKind::Truncated(error) => Some(error),
            ErrorKind::RecordEnd => None,
        }
    }
}

impl fmt::Display for Error {
    /// `WARC input at offset N: ` and the [`ErrorKind`]'s reason.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WARC input at offset {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

// ---------------------------------------------------------------------------------------
// Raw input: position, push-back and the bytes kept for rewinding
// ---------------------------------------------------------------------------------------

/// The file's bytes as stored, counting the position, with bytes pushed back in front of
/// the rest and the bytes consumed since a mark kept (up to [`MAX_REWIND`]) so that
/// reading can go back there after damage.
struct Raw<R> {
    inner: BufReader<R>,
    /// The offset in the file of the next byte.
    pos: u64,
    /// Bytes to read before `inner`'s, from `replay_at`.
    replay: Vec<u8>,
    replay_at: usize,
    mark: Option<Mark>,
    /// The underlying reader failed (so an error seen through the gzip decoder is an I/O
    /// error, not damage).
    io_failed: bool,
}

/// The bytes consumed since `offset`, unless there were more than [`MAX_REWIND`].
struct Mark {
    offset: u64,
    bytes: Vec<u8>,
    overflowed: bool,
}

impl<R: Read> Raw<R> {
    fn new(inner: R) -> Self {
        Raw {
            inner: BufReader::with_capacity(CHUNK, inner),
            pos: 0,
            replay: Vec::new(),
            replay_at: 0,
            mark: None,
            io_failed: false,
        }
    }

    /// Starts keeping the bytes consumed from here on.
    fn set_mark(&mut self) {
        self.mark = Some(Mark {
            offset: self.pos,
            bytes: Vec::new(),
            overflowed: false,
        });
    }

    fn mark_offset(&self) -> Option<u64> {
        self.mark.as_ref().map(|mark| mark.offset)
    }

    /// Goes back to `skip` bytes after the mark, if the bytes since are all kept; the mark
    /// is dropped either way. Returns whether it went back.
    fn rewind_to_mark(&mut self, skip: usize) -> bool {
        let Some(mark) = self.mark.take() else {
            return false;
        };
        if mark.overflowed || skip > mark.bytes.len() {
            return false;
        }
        self.unread(&mark.bytes[skip..]);
        self.pos = mark.offset + skip as u64;
        true
    }

    /// Puts `bytes` in front of the bytes to replay: where the replay's consumed bytes
    /// were when there is room (a search after damage rewinds once per candidate, and
    /// copying the whole rest of a long replay each time would make it quadratic), else in
    /// a new replay buffer.
    fn unread(&mut self, bytes: &[u8]) {
        if self.replay_at >= bytes.len() && self.replay_at < self.replay.len() {
            self.replay_at -= bytes.len();
            self.replay[self.replay_at..self.replay_at + bytes.len()].copy_from_slice(bytes);
        } else {
            let mut replay = Vec::with_capacity(bytes.len() + self.replay.len() - self.replay_at);
            replay.extend_from_slice(bytes);
            replay.extend_from_slice(&self.replay[self.replay_at..]);
            self.replay = replay;
            self.replay_at = 0;
        }
    }

    /// Goes to the byte after the mark: back, or on when the decoder that failed there
    /// consumed nothing (libzstd rejects some frame headers before taking a byte), so
    /// that a search from here never finds the same candidate again.
    fn step_past_mark(&mut self) {
        let Some(offset) = self.mark_offset() else {
            return;
        };
        if !self.rewind_to_mark(1) && self.pos == offset && matches!(self.fill_buf(), Ok([_, ..])) {
            self.consume(1);
        }
    }

    fn record(mark: &mut Option<Mark>, bytes: &[u8]) {
        if let Some(mark) = mark
            && !mark.overflowed
        {
            if mark.bytes.len() + bytes.len() > MAX_REWIND {
                mark.overflowed = true;
                mark.bytes = Vec::new();
            } else {
                mark.bytes.extend_from_slice(bytes);
            }
        }
    }
}

impl<R: Read> Read for Raw<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Raw<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.replay_at < self.replay.len() {
            return Ok(&self.replay[self.replay_at..]);
        }
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    self.io_failed = true;
                    return Err(error);
                }
            }
        }
        Ok(self.inner.buffer())
    }

    fn consume(&mut self, amount: usize) {
        let from_replay = self.replay.len() - self.replay_at;
        let amount = if from_replay > 0 {
            let amount = amount.min(from_replay);
            Self::record(
                &mut self.mark,
                &self.replay[self.replay_at..self.replay_at + amount],
            );
            self.replay_at += amount;
            if self.replay_at == self.replay.len() {
                self.replay.clear();
                self.replay_at = 0;
            }
            amount
        } else {
            let amount = amount.min(self.inner.buffer().len());
            Self::record(&mut self.mark, &self.inner.buffer()[..amount]);
            self.inner.consume(amount);
            amount
        };
        self.pos += amount as u64;
    }
}

/// Something to scan: bytes in pieces, consumed, with bytes pushed back in front.
trait Pull {
    /// The next bytes (empty at the end of the unit being read).
    fn pull(&mut self) -> Result<&[u8], Error>;
    fn advance(&mut self, amount: usize);
    /// Puts `bytes`, which were just consumed, back in front.
    fn push_back(&mut self, bytes: &[u8]);
}

impl<R: Read> Pull for Raw<R> {
    fn pull(&mut self) -> Result<&[u8], Error> {
        let pos = self.pos;
        self.fill_buf()
            .map_err(|error| Error::new(pos, ErrorKind::Io(error)))
    }

    fn advance(&mut self, amount: usize) {
        self.consume(amount);
    }

    fn push_back(&mut self, bytes: &[u8]) {
        if let Some(mark) = &mut self.mark
            && !mark.overflowed
        {
            let keep = mark.bytes.len().saturating_sub(bytes.len());
            mark.bytes.truncate(keep);
        }
        self.unread(bytes);
        self.pos = self.pos.saturating_sub(bytes.len() as u64);
    }
}

/// Consumes everything before the first occurrence of `needle` and returns true, or
/// consumes everything and returns false. `needle` must not have a proper prefix that is
/// also its suffix (true of [`GZIP_MAGIC`] and [`RECORD_START`]), so a failed partial
/// match can restart at the byte that failed.
fn skip_to<P: Pull>(input: &mut P, needle: &[u8]) -> Result<bool, Error> {
    enum Then {
        /// The needle starts this far into the piece.
        Found(usize),
        /// The needle's end is this long a prefix of the piece (its start was consumed).
        FoundAcross(usize),
        /// Consume this much; the consumed input then ends with this much of the needle.
        Partial(usize, usize),
    }
    // How many bytes of `needle` the consumed input ends with.
    let mut matched = 0;
    loop {
        let then = {
            let buf = input.pull()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let n = (needle.len() - matched).min(buf.len());
            if matched > 0 && buf[..n] == needle[matched..matched + n] {
                if matched + n == needle.len() {
                    Then::FoundAcross(n)
                } else {
                    Then::Partial(n, matched + n)
                }
            } else if let Some(at) = memchr::memmem::find(buf, needle) {
                Then::Found(at)
            } else {
                // The longest end of the piece that begins the needle.
                let from = buf.len().saturating_sub(needle.len() - 1);
                let keep = (from..buf.len())
                    .find(|&i| needle.starts_with(&buf[i..]))
                    .map_or(0, |i| buf.len() - i);
                Then::Partial(buf.len(), keep)
            }
        };
        match then {
            Then::Found(at) => {
                input.advance(at);
                return Ok(true);
            }
            Then::FoundAcross(n) => {
                input.advance(n);
                input.push_back(needle);
                return Ok(true);
            }
            Then::Partial(consume, now_matched) => {
                input.advance(consume);
                matched = now_matched;
            }
        }
    }
}

/// Consumes everything before the next line that looks like a WARC version line
/// (`WARC/1.1`: digits, a dot, digits, then the line end) and returns true, or consumes
/// everything and returns false. A line such as `WARC/1.0 inside a page` is passed over.
fn skip_to_record_start<P: Pull>(input: &mut P) -> Result<bool, Error> {
    loop {
        if !skip_to(input, RECORD_START)? {
            return Ok(false);
        }
        input.advance(1); // the LF before `WARC/`
        let mut line = Vec::new();
        let mut at_line_end = false;
        while line.len() < 16 {
            let Some(&byte) = input.pull()?.first() else {
                break;
            };
            if byte == b'\n' {
                at_line_end = true;
                break;
            }
            line.push(byte);
            input.advance(1);
        }
        if at_line_end && is_version_line(&line) {
            input.push_back(&line);
            return Ok(true);
        }
        // Not a record: search on from here (an LF where the check stopped is unread).
    }
}

/// `WARC/` digits `.` digits, and an optional CR.
fn is_version_line(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some(version) = line.strip_prefix(b"WARC/") else {
        return false;
    };
    let mut parts = version.split(|&b| b == b'.');
    let (Some(major), Some(minor), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    [major, minor]
        .iter()
        .all(|part| !part.is_empty() && part.iter().all(u8::is_ascii_digit))
}

// ---------------------------------------------------------------------------------------
// The decompressed stream: the whole file, or one gzip member at a time
// ---------------------------------------------------------------------------------------

/// How the units of a compressed WARC are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    /// `.warc.gz`: a gzip member per record.
    Gzip,
    /// `.warc.zst`: a zstd frame per record (the IIPC proposal), perhaps with a dictionary.
    Zstd,
    /// `.warc.lz4`: an LZ4 frame per record (as FastWARC reads and writes them).
    Lz4,
}

impl Codec {
    /// The bytes a unit starts with.
    fn magic(self) -> &'static [u8] {
        match self {
            Codec::Gzip => GZIP_MAGIC,
            Codec::Zstd => ZSTD_MAGIC,
            Codec::Lz4 => LZ4_MAGIC,
        }
    }

    /// The error of a unit that does not decompress.
    fn error(self, error: io::Error) -> ErrorKind {
        match self {
            Codec::Gzip => ErrorKind::Gzip(error),
            Codec::Zstd => ErrorKind::Zstd(error),
            Codec::Lz4 => ErrorKind::Lz4(error),
        }
    }

    /// The codec of a file that starts with `head` (at least its first four bytes, when
    /// it has them); None for a plain WARC.
    pub(crate) fn of(head: &[u8]) -> Option<Codec> {
        if head.starts_with(&GZIP_MAGIC[..2]) {
            Some(Codec::Gzip)
        } else if head.starts_with(ZSTD_MAGIC) || is_skippable_frame(head) {
            // A skippable frame is also LZ4's; a file that starts with one is taken for a
            // `.warc.zst`, where the proposal puts the dictionary there.
            Some(Codec::Zstd)
        } else if head.starts_with(LZ4_MAGIC) {
            Some(Codec::Lz4)
        } else {
            None
        }
    }
}

/// Whether `head` starts with the magic number of a zstd skippable frame
/// (0x184D2A50 to 0x184D2A5F, little-endian); 0x184D2A5D holds a `.warc.zst`'s dictionary.
fn is_skippable_frame(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// Reads into `buf` until it is full or the input ends; how many bytes it got.
fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(got)
}

/// A `.warc.zst` dictionary from its skippable frame's content, which is either the
/// dictionary or a zstd frame of it; checked by building a decoder with it.
fn read_dictionary(content: Vec<u8>) -> io::Result<Vec<u8>> {
    let dictionary = if content.starts_with(ZSTD_MAGIC) {
        let mut out = Vec::new();
        zstd::stream::read::Decoder::new(&content[..])?
            .take(MAX_DICTIONARY as u64 + 1)
            .read_to_end(&mut out)?;
        if out.len() > MAX_DICTIONARY {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the dictionary is too large",
            ));
        }
        out
    } else {
        content
    };
    zstd_context(Some(&dictionary))?;
    Ok(dictionary)
}

/// The dictionary a `.warc.zst` read from its start gets (see
/// [`Stream::skip_skippable_frame`]): its first frame a skippable frame of the
/// dictionary's magic number, whole, at most [`MAX_DICTIONARY`], a dictionary libzstd
/// takes (perhaps zstd-compressed); else None, as the sequential reader then has none.
fn leading_dictionary(mut input: impl Read) -> Option<std::sync::Arc<[u8]>> {
    let mut head = [0u8; 8];
    if read_up_to(&mut input, &mut head).ok()? < 8 || !is_skippable_frame(&head) || head[0] != 0x5d
    {
        return None;
    }
    let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
    if size > MAX_DICTIONARY {
        return None;
    }
    let mut content = Vec::with_capacity(size);
    input.take(size as u64).read_to_end(&mut content).ok()?;
    if content.len() < size {
        return None;
    }
    read_dictionary(content).ok().map(Into::into)
}

/// A zstd decompression context, kept from frame to frame: creating one costs more
/// than decoding a small record's frame, and loading the dictionary into it more still.
type ZstdContext = zstd::zstd_safe::DCtx<'static>;

/// A new context, with the file's dictionary loaded; an error only when libzstd cannot
/// allocate (the dictionary was checked when it was read).
fn zstd_context(dictionary: Option<&[u8]>) -> io::Result<ZstdContext> {
    let mut context = ZstdContext::try_create()
        .ok_or_else(|| io::Error::other("zstd cannot allocate a context"))?;
    if let Some(dictionary) = dictionary {
        context.load_dictionary(dictionary).map_err(zstd_error)?;
    }
    Ok(context)
}

fn zstd_error(code: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        zstd::zstd_safe::get_error_name(code),
    )
}

/// The error of a frame that does not decode. libzstd decodes a frame in one call when
/// the whole of it is in the input buffer and the output has room for the size its header
/// declares, and then reports content beyond that size as "Destination buffer is too
/// small", where decoding it piece by piece reports the same frame as corrupt. Which
/// path it takes depends on how the input happens to be buffered, so that one is reported
/// as the other: the report must depend on the bytes alone.
fn zstd_decode_error(code: usize) -> io::Error {
    let name = zstd::zstd_safe::get_error_name(code);
    if name == "Destination buffer is too small" {
        io::Error::new(io::ErrorKind::InvalidData, "Data corruption detected")
    } else {
        zstd_error(code)
    }
}

/// The decoder of exactly one zstd frame over a buffered input: it consumes the frame's
/// bytes and no more, so the input is positioned at the next frame afterwards.
struct ZstdFrame<B> {
    input: B,
    context: ZstdContext,
    done: bool,
}

impl<B: BufRead> ZstdFrame<B> {
    /// Starts a frame at `input`'s position with `context`, reset for it (its
    /// dictionary stays loaded).
    fn new(input: B, mut context: ZstdContext) -> io::Result<ZstdFrame<B>> {
        context
            .reset(zstd::zstd_safe::ResetDirective::SessionOnly)
            .map_err(zstd_error)?;
        Ok(ZstdFrame {
            input,
            context,
            done: false,
        })
    }
}

impl<B: BufRead> Read for ZstdFrame<B> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.done {
                return Ok(0);
            }
            let available = self.input.fill_buf()?;
            if available.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the zstd frame is cut off",
                ));
            }
            let mut input = zstd::zstd_safe::InBuffer::around(available);
            let mut output = zstd::zstd_safe::OutBuffer::around(&mut *buf);
            let result = self.context.decompress_stream(&mut output, &mut input);
            let (consumed, produced) = (input.pos(), output.pos());
            self.input.consume(consumed);
            match result {
                Ok(0) => self.done = true,
                Ok(_) => {}
                Err(code) => return Err(zstd_decode_error(code)),
            }
            if produced > 0 || self.done {
                return Ok(produced);
            }
        }
    }
}

/// The decoder of exactly one LZ4 frame. lz4_flex's frame decoder reads its input with
/// `read_exact` of the sizes the frame states, so it consumes the frame's bytes and no
/// more; a read that returns 0 ends the frame (the decoder would go on into the next
/// frame on the read after). A block that decodes to nothing, which no encoder writes,
/// would end the frame early here: its rest is then damage after it, reported and
/// skipped as such.
///
/// lz4_flex takes an input that ends where a block (or the end mark) should start for the
/// end of the frame, content checksum and content size unchecked; here the end of the
/// input before the end mark is a frame cut off, as a gzip member without its trailer is.
pub(crate) struct Lz4Frame<R: Read> {
    decoder: lz4_flex::frame::FrameDecoder<EndWatch<R>>,
    /// Bytes decoded so far; None once the frame has ended.
    decoded: Option<u64>,
}

/// A reader that notes when its input has ended (a read of a non-empty buffer gave 0).
struct EndWatch<R> {
    inner: R,
    ended: bool,
}

impl<R: Read> Read for EndWatch<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.ended = true;
        }
        Ok(n)
    }
}

impl<R: Read> Lz4Frame<R> {
    pub(crate) fn new(input: R) -> Lz4Frame<R> {
        Lz4Frame {
            decoder: lz4_flex::frame::FrameDecoder::new(EndWatch {
                inner: input,
                ended: false,
            }),
            decoded: Some(0),
        }
    }

    fn get_ref(&self) -> &R {
        &self.decoder.get_ref().inner
    }

    fn into_inner(self) -> R {
        self.decoder.into_inner().inner
    }
}

impl<R: Read> Read for Lz4Frame<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(decoded) = self.decoded else {
            return Ok(0);
        };
        if buf.is_empty() {
            return Ok(0);
        }
        let cut_off = || io::Error::new(io::ErrorKind::UnexpectedEof, "the LZ4 frame is cut off");
        let n = match self.decoder.read(buf) {
            Ok(n) => n,
            Err(_) if self.decoder.get_ref().ended => {
                self.decoded = None;
                return Err(cut_off());
            }
            // lz4_flex's own errors come as io::Error of kind Other; they are damage.
            Err(error) if error.kind() == io::ErrorKind::Other => {
                self.decoded = None;
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    error.to_string(),
                ));
            }
            Err(error) => {
                self.decoded = None;
                return Err(error);
            }
        };
        if n == 0 {
            self.decoded = None;
            if self.decoder.get_ref().ended {
                return Err(cut_off());
            }
            if decoded == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the LZ4 frame is empty",
                ));
            }
        } else {
            self.decoded = Some(decoded + n as u64);
        }
        Ok(n)
    }
}

/// How many bytes of a candidate gzip member [`gzip_starts_warc`] looks at.
pub(crate) const GZIP_PEEK: usize = 1024;

/// Whether `head`, the first bytes (up to [`GZIP_PEEK`]) at a gzip member's magic,
/// inflates to bytes starting `WARC/`, on these bytes alone: a member whose header (extra
/// field, file name, comment) and deflate blocks take more than that before its first
/// five bytes, which no WARC writer makes, is not taken for a record start. Decoding the
/// candidate from the input instead read a header that never ends (a file name with no
/// NUL) on to the end of the file, for every candidate: 1 MB of such headers took 40 s.
pub(crate) fn gzip_starts_warc(head: &[u8]) -> bool {
    // The header's end first (RFC 1952 § 2.3): no decoder for a header that does not end
    // within `head`.
    let Some(&flags) = head.get(3) else {
        return false;
    };
    let mut end = 10;
    if flags & 0x04 != 0 {
        let Some(xlen) = head.get(end..end + 2) else {
            return false;
        };
        end += 2 + usize::from(u16::from_le_bytes([xlen[0], xlen[1]]));
    }
    for field in [0x08, 0x10] {
        if flags & field != 0 {
            match head.get(end..).and_then(|rest| memchr::memchr(0, rest)) {
                Some(nul) => end += nul + 1,
                None => return false,
            }
        }
    }
    if flags & 0x02 != 0 {
        end += 2;
    }
    if end >= head.len() {
        return false;
    }
    let mut decoder = GzDecoder::new(head);
    let mut out = [0u8; 5];
    let mut got = 0;
    while got < out.len() {
        match decoder.read(&mut out[got..]) {
            Ok(0) | Err(_) => return false,
            Ok(n) => got += n,
        }
    }
    out == *b"WARC/"
}

/// How many bytes of a candidate LZ4 frame [`lz4_starts_warc`] looks at.
pub(crate) const LZ4_PEEK: usize = 256;

/// Whether `decoder`, a zstd frame's decoder, decodes to bytes starting `WARC/`: the
/// judgment of a candidate frame after damage, shared by the sequential reader and the
/// parallel one, which relies on the two deciding alike. Exactly five bytes are read:
/// how far a read gets past them depends on how the input happens to be cut into
/// buffers, and what is decided must depend on the bytes alone.
pub(crate) fn decodes_to_warc(decoder: &mut impl Read) -> bool {
    let mut head = [0u8; 5];
    let mut got = 0;
    while got < head.len() {
        match decoder.read(&mut head[got..]) {
            Ok(0) | Err(_) => return false,
            Ok(n) => got += n,
        }
    }
    head == *b"WARC/"
}

/// Whether `head`, the first bytes (up to [`LZ4_PEEK`]) at an LZ4 frame's magic number,
/// is the start of a frame lz4_flex takes (version, reserved bits, block size, no
/// dictionary, header checksum) whose first block, within the frame's block size, starts
/// with `WARC/` (stored, or as the literals the block begins with). Where a reader looks
/// for the next frame after damage, this decides, on these bytes alone, where it resumes:
/// decoding the candidate would read its whole first block (up to 4 MiB) for five bytes.
pub(crate) fn lz4_starts_warc(head: &[u8]) -> bool {
    const WARC: &[u8] = b"WARC/";
    if !head.starts_with(LZ4_MAGIC) || head.len() < 7 {
        return false;
    }
    let (flg, bd) = (head[4], head[5]);
    if flg & 0b1100_0000 != 0b0100_0000
        || flg & 0b10 != 0
        || flg & 0b1 != 0
        || bd & !0b0111_0000 != 0
    {
        return false;
    }
    let max_block: u32 = match bd >> 4 {
        4 => 64 << 10,
        5 => 256 << 10,
        6 => 1 << 20,
        7 => 4 << 20,
        _ => return false,
    };
    let descriptor_end = 6 + if flg & 0b1000 != 0 { 8 } else { 0 };
    let Some(&checksum) = head.get(descriptor_end) else {
        return false;
    };
    let hash = twox_hash::XxHash32::oneshot(0, &head[4..descriptor_end]);
    if (hash >> 8) as u8 != checksum {
        return false;
    }
    let block_at = descriptor_end + 1;
    let Some(word) = head.get(block_at..block_at + 4) else {
        return false;
    };
    let word = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
    let (stored, len) = (word & 0x8000_0000 != 0, word & 0x7fff_ffff);
    if len > max_block {
        return false;
    }
    let data = &head[block_at + 4..];
    let literals = if stored {
        0
    } else {
        // The block's first sequence: a token whose high nibble is the literal length
        // (15: plus the bytes after it, up to one below 255), then the literals.
        let Some(&token) = data.first() else {
            return false;
        };
        let mut literal_len = usize::from(token >> 4);
        let mut at = 1;
        if literal_len == 15 {
            loop {
                let Some(&byte) = data.get(at) else {
                    return false;
                };
                at += 1;
                literal_len += usize::from(byte);
                if byte != 255 {
                    break;
                }
            }
        }
        if literal_len < WARC.len() {
            return false;
        }
        at
    };
    literals + WARC.len() <= len as usize && data[literals..].starts_with(WARC)
}

/// The decoder of one compressed unit, over the raw input (in a Box: `Source::Member`).
enum Member<R: Read> {
    Gzip(GzDecoder<Raw<R>>),
    Zstd(ZstdFrame<Raw<R>>),
    Lz4(Lz4Frame<Raw<R>>),
}

impl<R: Read> Member<R> {
    /// A decoder of the unit starting at `raw`'s position; a zstd frame takes the spare
    /// context (or a new one, with `dictionary`). Making a context fails only when
    /// libzstd cannot allocate: the input is lost with it, and the reader stops as on an
    /// I/O error.
    fn new(
        codec: Codec,
        raw: Raw<R>,
        spare: &mut Option<ZstdContext>,
        dictionary: Option<&[u8]>,
    ) -> io::Result<Member<R>> {
        Ok(match codec {
            Codec::Gzip => Member::Gzip(GzDecoder::new(raw)),
            Codec::Lz4 => Member::Lz4(Lz4Frame::new(raw)),
            Codec::Zstd => {
                let context = match spare.take() {
                    Some(context) => context,
                    None => zstd_context(dictionary)?,
                };
                Member::Zstd(ZstdFrame::new(raw, context)?)
            }
        })
    }

    fn get_ref(&self) -> &Raw<R> {
        match self {
            Member::Gzip(decoder) => decoder.get_ref(),
            Member::Zstd(frame) => &frame.input,
            Member::Lz4(frame) => frame.get_ref(),
        }
    }

    /// The raw input, positioned where the decoder stopped; a zstd context goes back to
    /// `spare`.
    fn into_inner(self, spare: &mut Option<ZstdContext>) -> Raw<R> {
        match self {
            Member::Gzip(decoder) => decoder.into_inner(),
            Member::Zstd(frame) => {
                *spare = Some(frame.context);
                frame.input
            }
            Member::Lz4(frame) => frame.into_inner(),
        }
    }
}

impl<R: Read> Read for Member<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Member::Gzip(decoder) => decoder.read(buf),
            Member::Zstd(frame) => frame.read(buf),
            Member::Lz4(frame) => frame.read(buf),
        }
    }
}

enum Source<R: Read> {
    /// Not read yet: plain or gzip is decided by the first bytes.
    Unknown(Raw<R>),
    /// A `.warc`: one unit, the file.
    Plain(Raw<R>),
    /// A `.warc.gz` or `.warc.zst`, inside a member (frame).
    Member(Box<Member<R>>),
    /// A `.warc.gz` or `.warc.zst`, before the first member or after the last.
    Between(Raw<R>),
    /// After an I/O error.
    Gone,
}

/// The WARC bytes, in units: a plain file is one unit, a `.warc.gz` one unit per member.
struct Stream<R: Read> {
    source: Source<R>,
    /// The current member's offset in the file.
    member_start: u64,
    /// The current member has no more data.
    member_done: bool,
    /// No record of the current member has been read whole yet.
    first_in_member: bool,
    /// Decompressed bytes: `out[out_at..out_end]` (`out` is [`CHUNK`] long once used).
    out: Vec<u8>,
    out_at: usize,
    out_end: usize,
    /// Decompressed bytes pushed back, read before `out`'s.
    front: Vec<u8>,
    /// Where a part read by [`ParallelReader`] ends: the reading stops at the first
    /// record (plain) or member (gzip) that starts at or after it.
    limit: u64,
    /// The start of the record or member the reading stopped at because of `limit`.
    landed: Option<u64>,
    /// For [`ParallelReader`]: every start of a record (plain) or member (gzip) read, in
    /// order. The reader's state at such a start depends on nothing but the offset and the
    /// bytes after it, which is what makes reading a file in parts exact.
    starts: Option<Vec<u64>>,
    /// How the units are compressed (when they are: `Member`, `Between`).
    codec: Codec,
    /// A `.warc.zst`'s dictionary, from the skippable frame it starts with.
    dictionary: Option<std::sync::Arc<[u8]>>,
    /// The zstd context between frames (with the dictionary loaded).
    zstd_context: Option<ZstdContext>,
}

impl<R: Read> Stream<R> {
    fn new(inner: R) -> Self {
        Stream {
            source: Source::Unknown(Raw::new(inner)),
            member_start: 0,
            member_done: true,
            first_in_member: true,
            out: Vec::new(),
            out_at: 0,
            out_end: 0,
            front: Vec::new(),
            limit: u64::MAX,
            landed: None,
            starts: None,
            codec: Codec::Gzip,
            dictionary: None,
            zstd_context: None,
        }
    }

    /// A stream over `inner`, whose first byte is at `offset` in the file, already known to
    /// be plain (`codec` None) or compressed, read up to `limit` (see [`Stream::limit`]),
    /// noting the starts.
    fn part(inner: R, codec: Option<Codec>, offset: u64, limit: u64) -> Self {
        let mut raw = Raw::new(inner);
        raw.pos = offset;
        Stream {
            source: if codec.is_some() {
                Source::Between(raw)
            } else {
                Source::Plain(raw)
            },
            member_start: offset,
            member_done: true,
            first_in_member: true,
            out: Vec::new(),
            out_at: 0,
            out_end: 0,
            front: Vec::new(),
            limit,
            landed: None,
            starts: Some(Vec::new()),
            codec: codec.unwrap_or(Codec::Gzip),
            dictionary: None,
            zstd_context: None,
        }
    }

    /// The underlying reader, when reading has not started (for [`Stream::part`]).
    fn take_input(self) -> R {
        match self.source {
            Source::Unknown(raw) => raw.inner.into_inner(),
            _ => unreachable!("take_input is called before reading"),
        }
    }

    /// A record (plain) or member (gzip) starts at `offset`: noted; true when it is at or
    /// past the limit, where the reading stops.
    fn start_at(&mut self, offset: u64) -> bool {
        if offset >= self.limit {
            self.landed = Some(offset);
            return true;
        }
        if let Some(starts) = &mut self.starts {
            starts.push(offset);
        }
        false
    }

    /// Decides plain, gzip or zstd from the first four bytes.
    fn detect(&mut self) -> Result<(), Error> {
        let Source::Unknown(raw) = &mut self.source else {
            return Ok(());
        };
        let mut head = [0u8; 4];
        let mut got = 0;
        while got < head.len() {
            match raw.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(error) => {
                    self.source = Source::Gone;
                    return Err(Error::new(got as u64, ErrorKind::Io(error)));
                }
            }
        }
        raw.push_back(&head[..got]);
        let Source::Unknown(raw) = std::mem::replace(&mut self.source, Source::Gone) else {
            return Ok(());
        };
        self.source = match Codec::of(&head[..got]) {
            Some(codec) => {
                self.codec = codec;
                Source::Between(raw)
            }
            None => Source::Plain(raw),
        };
        Ok(())
    }

    /// Whether the input is compressed unit by unit (`.warc.gz`, `.warc.zst`).
    fn is_compressed(&self) -> bool {
        matches!(self.source, Source::Member(_) | Source::Between(_))
    }

    /// Where a record starting at the next byte is said to start.
    fn record_offset(&self) -> u64 {
        match &self.source {
            Source::Plain(raw) => raw.pos,
            _ => self.member_start,
        }
    }

    /// In a plain file, starts keeping the record's bytes for a rewind.
    fn mark_record(&mut self) {
        if let Source::Plain(raw) = &mut self.source {
            raw.set_mark();
        }
    }

    /// A record was read whole: in a plain file, its bytes need not be kept any more.
    fn record_done(&mut self) {
        self.first_in_member = false;
        if let Source::Plain(raw) = &mut self.source {
            raw.mark = None;
        }
    }

    /// The length as stored of a record that started at `offset` and was just read whole
    /// (with [`Stream::fill`] called after it): in a plain file, up to here; in a gzip
    /// member, the member's length when the record was all of it, else None.
    fn stored_length(&self, offset: u64, first_in_member: bool) -> Option<u64> {
        match &self.source {
            Source::Plain(raw) => Some(raw.pos - offset),
            Source::Member(decoder)
                if first_in_member
                    && self.member_done
                    && self.front.is_empty()
                    && self.out_at >= self.out_end =>
            {
                Some(decoder.get_ref().pos - self.member_start)
            }
            _ => None,
        }
    }

    /// The next bytes of the current unit; empty at its end.
    fn fill(&mut self) -> Result<&[u8], Error> {
        match &mut self.source {
            Source::Plain(raw) => {
                let pos = raw.pos;
                raw.fill_buf()
                    .map_err(|error| Error::new(pos, ErrorKind::Io(error)))
            }
            Source::Member(decoder) => {
                if !self.front.is_empty() {
                    return Ok(&self.front);
                }
                if self.out_at < self.out_end {
                    return Ok(&self.out[self.out_at..self.out_end]);
                }
                if self.member_done {
                    return Ok(&[]);
                }
                if self.out.is_empty() {
                    self.out = vec![0; CHUNK];
                }
                self.out_at = 0;
                self.out_end = 0;
                match decoder.read(&mut self.out) {
                    Ok(n) => {
                        self.out_end = n;
                        if n == 0 {
                            self.member_done = true;
                        }
                        Ok(&self.out[..n])
                    }
                    Err(error) => {
                        self.member_done = true;
                        let raw = decoder.get_ref();
                        Err(if raw.io_failed {
                            Error::new(raw.pos, ErrorKind::Io(error))
                        } else {
                            Error::new(self.member_start, self.codec.error(error))
                        })
                    }
                }
            }
            Source::Unknown(_) | Source::Between(_) | Source::Gone => Ok(&[]),
        }
    }

    /// Inflates up to `max` bytes of the current gzip member straight onto the end of
    /// `into` (no copy through [`Stream::out`]), when nothing decompressed is waiting;
    /// None when that is not the case (then [`Stream::fill`] it is). `Some(0)`: the member
    /// ended.
    fn read_direct(&mut self, into: &mut Vec<u8>, max: usize) -> Result<Option<usize>, Error> {
        let Source::Member(decoder) = &mut self.source else {
            return Ok(None);
        };
        if !self.front.is_empty() || self.out_at < self.out_end || self.member_done {
            return Ok(None);
        }
        let old = into.len();
        into.resize(old + max.min(DIRECT), 0);
        let result = decoder.read(&mut into[old..]);
        match result {
            Ok(n) => {
                into.truncate(old + n);
                if n == 0 {
                    self.member_done = true;
                }
                Ok(Some(n))
            }
            Err(error) => {
                into.truncate(old);
                self.member_done = true;
                let raw = decoder.get_ref();
                Err(if raw.io_failed {
                    Error::new(raw.pos, ErrorKind::Io(error))
                } else {
                    Error::new(self.member_start, self.codec.error(error))
                })
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        match &mut self.source {
            Source::Plain(raw) => raw.consume(amount),
            Source::Member(_) if !self.front.is_empty() => {
                self.front.drain(..amount.min(self.front.len()));
            }
            Source::Member(_) => self.out_at = (self.out_at + amount).min(self.out_end),
            _ => {}
        }
    }

    /// Moves to the next unit (the next gzip member), draining the current one. Returns
    /// false at the end of the input.
    fn next_unit(&mut self) -> Result<bool, Error> {
        if !self.is_compressed() {
            return Ok(false);
        }
        self.drain_member()?;
        let raw = match std::mem::replace(&mut self.source, Source::Gone) {
            Source::Member(decoder) => decoder.into_inner(&mut self.zstd_context),
            Source::Between(raw) => raw,
            other => {
                self.source = other;
                return Ok(false);
            }
        };
        self.start_member(raw)
    }

    /// Reads the rest of the current member, discarding it.
    fn drain_member(&mut self) -> Result<(), Error> {
        while matches!(self.source, Source::Member(_)) {
            let n = self.fill()?.len();
            if n == 0 {
                break;
            }
            self.consume(n);
        }
        Ok(())
    }

    /// Starts decoding a member at the raw input's position; false at the end. In a
    /// `.warc.zst`, skippable frames are passed over first; the one a file starts with may
    /// hold the dictionary of the frames after it.
    fn start_member(&mut self, mut raw: Raw<R>) -> Result<bool, Error> {
        loop {
            match raw.fill_buf() {
                Ok([]) => {
                    self.source = Source::Between(raw);
                    return Ok(false);
                }
                Ok(_) => {}
                Err(error) => {
                    let pos = raw.pos;
                    self.source = Source::Gone;
                    return Err(Error::new(pos, ErrorKind::Io(error)));
                }
            }
            if self.codec == Codec::Gzip {
                break;
            }
            match self.skip_skippable_frame(&mut raw) {
                Ok(true) => continue,
                Ok(false) => break,
                Err(error) => {
                    self.source = Source::Between(raw);
                    return Err(error);
                }
            }
        }
        if self.start_at(raw.pos) {
            self.source = Source::Gone;
            return Ok(false);
        }
        raw.set_mark();
        self.member_start = raw.pos;
        self.member_done = false;
        self.first_in_member = true;
        self.out_at = 0;
        self.out_end = 0;
        self.front.clear();
        let pos = raw.pos;
        match Member::new(
            self.codec,
            raw,
            &mut self.zstd_context,
            self.dictionary.as_deref(),
        ) {
            Ok(member) => {
                self.source = Source::Member(Box::new(member));
                Ok(true)
            }
            Err(error) => {
                self.source = Source::Gone;
                Err(Error::new(pos, ErrorKind::Io(error)))
            }
        }
    }

    /// In a `.warc.zst` or `.warc.lz4`: when a skippable frame starts here, reads past it (keeping it as
    /// the dictionary when it is the file's first frame and of the dictionary's magic
    /// number) and returns true; false when something else starts here. A skippable frame
    /// cut off by the end of the file is an error, and reading goes on after what is there.
    fn skip_skippable_frame(&mut self, raw: &mut Raw<R>) -> Result<bool, Error> {
        let start = raw.pos;
        // After an error here, the search for the next frame starts from this frame's
        // second byte, as after a bad frame.
        raw.set_mark();
        let mut head = [0u8; 8];
        let got = read_up_to(raw, &mut head).map_err(|e| Error::new(start, ErrorKind::Io(e)))?;
        if got < 4 || !is_skippable_frame(&head[..got]) {
            raw.push_back(&head[..got]);
            return Ok(false);
        }
        let codec = self.codec;
        let truncated = |what: &str| {
            Error::new(
                start,
                codec.error(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("the skippable frame ends inside its {what}"),
                )),
            )
        };
        if got < 8 {
            return Err(truncated("header"));
        }
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as u64;
        let is_dictionary = self.codec == Codec::Zstd && start == 0 && head[0] == 0x5d;
        if is_dictionary && size as usize <= MAX_DICTIONARY {
            let mut content = Vec::with_capacity(size as usize);
            (&mut *raw)
                .take(size)
                .read_to_end(&mut content)
                .map_err(|e| Error::new(raw.pos, ErrorKind::Io(e)))?;
            if (content.len() as u64) < size {
                return Err(truncated("content"));
            }
            let dictionary =
                read_dictionary(content).map_err(|e| Error::new(start, ErrorKind::Zstd(e)))?;
            self.dictionary = Some(dictionary.into());
            self.zstd_context = None;
        } else {
            let skipped = io::copy(&mut (&mut *raw).take(size), &mut io::sink())
                .map_err(|e| Error::new(raw.pos, ErrorKind::Io(e)))?;
            if skipped < size {
                return Err(truncated("content"));
            }
        }
        Ok(true)
    }

    /// After a bad gzip member: goes back to the byte after its start (if its bytes were
    /// kept) and on to the next member that decodes and starts with `WARC/`. Only I/O
    /// errors come back.
    fn recover_member(&mut self) -> Result<(), Error> {
        let mut raw = match std::mem::replace(&mut self.source, Source::Gone) {
            Source::Member(decoder) => decoder.into_inner(&mut self.zstd_context),
            Source::Between(raw) => raw,
            other => {
                self.source = other;
                return Ok(());
            }
        };
        raw.rewind_to_mark(1);
        self.out_at = 0;
        self.out_end = 0;
        self.front.clear();
        self.member_done = true;
        loop {
            match skip_to(&mut raw, self.codec.magic()) {
                Ok(true) => {}
                Ok(false) => {
                    self.source = Source::Between(raw);
                    return Ok(());
                }
                Err(error) => return Err(error), // source stays Gone
            }
            raw.set_mark();
            let starts_warc;
            (raw, starts_warc) = self.starts_warc(raw)?;
            if raw.io_failed {
                let pos = raw.pos;
                return Err(Error::new(
                    pos,
                    ErrorKind::Io(io::Error::other(
                        "read error while looking for a compressed member",
                    )),
                ));
            }
            if starts_warc {
                // A member that decodes and starts a record: read on from it. The decoder
                // was consumed to get `raw` back, so decode the member again from its start.
                raw.rewind_to_mark(0);
                return match self.start_member(raw) {
                    Ok(_) => Ok(()),
                    Err(error) => Err(error),
                };
            }
            raw.step_past_mark();
        }
    }

    /// Whether the member (frame) at `raw`'s position decodes to bytes starting `WARC/`
    /// (a gzip member, an LZ4 frame: on its first bytes, see [`gzip_starts_warc`],
    /// [`lz4_starts_warc`]); `raw` comes back with bytes consumed
    /// after the mark set at that position. Only an error making a zstd context comes
    /// back as an error.
    fn starts_warc(&mut self, mut raw: Raw<R>) -> Result<(Raw<R>, bool), Error> {
        let pos = raw.pos;
        match self.codec {
            Codec::Lz4 => {
                let mut head = [0u8; LZ4_PEEK];
                // A read error leaves `io_failed` set, for the caller.
                let got = read_up_to(&mut raw, &mut head).unwrap_or(0);
                return Ok((raw, lz4_starts_warc(&head[..got])));
            }
            Codec::Gzip => {
                let mut head = [0u8; GZIP_PEEK];
                let got = read_up_to(&mut raw, &mut head).unwrap_or(0);
                return Ok((raw, gzip_starts_warc(&head[..got])));
            }
            Codec::Zstd => {}
        }
        let mut decoder = match Member::new(
            self.codec,
            raw,
            &mut self.zstd_context,
            self.dictionary.as_deref(),
        ) {
            Ok(decoder) => decoder,
            Err(error) => return Err(Error::new(pos, ErrorKind::Io(error))),
        };
        let starts_warc = decodes_to_warc(&mut decoder);
        let raw = decoder.into_inner(&mut self.zstd_context);
        Ok((raw, starts_warc))
    }

    /// After a malformed record: on to the next line starting with `WARC/` (in a plain
    /// file, from the byte after the record's start; in a member, from here on, within
    /// the member).
    fn resync(&mut self, record_offset: u64) -> Result<(), Error> {
        match &mut self.source {
            Source::Plain(raw) => {
                if raw.mark_offset() == Some(record_offset) {
                    raw.rewind_to_mark(1);
                } else {
                    raw.mark = None;
                }
            }
            // The record was the member's first: the member was (meant to be) that record.
            Source::Member(_) if self.first_in_member => return self.drain_member(),
            Source::Member(_) => {}
            _ => return Ok(()),
        }
        skip_to_record_start(self)?;
        Ok(())
    }
}

impl<R: Read> Pull for Stream<R> {
    fn pull(&mut self) -> Result<&[u8], Error> {
        self.fill()
    }

    fn advance(&mut self, amount: usize) {
        self.consume(amount);
    }

    fn push_back(&mut self, bytes: &[u8]) {
        match &mut self.source {
            Source::Plain(raw) => raw.push_back(bytes),
            Source::Member(_) => {
                if self.front.is_empty()
                    && self.out_at >= bytes.len()
                    && self.out[self.out_at - bytes.len()..self.out_at] == *bytes
                {
                    self.out_at -= bytes.len();
                } else {
                    let mut front = bytes.to_vec();
                    front.append(&mut self.front);
                    self.front = front;
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------

/// Reads the `response` and `resource` records of a `.warc`, `.warc.gz`, `.warc.zst` or
/// `.warc.lz4` (told apart by the first bytes). An iterator of `Result<Record, Error>`; see the
/// [module documentation](self) for offsets and damage.
pub struct Reader<R: Read> {
    stream: Stream<R>,
    resources: bool,
    max_record_len: u64,
    pending: Option<Error>,
    done: bool,
    /// Where record bodies are taken from (see [`Reader::buffer_pool`]).
    pool: Option<std::sync::Arc<BufferPool>>,
}

/// What reading one record gave.
enum Next {
    Record(Box<Record>),
    Skipped,
    End,
}

/// Opens a `.warc`, `.warc.gz`, `.warc.zst` or `.warc.lz4` file (the compression is
/// recognised by its magic bytes, whatever the name).
pub fn open(path: &Path) -> io::Result<Reader<Box<dyn Read + Send>>> {
    let file = File::open(path)?;
    Ok(Reader::new(Box::new(file)))
}

impl<R: Read> Reader<R> {
    /// A reader of `input`, which may be plain WARC or gzip members.
    pub fn new(input: R) -> Self {
        Reader {
            stream: Stream::new(input),
            resources: true,
            max_record_len: DEFAULT_MAX_RECORD,
            pending: None,
            done: false,
            pool: None,
        }
    }

    /// Reads record bodies into buffers taken from `pool` (the consumer gives them back
    /// with [`BufferPool::give`] when done), instead of a new allocation per record.
    pub fn buffer_pool(mut self, pool: std::sync::Arc<BufferPool>) -> Self {
        self.pool = Some(pool);
        self
    }

    /// Whether to yield `resource` records too (the default) or only `response` records.
    pub fn resources(mut self, yes: bool) -> Self {
        self.resources = yes;
        self
    }

    /// The largest `Content-Length` accepted (default 1 GiB); a larger one is an
    /// [`ErrorKind::ContentLength`] error. It also caps a decoded `Content-Encoding`.
    pub fn max_record_len(mut self, bytes: u64) -> Self {
        self.max_record_len = bytes;
        self
    }

    /// Reads one record (or finds the end).
    fn read_record(&mut self) -> Result<Next, Error> {
        self.stream.detect()?;
        // Between records: CR and LF are skipped; at the end of a unit, on to the next.
        loop {
            let buf = self.stream.fill()?;
            if buf.is_empty() {
                if self.stream.next_unit()? {
                    continue;
                }
                return Ok(Next::End);
            }
            let blank = buf
                .iter()
                .take_while(|&&b| b == b'\r' || b == b'\n')
                .count();
            let more = blank < buf.len();
            self.stream.consume(blank);
            if more {
                break;
            }
        }
        let offset = self.stream.record_offset();
        if !self.stream.is_compressed() && self.stream.start_at(offset) {
            return Ok(Next::End);
        }
        let first_in_member = self.stream.first_in_member;
        self.stream.mark_record();

        // The header block: the version line, then fields, then an empty line.
        let mut line = Vec::new();
        let mut budget = MAX_HEADER;
        let complete = self.read_line(&mut line, &mut budget, offset)?;
        let prefix = &line[..line.len().min(5)];
        if !complete && b"WARC/".starts_with(prefix) {
            return Err(Error::new(
                offset,
                ErrorKind::Truncated(Truncation::InHeader),
            ));
        }
        if !line.starts_with(b"WARC/") {
            return Err(Error::new(
                offset,
                ErrorKind::Header(HeaderError::NoVersionLine {
                    found: preview(&line),
                }),
            ));
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            if !self.read_line(&mut line, &mut budget, offset)? {
                return Err(Error::new(
                    offset,
                    ErrorKind::Truncated(Truncation::InHeader),
                ));
            }
            if line.is_empty() {
                break;
            }
            // A folded line continues the field before it.
            if matches!(line[0], b' ' | b'\t')
                && let Some((_, value)) = fields.last_mut()
            {
                value.push(' ');
                value.push_str(String::from_utf8_lossy(&line).trim());
                continue;
            }
            let Some(colon) = memchr::memchr(b':', &line) else {
                return Err(Error::new(
                    offset,
                    ErrorKind::Header(HeaderError::NoColon {
                        line: preview(&line),
                    }),
                ));
            };
            let name = String::from_utf8_lossy(&line[..colon]).trim().to_string();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(Error::new(
                    offset,
                    ErrorKind::Header(HeaderError::BadFieldName {
                        line: preview(&line),
                    }),
                ));
            }
            let value = String::from_utf8_lossy(&line[colon + 1..])
                .trim()
                .to_string();
            fields.push((name, value));
        }
        let field = |name: &str| {
            fields
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        let length = match field("Content-Length") {
            None => {
                return Err(Error::new(
                    offset,
                    ErrorKind::ContentLength(ContentLengthError::Missing),
                ));
            }
            Some(value) => match value.parse::<u64>() {
                Ok(length) if length <= self.max_record_len => length,
                Ok(length) => {
                    return Err(Error::new(
                        offset,
                        ErrorKind::ContentLength(ContentLengthError::OverLimit {
                            length,
                            limit: self.max_record_len,
                        }),
                    ));
                }
                Err(_) => {
                    return Err(Error::new(
                        offset,
                        ErrorKind::ContentLength(ContentLengthError::NotANumber {
                            value: value.to_string(),
                        }),
                    ));
                }
            },
        };
        let warc_type = field("WARC-Type").unwrap_or_default().to_string();
        let wanted = warc_type.eq_ignore_ascii_case("response")
            || (self.resources && warc_type.eq_ignore_ascii_case("resource"));

        // The block, then CR LF CR LF.
        let is_response = warc_type.eq_ignore_ascii_case("response");
        let (head, block) = self.read_block(length, wanted, is_response, offset)?;
        self.read_record_end(offset)?;
        self.stream.record_done();
        if self.stream.is_compressed() {
            // Read on to the end of the member (when the record is all of it, but for line
            // ends a writer may have added) so that its checksum is verified before the
            // record is handed out, and its length known.
            loop {
                let buf = self.stream.fill()?;
                let blank = buf
                    .iter()
                    .take_while(|&&b| b == b'\r' || b == b'\n')
                    .count();
                if blank == 0 {
                    break;
                }
                self.stream.consume(blank);
            }
        }
        let length = self.stream.stored_length(offset, first_in_member);
        if !wanted {
            return Ok(Next::Skipped);
        }

        let target_uri = field("WARC-Target-URI").map(|uri| {
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(uri)
                .to_string()
        });
        let mut record = Record {
            offset,
            length,
            warc_type,
            target_uri,
            date: field("WARC-Date").map(str::to_string),
            record_id: field("WARC-Record-ID").map(str::to_string),
            http_status: None,
            http_headers: Vec::new(),
            content_type: None,
            charset: None,
            transfer_encoding: None,
            content_encoding: None,
            body: Vec::new(),
        };
        let warc_content_type = field("Content-Type").map(str::to_string);
        // The HTTP head, when `read_block` split it off, else the start of the block.
        let (http, block) = match (is_response, head.is_empty()) {
            (false, _) => (None, block),
            (true, true) => {
                let http = parse_http(&block);
                let mut block = block;
                if let Some(http) = &http {
                    block.drain(..http.body_start);
                }
                (http, block)
            }
            (true, false) => match parse_http(&head) {
                Some(http) => {
                    debug_assert_eq!(http.body_start, head.len());
                    (Some(http), block)
                }
                None => {
                    let mut whole = head;
                    whole.extend_from_slice(&block);
                    (None, whole)
                }
            },
        };
        match http {
            Some(http) => {
                record.http_status = Some(http.status);
                let header = |name: &str| {
                    http.headers
                        .iter()
                        .rev()
                        .find(|(n, _)| n.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v.clone())
                };
                record.content_type = header("Content-Type");
                let (body, transfer) = undo_transfer_encoding(block, header("Transfer-Encoding"));
                record.transfer_encoding = transfer;
                let (body, content) = if record.transfer_encoding.is_none() {
                    undo_content_encoding(body, header("Content-Encoding"), self.max_record_len)
                } else {
                    (body, header("Content-Encoding"))
                };
                record.content_encoding = content;
                record.body = body;
                record.http_headers = http.headers;
            }
            None => {
                record.content_type = warc_content_type;
                record.body = block;
            }
        }
        record.charset = record
            .content_type
            .as_deref()
            .and_then(crate::mime::charset_from_content_type)
            .map(Cow::into_owned);
        Ok(Next::Record(Box::new(record)))
    }

    /// Reads a line through its LF into `line` without the line end (LF or CR LF), within
    /// the header's byte budget. False when the unit ends first.
    fn read_line(
        &mut self,
        line: &mut Vec<u8>,
        budget: &mut usize,
        offset: u64,
    ) -> Result<bool, Error> {
        line.clear();
        loop {
            let buf = self.stream.fill()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let (take, complete) = match memchr::memchr(b'\n', buf) {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            };
            if take > *budget {
                return Err(Error::new(
                    offset,
                    ErrorKind::Header(HeaderError::TooLong { limit: MAX_HEADER }),
                ));
            }
            *budget -= take;
            line.extend_from_slice(&buf[..take]);
            self.stream.consume(take);
            if complete {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(true);
            }
        }
    }

    /// Reads `length` bytes of block, keeping them if `keep`. With `split_http`, an HTTP
    /// head (status line through the empty line) found whole in the first bytes comes back
    /// on its own, first, so that the body needs no move; else the first part is empty.
    fn read_block(
        &mut self,
        length: u64,
        keep: bool,
        split_http: bool,
        offset: u64,
    ) -> Result<(Vec<u8>, Vec<u8>), Error> {
        let mut head = Vec::new();
        let mut left = length;
        if keep && split_http {
            let buf = self.stream.fill()?;
            let buf = &buf[..buf.len().min(usize::try_from(left).unwrap_or(usize::MAX))];
            if let Some(end) = http_head_len(buf) {
                head.extend_from_slice(&buf[..end]);
                self.stream.consume(end);
                left -= end as u64;
            }
        }
        let mut block = Vec::new();
        if keep {
            let capacity = left.min(16 << 20) as usize;
            match &self.pool {
                Some(pool) => block = pool.take(capacity),
                None => block.reserve(capacity),
            }
        }
        while left > 0 {
            if keep {
                let want = usize::try_from(left).unwrap_or(usize::MAX);
                match self.stream.read_direct(&mut block, want)? {
                    Some(0) => {}
                    Some(n) => {
                        left -= n as u64;
                        continue;
                    }
                    None => {}
                }
            }
            let buf = self.stream.fill()?;
            if buf.is_empty() {
                return Err(Error::new(
                    offset,
                    ErrorKind::Truncated(Truncation::InBlock {
                        length,
                        read: length - left,
                        in_gzip_member: self.stream.is_compressed(),
                    }),
                ));
            }
            let take = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            if keep {
                block.extend_from_slice(&buf[..take]);
            }
            self.stream.consume(take);
            left -= take as u64;
        }
        Ok((head, block))
    }

    /// Checks for CR LF CR LF after the block. The end of the unit there is accepted (a
    /// writer that left it out loses nothing).
    fn read_record_end(&mut self, offset: u64) -> Result<(), Error> {
        for &expected in b"\r\n\r\n" {
            let buf = self.stream.fill()?;
            match buf.first() {
                None => return Ok(()),
                Some(&b) if b == expected => self.stream.consume(1),
                Some(_) => return Err(Error::new(offset, ErrorKind::RecordEnd)),
            }
        }
        Ok(())
    }

    /// After an error: on to where reading can resume (see the module documentation).
    /// Returns the error to report: a record error in a gzip member that turns out not to
    /// decompress is reported as the gzip error, its cause.
    fn recover(&mut self, error: Error) -> Error {
        let (reported, result) = match error.kind {
            ErrorKind::Io(_) => {
                self.done = true;
                return error;
            }
            ErrorKind::Gzip(_) | ErrorKind::Zstd(_) | ErrorKind::Lz4(_) => {
                (error, self.stream.recover_member())
            }
            _ => match self.stream.resync(error.offset) {
                Err(found)
                    if matches!(
                        found.kind,
                        ErrorKind::Gzip(_) | ErrorKind::Zstd(_) | ErrorKind::Lz4(_)
                    ) =>
                {
                    (found, self.stream.recover_member())
                }
                result => (error, result),
            },
        };
        if let Err(fatal) = result {
            self.done = true;
            self.pending = Some(fatal);
        }
        reported
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(error) = self.pending.take() {
            return Some(Err(error));
        }
        loop {
            if self.done {
                return None;
            }
            match self.read_record() {
                Ok(Next::Record(record)) => return Some(Ok(*record)),
                Ok(Next::Skipped) => continue,
                Ok(Next::End) => {
                    self.done = true;
                    return None;
                }
                Err(error) => return Some(Err(self.recover(error))),
            }
        }
    }
}

/// The start of a line for an error message.
fn preview(line: &[u8]) -> String {
    let cut = &line[..line.len().min(60)];
    String::from_utf8_lossy(cut).into_owned()
}

// ---------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------

/// An HTTP response's head.
struct HttpHead {
    status: u16,
    headers: Vec<(String, String)>,
    /// Where the body starts in the block.
    body_start: usize,
}

/// The length of an HTTP response's head (status line, headers and the empty line after
/// them) when `bytes` start with `HTTP/` and hold all of it: the end of the first empty
/// line, as [`parse_http`] finds it.
fn http_head_len(bytes: &[u8]) -> Option<usize> {
    if !bytes.starts_with(b"HTTP/") {
        return None;
    }
    let lf_lf = memchr::memmem::find(bytes, b"\n\n").map(|i| i + 2);
    let lf_crlf = memchr::memmem::find(bytes, b"\n\r\n").map(|i| i + 3);
    match (lf_lf, lf_crlf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Parses the status line and headers of an HTTP response; None when the block does not
/// start with `HTTP/x SSS`. Lines may end in CR LF or LF; folded lines are joined. A head
/// that never ends leaves an empty body.
fn parse_http(block: &[u8]) -> Option<HttpHead> {
    if !block.starts_with(b"HTTP/") {
        return None;
    }
    let line_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
    let status_line = &block[..line_end];
    let mut parts = status_line
        .split(|&b| b == b' ')
        .filter(|part| !part.is_empty());
    parts.next()?;
    let code = parts.next()?;
    let code = code.strip_suffix(b"\r").unwrap_or(code);
    if code.len() != 3 || !code.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let status = std::str::from_utf8(code).ok()?.parse().ok()?;
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut at = (line_end + 1).min(block.len());
    loop {
        if at >= block.len() {
            break;
        }
        let end = memchr::memchr(b'\n', &block[at..]).map_or(block.len(), |i| at + i);
        let line = &block[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at = (end + 1).min(block.len());
        if line.is_empty() {
            break;
        }
        if matches!(line[0], b' ' | b'\t') {
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(String::from_utf8_lossy(line).trim());
            }
            continue;
        }
        if let Some(colon) = memchr::memchr(b':', line) {
            let name = String::from_utf8_lossy(&line[..colon]).trim().to_string();
            let value = String::from_utf8_lossy(&line[colon + 1..])
                .trim()
                .to_string();
            headers.push((name, value));
        }
    }
    Some(HttpHead {
        status,
        headers,
        body_start: at,
    })
}

/// Undoes `chunked` when it is the last transfer coding. Returns the body and the
/// transfer codings still applied.
fn undo_transfer_encoding(body: Vec<u8>, codings: Option<String>) -> (Vec<u8>, Option<String>) {
    let Some(codings) = codings else {
        return (body, None);
    };
    let list: Vec<&str> = codings
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    match list.split_last() {
        None => (body, None),
        Some((last, rest)) if last.eq_ignore_ascii_case("chunked") => match dechunk(&body) {
            Some(decoded) => {
                let rest = (!rest.is_empty()).then(|| rest.join(", "));
                (decoded, rest)
            }
            None => (body, Some(codings)),
        },
        Some(_) => (body, Some(codings)),
    }
}

/// Decodes a chunked body (RFC 9112 § 7.1); None when it is malformed. A body that ends
/// without the last chunk is accepted up to where it ends, if it ends at a chunk boundary.
fn dechunk(mut input: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(input.len());
    loop {
        if input.is_empty() {
            return Some(out);
        }
        let line_end = memchr::memchr(b'\n', input)?;
        let line = &input[..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let size = line.split(|&b| b == b';').next()?;
        let size = std::str::from_utf8(size).ok()?.trim();
        let size = usize::from_str_radix(size, 16).ok()?;
        input = &input[line_end + 1..];
        if size == 0 {
            return Some(out); // trailers, if any, are not body
        }
        if input.len() < size {
            return None;
        }
        out.extend_from_slice(&input[..size]);
        input = &input[size..];
        input = input
            .strip_prefix(b"\r\n")
            .or_else(|| input.strip_prefix(b"\n"))
            .unwrap_or(input);
    }
}

/// Undoes `gzip`, `x-gzip` and `deflate` content codings (one of them). Returns the body
/// and the content coding still applied.
fn undo_content_encoding(
    body: Vec<u8>,
    coding: Option<String>,
    limit: u64,
) -> (Vec<u8>, Option<String>) {
    let Some(coding) = coding else {
        return (body, None);
    };
    let name = coding.trim().to_ascii_lowercase();
    let decoded = match name.as_str() {
        "" | "identity" => return (body, None),
        "gzip" | "x-gzip" => read_limited(MultiGzDecoder::new(&body[..]), limit),
        // HTTP's "deflate" is zlib; some servers send raw deflate.
        "deflate" => read_limited(ZlibDecoder::new(&body[..]), limit)
            .or_else(|| read_limited(DeflateDecoder::new(&body[..]), limit)),
        _ => None,
    };
    match decoded {
        Some(decoded) => (decoded, None),
        None => (body, Some(coding)),
    }
}

/// Reads all of `reader` if it decodes and stays within `limit` bytes.
fn read_limited(reader: impl Read, limit: u64) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .ok()?;
    (out.len() as u64 <= limit).then_some(out)
}

// ---------------------------------------------------------------------------------------
// The writer
// ---------------------------------------------------------------------------------------

/// A zstd compressor that ends each frame with a checksum of its content (libzstd's
/// default leaves it out; the `zstd` tool puts it in): damage inside a frame is then
/// found when the frame is read, as gzip's CRC finds it.
fn checksummed(
    mut compressor: zstd::bulk::Compressor<'static>,
) -> io::Result<zstd::bulk::Compressor<'static>> {
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    Ok(compressor)
}

/// Writes WARC/1.1 records, plain or one gzip member per record (as Common Crawl does),
/// one zstd frame per record (`.warc.zst`) or one LZ4 frame per record (`.warc.lz4`).
/// Every write returns the record's offset, the same one [`Reader`] reports.
pub struct Writer<W: Write> {
    out: W,
    gzip: bool,
    lz4: bool,
    /// `.warc.zst`: the compressor (its context reused from record to record).
    zstd: Option<zstd::bulk::Compressor<'static>>,
    offset: u64,
    records: u64,
}

impl<W: Write> Writer<W> {
    /// A writer of a plain `.warc`.
    pub fn new(out: W) -> Self {
        Writer {
            out,
            gzip: false,
            lz4: false,
            zstd: None,
            offset: 0,
            records: 0,
        }
    }

    /// A writer of a `.warc.zst` as the IIPC proposal has it: each record is its own zstd
    /// frame, compressed at `level` (1 to 22; 3 is zstd's default).
    pub fn zstd(out: W, level: i32) -> io::Result<Self> {
        Ok(Writer {
            zstd: Some(checksummed(zstd::bulk::Compressor::new(level)?)?),
            ..Writer::new(out)
        })
    }

    /// A writer of a `.warc.zst` whose records are compressed with `dictionary` (a zstd
    /// dictionary, e.g. from `zstd --train`), written first into the skippable frame
    /// (magic 0x184D2A5D) the readers take it from.
    pub fn zstd_with_dictionary(mut out: W, level: i32, dictionary: &[u8]) -> io::Result<Self> {
        let size = u32::try_from(dictionary.len())
            .ok()
            .filter(|&n| n as usize <= MAX_DICTIONARY)
            .ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "the dictionary is too large")
            })?;
        out.write_all(&[0x5d, 0x2a, 0x4d, 0x18])?;
        out.write_all(&size.to_le_bytes())?;
        out.write_all(dictionary)?;
        Ok(Writer {
            zstd: Some(checksummed(zstd::bulk::Compressor::with_dictionary(
                level, dictionary,
            )?)?),
            offset: 8 + u64::from(size),
            ..Writer::new(out)
        })
    }

    /// A writer of a `.warc.gz`: each record is its own gzip member.
    pub fn gzip(out: W) -> Self {
        Writer {
            gzip: true,
            ..Writer::new(out)
        }
    }

    /// A writer of a `.warc.lz4`: each record is its own LZ4 frame, with its content
    /// size and checksum.
    pub fn lz4(out: W) -> Self {
        Writer {
            lz4: true,
            ..Writer::new(out)
        }
    }

    /// How many bytes were written so far: the offset of the next record.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Writes one record: the version line, `WARC-Type`, a generated `WARC-Record-ID`
    /// (unless `fields` has one), `fields`, `Content-Length`, then `block`. Field names
    /// and values must not contain CR or LF.
    pub fn write_record(
        &mut self,
        warc_type: &str,
        fields: &[(&str, &str)],
        block: &[u8],
    ) -> io::Result<u64> {
        let invalid = |s: &str| s.contains(['\r', '\n']);
        if invalid(warc_type)
            || fields
                .iter()
                .any(|(n, v)| invalid(n) || invalid(v) || n.contains(':'))
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "WARC field names and values must not contain CR or LF (nor names a colon)",
            ));
        }
        let mut head = format!("WARC/1.1\r\nWARC-Type: {warc_type}\r\n");
        if !fields
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("WARC-Record-ID"))
        {
            head.push_str(&format!(
                "WARC-Record-ID: {}\r\n",
                self.record_id(fields, block)
            ));
        }
        for (name, value) in fields {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
        let offset = self.offset;
        if let Some(compressor) = &mut self.zstd {
            let mut record = Vec::with_capacity(head.len() + block.len() + 4);
            record.extend_from_slice(head.as_bytes());
            record.extend_from_slice(block);
            record.extend_from_slice(b"\r\n\r\n");
            let frame = compressor.compress(&record)?;
            self.out.write_all(&frame)?;
            self.offset += frame.len() as u64;
        } else if self.lz4 {
            let info = lz4_flex::frame::FrameInfo::new()
                .content_size(Some((head.len() + block.len() + 4) as u64))
                .content_checksum(true);
            let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            encoder.write_all(head.as_bytes())?;
            encoder.write_all(block)?;
            encoder.write_all(b"\r\n\r\n")?;
            let frame = encoder.finish().map_err(io::Error::other)?;
            self.out.write_all(&frame)?;
            self.offset += frame.len() as u64;
        } else if self.gzip {
            let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
            encoder.write_all(head.as_bytes())?;
            encoder.write_all(block)?;
            encoder.write_all(b"\r\n\r\n")?;
            let member = encoder.finish()?;
            self.out.write_all(&member)?;
            self.offset += member.len() as u64;
        } else {
            self.out.write_all(head.as_bytes())?;
            self.out.write_all(block)?;
            self.out.write_all(b"\r\n\r\n")?;
            self.offset += (head.len() + block.len() + 4) as u64;
        }
        self.records += 1;
        Ok(offset)
    }

    /// Writes a `warcinfo` record (`application/warc-fields`), as WARC files begin with.
    pub fn write_warcinfo(
        &mut self,
        date: &str,
        filename: Option<&str>,
        info: &[(&str, &str)],
    ) -> io::Result<u64> {
        let mut block = String::new();
        for (name, value) in info {
            block.push_str(&format!("{name}: {value}\r\n"));
        }
        let mut fields = vec![("WARC-Date", date)];
        if let Some(filename) = filename {
            fields.push(("WARC-Filename", filename));
        }
        fields.push(("Content-Type", "application/warc-fields"));
        self.write_record("warcinfo", &fields, block.as_bytes())
    }

    /// Writes a `response` record holding an HTTP/1.1 response: the status line, `headers`
    /// as given (add `Content-Type` with a charset, `Content-Length`, … yourself), an empty
    /// line and `body`.
    pub fn write_response(
        &mut self,
        target_uri: &str,
        date: &str,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<u64> {
        let mut block = format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status)).into_bytes();
        for (name, value) in headers {
            block.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
        block.extend_from_slice(b"\r\n");
        block.extend_from_slice(body);
        self.write_record(
            "response",
            &[
                ("WARC-Target-URI", target_uri),
                ("WARC-Date", date),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            &block,
        )
    }

    /// Writes a `resource` record: `body` as it is, with its `Content-Type`.
    pub fn write_resource(
        &mut self,
        target_uri: &str,
        date: &str,
        content_type: &str,
        body: &[u8],
    ) -> io::Result<u64> {
        self.write_record(
            "resource",
            &[
                ("WARC-Target-URI", target_uri),
                ("WARC-Date", date),
                ("Content-Type", content_type),
            ],
            body,
        )
    }

    /// Flushes and returns the output.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// A `<urn:uuid:…>` made from the record's number and contents: deterministic, so
    /// the same input writes the same file.
    fn record_id(&self, fields: &[(&str, &str)], block: &[u8]) -> String {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut high = DefaultHasher::new();
        (self.records, fields, block).hash(&mut high);
        let high = high.finish();
        let mut low = DefaultHasher::new();
        (high, block.len(), self.offset).hash(&mut low);
        let low = low.finish();
        // Version 4 and the RFC 4122 variant bits, so it reads as a UUID.
        let high = (high & !0xF000) | 0x4000;
        let low = (low & !(0xC << 60)) | (0x8 << 60);
        format!(
            "<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>",
            high >> 32,
            (high >> 16) & 0xFFFF,
            high & 0xFFFF,
            low >> 48,
            low & 0xFFFF_FFFF_FFFF
        )
    }
}

/// The usual reason phrase of a status code (any text would do).
fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_to_finds_needles_across_pieces() {
        struct Pieces {
            pieces: Vec<Vec<u8>>,
            at: usize,
            front: Vec<u8>,
        }
        impl Pull for Pieces {
            fn pull(&mut self) -> Result<&[u8], Error> {
                if !self.front.is_empty() {
                    return Ok(&self.front);
                }
                Ok(self.pieces.get(self.at).map_or(&[], |p| p.as_slice()))
            }
            fn advance(&mut self, amount: usize) {
                if !self.front.is_empty() {
                    self.front.drain(..amount);
                    return;
                }
                let piece = &mut self.pieces[self.at];
                piece.drain(..amount);
                if piece.is_empty() {
                    self.at += 1;
                }
            }
            fn push_back(&mut self, bytes: &[u8]) {
                let mut front = bytes.to_vec();
                front.extend_from_slice(&self.front);
                self.front = front;
            }
        }
        let text = b"xx\nWARx\n\nWARC/1.1 rest";
        for split in 0..=text.len() {
            for split2 in split..=text.len() {
                let mut input = Pieces {
                    pieces: vec![
                        text[..split].to_vec(),
                        text[split..split2].to_vec(),
                        text[split2..].to_vec(),
                    ]
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect(),
                    at: 0,
                    front: Vec::new(),
                };
                assert!(skip_to(&mut input, RECORD_START).unwrap());
                let mut rest = Vec::new();
                loop {
                    let buf = input.pull().unwrap().to_vec();
                    if buf.is_empty() {
                        break;
                    }
                    rest.extend_from_slice(&buf);
                    input.advance(buf.len());
                }
                assert_eq!(rest, b"\nWARC/1.1 rest", "split at {split}, {split2}");
            }
        }
    }

    #[test]
    fn chunked_bodies() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n").unwrap(),
            b"hello world"
        );
        assert_eq!(dechunk(b"5\nhello\n0\n").unwrap(), b"hello");
        assert!(dechunk(b"zz\r\nhello").is_none());
        assert!(dechunk(b"50\r\nhello").is_none());
    }
}
