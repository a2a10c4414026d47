//! Reading archives — WARC files: `.warc`; `.warc.gz` with one gzip member per record
//! as Common Crawl, wget and Heritrix write them; `.warc.zst` with one zstd frame per
//! record as the IIPC proposal has it, perhaps with a dictionary in a skippable frame at
//! the start; and `.warc.lz4` with one LZ4 frame per record, as FastWARC reads them; and
//! ARC files, the Internet Archive's format before WARC (`.arc`, `.arc.gz`, versions 1
//! and 2; see the `arc` module) — and writing WARC files. The reader tells them apart by
//! their first bytes, not by the name.
//!
//! The modules, one idea each: `input` (the bytes as stored, rewinding after damage),
//! `stream` (the units: a plain file, or one compressed member at a time, and the codecs),
//! `reader` (records), `arc` (ARC's header line), `parallel` (one file on several
//! threads), `pool` (body buffers), `writer`; HTTP messages and their codings are
//! [`crate::http`]'s, what counts as a document [`crate::documents`]'.
//!
//! Below, what is said of a gzip member holds of a zstd or LZ4 frame alike.
//!
//! [`Reader`] yields the `response` records (and, unless turned off, the `resource`
//! records) of a WARC or ARC file as [`Record`]s: the record's offset in the file, its
//! `WARC-Target-URI` and `WARC-Date`, and for HTTP responses the status, the
//! `Content-Type` and its `charset` parameter, and the HTTP body, decoded. Other record
//! types (`warcinfo`, `request`, `metadata`, `revisit`, …) are skipped, or yielded
//! without their block with [`Reader::every_record`] (the batch counts them so).
//!
//! ```no_run
//! # fn main() -> std::io::Result<()> {
//! for record in htmltok_archive::warc::open("CC-MAIN-example.warc.gz".as_ref())? {
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
//! No input makes the reader panic, loop or hold more than bounded memory. Each problem is
//! reported once, as an [`Error`] naming its offset or as a record's [`Record::damage`],
//! and reading goes on where it can. The README ("What a damaged file gives") has it as
//! a table.
//!
//! **Compressed members.** A gzip member (zstd frame, LZ4 frame) that does not end whole
//! is either cut off or corrupt:
//!
//! - *Cut off*: the input ends inside it (a crawl that died mid-write). What it
//!   decompressed to is good, and is read as a plain file that ends there: the records
//!   that came out whole are handed out as they are; the record the cut falls in, as in a
//!   plain file cut there (below). When the cut falls after a record that came out whole
//!   (only the member's end, its checksum, is missing), that record is handed out marked
//!   [`Damage::MemberCutOff`]. A member that gave nothing but line ends before the cut is
//!   an error of its codec ([`ErrorKind::Gzip`], …, its `io::Error` of kind
//!   `UnexpectedEof`). zstd and LZ4 decode whole blocks (up to 128 KiB, 4 MiB): what came
//!   out is the blocks before the cut, so a record of a frame of its own cut in its only
//!   block is that error. The member's bytes are not searched for another member: they
//!   were good as far as they went.
//! - *Corrupt*: bad data, a wrong checksum, bytes that are not gzip. The records that came
//!   out of it whole before the error are handed out: in a member of its own, a record
//!   is handed out only once its member's checksum matched, so none; in a member of
//!   several records (a file compressed as a whole), the records before the one the error
//!   came in. The decoder's output before a bad byte is exact (output between the bad byte
//!   and the point where the decoder notices may not be, which only the checksum at the
//!   member's end would have told). Which records those are depends on the bytes alone:
//!   the member is decoded again from its kept bytes up to the error, as the read that
//!   met it dropped what it had decoded. The record the error came in is dropped, the
//!   codec's error reported at the member's offset, and reading resumes at the next member
//!   that starts with `WARC/` (an ARC header line in an `.arc.gz`), searched from the byte
//!   after the bad member's start (its compressed bytes are kept, up to 64 MiB, to search
//!   them again; a candidate is judged on its first bytes alone: a gzip member on its
//!   first 1 KiB, an LZ4 frame on its header and the start of its first block, a zstd
//!   frame on its first block, which libzstd decodes whole, up to 128 KiB, so a search
//!   through a crafted payload with a false frame start every few bytes is linear and flat
//!   in memory, if slow). A member that reads on to the end of the input (a header field
//!   that never ends, a stored block's length) is corrupt, not cut off, when a member that
//!   begins a record starts inside it.
//!
//! **Records.** In a plain file, or in what a member decompressed to:
//!
//! - A record whose header is malformed (no `WARC/` version line or ARC header line, a
//!   header line without a colon, a header block over 1 MiB, a missing or non-numeric
//!   `Content-Length`, one over [`Reader::max_record_len`]) is an error.
//! - A record the input ends in (the file, or its member, cut off): in its header, an error
//!   ([`Truncation::InHeader`]). In the block of a `response` or `resource` record, it is
//!   handed out with [`Damage::CutOff`] and what was read, when at least one byte of body
//!   was: past the HTTP head, for a response whose block is an HTTP message; else of the
//!   block. Otherwise an error: [`Truncation::InHttpHead`] (a head alone is no page) or
//!   [`Truncation::BeforeBody`]. A record of another type cut off in its block is handed
//!   out with [`Damage::CutOff`] (with [`Reader::every_record`]: no other is read).
//! - A record that its member, ending whole, ends inside (its length too long, or the
//!   writer put the rest of it in the next member, which is not joined to it) is handed
//!   out with [`Damage::CutOff`] and what the member holds.
//! - A record whose block is followed neither by the record's end (CR LF CR LF; in an ARC
//!   file a line end) nor, in a WARC file, by the next version line has a wrong length
//!   (an ARC header line is too loose a match to take there): it is handed out
//!   with [`Damage::WrongLength`], its block running to where reading resumes (below): to
//!   the first record start in it (a length too long swallowed that record), or read on
//!   to the next one (a length too short), or to the end of the member or file, the
//!   record's end before it dropped. Read on for up to 1 MiB without finding either, the
//!   block is what its length gave. So bytes after a block are its own until a record
//!   start; bytes after a record's end that begin no record are an error of their own
//!   (garbage between records).
//!
//! After a record read in part or in error, reading resumes: in a `.warc`, at the next
//! WARC version line (a line that is `WARC/` digits `.` digits; in an `.arc`, the next ARC
//! header line) after the record's first byte, so records that a length too long swallowed
//! are found again; in a compressed file, at the next member when the record began its
//! member (the usual one record per member; the member's end is then its block's end, and
//! a file compressed as a whole loses the rest), else at the next version line in the
//! member. If the member then turns out corrupt, its error, the cause, is the one
//! reported, and the record read from it is dropped. An I/O error from the underlying
//! reader ends the iteration after it is reported.
//!
//! # HTTP payloads
//!
//! A `response` record whose block starts with an HTTP status line (`HTTP/1.1 200 OK`, or
//! another protocol name in that shape, `HTTPX/1.1 200 OK`, a garbled one that warcio
//! takes too: see [`crate::http`]'s `other_protocol`) is split into status line, headers
//! and body, and the body's transfer and content codings are undone as [`crate::http`]
//! says (chunked; gzip, x-gzip, deflate, br, zstd, stacked; a coding the stored bytes are
//! evidently not in is left alone and noted in [`Record::payload_notes`]; a body in a
//! coding that does not decode keeps its stored bytes, [`Record::body_error`] says why).
//! The stored bytes stay in [`Record::raw_body`] when decoding changed them. Crawlers
//! that store bodies already decoded rename those headers (Common Crawl's
//! `X-Crawler-Content-Encoding`, …), so nothing is undone there, at no cost. A block that
//! does not start with an HTTP status line is the body as a whole (a `resource` record,
//! or a `response` to a `dns:` or `ftp:` request), with the WARC `Content-Type`.

