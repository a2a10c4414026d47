//! Stage 2's reads of the structural index (`crate::scan::index`), with the feature
//! `structural-index`: the data state and the states inside a tag find their next
//! interesting byte with a bit scan on the masks of the 64-byte block they are in,
//! classified once for all of them. Without the feature (the default) every search here
//! answers "long run" at once, the callers' byte searches run as before, and the
//! compiler removes the rest: the default build has no trace of it.
//!
//! It is not the default because it is measured slower on real pages: at about 51
//! bytes per token, a block holds four or five stops, and classifying the block (about
//! 110 instructions with AVX2, 45 with AVX-512BW) costs more than the four or five short
//! SIMD searches it replaces (BENCHMARKS.md, "The structural index").
//!
//! The tokenizer keeps the masks of one block, the last it asked for: tokens move
//! forward, so each block is classified once (a tag or a text run that crosses into the
//! next block moves the window there, and the tokens after it start there). A search
//! looks through its own block and the next; past that the run is long, and the
//! caller's byte search ([`crate::scan::Scanner`]) takes over, as it skips long runs
//! faster than classifying every block would.

use super::Tokenizer;
use crate::scan::BlockMasks;
#[cfg(feature = "structural-index")]
use crate::scan::index::BLOCK;

/// Where an index search stopped.
pub(super) enum Found {
    /// The offset of the first byte of the set (the input's length when the input ends
    /// first).
    #[cfg_attr(not(feature = "structural-index"), expect(dead_code))]
    At(usize),
    /// No answer from the index (a run longer than two blocks, or no index): the byte
    /// search goes on from this offset (≤ the input's length).
    LongRun(usize),
}

#[cfg(not(feature = "structural-index"))]
impl Tokenizer<'_> {
    /// Without the index: the caller's byte search, from `pos`.
    #[inline(always)]
    pub(super) fn index_find(&mut self, pos: usize, _: impl Fn(&BlockMasks) -> u64) -> Found {
        Found::LongRun(pos)
    }

    /// Without the index: the caller's byte search, from `pos`.
    #[inline(always)]
    pub(super) fn index_find_attribute_name_end(&mut self, _: usize) -> Option<(usize, bool)> {
        None
    }
}

#[cfg(feature = "structural-index")]
impl Tokenizer<'_> {
    /// The masks of block `block`, classified if the tokenizer does not hold them.
    #[inline(always)]
    fn block_masks(&mut self, block: usize) -> &BlockMasks {
        if self.masks_block != block {
            self.scanner
                .classify_into(self.input, block, &mut self.masks);
            self.masks_block = block;
        }
        &self.masks
    }

    /// The first byte at or after `pos` whose bit `set` picks from its block's masks,
    /// looking in `pos`'s block and the next one.
    #[inline(always)]
    pub(super) fn index_find(&mut self, pos: usize, set: impl Fn(&BlockMasks) -> u64) -> Found {
        let block = pos / BLOCK;
        let bits = set(self.block_masks(block)) & (u64::MAX << (pos % BLOCK));
        if bits != 0 {
            return Found::At(block * BLOCK + bits.trailing_zeros() as usize);
        }
        self.index_find_in_next(block + 1, set)
    }

    /// [`Self::index_find`] in block `block`, the one after the search's first.
    #[inline(always)]
    fn index_find_in_next(&mut self, block: usize, set: impl Fn(&BlockMasks) -> u64) -> Found {
        let len = self.input.len();
        let start = block * BLOCK;
        if start >= len {
            return Found::At(len);
        }
        let bits = set(self.block_masks(block));
        if bits != 0 {
            Found::At(start + bits.trailing_zeros() as usize)
        } else {
            Found::LongRun((start + BLOCK).min(len))
        }
    }

    /// [`Self::index_find`] for the end of an attribute name (13.2.5.33), and whether the
    /// bytes from `pos` to it are all ASCII; None for a long run (the byte search then
    /// reads the name from `pos` again).
    #[inline(always)]
    pub(super) fn index_find_attribute_name_end(&mut self, pos: usize) -> Option<(usize, bool)> {
        let block = pos / BLOCK;
        let from = pos % BLOCK;
        let masks = self.block_masks(block);
        let after = u64::MAX << from;
        let bits = masks.attr_name_end & after;
        if bits != 0 {
            let end = bits.trailing_zeros();
            // The bytes from..end: below bit `end`, from bit `from` on.
            let name = after & !(u64::MAX << end);
            return Some((block * BLOCK + end as usize, masks.not_ascii & name == 0));
        }
        let ascii_here = masks.not_ascii & after == 0;
        let next = block + 1;
        let len = self.input.len();
        if next * BLOCK >= len {
            return Some((len, ascii_here));
        }
        let masks = self.block_masks(next);
        let bits = masks.attr_name_end;
        if bits == 0 {
            return None;
        }
        let end = bits.trailing_zeros();
        let name = !(u64::MAX << end);
        Some((
            next * BLOCK + end as usize,
            ascii_here && masks.not_ascii & name == 0,
        ))
    }
}
