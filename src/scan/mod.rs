//! The scanner: skips to the next byte that matters in a state. This file is the front:
//! [`Scanner`], the functions the rest of the crate calls, and the dispatch to a back-end,
//! all in safe code. The byte sets are policy and live apart (`classes`); the ways of
//! finding them are mechanism, one file per back-end, as in the `memchr` crate.
//!
//! | File | Holds |
//! |------|-------|
//! | `mod.rs` | the front: [`Scanner`] (choice, run-time detection, dispatch), the decoding searches ([`plain_ascii_span`], [`find_special`], [`str_after_ascii_prefix`], [`utf8_str`]) |
//! | `classes.rs` | the policy: the spec's byte sets per state ([`class`], [`CLASS_TABLE`](classes::CLASS_TABLE), the class punctuation, [`special`], the input-stream error candidates), each with the states that need it |
//! | `scalar.rs` | the scalar twins: one safe byte loop per search, the reference for the others and the path of [`Scanner::Scalar`] |
//! | `blocks.rs` | the 16-byte block searches, written once over the `Simd16` trait (whose doc states the safety contract), and the decoding fast path's `&str` conversions |
//! | `x86_64/mod.rs` | the x86_64 back-end: safe wrappers around the AVX2 code |
//! | `x86_64/sse2.rs` | SSE2 (the baseline): `Simd16` for the block searches, the input-stream candidate search |
//! | `x86_64/avx2.rs` | AVX2: the byte-class search for long runs, the input-stream candidate search |
//! | `x86_64/utf8.rs` | AVX2: the UTF-8 validator |
//! | `aarch64/mod.rs`, `aarch64/neon.rs` | NEON (the baseline): `Simd16` for the block searches |
//! | `tests.rs` | one property suite, instantiated per back-end and routine |
//!
//! # Unsafe code
//!
//! The crate denies `unsafe_code`; only the back-end modules (`blocks`, `x86_64`,
//! `aarch64`) are allowed it, at their `mod` declarations below, so the compiler proves
//! that the front, the policy and the scalar twins are safe. Each `unsafe` block carries a
//! `// SAFETY:` note. On a target with neither back-end no `unsafe` code is compiled at
//! all (the decoding fast path then lets `std::str::from_utf8` vouch for the ASCII it has
//! just scanned: one more pass over the span there).
//!
//! # Two kinds of search
//!
//! - **A few bytes** (`<` in text, a quote in an attribute value, `-` in a comment): the
//!   first 64 bytes are checked inline, 16 at a time, with SSE2 (part of the x86_64
//!   baseline) or NEON (part of the aarch64 baseline), which answers most searches in a
//!   handful of instructions; longer searches go to `memchr`, which uses AVX2 (or NEON)
//!   with its own run-time detection.
//! - **A byte class** (the bytes that end a tag name, an attribute name or an unquoted
//!   value): SIMD compares find *candidates* (every byte ≤ 0x20, plus the class's ASCII
//!   punctuation), and the 256-entry [`CLASS_TABLE`](classes::CLASS_TABLE) confirms
//!   them, which rules out the control characters that are candidates but not
//!   whitespace. SSE2 or NEON inline for the first blocks; AVX2, when the CPU has it,
//!   for runs longer than 64 bytes.
//!
//! # Dispatch, and what it costs
//!
//! All of it is here. The CPU is detected once per process ([`Scanner::detect`]: std's
//! feature test, then an `AtomicU8` cache, so later calls cost one relaxed load), and each
//! tokenizer stores the [`Scanner`] it got. A search is then an `#[inline(always)]` method
//! on that value: a `match` on a byte the tokenizer holds in a register, with one arm per
//! back-end, which costs a compare and a predictable branch per search: no function
//! pointer, no indirect call, so the block searches inline into the states. The AVX2 code
//! is reached only for runs long enough (64 bytes or more) to pay for a call, and its safe
//! wrappers re-check std's cached feature bit (a load and a test) before entering it.
//!
//! Decoding (`crate::decode`) runs outside any tokenizer, so its functions here take no
//! [`Scanner`]: [`plain_ascii_span`] and [`find_special`] always take the target's
//! baseline SIMD (SSE2 or NEON, `memchr` for long runs) whatever scanner the tokenizer was
//! built with, and [`utf8_str`] uses AVX2 when [`Scanner::detect`] does (so
//! `HTMLTOK_SCANNER=scalar` turns it off, `Builder::scanner` does not).

