//! The policy: which bytes each tokenizer state has to stop at, as the standard defines
//! them. Nothing here knows how the bytes are found; the back-ends (the scalar twins in
//! `super::scalar`, the SIMD code in `super::blocks`, `super::x86_64`, `super::aarch64`)
//! read these sets and nothing else.
//!
//! The sets are taken from the raw input, before the input stream preprocessing of
//! 13.2.3.5 ("Preprocessing the input stream") has run: a CR is therefore a newline
//! wherever the spec's state lists U+000A LINE FEED, and it is also a byte decoding must
//! look at ([`special::CR`]).
//!
//! | Set | Needed by |
//! |-----|-----------|
//! | [`class::TAG_NAME_END`] | 13.2.5.8 Tag name state; 13.2.5.55 DOCTYPE name state |
//! | [`class::ATTR_NAME_END`] | 13.2.5.33 Attribute name state |
//! | [`class::UNQUOTED_VALUE_END`] | 13.2.5.38 Attribute value (unquoted) state |
//! | [`class::NOT_WHITESPACE`] | the DOCTYPE states that skip whitespace (13.2.5.54, .56, .58, .61, .62, .64, .67) |
//! | [`class::NOT_ALPHA`] | the end tag name states (13.2.5.11, .14, .17, .25) and 13.2.5.26, .31 (script data double escape start and end) |
//! | [`class_punctuation`] | the SIMD candidates of the first three classes |
//! | [`special`] | decoding (`crate::decode`): the bytes each decoding context transforms |
//! | [`is_stream_error_candidate`] | 13.2.3.5: the bytes that may begin an input-stream parse error |

/// Byte classes for `Scanner::find_class`. Each is a bit in [`CLASS_TABLE`], so a class
/// test is one load and one `and`.
pub(crate) mod class {
    /// Ends a tag name: whitespace (incl. CR), `/`, `>`, NUL.
    ///
    /// 13.2.5.8 Tag name state: tab, LF, FF and space switch to the before attribute name
    /// state, `/` to the self-closing start tag state, `>` emits the tag, NUL is an
    /// unexpected-null-character parse error. (ASCII upper alpha is lowercased, but when
    /// the name is decoded: it stays in the span.)
    ///
    /// 13.2.5.55 DOCTYPE name state uses it too, as a superset: the state has no rule for
    /// `/`, which it appends to the name and scans on.
    pub(crate) const TAG_NAME_END: u8 = 1 << 0;
    /// Ends an attribute name or needs a look: whitespace, `/`, `>`, `=`, NUL, `"`, `'`, `<`.
    ///
    /// 13.2.5.33 Attribute name state: whitespace, `/` and `>` reconsume in the after
    /// attribute name state, `=` switches to the before attribute value state, NUL is an
    /// unexpected-null-character parse error, and `"`, `'`, `<` are an
    /// unexpected-character-in-attribute-name parse error (then appended).
    pub(crate) const ATTR_NAME_END: u8 = 1 << 1;
    /// Ends an unquoted attribute value or needs a look: whitespace, `&`, `>`, NUL, `"`,
    /// `'`, `<`, `=`, `` ` ``.
    ///
    /// 13.2.5.38 Attribute value (unquoted) state: whitespace switches to the before
    /// attribute name state, `&` to the character reference state, `>` emits the tag, NUL
    /// is an unexpected-null-character parse error, and `"`, `'`, `<`, `=`, `` ` `` are an
    /// unexpected-character-in-unquoted-attribute-value parse error (then appended).
    pub(crate) const UNQUOTED_VALUE_END: u8 = 1 << 2;
    /// Not whitespace: anything but tab, LF, FF, CR, space.
    ///
    /// The DOCTYPE states whose first rule is "tab, LF, FF, space: ignore the character":
    /// 13.2.5.54 Before DOCTYPE name, 13.2.5.56 After DOCTYPE name, 13.2.5.58 Before
    /// DOCTYPE public identifier, 13.2.5.61 After DOCTYPE public identifier, 13.2.5.62
    /// Between DOCTYPE public and system identifiers, 13.2.5.64 Before DOCTYPE system
    /// identifier, 13.2.5.67 After DOCTYPE system identifier.
    pub(crate) const NOT_WHITESPACE: u8 = 1 << 3;
    /// Not an ASCII letter.
    ///
    /// The states that append ASCII alpha to the temporary buffer: 13.2.5.11 RCDATA end
    /// tag name, 13.2.5.14 RAWTEXT end tag name, 13.2.5.17 Script data end tag name,
    /// 13.2.5.25 Script data escaped end tag name, 13.2.5.26 Script data double escape
    /// start and 13.2.5.31 Script data double escape end.
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

/// One byte of [`class`] bits for every byte value: the definition of the classes, which
/// every back-end confirms its candidates against.
pub(crate) static CLASS_TABLE: [u8; 256] = build_class_table();

/// The bytes above 0x20 that are in a class; with "every byte ≤ 0x20" they make the SIMD
/// candidate set of the class (a superset: [`CLASS_TABLE`] then confirms, which rules out
/// the control characters that are candidates but not whitespace). Empty for the classes
/// the SIMD code does not search ([`class::NOT_WHITESPACE`], [`class::NOT_ALPHA`]: their
/// runs are short), which then take the scalar twin.
pub(crate) fn class_punctuation(class: u8) -> &'static [u8] {
    match class {
        class::TAG_NAME_END => b"/>",
        class::ATTR_NAME_END => b"\"'/<=>",
        class::UNQUOTED_VALUE_END => b"\"&'<=>`",
        _ => b"",
    }
}

/// Bytes that decoding must look at, as a bit set for `plain_ascii_span` and
/// `find_special`. Each decoding context (`crate::decode::Context::specials`) picks the
/// ones its transforms need.
pub(crate) mod special {
    /// `&`: a character reference may start (13.2.5.72 Character reference state, from
    /// the data, RCDATA and attribute value states).
    pub(crate) const AMP: u8 = 1 << 0;
    /// CR: newline normalisation (13.2.3.5 Preprocessing the input stream: CR LF and a
    /// lone CR become LF).
    pub(crate) const CR: u8 = 1 << 1;
    /// NUL: replaced by U+FFFD (the unexpected-null-character rules of the states that
    /// replace it, e.g. 13.2.5.2 RCDATA state and 13.2.5.8 Tag name state).
    pub(crate) const NUL: u8 = 1 << 2;
    /// `A`–`Z`: lowercased (the "ASCII upper alpha" rules of 13.2.5.8 Tag name state,
    /// 13.2.5.33 Attribute name state and 13.2.5.55 DOCTYPE name state).
    pub(crate) const UPPER: u8 = 1 << 3;
    /// A byte of 0x80 or above (never plain ASCII: UTF-8 must be validated).
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
pub(crate) static SPECIAL_TABLE: [u8; 256] = build_special_table();

/// True when `b` may begin an input-stream parse error (13.2.3.5 Preprocessing the input
/// stream: control-character-in-input-stream, noncharacter-in-input-stream): a control
/// character other than ASCII whitespace and NUL, or a lead byte of a C1 control (`C2`),
/// of a noncharacter in the BMP (`EF`) or of a supplementary-plane noncharacter
/// (`F0`–`F4`; `F5`–`FF` are never valid and are candidates too). Lead bytes are never
/// continuation bytes, so a candidate is always the start of a character (or of an
/// invalid sequence) and skipping the bytes between candidates loses nothing.
#[inline]
pub(crate) fn is_stream_error_candidate(b: u8) -> bool {
    matches!(b, 0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F | 0xC2 | 0xEF | 0xF0..=0xFF)
}
