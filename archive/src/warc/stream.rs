//! The decompressed stream, in units: a plain file is one unit, a `.warc.gz` (`.arc.gz`)
//! one unit per gzip member, a `.warc.zst` one per zstd frame, a `.warc.lz4` one per LZ4
//! frame; the codecs and how a candidate unit is judged after damage.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use super::arc;
use super::input::*;
use super::limits::*;
use super::record::*;

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
    pub(super) fn magic(self) -> &'static [u8] {
        match self {
            Codec::Gzip => GZIP_MAGIC,
            Codec::Zstd => ZSTD_MAGIC,
            Codec::Lz4 => LZ4_MAGIC,
        }
    }

    /// The error of a unit that does not decompress.
    pub(super) fn error(self, error: io::Error) -> ErrorKind {
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
pub(super) fn is_skippable_frame(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// Reads into `buf` until it is full or the input ends; how many bytes it got.
pub(super) fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
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
pub(super) fn read_dictionary(content: Vec<u8>) -> io::Result<Vec<u8>> {
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
pub(super) fn leading_dictionary(mut input: impl Read) -> Option<std::sync::Arc<[u8]>> {
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
pub(super) type ZstdContext = zstd::zstd_safe::DCtx<'static>;

/// A new context, with the file's dictionary loaded; an error only when libzstd cannot
/// allocate (the dictionary was checked when it was read).
pub(super) fn zstd_context(dictionary: Option<&[u8]>) -> io::Result<ZstdContext> {
    let mut context = ZstdContext::try_create()
        .ok_or_else(|| io::Error::other("zstd cannot allocate a context"))?;
    if let Some(dictionary) = dictionary {
        context.load_dictionary(dictionary).map_err(zstd_error)?;
    }
    Ok(context)
}

pub(super) fn zstd_error(code: usize) -> io::Error {
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
pub(super) fn zstd_decode_error(code: usize) -> io::Error {
    let name = zstd::zstd_safe::get_error_name(code);
    if name == "Destination buffer is too small" {
        io::Error::new(io::ErrorKind::InvalidData, "Data corruption detected")
    } else {
        zstd_error(code)
    }
}

/// The decoder of exactly one zstd frame over a buffered input: it consumes the frame's
/// bytes and no more, so the input is positioned at the next frame afterwards.
pub(super) struct ZstdFrame<B> {
    pub(super) input: B,
    pub(super) context: ZstdContext,
    pub(super) done: bool,
}

impl<B: BufRead> ZstdFrame<B> {
    /// Starts a frame at `input`'s position with `context`, reset for it (its
    /// dictionary stays loaded).
    pub(super) fn new(input: B, mut context: ZstdContext) -> io::Result<ZstdFrame<B>> {
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
            let ended = available.is_empty();
            let mut input = zstd::zstd_safe::InBuffer::around(available);
            let mut output = zstd::zstd_safe::OutBuffer::around(&mut *buf);
            // At the end of the input too: libzstd may hold decoded bytes that did not fit.
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
            if ended {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the zstd frame is cut off",
                ));
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
    pub(super) decoder: lz4_flex::frame::FrameDecoder<EndWatch<R>>,
    /// Bytes decoded so far; None once the frame has ended.
    pub(super) decoded: Option<u64>,
}

/// A reader that notes when its input has ended (a read of a non-empty buffer gave 0).
pub(super) struct EndWatch<R> {
    pub(super) inner: R,
    pub(super) ended: bool,
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

    pub(super) fn get_ref(&self) -> &R {
        &self.decoder.get_ref().inner
    }

    pub(super) fn into_inner(self) -> R {
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
/// candidate from the input instead would read a header that never ends (a file name
/// with no NUL) on to the end of the file, for every candidate: quadratic time.
pub(crate) fn gzip_starts_warc(head: &[u8]) -> bool {
    gzip_prefix(head, 5).is_some_and(|out| out == b"WARC/")
}

/// Whether `head` (as for [`gzip_starts_warc`]) inflates to a whole ARC header line: the
/// judgment of a candidate member in an `.arc.gz`.
pub(super) fn gzip_starts_arc(head: &[u8]) -> bool {
    gzip_prefix(head, GZIP_PEEK * 4).is_some_and(|out| arc::starts_record(&out))
}

/// The first `want` bytes (fewer if `head` holds no more) that `head`, the first bytes at
/// a gzip member's magic, inflates to: None when the member's header does not end within
/// `head` or its first bytes do not inflate.
pub(crate) fn gzip_prefix(head: &[u8], want: usize) -> Option<Vec<u8>> {
    // The header's end first (RFC 1952 § 2.3): no decoder for a header that does not end
    // within `head`.
    let &flags = head.get(3)?;
    let mut end = 10;
    if flags & 0x04 != 0 {
        let xlen = head.get(end..end + 2)?;
        end += 2 + usize::from(u16::from_le_bytes([xlen[0], xlen[1]]));
    }
    for field in [0x08, 0x10] {
        if flags & field != 0 {
            let nul = head.get(end..).and_then(|rest| memchr::memchr(0, rest))?;
            end += nul + 1;
        }
    }
    if flags & 0x02 != 0 {
        end += 2;
    }
    if end >= head.len() {
        return None;
    }
    let mut decoder = GzDecoder::new(head);
    let mut out = vec![0u8; want];
    let mut got = 0;
    while got < out.len() {
        match decoder.read(&mut out[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            // `head` is cut short of the member: what inflated from it is the prefix.
            Err(_) if got > 0 => break,
            Err(_) => return None,
        }
    }
    out.truncate(got);
    Some(out)
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

/// What a corrupt member (frame) decodes to before its error, from byte `from` of its
/// output on (the bytes before were handed over); `bytes` are its compressed bytes as
/// kept, from its start. The read that met the error dropped what it had decoded before
/// it, and how much that was depends on how the input happened to come in; decoded again
/// here in one piece, the answer depends on the bytes alone, which is what makes the
/// records handed out the same whoever reads the member (see `parallel`). At most
/// [`DIRECT`] + [`CHUNK`] bytes: no read that failed asked for more. An LZ4 frame's
/// decoder drops nothing (a block is decoded whole before any of it is handed over).
pub(super) fn output_before_error(
    codec: Codec,
    bytes: &[u8],
    from: u64,
    dictionary: Option<&[u8]>,
) -> Vec<u8> {
    let max = DIRECT + CHUNK;
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    // Keeps the part of `got`, output from byte `at` on, that is at or after `from`;
    // false once there is enough.
    let mut keep = |got: &[u8], at: u64| {
        let skip = from.saturating_sub(at).min(got.len() as u64) as usize;
        let room = max - kept.len();
        kept.extend_from_slice(&got[skip..][..(got.len() - skip).min(room)]);
        kept.len() < max
    };
    match codec {
        Codec::Lz4 => {}
        Codec::Gzip => {
            // zlib's inflate counts every byte it wrote before it met the error.
            let mut inflate = flate2::Decompress::new_gzip(15);
            loop {
                let (before_in, before_out) = (inflate.total_in(), inflate.total_out());
                let Some(input) = bytes.get(before_in as usize..) else {
                    break;
                };
                let result = inflate.decompress(input, &mut chunk, flate2::FlushDecompress::None);
                let n = (inflate.total_out() - before_out) as usize;
                let stuck = n == 0 && inflate.total_in() == before_in;
                if !keep(&chunk[..n], before_out)
                    || stuck
                    || !matches!(result, Ok(flate2::Status::Ok | flate2::Status::BufError))
                {
                    break;
                }
            }
        }
        Codec::Zstd => {
            let Ok(mut context) = zstd_context(dictionary) else {
                return kept;
            };
            // libzstd hands over nothing of a call that fails, so each call is given the
            // input up to the end of one more block only.
            let mut pos = 0;
            let mut at = 0u64;
            for end in zstd_block_ends(bytes) {
                loop {
                    let mut input = zstd::zstd_safe::InBuffer::around(&bytes[..end]);
                    input.set_pos(pos);
                    let mut output = zstd::zstd_safe::OutBuffer::around(&mut chunk[..]);
                    let result = context.decompress_stream(&mut output, &mut input);
                    let n = output.pos();
                    let more = keep(&chunk[..n], at);
                    at += n as u64;
                    let moved = n > 0 || input.pos() > pos;
                    pos = input.pos();
                    match result {
                        Ok(1..) if more && moved => {}
                        Ok(1..) if more => break,
                        _ => return kept,
                    }
                }
            }
        }
    }
    kept
}

/// Where the blocks of the zstd frame `bytes` begins with end (RFC 8878 § 3.1.1), read
/// from its header and its blocks' headers, the last one at most `bytes.len()`.
fn zstd_block_ends(bytes: &[u8]) -> Vec<usize> {
    let mut ends = Vec::new();
    let Some(&descriptor) = bytes.get(4) else {
        return vec![bytes.len()];
    };
    let single_segment = descriptor & 0x20 != 0;
    let dictionary_id = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let mut at = 5 + usize::from(!single_segment) + dictionary_id + content_size;
    while let Some(header) = bytes.get(at..at + 3) {
        let header = u32::from_le_bytes([header[0], header[1], header[2], 0]);
        let size = match (header >> 1) & 3 {
            1 => 1, // RLE: one byte, repeated
            _ => (header >> 3) as usize,
        };
        at += 3 + size;
        ends.push(at.min(bytes.len()));
        if header & 1 == 1 || at >= bytes.len() {
            break;
        }
    }
    // The checksum, or what follows a block that does not parse.
    ends.push(bytes.len());
    ends
}

/// The decoder of one compressed unit, over the raw input (in a Box: `Source::Member`).
pub(super) enum Member<R: Read> {
    Gzip(GzDecoder<Raw<R>>),
    Zstd(ZstdFrame<Raw<R>>),
    Lz4(Lz4Frame<Raw<R>>),
}

impl<R: Read> Member<R> {
    /// A decoder of the unit starting at `raw`'s position; a zstd frame takes the spare
    /// context (or a new one, with `dictionary`). Making a context fails only when
    /// libzstd cannot allocate: the input is lost with it, and the reader stops as on an
    /// I/O error.
    pub(super) fn new(
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

    pub(super) fn get_ref(&self) -> &Raw<R> {
        match self {
            Member::Gzip(decoder) => decoder.get_ref(),
            Member::Zstd(frame) => &frame.input,
            Member::Lz4(frame) => frame.get_ref(),
        }
    }

    pub(super) fn get_mut(&mut self) -> &mut Raw<R> {
        match self {
            Member::Gzip(decoder) => decoder.get_mut(),
            Member::Zstd(frame) => &mut frame.input,
            Member::Lz4(frame) => &mut frame.decoder.get_mut().inner,
        }
    }

    /// The raw input, positioned where the decoder stopped; a zstd context goes back to
    /// `spare`.
    pub(super) fn into_inner(self, spare: &mut Option<ZstdContext>) -> Raw<R> {
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

pub(super) enum Source<R: Read> {
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
pub(super) struct Stream<R: Read> {
    pub(super) source: Source<R>,
    /// The current member's offset in the file.
    pub(super) member_start: u64,
    /// The current member has no more data.
    pub(super) member_done: bool,
    /// No record of the current member has been read whole yet.
    pub(super) first_in_member: bool,
    /// Decompressed bytes: `out[out_at..out_end]` (`out` is [`CHUNK`] long once used).
    pub(super) out: Vec<u8>,
    pub(super) out_at: usize,
    pub(super) out_end: usize,
    /// Decompressed bytes pushed back, read before `out`'s.
    pub(super) front: Vec<u8>,
    /// How many bytes the current member's decoder gave.
    pub(super) produced: u64,
    /// The current member ended because the input did, inside it (the decoder's report):
    /// what it gave is good. The record it cuts reports it (see `Reader::read_record`);
    /// when it cuts none, [`Stream::next_unit`] does.
    pub(super) cut: Option<io::Error>,
    /// The error of a corrupt member, to report once the bytes its decoder gave before
    /// the error (put in `front`) are read.
    pub(super) failed: Option<Error>,
    /// Where a part read by [`ParallelReader`] ends: the reading stops at the first
    /// record (plain) or member (gzip) that starts at or after it.
    pub(super) limit: u64,
    /// The start of the record or member the reading stopped at because of `limit`.
    pub(super) landed: Option<u64>,
    /// For [`ParallelReader`]: every start of a record (plain) or member (gzip) read, in
    /// order. The reader's state at such a start depends on nothing but the offset and the
    /// bytes after it, which is what makes reading a file in parts exact.
    pub(super) starts: Option<Vec<u64>>,
    /// How the units are compressed (when they are: `Member`, `Between`).
    pub(super) codec: Codec,
    /// A `.warc.zst`'s dictionary, from the skippable frame it starts with.
    pub(super) dictionary: Option<std::sync::Arc<[u8]>>,
    /// The container, once the file's first record has decided it (set by the reader,
    /// see `Reader::read_record`): it decides what a record start is when searching after
    /// damage (an ARC header line in an ARC file, else a WARC version line).
    pub(super) format: Option<Format>,
    /// The zstd context between frames (with the dictionary loaded).
    pub(super) zstd_context: Option<ZstdContext>,
}

impl<R: Read> Stream<R> {
    pub(super) fn new(inner: R) -> Self {
        Stream::of(Source::Unknown(Raw::new(inner)))
    }

    /// A stream over `source` with nothing read yet: its first unit at offset 0, no
    /// limit, no starts noted.
    fn of(source: Source<R>) -> Self {
        Stream {
            source,
            member_start: 0,
            member_done: true,
            first_in_member: true,
            out: Vec::new(),
            out_at: 0,
            out_end: 0,
            front: Vec::new(),
            produced: 0,
            cut: None,
            failed: None,
            limit: u64::MAX,
            landed: None,
            starts: None,
            codec: Codec::Gzip,
            dictionary: None,
            zstd_context: None,
            format: None,
        }
    }

    /// A stream over `inner`, whose first byte is at `offset` in the file, already known to
    /// be plain (`codec` None) or compressed, read up to `limit` (see [`Stream::limit`]),
    /// noting the starts.
    pub(super) fn part(inner: R, codec: Option<Codec>, offset: u64, limit: u64) -> Self {
        let mut raw = Raw::new(inner);
        raw.pos = offset;
        let source = if codec.is_some() {
            Source::Between(raw)
        } else {
            Source::Plain(raw)
        };
        Stream {
            member_start: offset,
            limit,
            starts: Some(Vec::new()),
            codec: codec.unwrap_or(Codec::Gzip),
            ..Stream::of(source)
        }
    }

    /// The underlying reader, when reading has not started (for [`Stream::part`]).
    pub(super) fn take_input(self) -> R {
        match self.source {
            Source::Unknown(raw) => raw.inner.into_inner(),
            _ => unreachable!("take_input is called before reading"),
        }
    }

    /// A record (plain) or member (gzip) starts at `offset`: noted; true when it is at or
    /// past the limit, where the reading stops.
    pub(super) fn start_at(&mut self, offset: u64) -> bool {
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
    pub(super) fn detect(&mut self) -> Result<(), Error> {
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
    pub(super) fn is_compressed(&self) -> bool {
        matches!(self.source, Source::Member(_) | Source::Between(_))
    }

    /// Where a record starting at the next byte is said to start.
    pub(super) fn record_offset(&self) -> u64 {
        match &self.source {
            Source::Plain(raw) => raw.pos,
            _ => self.member_start,
        }
    }

    /// In a plain file, starts keeping the record's bytes for a rewind.
    pub(super) fn mark_record(&mut self) {
        if let Source::Plain(raw) = &mut self.source {
            raw.set_mark();
        }
    }

    /// Whether [`Stream::resync`] after the record at `offset` goes back to the byte after
    /// its start (in a plain file, when the record's bytes are all kept).
    pub(super) fn rewinds_to(&self, offset: u64) -> bool {
        match &self.source {
            Source::Plain(raw) => raw
                .mark
                .as_ref()
                .is_some_and(|mark| mark.offset == offset && !mark.overflowed),
            _ => false,
        }
    }

    /// A record was read whole: in a plain file, its bytes need not be kept any more.
    pub(super) fn record_done(&mut self) {
        self.first_in_member = false;
        if let Source::Plain(raw) = &mut self.source {
            raw.mark = None;
        }
    }

    /// The length as stored of a record that started at `offset` and was just read whole
    /// (with [`Stream::fill`] called after it): in a plain file, up to here; in a gzip
    /// member, the member's length when the record was all of it, else None.
    pub(super) fn stored_length(&self, offset: u64, first_in_member: bool) -> Option<u64> {
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
    pub(super) fn fill(&mut self) -> Result<&[u8], Error> {
        if matches!(self.source, Source::Member(_)) {
            return self.fill_member();
        }
        match &mut self.source {
            Source::Plain(raw) => {
                let pos = raw.pos;
                raw.fill_buf()
                    .map_err(|error| Error::new(pos, ErrorKind::Io(error)))
            }
            _ => Ok(&[]),
        }
    }

    /// [`Stream::fill`] in a member: the bytes pushed back, else those decoded and not
    /// consumed, else the next ones decoded.
    fn fill_member(&mut self) -> Result<&[u8], Error> {
        if self.front.is_empty()
            && self.out_at >= self.out_end
            && self.failed.is_none()
            && !self.member_done
        {
            self.decode_chunk()?;
        }
        if !self.front.is_empty() {
            return Ok(&self.front);
        }
        if self.out_at < self.out_end {
            return Ok(&self.out[self.out_at..self.out_end]);
        }
        match self.failed.take() {
            Some(error) => Err(error),
            None => Ok(&[]),
        }
    }

    /// Decodes the member's next bytes into [`Stream::out`].
    fn decode_chunk(&mut self) -> Result<(), Error> {
        let Source::Member(decoder) = &mut self.source else {
            return Ok(());
        };
        if self.out.is_empty() {
            self.out = vec![0; CHUNK];
        }
        self.out_at = 0;
        self.out_end = 0;
        match decoder.read(&mut self.out) {
            Ok(n) => {
                self.out_end = n;
                self.produced += n as u64;
                if n == 0 {
                    self.member_done = true;
                }
                Ok(())
            }
            Err(error) => self.member_failed(error),
        }
    }

    /// Inflates up to `max` bytes of the current gzip member straight onto the end of
    /// `into` (no copy through [`Stream::out`]), when nothing decompressed is waiting;
    /// None when that is not the case (then [`Stream::fill`] it is). `Some(0)`: the member
    /// ended.
    pub(super) fn read_direct(
        &mut self,
        into: &mut Vec<u8>,
        max: usize,
    ) -> Result<Option<usize>, Error> {
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
                self.produced += n as u64;
                if n == 0 {
                    self.member_done = true;
                }
                Ok(Some(n))
            }
            Err(error) => {
                into.truncate(old);
                self.member_failed(error)?;
                // What is left of the member, if anything, comes through `fill`.
                Ok(None)
            }
        }
    }

    /// The current member's decoder failed with `error`: the member ends. When the input
    /// ended inside it, the member is cut off: what it gave is good, and its bytes are
    /// not searched for a member again. Else it is corrupt: the bytes it gave before the
    /// error that the failing read dropped go to `front`, and the error is reported after
    /// them (an I/O error at once).
    pub(super) fn member_failed(&mut self, error: io::Error) -> Result<(), Error> {
        self.member_done = true;
        let Source::Member(decoder) = &mut self.source else {
            return Err(Error::new(self.member_start, self.codec.error(error)));
        };
        let raw = decoder.get_mut();
        let at_end = matches!(raw.fill_buf(), Ok([]));
        if raw.io_failed {
            return Err(Error::new(raw.pos, ErrorKind::Io(error)));
        }
        let mark = raw.mark.take().filter(|mark| !mark.overflowed);
        // A corrupt member can read on to the end of the input too (a header field with no
        // end, a stored block's length): it is corrupt if a member that begins a record
        // starts inside it.
        if error.kind() == io::ErrorKind::UnexpectedEof
            && at_end
            && !self.holds_record_member(mark.as_ref().map_or(&[][..], |mark| &mark.bytes[..]))
        {
            self.cut = Some(error);
            return Ok(());
        }
        if let Some(mark) = &mark {
            // With the bytes the failing read was given and did not take (libzstd takes
            // none of a call that fails): they hold all of the block that failed.
            let mut bytes = mark.bytes.clone();
            if let Source::Member(decoder) = &mut self.source
                && let Ok(rest) = decoder.get_mut().fill_buf()
            {
                bytes.extend_from_slice(rest);
            }
            self.front = output_before_error(
                self.codec,
                &bytes,
                self.produced,
                self.dictionary.as_deref(),
            );
        }
        self.failed = Some(Error::new(self.member_start, self.codec.error(error)));
        if let Source::Member(decoder) = &mut self.source {
            decoder.get_mut().mark = mark;
        }
        Ok(())
    }

    /// Whether a member (frame) that begins a record, as [`Stream::recover_member`] judges
    /// one, starts in `bytes` (a member's bytes, from its start) after their first byte.
    fn holds_record_member(&mut self, bytes: &[u8]) -> bool {
        let magic = self.codec.magic();
        let mut context = None;
        for at in memchr::memmem::find_iter(bytes.get(1..).unwrap_or_default(), magic) {
            let candidate = &bytes[at + 1..];
            let starts = match self.codec {
                Codec::Gzip => {
                    let head = &candidate[..candidate.len().min(GZIP_PEEK)];
                    if self.format == Some(Format::Arc) {
                        gzip_starts_arc(head)
                    } else {
                        gzip_starts_warc(head)
                    }
                }
                Codec::Lz4 => lz4_starts_warc(&candidate[..candidate.len().min(LZ4_PEEK)]),
                Codec::Zstd => {
                    let made = match context.take().or_else(|| self.zstd_context.take()) {
                        Some(made) => made,
                        None => match zstd_context(self.dictionary.as_deref()) {
                            Ok(made) => made,
                            Err(_) => return false,
                        },
                    };
                    match ZstdFrame::new(candidate, made) {
                        Ok(mut frame) => {
                            let starts = decodes_to_warc(&mut frame);
                            context = Some(frame.context);
                            starts
                        }
                        Err(_) => false,
                    }
                }
            };
            if starts {
                return true;
            }
        }
        if context.is_some() {
            self.zstd_context = context;
        }
        false
    }

    pub(super) fn consume(&mut self, amount: usize) {
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
    pub(super) fn next_unit(&mut self) -> Result<bool, Error> {
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
        if let Some(error) = self.cut.take() {
            // Cut off before a record began in it (nothing, or only line ends, came out):
            // the member's own report. Its end is the input's.
            self.source = Source::Between(raw);
            return Err(Error::new(self.member_start, self.codec.error(error)));
        }
        self.start_member(raw)
    }

    /// Reads the rest of the current member, discarding it.
    pub(super) fn drain_member(&mut self) -> Result<(), Error> {
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
    pub(super) fn start_member(&mut self, mut raw: Raw<R>) -> Result<bool, Error> {
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
        self.produced = 0;
        self.cut = None;
        self.failed = None;
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
    pub(super) fn skip_skippable_frame(&mut self, raw: &mut Raw<R>) -> Result<bool, Error> {
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
    pub(super) fn recover_member(&mut self) -> Result<(), Error> {
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
    pub(super) fn starts_warc(&mut self, mut raw: Raw<R>) -> Result<(Raw<R>, bool), Error> {
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
                let starts = if self.format == Some(Format::Arc) {
                    gzip_starts_arc(&head[..got])
                } else {
                    gzip_starts_warc(&head[..got])
                };
                return Ok((raw, starts));
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
    pub(super) fn resync(&mut self, record_offset: u64) -> Result<(), Error> {
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
        if self.format == Some(Format::Arc) {
            skip_to_arc_record_start(self)?;
        } else {
            skip_to_record_start(self)?;
        }
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
