//! AVX2, detected at run time: 32 bytes per step for the long runs. [`find_class`] takes
//! over a byte-class search that has not ended within its first blocks (the `long_run`
//! of `blocks::find_class` for `Scanner::Avx2`), and [`find_stream_error_candidate`] is
//! the AVX2 form of the input-stream candidate search.
//!
//! The `#[target_feature(enable = "avx2")]` functions are private; the safe wrappers
//! assert that the CPU has AVX2 first (see `super`).

use std::arch::x86_64::*;

use super::super::classes::CLASS_TABLE;
use super::super::scalar;

/// The byte-class search of `blocks::find_class` from `at`, 32 bytes per step: the first
/// byte of `class` at or after `at` (whose SIMD candidates are `punctuation` and every
/// byte ≤ 0x20), or `haystack.len()`.
///
/// Panics when the CPU lacks AVX2 (the front never asks then).
#[inline(never)]
pub(crate) fn find_class(haystack: &[u8], at: usize, class: u8, punctuation: &[u8]) -> usize {
    assert!(std::arch::is_x86_feature_detected!("avx2"));
    // SAFETY: the CPU has AVX2: checked by the assertion (a cached load); it is only
    // handed to the search for `Scanner::Avx2`, which `Builder::scanner` accepts only
    // when `Scanner::is_supported`.
    unsafe { find_class_avx2(haystack, at, class, punctuation) }
}

/// The AVX2 loop of [`find_class`].
#[target_feature(enable = "avx2")]
fn find_class_avx2(haystack: &[u8], mut at: usize, class: u8, punctuation: &[u8]) -> usize {
    let len = haystack.len();
    let limit = _mm256_set1_epi8(0x20);
    while at + 32 <= len {
        assert!(at + 32 <= haystack.len());
        // SAFETY: the assertion keeps the 32-byte unaligned read inside `haystack`;
        // `_mm256_loadu_si256` has no alignment requirement; AVX2 is enabled for this
        // function and its callers check the CPU has it.
        let block = unsafe { _mm256_loadu_si256(haystack.as_ptr().add(at).cast()) };
        let mut hits = _mm256_cmpeq_epi8(_mm256_min_epu8(block, limit), block);
        for &n in punctuation {
            hits = _mm256_or_si256(hits, _mm256_cmpeq_epi8(block, _mm256_set1_epi8(n as i8)));
        }
        let mut mask = _mm256_movemask_epi8(hits) as u32;
        while mask != 0 {
            let i = at + mask.trailing_zeros() as usize;
            if CLASS_TABLE[haystack[i] as usize] & class != 0 {
                return i;
            }
            mask &= mask - 1;
        }
        at += 32;
    }
    at + scalar::find_class(&haystack[at..], class)
}

/// The AVX2 form of `scalar::find_stream_error_candidate`: 32 bytes per step, the SSE2
/// form for the tail.
///
/// Panics when the CPU lacks AVX2 (the front never asks then).
#[inline]
pub(crate) fn find_stream_error_candidate(haystack: &[u8]) -> usize {
    assert!(std::arch::is_x86_feature_detected!("avx2"));
    // SAFETY: the CPU has AVX2: checked by the assertion (a cached load).
    unsafe { find_stream_error_candidate_avx2(haystack) }
}

/// The candidate set of `classes::is_stream_error_candidate` as two 16-entry tables for
/// `vpshufb`: byte `b` is a candidate exactly when `STREAM_HIGH[b >> 4] & STREAM_LOW[b &
/// 15]` is not zero (checked for all 256 bytes by a test below). Bit 0: `00`–`0F` less
/// NUL, tab, LF, FF, CR; bit 1: `10`–`1F` and `F0`–`FF`; bit 2: `7F` and `EF`; bit 3: `C2`.
const STREAM_LOW: [u8; 16] = [
    0b0010, 0b0011, 0b1011, 0b0011, 0b0011, 0b0011, 0b0011, 0b0011, //
    0b0011, 0b0010, 0b0010, 0b0011, 0b0010, 0b0010, 0b0011, 0b0111,
];
/// See [`STREAM_LOW`].
const STREAM_HIGH: [u8; 16] = [
    0b0001, 0b0010, 0, 0, 0, 0, 0, 0b0100, //
    0, 0, 0, 0, 0b1000, 0, 0b0100, 0b0010,
];

/// The AVX2 loop of [`find_stream_error_candidate`]: two table lookups (`vpshufb`) per
/// 32 bytes classify every byte at once, and a `vptest` skips blocks without one.
#[target_feature(enable = "avx2")]
fn find_stream_error_candidate_avx2(haystack: &[u8]) -> usize {
    let len = haystack.len();
    let mut at = 0;
    let table = |t: [u8; 16]| {
        // SAFETY: `t` is 16 bytes, the width of the read.
        let half = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
        _mm256_broadcastsi128_si256(half)
    };
    let (low_table, high_table) = (table(STREAM_LOW), table(STREAM_HIGH));
    let nibble = _mm256_set1_epi8(0x0F);
    while at + 32 <= len {
        // SAFETY: the loop condition keeps the 32-byte unaligned read inside
        // `haystack`; AVX2 is enabled for this function and its callers check the CPU.
        let block = unsafe { _mm256_loadu_si256(haystack.as_ptr().add(at).cast()) };
        let low = _mm256_shuffle_epi8(low_table, _mm256_and_si256(block, nibble));
        let high = _mm256_shuffle_epi8(
            high_table,
            _mm256_and_si256(_mm256_srli_epi16::<4>(block), nibble),
        );
        let hits = _mm256_and_si256(low, high);
        if _mm256_testz_si256(hits, hits) == 0 {
            let misses = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hits, _mm256_setzero_si256()));
            return at + (!misses as u32).trailing_zeros() as usize;
        }
        at += 32;
    }
    at + super::sse2::find_stream_error_candidate(&haystack[at..])
}

#[cfg(test)]
mod stream_table_tests {
    use super::{STREAM_HIGH, STREAM_LOW};
    use crate::scan::classes::is_stream_error_candidate;

    #[test]
    fn the_tables_are_the_candidate_set() {
        for b in 0..=255u8 {
            let hit = STREAM_HIGH[usize::from(b >> 4)] & STREAM_LOW[usize::from(b & 15)] != 0;
            assert_eq!(hit, is_stream_error_candidate(b), "{b:#04x}");
        }
    }
}
