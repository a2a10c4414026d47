//! Text written as Markdown text: a character that would start Markdown syntax where it
//! stands is escaped with a backslash (CommonMark § 2.4), and no other, so that prose
//! reads as it was written (`snake_case`, `2 * 3`, `AT&T` and `[1]` stay as they are).

/// Bytes that may start inline syntax wherever they stand (whether they do depends on
/// their neighbours: [`needs_escape`]).
const INLINE: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\\`*_[]<&~";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C')
}

/// A letter or digit as the emphasis rules see it (every non-ASCII byte counts as one).
pub(crate) fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

/// Whether `b`, between `prev` and `rest` (the bytes after it in the same stretch of
/// text; the stretch's end is taken as unknown), would start Markdown syntax:
/// - `\` before ASCII punctuation (an escape itself), and every backtick (a code span);
/// - `*` and `~` unless whitespace is on both sides (then they can neither open nor
///   close emphasis or strikethrough), `_` unless it is inside a word as well;
/// - `[` and `]` inside a link's text, and a `]` that a `(`, `[` or `:` follows (a link,
///   a reference or a definition: without those, a bracket is text; a `]` that ends the
///   stretch is left alone, and what follows it is escaped instead: [`push_text`]);
/// - `<` before a letter, `/`, `!` or `?` (an HTML tag or an autolink);
/// - `&` that begins an entity or numeric reference (`&amp;`, `&#38;`).
fn needs_escape(b: u8, prev: u8, rest: &[u8], in_link: bool) -> bool {
    let next = rest.first().copied();
    match b {
        b'\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
        b'`' => true,
        b'*' | b'~' => !(is_space(prev) && next.is_some_and(is_space)),
        b'_' => {
            let inside_word = is_word(prev) && next.is_some_and(is_word);
            let alone = is_space(prev) && next.is_some_and(is_space);
            !(inside_word || alone)
        }
        b'[' => in_link,
        b']' => in_link || next.is_some_and(|n| matches!(n, b'(' | b'[' | b':')),
        b'<' => next.is_none_or(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?')),
        b'&' => {
            next == Some(b'#') || {
                let name = rest
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .count();
                name > 0 && rest.get(name) == Some(&b';')
            }
        }
        _ => false,
    }
}

/// Appends `text` (UTF-8, no line break in it) to `out` escaped. `line_start`: the text
/// begins a line, where `#`, `>`, `=`, list markers and fences would begin a block;
/// `in_link`: it is a link's text.
pub(crate) fn push_text(out: &mut Vec<u8>, text: &[u8], line_start: bool, in_link: bool) {
    let mut from = if line_start {
        escape_line_start(out, text)
    } else {
        0
    };
    // A `]` the text before ended with, followed now by what makes it a link.
    if from == 0
        && out.last() == Some(&b']')
        && let Some(&first @ (b'(' | b'[' | b':')) = text.first()
    {
        out.extend_from_slice(&[b'\\', first]);
        from = 1;
    }
    let mut copied = from;
    for i in from..text.len() {
        let b = text[i];
        if !INLINE[usize::from(b)] {
            continue;
        }
        let prev = match i {
            0 => out.last().copied().unwrap_or(b'\n'),
            _ => text[i - 1],
        };
        if needs_escape(b, prev, &text[i + 1..], in_link) {
            out.extend_from_slice(&text[copied..i]);
            out.push(b'\\');
            copied = i;
        }
    }
    out.extend_from_slice(&text[copied..]);
}

/// Writes the escaped beginning of a line's text (the marker of a heading, a block
/// quote, a list item, a thematic break, a setext underline or a fence, with its
/// backslash) and returns how many of its bytes that took (0 when it begins no block).
fn escape_line_start(out: &mut Vec<u8>, text: &[u8]) -> usize {
    let Some(&first) = text.first() else {
        return 0;
    };
    let next = text.get(1).copied();
    let escape_first = match first {
        b'#' | b'>' | b'=' | b'*' | b'_' | b'`' | b'~' => true,
        b'-' => next.is_none_or(|n| n == b' ' || n == b'-'),
        b'+' => next.is_none_or(|n| n == b' '),
        _ => false,
    };
    if escape_first {
        out.extend_from_slice(&[b'\\', first]);
        return 1;
    }
    // An ordered list marker: one to nine digits, then `.` or `)`, then a space or the
    // end.
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if (1..=9).contains(&digits)
        && let Some(&mark @ (b'.' | b')')) = text.get(digits)
        && text.get(digits + 1).is_none_or(|&b| b == b' ')
    {
        out.extend_from_slice(&text[..digits]);
        out.extend_from_slice(&[b'\\', mark]);
        return digits + 1;
    }
    0
}

/// Appends `text` escaped as the alternative text of an image (between `![` and `]`):
/// brackets and backslashes escaped, line breaks as spaces.
pub(crate) fn push_alt(out: &mut Vec<u8>, text: &str) {
    for b in text.trim().bytes() {
        match b {
            b'[' | b']' | b'\\' => out.extend_from_slice(&[b'\\', b]),
            b'\n' | b'\r' | b'\t' | b'\x0C' => out.push(b' '),
            _ => out.push(b),
        }
    }
}

/// Appends a link or image destination: as it is, or between `<` and `>` when it holds
/// a space or a parenthesis (`<` and `>` percent-encoded there), so that it reads back
/// whole.
pub(crate) fn push_destination(out: &mut Vec<u8>, url: &str) {
    if !url
        .bytes()
        .any(|b| matches!(b, b' ' | b'(' | b')' | b'<' | b'>') || b < 0x20)
    {
        out.extend_from_slice(url.as_bytes());
        return;
    }
    out.push(b'<');
    for b in url.bytes() {
        match b {
            b'<' => out.extend_from_slice(b"%3C"),
            b'>' => out.extend_from_slice(b"%3E"),
            b'\\' => out.extend_from_slice(b"%5C"),
            b if b < 0x20 => {}
            _ => out.push(b),
        }
    }
    out.push(b'>');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str, line_start: bool) -> String {
        let mut out = Vec::new();
        push_text(&mut out, text.as_bytes(), line_start, false);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn prose_stays_as_written() {
        for text in [
            "snake_case",
            "2 * 3 = 6",
            "AT&T",
            "see [1] and [2]",
            "a <= b",
            "C# and F#",
        ] {
            assert_eq!(escaped(text, false), text);
        }
    }

    #[test]
    fn syntax_is_escaped() {
        assert_eq!(escaped("*bold*", false), "\\*bold\\*");
        assert_eq!(escaped("_it_", false), "\\_it\\_");
        assert_eq!(escaped("[a](b)", false), "[a\\](b)");
        assert_eq!(escaped("<div>", false), "\\<div>");
        assert_eq!(escaped("&amp; &#38;", false), "\\&amp; \\&#38;");
        assert_eq!(escaped("`x`", false), "\\`x\\`");
        assert_eq!(escaped("~~gone~~", false), "\\~\\~gone\\~\\~");
    }

    #[test]
    fn block_markers_are_escaped_at_a_line_start_only() {
        assert_eq!(escaped("# not a heading", true), "\\# not a heading");
        assert_eq!(escaped("# x", false), "# x");
        assert_eq!(escaped("- item", true), "\\- item");
        assert_eq!(escaped("-5 degrees", true), "-5 degrees");
        assert_eq!(escaped("2024. A year", true), "2024\\. A year");
        assert_eq!(escaped("3.5 stars", true), "3.5 stars");
        assert_eq!(escaped("> quote", true), "\\> quote");
        assert_eq!(escaped("===", true), "\\===");
    }
}
