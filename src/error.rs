//! Parse errors (HTML § 13.2.2 "Parse errors") and their positions.
//!
//! Errors are off by default and then cost nothing: the tokenizer does not even look at
//! the bytes that can only produce errors (`&` in text, control characters). When they are
//! on, each error is recorded as its spec code and the byte offset of the input character
//! the tokenizer was looking at when the spec raises it (for end-of-file errors, the input
//! length). Line and column are computed from offsets only when asked, exactly as the
//! html5lib tests count them: one-based, CR LF counted as one newline, columns in UTF-16
//! code units (a character outside the BMP counts two).

use std::fmt;

macro_rules! error_codes {
    ($($variant:ident => $code:literal,)*) => {
        /// Every parse error code the tokenizer can report, named as the standard names it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(#[doc = concat!("`", $code, "`")] $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the order of the standard's list.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The spec's name for this error, e.g. `"eof-in-tag"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                }
            }

            /// Looks a code up by its spec name.
            pub fn from_name(name: &str) -> Option<ErrorCode> {
                match name {
                    $($code => Some(ErrorCode::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

error_codes! {
    AbruptClosingOfEmptyComment => "abrupt-closing-of-empty-comment",
    AbruptDoctypePublicIdentifier => "abrupt-doctype-public-identifier",
    AbruptDoctypeSystemIdentifier => "abrupt-doctype-system-identifier",
    AbsenceOfDigitsInNumericCharacterReference => "absence-of-digits-in-numeric-character-reference",
    CdataInHtmlContent => "cdata-in-html-content",
    CharacterReferenceOutsideUnicodeRange => "character-reference-outside-unicode-range",
    ControlCharacterInInputStream => "control-character-in-input-stream",
    ControlCharacterReference => "control-character-reference",
    DuplicateAttribute => "duplicate-attribute",
    EndTagWithAttributes => "end-tag-with-attributes",
    EndTagWithTrailingSolidus => "end-tag-with-trailing-solidus",
    EofBeforeTagName => "eof-before-tag-name",
    EofInCdata => "eof-in-cdata",
    EofInComment => "eof-in-comment",
    EofInDoctype => "eof-in-doctype",
    EofInScriptHtmlCommentLikeText => "eof-in-script-html-comment-like-text",
    EofInTag => "eof-in-tag",
    IncorrectlyClosedComment => "incorrectly-closed-comment",
    IncorrectlyOpenedComment => "incorrectly-opened-comment",
    InvalidCharacterSequenceAfterDoctypeName => "invalid-character-sequence-after-doctype-name",
    InvalidFirstCharacterOfTagName => "invalid-first-character-of-tag-name",
    MissingAttributeValue => "missing-attribute-value",
    MissingDoctypeName => "missing-doctype-name",
    MissingDoctypePublicIdentifier => "missing-doctype-public-identifier",
    MissingDoctypeSystemIdentifier => "missing-doctype-system-identifier",
    MissingEndTagName => "missing-end-tag-name",
    MissingQuoteBeforeDoctypePublicIdentifier => "missing-quote-before-doctype-public-identifier",
    MissingQuoteBeforeDoctypeSystemIdentifier => "missing-quote-before-doctype-system-identifier",
    MissingSemicolonAfterCharacterReference => "missing-semicolon-after-character-reference",
    MissingWhitespaceAfterDoctypePublicKeyword => "missing-whitespace-after-doctype-public-keyword",
    MissingWhitespaceAfterDoctypeSystemKeyword => "missing-whitespace-after-doctype-system-keyword",
    MissingWhitespaceBeforeDoctypeName => "missing-whitespace-before-doctype-name",
    MissingWhitespaceBetweenAttributes => "missing-whitespace-between-attributes",
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => "missing-whitespace-between-doctype-public-and-system-identifiers",
    NestedComment => "nested-comment",
    NoncharacterCharacterReference => "noncharacter-character-reference",
    NoncharacterInInputStream => "noncharacter-in-input-stream",
    NullCharacterReference => "null-character-reference",
    SurrogateCharacterReference => "surrogate-character-reference",
    SurrogateInInputStream => "surrogate-in-input-stream",
    UnexpectedCharacterAfterDoctypeSystemIdentifier => "unexpected-character-after-doctype-system-identifier",
    UnexpectedCharacterInAttributeName => "unexpected-character-in-attribute-name",
    UnexpectedCharacterInUnquotedAttributeValue => "unexpected-character-in-unquoted-attribute-value",
    UnexpectedEqualsSignBeforeAttributeName => "unexpected-equals-sign-before-attribute-name",
    UnexpectedNullCharacter => "unexpected-null-character",
    UnexpectedQuestionMarkInsteadOfTagName => "unexpected-question-mark-instead-of-tag-name",
    UnexpectedSolidusInTag => "unexpected-solidus-in-tag",
    UnknownNamedCharacterReference => "unknown-named-character-reference",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One parse error: its code and the byte offset in the input where the spec raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// Which error.
    pub code: ErrorCode,
    /// Byte offset of the input character being looked at (the input length for EOF).
    pub offset: usize,
}

/// A one-based line and column after newline normalisation. Columns count UTF-16 code
/// units, as the html5lib tests do: one per character, two for a character outside the
/// Basic Multilingual Plane, one per U+FFFD that invalid UTF-8 decodes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// One-based line.
    pub line: usize,
    /// One-based column, in code points.
    pub col: usize,
}

/// Converts byte offsets into [`Position`]s by walking the input forward once.
///
/// Offsets asked for in increasing order cost one pass over the input in total; an offset
/// before the previous one restarts the walk from the beginning.
#[derive(Clone, Debug)]
pub struct PositionTracker<'a> {
    input: &'a [u8],
    offset: usize,
    line: usize,
    col: usize,
}

impl<'a> PositionTracker<'a> {
    /// A tracker over `input`, positioned at its start.
    pub fn new(input: &'a [u8]) -> Self {
        PositionTracker {
            input,
            offset: 0,
            line: 1,
            col: 1,
        }
    }

    /// A tracker over `input` positioned at `offset`, whose position is `line`, `col`
    /// (for the stream tokenizer, whose buffer starts after the bytes it has dropped).
    pub(crate) fn resume(input: &'a [u8], offset: usize, line: usize, col: usize) -> Self {
        PositionTracker {
            input,
            offset,
            line,
            col,
        }
    }

    /// Where the tracker is: its offset, line and column.
    pub(crate) fn cursor(&self) -> (usize, usize, usize) {
        (self.offset, self.line, self.col)
    }

    /// The position of the character that starts at (or contains) byte `offset`.
    ///
    /// The LF of a CR LF pair is the same character as its CR (newline normalisation turns
    /// the pair into one LF), so both bytes report the CR's position.
    pub fn position(&mut self, offset: usize) -> Position {
        let target = offset.min(self.input.len());
        if target < self.offset {
            *self = PositionTracker::new(self.input);
        }
        while self.offset < target {
            let byte = self.input[self.offset];
            match byte {
                b'\n' => {
                    self.line += 1;
                    self.col = 1;
                    self.offset += 1;
                }
                b'\r' => {
                    if self.input.get(self.offset + 1) == Some(&b'\n') {
                        if self.offset + 1 == target {
                            // The LF of CR LF: same character as the CR.
                            break;
                        }
                        self.offset += 2;
                    } else {
                        self.offset += 1;
                    }
                    self.line += 1;
                    self.col = 1;
                }
                0..=0x7F => {
                    self.col += 1;
                    self.offset += 1;
                }
                _ => {
                    // One code point, or one U+FFFD per maximal invalid subpart.
                    let len = utf8_char_or_subpart_len(&self.input[self.offset..]);
                    if self.offset + len > target {
                        break; // `offset` lies inside this character
                    }
                    // A character outside the BMP (a valid 4-byte sequence) is two UTF-16
                    // code units, and the html5lib tests count columns in those.
                    self.col += if len == 4 { 2 } else { 1 };
                    self.offset += len;
                }
            }
        }
        Position {
            line: self.line,
            col: self.col,
        }
    }
}

/// The length of the UTF-8 sequence at the start of `bytes`, or, when it is invalid, of
/// its maximal subpart (the bytes the WHATWG UTF-8 decoder turns into one U+FFFD).
pub(crate) fn utf8_char_or_subpart_len(bytes: &[u8]) -> usize {
    match std::str::from_utf8(&bytes[..bytes.len().min(4)]) {
        Ok(s) => s.chars().next().map_or(1, char::len_utf8),
        Err(e) if e.valid_up_to() > 0 => {
            let s = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
            s.chars().next().map_or(1, char::len_utf8)
        }
        Err(e) => e.error_len().unwrap_or(bytes.len().min(4)).max(1),
    }
}

/// The position of one byte offset (see [`PositionTracker`] for many).
pub fn position(input: &[u8], offset: usize) -> Position {
    PositionTracker::new(input).position(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_through_names() {
        assert_eq!(ErrorCode::ALL.len(), 48);
        for &code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_name(code.as_str()), Some(code));
        }
    }

    #[test]
    fn positions_count_code_points_and_normalised_newlines() {
        let input = "ab\r\ncé\rx\n\u{1F600}y".as_bytes();
        let mut t = PositionTracker::new(input);
        assert_eq!(t.position(0), Position { line: 1, col: 1 });
        assert_eq!(t.position(2), Position { line: 1, col: 3 }); // CR
        assert_eq!(t.position(3), Position { line: 1, col: 3 }); // LF of CR LF
        assert_eq!(t.position(4), Position { line: 2, col: 1 }); // c
        assert_eq!(t.position(5), Position { line: 2, col: 2 }); // é
        assert_eq!(t.position(7), Position { line: 2, col: 3 }); // lone CR
        assert_eq!(t.position(8), Position { line: 3, col: 1 }); // x
        assert_eq!(t.position(10), Position { line: 4, col: 1 }); // emoji
        assert_eq!(t.position(14), Position { line: 4, col: 3 }); // y: the emoji is 2 units
        assert_eq!(t.position(15), Position { line: 4, col: 4 }); // EOF
        assert_eq!(t.position(1), Position { line: 1, col: 2 }); // backwards restarts
    }

    #[test]
    fn invalid_utf8_counts_one_column_per_maximal_subpart() {
        // F0 9F 98 is a truncated 4-byte sequence: one U+FFFD. FF is another.
        let input = b"\xF0\x9F\x98a\xFFb";
        assert_eq!(position(input, 3), Position { line: 1, col: 2 });
        assert_eq!(position(input, 5), Position { line: 1, col: 4 });
    }
}
