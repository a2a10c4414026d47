//! The tree builder's view of a token: htmltok's token with its tag name interned and its
//! attributes decoded (lazily: `Cow::Borrowed` when nothing changes), owned by the builder
//! so that it can be reprocessed and changed (`<image>` becomes `<img>`, a run of text
//! loses its leading whitespace).

use std::borrow::Cow;

use htmltok::{Span, TextForm, TextKind, Token};

use crate::dom::{AttrRec, Characters, Dom};
use crate::names::Tag;

/// A start or end tag. Its attributes are not in it but at the end of the document's
/// attribute list (`Dom::tag_attrs`), which holds the current token's (a tag the parser
/// implies has none): with a `Vec` in it the token grows, and, assembled on the stack
/// and copied into place in pieces that straddle the stores of its fields, stalls store
/// forwarding once per tag.
#[derive(Debug)]
pub(crate) struct TagTok<'a> {
    pub(crate) end: bool,
    pub(crate) tag: Tag,
    /// The lowercase name when it is not interned (`tag` is [`Tag::Unknown`]); empty
    /// otherwise, the name then being the tag's own ([`Self::name`]): storing the
    /// interned tag's static text in every token cost an out-of-line `Tag::as_str` and
    /// three stores per tag. The one field that may own memory: [`Drive`](super::drive::Drive) drops it
    /// alone and forgets a finished token, so a new owned field must be dropped there too.
    pub(crate) other_name: Cow<'a, str>,
    pub(crate) self_closing: bool,
    /// The attributes are the document's `Dom::tag_attrs` (a start tag of the input); false
    /// for end tags and for the tags the parser implies, which have none.
    pub(crate) has_attrs: bool,
    pub(crate) span: Span,
}

impl<'a> TagTok<'a> {
    /// A start tag the parser implies (no attributes; an empty span at `at`).
    pub(crate) fn implied(tag: Tag, at: usize) -> TagTok<'a> {
        TagTok {
            end: false,
            tag,
            other_name: Cow::Borrowed(""),
            self_closing: false,
            has_attrs: false,
            span: Span::new(at, at),
        }
    }

    /// The lowercase tag name.
    pub(crate) fn name(&self) -> &str {
        if self.tag == Tag::Unknown {
            &self.other_name
        } else {
            self.tag.as_str()
        }
    }

    /// True for a start tag named `tag`.
    pub(crate) fn is_start(&self, tag: Tag) -> bool {
        !self.end && self.tag == tag
    }
}

/// A run of character tokens.
#[derive(Clone, Debug)]
pub(crate) struct TextTok<'a> {
    /// The one field that may own memory: [`Drive`](super::drive::Drive) drops it alone and forgets a finished
    /// token, so a new owned field must be dropped there too.
    pub(crate) text: Cow<'a, str>,
    pub(crate) span: Span,
    /// The text is the input's bytes at `span` (so a piece of it has an exact span).
    pub(crate) exact: bool,
    /// What the rules must look at before inserting the text: nothing (the common
    /// case), a U+0000, or the text itself, which is raw ([`Mark::Raw`]). One byte,
    /// tested once on the common path.
    pub(crate) mark: Mark,
}

impl<'a> TextTok<'a> {
    /// The token's text as decoded characters to insert, read where it lies: only an
    /// owned `String` moves into the document. (Moving the whole token out instead,
    /// read back in wider pieces just after it is written in narrower ones, would stall
    /// store forwarding once per text.)
    pub(crate) fn characters(&mut self) -> Characters<'_, 'a> {
        Characters::Decoded {
            text: &mut self.text,
            span: self.span,
            exact: self.exact,
        }
    }
}

