//! NEON twins of the SSE2 searches in `super::x86`, for aarch64. NEON is part of the
//! aarch64 baseline (the compiler enables it for every aarch64 target), so there is no
//! run-time detection. Each search has the same scalar twin as its SSE2 counterpart, and
//! the module's property tests compare the two.
//!
//! NEON has no "move mask" instruction: a compare result (each byte all ones or all
//! zeros) is narrowed with a shift to four bits per byte ([`nibble_mask`]), so byte `i` of
//! a block is bits `4·i .. 4·i + 3` of a `u64`, and `trailing_zeros / 4` is its index.

use std::arch::aarch64::*;

use super::CLASS_TABLE;

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

/// The index of the first byte whose nibble is set in `mask` (not zero).
#[inline(always)]
fn first_index(mask: u64) -> usize {
    mask.trailing_zeros() as usize / 4
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

/// The bytes of `block` that are ≤ 0x20 or one of `punctuation`: a class's candidates,
/// as in `super::x86::sse2_class_candidates`.
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

/// The bytes of `block` that are one of `specials` (see `super::special`; non-ASCII bytes
/// aside), as in `super::x86::sse2_special_mask`.
#[inline(always)]
fn special_bytes(block: uint8x16_t, specials: u8) -> uint8x16_t {
    use super::special::*;
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

/// See `super::x86::find_bytes_first_block`.
#[inline(always)]
pub(crate) fn find_bytes_first_block(haystack: &[u8], needles: &[u8]) -> Option<usize> {
    if haystack.len() < 16 {
        return None;
    }
    // SAFETY: the haystack has at least 16 bytes (checked just above).
    let mask = nibble_mask(eq_any(unsafe { load16(haystack, 0) }, needles));
    (mask != 0).then(|| first_index(mask))
}

/// See `super::x86::find_class` (`haystack.len() >= 16` is not required here).
#[inline(always)]
pub(crate) fn find_class(haystack: &[u8], class: u8, punctuation: &[u8]) -> usize {
    let len = haystack.len();
    let mut at = 0;
    while at + 16 <= len {
        // SAFETY: the loop condition keeps the block inside the haystack.
        let mut mask = nibble_mask(class_candidates(
            unsafe { load16(haystack, at) },
            punctuation,
        ));
        while mask != 0 {
            let bit = mask.trailing_zeros();
            let i = at + bit as usize / 4;
            if CLASS_TABLE[haystack[i] as usize] & class != 0 {
                return i;
            }
            // A control character that only looked like whitespace: clear its nibble.
            mask &= !(0xF << bit);
        }
        at += 16;
    }
    at + super::scalar::find_class(&haystack[at..], class)
}

/// See `super::x86::find_class_ascii_first_block` (`haystack.len() >= 16`).
#[inline(always)]
pub(crate) fn find_class_ascii_first_block(haystack: &[u8], class: u8) -> Option<(usize, bool)> {
    debug_assert!(haystack.len() >= 16);
    // SAFETY: the caller passes at least 16 bytes.
    let block = unsafe { load16(haystack, 0) };
    let mut mask = nibble_mask(class_candidates(block, super::class_punctuation(class)));
    while mask != 0 {
        let bit = mask.trailing_zeros();
        let i = bit as usize / 4;
        if CLASS_TABLE[haystack[i] as usize] & class != 0 {
            // The bytes before `i` are the nibbles below bit 4·i (`bit` < 64).
            let before = (1u64 << bit) - 1;
            return Some((i, nibble_mask(not_ascii(block)) & before == 0));
        }
        mask &= !(0xF << bit);
    }
    None
}

/// See `super::scalar::plain_prefix`; the span is `input[start..end]`, read in the blocks
/// of `input` that cover it, as `super::x86::plain_prefix` does.
///
/// The caller guarantees `start <= end <= input.len()`.
#[inline(always)]
pub(crate) fn plain_prefix(input: &[u8], start: usize, end: usize, specials: u8) -> usize {
    debug_assert!(start <= end && end <= input.len());
    let len = end - start;
    let not_plain = |block| nibble_mask(special_or_not_ascii(block, specials));
    if len == 0 {
        return 0;
    }
    if len <= 16 && input.len() >= 16 {
        let at = start.min(input.len() - 16);
        // SAFETY: `at + 16 <= input.len()` by the `min` and the length check.
        let block = unsafe { load16(input, at) };
        // Nibbles of the bytes before the span shifted out (`start - at` < 16, as the span
        // is not empty and ends inside the block); nibbles past it masked off.
        let mask = not_plain(block) >> (4 * (start - at));
        let past_span = (!0u64).checked_shl(4 * len as u32).unwrap_or(0);
        return first_index(mask | past_span).min(len);
    }
    if len <= 16 {
        // A short input (under 16 bytes in all): no whole block to read.
        return super::scalar::plain_prefix(&input[start..end], specials);
    }
    let mut at = start;
    while at + 16 <= end {
        // SAFETY: `at + 16 <= end <= input.len()` (the caller's contract).
        let mask = not_plain(unsafe { load16(input, at) });
        if mask != 0 {
            return at - start + first_index(mask);
        }
        at += 16;
    }
    if at < end {
        // The block that ends at `end` (it starts inside the span, which is longer than 16
        // bytes), less the `at - last` < 16 bytes already checked.
        let last = end - 16;
        // SAFETY: `last + 16 = end <= input.len()`.
        let mask = not_plain(unsafe { load16(input, last) }) >> (4 * (at - last));
        if mask != 0 {
            return at - start + first_index(mask);
        }
    }
    len
}

/// The bytes of `block` that are one of `specials` or not ASCII: those that end a plain
/// prefix.
#[inline(always)]
fn special_or_not_ascii(block: uint8x16_t, specials: u8) -> uint8x16_t {
    // SAFETY: register-only NEON intrinsic, part of the aarch64 baseline.
    unsafe { vorrq_u8(special_bytes(block, specials), not_ascii(block)) }
}

/// See `super::scalar::find_special` (`bytes.len() >= 16`): 16-byte blocks, the last one
/// overlapping the one before it.
#[inline(always)]
pub(crate) fn find_special(bytes: &[u8], specials: u8) -> Option<usize> {
    let len = bytes.len();
    debug_assert!(len >= 16);
    let mut at = 0;
    loop {
        let from = at.min(len - 16);
        // SAFETY: `from + 16 <= len`, by the `min`.
        let block = unsafe { load16(bytes, from) };
        // `at - from` < 16: the bytes of the last block already checked are shifted out.
        let mask = nibble_mask(special_bytes(block, specials)) >> (4 * (at - from));
        if mask != 0 {
            return Some(at + first_index(mask));
        }
        at += 16;
        if at >= len {
            return None;
        }
    }
}
