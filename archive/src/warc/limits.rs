//! The formats' magic bytes and the reader's limits, shared by the units, the record
//! reader and the writer.

/// The first bytes of a gzip member: magic and the deflate method.
pub(super) const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];
/// The first bytes of a zstd frame (the magic number 0xFD2FB528, little-endian).
pub(super) const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
/// The first bytes of an LZ4 frame (the magic number 0x184D2204, little-endian).
pub(super) const LZ4_MAGIC: &[u8] = &[0x04, 0x22, 0x4d, 0x18];
/// The largest zstd dictionary read from a `.warc.zst`'s first frame.
pub(super) const MAX_DICTIONARY: usize = 16 << 20;
/// Where a record starts after damage: a line beginning `WARC/`.
pub(super) const RECORD_START: &[u8] = b"\nWARC/";
/// How many compressed bytes of one gzip member (or one plain record) are kept to search
/// again after damage.
pub(super) const MAX_REWIND: usize = 64 << 20;
/// How far past a block that its record's end does not follow the reader reads to find
/// the next record start (the bytes before it are the block's, the length having been
/// too short).
pub(super) const MAX_READ_ON: usize = 1 << 20;
/// The largest WARC header block (version line and fields) accepted.
pub(super) const MAX_HEADER: usize = 1 << 20;
/// Decompressed bytes are pulled in pieces of this size.
pub(super) const CHUNK: usize = 64 << 10;
/// A record's block is inflated straight into it in pieces of up to this size.
pub(super) const DIRECT: usize = 1 << 20;
/// The default for [`Reader::max_record_len`].
pub(super) const DEFAULT_MAX_RECORD: u64 = 1 << 30;
