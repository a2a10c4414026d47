//! The scanner: skips to the next byte that matters in a state.
//!
//! Byte sets of up to three bytes use `memchr`, which is SIMD-accelerated on every target
//! it supports. Larger sets (the bytes that end a tag name, an attribute name or an
//! unquoted value) use a byte-class table: a 256-entry table of bit flags, one bit per
//! class, so one load and one test per byte.

/// Byte classes for [`find_class`]. Each is a bit in [`CLASS_TABLE`].
pub(crate) mod class {
    /// Ends a tag name: whitespace (incl. CR), `/`, `>`, NUL.
    pub(crate) const TAG_NAME_END: u8 = 1 << 0;
    /// Ends an attribute name or needs a look: whitespace, `/`, `>`, `=`, NUL, `"`, `'`, `<`.
    pub(crate) const ATTR_NAME_END: u8 = 1 << 1;
    /// Ends an unquoted attribute value or needs a look: whitespace, `&`, `>`, NUL, `"`,
    /// `'`, `<`, `=`, `` ` ``.
    pub(crate) const UNQUOTED_VALUE_END: u8 = 1 << 2;
    /// Not whitespace: tab, LF, FF, CR, space.
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

/// The index of the first byte of `haystack` in class `class`, or `haystack.len()`.
#[inline]
pub(crate) fn find_class(haystack: &[u8], class: u8) -> usize {
    haystack
        .iter()
        .position(|&b| CLASS_TABLE[b as usize] & class != 0)
        .unwrap_or(haystack.len())
}

/// The index of the first `needle`, or `haystack.len()`.
#[inline]
pub(crate) fn find_byte(haystack: &[u8], needle: u8) -> usize {
    memchr::memchr(needle, haystack).unwrap_or(haystack.len())
}

/// The index of the first `a` or `b`, or `haystack.len()`.
#[inline]
pub(crate) fn find_byte2(haystack: &[u8], a: u8, b: u8) -> usize {
    memchr::memchr2(a, b, haystack).unwrap_or(haystack.len())
}

/// The index of the first `a`, `b` or `c`, or `haystack.len()`.
#[inline]
pub(crate) fn find_byte3(haystack: &[u8], a: u8, b: u8, c: u8) -> usize {
    memchr::memchr3(a, b, c, haystack).unwrap_or(haystack.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_match_the_spec_byte_sets() {
        assert_eq!(find_class(b"div class", class::TAG_NAME_END), 3);
        assert_eq!(find_class(b"div\r", class::TAG_NAME_END), 3);
        assert_eq!(find_class(b"a<b", class::TAG_NAME_END), 3);
        assert_eq!(find_class(b"data-x=1", class::ATTR_NAME_END), 6);
        assert_eq!(find_class(b"abc`", class::UNQUOTED_VALUE_END), 3);
        assert_eq!(find_class(b" \t\r\nx", class::NOT_WHITESPACE), 4);
        assert_eq!(find_class(b"scRipt>", class::NOT_ALPHA), 6);
        assert_eq!(find_class(b"", class::NOT_ALPHA), 0);
    }
}