use std::borrow::Cow;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use flate2::Compression;
use flate2::bufread::GzDecoder;

use flate2::write::GzEncoder;

mod arc;
mod input;
mod parallel;
mod pool;
mod reader;
mod stream;
mod writer;

use input::*;
pub use parallel::{ParallelReader, Parts, open_parallel};
pub use pool::BufferPool;
pub use reader::{Reader, open};
use stream::*;
pub use writer::Writer;

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
/// How far past a block that its record's end does not follow the reader reads to find
/// the next record start (the bytes before it are the block's, the length having been
/// too short).
const MAX_READ_ON: usize = 1 << 20;
/// The largest WARC header block (version line and fields) accepted.
const MAX_HEADER: usize = 1 << 20;
/// Decompressed bytes are pulled in pieces of this size.
const CHUNK: usize = 64 << 10;
/// A record's block is inflated straight into it in pieces of up to this size.
const DIRECT: usize = 1 << 20;
/// The default for [`Reader::max_record_len`].
const DEFAULT_MAX_RECORD: u64 = 1 << 30;

/// How many first bytes of a file [`sniff`] looks at.
pub(crate) const SNIFF_LEN: usize = GZIP_PEEK;

/// What a file's first bytes say it is.
pub(crate) enum Sniffed {
    /// A WARC or ARC file, plain or compressed (zstd and LZ4 data are taken for one: no
    /// other file the batch reads is compressed so).
    Archive,
    /// Compressed data that is not an archive.
    Compressed(&'static str),
    /// Anything else.
    Other,
}

/// What `head`, a file's first bytes (up to [`SNIFF_LEN`]), say it is.
pub(crate) fn sniff(head: &[u8]) -> Sniffed {
    let skippable = head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18];
    match first_container(head) {
        Some(_) => Sniffed::Archive,
        None if head.starts_with(GZIP_MAGIC) => {
            Sniffed::Compressed("gzip data that does not begin a WARC or ARC record")
        }
        None if head.starts_with(ZSTD_MAGIC) || head.starts_with(LZ4_MAGIC) || skippable => {
            Sniffed::Archive
        }
        None => Sniffed::Other,
    }
}