/// [`TextTok::mark`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// Decoded, without U+0000 (the tokenizer tells, so that the "in body" and "in table
    /// text" rules, which drop it, need not search every text).
    Plain,
    /// Decoded; it may hold U+0000.
    MayHaveNul,
    /// Not decoded: the text is the input's bytes at `span` (valid UTF-8), which decode
    /// as text of the tokenizer state the kind names, and decoding may change them (an
    /// `&`, a CR, a NUL it replaces); no U+0000 once decoded. Two rules take it as it
    /// is, needing nothing of the text, and insert it undecoded for the document to
    /// decode when it is read (`Characters::Raw`): "in body" (and "in cell")
    /// characters run by the tokenizer's sink (`Drive`) when frameset-ok is "not ok",
    /// and the "text" mode's. Everything else decodes it first ([`TextTok::decode_raw`]:
    /// the loop does, before the dispatcher; the rules that read text assert it).
    Raw(TextKind),
}

/// 13.2.6 "whitespace" for the tree builder: tab, LF, FF, CR, space.
pub(crate) fn is_ws(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

impl<'a> TextTok<'a> {
    /// The piece of this text between byte offsets `from` and `to` of the text.
    pub(crate) fn slice(&self, from: usize, to: usize) -> TextTok<'a> {
        debug_assert!(!matches!(self.mark, Mark::Raw(_)), "a raw text is not read");
        let text = match &self.text {
            Cow::Borrowed(s) => Cow::Borrowed(&s[from..to]),
            Cow::Owned(s) => Cow::Owned(s[from..to].to_owned()),
        };
        let span = if self.exact {
            Span::new(self.span.start + from, self.span.start + to)
        } else {
            self.span
        };
        TextTok {
            text,
            span,
            exact: self.exact,
            mark: self.mark,
        }
    }

    /// Splits off the leading whitespace: returns it (None when there is none) and keeps
    /// the rest.
    pub(crate) fn split_leading_ws(&mut self) -> Option<TextTok<'a>> {
        let n = self.text.bytes().take_while(|&c| is_ws(c)).count();
        if n == 0 {
            return None;
        }
        let head = self.slice(0, n);
        let rest = self.slice(n, self.text.len());
        *self = rest;
        Some(head)
    }

    pub(crate) fn is_all_ws(&self) -> bool {
        debug_assert!(!matches!(self.mark, Mark::Raw(_)), "a raw text is not read");
        self.text.bytes().all(is_ws)
    }

    /// The text's whitespace characters only (the frameset modes ignore the others);
    /// None when there are none.
    pub(crate) fn whitespace_only(&self) -> Option<TextTok<'a>> {
        if self.is_all_ws() {
            return (!self.text.is_empty()).then(|| self.clone());
        }
        let ws: String = self
            .text
            .bytes()
            .filter(|&c| is_ws(c))
            .map(char::from)
            .collect();
        if ws.is_empty() {
            return None;
        }
        Some(TextTok {
            text: Cow::Owned(ws),
            span: self.span,
            exact: false,
            mark: Mark::Plain,
        })
    }

    pub(crate) fn skip_leading_newline(&mut self) {
        if self.text.starts_with('\n') {
            let exact = self.exact;
            let mut rest = self.slice(1, self.text.len());
            if !exact {
                rest.span = self.span;
            }
            *self = rest;
        }
    }

    /// For a raw text ([`Mark::Raw`]): skips a leading newline as
    /// [`Self::skip_leading_newline`] does on the decoded text (13.2.6.4.7's "if the next
    /// token is a U+000A LINE FEED (LF) character token, then ignore that token" after
    /// `pre`, `listing` and `textarea`), from the raw bytes: LF,
    /// CR LF or CR (each decodes to one LF; the rest decodes as it did). False, nothing
    /// done, when the text starts with `&`, a character reference that may decode to LF:
    /// the caller decodes it first.
    pub(crate) fn skip_raw_leading_newline(&mut self) -> bool {
        debug_assert!(matches!(self.mark, Mark::Raw(_)));
        debug_assert_eq!(self.text.len(), self.span.len(), "a raw text is its span");
        let bytes = self.text.as_bytes();
        let n = match bytes.first() {
            Some(b'&') => return false,
            Some(b'\n') => 1,
            Some(b'\r') if bytes.get(1) == Some(&b'\n') => 2,
            Some(b'\r') => 1,
            _ => 0,
        };
        // The same as skipping it on the decoded text.
        debug_assert!(match self.mark {
            Mark::Raw(kind) => {
                let decoded = kind.decode_str(&self.text);
                kind.decode_str(&self.text[n..]) == decoded.strip_prefix('\n').unwrap_or(&decoded)
            }
            _ => false,
        });
        if n > 0 {
            self.text = match &self.text {
                Cow::Borrowed(s) => Cow::Borrowed(&s[n..]),
                Cow::Owned(s) => Cow::Owned(s[n..].to_owned()),
            };
            self.span = Span::new(self.span.start + n, self.span.end);
        }
        true
    }

    /// Whether the text holds U+0000 (a raw text's decoding holds none).
    pub(crate) fn has_nul(&self) -> bool {
        self.mark == Mark::MayHaveNul && self.text.contains('\0')
    }

    /// Decodes a raw text ([`Mark::Raw`]) in place, for the rules that read it (all but
    /// "in body" characters after frameset-ok is "not ok").
    pub(crate) fn decode_raw(&mut self) {
        if let Mark::Raw(kind) = self.mark {
            let text = match &self.text {
                // A text whose one change is a leading CR LF (the line break after a tag
                // of a page with CR LF line ends: `<tr>\r\n<td>`, the whitespace of the
                // head): its decoding is the bytes after the CR ("normalize newlines"),
                // with no other CR, no `&` (a character reference in data and RCDATA) and
                // no NUL (replaced in RAWTEXT and script data) in them. Borrowed, which
                // spares such a common text the general decoder's setup and copy.
                Cow::Borrowed(raw)
                    if raw.starts_with("\r\n")
                        && !raw[2..].bytes().any(|c| matches!(c, b'\r' | b'&' | 0)) =>
                {
                    debug_assert_eq!(kind.decode_str(raw), &raw[1..]);
                    Cow::Borrowed(&raw[1..])
                }
                Cow::Borrowed(raw) => kind.decode_str(raw),
                Cow::Owned(raw) => Cow::Owned(kind.decode_str(raw).into_owned()),
            };
            self.exact = matches!(&text, Cow::Borrowed(s) if s.len() == self.span.len());
            self.text = text;
            self.mark = Mark::Plain;
        }
    }

    /// The text without U+0000 (as the "in body" rules drop it), in pieces.
    pub(crate) fn without_nul(&self) -> Vec<TextTok<'a>> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut piece = |from: usize, to: usize| {
            let mut p = self.slice(from, to);
            p.mark = Mark::Plain;
            out.push(p);
        };
        for (i, c) in self.text.bytes().enumerate() {
            if c == 0 {
                if i > start {
                    piece(start, i);
                }
                start = i + 1;
            }
        }
        if start < self.text.len() {
            piece(start, self.text.len());
        }
        out
    }
}

