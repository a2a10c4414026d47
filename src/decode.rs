//! Lazy decoding of token spans into text.
//!
//! Character references, newline normalisation, NUL replacement and ASCII lowercasing never
//! move a token's boundaries, so every piece of token text is one contiguous slice of the
//! input plus a transform that depends only on where the slice came from (its [`Context`]).
//! Decoding returns `Cow::Borrowed` when no transform applies and the bytes are valid UTF-8:
//! the common case costs one scan and no allocation.

use std::borrow::Cow;

use crate::charref;
use crate::span::Span;

/// Where a slice of the input came from; it decides which transforms apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// Data state text: character references; NUL stays U+0000.
    DataText,
    /// RCDATA text: character references; NUL becomes U+FFFD.
    RcdataText,
    /// RAWTEXT, script data, PLAINTEXT; comments; DOCTYPE identifiers: NUL becomes U+FFFD.
    Verbatim,
    /// CDATA section content: nothing but newlines changes; NUL stays U+0000.
    Cdata,
    /// Attribute values: character references with the attribute rule; NUL becomes U+FFFD.
    AttributeValue,
    /// Tag, attribute and DOCTYPE names: ASCII lowercase; NUL becomes U+FFFD.
    Name,
}

impl Context {
    /// The bytes this context transforms (besides invalid UTF-8).
    pub(crate) fn specials(self) -> u8 {
        use crate::scan::special::*;
        match self {
            Context::DataText => AMP | CR,
            Context::RcdataText | Context::AttributeValue => AMP | CR | NUL,
            Context::Verbatim => CR | NUL,
            Context::Cdata => CR,
            Context::Name => CR | NUL | UPPER,
        }
    }

    fn has_char_refs(self) -> bool {
        matches!(
            self,
            Context::DataText | Context::RcdataText | Context::AttributeValue
        )
    }

    fn replaces_nul(self) -> bool {
        !matches!(self, Context::DataText | Context::Cdata)
    }
}

/// Decodes `bytes` as the spec's tokenizer would have produced them in `context`.
#[inline]
pub(crate) fn decode(bytes: &[u8], context: Context) -> Cow<'_, str> {
    decode_span(bytes, Span::new(0, bytes.len()), context)
}

/// Decodes the span of `input` as the spec's tokenizer would have produced it in
/// `context`. The span's neighbours in `input` let the fast path read whole blocks (see
/// [`crate::scan::plain_ascii_span`]). Inlined, so that the context's constant specials
/// fold into the SIMD test.
#[inline(always)]
pub(crate) fn decode_span(input: &[u8], span: Span, context: Context) -> Cow<'_, str> {
    // The common case, answered in one pass: ASCII with nothing to transform.
    match crate::scan::plain_ascii_span(input, span.start, span.end, context.specials()) {
        Ok(s) => Cow::Borrowed(s),
        Err(plain_prefix) => decode_general(span.of(input), context, plain_prefix),
    }
}

/// The span's text when decoding in `context` leaves it as it is and it is ASCII (the
/// fast path of [`decode_span`] alone), else None.
#[inline(always)]
pub(crate) fn unchanged_span(input: &[u8], span: Span, context: Context) -> Option<&str> {
    crate::scan::plain_ascii_span(input, span.start, span.end, context.specials()).ok()
}

/// [`decode_span`], and whether the decoded text may hold U+0000 (which the tree builder
/// drops or replaces in data-state text and CDATA, the two contexts that keep it). For
/// plain ASCII text, the common case, the answer (no) comes from the same one pass, with
/// NUL among the bytes it looks for; else the bytes after the plain prefix are searched.
/// A character reference never decodes to U+0000, so the input's bytes tell.
#[inline(always)]
pub(crate) fn decode_span_nul(input: &[u8], span: Span, context: Context) -> (Cow<'_, str>, bool) {
    if context.replaces_nul() {
        return (decode_span(input, span, context), false);
    }
    let specials = context.specials() | crate::scan::special::NUL;
    match crate::scan::plain_ascii_span(input, span.start, span.end, specials) {
        Ok(s) => (Cow::Borrowed(s), false),
        Err(plain_prefix) => {
            let bytes = span.of(input);
            let nul = memchr::memchr(0, &bytes[plain_prefix..]).is_some();
            (decode_general(bytes, context, plain_prefix), nul)
        }
    }
}

