//! The scanner: skips to the next byte that matters in a state. All of the crate's
//! `unsafe` code and all of its `std::arch` use live here.
//!
//! Two kinds of search:
//!
//! - **A few bytes** (`<` in text, a quote in an attribute value, `-` in a comment): the
//!   first 64 bytes are checked inline, 16 at a time, with SSE2 (part of the x86_64
//!   baseline) or NEON (part of the aarch64 baseline), which answers most searches in a
//!   handful of instructions; longer searches go to `memchr`, which uses AVX2 (or NEON)
//!   with its own runtime detection.
//! - **A byte class** (the bytes that end a tag name, an attribute name or an unquoted
//!   value): SIMD compares find *candidates* (every byte ≤ 0x20, plus the class's ASCII
//!   punctuation), and the 256-entry [`CLASS_TABLE`] confirms them, which rules out the
//!   control characters that are candidates but not whitespace. SSE2 or NEON inline for
//!   the first blocks; AVX2, when the CPU has it, for runs longer than 64 bytes.
//!
//! Every SIMD routine has a scalar twin (the `scalar` module), used on other targets and
//! when a tokenizer is built with [`Scanner::Scalar`], and a property test checks that the
//! two agree on arbitrary inputs and alignments. The CPU is detected at run time. The
//! 16-byte block searches are written once (`blocks`, `src/scan/blocks.rs`) over the
//! masks each instruction set provides: SSE2 in the `x86` module below (which also holds
//! the AVX2 code), NEON in `neon` (`src/scan/neon.rs`).

use std::sync::atomic::{AtomicU8, Ordering};

/// Byte classes for [`find_class`]. Each is a bit in [`CLASS_TABLE`].
pub(crate) mod class {
    /// Ends a tag name: whitespace (incl. CR), `/`, `>`, NUL.
    pub(crate) const TAG_NAME_END: u8 = 1 << 0;
    /// Ends an attribute name or needs a look: whitespace, `/`, `>`, `=`, NUL, `"`, `'`, `<`.
    pub(crate) const ATTR_NAME_END: u8 = 1 << 1;
    /// Ends an unquoted attribute value or needs a look: whitespace, `&`, `>`, NUL, `"`,
    /// `'`, `<`, `=`, `` ` ``.
    pub(crate) const UNQUOTED_VALUE_END: u8 = 1 << 2;
    /// Not whitespace: anything but tab, LF, FF, CR, space.
    pub(crate) const NOT_WHITESPACE: u8 = 1 << 3;
    /// Not an ASCII letter.
    pub(crate) const NOT_ALPHA: u8 = 1 << 4;
}

const fn build_class_table() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let ws = matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ');
        let mut flags = 0;
        if ws || matches!(b, b'/' | b'>' | 0) {
            flags |= class::TAG_NAME_END;
        }
        if ws || matches!(b, b'/' | b'>' | b'=' | 0 | b'"' | b'\'' | b'<') {
            flags |= class::ATTR_NAME_END;
        }
        if ws || matches!(b, b'&' | b'>' | 0 | b'"' | b'\'' | b'<' | b'=' | b'`') {
            flags |= class::UNQUOTED_VALUE_END;
        }
        if !ws {
            flags |= class::NOT_WHITESPACE;
        }
        if !b.is_ascii_alphabetic() {
            flags |= class::NOT_ALPHA;
        }
        table[i] = flags;
        i += 1;
    }
    table
}

/// One byte of class bits for every byte value.
pub(crate) static CLASS_TABLE: [u8; 256] = build_class_table();

/// The bytes above 0x20 that are in a class; with "every byte ≤ 0x20" they make the SIMD
/// candidate set of the class (a superset: the table then confirms).
fn class_punctuation(class: u8) -> &'static [u8] {
    match class {
        class::TAG_NAME_END => b"/>",
        class::ATTR_NAME_END => b"\"'/<=>",
        class::UNQUOTED_VALUE_END => b"\"&'<=>`",
        _ => b"",
    }
}

/// Which scanner implementation a tokenizer uses. Every one gives the same results; the
/// choice exists for tests, for comparisons, and for CPUs that lack a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scanner {
    /// Plain byte loops and table lookups: no SIMD at all (not even `memchr`).
    Scalar,
    /// SSE2 (the x86_64 baseline) plus `memchr`.
    Sse2,
    /// SSE2 for short runs, AVX2 for long ones, plus `memchr`.
    Avx2,
    /// NEON (the aarch64 baseline) plus `memchr`.
    Neon,
}

impl Scanner {
    /// The best scanner this CPU supports (detected at run time), or [`Scanner::Scalar`]
    /// when the environment variable `HTMLTOK_SCANNER` is `scalar`. The default.
    pub fn detect() -> Scanner {
        static DETECTED: AtomicU8 = AtomicU8::new(0);
        match DETECTED.load(Ordering::Relaxed) {
            1 => Scanner::Scalar,
            2 => Scanner::Sse2,
            3 => Scanner::Avx2,
            4 => Scanner::Neon,
            _ => {
                let forced = std::env::var_os("HTMLTOK_SCANNER").is_some_and(|v| v == "scalar");
                let scanner = if forced {
                    Scanner::Scalar
                } else {
                    Scanner::best()
                };
                let code = match scanner {
                    Scanner::Scalar => 1,
                    Scanner::Sse2 => 2,
                    Scanner::Avx2 => 3,
                    Scanner::Neon => 4,
                };
                DETECTED.store(code, Ordering::Relaxed);
                scanner
            }
        }
    }

