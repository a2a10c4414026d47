//! The AVX2 UTF-8 validator, and [`to_str`], its safe entry: `bytes` as a `&str` when
//! they are valid UTF-8. The scalar twin is `std::str::from_utf8`; the tests below
//! compare the two on every two-byte pattern around the block boundaries and on mostly
//! valid text.

use std::arch::x86_64::*;

/// `bytes` as a `&str` when they are valid UTF-8, validated 32 bytes per step with AVX2.
///
/// Panics when the CPU lacks AVX2 (the front asks only when `Scanner::detect` found it).
#[inline]
pub(crate) fn to_str(bytes: &[u8]) -> Option<&str> {
    assert!(std::arch::is_x86_feature_detected!("avx2"));
    // SAFETY: the CPU has AVX2: checked by the assertion (a cached load).
    if unsafe { is_utf8_avx2(bytes) } {
        // SAFETY: the validator just accepted the bytes as UTF-8 (it agrees with
        // `std::str::from_utf8`: see the tests below).
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
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
fn is_utf8_avx2(bytes: &[u8]) -> bool {
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

#[cfg(test)]
mod tests {
    use quickcheck::{QuickCheck, TestResult};

    use crate::scan::Scanner;

    /// True when the AVX2 validator and `std::str::from_utf8` disagree on `bytes` (never,
    /// without AVX2).
    fn utf8_mismatch(bytes: &[u8]) -> bool {
        if Scanner::best() != Scanner::Avx2 {
            return false;
        }
        super::to_str(bytes).is_some() != std::str::from_utf8(bytes).is_ok()
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
            return TestResult::error(format!("avx2::to_str on {bytes:?}"));
        }
        for (at, byte) in breaks {
            if bytes.is_empty() {
                break;
            }
            let i = at as usize % bytes.len();
            bytes[i] = byte;
            if utf8_mismatch(&bytes) || utf8_mismatch(&bytes[..i]) {
                return TestResult::error(format!("avx2::to_str on {bytes:?} (cut at {i})"));
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
}
