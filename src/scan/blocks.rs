//! The 16-byte block searches, written once for every SIMD instruction set the crate has
//! (the role of memchr's `arch/generic` over its `Vector` trait).
//!
//! An instruction set provides [`Simd16`]: a 16-byte load and a few compares, each
//! returned as a mask with [`Simd16::STRIDE`] bits per byte (1 for SSE2's movemask, 4 for
//! NEON's narrowing shift), so byte `i` of a block is bits `STRIDE·i ..`. The searches
//! below (the first of a few bytes, a byte class, the plain-ASCII prefix of a span, the
//! first special byte) only shift and count those bits. `x86_64::Sse2` and
//! `aarch64::Neon` implement the trait; each search has a scalar twin in `scalar`, and
//! the property suite (`scan::tests`) is instantiated for each implementation.
//!
//! This file also holds the two `&str` conversions of the decoding fast path
//! ([`plain_ascii_span`], [`str_after_ascii_prefix`]), whose proofs are these searches'
//! answers: it is the one file of generic code allowed `unsafe` (see `scan`'s docs).

use super::classes::{CLASS_TABLE, class_punctuation};
use super::scalar;

/// A 16-byte SIMD instruction set, as the block searches use it.
///
/// # Safety
///
/// The contract, stated once for every implementation and every search here:
///
/// - **Bounds.** [`Simd16::load`] is the only method that touches memory: it reads the 16
///   bytes `bytes[at..at + 16]` and nothing else; its caller guarantees
///   `at + 16 <= bytes.len()` (every search below checks it, with a loop condition, an
///   assertion or a `min`).
/// - **Masks.** Every mask has bits only for the block's 16 bytes (bits
///   `0 .. 16·STRIDE`), and a marked byte has all of its `STRIDE` bits set. The searches
///   turn the first marked bit into a byte index inside the block and read that byte
///   without a bounds check, so a stray bit would read out of bounds: that is why the
///   trait is `unsafe` to implement.
/// - **Instructions.** The methods other than `load` are safe to call because an
///   implementation uses only its target's *baseline* instructions (SSE2 on x86_64, NEON
///   on aarch64), which every CPU of the target has: no run-time detection, no
///   `#[target_feature]`, and every method `#[inline(always)]` so that it melts into the
///   search. An instruction set that needs detection (AVX2) is not a `Simd16`; it comes
///   in only through [`Simd16::long_run`], which must check the CPU itself.
pub(crate) unsafe trait Simd16 {
    /// 16 bytes in a register.
    type Block: Copy;
    /// Bits per byte in a mask: 1 or 4 (a power of two, and every bit of a marked byte is
    /// set).
    const STRIDE: u32;

    /// Loads 16 bytes of `bytes` at `at`.
    ///
    /// # Safety
    /// `at + 16 <= bytes.len()`.
    unsafe fn load(bytes: &[u8], at: usize) -> Self::Block;
    /// The bytes equal to one of `needles`.
    fn eq_any(block: Self::Block, needles: &[u8]) -> u64;
    /// The bytes ≤ 0x20 or in `punctuation`: a byte class's candidates, which
    /// [`CLASS_TABLE`] confirms (it rules out control characters that are not whitespace).
    fn class_candidates(block: Self::Block, punctuation: &[u8]) -> u64;
    /// The bytes in `specials` (see `classes::special`), non-ASCII bytes aside.
    fn special(block: Self::Block, specials: u8) -> u64;
    /// The bytes 0x80 and above.
    fn not_ascii(block: Self::Block) -> u64;

    /// A wider search that takes over a long byte-class run from `at` (AVX2 on x86_64),
    /// if the instruction set family has one: the same answer as [`find_class`]. It
    /// checks that the CPU has the instructions it uses.
    #[inline(always)]
    fn long_run(haystack: &[u8], at: usize, class: u8, punctuation: &[u8]) -> Option<usize> {
        let _ = (haystack, at, class, punctuation);
        None
    }
}

/// The index of the first byte marked in `mask` (not zero).
#[inline(always)]
fn first<S: Simd16>(mask: u64) -> usize {
    (mask.trailing_zeros() / S::STRIDE) as usize
}

/// `mask` without its first marked byte.
#[inline(always)]
fn without_first<S: Simd16>(mask: u64) -> u64 {
    if S::STRIDE == 1 {
        return mask & (mask - 1);
    }
    let byte_bits = (1u64 << S::STRIDE) - 1;
    mask & !(byte_bits << (mask.trailing_zeros() & !(S::STRIDE - 1)))
}

/// `mask` with its first `bytes` bytes shifted out (`STRIDE·bytes` < 64).
#[inline(always)]
fn skip<S: Simd16>(mask: u64, bytes: usize) -> u64 {
    debug_assert!((S::STRIDE as usize) * bytes < 64);
    mask >> (S::STRIDE as usize * bytes)
}

