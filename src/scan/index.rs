//! The structural index: stage 1 of the simdjson split. Each 64-byte block of the input is
//! classified once into [`BlockMasks`], one bit per byte for each set of bytes the hot
//! states stop at; the states then find their next interesting byte with a shift and a
//! bit scan (`tzcnt`) on the block's masks instead of a search of their own
//! (`crate::machine`'s `index_find`).
//!
//! Blocks are the input's 64-byte blocks counted from its start: block `b` holds bytes
//! `64·b .. 64·b + 64`, and bit `i` of each mask stands for byte `64·b + i`. The last
//! block may be short: its bits past the input's end are zero.
//!
//! Only the data state and the states inside a tag read the masks (most of a page's
//! bytes and transitions); the text states of `<script>`, `<style>` and the other
//! elements whose content is one long run keep the byte searches of [`super::Scanner`],
//! which skip long runs faster than classifying every block would.
//!
//! Every back-end computes the same masks: the scalar twin [`BlockMasks::of_scalar`]
//! defines them, and `scan::tests` checks each SIMD form against it.

/// One bit per byte of a 64-byte block for each byte set below (bit `i`: byte `i`). Each
/// set is exact: no candidates to confirm.
///
/// Quotes are not resolved here (unlike JSON's strings, a quote delimits a value only
/// after `=` inside a tag, and `>` may sit inside one): the attribute states read the
/// quote masks and decide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BlockMasks {
    /// `<`: 13.2.5.1 Data state (markup begins).
    pub(crate) lt: u64,
    /// `&` and NUL: with parse errors on, the data state (13.2.5.1) and the quoted
    /// attribute value states (13.2.5.36–37) also stop at them (references and NUL raise
    /// errors; without errors they change no boundary).
    pub(crate) amp_nul: u64,
    /// Whitespace (tab, LF, FF, CR, space), `/`, `>`, NUL: 13.2.5.8 Tag name state
    /// (`class::TAG_NAME_END`).
    pub(crate) tag_name_end: u64,
    /// Whitespace, `/`, `>`, `=`, NUL, `"`, `'`, `<`: 13.2.5.33 Attribute name state
    /// (`class::ATTR_NAME_END`).
    pub(crate) attr_name_end: u64,
    /// `"`: 13.2.5.36 Attribute value (double-quoted) state.
    pub(crate) double_quote: u64,
    /// `'`: 13.2.5.37 Attribute value (single-quoted) state.
    pub(crate) single_quote: u64,
    /// Bytes 0x80 and above: whether an attribute name is plain ASCII (for the
    /// duplicate-attribute check).
    pub(crate) not_ascii: u64,
}

#[cfg(any(test, feature = "structural-index"))]
/// The bytes in a block.
pub(crate) const BLOCK: usize = 64;

#[cfg(any(test, feature = "structural-index"))]
impl BlockMasks {
    /// The masks from an array in field order (`lt`, `amp_nul`, `tag_name_end`,
    /// `attr_name_end`, `double_quote`, `single_quote`, `not_ascii`): the SIMD back-ends
    /// compute them that way.
    #[inline(always)]
    pub(crate) fn from_fields(fields: [u64; 7]) -> BlockMasks {
        let [
            lt,
            amp_nul,
            tag_name_end,
            attr_name_end,
            double_quote,
            single_quote,
            not_ascii,
        ] = fields;
        BlockMasks {
            lt,
            amp_nul,
            tag_name_end,
            attr_name_end,
            double_quote,
            single_quote,
            not_ascii,
        }
    }

    /// The scalar twin, and the definition of every mask: one byte at a time.
    pub(crate) fn of_scalar(bytes: &[u8; BLOCK]) -> BlockMasks {
        let mut m = BlockMasks::default();
        for (i, &b) in bytes.iter().enumerate() {
            let bit = 1u64 << i;
            let whitespace = matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ');
            let tag_name_end = whitespace || matches!(b, b'/' | b'>' | 0);
            if b == b'<' {
                m.lt |= bit;
            }
            if matches!(b, b'&' | 0) {
                m.amp_nul |= bit;
            }
            if tag_name_end {
                m.tag_name_end |= bit;
            }
            if tag_name_end || matches!(b, b'=' | b'"' | b'\'' | b'<') {
                m.attr_name_end |= bit;
            }
            if b == b'"' {
                m.double_quote |= bit;
            }
            if b == b'\'' {
                m.single_quote |= bit;
            }
            if b >= 0x80 {
                m.not_ascii |= bit;
            }
        }
        m
    }
}

/// Block `block` of `input` as 64 bytes, or None when it is the last block and short
/// (or past the end): the caller then pads it with [`padded`].
#[cfg(any(test, feature = "structural-index"))]
#[inline(always)]
pub(crate) fn full_block(input: &[u8], block: usize) -> Option<&[u8; BLOCK]> {
    let start = block.checked_mul(BLOCK)?;
    input.get(start..start.checked_add(BLOCK)?)?.try_into().ok()
}

/// The short last block (or an empty one past the end) padded to 64 bytes with a byte
/// that is in no set (`a`), so its masks have no bits past the input's end.
#[cfg(any(test, feature = "structural-index"))]
#[cold]
pub(crate) fn padded(input: &[u8], block: usize) -> [u8; BLOCK] {
    let mut bytes = [b'a'; BLOCK];
    let start = block.saturating_mul(BLOCK).min(input.len());
    let tail = &input[start..];
    let n = tail.len().min(BLOCK);
    bytes[..n].copy_from_slice(&tail[..n]);
    bytes
}
