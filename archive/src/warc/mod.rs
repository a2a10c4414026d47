//! Reading archives — WARC files: `.warc`; `.warc.gz` with one gzip member per record
//! as Common Crawl, wget and Heritrix write them; `.warc.zst` with one zstd frame per
//! record as the IIPC proposal has it, perhaps with a dictionary in a skippable frame at
//! the start; and `.warc.lz4` with one LZ4 frame per record, as FastWARC reads them; and
//! ARC files, the Internet Archive's format before WARC (`.arc`, `.arc.gz`, versions 1
//! and 2; see the `arc` module) — and writing WARC files. The reader tells them apart by
//! their first bytes, not by the name.
//!
//! The modules, one idea each, each using only those before it: `limits` (magic bytes and
//! limits), `record` (records and errors), `arc` (ARC's header line), `input` (the bytes
//! as stored, rewinding after damage), `stream` (the units: a plain file, or one
//! compressed member at a time, and the codecs), `detect` (what a file's first bytes say
//! it is), `pool` (body buffers), `reader` (records), `parallel` (one file on several
//! threads), `writer`; HTTP messages and their codings are
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

mod arc;
mod detect;
mod input;
mod limits;
mod parallel;
mod pool;
mod reader;
mod record;
mod stream;
mod writer;

pub(crate) use detect::{SNIFF_LEN, Sniffed, sniff};
pub use parallel::{ParallelReader, Parts, open_parallel};
pub use pool::BufferPool;
pub use reader::{Reader, open};
pub use record::{
    ContentLengthError, Damage, Error, ErrorKind, Format, HeaderError, Record, Truncation,
};
pub use writer::Writer;
