//! The file's bytes as stored: position, push-back and the bytes kept for rewinding
//! after damage, and the search for the next record start (`WARC/` version line) in them.

use std::io::{self, BufRead, BufReader, Read};

use super::arc;
use super::limits::*;
use super::record::*;

/// The file's bytes as stored, counting the position, with bytes pushed back in front of
/// the rest and the bytes consumed since a mark kept (up to [`MAX_REWIND`]) so that
/// reading can go back there after damage.
pub(super) struct Raw<R> {
    pub(super) inner: BufReader<R>,
    /// The offset in the file of the next byte.
    pub(super) pos: u64,
    /// Bytes to read before `inner`'s, from `replay_at`.
    pub(super) replay: Vec<u8>,
    pub(super) replay_at: usize,
    pub(super) mark: Option<Mark>,
    /// The underlying reader failed (so an error seen through the gzip decoder is an I/O
    /// error, not damage).
    pub(super) io_failed: bool,
}

/// The bytes consumed since `offset`, unless there were more than [`MAX_REWIND`].
pub(super) struct Mark {
    pub(super) offset: u64,
    pub(super) bytes: Vec<u8>,
    pub(super) overflowed: bool,
}

impl<R: Read> Raw<R> {
    pub(super) fn new(inner: R) -> Self {
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
    pub(super) fn set_mark(&mut self) {
        self.mark = Some(Mark {
            offset: self.pos,
            bytes: Vec::new(),
            overflowed: false,
        });
    }

    pub(super) fn mark_offset(&self) -> Option<u64> {
        self.mark.as_ref().map(|mark| mark.offset)
    }

    /// Goes back to `skip` bytes after the mark, if the bytes since are all kept; the mark
    /// is dropped either way. Returns whether it went back.
    pub(super) fn rewind_to_mark(&mut self, skip: usize) -> bool {
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
    pub(super) fn unread(&mut self, bytes: &[u8]) {
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
    pub(super) fn step_past_mark(&mut self) {
        let Some(offset) = self.mark_offset() else {
            return;
        };
        if !self.rewind_to_mark(1) && self.pos == offset && matches!(self.fill_buf(), Ok([_, ..])) {
            self.consume(1);
        }
    }

    pub(super) fn record(mark: &mut Option<Mark>, bytes: &[u8]) {
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
pub(super) trait Pull {
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
pub(super) fn skip_to<P: Pull>(input: &mut P, needle: &[u8]) -> Result<bool, Error> {
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
pub(super) fn skip_to_record_start<P: Pull>(input: &mut P) -> Result<bool, Error> {
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

/// Consumes everything before the next line that is an ARC header line (see
/// [`arc::parse_header`]) and returns true, or consumes everything and returns false.
/// Linear: each line is looked at once (up to 4 KiB of it; a longer line is no header).
pub(super) fn skip_to_arc_record_start<P: Pull>(input: &mut P) -> Result<bool, Error> {
    const MAX_LINE: usize = 4 << 10;
    loop {
        if !skip_to(input, b"\n")? {
            return Ok(false);
        }
        input.advance(1);
        let mut line = Vec::new();
        let mut at_line_end = false;
        while line.len() < MAX_LINE {
            let buf = input.pull()?;
            if buf.is_empty() {
                break;
            }
            let take = buf.len().min(MAX_LINE - line.len());
            match memchr::memchr(b'\n', &buf[..take]) {
                Some(at) => {
                    line.extend_from_slice(&buf[..at]);
                    input.advance(at);
                    at_line_end = true;
                    break;
                }
                None => {
                    line.extend_from_slice(&buf[..take]);
                    input.advance(take);
                }
            }
        }
        if at_line_end && arc::parse_header(&line, None).is_some() {
            input.push_back(&line);
            return Ok(true);
        }
        // Not a record: search on from the LF where the line ended (still unread).
    }
}

/// `WARC/` digits `.` digits, and an optional CR.
pub(super) fn is_version_line(line: &[u8]) -> bool {
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
}
