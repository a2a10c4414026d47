//! 13.2.3.2: "prescan a byte stream to determine its encoding", with its abort path "get
//! an XML encoding".

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the `<meta>` prescan looks at: the spec encourages 1,024 and authors must
/// put the declaration within them (§ 4.2.5.4).
pub const PRESCAN_BYTES: usize = 1024;

/// The spec's "prescan a byte stream to determine its encoding" on the first
/// [`PRESCAN_BYTES`] bytes (the end condition), including its abort path, "get an XML
/// encoding". Returns the encoding a `<meta charset>`, a `<meta http-equiv=content-type
/// content="…; charset=…">`, a UTF-16 `<?x` or an `<?xml … encoding=…?>` declaration
/// names, with UTF-16 from a `<meta>` or an XML declaration turned into UTF-8 and
/// x-user-defined into windows-1252; None when there is none or its label is unknown.
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let input = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    match Prescan::new(input).run() {
        Ok(encoding) => Some(encoding),
        // "If at any point during these steps … the user agent either runs out of bytes …
        // or reaches its end condition, then abort the prescan a byte stream to determine
        // its encoding algorithm and return the result get an XML encoding applied to the
        // same bytes that the prescan … algorithm was applied to."
        Err(OutOfBytes) => get_an_xml_encoding(input),
    }
}

/// The prescan ran out of bytes (the position pointer went past the end of the first
/// 1,024 bytes): the algorithm aborts.
struct OutOfBytes;

/// One step of the prescan: a value, or the abort.
type Step<T> = Result<T, OutOfBytes>;