/// The first of `needles` in the first 16 bytes of `haystack` (at least 16 bytes).
#[inline(always)]
pub(crate) fn first_in_block<S: Simd16>(haystack: &[u8], needles: &[u8]) -> Option<usize> {
    assert!(haystack.len() >= 16);
    // SAFETY: the haystack has at least 16 bytes (asserted just above).
    let mask = S::eq_any(unsafe { S::load(haystack, 0) }, needles);
    (mask != 0).then(|| first::<S>(mask))
}

/// The first byte of `class` (whose SIMD candidates are `punctuation` and every byte
/// ≤ 0x20) in `haystack`, or its length. With `long_runs`, from the third block on, a run
/// of 64 bytes or more goes to [`Simd16::long_run`].
#[inline(always)]
pub(crate) fn find_class<S: Simd16>(
    haystack: &[u8],
    class: u8,
    punctuation: &[u8],
    long_runs: bool,
) -> usize {
    let len = haystack.len();
    let mut at = 0;
    while at + 16 <= len {
        if long_runs
            && at >= 32
            && len - at >= 64
            && let Some(found) = S::long_run(haystack, at, class, punctuation)
        {
            return found;
        }
        // SAFETY: the loop condition keeps the block inside the haystack.
        let mut mask = S::class_candidates(unsafe { S::load(haystack, at) }, punctuation);
        while mask != 0 {
            let i = at + first::<S>(mask);
            // SAFETY: `i < at + 16 <= len`: a marked byte is a byte of the block.
            let byte = unsafe { *haystack.get_unchecked(i) };
            if CLASS_TABLE[byte as usize] & class != 0 {
                return i;
            }
            mask = without_first::<S>(mask); // a control character that looked like whitespace
        }
        at += 16;
    }
    at + scalar::find_class(&haystack[at..], class)
}

/// The first byte of `class` in the first 16 bytes of `haystack` (at least 16), if they
/// hold one: the candidate loop of [`find_class`] for its first block, which the two
/// searches below share. `answer` makes the search's answer from the loaded block, the
/// byte's index and the bits of the bytes before it; it runs inside the loop, at the hit
/// (as a value returned from the loop, the compiler turned the branches after it into
/// selects).
#[inline(always)]
fn first_class_in_block<S: Simd16, R>(
    haystack: &[u8],
    class: u8,
    answer: impl FnOnce(S::Block, usize, u64) -> R,
) -> Option<R> {
    assert!(haystack.len() >= 16);
    // SAFETY: the haystack has at least 16 bytes (asserted just above).
    let block = unsafe { S::load(haystack, 0) };
    let mut mask = S::class_candidates(block, class_punctuation(class));
    while mask != 0 {
        let i = first::<S>(mask);
        if CLASS_TABLE[haystack[i] as usize] & class != 0 {
            // The bytes before `i` are the bits below `STRIDE·i` (< 64).
            let before = (1u64 << (S::STRIDE as usize * i)) - 1;
            return Some(answer(block, i, before));
        }
        mask = without_first::<S>(mask); // a control character that looked like whitespace
    }
    None
}

/// [`find_class`], and whether the bytes before the one found are ASCII, when the first 16
/// bytes of `haystack` (at least 16) hold a byte of the class; None otherwise.
#[inline(always)]
pub(crate) fn find_class_ascii_first_block<S: Simd16>(
    haystack: &[u8],
    class: u8,
) -> Option<(usize, bool)> {
    first_class_in_block::<S, _>(haystack, class, |block, i, before| {
        (i, S::not_ascii(block) & before == 0)
    })
}

/// [`find_class_ascii_first_block`], and also the bytes before the one found as a `&str`
/// when they are ASCII without upper-case letters (see `scalar::find_class_ascii_lower`):
/// for the attribute name state under a sink that decodes every name, which then needs
/// no second pass over it. The same block answers all three; the letters cost one more
/// compare.
#[inline(always)]
pub(crate) fn find_class_ascii_lower_first_block<S: Simd16>(
    haystack: &[u8],
    class: u8,
) -> Option<(usize, bool, Option<&str>)> {
    first_class_in_block::<S, _>(haystack, class, |block, i, before| {
        let not_ascii = S::not_ascii(block) & before;
        if not_ascii | (S::special(block, super::special::UPPER) & before) != 0 {
            return (i, not_ascii == 0, None);
        }
        // SAFETY: every byte before `i` was just seen to be below 0x80 (`not_ascii` has no
        // bit for them), and ASCII is valid UTF-8.
        let lower = unsafe { std::str::from_utf8_unchecked(&haystack[..i]) };
        (i, true, Some(lower))
    })
}