/// [`decode_span_nul`] over an input known to be UTF-8: `input` is the whole input as a
/// `&str`. Only the UTF-8 checks differ: a span that is not plain ASCII is taken from
/// `input` by `str::get` (two char-boundary tests) instead of being validated again, and
/// so are the runs decoding copies. The answer is the same as `decode_span_nul` on
/// `input.as_bytes()`.
#[inline(always)]
pub(crate) fn decode_str_span_nul<'a>(
    input: &'a str,
    span: Span,
    context: Context,
) -> (Cow<'a, str>, bool) {
    let bytes = input.as_bytes();
    let nul = if context.replaces_nul() {
        0
    } else {
        crate::scan::special::NUL
    };
    match crate::scan::plain_ascii_span(bytes, span.start, span.end, context.specials() | nul) {
        Ok(s) => (Cow::Borrowed(s), false),
        Err(plain_prefix) => match input.get(span.start..span.end) {
            Some(text) => {
                let may_have_nul =
                    nul != 0 && memchr::memchr(0, &text.as_bytes()[plain_prefix..]).is_some();
                (
                    decode_general_str(text, context, plain_prefix),
                    may_have_nul,
                )
            }
            // Never for the tokenizer's spans, which start and end at ASCII bytes or at
            // the input's ends; kept safe for any span.
            None => decode_span_nul(bytes, span, context),
        },
    }
}

/// What [`crate::Text::text_or_raw`] gave: decoded text, or the raw text, not decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextForm {
    /// The decoded text; it holds no U+0000.
    Decoded,
    /// The decoded text; it may hold U+0000 (its kind keeps NUL, and a raw NUL is there).
    DecodedMayHaveNul,
    /// The raw text, valid UTF-8 but not decoded: decoding may change it
    /// ([`crate::TextKind::decode`]). It holds no U+0000 once decoded.
    Raw,
}

/// [`decode_span_nul`] (over `input_str` when it is the whole input as a `&str`, as
/// [`decode_str_span_nul`]; any other `input_str` is not read), unless decoding may change the text, which is valid UTF-8
/// and keeps no U+0000: then the raw text, not decoded ([`TextForm::Raw`]), for a tree
/// builder that stores such a text's span and decodes it when read
/// (`TextKind::decode`). "May change": the text holds a byte the context transforms (an
/// `&`, which may start a character reference, a CR, a NUL the context replaces). Plain
/// ASCII text is answered by the one pass [`decode_span_nul`] makes; the rest of the
/// text is searched out of line.
#[inline(always)]
pub(crate) fn span_or_raw<'a>(
    input: &'a [u8],
    input_str: Option<&'a str>,
    span: Span,
    context: Context,
) -> (Cow<'a, str>, TextForm) {
    let nul = if context.replaces_nul() {
        0
    } else {
        crate::scan::special::NUL
    };
    match crate::scan::plain_ascii_span(input, span.start, span.end, context.specials() | nul) {
        Ok(s) => (Cow::Borrowed(s), TextForm::Decoded),
        Err(plain_prefix) => after_plain_prefix(input, input_str, span, context, plain_prefix),
    }
}