/// The prescan's `charset` variable: "the null value (which, for the purposes of this
/// algorithm, is distinct from an unrecognized encoding or the empty string)".
#[derive(Clone, Copy)]
enum Charset {
    Null,
    Failure,
    Encoding(&'static Encoding),
}

/// An attribute as the "get an attribute" algorithm returns it (name and value lowercased
/// in ASCII, other bytes kept as they are). The buffers are reused from attribute to
/// attribute.
#[derive(Default)]
struct Attribute {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// The prescan's state: the input (at most 1,024 bytes) and the `position` pointer.
struct Prescan<'a> {
    input: &'a [u8],
    position: usize,
}

/// HT, LF, FF, CR, SP: the bytes the prescan treats as whitespace.
fn is_space(byte: u8) -> bool {
    matches!(byte, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

impl<'a> Prescan<'a> {
    /// "1. Let position be a pointer to a byte in the input byte stream, initially pointing
    /// at the first byte."
    fn new(input: &'a [u8]) -> Self {
        Prescan { input, position: 0 }
    }

    /// The byte at `position`, or the abort when the pointer is past the end.
    fn byte(&self) -> Step<u8> {
        self.input.get(self.position).copied().ok_or(OutOfBytes)
    }

    /// The bytes from `position` on (empty past the end).
    fn rest(&self) -> &'a [u8] {
        self.input.get(self.position..).unwrap_or_default()
    }

    /// Steps 2 to 4: the UTF-16 XML declarations, then the loop over the bytes.
    fn run(&mut self) -> Step<&'static Encoding> {
        // "2. Prescan for UTF-16 XML declarations: If position points to:"
        // "A sequence of bytes starting with: 0x3C, 0x0, 0x3F, 0x0, 0x78, 0x0
        // (case-sensitive UTF-16 little-endian '<?x')": "Return UTF-16LE."
        if self.input.starts_with(b"<\0?\0x\0") {
            return Ok(UTF_16LE);
        }
        // "A sequence of bytes starting with: 0x0, 0x3C, 0x0, 0x3F, 0x0, 0x78
        // (case-sensitive UTF-16 big-endian '<?x')": "Return UTF-16BE."
        if self.input.starts_with(b"\0<\0?\0x") {
            return Ok(UTF_16BE);
        }
        loop {
            // "3. Loop: If position points to:" (a pointer past the end aborts)
            let rest = self.rest();
            if rest.is_empty() {
                return Err(OutOfBytes);
            }
            if rest.starts_with(b"<!--") {
                self.skip_comment()?;
            } else if is_meta_start(rest) {
                if let Some(encoding) = self.meta()? {
                    return Ok(encoding);
                }
            } else if is_tag_start(rest) {
                self.skip_tag()?;
            } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?")
            {
                self.skip_to_greater_than()?;
            }
            // "Any other byte": "Do nothing with that byte."
            // "4. Next byte: Move position so it points at the next byte in the input byte
            // stream, and return to the step above labeled loop."
            self.position += 1;
        }
    }

    /// "A sequence of bytes starting with: 0x3C 0x21 0x2D 0x2D (`<!--`)": "Advance the
    /// position pointer so that it points at the first 0x3E byte which is preceded by two
    /// 0x2D bytes (i.e. at the end of an ASCII '-->' sequence) and comes after the 0x3C
    /// byte that was found. (The two 0x2D bytes can be the same as those in the '<!--'
    /// sequence.)"
    fn skip_comment(&mut self) -> Step<()> {
        let from = self.position + 2; // the "--" of "<!--" may end the comment: `<!-->`
        match memchr::memmem::find(&self.input[from..], b"-->") {
            Some(at) => {
                self.position = from + at + 2;
                Ok(())
            }
            None => Err(OutOfBytes),
        }
    }

    /// "A sequence of bytes starting with: 0x3C 0x21 (`<!`)", "… 0x3C 0x2F (`</`)",
    /// "… 0x3C 0x3F (`<?`)": "Advance the position pointer so that it points at the first
    /// 0x3E byte (>) that comes after the 0x3C byte that was found."
    fn skip_to_greater_than(&mut self) -> Step<()> {
        let from = self.position + 1;
        match memchr::memchr(b'>', &self.input[from..]) {
            Some(at) => {
                self.position = from + at;
                Ok(())
            }
            None => Err(OutOfBytes),
        }
    }

    /// "A sequence of bytes starting with a 0x3C byte (<), optionally a 0x2F byte (/), and
    /// finally a byte in the range 0x41-0x5A or 0x61-0x7A (A-Z or a-z)":
    fn skip_tag(&mut self) -> Step<()> {
        // "1. Advance the position pointer so that it points at the next 0x09 (HT), 0x0A
        // (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>) byte."
        loop {
            let byte = self.byte()?;
            if is_space(byte) || byte == b'>' {
                break;
            }
            self.position += 1;
        }
        // "2. Repeatedly get an attribute until no further attributes can be found, then
        // jump to the step below labeled next byte."
        let mut attribute = Attribute::default();
        while self.get_an_attribute(&mut attribute)? {}
        Ok(())
    }

    /// "A sequence of bytes starting with: 0x3C, 0x4D or 0x6D, 0x45 or 0x65, 0x54 or 0x74,
    /// 0x41 or 0x61, and one of 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2F (case-insensitive ASCII
    /// '<meta' followed by a space or slash)": steps 1 to 16. Returns the encoding, or
    /// None to go on with the next byte.
    fn meta(&mut self) -> Step<Option<&'static Encoding>> {
        // "1. Advance the position pointer so that it points at the next 0x09, 0x0A, 0x0C,
        // 0x0D, 0x20, or 0x2F byte (the one in sequence of characters matched above)."
        self.position += 5;
        // "2. Let attribute list be an empty list of strings."
        let mut attribute_list: Vec<Vec<u8>> = Vec::new();
        // "3. Let got pragma be false."
        let mut got_pragma = false;
        // "4. Let need pragma be null."
        let mut need_pragma: Option<bool> = None;
        // "5. Let charset be the null value."
        let mut charset = Charset::Null;
        // "6. Attributes: Get an attribute and its value. If no attribute was sniffed, then
        // jump to the processing step below."
        let mut attribute = Attribute::default();
        while self.get_an_attribute(&mut attribute)? {
            // "7. If the attribute's name is already in attribute list, then return to the
            // step labeled attributes."
            if attribute_list.contains(&attribute.name) {
                continue;
            }
            // "8. Add the attribute's name to attribute list."
            attribute_list.push(attribute.name.clone());
            // "9. Run the appropriate step from the following list, if one applies:"
            match attribute.name.as_slice() {
                // "If the attribute's name is "http-equiv"": "If the attribute's value is
                // "content-type", then set got pragma to true."
                b"http-equiv" => got_pragma |= attribute.value == b"content-type",
                // "If the attribute's name is "content"": "Apply the algorithm for
                // extracting a character encoding from a meta element, giving the
                // attribute's value as the string to parse. If a character encoding is
                // returned, and if charset is still set to null, let charset be the
                // encoding returned, and set need pragma to true."
                b"content" => {
                    if let Some(encoding) = extract_from_meta_content(&attribute.value)
                        && matches!(charset, Charset::Null)
                    {
                        charset = Charset::Encoding(encoding);
                        need_pragma = Some(true);
                    }
                }
                // "If the attribute's name is "charset"": "Let charset be the result of
                // getting an encoding from the attribute's value, and set need pragma to
                // false."
                b"charset" => {
                    charset = match Encoding::for_label(&attribute.value) {
                        Some(encoding) => Charset::Encoding(encoding),
                        None => Charset::Failure,
                    };
                    need_pragma = Some(false);
                }
                _ => {}
            }
            // "10. Return to the step labeled attributes."
        }
        // "11. Processing: If need pragma is null, then jump to the step below labeled next
        // byte."
        // "12. If need pragma is true but got pragma is false, then jump to the step below
        // labeled next byte."
        match need_pragma {
            None => return Ok(None),
            Some(true) if !got_pragma => return Ok(None),
            Some(_) => {}
        }
        // "13. If charset is failure, then jump to the step below labeled next byte."
        let Charset::Encoding(mut encoding) = charset else {
            return Ok(None);
        };
        // "14. If charset is UTF-16BE/LE, then set charset to UTF-8."
        if encoding == UTF_16BE || encoding == UTF_16LE {
            encoding = UTF_8;
        }
        // "15. If charset is x-user-defined, then set charset to windows-1252."
        if encoding == X_USER_DEFINED {
            encoding = WINDOWS_1252;
        }
        // "16. Return charset."
        Ok(Some(encoding))
    }

