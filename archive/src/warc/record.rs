//! What the reader yields: records, and the errors that say where and why a record or
//! a member was not read whole.

use std::fmt;
use std::io;

/// One `response` or `resource` record (of a WARC file, or an ARC file's record read as
/// one); with [`Reader::every_record`](super::Reader::every_record), a record of any other type too, without its block.
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

/// What went wrong; see the [module documentation](super#damage) for where reading resumes.
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
    /// `Content-Length` is missing, not a number, or over [`Reader::max_record_len`](super::Reader::max_record_len).
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
    /// The record is larger than [`Reader::max_record_len`](super::Reader::max_record_len): a document too large to read.
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

    pub(super) fn new(offset: u64, kind: ErrorKind) -> Self {
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