/// The container whose record `head`, a file's first bytes (up to [`SNIFF_LEN`]),
/// begins with, plain or in a gzip member, after line ends: None when neither (or when
/// the bytes are zstd or LZ4 data, which this does not decode).
pub(crate) fn first_container(head: &[u8]) -> Option<Format> {
    let inflated;
    let bytes = if head.starts_with(GZIP_MAGIC) {
        inflated = gzip_prefix(head, 4096)?;
        &inflated[..]
    } else {
        head
    };
    let blank = bytes
        .iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    let bytes = &bytes[blank..];
    if bytes.starts_with(b"WARC/") {
        Some(Format::Warc)
    } else if arc::starts_arc_file(bytes) {
        Some(Format::Arc)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// Records and errors
// ---------------------------------------------------------------------------------------

/// One `response` or `resource` record (of a WARC file, or an ARC file's record read as
/// one); with [`Reader::every_record`], a record of any other type too, without its block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Where the record starts in the file (in a `.warc.gz` or `.arc.gz`, the start of its
    /// gzip member).
    pub offset: u64,
    /// How many bytes of the file, from [`Record::offset`], the record takes as stored:
    /// in a `.warc`, through the CR LF CR LF after its block; in a `.warc.gz`, its gzip
    /// member's length (what Common Crawl's index calls `length`), or None when the record
    /// shares its member with other records (a file gzipped as a whole) or is damaged.
    pub length: Option<u64>,
    /// Which container the record came from.
    pub format: Format,
    /// `WARC-Type`: `response` or `resource` (an ARC record: `response` when its block is
    /// an HTTP response, else `resource`; its `filedesc://` record: `warcinfo`).
    pub warc_type: String,
    /// `WARC-Target-URI` (angle brackets, which some WARC 1.0 writers put around it,
    /// removed), or an ARC record's URL.
    pub target_uri: Option<String>,
    /// `WARC-Date`, as written (`2024-02-29T12:00:00Z`); an ARC record's date in that form.
    pub date: Option<String>,
    /// `WARC-Record-ID`, as written (`<urn:uuid:…>`); None in an ARC file.
    pub record_id: Option<String>,
    /// `WARC-IP-Address`, or an ARC record's IP address.
    pub ip_address: Option<String>,
    /// The HTTP status code, for a response with an HTTP status line.
    pub http_status: Option<u16>,
    /// The HTTP response's headers, in order, as `(name, value)` (values trimmed, folded
    /// lines joined); empty for a block that is not an HTTP message.
    pub http_headers: Vec<(String, String)>,
    /// The HTTP `Content-Type` header (the last one), or for a block that is not an HTTP
    /// message, the WARC record's `Content-Type` (an ARC record's content type).
    pub content_type: Option<String>,
    /// The `charset` parameter of `content_type` (Fetch's "extract a MIME type"), as
    /// written: resolve it with `htmltok_crawl::encoding` or `encoding_rs`.
    pub charset: Option<String>,
    /// The `Transfer-Encoding` still applied to `body`: None unless its codings could not
    /// be undone ([`Record::body_error`] says why).
    pub transfer_encoding: Option<String>,
    /// The `Content-Encoding` still applied to `body`: None unless its codings could not
    /// be undone ([`Record::body_error`] says why).
    pub content_encoding: Option<String>,
    /// Where decoding the body departed from what the headers say (a coding the stored
    /// bytes were not in, a body cut off inside its coding, …): see [`crate::http`].
    pub payload_notes: Vec<crate::http::Note>,
    /// The body is in a coding its headers name but does not decode: `body` is then the
    /// bytes as stored, still in the codings `transfer_encoding` and `content_encoding`
    /// name.
    pub body_error: Option<crate::http::BodyError>,
    /// `WARC-Truncated`, as written (`length`, `time`, `disconnect`, `unspecified`): the
    /// crawler stored less than the server sent.
    pub warc_truncated: Option<String>,
    /// The record was read in part (its file is cut off, or its length is wrong): `body` is
    /// what could be read. Reading resumed at the next record start (see the module
    /// documentation). Or it was read whole, but its compressed member is cut off after
    /// it ([`Damage::MemberCutOff`]).
    pub damage: Option<Damage>,
    /// The HTTP body with its transfer and content codings undone (for a block that is not
    /// an HTTP message, the whole block).
    pub body: Vec<u8>,
    /// The HTTP body as stored, when decoding changed it (None: `body` is as stored).
    pub raw_body: Option<Vec<u8>>,
}

/// The container a record came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// A WARC file (any version, plain or compressed).
    Warc,
    /// An ARC file (version 1 or 2, `.arc` or `.arc.gz`).
    Arc,
}

