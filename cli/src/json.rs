//! JSON output: one object per token (the CLI's default), and the html5lib test format.
//!
//! Hand-written: a few dozen lines, where serde would add a dependency and a copy of each
//! token into a serialisable struct. Strings are
//! escaped per RFC 8259: `"`, `\` and control characters escaped, everything else written
//! as UTF-8.

use std::fmt::Write as _;

use htmltok::{ParseError, Position, PositionTracker, State, Token, Tokenizer};

/// Appends `s` as a JSON string literal.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    write_str_content(out, s);
    out.push('"');
}

/// Appends the key of an object member after an earlier one: `,"name":` (`name` needs
/// no escaping).
pub fn write_key(out: &mut String, name: &str) {
    out.push_str(",\"");
    out.push_str(name);
    out.push_str("\":");
}

/// Appends a member after an earlier one: `,"name":` and the string, or `null`.
pub fn write_member(out: &mut String, name: &str, value: Option<&str>) {
    write_key(out, name);
    match value {
        Some(value) => write_str(out, value),
        None => out.push_str("null"),
    }
}

/// Appends `s` escaped as inside a JSON string literal, without the quotes (a text run
/// that comes in pieces is escaped piece by piece).
pub fn write_str_content(out: &mut String, s: &str) {
    let mut plain_start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1F | 0x7F => "",
            _ => continue,
        };
        out.push_str(&s[plain_start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{:04x}", b);
        } else {
            out.push_str(escape);
        }
        plain_start = i + 1;
    }
    out.push_str(&s[plain_start..]);
}

/// Appends `x` as a JSON number, always with a fraction or an exponent (`0.0`, `0.75`,
/// `1e-7`: readers that type numbers read a float), the shortest that reads back as `x`;
/// `null` for a NaN or an infinity, which JSON has no numbers for.
pub fn write_f32(out: &mut String, x: f32) {
    if x.is_finite() {
        let _ = write!(out, "{x:?}");
    } else {
        out.push_str("null");
    }
}

fn write_opt_str(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => write_str(out, s),
        None => out.push_str("null"),
    }
}

/// Appends one token as a JSON object (no newline):
/// `{"type":"StartTag","start":12,"end":40,"name":"a","attrs":[["href","/x"]],"self_closing":false}`.
pub fn write_token(out: &mut String, token: &Token<'_, '_>) {
    write_token_at(out, token, 0);
}

/// [`write_token`] for a token whose offsets are relative to `base` (a stream
/// tokenizer's): the object's `start` and `end` are `base` plus the token's.
pub fn write_token_at(out: &mut String, token: &Token<'_, '_>, base: usize) {
    let span = token.span();
    let span = htmltok::Span::new(span.start + base, span.end + base);
    let kind = token.kind_name();
    let _ = write!(
        out,
        "{{\"type\":\"{kind}\",\"start\":{},\"end\":{}",
        span.start, span.end
    );
    match token {
        Token::Doctype(d) => {
            out.push_str(",\"name\":");
            write_opt_str(out, d.name().as_deref());
            out.push_str(",\"public_id\":");
            write_opt_str(out, d.public_id().as_deref());
            out.push_str(",\"system_id\":");
            write_opt_str(out, d.system_id().as_deref());
            let _ = write!(out, ",\"force_quirks\":{}", d.force_quirks());
        }
        Token::StartTag(tag) | Token::EndTag(tag) => {
            out.push_str(",\"name\":");
            write_str(out, &tag.name());
            out.push_str(",\"attrs\":[");
            for (i, attr) in tag.attrs().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('[');
                write_str(out, &attr.name());
                out.push(',');
                write_str(out, &attr.value());
                out.push(']');
            }
            let _ = write!(out, "],\"self_closing\":{}", tag.self_closing());
        }
        Token::Comment(c) => {
            out.push_str(",\"data\":");
            write_str(out, &c.data());
        }
        Token::Text(t) => {
            out.push_str(",\"text\":");
            write_str(out, &t.text());
        }
    }
    out.push('}');
}

/// Appends a text token's object from its absolute span and its text already escaped by
/// [`write_str_content`] (the pieces of a text run a stream tokenizer hands out, joined):
/// the same bytes as [`write_token`] writes for the whole run.
pub fn write_text_escaped(out: &mut String, start: usize, end: usize, escaped: &str) {
    let _ = write!(
        out,
        "{{\"type\":\"Text\",\"start\":{start},\"end\":{end},\"text\":\""
    );
    out.push_str(escaped);
    out.push_str("\"}");
}

