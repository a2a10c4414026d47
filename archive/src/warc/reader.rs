//! The sequential reader: records, one after the other, and where reading resumes after
//! damage.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::arc;
use super::input::{Pull, is_version_line};
use super::limits::*;
use super::pool::BufferPool;
use super::record::*;
use super::stream::*;

/// Reads the `response` and `resource` records of a `.warc`, `.warc.gz`, `.warc.zst`,
/// `.warc.lz4`, `.arc` or `.arc.gz` (told apart by the first bytes). An iterator of
/// `Result<Record, Error>`; see the [module documentation](super) for offsets and damage.
pub struct Reader<R: Read> {
    pub(super) stream: Stream<R>,
    /// Which records are yielded, and how their bodies are read.
    pub(super) options: RecordOptions,
    /// Errors to hand out before reading on (found while resuming after damage).
    pub(super) pending: std::collections::VecDeque<Error>,
    /// The ARC version the file's `filedesc://` record names (None: not known, or WARC).
    pub(super) arc_version: Option<arc::Version>,
    pub(super) done: bool,
}

/// The settings of a [`Reader`] that a [`ParallelReader`] takes too and hands to the
/// reader of each part (see the setters of [`Reader`]).
#[derive(Clone)]
pub(super) struct RecordOptions {
    /// Yield `resource` records too ([`Reader::resources`]).
    pub(super) resources: bool,
    /// Yield the records of every type ([`Reader::every_record`]).
    pub(super) every_record: bool,
    /// The largest `Content-Length` accepted ([`Reader::max_record_len`]).
    pub(super) max_record_len: u64,
    /// Where record bodies are taken from ([`Reader::buffer_pool`]).
    pub(super) pool: Option<std::sync::Arc<BufferPool>>,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            resources: true,
            every_record: false,
            max_record_len: DEFAULT_MAX_RECORD,
            pool: None,
        }
    }
}

/// What reading one record gave.
pub(super) enum Next {
    Record(Box<Record>),
    Skipped,
    End,
}

/// Opens a `.warc`, `.warc.gz`, `.warc.zst`, `.warc.lz4`, `.arc` or `.arc.gz` file (the
/// container and its compression are recognised by the first bytes, whatever the name).
pub fn open(path: &Path) -> io::Result<Reader<Box<dyn Read + Send>>> {
    let file = File::open(path)?;
    Ok(Reader::new(Box::new(file)))
}

impl<R: Read> Reader<R> {
    /// A reader of `input`: a WARC or ARC file, plain or compressed.
    pub fn new(input: R) -> Self {
        Reader::with_options(input, RecordOptions::default())
    }

    /// A reader of `input` with these settings.
    pub(super) fn with_options(input: R, options: RecordOptions) -> Self {
        Reader {
            stream: Stream::new(input),
            options,
            pending: std::collections::VecDeque::new(),
            arc_version: None,
            done: false,
        }
    }

    /// Reads record bodies into buffers taken from `pool` (the consumer gives them back
    /// with [`BufferPool::give`] when done), instead of a new allocation per record.
    pub fn buffer_pool(mut self, pool: std::sync::Arc<BufferPool>) -> Self {
        self.options.pool = Some(pool);
        self
    }

    /// Whether to yield `resource` records too (the default) or only `response` records.
    pub fn resources(mut self, yes: bool) -> Self {
        self.options.resources = yes;
        self
    }

    /// Whether to yield the records of every type (`warcinfo`, `request`, `metadata`,
    /// `revisit`, …; an ARC file's `filedesc://` record as `warcinfo`) too, each without
    /// its block (an empty [`Record::body`]), so that a consumer can count them; off by
    /// default.
    pub fn every_record(mut self, yes: bool) -> Self {
        self.options.every_record = yes;
        self
    }

    /// The largest `Content-Length` accepted (default 1 GiB); a larger one is an
    /// [`ErrorKind::ContentLength`] error. It also caps a decoded `Content-Encoding`.
    pub fn max_record_len(mut self, bytes: u64) -> Self {
        self.options.max_record_len = bytes;
        self
    }