    /// The best scanner this CPU supports.
    pub fn best() -> Scanner {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                Scanner::Avx2
            } else {
                Scanner::Sse2
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            Scanner::Neon
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Scanner::Scalar
        }
    }

    /// True when this CPU can run the scanner.
    pub fn is_supported(self) -> bool {
        match self {
            Scanner::Scalar => true,
            Scanner::Sse2 => cfg!(target_arch = "x86_64"),
            Scanner::Avx2 => Scanner::best() == Scanner::Avx2,
            Scanner::Neon => cfg!(target_arch = "aarch64"),
        }
    }

    /// The index of the first byte of `haystack` in class `class`, or `haystack.len()`.
    #[inline(always)]
    pub(crate) fn find_class(self, haystack: &[u8], class: u8) -> usize {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self != Scanner::Scalar && haystack.len() >= 16 && !class_punctuation(class).is_empty() {
            let punctuation = class_punctuation(class);
            let long_runs = self == Scanner::Avx2;
            return blocks::find_class::<Simd>(haystack, class, punctuation, long_runs);
        }
        scalar::find_class(haystack, class)
    }

    /// [`Self::find_class`], and whether every byte before the one it finds is ASCII: the
    /// attribute name state learns whether a name is plain from the block it scans anyway.
    #[inline(always)]
    pub(crate) fn find_class_ascii(self, haystack: &[u8], class: u8) -> (usize, bool) {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self != Scanner::Scalar && haystack.len() >= 16 && !class_punctuation(class).is_empty() {
            if let Some(found) = blocks::find_class_ascii_first_block::<Simd>(haystack, class) {
                return found;
            }
            let end = self.find_class(haystack, class);
            return (
                end,
                blocks::plain_prefix::<Simd>(haystack, 0, end, 0) == end,
            );
        }
        scalar::find_class_ascii(haystack, class)
    }

    /// The index of the first `needle`, or `haystack.len()`.
    #[inline(always)]
    pub(crate) fn find_byte(self, haystack: &[u8], needle: u8) -> usize {
        self.find_bytes(haystack, &[needle])
    }

    /// The index of the first `a` or `b`, or `haystack.len()`.
    #[inline(always)]
    pub(crate) fn find_byte2(self, haystack: &[u8], a: u8, b: u8) -> usize {
        self.find_bytes(haystack, &[a, b])
    }

    /// The index of the first `a`, `b` or `c`, or `haystack.len()`.
    #[inline(always)]
    pub(crate) fn find_byte3(self, haystack: &[u8], a: u8, b: u8, c: u8) -> usize {
        self.find_bytes(haystack, &[a, b, c])
    }

    /// The index of the first byte that may begin an input-stream parse error (13.2.3.5),
    /// or `haystack.len()`: a control character other than ASCII whitespace and NUL, or a
    /// lead byte of a C1 control (`C2`), of a noncharacter in the BMP (`EF`) or of a
    /// supplementary-plane noncharacter (`F0`–`F4`). Lead bytes are never continuation
    /// bytes, so a candidate is always the start of a character (or of an invalid
    /// sequence) and skipping the bytes between candidates loses nothing.
    #[inline]
    pub(crate) fn find_stream_error_candidate(self, haystack: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        match self {
            Scanner::Avx2 if haystack.len() >= 64 => {
                assert!(std::arch::is_x86_feature_detected!("avx2"));
                // SAFETY: the CPU has AVX2: checked by the assertion (a cached load).
                return unsafe { x86::find_stream_error_candidate_avx2(haystack) };
            }
            Scanner::Avx2 | Scanner::Sse2 => return x86::find_stream_error_candidate(haystack),
            // NEON has no twin of this search yet: the scalar one serves (errors on only).
            Scanner::Neon | Scanner::Scalar => {}
        }
        scalar::find_stream_error_candidate(haystack)
    }

    #[inline(always)]
    fn find_bytes(self, haystack: &[u8], needles: &[u8]) -> usize {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self != Scanner::Scalar && haystack.len() >= 16 {
            // Most searches end within 64 bytes: answer those inline, 16 bytes at a time,
            // and leave longer ones to `memchr`, whose call and set-up would cost more
            // than a short search.
            let mut at = 0;
            while at < 64 && at + 16 <= haystack.len() {
                if let Some(i) = blocks::first_in_block::<Simd>(&haystack[at..], needles) {
                    return at + i;
                }
                at += 16;
            }
            let rest = &haystack[at..];
            let found = match *needles {
                [a] => memchr::memchr(a, rest),
                [a, b] => memchr::memchr2(a, b, rest),
                [a, b, c] => memchr::memchr3(a, b, c, rest),
                _ => unreachable!("at most three needles"),
            };
            return found.map_or(haystack.len(), |i| at + i);
        }
        scalar::find_bytes(haystack, needles)
    }
}

/// Bytes that decoding must look at, as a bit set for [`plain_ascii_span`].
pub(crate) mod special {
    /// `&`: a character reference may start.
    pub(crate) const AMP: u8 = 1 << 0;
    /// CR: newline normalisation.
    pub(crate) const CR: u8 = 1 << 1;
    /// NUL: replaced by U+FFFD.
    pub(crate) const NUL: u8 = 1 << 2;
    /// `A`–`Z`: lowercased.
    pub(crate) const UPPER: u8 = 1 << 3;
    /// A byte of 0x80 or above (never plain ASCII).
    pub(crate) const NOT_ASCII: u8 = 1 << 4;
}

