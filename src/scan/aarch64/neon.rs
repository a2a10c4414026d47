//! NEON for aarch64: the masks that the block searches of `blocks` are written over.
//! NEON is part of the aarch64 baseline (the compiler enables it for every aarch64
//! target), so there is no run-time detection. The searches have the same scalar twins
//! as with SSE2, and the property suite (`scan::tests`, instantiated as `neon`) compares
//! the two.
//!
//! NEON has no "move mask" instruction: a compare result (each byte all ones or all
//! zeros) is narrowed with a shift to four bits per byte ([`nibble_mask`]), so byte `i` of
//! a block is bits `4·i .. 4·i + 3` of a `u64`, and `trailing_zeros / 4` is its index.

use std::arch::aarch64::*;

use super::super::blocks::Simd16;
use super::super::classes::special;

/// Loads 16 bytes of `bytes` at `at`.
///
/// # Safety
/// `at + 16 <= bytes.len()`.
#[inline(always)]
unsafe fn load16(bytes: &[u8], at: usize) -> uint8x16_t {
    debug_assert!(at + 16 <= bytes.len());
    // SAFETY: the caller keeps the 16-byte read inside `bytes`; `vld1q_u8` has no
    // alignment requirement, and NEON is part of the aarch64 baseline.
    unsafe { vld1q_u8(bytes.as_ptr().add(at)) }
}

/// Four bits per byte of `hits` (each byte all ones or all zeros): byte `i` is bits
/// `4·i .. 4·i + 3`.
#[inline(always)]
fn nibble_mask(hits: uint8x16_t) -> u64 {
    // SAFETY: register-only NEON intrinsics; NEON is part of the aarch64 baseline. Each
    // 16-bit lane (two bytes) shifted right by 4 and narrowed to 8 bits keeps the high
    // nibble of its first byte and the low nibble of its second.
    unsafe {
        vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
            hits,
        ))))
    }
}

/// The bytes of `block` equal to one of `needles`.
#[inline(always)]
fn eq_any(block: uint8x16_t, needles: &[u8]) -> uint8x16_t {
    // SAFETY: register-only NEON intrinsics, part of the aarch64 baseline.
    unsafe {
        let mut hits = vdupq_n_u8(0);
        for &n in needles {
            hits = vorrq_u8(hits, vceqq_u8(block, vdupq_n_u8(n)));
        }
        hits
    }
}

/// The bytes of `block` that are ≤ 0x20 or one of `punctuation`: a class's candidates.
#[inline(always)]
fn class_candidates(block: uint8x16_t, punctuation: &[u8]) -> uint8x16_t {
    // SAFETY: register-only NEON intrinsics, part of the aarch64 baseline.
    unsafe {
        vorrq_u8(
            vcleq_u8(block, vdupq_n_u8(0x20)),
            eq_any(block, punctuation),
        )
    }
}

/// The bytes of `block` that are 0x80 or above (not ASCII).
#[inline(always)]
fn not_ascii(block: uint8x16_t) -> uint8x16_t {
    // SAFETY: register-only NEON intrinsic, part of the aarch64 baseline.
    unsafe { vcgeq_u8(block, vdupq_n_u8(0x80)) }
}

/// The bytes of `block` that are one of `specials` (see `classes::special`; non-ASCII
/// bytes aside).
#[inline(always)]
fn special_bytes(block: uint8x16_t, specials: u8) -> uint8x16_t {
    use special::*;
    // SAFETY: register-only NEON intrinsics, part of the aarch64 baseline.
    unsafe {
        let eq = |b: u8| vceqq_u8(block, vdupq_n_u8(b));
        let mut hits = vdupq_n_u8(0);
        if specials & AMP != 0 {
            hits = vorrq_u8(hits, eq(b'&'));
        }
        if specials & CR != 0 {
            hits = vorrq_u8(hits, eq(b'\r'));
        }
        if specials & NUL != 0 {
            hits = vorrq_u8(hits, eq(0));
        }
        if specials & UPPER != 0 {
            // b - 'A' ≤ 25, unsigned.
            let offset = vsubq_u8(block, vdupq_n_u8(b'A'));
            hits = vorrq_u8(hits, vcleq_u8(offset, vdupq_n_u8(25)));
        }
        hits
    }
}

/// NEON for the block searches: masks narrowed to four bits per byte.
pub(crate) struct Neon;

// SAFETY: `load` reads the 16 bytes at `at` and nothing else; every mask is one
// `nibble_mask` of a 16-byte compare, 4 bits (STRIDE) per byte, all four set for a marked
// byte, so no bit past the 64 of the block is set; every intrinsic is NEON, part of the
// aarch64 baseline; there is no `long_run`.
unsafe impl Simd16 for Neon {
    type Block = uint8x16_t;
    const STRIDE: u32 = 4;

    #[inline(always)]
    unsafe fn load(bytes: &[u8], at: usize) -> uint8x16_t {
        // SAFETY: the caller's contract is `load16`'s.
        unsafe { load16(bytes, at) }
    }

    #[inline(always)]
    fn eq_any(block: uint8x16_t, needles: &[u8]) -> u64 {
        nibble_mask(eq_any(block, needles))
    }

    #[inline(always)]
    fn class_candidates(block: uint8x16_t, punctuation: &[u8]) -> u64 {
        nibble_mask(class_candidates(block, punctuation))
    }

    #[inline(always)]
    fn special(block: uint8x16_t, specials: u8) -> u64 {
        nibble_mask(special_bytes(block, specials))
    }

    #[inline(always)]
    fn not_ascii(block: uint8x16_t) -> u64 {
        nibble_mask(not_ascii(block))
    }
}