/// Appends one parse error as a JSON object (no newline):
/// `{"type":"Error","code":"eof-in-tag","offset":N,"line":L,"col":C}`.
pub fn write_error(out: &mut String, error: &ParseError, position: Position) {
    let _ = write!(
        out,
        "{{\"type\":\"Error\",\"code\":\"{}\",\"offset\":{},\"line\":{},\"col\":{}}}",
        error.code, error.offset, position.line, position.col
    );
}

/// Tokenizes `input` as the html5lib tokenizer tests do (simulation off, errors on, the
/// given initial state and last start tag) and returns
/// `{"output":[...],"errors":[...]}` in the tests' format, adjacent character tokens
/// coalesced.
pub fn html5lib(input: &[u8], state: State, last_start_tag: Option<&str>) -> String {
    // The tests' inputs are decoded streams: a U+FEFF in them is content.
    let mut builder = Tokenizer::builder()
        .errors(true)
        .simulation(false)
        .keep_bom(true)
        .state(state);
    if let Some(name) = last_start_tag {
        builder = builder.last_start_tag(name);
    }
    let mut tok = builder.build(input);
    let mut out = String::from("{\"output\":[");
    let mut first = true;
    let mut text = String::new();
    let mut separator = |out: &mut String| {
        if !std::mem::replace(&mut first, false) {
            out.push(',');
        }
    };
    let flush_text = |out: &mut String, text: &mut String, sep: &mut dyn FnMut(&mut String)| {
        if !text.is_empty() {
            sep(out);
            out.push_str("[\"Character\",");
            write_str(out, text);
            out.push(']');
            text.clear();
        }
    };
    while let Some(token) = tok.next_token() {
        if let Token::Text(t) = &token {
            text.push_str(&t.text());
            continue;
        }
        flush_text(&mut out, &mut text, &mut separator);
        separator(&mut out);
        match &token {
            Token::Doctype(d) => {
                out.push_str("[\"DOCTYPE\",");
                write_opt_str(&mut out, d.name().as_deref());
                out.push(',');
                write_opt_str(&mut out, d.public_id().as_deref());
                out.push(',');
                write_opt_str(&mut out, d.system_id().as_deref());
                let _ = write!(out, ",{}]", !d.force_quirks());
            }
            Token::StartTag(tag) => {
                out.push_str("[\"StartTag\",");
                write_str(&mut out, &tag.name());
                out.push_str(",{");
                for (i, attr) in tag.attrs().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(&mut out, &attr.name());
                    out.push(':');
                    write_str(&mut out, &attr.value());
                }
                out.push('}');
                if tag.self_closing() {
                    out.push_str(",true");
                }
                out.push(']');
            }
            Token::EndTag(tag) => {
                out.push_str("[\"EndTag\",");
                write_str(&mut out, &tag.name());
                out.push(']');
            }
            Token::Comment(c) => {
                out.push_str("[\"Comment\",");
                write_str(&mut out, &c.data());
                out.push(']');
            }
            Token::Text(_) => unreachable!("handled above"),
        }
    }
    flush_text(&mut out, &mut text, &mut separator);
    out.push_str("],\"errors\":[");
    let mut positions = PositionTracker::new(input);
    for (i, error) in tok.errors().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let p = positions.position(error.offset);
        let _ = write!(
            out,
            "{{\"code\":\"{}\",\"line\":{},\"col\":{}}}",
            error.code, p.line, p.col
        );
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let mut out = String::new();
        write_str(&mut out, "a\"b\\c\nd\u{1}é\u{7f}");
        assert_eq!(out, r#""a\"b\\c\nd\u0001é\u007f""#);
    }

    #[test]
    fn html5lib_format_coalesces_text() {
        let json = html5lib(b"a<b c='d'/>e&amp;f<!--x--></b>", State::Data, None);
        assert_eq!(
            json,
            r#"{"output":[["Character","a"],["StartTag","b",{"c":"d"},true],["Character","e&f"],["Comment","x"],["EndTag","b"]],"errors":[]}"#
        );
    }
}