const fn build_special_table() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = match b {
            b'&' => special::AMP,
            b'\r' => special::CR,
            0 => special::NUL,
            b'A'..=b'Z' => special::UPPER,
            0x80..=0xFF => special::NOT_ASCII,
            _ => 0,
        };
        i += 1;
    }
    table
}

/// The [`special`] bit of every byte value.
static SPECIAL_TABLE: [u8; 256] = build_special_table();

/// The decoding fast path for the span `start..end` of `input`: `Ok` with the span as a
/// `&str` when all its bytes are ASCII and none is in `specials` (a set of [`special`]
/// bits), so that decoding changes nothing and needs no UTF-8 validation beyond this one
/// pass; otherwise `Err` with the length of the span's prefix that is (the bytes decoding
/// can copy as they are).
///
/// The SIMD form reads whole 16-byte blocks of `input` that cover the span (never outside
/// `input`), so a short span, such as a name or a short attribute value, costs one block
/// and no byte loop.
///
/// On x86_64 this always takes the SSE2 form (SSE2 is part of the target's baseline):
/// decoding happens outside any tokenizer, so there is no [`Scanner`] choice to honour.
#[inline(always)]
pub(crate) fn plain_ascii_span(
    input: &[u8],
    start: usize,
    end: usize,
    specials: u8,
) -> Result<&str, usize> {
    let bytes = &input[start..end];
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    let prefix = blocks::plain_prefix::<Simd>(input, start, end, specials);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let prefix = scalar::plain_prefix(bytes, specials);
    if prefix == bytes.len() {
        // SAFETY: every byte of the span is below 0x80 (`plain_prefix` covers the whole
        // span), and ASCII is valid UTF-8.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        Err(prefix)
    }
}

/// The offset of the first byte of `bytes` that is one of `specials` (non-ASCII bytes are
/// never special), or None. SSE2 or NEON blocks for 16 to 64 bytes, where a call to
/// `memchr` would cost more than the search, and for names (whose set has A–Z);
/// `memchr` for longer runs of at most three bytes.
#[inline(always)]
pub(crate) fn find_special(bytes: &[u8], specials: u8) -> Option<usize> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    if bytes.len() >= 16 && (bytes.len() <= 64 || specials & special::UPPER != 0) {
        return blocks::find_special::<Simd>(bytes, specials);
    }
    if bytes.len() > 64 {
        use special::*;
        // The sets of the decoding contexts (see `decode::Context::specials`), as constants:
        // in a pattern, `AMP | CR` would mean "AMP or CR".
        const AMP_CR: u8 = AMP | CR;
        const AMP_CR_NUL: u8 = AMP | CR | NUL;
        const CR_NUL: u8 = CR | NUL;
        match specials {
            AMP_CR => return memchr::memchr2(b'&', b'\r', bytes),
            AMP_CR_NUL => return memchr::memchr3(b'&', b'\r', 0, bytes),
            CR_NUL => return memchr::memchr2(b'\r', 0, bytes),
            CR => return memchr::memchr(b'\r', bytes),
            _ => {}
        }
    }
    scalar::find_special(bytes, specials)
}

