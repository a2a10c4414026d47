//! SSE2, the x86_64 baseline: [`Sse2`] gives the 16-byte block searches of
//! `super::super::blocks` their masks (`_mm_movemask_epi8`, one bit per byte), and
//! [`find_stream_error_candidate`] is the SSE2 form of the input-stream candidate search.
//!
//! SSE2 needs no run-time detection: every function here may run on any x86_64 CPU.

use std::arch::x86_64::*;

use super::super::blocks::Simd16;
use super::super::classes::special;
use super::super::scalar;

/// Bit `i` set when byte `i` of `block` is one of `needles`.
#[inline(always)]
fn eq_any_mask(block: __m128i, needles: &[u8]) -> u32 {
    // SAFETY: register-only SSE2 intrinsics; SSE2 is part of the x86_64 baseline, so
    // every x86_64 CPU has them (the compiler enables `sse2` for the whole target).
    unsafe {
        let mut hits = _mm_setzero_si128();
        for &n in needles {
            hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, _mm_set1_epi8(n as i8)));
        }
        _mm_movemask_epi8(hits) as u32
    }
}

/// Bit `i` set when byte `i` of `block` is ≤ 0x20 or one of `punctuation`.
#[inline(always)]
fn class_candidate_mask(block: __m128i, punctuation: &[u8]) -> u32 {
    // Unsigned b ≤ 0x20 ⇔ min(b, 0x20) == b.
    // SAFETY: register-only SSE2 intrinsics, part of the x86_64 baseline.
    let low = unsafe {
        let low = _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x20)), block);
        _mm_movemask_epi8(low) as u32
    };
    low | eq_any_mask(block, punctuation)
}

/// Bit `i` set when byte `i` of `block` is one of `specials` (non-ASCII bytes aside).
#[inline(always)]
fn special_mask(block: __m128i, specials: u8) -> u32 {
    use special::*;
    // SAFETY: register-only SSE2 intrinsics, part of the x86_64 baseline.
    unsafe {
        let eq = |b: u8| _mm_cmpeq_epi8(block, _mm_set1_epi8(b as i8));
        let mut hits = _mm_setzero_si128();
        if specials & AMP != 0 {
            hits = _mm_or_si128(hits, eq(b'&'));
        }
        if specials & CR != 0 {
            hits = _mm_or_si128(hits, eq(b'\r'));
        }
        if specials & NUL != 0 {
            hits = _mm_or_si128(hits, eq(0));
        }
        if specials & UPPER != 0 {
            // b - 'A' ≤ 25, unsigned.
            let offset = _mm_sub_epi8(block, _mm_set1_epi8(b'A' as i8));
            let upper = _mm_cmpeq_epi8(_mm_min_epu8(offset, _mm_set1_epi8(25)), offset);
            hits = _mm_or_si128(hits, upper);
        }
        _mm_movemask_epi8(hits) as u32
    }
}

/// Bit `i` set when byte `i` of `block` may begin an input-stream error (see
/// `classes::is_stream_error_candidate`).
#[inline(always)]
fn stream_error_candidate_mask(block: __m128i) -> u32 {
    // SAFETY: register-only SSE2 intrinsics, part of the x86_64 baseline.
    unsafe {
        let eq = |b: u8| _mm_cmpeq_epi8(block, _mm_set1_epi8(b as i8));
        let control = _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x1F)), block);
        let allowed = _mm_or_si128(
            _mm_or_si128(eq(0), eq(b'\t')),
            _mm_or_si128(_mm_or_si128(eq(b'\n'), eq(0x0C)), eq(b'\r')),
        );
        let high = _mm_cmpeq_epi8(_mm_max_epu8(block, _mm_set1_epi8(0xF0u8 as i8)), block);
        let hits = _mm_or_si128(
            _mm_andnot_si128(allowed, control),
            _mm_or_si128(
                _mm_or_si128(eq(0x7F), eq(0xC2)),
                _mm_or_si128(eq(0xEF), high),
            ),
        );
        _mm_movemask_epi8(hits) as u32
    }
}

/// Loads 16 bytes of `haystack` at `at`.
///
/// # Safety
/// `at + 16 <= haystack.len()`.
#[inline(always)]
unsafe fn load16(haystack: &[u8], at: usize) -> __m128i {
    debug_assert!(at + 16 <= haystack.len());
    // SAFETY: the caller keeps the 16-byte unaligned read inside `haystack`;
    // `_mm_loadu_si128` has no alignment requirement, and SSE2 is part of the x86_64
    // baseline, so the instruction is always available.
    unsafe { _mm_loadu_si128(haystack.as_ptr().add(at).cast()) }
}

/// SSE2 (the x86_64 baseline) for the block searches of `blocks`: masks from
/// `_mm_movemask_epi8`, one bit per byte.
pub(crate) struct Sse2;

// SAFETY: `load` reads the 16 bytes at `at` and nothing else; every mask comes from one
// `_mm_movemask_epi8` of a 16-byte compare, so only its low 16 bits (STRIDE 1 × 16 bytes)
// can be set; every intrinsic is SSE2, part of the x86_64 baseline; `long_run` gives
// `blocks::find_class`'s answer and checks for AVX2 itself.
unsafe impl Simd16 for Sse2 {
    type Block = __m128i;
    const STRIDE: u32 = 1;

    #[inline(always)]
    unsafe fn load(bytes: &[u8], at: usize) -> __m128i {
        // SAFETY: the caller's contract is `load16`'s.
        unsafe { load16(bytes, at) }
    }

    #[inline(always)]
    fn eq_any(block: __m128i, needles: &[u8]) -> u64 {
        eq_any_mask(block, needles).into()
    }

    #[inline(always)]
    fn class_candidates(block: __m128i, punctuation: &[u8]) -> u64 {
        class_candidate_mask(block, punctuation).into()
    }

    #[inline(always)]
    fn special(block: __m128i, specials: u8) -> u64 {
        special_mask(block, specials).into()
    }

    #[inline(always)]
    fn not_ascii(block: __m128i) -> u64 {
        // SAFETY: register-only SSE2 intrinsic; the high bit of each byte is its own
        // "not ASCII" flag.
        (unsafe { _mm_movemask_epi8(block) } as u32).into()
    }

    #[inline(always)]
    fn long_run(haystack: &[u8], at: usize, class: u8, punctuation: &[u8]) -> Option<usize> {
        Some(super::avx2::find_class(haystack, at, class, punctuation))
    }
}

/// The SSE2 form of `scalar::find_stream_error_candidate`: 16 bytes per step.
#[inline]
pub(crate) fn find_stream_error_candidate(haystack: &[u8]) -> usize {
    let len = haystack.len();
    let mut at = 0;
    while at + 16 <= len {
        // SAFETY: the loop condition keeps the block inside the haystack.
        let mask = stream_error_candidate_mask(unsafe { load16(haystack, at) });
        if mask != 0 {
            return at + mask.trailing_zeros() as usize;
        }
        at += 16;
    }
    at + scalar::find_stream_error_candidate(&haystack[at..])
}