    /// The spec's "get an attribute": fills `attribute` and returns true, or returns false
    /// when there is none (the byte at `position` is `>`), or aborts past the end.
    fn get_an_attribute(&mut self, attribute: &mut Attribute) -> Step<bool> {
        // "1. If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR),
        // 0x20 (SP), or 0x2F (/), then advance position to the next byte and redo this
        // step."
        loop {
            let byte = self.byte()?;
            if !(is_space(byte) || byte == b'/') {
                break;
            }
            self.position += 1;
        }
        // "2. If the byte at position is 0x3E (>), then abort the get an attribute
        // algorithm. There isn't one."
        if self.byte()? == b'>' {
            return Ok(false);
        }
        // "3. Otherwise, the byte at position is the start of the attribute name. Let
        // attribute name and attribute value be the empty string."
        attribute.name.clear();
        attribute.value.clear();
        // "4. Process the byte at position as follows:" / "5. Advance position to the next
        // byte and return to the previous step."
        let at_value = loop {
            match self.byte()? {
                // "If it is 0x3D (=), and the attribute name is longer than the empty
                // string": "Advance position to the next byte and jump to the step below
                // labeled value."
                b'=' if !attribute.name.is_empty() => {
                    self.position += 1;
                    break true;
                }
                // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), or 0x20 (SP)":
                // "Jump to the step below labeled spaces."
                byte if is_space(byte) => break false,
                // "If it is 0x2F (/) or 0x3E (>)": "Abort the get an attribute algorithm.
                // The attribute's name is the value of attribute name, its value is the
                // empty string."
                b'/' | b'>' => return Ok(true),
                // "If it is in the range 0x41 (A) to 0x5A (Z)": append b+0x20; "Anything
                // else": append the byte.
                byte => attribute.name.push(byte.to_ascii_lowercase()),
            }
            self.position += 1;
        };
        if !at_value {
            // "6. Spaces: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C
            // (FF), 0x0D (CR), or 0x20 (SP), then advance position to the next byte, then,
            // repeat this step."
            while is_space(self.byte()?) {
                self.position += 1;
            }
            // "7. If the byte at position is not 0x3D (=), abort the get an attribute
            // algorithm. The attribute's name is the value of attribute name, its value
            // is the empty string."
            if self.byte()? != b'=' {
                return Ok(true);
            }
            // "8. Advance position past the 0x3D (=) byte."
            self.position += 1;
        }
        // "9. Value: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF),
        // 0x0D (CR), or 0x20 (SP), then advance position to the next byte, then, repeat
        // this step."
        while is_space(self.byte()?) {
            self.position += 1;
        }
        // "10. Process the byte at position as follows:"
        match self.byte()? {
            // "If it is 0x22 (") or 0x27 (')":
            quote @ (b'"' | b'\'') => loop {
                // "2. Quote loop: Advance position to the next byte."
                self.position += 1;
                let byte = self.byte()?;
                // "3. If the value of the byte at position is the value of b, then advance
                // position to the next byte and abort the "get an attribute" algorithm."
                if byte == quote {
                    self.position += 1;
                    return Ok(true);
                }
                // "4./5." append the byte, A-Z lowercased; "6. Return to the step above
                // labeled quote loop."
                attribute.value.push(byte.to_ascii_lowercase());
            },
            // "If it is 0x3E (>)": "Abort the get an attribute algorithm. The attribute's
            // name is the value of attribute name, its value is the empty string."
            b'>' => return Ok(true),
            // A-Z lowercased, anything else as is; "Advance position to the next byte."
            byte => {
                attribute.value.push(byte.to_ascii_lowercase());
                self.position += 1;
            }
        }
        // "11. Process the byte at position as follows:" / "12. Advance position to the
        // next byte and return to the previous step."
        loop {
            let byte = self.byte()?;
            // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E
            // (>)": "Abort the get an attribute algorithm. The attribute's name is the
            // value of attribute name and its value is the value of attribute value."
            if is_space(byte) || byte == b'>' {
                return Ok(true);
            }
            attribute.value.push(byte.to_ascii_lowercase());
            self.position += 1;
        }
    }
}