/// [`span_or_raw`] past the plain prefix: text that is not plain ASCII or holds a byte
/// that decoding may transform.
#[inline(never)]
fn after_plain_prefix<'a>(
    input: &'a [u8],
    input_str: Option<&'a str>,
    span: Span,
    context: Context,
    plain_prefix: usize,
) -> (Cow<'a, str>, TextForm) {
    let bytes = span.of(input);
    // The span's text from `input_str` when that is the whole input, else validated.
    let text = match input_str
        .filter(|s| std::ptr::eq(s.as_bytes(), input))
        .and_then(|s| s.get(span.start..span.end))
    {
        Some(text) => Some(text),
        None => crate::scan::str_after_ascii_prefix(bytes, plain_prefix),
    };
    let rest = &bytes[plain_prefix..];
    // The first byte the context transforms, or a NUL it keeps: one search (a search for
    // NUL over the whole rest and one for the others cost a second pass over every text
    // that is not plain ASCII).
    let kept = if context.replaces_nul() {
        0
    } else {
        crate::scan::special::NUL
    };
    let first = crate::scan::find_special(rest, context.specials() | kept);
    // A raw NUL that the context keeps (at or after that first byte): the text is decoded
    // now (the tree builder's rules drop or replace U+0000 as they meet it; rare).
    if kept != 0 && first.is_some_and(|at| memchr::memchr(0, &rest[at..]).is_some()) {
        let decoded = match text {
            Some(text) => decode_valid(text, context, plain_prefix),
            None => decode_general(bytes, context, plain_prefix),
        };
        return (decoded, TextForm::DecodedMayHaveNul);
    }
    match text {
        Some(text) if first.is_some() => (Cow::Borrowed(text), TextForm::Raw),
        // Nothing to transform, but not ASCII: unchanged.
        Some(text) => (Cow::Borrowed(text), TextForm::Decoded),
        // Invalid UTF-8 (decoding replaces its sequences): decoded now.
        None => (
            decode_general(bytes, context, plain_prefix),
            TextForm::Decoded,
        ),
    }
}

/// [`decode_span`] over an input known to be UTF-8 (see [`decode_str_span_nul`]).
#[inline(always)]
pub(crate) fn decode_str_span(input: &str, span: Span, context: Context) -> Cow<'_, str> {
    let bytes = input.as_bytes();
    match crate::scan::plain_ascii_span(bytes, span.start, span.end, context.specials()) {
        Ok(s) => Cow::Borrowed(s),
        Err(plain_prefix) => match input.get(span.start..span.end) {
            Some(text) => decode_general_str(text, context, plain_prefix),
            None => decode_general(span.of(bytes), context, plain_prefix),
        },
    }
}

/// Decodes `bytes`, whose first `plain_prefix` bytes are ASCII and need no transform.
/// Valid UTF-8 (almost every text) is validated once, the whole text after the prefix,
/// and then decoded as [`decode_general_str`] decodes: validating each run the decoding
/// loop copies instead would cost a call of the validator per run, where one pass over
/// the text is as long.
#[inline(never)]
fn decode_general(bytes: &[u8], context: Context, plain_prefix: usize) -> Cow<'_, str> {
    match crate::scan::str_after_ascii_prefix(bytes, plain_prefix) {
        Some(text) => decode_valid(text, context, plain_prefix),
        None => {
            // Invalid UTF-8: each run copied with U+FFFD for its invalid sequences.
            let unchanged = unchanged_prefix(bytes, context, plain_prefix);
            Cow::Owned(decode_slow(bytes, context, unchanged))
        }
    }
}

/// [`decode_general`] for text already known to be UTF-8: no validation, so unchanged
/// text is borrowed as it is and decoding copies its runs as `&str` pieces (cut at the
/// ASCII bytes decoding transforms, so always on character boundaries).
#[inline(never)]
fn decode_general_str(text: &str, context: Context, plain_prefix: usize) -> Cow<'_, str> {
    decode_valid(text, context, plain_prefix)
}

/// The body of [`decode_general_str`], inlined into it and into [`decode_general`].
#[inline(always)]
fn decode_valid(text: &str, context: Context, plain_prefix: usize) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let unchanged = unchanged_prefix(bytes, context, plain_prefix);
    if unchanged.len == bytes.len() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(decode_slow_str(text, context, unchanged))
}

/// Where decoding first changes a text: see [`unchanged_prefix`].
#[derive(Clone, Copy)]
struct Unchanged {
    /// The length of the prefix that decoding leaves as it is.
    len: usize,
    /// When the prefix ends at a character reference, that reference resolved (its
    /// replacement and the length after the `&`): the decoding loop starts after it
    /// instead of resolving it a second time.
    reference: Option<(charref::Value, usize)>,
}