/// `bytes` as a `&str` when `bytes[ascii_prefix..]` is valid UTF-8, the caller having
/// checked that the first `ascii_prefix` bytes are ASCII (as [`plain_ascii_span`] reports
/// them): the prefix is not validated again.
#[inline]
pub(crate) fn str_after_ascii_prefix(bytes: &[u8], ascii_prefix: usize) -> Option<&str> {
    debug_assert!(bytes[..ascii_prefix].is_ascii());
    utf8_str(&bytes[ascii_prefix..])?;
    // SAFETY: the first `ascii_prefix` bytes are ASCII (the caller's contract, asserted in
    // debug builds) and end on a character boundary, and the rest was just validated: the
    // whole is valid UTF-8.
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// `bytes` as a `&str` when they are valid UTF-8. The AVX2 validator (32 bytes per step)
/// for inputs of 64 bytes or more when the CPU has AVX2 and the scanner is not forced to
/// scalar; `std::str::from_utf8`, its scalar twin, otherwise.
#[inline]
pub(crate) fn utf8_str(bytes: &[u8]) -> Option<&str> {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 64 && Scanner::detect() == Scanner::Avx2 {
        // SAFETY: `Scanner::detect` returns `Avx2` only when the CPU has AVX2.
        if unsafe { x86::is_utf8_avx2(bytes) } {
            // SAFETY: the validator just accepted the bytes as UTF-8 (it agrees with
            // `std::str::from_utf8`: see the property test in this module).
            return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// The scalar twins: the reference the SIMD routines are tested against, and the path on
/// targets without them.
pub(crate) mod scalar {
    use super::CLASS_TABLE;

    /// The index of the first byte in `class`, or `haystack.len()`.
    pub(crate) fn find_class(haystack: &[u8], class: u8) -> usize {
        haystack
            .iter()
            .position(|&b| CLASS_TABLE[b as usize] & class != 0)
            .unwrap_or(haystack.len())
    }

    /// Scalar twin of [`super::find_special`].
    pub(crate) fn find_special(bytes: &[u8], specials: u8) -> Option<usize> {
        let specials = specials & !super::special::NOT_ASCII;
        bytes
            .iter()
            .position(|&b| super::SPECIAL_TABLE[b as usize] & specials != 0)
    }

    /// Scalar twin of [`super::Scanner::find_class_ascii`].
    pub(crate) fn find_class_ascii(haystack: &[u8], class: u8) -> (usize, bool) {
        let end = find_class(haystack, class);
        (end, haystack[..end].is_ascii())
    }

    /// The index of the first byte that is one of `needles`, or `haystack.len()`.
    pub(crate) fn find_bytes(haystack: &[u8], needles: &[u8]) -> usize {
        haystack
            .iter()
            .position(|b| needles.contains(b))
            .unwrap_or(haystack.len())
    }

    /// True when `b` may begin an input-stream parse error (see
    /// [`super::Scanner::find_stream_error_candidate`]).
    #[inline]
    pub(crate) fn is_stream_error_candidate(b: u8) -> bool {
        matches!(b, 0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F | 0xC2 | 0xEF | 0xF0..=0xFF)
    }

    /// The length of the prefix of `bytes` that is ASCII with no byte in `specials`.
    pub(crate) fn plain_prefix(bytes: &[u8], specials: u8) -> usize {
        let stop = specials | super::special::NOT_ASCII;
        bytes
            .iter()
            .position(|&b| super::SPECIAL_TABLE[b as usize] & stop != 0)
            .unwrap_or(bytes.len())
    }

    /// Scalar twin of the stream error candidate search.
    pub(crate) fn find_stream_error_candidate(haystack: &[u8]) -> usize {
        haystack
            .iter()
            .position(|&b| is_stream_error_candidate(b))
            .unwrap_or(haystack.len())
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod blocks;

#[cfg(target_arch = "aarch64")]
mod neon;

/// This target's 16-byte SIMD for the block searches.
#[cfg(target_arch = "x86_64")]
type Simd = x86::Sse2;
#[cfg(target_arch = "aarch64")]
type Simd = neon::Neon;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::CLASS_TABLE;

    /// Bit `i` set when byte `i` of `block` is one of `needles`.
    #[inline(always)]
    fn sse2_eq_mask(block: __m128i, needles: &[u8]) -> u32 {
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
    fn sse2_class_candidates(block: __m128i, punctuation: &[u8]) -> u32 {
        // Unsigned b ≤ 0x20 ⇔ min(b, 0x20) == b.
        // SAFETY: register-only SSE2 intrinsics, part of the x86_64 baseline.
        let low = unsafe {
            let low = _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x20)), block);
            _mm_movemask_epi8(low) as u32
        };
        low | sse2_eq_mask(block, punctuation)
    }

    /// Loads 16 bytes of `haystack` at `at`.
    ///
    /// # Safety
    /// `at + 16 <= haystack.len()`.
    #[inline(always)]
    unsafe fn load16(haystack: &[u8], at: usize) -> __m128i {
        debug_assert!(at + 16 <= haystack.len());
        // SAFETY: the caller keeps the 16-byte unaligned read inside `haystack`;
        // `_mm_loadu_si128` has no alignment requirement, and SSE2 is part of the
        // x86_64 baseline, so the instruction is always available.
        unsafe { _mm_loadu_si128(haystack.as_ptr().add(at).cast()) }
    }

    /// SSE2 (the x86_64 baseline) for the block searches of `super::blocks`: masks from
    /// `_mm_movemask_epi8`, one bit per byte.
    pub(crate) struct Sse2;

    impl super::blocks::Simd16 for Sse2 {
        type Block = __m128i;
        const STRIDE: u32 = 1;

        #[inline(always)]
        unsafe fn load(bytes: &[u8], at: usize) -> __m128i {
            // SAFETY: the caller's contract is `load16`'s.
            unsafe { load16(bytes, at) }
        }

        #[inline(always)]
        fn eq_any(block: __m128i, needles: &[u8]) -> u64 {
            sse2_eq_mask(block, needles).into()
        }

        #[inline(always)]
        fn class_candidates(block: __m128i, punctuation: &[u8]) -> u64 {
            sse2_class_candidates(block, punctuation).into()
        }

        #[inline(always)]
        fn special(block: __m128i, specials: u8) -> u64 {
            sse2_special_mask(block, specials).into()
        }

        #[inline(always)]
        fn not_ascii(block: __m128i) -> u64 {
            // SAFETY: register-only SSE2 intrinsic; the high bit of each byte is its own
            // "not ASCII" flag.
            (unsafe { _mm_movemask_epi8(block) } as u32).into()
        }

        #[inline(always)]
        fn long_run(haystack: &[u8], at: usize, class: u8, punctuation: &[u8]) -> Option<usize> {
            Some(long_run_avx2(haystack, at, class, punctuation))
        }
    }

    /// Bit `i` set when byte `i` of `block` may begin an input-stream error.
    #[inline(always)]
    fn sse2_stream_error_candidates(block: __m128i) -> u32 {
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

    /// Bit `i` set when byte `i` of `block` is one of `specials` (non-ASCII bytes aside).
    #[inline(always)]
    fn sse2_special_mask(block: __m128i, specials: u8) -> u32 {
        use super::special::*;
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

    /// UTF-8 validation, 32 bytes per step, with the "lookup" algorithm of Keiser and
    /// Lemire ("Validating UTF-8 in less than one instruction per byte", 2021): three
    /// 16-entry table lookups, indexed by the nibbles of each byte and of the byte before
    /// it, flag every invalid two-byte pattern (a lead without its continuation, a stray
    /// continuation, overlong forms, surrogates, code points above U+10FFFF); a second
    /// test checks that the third and fourth bytes of three- and four-byte sequences are
    /// continuations, and the end of the input must not cut a sequence short. The
    /// scalar twin is `std::str::from_utf8(bytes).is_ok()`.
    #[target_feature(enable = "avx2")]
    pub(crate) fn is_utf8_avx2(bytes: &[u8]) -> bool {
        let len = bytes.len();
        let mut previous = _mm256_setzero_si256();
        let mut error = _mm256_setzero_si256();
        // Set when the previous block ended inside a multi-byte sequence.
        let mut incomplete = _mm256_setzero_si256();
        let mut at = 0;
        while at + 32 <= len {
            // SAFETY: the loop condition keeps the 32-byte unaligned read inside `bytes`;
            // AVX2 is enabled for this function and its callers check the CPU has it.
            let block = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(at).cast()) };
            if _mm256_movemask_epi8(block) == 0 {
                // All ASCII: valid, unless the previous block left a sequence open.
                error = _mm256_or_si256(error, incomplete);
            } else {
                error = _mm256_or_si256(error, utf8_block_errors(block, previous));
                incomplete = utf8_ends_incomplete(block);
            }
            previous = block;
            at += 32;
        }
        if at < len {
            // The tail, padded with NULs (ASCII): a sequence cut short by the end of the
            // input then fails as one followed by ASCII does.
            let mut padded = [0u8; 32];
            padded[..len - at].copy_from_slice(&bytes[at..]);
            // SAFETY: a 32-byte unaligned read of a 32-byte local array.
            let block = unsafe { _mm256_loadu_si256(padded.as_ptr().cast()) };
            error = _mm256_or_si256(error, utf8_block_errors(block, previous));
            incomplete = _mm256_setzero_si256();
        }
        error = _mm256_or_si256(error, incomplete);
        _mm256_testz_si256(error, error) == 1
    }

    /// The 32 bytes before each byte of `block`, shifted by `N` (1 to 3): byte `i` of the
    /// result is the byte `N` places before byte `i` of `block`, taken from `previous`
    /// for the first `N`.
    #[target_feature(enable = "avx2")]
    fn shifted<const N: i32>(block: __m256i, previous: __m256i) -> __m256i {
        // The upper lane of `previous` and the lower lane of `block`, side by side, so
        // that the per-lane `alignr` can take bytes across the lane boundary.
        let across = _mm256_permute2x128_si256::<0x21>(previous, block);
        match N {
            1 => _mm256_alignr_epi8::<15>(block, across),
            2 => _mm256_alignr_epi8::<14>(block, across),
            _ => _mm256_alignr_epi8::<13>(block, across),
        }
    }

    /// Non-zero bytes where `block` (preceded by `previous`) is not valid UTF-8.
    #[target_feature(enable = "avx2")]
    fn utf8_block_errors(block: __m256i, previous: __m256i) -> __m256i {
        // The error classes of the two-byte patterns, one bit each.
        const TOO_SHORT: u8 = 1 << 0; // a lead or ASCII, then a lead or ASCII, after a lead
        const TOO_LONG: u8 = 1 << 1; // ASCII, then a continuation
        const OVERLONG_3: u8 = 1 << 2; // E0 80..9F
        const TOO_LARGE: u8 = 1 << 3; // F4 90..BF, F5..FF
        const SURROGATE: u8 = 1 << 4; // ED A0..BF
        const OVERLONG_2: u8 = 1 << 5; // C0, C1
        const TOO_LARGE_1000: u8 = 1 << 6; // F5..FF 80..8F
        const OVERLONG_4: u8 = 1 << 6; // F0 80..8F
        const TWO_CONTS: u8 = 1 << 7; // a continuation after a continuation
        const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
        let table = |t: [u8; 16]| {
            let mut both = [0u8; 32];
            both[..16].copy_from_slice(&t);
            both[16..].copy_from_slice(&t);
            // SAFETY: a 32-byte unaligned read of a 32-byte local array.
            unsafe { _mm256_loadu_si256(both.as_ptr().cast()) }
        };
        let byte_1_high = table([
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TWO_CONTS,
            TWO_CONTS,
            TWO_CONTS,
            TWO_CONTS,
            TOO_SHORT | OVERLONG_2,
            TOO_SHORT,
            TOO_SHORT | OVERLONG_3 | SURROGATE,
            TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
        ]);
        let large = CARRY | TOO_LARGE | TOO_LARGE_1000;
        let byte_1_low = table([
            CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
            CARRY | OVERLONG_2,
            CARRY,
            CARRY,
            CARRY | TOO_LARGE,
            large,
            large,
            large,
            large,
            large,
            large,
            large,
            large,
            large | SURROGATE,
            large,
            large,
        ]);
        let conts = TOO_LONG | OVERLONG_2 | TWO_CONTS;
        let byte_2_high = table([
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            conts | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
            conts | OVERLONG_3 | TOO_LARGE,
            conts | SURROGATE | TOO_LARGE,
            conts | SURROGATE | TOO_LARGE,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
        ]);
        let low_nibbles = _mm256_set1_epi8(0x0F);
        let high = |v: __m256i| _mm256_and_si256(_mm256_srli_epi16::<4>(v), low_nibbles);
        let prev1 = shifted::<1>(block, previous);
        let special_cases = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(byte_1_high, high(prev1)),
                _mm256_shuffle_epi8(byte_1_low, _mm256_and_si256(prev1, low_nibbles)),
            ),
            _mm256_shuffle_epi8(byte_2_high, high(block)),
        );
        // Two and three places after a three- or four-byte lead, a continuation must
        // come: such a place has bit 7 set here, and `special_cases` has TWO_CONTS
        // (bit 7) exactly where a continuation follows a continuation.
        let prev2 = shifted::<2>(block, previous);
        let prev3 = shifted::<3>(block, previous);
        let third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((0xE0u8 - 0x80) as i8));
        let fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((0xF0u8 - 0x80) as i8));
        let must_be_continuation = _mm256_and_si256(
            _mm256_or_si256(third, fourth),
            _mm256_set1_epi8(0x80u8 as i8),
        );
        _mm256_xor_si256(must_be_continuation, special_cases)
    }

    /// Non-zero when `block` ends inside a multi-byte sequence: a lead byte among its
    /// last three bytes whose sequence would run past the block.
    #[target_feature(enable = "avx2")]
    fn utf8_ends_incomplete(block: __m256i) -> __m256i {
        let mut max = [0xFFu8; 32];
        max[29] = 0xF0 - 1;
        max[30] = 0xE0 - 1;
        max[31] = 0xC0 - 1;
        // SAFETY: a 32-byte unaligned read of a 32-byte local array.
        let max = unsafe { _mm256_loadu_si256(max.as_ptr().cast()) };
        _mm256_subs_epu8(block, max)
    }

    /// The AVX2 form of [`find_stream_error_candidate`]: 32 bytes per step.
    #[target_feature(enable = "avx2")]
    pub(crate) fn find_stream_error_candidate_avx2(haystack: &[u8]) -> usize {
        let len = haystack.len();
        let mut at = 0;
        let eq = |block: __m256i, b: u8| _mm256_cmpeq_epi8(block, _mm256_set1_epi8(b as i8));
        while at + 32 <= len {
            // SAFETY: the loop condition keeps the 32-byte unaligned read inside
            // `haystack`; AVX2 is enabled for this function and its callers check the CPU.
            let block = unsafe { _mm256_loadu_si256(haystack.as_ptr().add(at).cast()) };
            let control = _mm256_cmpeq_epi8(_mm256_min_epu8(block, _mm256_set1_epi8(0x1F)), block);
            let allowed = _mm256_or_si256(
                _mm256_or_si256(eq(block, 0), eq(block, b'\t')),
                _mm256_or_si256(
                    _mm256_or_si256(eq(block, b'\n'), eq(block, 0x0C)),
                    eq(block, b'\r'),
                ),
            );
            let high = _mm256_cmpeq_epi8(
                _mm256_max_epu8(block, _mm256_set1_epi8(0xF0u8 as i8)),
                block,
            );
            let hits = _mm256_or_si256(
                _mm256_andnot_si256(allowed, control),
                _mm256_or_si256(
                    _mm256_or_si256(eq(block, 0x7F), eq(block, 0xC2)),
                    _mm256_or_si256(eq(block, 0xEF), high),
                ),
            );
            let mask = _mm256_movemask_epi8(hits) as u32;
            if mask != 0 {
                return at + mask.trailing_zeros() as usize;
            }
            at += 32;
        }
        at + find_stream_error_candidate(&haystack[at..])
    }

    /// See [`super::Scanner::find_stream_error_candidate`].
    #[inline]
    pub(crate) fn find_stream_error_candidate(haystack: &[u8]) -> usize {
        let len = haystack.len();
        let mut at = 0;
        while at + 16 <= len {
            // SAFETY: the loop condition keeps the block inside the haystack.
            let mask = sse2_stream_error_candidates(unsafe { load16(haystack, at) });
            if mask != 0 {
                return at + mask.trailing_zeros() as usize;
            }
            at += 16;
        }
        at + super::scalar::find_stream_error_candidate(&haystack[at..])
    }

    /// The long-run search of `super::blocks::find_class` for `Scanner::Avx2`.
    #[inline(never)]
    fn long_run_avx2(haystack: &[u8], at: usize, class: u8, punctuation: &[u8]) -> usize {
        assert!(std::arch::is_x86_feature_detected!("avx2"));
        // SAFETY: the CPU has AVX2: checked by the assertion (a cached load); it is only
        // handed to the search for `Scanner::Avx2`, which `Builder::scanner` accepts only
        // when `Scanner::is_supported`.
        unsafe { find_class_avx2(haystack, at, class, punctuation) }
    }

    /// The AVX2 loop of `super::blocks::find_class`: 32 bytes per step from `at`.
    #[target_feature(enable = "avx2")]
    pub(crate) fn find_class_avx2(
        haystack: &[u8],
        mut at: usize,
        class: u8,
        punctuation: &[u8],
    ) -> usize {
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
        at + super::scalar::find_class(&haystack[at..], class)
    }
}