/// Case-insensitive `<meta` followed by a space or a slash.
fn is_meta_start(rest: &[u8]) -> bool {
    rest.len() >= 6
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (is_space(rest[5]) || rest[5] == b'/')
}

/// `<`, an optional `/`, then an ASCII letter.
fn is_tag_start(rest: &[u8]) -> bool {
    match rest {
        [b'<', b'/', letter, ..] | [b'<', letter, ..] => letter.is_ascii_alphabetic(),
        _ => false,
    }
}

/// HTML § 2.6.4 (urls-and-fetching) "algorithm for extracting a character encoding from a
/// meta element", given the `content` attribute's value. None is the spec's "nothing" and
/// also "getting an encoding" returning failure.
pub(super) fn extract_from_meta_content(s: &[u8]) -> Option<&'static Encoding> {
    // "1. Let position be a pointer into s, initially pointing at the start of the string."
    let mut position = 0;
    loop {
        // "2. Loop: Find the first seven characters in s after position that are an ASCII
        // case-insensitive match for the word "charset". If no such match is found, return
        // nothing."
        let found = s[position..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        position += found + 7;
        // "3. Skip any ASCII whitespace that immediately follow the word "charset" (there
        // might not be any)."
        while s.get(position).is_some_and(|&b| is_space(b)) {
            position += 1;
        }
        // "4. If the next character is not a U+003D EQUALS SIGN (=), then move position to
        // point just before that next character, and jump back to the step labeled loop."
        if s.get(position) != Some(&b'=') {
            continue;
        }
        position += 1;
        // "5. Skip any ASCII whitespace that immediately follow the equals sign (there
        // might not be any)."
        while s.get(position).is_some_and(|&b| is_space(b)) {
            position += 1;
        }
        // "6. Process the next character as follows:"
        return match s.get(position) {
            // "If there is no next character": "Return nothing."
            None => None,
            // "If it is a U+0022 (") and there is a later U+0022 (") in s", same for
            // U+0027 ('): "Return the result of getting an encoding from the substring that
            // is between this character and the next earliest occurrence of this
            // character." An unmatched quote: "Return nothing."
            Some(&quote @ (b'"' | b'\'')) => {
                let value = &s[position + 1..];
                let end = memchr::memchr(quote, value)?;
                Encoding::for_label(&value[..end])
            }
            // "Otherwise": "Return the result of getting an encoding from the substring that
            // consists of this character up to but not including the first ASCII
            // whitespace or U+003B SEMICOLON character (;), or the end of s, whichever
            // comes first."
            Some(_) => {
                let value = &s[position..];
                let end = value
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(value.len());
                Encoding::for_label(&value[..end])
            }
        };
    }
}