/// How a record was read in part ([`Record::damage`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Damage {
    /// The input (or the record's gzip member) ends inside the block: `read` of its
    /// `length` bytes are the block.
    CutOff {
        /// The record's length field.
        length: u64,
        /// How many bytes of block there were.
        read: u64,
    },
    /// The block is not followed by the record's end (in a WARC file, CR LF CR LF): the
    /// length field is wrong. The block is what the length gave, cut where a record start
    /// appears in it.
    WrongLength {
        /// The record's length field.
        length: u64,
    },
    /// The record was read whole, but the input ends inside its compressed member
    /// (frame) after it, so the member's checksum could not be checked.
    MemberCutOff,
}

impl Damage {
    /// A short name for counting: `record-cut-off`, `record-length-wrong`,
    /// `member-cut-off`.
    pub fn reason(&self) -> &'static str {
        match self {
            Damage::CutOff { .. } => "record-cut-off",
            Damage::WrongLength { .. } => "record-length-wrong",
            Damage::MemberCutOff => "member-cut-off",
        }
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::CutOff { length, read } => write!(
                f,
                "the record is cut off: {read} of its {length} bytes are read and used"
            ),
            Damage::WrongLength { length } => write!(
                f,
                "the record's length {length} is wrong (its block is not followed by the \
                 record's end): the block is used up to the next record start"
            ),
            Damage::MemberCutOff => f.write_str(
                "the record is read whole, but the file ends inside its compressed member \
                 after it: its checksum could not be checked",
            ),
        }
    }
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
    /// A gzip member is corrupt, or the bytes there are not gzip; or it is cut off before
    /// anything of a record came out of it (the error's kind is then `UnexpectedEof`).
    Gzip(io::Error),
    /// A zstd frame (`.warc.zst`) is corrupt or cut off, or the bytes there are not zstd
    /// (as [`ErrorKind::Gzip`]); or the dictionary frame a `.warc.zst` starts with is.
    Zstd(io::Error),
    /// An LZ4 frame (`.warc.lz4`) is corrupt or cut off, or the bytes there are not LZ4
    /// (as [`ErrorKind::Gzip`]).
    Lz4(io::Error),
    /// The record has no `WARC/` version line, or a header line is malformed, or the
    /// header block is too long.
    Header(HeaderError),
    /// `Content-Length` is missing, not a number, or over [`Reader::max_record_len`].
    ContentLength(ContentLengthError),
    /// The input ends inside the record's header, or before anything of its body.
    Truncated(Truncation),
    /// The record's block is not followed by CR LF CR LF: `Content-Length` is wrong.
    RecordEnd,
}