    /// Reads one record (or finds the end).
    pub(super) fn read_record(&mut self) -> Result<Next, Error> {
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
        let next = self.read_record_at(offset);
        // A member cut off inside this record, or right after it, is said by what the
        // record gave (its damage, or an error), whatever that was: once.
        self.stream.cut = None;
        next
    }

    /// Reads the record that starts here, at `offset`.
    fn read_record_at(&mut self, offset: u64) -> Result<Next, Error> {
        let first_in_member = self.stream.first_in_member;
        self.stream.mark_record();

        // The first line: a WARC version line, or an ARC header line.
        let mut line = Vec::new();
        let mut budget = MAX_HEADER;
        let complete = self.read_line(&mut line, &mut budget, offset)?;
        // The container is decided once, by the file's first record, and holds for the
        // rest: a WARC file's records begin `WARC/`, an ARC file's with an ARC header line
        // (ARC comes plain or gzipped, so a zstd or LZ4 file is WARC). What a record start
        // is after damage depends on it, so deciding it again later would let a line in a
        // payload change how the rest of the file is read.
        let may_be_arc = self.stream.format != Some(Format::Warc)
            && !(self.stream.is_compressed() && self.stream.codec != Codec::Gzip);
        let header = if line.starts_with(b"WARC/") && self.stream.format != Some(Format::Arc) {
            self.stream.format = Some(Format::Warc);
            self.read_warc_fields(&mut line, &mut budget, offset)?
        } else if let Some(arc) = (complete && may_be_arc)
            .then(|| arc::parse_header(&line, self.arc_version))
            .flatten()
        {
            self.stream.format = Some(Format::Arc);
            self.arc_header(arc, offset)?
        } else if !complete
            && (self.stream.format == Some(Format::Arc)
                || b"WARC/".starts_with(&line[..line.len().min(5)]))
        {
            return Err(Error::new(
                offset,
                ErrorKind::Truncated(Truncation::InHeader),
            ));
        } else if self.stream.format == Some(Format::Arc) {
            return Err(Error::new(
                offset,
                ErrorKind::Header(HeaderError::NoArcHeaderLine {
                    found: preview(&line),
                }),
            ));
        } else {
            return Err(Error::new(
                offset,
                ErrorKind::Header(HeaderError::NoVersionLine {
                    found: preview(&line),
                }),
            ));
        };
        let is_response = header.warc_type.eq_ignore_ascii_case("response");
        let is_resource = header.warc_type.eq_ignore_ascii_case("resource");
        let is_filedesc = header.format == Format::Arc && header.warc_type == "warcinfo";
        let wanted = is_response || (self.options.resources && is_resource);
        let keep = wanted || is_filedesc;

        // The block, then its end (CR LF CR LF in a WARC, LF in an ARC).
        let (head, mut block, cut) = self.read_block(header.length, keep, is_response)?;
        // Cut off by the end of the input (not by the end of a member that is whole).
        let input_ended =
            cut.is_some() && (!self.stream.is_compressed() || self.stream.cut.is_some());
        let ends_in_head =
            input_ended && is_response && head.is_empty() && crate::http::ends_in_head(&block);
        let mut damage = cut;
        if damage.is_none() && !self.read_record_end(header.format)? {
            damage = Some(Damage::WrongLength {
                length: header.length,
            });
        }
        if keep && let Some(damage) = &damage {
            // The length is not to be trusted: the block runs to where reading resumes.
            let read_on = matches!(damage, Damage::WrongLength { .. });
            self.end_block_at_record_start(
                &mut block,
                offset,
                header.length,
                read_on,
                input_ended,
            )?;
        }
        if is_filedesc {
            self.arc_version = arc::Version::of_filedesc(&block);
        }
        if damage.is_none() {
            self.stream.record_done();
            if self.stream.is_compressed() {
                // Read on to the end of the member (when the record is all of it, but for
                // line ends a writer may have added) so that its checksum is verified
                // before the record is handed out, and its length known.
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
                if self.stream.cut.take().is_some() {
                    damage = Some(Damage::MemberCutOff);
                }
            }
        }
        let length = match damage {
            None => self.stream.stored_length(offset, first_in_member),
            Some(_) => None,
        };
        // Reading resumes after a record read in part (not after one read whole, its
        // member cut off after it: that is where the input ends).
        let resync = matches!(
            damage,
            Some(Damage::CutOff { .. } | Damage::WrongLength { .. })
        );
        if !wanted {
            if self.options.every_record {
                let mut record = header.into_record(offset, length);
                record.damage = damage;
                return Ok(self.damaged(Next::Record(Box::new(record)), offset, resync));
            }
            // A record nobody asked for, read in part, is skipped like the others (with
            // `every_record` it is handed out, its damage said).
            return Ok(self.damaged(Next::Skipped, offset, resync));
        }
        let mut record = header.into_record(offset, length);
        record.damage = damage;
        // The HTTP head, when `read_block` split it off, else the start of the block.
        let (http, block) = match (is_response, head.is_empty()) {
            (false, _) => (None, block),
            (true, true) => {
                let http = crate::http::parse_head(&block);
                let mut block = block;
                if let Some(http) = &http {
                    block.drain(..http.body_start);
                }
                (http, block)
            }
            (true, false) => match crate::http::parse_head(&head) {
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
        if input_ended {
            // Cut off: handed out when there is something of the body to use, past the
            // HTTP head; else an error, for a record's head alone is no page. (A record
            // whose member ends whole inside it, its length too long or the rest of it
            // written to the next member, is handed out with what the member holds.)
            let truncation = if ends_in_head {
                Some(Truncation::InHttpHead)
            } else if block.is_empty() {
                Some(Truncation::BeforeBody)
            } else {
                None
            };
            if let Some(truncation) = truncation {
                if let Some(pool) = &self.options.pool {
                    pool.give(block);
                }
                return Err(Error::new(offset, ErrorKind::Truncated(truncation)));
            }
        }
        match http {
            Some(http) => {
                record.http_status = Some(http.status);
                let archived = record.content_type.take();
                record.content_type = http.header("Content-Type").map(str::to_string);
                if record.format == Format::Arc && record.content_type.is_none() {
                    // The archiver's content type, as it read it off the response.
                    record.content_type = archived;
                }
                let transfer = http.header("Transfer-Encoding");
                let content = http.header("Content-Encoding");
                match crate::http::decode_body(
                    &block,
                    transfer,
                    content,
                    self.options.max_record_len,
                ) {
                    Ok(decoded) => {
                        record.payload_notes = decoded.notes;
                        match decoded.body {
                            Some(body) => {
                                record.body = body;
                                record.raw_body = Some(block);
                            }
                            None => record.body = block,
                        }
                    }
                    Err(error) => {
                        record.transfer_encoding = transfer.map(str::to_string);
                        record.content_encoding = content.map(str::to_string);
                        record.body_error = Some(error);
                        record.body = block;
                    }
                }
                record.http_headers = http.headers;
            }
            None => {
                if record.format == Format::Arc {
                    record.warc_type = "resource".to_string();
                }
                record.body = block;
            }
        }
        record.charset = record
            .content_type
            .as_deref()
            .and_then(crate::mime::charset_from_content_type)
            .map(Cow::into_owned);
        Ok(self.damaged(Next::Record(Box::new(record)), offset, resync))
    }

    /// What to hand out for a record read: when it was damaged, reading resumes (see the
    /// module documentation) before the next record. If resuming finds that the record's
    /// compressed member does not decompress, that is the cause, and the one thing
    /// reported: the record, read from a corrupt member, is dropped.
    fn damaged(&mut self, next: Next, offset: u64, damaged: bool) -> Next {
        if !damaged {
            return next;
        }
        let error = self.recover(Error::new(offset, ErrorKind::RecordEnd));
        if matches!(error.kind, ErrorKind::RecordEnd) {
            next
        } else {
            self.pending.push_front(error);
            Next::Skipped
        }
    }

    /// Ends a damaged record's block, `block`, where reading resumes (see the module
    /// documentation): in a member read from its first record, at the member's end; else
    /// at the first record start in it, which is put back to be read next. The record's
    /// end before either is dropped (not where the input ended: `input_ended`, the block
    /// is cut off). With `read_on` (the block is not followed by the record's end: its
    /// length may be too short), a block without a record start is read on to one, or to
    /// the end of the unit, for up to [`MAX_READ_ON`] bytes; found neither, it is left as
    /// its length gave it.
    fn end_block_at_record_start(
        &mut self,
        block: &mut Vec<u8>,
        offset: u64,
        length: u64,
        read_on: bool,
        input_ended: bool,
    ) -> Result<(), Error> {
        let given = block.len();
        let limit = MAX_READ_ON.min(
            usize::try_from(self.options.max_record_len.saturating_sub(length))
                .unwrap_or(usize::MAX),
        );
        if self.stream.is_compressed() && self.stream.first_in_member {
            // The member is the record: reading resumes at the next member.
            if !read_on && !input_ended {
                self.strip_record_end(block);
            }
            if read_on {
                loop {
                    let buf = self.stream.fill()?;
                    if buf.is_empty() {
                        self.strip_record_end(block);
                        break;
                    }
                    if block.len() - given + buf.len() > limit {
                        block.truncate(given);
                        break;
                    }
                    block.extend_from_slice(buf);
                    let n = buf.len();
                    self.stream.consume(n);
                }
            }
            return Ok(());
        }
        let mut from = 0;
        loop {
            if let Some(start) = self.record_start_in(block, from) {
                let mut rest = Vec::with_capacity(block.len() - start + 1);
                rest.push(b'\n');
                rest.extend_from_slice(&block[start..]);
                block.truncate(start);
                self.strip_record_end(block);
                if !self.stream.rewinds_to(offset) {
                    // With the LF before it (the block's, or the header's before the
                    // block): a record start is looked for as a line start.
                    self.stream.push_back(&rest);
                }
                return Ok(());
            }
            if !read_on {
                return Ok(());
            }
            // The line the block ends in is looked at again with what follows.
            from = memchr::memrchr(b'\n', block).map_or(0, |lf| lf + 1);
            let buf = self.stream.fill()?;
            if buf.is_empty() {
                if block.len() > given {
                    self.strip_record_end(block);
                }
                return Ok(());
            }
            if block.len() - given + buf.len() > limit {
                // No record start near: the block is what its length gave.
                let extra = block.split_off(given);
                self.stream.push_back(&extra);
                return Ok(());
            }
            block.extend_from_slice(buf);
            let n = buf.len();
            self.stream.consume(n);
        }
    }

    /// Where, in `block`, the first whole line from `from` on (a line start) that is a
    /// record start begins (a WARC version line, or in an ARC file an ARC header line).
    fn record_start_in(&self, block: &[u8], from: usize) -> Option<usize> {
        let mut at = from;
        while at < block.len() {
            let line_end = at + memchr::memchr(b'\n', &block[at..])?;
            let line = &block[at..line_end];
            let found = if self.stream.format == Some(Format::Arc) {
                arc::parse_header(line, self.arc_version).is_some()
            } else {
                is_version_line(line)
            };
            if found {
                return Some(at);
            }
            at = line_end + 1;
        }
        None
    }

    /// Drops the record's end from the end of `block`: CR LF CR LF (an ARC file's LF) when
    /// it is there, else any line ends.
    fn strip_record_end(&self, block: &mut Vec<u8>) {
        let end: &[u8] = if self.stream.format == Some(Format::Arc) {
            b"\n"
        } else {
            b"\r\n\r\n"
        };
        if block.ends_with(end) {
            block.truncate(block.len() - end.len());
        } else {
            while matches!(block.last(), Some(b'\r' | b'\n')) {
                block.pop();
            }
        }
    }

    /// After a WARC version line: the fields, through the empty line.
    fn read_warc_fields(
        &mut self,
        line: &mut Vec<u8>,
        budget: &mut usize,
        offset: u64,
    ) -> Result<Header, Error> {
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            if !self.read_line(line, budget, offset)? {
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
                value.push_str(String::from_utf8_lossy(line).trim());
                continue;
            }
            let Some(colon) = memchr::memchr(b':', line) else {
                return Err(Error::new(
                    offset,
                    ErrorKind::Header(HeaderError::NoColon {
                        line: preview(line),
                    }),
                ));
            };
            let name = String::from_utf8_lossy(&line[..colon]).trim().to_string();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(Error::new(
                    offset,
                    ErrorKind::Header(HeaderError::BadFieldName {
                        line: preview(line),
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
                .map(|(_, v)| v.to_string())
        };
        let length = match field("Content-Length") {
            None => {
                return Err(Error::new(
                    offset,
                    ErrorKind::ContentLength(ContentLengthError::Missing),
                ));
            }
            Some(value) => self.length(&value, offset)?,
        };
        let target_uri = field("WARC-Target-URI").map(|uri| {
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .map(str::to_string)
                .unwrap_or(uri)
        });
        Ok(Header {
            format: Format::Warc,
            warc_type: field("WARC-Type").unwrap_or_default(),
            target_uri,
            date: field("WARC-Date"),
            record_id: field("WARC-Record-ID"),
            ip_address: field("WARC-IP-Address"),
            content_type: field("Content-Type"),
            warc_truncated: field("WARC-Truncated"),
            length,
        })
    }

    /// An ARC header line, as the fields of a WARC record (`response` for now: a block
    /// that is not an HTTP message makes it a `resource` once read).
    fn arc_header(&mut self, arc: arc::Header, offset: u64) -> Result<Header, Error> {
        let length = match arc.length {
            arc::Length::Bytes(n) => self.length(&n.to_string(), offset)?,
            arc::Length::Bad(value) => {
                return Err(Error::new(
                    offset,
                    ErrorKind::ContentLength(ContentLengthError::NotANumber { value }),
                ));
            }
        };
        let filedesc = arc.url.starts_with("filedesc:");
        Ok(Header {
            format: Format::Arc,
            warc_type: if filedesc { "warcinfo" } else { "response" }.to_string(),
            target_uri: Some(arc.url),
            date: arc.date,
            record_id: None,
            ip_address: arc.ip,
            content_type: arc.content_type,
            warc_truncated: None,
            length,
        })
    }

    /// A record's length field, checked against the limit.
    fn length(&self, value: &str, offset: u64) -> Result<u64, Error> {
        match value.parse::<u64>() {
            Ok(length) if length <= self.options.max_record_len => Ok(length),
            Ok(length) => Err(Error::new(
                offset,
                ErrorKind::ContentLength(ContentLengthError::OverLimit {
                    length,
                    limit: self.options.max_record_len,
                }),
            )),
            Err(_) => Err(Error::new(
                offset,
                ErrorKind::ContentLength(ContentLengthError::NotANumber {
                    value: value.to_string(),
                }),
            )),
        }
    }

    /// Reads a line through its LF into `line` without the line end (LF or CR LF), within
    /// the header's byte budget. False when the unit ends first.
    pub(super) fn read_line(
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
                // CR LF, and the CR CR LF of writers that turned LF into CR LF twice
                // (pywb's `missing-status-text.warc`): a line of CRs is an empty line.
                while line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(true);
            }
        }
    }

    /// Reads `length` bytes of block, keeping them if `keep`. With `split_http`, an HTTP
    /// head (status line through the empty line) found whole in the first bytes comes back
    /// on its own, first, so that the body needs no move; else the first part is empty.
    pub(super) fn read_block(
        &mut self,
        length: u64,
        keep: bool,
        split_http: bool,
    ) -> Result<Block, Error> {
        let mut head = Vec::new();
        let mut left = length;
        if keep && split_http {
            let buf = self.stream.fill()?;
            let buf = &buf[..buf.len().min(usize::try_from(left).unwrap_or(usize::MAX))];
            if let Some(end) = crate::http::head_len(buf) {
                head.extend_from_slice(&buf[..end]);
                self.stream.consume(end);
                left -= end as u64;
            }
        }
        let mut block = Vec::new();
        if keep {
            let capacity = left.min(16 << 20) as usize;
            match &self.options.pool {
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
                // Cut off: what was read is the block (the record says so).
                let read = length - left;
                return Ok((head, block, Some(Damage::CutOff { length, read })));
            }
            let take = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            if keep {
                block.extend_from_slice(&buf[..take]);
            }
            self.stream.consume(take);
            left -= take as u64;
        }
        Ok((head, block, None))
    }

    /// Reads the record's end: CR LF CR LF after a WARC record's block, a line end (LF, or
    /// CR LF) after an ARC record's. False when something else follows (the length is
    /// wrong). The end of the unit there is accepted (a writer that left the end out
    /// loses nothing), and so is, in a WARC file, the next record's version line right
    /// after the block (no record is lost either); not an ARC header line, which is too
    /// loose a match (a length too long by one byte would take the next record's URL
    /// without its first letter for one).
    pub(super) fn read_record_end(&mut self, format: Format) -> Result<bool, Error> {
        let end: &[u8] = match format {
            Format::Warc => b"\r\n\r\n",
            // More line ends are skipped before the next record.
            Format::Arc => b"\n",
        };
        let mut matched = 0;
        for &expected in end {
            let buf = self.stream.fill()?;
            match buf.first() {
                None => return Ok(true),
                Some(&b) if b == expected => {
                    self.stream.consume(1);
                    matched += 1;
                }
                Some(b'\r') if format == Format::Arc => {
                    self.stream.consume(1);
                    return match self.stream.fill()?.first() {
                        None => Ok(true),
                        Some(b'\n') => {
                            self.stream.consume(1);
                            Ok(true)
                        }
                        Some(_) => {
                            self.stream.push_back(b"\r");
                            Ok(false)
                        }
                    };
                }
                Some(_) => {
                    let starts = format == Format::Warc && self.next_is_version_line()?;
                    if !starts && matched > 0 {
                        // The line ends matched belong to the block, its length being wrong.
                        self.stream.push_back(&end[..matched]);
                    }
                    return Ok(starts);
                }
            }
        }
        Ok(true)
    }

    /// Whether the next line, as far as the buffer shows it, is a WARC version line.
    fn next_is_version_line(&mut self) -> Result<bool, Error> {
        let buf = self.stream.fill()?;
        let line_end = memchr::memchr(b'\n', buf).unwrap_or(buf.len());
        Ok(is_version_line(&buf[..line_end]))
    }

    /// After an error: on to where reading can resume (see the module documentation).
    /// Returns the error to report: a record error in a gzip member that turns out not to
    /// decompress is reported as the gzip error, its cause.
    pub(super) fn recover(&mut self, error: Error) -> Error {
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
            self.pending.push_back(fatal);
        }
        reported
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(error) = self.pending.pop_front() {
                return Some(Err(error));
            }
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

/// A block as [`Reader::read_block`] reads it: the HTTP head when split off (else
/// empty), the rest, and how it was cut off if it was.
pub(super) type Block = (Vec<u8>, Vec<u8>, Option<Damage>);

/// A record's header, WARC fields or an ARC header line, before its block is read.
pub(super) struct Header {
    pub(super) format: Format,
    pub(super) warc_type: String,
    pub(super) target_uri: Option<String>,
    pub(super) date: Option<String>,
    pub(super) record_id: Option<String>,
    pub(super) ip_address: Option<String>,
    /// The record's own `Content-Type` (WARC), or the archiver's (ARC).
    pub(super) content_type: Option<String>,
    pub(super) warc_truncated: Option<String>,
    pub(super) length: u64,
}

impl Header {
    /// The record, with no HTTP message and no body yet (a block that is not an HTTP
    /// message keeps the record's `Content-Type`; an ARC record's is then a `resource`).
    fn into_record(self, offset: u64, length: Option<u64>) -> Record {
        Record {
            offset,
            length,
            format: self.format,
            warc_type: self.warc_type,
            target_uri: self.target_uri,
            date: self.date,
            record_id: self.record_id,
            ip_address: self.ip_address,
            http_status: None,
            http_headers: Vec::new(),
            content_type: self.content_type,
            charset: None,
            transfer_encoding: None,
            content_encoding: None,
            payload_notes: Vec::new(),
            body_error: None,
            warc_truncated: self.warc_truncated,
            damage: None,
            body: Vec::new(),
            raw_body: None,
        }
    }
}

/// The start of a line for an error message.
pub(super) fn preview(line: &[u8]) -> String {
    let cut = &line[..line.len().min(60)];
    String::from_utf8_lossy(cut).into_owned()
}