/// The prefix of `bytes` (at least `from` long) that decoding leaves as it is, apart from
/// invalid UTF-8: it ends at the first byte that is transformed. An `&` that starts no
/// character reference (`a=1&b=2` in a URL, say) changes nothing, so a value full of them
/// still borrows. Inlined into its callers: out of line, the call is a cost on the
/// tokenizer's decoding path.
#[inline(always)]
fn unchanged_prefix(bytes: &[u8], context: Context, from: usize) -> Unchanged {
    let mut i = from;
    loop {
        let Some(offset) = next_special(&bytes[i..], context) else {
            return Unchanged {
                len: bytes.len(),
                reference: None,
            };
        };
        i += offset;
        if bytes[i] == b'&' {
            let reference = charref::resolve(
                &bytes[i + 1..],
                context == Context::AttributeValue,
                &mut |_, _| {},
            );
            let Some(value) = reference.value else {
                i += 1;
                continue;
            };
            return Unchanged {
                len: i,
                reference: Some((value, reference.len)),
            };
        } else if bytes[i] == 0 && !context.replaces_nul() {
            i += 1;
            continue;
        }
        return Unchanged {
            len: i,
            reference: None,
        };
    }
}

/// The offset of the first byte in `bytes` that `context` may transform (see
/// [`Context::specials`]; non-ASCII bytes are not among them).
#[inline]
fn next_special(bytes: &[u8], context: Context) -> Option<usize> {
    crate::scan::find_special(bytes, context.specials())
}

/// Decodes `bytes` into a new string; its prefix `unchanged` needs no transform. For
/// text that is not valid UTF-8 (rare): each run is validated as it is copied.
#[cold]
#[inline(never)]
fn decode_slow(bytes: &[u8], context: Context, unchanged: Unchanged) -> String {
    decode_runs(bytes, context, unchanged, |out, from, to| {
        push_lossy(out, &bytes[from..to])
    })
}

/// [`decode_slow`] for `bytes` known to be UTF-8 (`text`): the runs copied as they are
/// are `&str` pieces, not validated again. They end at ASCII bytes (a special) or at the
/// end, so on character boundaries; `get` checks that, with the validating copy as the
/// fallback. Inlined into both of its callers (out of line, the bytes path paid a call
/// per decoded text).
#[inline(always)]
fn decode_slow_str(text: &str, context: Context, unchanged: Unchanged) -> String {
    let bytes = text.as_bytes();
    decode_runs(bytes, context, unchanged, |out, from, to| {
        match text.get(from..to) {
            Some(run) => out.push_str(run),
            None => push_lossy(out, &bytes[from..to]),
        }
    })
}

/// The decoding loop of [`decode_slow`] and [`decode_slow_str`]: `push_run(out, from,
/// to)` appends `bytes[from..to]`, a run that needs no transform (a generic, so that
/// each caller gets its own copy with the run copy inlined).
#[inline(always)]
fn decode_runs(
    bytes: &[u8],
    context: Context,
    unchanged: Unchanged,
    push_run: impl Fn(&mut String, usize, usize),
) -> String {
    let mut out = String::with_capacity(bytes.len());
    push_run(&mut out, 0, unchanged.len);
    let mut i = unchanged.len;
    // The reference that ended the unchanged prefix was resolved in finding it.
    if let Some((value, len)) = unchanged.reference {
        value.push_to(&mut out);
        i += 1 + len;
    }
    while i < bytes.len() {
        // Copy the longest run that needs no transform in one go: only this context's
        // special bytes end it (an upper-case letter in text, say, does not).
        let run_end = next_special(&bytes[i..], context).map_or(bytes.len(), |p| i + p);
        push_run(&mut out, i, run_end);
        i = run_end;
        if i == bytes.len() {
            break;
        }
        let b = bytes[i];
        match b {
            b'\r' => {
                // 13.2.3.5: CR LF becomes LF, then every remaining CR becomes LF.
                out.push('\n');
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            }
            0 => {
                out.push(if context.replaces_nul() {
                    '\u{FFFD}'
                } else {
                    '\0'
                });
                i += 1;
            }
            b'&' if context.has_char_refs() => {
                let reference = charref::resolve(
                    &bytes[i + 1..],
                    context == Context::AttributeValue,
                    &mut |_, _| {},
                );
                match reference.value {
                    Some(value) => {
                        value.push_to(&mut out);
                        i += 1 + reference.len;
                    }
                    None => {
                        out.push('&');
                        i += 1;
                    }
                }
            }
            b'A'..=b'Z' if context == Context::Name => {
                out.push(b.to_ascii_lowercase() as char);
                i += 1;
            }
            _ => {
                out.push(b as char);
                i += 1;
            }
        }
    }
    out
}