impl ErrorKind {
    /// A short name for counting: `read-error`, `bad-gzip-member`, `bad-zstd-frame`,
    /// `bad-lz4-frame`, `malformed-header`, `bad-length`, `truncated-header`,
    /// `truncated-http-head`, `truncated-before-body`, `record-end`.
    pub fn reason(&self) -> &'static str {
        match self {
            ErrorKind::Io(_) => "read-error",
            ErrorKind::Gzip(_) => "bad-gzip-member",
            ErrorKind::Zstd(_) => "bad-zstd-frame",
            ErrorKind::Lz4(_) => "bad-lz4-frame",
            ErrorKind::Header(_) => "malformed-header",
            ErrorKind::ContentLength(_) => "bad-length",
            ErrorKind::Truncated(truncation) => truncation.reason(),
            ErrorKind::RecordEnd => "record-end",
        }
    }
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
    /// A record of an ARC file does not start with an ARC header line.
    NoArcHeaderLine {
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
            HeaderError::NoArcHeaderLine { found } => write!(
                f,
                "expected an ARC header line (URL IP-address date type length), found {found:?}"
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

/// Where the input ended inside a record ([`ErrorKind::Truncated`]); a record cut off in
/// its body is no error (see [`Damage::CutOff`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Truncation {
    /// In the record's header (a WARC header block, an ARC header line).
    InHeader,
    /// In the HTTP head (status line and headers) of a `response` record.
    InHttpHead,
    /// Before the first byte of the body (of a `response` record, after its HTTP head; of
    /// a `resource` record, after its header).
    BeforeBody,
}

impl Truncation {
    /// A short name for counting: `truncated-header`, `truncated-http-head`,
    /// `truncated-before-body`.
    pub fn reason(&self) -> &'static str {
        match self {
            Truncation::InHeader => "truncated-header",
            Truncation::InHttpHead => "truncated-http-head",
            Truncation::BeforeBody => "truncated-before-body",
        }
    }
}

impl fmt::Display for Truncation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Truncation::InHeader => f.write_str("the input ends in the WARC header"),
            Truncation::InHttpHead => f.write_str("the input ends in the HTTP head"),
            Truncation::BeforeBody => f.write_str("the input ends before the body"),
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
