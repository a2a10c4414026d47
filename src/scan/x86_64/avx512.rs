//! AVX-512BW, detected at run time: the structural index's classifier ([`classify`]),
//! one 64-byte block per register. Every compare yields its 64-bit mask directly
//! (`_mm512_cmpeq_epi8_mask`), so a block's seven masks cost about two dozen
//! instructions.
//!
//! The `#[target_feature]` function is private; the safe wrapper asserts that the CPU
//! has AVX-512BW first (see `super`).

use std::arch::x86_64::*;

use super::super::index::{BLOCK, BlockMasks};

/// The masks of one block (see [`BlockMasks`]).
///
/// Panics when the CPU lacks AVX-512BW (the front never asks then).
#[inline]
pub(crate) fn classify(bytes: &[u8; BLOCK], masks: &mut BlockMasks) {
    assert!(std::arch::is_x86_feature_detected!("avx512bw"));
    // SAFETY: the CPU has AVX-512BW (and so AVX-512F): checked by the assertion (a cached
    // load); the front hands blocks here only for `Scanner::Avx512`, which
    // `Builder::scanner` accepts only when `Scanner::is_supported`.
    unsafe { classify_avx512(bytes, masks) }
}

/// The AVX-512BW body of [`classify`].
#[target_feature(enable = "avx512bw")]
fn classify_avx512(bytes: &[u8; BLOCK], masks: &mut BlockMasks) {
    // SAFETY: `bytes` is exactly 64 bytes, the width of the unaligned load (which has no
    // alignment requirement); AVX-512F/BW are enabled for this function and its caller
    // checks the CPU has them.
    let v = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
    let eq = |b: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b as i8));
    // Tab, LF, FF, CR: b - 9 ≤ 4 (unsigned), less VT (0x0B).
    let controls =
        _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(9)), _mm512_set1_epi8(4))
            & !eq(0x0B);
    let nul = eq(0);
    let lt = eq(b'<');
    let double_quote = eq(b'"');
    let single_quote = eq(b'\'');
    let tag_name_end = controls | eq(b' ') | nul | eq(b'/') | eq(b'>');
    *masks = BlockMasks {
        lt,
        amp_nul: eq(b'&') | nul,
        tag_name_end,
        attr_name_end: tag_name_end | eq(b'=') | double_quote | single_quote | lt,
        double_quote,
        single_quote,
        not_ascii: _mm512_movepi8_mask(v),
    };
}
