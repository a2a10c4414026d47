//! The scalar twins: one plain byte loop (or table lookup) per search, in safe code. They
//! are the reference the SIMD routines are tested against (`super::tests` instantiates
//! the same properties for every back-end), the path of [`super::Scanner::Scalar`], and
//! the only path on targets without a SIMD back-end.
//!
//! Each function is the specification of its SIMD forms: same arguments, same answer.

use super::classes::{CLASS_TABLE, SPECIAL_TABLE, is_stream_error_candidate, special};

/// The index of the first byte in `class`, or `haystack.len()`.
pub(crate) fn find_class(haystack: &[u8], class: u8) -> usize {
    haystack
        .iter()
        .position(|&b| CLASS_TABLE[b as usize] & class != 0)
        .unwrap_or(haystack.len())
}

/// [`find_class`], and whether every byte before the one it finds is ASCII.
pub(crate) fn find_class_ascii(haystack: &[u8], class: u8) -> (usize, bool) {
    let end = find_class(haystack, class);
    (end, haystack[..end].is_ascii())
}

/// [`find_class_ascii`], and the bytes before the one it finds as a `&str` when they are
/// ASCII without upper-case letters (an attribute name that decodes to itself).
///
/// Inlined, with its work in two functions left out of line that answer in registers: the
/// three-part answer (32 bytes) returned from one out-of-line function went through
/// memory, and in the attribute name state, where this path meets the inlined SIMD
/// paths, their answers were written to that memory too and read back at the join (about
/// six instructions a name on every path).
#[inline(always)]
pub(crate) fn find_class_ascii_lower(haystack: &[u8], class: u8) -> (usize, bool, Option<&str>) {
    let (end, ascii, lower) = find_class_ascii_lower_parts(haystack, class);
    let name = &haystack[..end];
    (end, ascii, if lower { lower_str(name) } else { None })
}

/// [`find_class_ascii`], and whether the bytes before the one it finds are ASCII without
/// upper-case letters.
#[inline(never)]
fn find_class_ascii_lower_parts(haystack: &[u8], class: u8) -> (usize, bool, bool) {
    let (end, ascii) = find_class_ascii(haystack, class);
    let lower = ascii && !haystack[..end].iter().any(u8::is_ascii_uppercase);
    (end, ascii, lower)
}

/// `name` (ASCII) as a `&str`.
#[inline(never)]
fn lower_str(name: &[u8]) -> Option<&str> {
    std::str::from_utf8(name).ok()
}

/// The index of the first byte that is one of `needles`, or `haystack.len()`.
pub(crate) fn find_bytes(haystack: &[u8], needles: &[u8]) -> usize {
    haystack
        .iter()
        .position(|b| needles.contains(b))
        .unwrap_or(haystack.len())
}

/// The offset of the first byte of `bytes` that is one of `specials` (a set of
/// [`special`] bits; non-ASCII bytes are never special), or None.
pub(crate) fn find_special(bytes: &[u8], specials: u8) -> Option<usize> {
    let specials = specials & !special::NOT_ASCII;
    bytes
        .iter()
        .position(|&b| SPECIAL_TABLE[b as usize] & specials != 0)
}

/// The length of the prefix of `bytes` that is ASCII with no byte in `specials`.
pub(crate) fn plain_prefix(bytes: &[u8], specials: u8) -> usize {
    let stop = specials | special::NOT_ASCII;
    bytes
        .iter()
        .position(|&b| SPECIAL_TABLE[b as usize] & stop != 0)
        .unwrap_or(bytes.len())
}

/// The index of the first byte that may begin an input-stream parse error (see
/// [`is_stream_error_candidate`]), or `haystack.len()`.
pub(crate) fn find_stream_error_candidate(haystack: &[u8]) -> usize {
    haystack
        .iter()
        .position(|&b| is_stream_error_candidate(b))
        .unwrap_or(haystack.len())
}