/// Appends `bytes`, replacing each maximal invalid UTF-8 subpart with U+FFFD as the WHATWG
/// UTF-8 decoder does (`String::from_utf8_lossy` follows the same rule).
fn push_lossy(out: &mut String, bytes: &[u8]) {
    match crate::scan::utf8_str(bytes) {
        Some(s) => out.push_str(s),
        None => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}

/// True when two raw names are the same name once decoded (ASCII case-insensitive, NUL and
/// invalid bytes as U+FFFD). Used for the duplicate-attribute check.
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    if is_plain_name(a) && is_plain_name(b) {
        a.eq_ignore_ascii_case(b)
    } else {
        decode(a, Context::Name) == decode(b, Context::Name)
    }
}

/// True when a name is ASCII without NUL: its decoded form is its ASCII lowercase.
#[inline]
pub(crate) fn is_plain_name(name: &[u8]) -> bool {
    name.iter().all(|&c| c != 0 && c < 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrows_when_nothing_changes() {
        assert!(matches!(
            decode(b"plain text", Context::DataText),
            Cow::Borrowed("plain text")
        ));
        assert!(matches!(
            decode(b"div", Context::Name),
            Cow::Borrowed("div")
        ));
        assert!(matches!(
            decode(b"a&b", Context::Verbatim),
            Cow::Borrowed("a&b")
        ));
    }

    /// `name_if_unchanged` answers for exactly the names `name` borrows as they are.
    #[test]
    fn names_unchanged_only_when_decoding_borrows() {
        let input = b"<DIV class Data-X=1 \xc3\xa9=2 a\0b=3 data-y>";
        let mut tok = crate::Tokenizer::builder().simulation(false).build(input);
        let Some(crate::Token::StartTag(tag)) = tok.next_token() else {
            panic!("a start tag");
        };
        assert_eq!(tag.name_if_unchanged(), None);
        assert_eq!(tag.name(), "div");
        let names: Vec<_> = tag.attrs().map(|a| a.name_if_unchanged()).collect();
        assert_eq!(
            names,
            [Some("class"), None, None, None, Some("data-y")],
            "{:?}",
            tag.attrs().map(|a| a.name()).collect::<Vec<_>>()
        );
        for a in tag.attrs() {
            if let Some(name) = a.name_if_unchanged() {
                assert!(matches!(a.name(), Cow::Borrowed(n) if n == name));
            } else {
                assert!(matches!(a.name(), Cow::Owned(_)) || !a.name().is_ascii());
            }
        }
    }

    #[test]
    fn tells_whether_text_keeps_nul() {
        let check = |bytes: &[u8], context, text: &str, nul: bool| {
            let (decoded, may_have_nul) =
                decode_span_nul(bytes, Span::new(0, bytes.len()), context);
            assert_eq!((decoded.as_ref(), may_have_nul), (text, nul), "{bytes:?}");
        };
        let long = "plain ascii text, long enough for the block search ".repeat(3);
        check(long.as_bytes(), Context::DataText, &long, false);
        check(b"a\0b", Context::DataText, "a\0b", true);
        check(
            format!("{long}\0").as_bytes(),
            Context::DataText,
            &format!("{long}\0"),
            true,
        );
        check(
            "caf\u{e9}\0 &amp;".as_bytes(),
            Context::DataText,
            "caf\u{e9}\0 &",
            true,
        );
        check(
            "caf\u{e9} &amp;".as_bytes(),
            Context::DataText,
            "caf\u{e9} &",
            false,
        );
        check(b"a\0b", Context::Cdata, "a\0b", true);
        check(b"a\0b", Context::RcdataText, "a\u{FFFD}b", false);
        check(b"a\0b", Context::Verbatim, "a\u{FFFD}b", false);
    }

    #[test]
    fn applies_each_contexts_transforms() {
        assert_eq!(decode(b"a\r\nb\rc", Context::DataText), "a\nb\nc");
        assert_eq!(decode(b"a\0b", Context::DataText), "a\0b");
        assert_eq!(decode(b"a\0b", Context::RcdataText), "a\u{FFFD}b");
        assert_eq!(decode(b"a\0b", Context::Cdata), "a\0b");
        assert_eq!(decode(b"DiV\0", Context::Name), "div\u{FFFD}");
        assert_eq!(decode(b"x&amp;y", Context::DataText), "x&y");
        assert_eq!(decode(b"x&amp;y", Context::Verbatim), "x&amp;y");
        assert_eq!(decode(b"&notit", Context::DataText), "\u{AC}it");
        assert_eq!(decode(b"&notit", Context::AttributeValue), "&notit");
        assert_eq!(
            decode(b"\xFFa\xF0\x9F", Context::Verbatim),
            "\u{FFFD}a\u{FFFD}"
        );
        // Invalid UTF-8 with a reference to resolve (the validating path), and valid
        // non-ASCII text with references (validated once, then decoded as a `&str`).
        assert_eq!(
            decode(b"\xFF&amp;\xC3 &lt;", Context::DataText),
            "\u{FFFD}&\u{FFFD} <"
        );
        assert_eq!(
            decode("\u{e9}&amp;\u{e8}&notit&gt".as_bytes(), Context::DataText),
            "\u{e9}&\u{e8}\u{AC}it>"
        );
    }

    #[test]
    fn names_compare_after_decoding() {
        assert!(same_name(b"Href", b"hREF"));
        assert!(!same_name(b"href", b"hre"));
        assert!(same_name(b"a\0", "a\u{FFFD}".as_bytes()));
        assert!(same_name(b"a\x80", b"A\xFF"));
    }

    /// `span_or_raw` gives the raw text exactly when it is valid UTF-8 that decoding may
    /// change and that keeps no U+0000, and decoding it then gives what `decode_span_nul`
    /// gives; otherwise it is `decode_span_nul`'s answer. Over bytes and over a `&str`,
    /// short texts and long (the block search), each context a text takes.
    #[test]
    fn gives_raw_text_only_when_decoding_may_change_it() {
        let long = "plain ascii text, long enough for the block search ".repeat(3);
        let pieces: [&[u8]; 10] = [
            b"a&amp;b",
            b"a & b",
            b"x\r\ny",
            b"\0nul",
            b"\xc3\xa9t\xc3\xa9",
            b"\xc3\xa9&lt;",
            b"\xff&amp;",
            b"&#0;",
            b"&NewLine;",
            b"plain",
        ];
        for context in [
            Context::DataText,
            Context::RcdataText,
            Context::Verbatim,
            Context::Cdata,
        ] {
            for piece in pieces {
                for text in [piece.to_vec(), [long.as_bytes(), piece].concat()] {
                    let span = Span::new(0, text.len());
                    let (eager, nul) = decode_span_nul(&text, span, context);
                    let as_str = std::str::from_utf8(&text).ok();
                    for input_str in [None, as_str] {
                        let (got, form) = span_or_raw(&text, input_str, span, context);
                        match form {
                            TextForm::Raw => {
                                assert_eq!(got.as_bytes(), &text[..], "{text:?}");
                                assert!(
                                    !nul && !decode_str_span(&got, span, context).contains('\0')
                                );
                                assert_eq!(decode_str_span(&got, span, context), eager);
                            }
                            TextForm::Decoded => {
                                assert_eq!((&*got, false), (&*eager, nul), "{text:?}")
                            }
                            TextForm::DecodedMayHaveNul => {
                                assert_eq!((&*got, true), (&*eager, nul), "{text:?}")
                            }
                        }
                        let transformed = |c: u8| match c {
                            b'&' => context.has_char_refs(),
                            b'\r' => true,
                            0 => context.replaces_nul(),
                            _ => false,
                        };
                        let kept_nul = !context.replaces_nul() && text.contains(&0);
                        let raw =
                            text.iter().any(|&c| transformed(c)) && !kept_nul && as_str.is_some();
                        assert_eq!(form == TextForm::Raw, raw, "{text:?} {context:?}");
                    }
                }
            }
        }
    }
}