#[cfg(test)]
mod tests {
    use quickcheck::{QuickCheck, TestResult};

    use super::*;

    const CLASSES: [u8; 5] = [
        class::TAG_NAME_END,
        class::ATTR_NAME_END,
        class::UNQUOTED_VALUE_END,
        class::NOT_WHITESPACE,
        class::NOT_ALPHA,
    ];

    #[test]
    fn classes_match_the_spec_byte_sets() {
        for (s, label) in [
            (scalar::find_class as fn(&[u8], u8) -> usize, "scalar"),
            (|h: &[u8], c: u8| Scanner::best().find_class(h, c), "best"),
        ] {
            assert_eq!(s(b"div class", class::TAG_NAME_END), 3, "{label}");
            assert_eq!(s(b"div\r", class::TAG_NAME_END), 3);
            assert_eq!(s(b"a<b", class::TAG_NAME_END), 3);
            assert_eq!(s(b"data-x=1", class::ATTR_NAME_END), 6);
            assert_eq!(s(b"abc`", class::UNQUOTED_VALUE_END), 3);
            assert_eq!(s(b" \t\r\nx", class::NOT_WHITESPACE), 4);
            assert_eq!(s(b"scRipt>", class::NOT_ALPHA), 6);
            assert_eq!(s(b"", class::NOT_ALPHA), 0);
        }
    }