/// The spec's "get an XML encoding", run when the prescan aborts: an `encoding="…"` in an
/// `<?xml` declaration at the very start.
fn get_an_xml_encoding(input: &[u8]) -> Option<&'static Encoding> {
    // "1. Let encodingPosition be a pointer to the start of the stream."
    // "2. If encodingPosition does not point to the start of a byte sequence 0x3C, 0x3F,
    // 0x78, 0x6D, 0x6C (`<?xml`), then return failure."
    if !input.starts_with(b"<?xml") {
        return None;
    }
    // "3. Let xmlDeclarationEnd be a pointer to the next byte in the input byte stream
    // which is 0x3E (>). If there is no such byte, then return failure."
    let declaration = &input[..memchr::memchr(b'>', input)?];
    // "4. Set encodingPosition to the position of the first occurrence of the subsequence
    // of bytes `encoding` at or after the current encodingPosition. If there is no such
    // sequence, then return failure." (Searched within the declaration, which is what
    // xmlDeclarationEnd is for, as in WebKit and Chromium.)
    // "5. Advance encodingPosition past the 0x67 (g) byte."
    let mut position = memchr::memmem::find(declaration, b"encoding")? + 8;
    // "6. While the byte at encodingPosition is less than or equal to 0x20 (i.e., it is
    // either an ASCII space or control character), advance encodingPosition to the next
    // byte."
    while declaration.get(position).is_some_and(|&b| b <= 0x20) {
        position += 1;
    }
    // "7. If the byte at encodingPosition is not 0x3D (=), then return failure."
    if declaration.get(position) != Some(&b'=') {
        return None;
    }
    // "8. Advance encodingPosition to the next byte."
    position += 1;
    // "9. While the byte at encodingPosition is less than or equal to 0x20 …, advance
    // encodingPosition to the next byte."
    while declaration.get(position).is_some_and(|&b| b <= 0x20) {
        position += 1;
    }
    // "10. Let quoteMark be the byte at encodingPosition."
    // "11. If quoteMark is not either 0x22 (") or 0x27 ('), then return failure."
    let quote = *declaration.get(position)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    // "12. Advance encodingPosition to the next byte."
    position += 1;
    // "13. Let encodingEndPosition be the position of the next occurrence of quoteMark at
    // or after encodingPosition. If quoteMark does not occur again, then return failure."
    let length = memchr::memchr(quote, &declaration[position..])?;
    // "14. Let potentialEncoding be the sequence of the bytes between encodingPosition
    // (inclusive) and encodingEndPosition (exclusive)."
    let potential = &declaration[position..position + length];
    // "15. If potentialEncoding contains one or more bytes whose byte value is 0x20 or
    // below, then return failure."
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // "16. Let encoding be the result of getting an encoding given potentialEncoding
    // isomorphic decoded."
    let encoding = Encoding::for_label(potential)?;
    // "17. If the encoding is UTF-16BE/LE, then change it to UTF-8."
    if encoding == UTF_16BE || encoding == UTF_16LE {
        return Some(UTF_8);
    }
    // "18. Return encoding."
    Some(encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_an_attribute_forms() {
        let cases: &[(&[u8], Option<&str>)] = &[
            (b"<meta charset=koi8-r>", Some("KOI8-R")),
            (b"<META CHARSET='Big5'>", Some("Big5")),
            (b"<meta/charset=\"euc-kr\"/>", Some("EUC-KR")),
            (b"<meta charset = gbk >", Some("GBK")),
            (b"<meta name=x charset=gbk", None), // runs out of bytes
            (b"<meta charset=bogus>", None),
            (b"<meta charset=\"\">", None),
            (b"<metacharset=gbk>", None),
            (
                b"<meta http-equiv=Content-Type content='text/html; charset=koi8-u'>",
                Some("KOI8-U"),
            ),
            (b"<meta content='text/html; charset=koi8-u'>", None), // needs the pragma
            (
                b"<meta content='charset=koi8-u' http-equiv=content-type>",
                Some("KOI8-U"),
            ),
            (
                b"<meta charset=bogus content='charset=gbk' http-equiv=content-type>",
                None,
            ),
            (
                b"<meta content='charset=gbk' charset=bogus http-equiv=content-type>",
                None,
            ),
            (b"<meta charset=gbk charset=big5>", Some("GBK")), // duplicate ignored
            (b"<meta charset=utf-16le>", Some("UTF-8")),
            (b"<meta charset=x-user-defined>", Some("windows-1252")),
            (
                b"<!-- <meta charset=gbk> --><meta charset=big5>",
                Some("Big5"),
            ),
            (b"<!--><meta charset=big5>", Some("Big5")),
            (
                b"<p title='<meta charset=gbk>'><meta charset=big5>",
                Some("Big5"),
            ),
            // `<?` ends at the first `>`, then `'; ?>` are other bytes.
            (b"<?php echo '>'; ?><meta charset=big5>", Some("Big5")),
            (
                b"<!DOCTYPE html><?php x ?><meta charset=big5>",
                Some("Big5"),
            ),
            (
                b"<! <meta charset=gbk> --><meta charset=big5>",
                Some("Big5"),
            ),
            (b"</p foo='>'><meta charset=big5>", Some("Big5")),
            (
                b"<?xml version='1.0' encoding='ISO-8859-2'?><p>",
                Some("ISO-8859-2"),
            ),
            (b"<?xml version='1.0' encoding='utf-16'?><p>", Some("UTF-8")),
            (b"<\0?\0x\0m\0l\0", Some("UTF-16LE")),
            (b"\0<\0?\0x\0m\0l", Some("UTF-16BE")),
        ];
        for &(input, expected) in cases {
            assert_eq!(
                prescan(input).map(Encoding::name),
                expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn meta_content_extraction() {
        let cases: &[(&[u8], Option<&str>)] = &[
            (b"text/html; charset=utf-8", Some("UTF-8")),
            (b"text/html;charset = 'koi8-r' ", Some("KOI8-R")),
            (b"text/html; charset=\"gbk", None),
            (b"text/html; charset=", None),
            (b"charsetcharset=gbk", Some("GBK")),
            (b"text/html; charset; charset=big5", Some("Big5")),
            (b"text/html; charset=shift_jis;foo", Some("Shift_JIS")),
        ];
        for &(input, expected) in cases {
            assert_eq!(
                extract_from_meta_content(input).map(Encoding::name),
                expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