/// A DOCTYPE token.
#[derive(Debug)]
pub(crate) struct DoctypeTok<'a> {
    pub(crate) name: Option<Cow<'a, str>>,
    pub(crate) public_id: Option<Cow<'a, str>>,
    pub(crate) system_id: Option<Cow<'a, str>>,
    pub(crate) force_quirks: bool,
    pub(crate) span: Span,
}

/// A token as the tree builder handles it: 56 bytes, moved once per token. The rare
/// DOCTYPE is boxed; inline it made every token 96 bytes (72 with the tag's attributes
/// in it).
#[derive(Debug)]
pub(crate) enum Tok<'a> {
    Doctype(Box<DoctypeTok<'a>>),
    Tag(TagTok<'a>),
    Comment(Cow<'a, str>, Span),
    Text(TextTok<'a>),
    Eof,
}

impl<'a> Tok<'a> {
    /// Converts a token of the tokenizer; a start tag's attributes go to the end of the
    /// document's attribute list (`Dom::begin_tag_attrs`), where its element takes them.
    /// `input_str` is the tokenizer's input when it is known to be a `&str`: text and
    /// comments are then decoded without validating their UTF-8 again; `input` is the
    /// tokenizer's input. Inlined into the parse loop: called out of line, the large
    /// token would be copied for the call.
    #[inline(always)]
    pub(crate) fn from_token(
        token: Token<'a, '_>,
        input: &'a [u8],
        input_str: Option<&'a str>,
        doc: &mut Dom,
    ) -> Tok<'a> {
        match token {
            Token::Text(t) => {
                // A copy of the token for this call (which the compiler leaves out of
                // line): with the token's own address taken here, the loop wrote every
                // text token to the stack on both paths (7 stores a text).
                let copy = t;
                let (text, form) = copy.text_or_raw(input_str);
                let span = t.text_span();
                let mark = match form {
                    TextForm::Decoded => Mark::Plain,
                    TextForm::DecodedMayHaveNul => Mark::MayHaveNul,
                    TextForm::Raw => Mark::Raw(t.kind()),
                };
                let exact = match &text {
                    Cow::Borrowed(s) => s.len() == span.len() && form != TextForm::Raw,
                    Cow::Owned(_) => false,
                };
                Tok::Text(TextTok {
                    text,
                    span,
                    exact,
                    mark,
                })
            }
            Token::StartTag(t) | Token::EndTag(t) => {
                let end = matches!(token, Token::EndTag(_));
                if !end {
                    // Started for a start tag only: an end tag's `has_attrs` is false, so
                    // the builder never reads the records for it (what the last start tag
                    // left there, usually nothing, goes at the next start tag).
                    doc.begin_tag_attrs();
                    doc.attrs.reserve(t.attr_count());
                    for a in t.attrs() {
                        // The common case pushed on its own path, from registers: merged
                        // with the decoded case, the name would go through a `Cow` in
                        // memory (the out-of-line decoder's result), read back just after
                        // it is written, a store forwarding stall per attribute.
                        // Unchanged, the name is its span.
                        match a.name_if_unchanged() {
                            Some(unchanged) if AttrRec::spans_fit(input) => {
                                debug_assert_eq!(a.name(), unchanged);
                                doc.attrs
                                    .push(AttrRec::named_by_span(a.name_span(), a.value_span()));
                            }
                            _ => {
                                let name = doc.store(input, a.name());
                                doc.attrs
                                    .push(AttrRec::named(name, a.name_span(), a.value_span()));
                            }
                        }
                    }
                }
                // The tag name: an interned name found from its raw bytes in the input
                // (exact when it matches: the table's names are lowercase ASCII), its
                // text then the tag's own (not stored); else the same as for attribute names, the
                // common case from registers, the decoded name on a path of its own.
                let name = t.name_span();
                let tag = Tag::from_raw_name(input, name.start, name.len());
                if tag != Tag::Unknown {
                    debug_assert_eq!(Tag::from_name(&t.name()), tag);
                    return tag_tok(&t, end, tag, Cow::Borrowed(""));
                }
                match t.name_if_unchanged() {
                    // Its raw bytes, which are not an interned name.
                    Some(name) => {
                        debug_assert_eq!(
                            (Tag::from_name(name), t.name()),
                            (Tag::Unknown, name.into())
                        );
                        tag_tok(&t, end, Tag::Unknown, Cow::Borrowed(name))
                    }
                    None => decoded_tag(t, end),
                }
            }
            Token::Comment(c) => Tok::Comment(
                match input_str {
                    Some(input) => c.data_in(input),
                    None => c.data(),
                },
                c.span(),
            ),
            Token::Doctype(d) => Tok::Doctype(Box::new(DoctypeTok {
                name: d.name(),
                public_id: d.public_id(),
                system_id: d.system_id(),
                force_quirks: d.force_quirks(),
                span: d.span(),
            })),
        }
    }

    /// The byte offset where this token starts (for the empty spans of implied elements).
    pub(crate) fn offset(&self) -> usize {
        match self {
            Tok::Doctype(d) => d.span.start,
            Tok::Comment(_, span) => span.start,
            Tok::Tag(t) => t.span.start,
            Tok::Text(t) => t.span.start,
            Tok::Eof => usize::MAX,
        }
    }
}

/// A tag token whose name decoding changes (upper case, NUL, non-ASCII). The tag comes
/// by value: given a reference, the loop would write every token to the stack for this
/// cold call.
#[cold]
#[inline(never)]
fn decoded_tag<'a>(t: htmltok::Tag<'a, '_>, end: bool) -> Tok<'a> {
    // A known name spelled with upper case (`<TD>`, `<FONT>`: common on older pages) is
    // found from its lowercase bytes in a stack buffer, not by decoding the name first,
    // which would make a new `String` per tag. A name it does not find is not interned
    // in any spelling, so the decoded name is the element's own.
    let tag = known_in_lower_case(t.raw_name());
    debug_assert_eq!(tag, Tag::from_name(&t.name()));
    let other_name = if tag == Tag::Unknown {
        t.name()
    } else {
        Cow::Borrowed("")
    };
    tag_tok(&t, end, tag, other_name)
}

/// The builder's tag token for the tokenizer's tag `t`, its name interned as `tag` or
/// (for [`Tag::Unknown`]) given as `other_name`.
fn tag_tok<'a>(t: &htmltok::Tag<'a, '_>, end: bool, tag: Tag, other_name: Cow<'a, str>) -> Tok<'a> {
    Tok::Tag(TagTok {
        end,
        tag,
        other_name,
        self_closing: t.self_closing(),
        has_attrs: !end,
        span: t.span(),
    })
}