    /// Bytes biased towards the interesting ones, so hits happen at every position.
    fn interesting(bytes: Vec<u8>) -> Vec<u8> {
        const PICK: &[u8] =
            b"\0\t\n\x0B\x0C\r \x01\x1F\"&'/<=>`-]aZ@[A\x7F\x80\xC2\xEF\xF0\xF4\xFF";
        bytes
            .into_iter()
            .map(|b| {
                if b % 3 == 0 {
                    PICK[b as usize % PICK.len()]
                } else {
                    b'a' + b % 26
                }
            })
            .collect()
    }

    fn simd_agrees_with_scalar(data: Vec<u8>, offset: u8, bias: bool) -> TestResult {
        let data = if bias { interesting(data) } else { data };
        let start = (offset as usize).min(data.len());
        let hay = &data[start..];
        for class in CLASSES {
            let want = scalar::find_class(hay, class);
            if Scanner::best().find_class(hay, class) != want {
                return TestResult::error(format!("find_class {class:#x} on {hay:?}"));
            }
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            if !class_punctuation(class).is_empty() {
                let p = class_punctuation(class);
                if blocks::find_class::<Simd>(hay, class, p, false) != want {
                    return TestResult::error(format!("simd find_class {class:#x} on {hay:?}"));
                }
                #[cfg(target_arch = "x86_64")]
                if hay.len() >= 16 && Scanner::best() == Scanner::Avx2 {
                    // SAFETY: the CPU has AVX2 (checked just above).
                    let got = unsafe { x86::find_class_avx2(hay, 0, class, p) };
                    if got != want {
                        return TestResult::error(format!("avx2 find_class {class:#x} on {hay:?}"));
                    }
                }
            }
        }
        for class in [
            class::TAG_NAME_END,
            class::ATTR_NAME_END,
            class::UNQUOTED_VALUE_END,
        ] {
            let want = scalar::find_class_ascii(hay, class);
            if Scanner::best().find_class_ascii(hay, class) != want {
                return TestResult::error(format!("find_class_ascii {class:#x} on {hay:?}"));
            }
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            if hay.len() >= 16 {
                // The first block answers exactly when the class has a byte in it.
                let got = blocks::find_class_ascii_first_block::<Simd>(hay, class);
                if got.is_some_and(|g| g != want) || (got.is_none() && want.0 < 16) {
                    return TestResult::error(format!(
                        "simd find_class_ascii {class:#x} on {hay:?}"
                    ));
                }
                let p = class_punctuation(class);
                let needles = &p[..p.len().min(3)];
                let want = scalar::find_bytes(&hay[..16], needles);
                let got = blocks::first_in_block::<Simd>(hay, needles).unwrap_or(16);
                if got != want {
                    return TestResult::error(format!("simd find_bytes {needles:?} on {hay:?}"));
                }
            }
        }
        for specials in 0..16 {
            if find_special(hay, specials) != scalar::find_special(hay, specials) {
                return TestResult::error(format!("best find_special {specials} on {hay:?}"));
            }
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            {
                if hay.len() >= 16
                    && blocks::find_special::<Simd>(hay, specials)
                        != scalar::find_special(hay, specials)
                {
                    return TestResult::error(format!("find_special {specials} on {hay:?}"));
                }
                // Spans at both ends of the input and around the middle, short and long.
                let n = data.len();
                for (a, b) in [(start, n), (start, (start + 7).min(n)), (n / 3, n / 2)] {
                    let (a, b) = (a.min(b), b);
                    let want = scalar::plain_prefix(&data[a..b], specials);
                    if blocks::plain_prefix::<Simd>(&data, a, b, specials) != want {
                        return TestResult::error(format!(
                            "plain_prefix {specials} {a}..{b} on {data:?}"
                        ));
                    }
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            let want = scalar::find_stream_error_candidate(hay);
            if x86::find_stream_error_candidate(hay) != want {
                return TestResult::error(format!("stream error candidates on {hay:?}"));
            }
            if Scanner::best() == Scanner::Avx2 {
                // SAFETY: the CPU has AVX2 (checked just above).
                let got = unsafe { x86::find_stream_error_candidate_avx2(hay) };
                if got != want {
                    return TestResult::error(format!("avx2 stream candidates on {hay:?}"));
                }
            }
        }
        if utf8_mismatch(hay) {
            return TestResult::error(format!("utf8 on {hay:?}"));
        }
        for needles in [&b"<"[..], b"\"&", b"-<\0", b"'", b">\0"] {
            let want = scalar::find_bytes(hay, needles);
            if Scanner::best().find_bytes(hay, needles) != want {
                return TestResult::error(format!("find_bytes {needles:?} on {hay:?}"));
            }
        }
        TestResult::passed()
    }

    /// True when the AVX2 UTF-8 validator and `std::str::from_utf8` disagree on `bytes`
    /// (never, without AVX2).
    fn utf8_mismatch(bytes: &[u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if Scanner::best() == Scanner::Avx2 {
            // SAFETY: the CPU has AVX2 (checked just above).
            let got = unsafe { x86::is_utf8_avx2(bytes) };
            return got != std::str::from_utf8(bytes).is_ok();
        }
        let _ = bytes;
        false
    }

    /// Text made of valid characters of every length, with some bytes broken, so that
    /// both valid and invalid inputs of every shape occur.
    fn utf8_agrees_on_mostly_valid_text(chars: Vec<char>, breaks: Vec<(u16, u8)>) -> TestResult {
        let mut bytes = String::from_iter(chars).into_bytes();
        // The same text again after an ASCII run, so that sequences cross 32-byte
        // boundaries at other offsets.
        let copy = bytes.clone();
        bytes.extend_from_slice(&[b'a'; 37]);
        bytes.extend_from_slice(&copy);
        if utf8_mismatch(&bytes) {
            return TestResult::error(format!("utf8 on {bytes:?}"));
        }
        for (at, byte) in breaks {
            if bytes.is_empty() {
                break;
            }
            let i = at as usize % bytes.len();
            bytes[i] = byte;
            if utf8_mismatch(&bytes) || utf8_mismatch(&bytes[..i]) {
                return TestResult::error(format!("utf8 on {bytes:?} (cut at {i})"));
            }
        }
        TestResult::passed()
    }

    #[test]
    fn avx2_utf8_validation_agrees_with_std() {
        QuickCheck::new().tests(3000).max_tests(3000).quickcheck(
            utf8_agrees_on_mostly_valid_text as fn(Vec<char>, Vec<(u16, u8)>) -> TestResult,
        );
    }

    #[test]
    fn utf8_str_on_known_cases() {
        let long = |s: &[u8]| [&[b'a'; 70][..], s, &[b'b'; 5][..]].concat();
        for valid in ["é", "€", "😀", "\u{10FFFF}", "\u{D7FF}", "\u{E000}"] {
            assert!(utf8_str(&long(valid.as_bytes())).is_some(), "{valid:?}");
        }
        for invalid in [
            &b"\xED\xA0\x80"[..], // a surrogate
            b"\xC0\xAF",          // overlong
            b"\xE0\x80\xAF",      // overlong
            b"\xF0\x80\x80\xAF",  // overlong
            b"\xF4\x90\x80\x80",  // above U+10FFFF
            b"\xF5\x80\x80\x80",
            b"\x80",     // a stray continuation
            b"\xE2\x82", // cut short
            b"\xFF",
        ] {
            assert!(utf8_str(&long(invalid)).is_none(), "{invalid:?}");
            assert!(
                utf8_str(&[&[b'a'; 70][..], invalid].concat()).is_none(),
                "{invalid:?} at the end"
            );
        }
    }

    #[test]
    fn avx2_utf8_validation_on_every_two_byte_pattern() {
        // Every non-ASCII lead with every second byte, then a continuation, at positions
        // around the 32-byte block boundaries and at the end of the input.
        let mut buf = [b'x'; 70];
        for offset in [0, 29, 30, 31, 32, 66, 67, 68] {
            for a in 0x80..=0xFFu8 {
                for b in 0..=0xFFu8 {
                    buf.fill(b'x');
                    buf[offset] = a;
                    buf[offset + 1] = b;
                    if offset + 2 < buf.len() {
                        buf[offset + 2] = 0x80 | (b & 0x3F);
                    }
                    for end in [offset + 1, offset + 2, offset + 3, buf.len()] {
                        let bytes = &buf[..end.min(buf.len())];
                        assert!(
                            !utf8_mismatch(bytes),
                            "{a:#x} {b:#x} at {offset}, {bytes:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn simd_scanners_agree_with_their_scalar_twins() {
        QuickCheck::new()
            .tests(3000)
            .max_tests(3000)
            .quickcheck(simd_agrees_with_scalar as fn(Vec<u8>, u8, bool) -> TestResult);
    }

    #[test]
    fn every_position_and_length_around_the_block_sizes() {
        for len in 0..100 {
            for hit in 0..=len {
                let mut hay = vec![b'x'; len];
                if hit < len {
                    hay[hit] = b'>';
                }
                let best = Scanner::best();
                for class in CLASSES {
                    assert_eq!(
                        best.find_class(&hay, class),
                        scalar::find_class(&hay, class)
                    );
                }
                assert_eq!(best.find_byte(&hay, b'>'), hit);
                // A control character that is a SIMD candidate but not whitespace.
                let mut hay2 = vec![b'\x01'; len];
                if hit < len {
                    hay2[hit] = b' ';
                }
                assert_eq!(best.find_class(&hay2, class::TAG_NAME_END), hit);
            }
        }
    }
}