/// See `scalar::plain_prefix`; the span is `input[start..end]`. Reads the 16-byte
/// blocks of `input` that cover the span: a span of up to 16 bytes is one block, taken at
/// `start` or, near the end of the input, ending at the input's end; a longer span ends
/// with the block that ends at `end`, overlapping the one before it.
///
/// The caller guarantees `start <= end <= input.len()`.
#[inline(always)]
pub(crate) fn plain_prefix<S: Simd16>(
    input: &[u8],
    start: usize,
    end: usize,
    specials: u8,
) -> usize {
    debug_assert!(start <= end && end <= input.len());
    let not_plain = |block| S::special(block, specials) | S::not_ascii(block);
    let len = end - start;
    if S::STRIDE > 1 && len == 0 {
        // An empty span at the input's end would shift a whole block of nibbles out.
        return 0;
    }
    if len <= 16 && input.len() >= 16 {
        let at = start.min(input.len() - 16);
        // SAFETY: `at + 16 <= input.len()` by the `min` and the length check.
        let block = unsafe { S::load(input, at) };
        // The bytes before the span shifted out (`start - at` ≤ 16, and < 16 unless the
        // span is empty); the bytes past it masked off.
        let mask = skip::<S>(not_plain(block), start - at);
        let past_bits = S::STRIDE as usize * len; // 64 only for NEON's full block
        let past_span = if past_bits < 64 {
            u64::MAX << past_bits
        } else {
            0
        };
        return first::<S>(mask | past_span).min(len);
    }
    if len <= 16 {
        // A short input (under 16 bytes in all): no whole block to read.
        return scalar::plain_prefix(&input[start..end], specials);
    }
    let mut at = start;
    while at + 16 <= end {
        // SAFETY: `at + 16 <= end <= input.len()` (the caller's contract).
        let mask = not_plain(unsafe { S::load(input, at) });
        if mask != 0 {
            return at - start + first::<S>(mask);
        }
        at += 16;
    }
    if at < end {
        // The block that ends at `end` starts inside the span (longer than 16 bytes); its
        // first `at - last` < 16 bytes were checked already.
        let last = end - 16;
        // SAFETY: `last + 16 = end <= input.len()`.
        let mask = skip::<S>(not_plain(unsafe { S::load(input, last) }), at - last);
        if mask != 0 {
            return at - start + first::<S>(mask);
        }
    }
    len
}

/// See `scalar::find_special` (`bytes.len() >= 16`): 16-byte blocks, the last one
/// overlapping the one before it.
#[inline(always)]
pub(crate) fn find_special<S: Simd16>(bytes: &[u8], specials: u8) -> Option<usize> {
    let len = bytes.len();
    assert!(len >= 16);
    let mut at = 0;
    loop {
        // Past the last whole block, the block that ends at `len`: its bytes before `at`
        // (fewer than 16) were checked already and are shifted out.
        let from = at.min(len - 16);
        // SAFETY: `from + 16 <= len`, by the `min`.
        let mask = skip::<S>(
            S::special(unsafe { S::load(bytes, from) }, specials),
            at - from,
        );
        if mask != 0 {
            return Some(at + first::<S>(mask));
        }
        at += 16;
        if at >= len {
            return None;
        }
    }
}

/// The decoding fast path for the span `start..end` of `input` (see
/// `scan::plain_ascii_span`): `Ok` with the span as a `&str` when [`plain_prefix`] covers
/// it, `Err` with the prefix otherwise.
#[inline(always)]
pub(crate) fn plain_ascii_span<S: Simd16>(
    input: &[u8],
    start: usize,
    end: usize,
    specials: u8,
) -> Result<&str, usize> {
    let bytes = &input[start..end];
    let prefix = plain_prefix::<S>(input, start, end, specials);
    if prefix == bytes.len() {
        // SAFETY: every byte of the span is below 0x80 (`plain_prefix` stops at the first
        // byte that is not, and it covers the whole span), and ASCII is valid UTF-8.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        Err(prefix)
    }
}

/// `bytes` as a `&str` when it is valid UTF-8. The caller passes the length of a prefix
/// it knows to be ASCII (as [`plain_ascii_span`] reports it): the SIMD validator then runs
/// only over the rest. The prefix is checked again with `<[u8]>::is_ascii` (word at a
/// time, a few instructions per 8 bytes), because this function is safe: a wrong
/// `ascii_prefix` must not make a `&str` of invalid UTF-8. Always inlined: with a second
/// caller (`decode::after_plain_prefix`) it was left out of line, and the tokenizer's
/// decoding loop paid the call (callgrind, 10-page subset `tokens`: +0.5%).
#[inline(always)]
pub(crate) fn str_after_ascii_prefix(bytes: &[u8], ascii_prefix: usize) -> Option<&str> {
    let ascii_prefix = ascii_prefix.min(bytes.len());
    if !bytes[..ascii_prefix].is_ascii() {
        return std::str::from_utf8(bytes).ok();
    }
    super::utf8_str(&bytes[ascii_prefix..])?;
    // SAFETY: the first `ascii_prefix` bytes are ASCII (just checked), so they end on a
    // character boundary, and the rest was just validated: the whole is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}