use std::sync::atomic::{AtomicU8, Ordering};

mod classes;
mod scalar;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[allow(unsafe_code)]
mod blocks;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_64;

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;

#[cfg(test)]
mod tests;

use classes::class_punctuation;
pub(crate) use classes::{class, special};

/// How many bytes [`Scanner::find_class_short`] looks at one at a time.
const SHORT_RUN: usize = 4;

/// This target's 16-byte SIMD for the block searches.
#[cfg(target_arch = "x86_64")]
type Simd = x86_64::Sse2;
#[cfg(target_arch = "aarch64")]
type Simd = aarch64::Neon;

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
    /// [`Scanner::Avx2`] on a CPU that also has AVX-512BW: the same searches (no search
    /// uses AVX-512 yet; the variant keeps the detected CPU visible).
    Avx512,
    /// NEON (the aarch64 baseline) plus `memchr`.
    Neon,
}

impl Scanner {
    /// The best scanner this CPU supports (detected at run time), or [`Scanner::Scalar`]
    /// when the environment variable `HTMLTOK_SCANNER` is `scalar`. The default.
    pub fn detect() -> Scanner {
        // 0: not detected yet. Detection reads the environment and asks the CPU, so it
        // runs once (racing threads may both run it, and agree); afterwards this costs
        // one relaxed load.
        static DETECTED: AtomicU8 = AtomicU8::new(0);
        match DETECTED.load(Ordering::Relaxed) {
            1 => Scanner::Scalar,
            2 => Scanner::Sse2,
            3 => Scanner::Avx2,
            4 => Scanner::Neon,
            5 => Scanner::Avx512,
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
                    Scanner::Avx512 => 5,
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
            if std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx2")
            {
                Scanner::Avx512
            } else if std::arch::is_x86_feature_detected!("avx2") {
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
            Scanner::Avx2 => matches!(Scanner::best(), Scanner::Avx2 | Scanner::Avx512),
            Scanner::Avx512 => Scanner::best() == Scanner::Avx512,
            Scanner::Neon => cfg!(target_arch = "aarch64"),
        }
    }

    /// Whether this scanner uses AVX2 (which [`Scanner::Avx512`] does too).
    #[inline(always)]
    fn has_avx2(self) -> bool {
        matches!(self, Scanner::Avx2 | Scanner::Avx512)
    }

    /// The index of the first byte of `haystack` in class `class`, or `haystack.len()`.
    #[inline(always)]
    pub(crate) fn find_class(self, haystack: &[u8], class: u8) -> usize {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self != Scanner::Scalar && haystack.len() >= 16 && !class_punctuation(class).is_empty() {
            let punctuation = class_punctuation(class);
            let long_runs = self.has_avx2();
            return blocks::find_class::<Simd>(haystack, class, punctuation, long_runs);
        }
        scalar::find_class(haystack, class)
    }

    /// [`Self::find_class`] for a run that is usually a few bytes long (a tag name: `p`,
    /// `li`, `div`): the first [`SHORT_RUN`] bytes are looked up one at a time in the class
    /// table, and only a longer run takes the block search. A block search costs about as
    /// much as five lookups, and most tag names end within four bytes.
    #[inline(always)]
    pub(crate) fn find_class_short(self, haystack: &[u8], class: u8) -> usize {
        if let Some(first) = haystack.first_chunk::<SHORT_RUN>() {
            // A fixed count, so the loop unrolls and indexes without bounds checks.
            for (i, &b) in first.iter().enumerate() {
                if classes::CLASS_TABLE[b as usize] & class != 0 {
                    return i;
                }
            }
            return SHORT_RUN + self.find_class(&haystack[SHORT_RUN..], class);
        }
        // Near the end of the input: the scalar search.
        self.find_class(haystack, class)
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

    /// [`Self::find_class_ascii`], and the bytes before the one it finds as a `&str` when
    /// they are ASCII without upper-case letters: for the attribute name state when the
    /// sink decodes every name (`TokenSink::DECODES_NAMES`), so that a name that decodes
    /// to itself is known from this one search.
    #[inline(always)]
    pub(crate) fn find_class_ascii_lower(
        self,
        haystack: &[u8],
        class: u8,
    ) -> (usize, bool, Option<&str>) {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self != Scanner::Scalar && haystack.len() >= 16 && !class_punctuation(class).is_empty() {
            if let Some(found) = blocks::find_class_ascii_lower_first_block::<Simd>(haystack, class)
            {
                return found;
            }
            // A long name (16 bytes or more): the block search, then the plain prefix.
            let end = self.find_class(haystack, class);
            return match blocks::plain_ascii_span::<Simd>(haystack, 0, end, special::UPPER) {
                Ok(lower) => (end, true, Some(lower)),
                Err(_) => (
                    end,
                    blocks::plain_prefix::<Simd>(haystack, 0, end, 0) == end,
                    None,
                ),
            };
        }
        scalar::find_class_ascii_lower(haystack, class)
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

    /// The index of the first `needle`, or None: `memchr`'s contract, for a search that
    /// is expected to run long (the whole rest of the input, in the PLAINTEXT state), so
    /// it goes to `memchr` at once, or to the scalar twin for [`Scanner::Scalar`].
    #[inline]
    pub(crate) fn memchr(self, needle: u8, haystack: &[u8]) -> Option<usize> {
        if self == Scanner::Scalar {
            let found = scalar::find_bytes(haystack, &[needle]);
            return (found < haystack.len()).then_some(found);
        }
        memchr::memchr(needle, haystack)
    }

    /// The index of the first byte that may begin an input-stream parse error (13.2.3.5),
    /// or `haystack.len()`: see `classes::is_stream_error_candidate` for the set.
    #[inline]
    pub(crate) fn find_stream_error_candidate(self, haystack: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        match self {
            Scanner::Avx2 | Scanner::Avx512 if haystack.len() >= 64 => {
                return x86_64::find_stream_error_candidate_avx2(haystack);
            }
            Scanner::Avx2 | Scanner::Avx512 | Scanner::Sse2 => {
                return x86_64::find_stream_error_candidate_sse2(haystack);
            }
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
/// This always takes the target's baseline SIMD (SSE2, NEON): decoding happens outside
/// any tokenizer, so there is no [`Scanner`] choice to honour.
#[inline(always)]
pub(crate) fn plain_ascii_span(
    input: &[u8],
    start: usize,
    end: usize,
    specials: u8,
) -> Result<&str, usize> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        blocks::plain_ascii_span::<Simd>(input, start, end, specials)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let bytes = &input[start..end];
        let prefix = scalar::plain_prefix(bytes, specials);
        match std::str::from_utf8(bytes) {
            Ok(s) if prefix == bytes.len() => Ok(s),
            _ => Err(prefix),
        }
    }
}

/// The offset of the first byte of `bytes` that is one of `specials` (non-ASCII bytes are
/// never special), or None. SSE2 or NEON blocks for 16 to 64 bytes, where a call to
/// `memchr` would cost more than the search, and for names (whose set has A–Z);
/// `memchr` for longer runs of at most three bytes. No [`Scanner`] choice (see
/// [`plain_ascii_span`]).
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
/// them): the prefix is not validated again (except on targets without a SIMD back-end,
/// where `std::str::from_utf8` checks the whole).
#[inline]
pub(crate) fn str_after_ascii_prefix(bytes: &[u8], ascii_prefix: usize) -> Option<&str> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        blocks::str_after_ascii_prefix(bytes, ascii_prefix)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        debug_assert!(bytes[..ascii_prefix].is_ascii());
        std::str::from_utf8(bytes).ok()
    }
}

/// `bytes` as a `&str` when they are valid UTF-8. The AVX2 validator (32 bytes per step)
/// for inputs of 64 bytes or more when [`Scanner::detect`] chose AVX2 (so not when
/// `HTMLTOK_SCANNER=scalar`); `std::str::from_utf8`, its scalar twin, otherwise.
#[inline]
pub(crate) fn utf8_str(bytes: &[u8]) -> Option<&str> {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 64 && Scanner::detect().has_avx2() {
        return x86_64::utf8::to_str(bytes);
    }
    std::str::from_utf8(bytes).ok()
}