/// The interned tag whose name is `raw` with ASCII upper case lowered, when `raw` is
/// ASCII without NUL (the only bytes the tag name state's decoding changes besides those:
/// NUL becomes U+FFFD and non-ASCII stays, and no interned name holds either); else
/// [`Tag::Unknown`], and the caller decodes the name, which is then not interned either:
/// a tag name holds no CR (whitespace ends it), so decoding only lowers ASCII, as done
/// here, turns NUL into U+FFFD and keeps non-ASCII; it never shortens a name, and no
/// table holds U+FFFD or non-ASCII.
fn known_in_lower_case(raw: &[u8]) -> Tag {
    let mut lower = [0u8; 16];
    let Some(buf) = lower.get_mut(..raw.len()) else {
        return Tag::Unknown; // longer than every interned name
    };
    for (to, &from) in buf.iter_mut().zip(raw) {
        if !from.is_ascii() || from == 0 {
            return Tag::Unknown;
        }
        *to = from.to_ascii_lowercase();
    }
    match std::str::from_utf8(buf) {
        Ok(name) => Tag::from_name(name),
        Err(_) => Tag::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::{Tag, known_in_lower_case};

    /// Upper-case and mixed-case spellings find the same tag as decoding the name would;
    /// names with NUL, non-ASCII or unknown names are left to the decoding path.
    #[test]
    fn upper_case_names_found_without_decoding() {
        for (raw, lower) in [
            (&b"TD"[..], "td"),
            (b"Font", "font"),
            (b"BLOCKQUOTE", "blockquote"),
            (b"foreignObject", "foreignobject"),
            (b"A", "a"),
        ] {
            assert_eq!(known_in_lower_case(raw), Tag::from_name(lower), "{lower}");
            assert_ne!(known_in_lower_case(raw), Tag::Unknown, "{lower}");
        }
        for raw in [
            &b"D\0IV"[..],
            b"D\xc3\x89V",
            b"MY-ELEMENT",
            b"",
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        ] {
            assert_eq!(known_in_lower_case(raw), Tag::Unknown);
        }
    }

    /// The token is moved once per token: keep it small (its attributes live in the
    /// document's `Dom::tag_attrs`).
    #[test]
    fn token_size() {
        assert_eq!(std::mem::size_of::<super::Tok<'_>>(), 56);
    }
}
