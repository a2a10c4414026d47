//! Tokens: spans into the input plus lazy decoding.
//!
//! Every token borrows the input. Its raw bytes ([`Token::raw`]) and byte range
//! ([`Token::span`]) are exact; its decoded strings (`name()`, `text()`, `value()`, …) come
//! back as `Cow<str>` that is `Borrowed` whenever no transform applies.
//!
//! # The span contract
//!
//! The raw spans of the tokens of one document are in increasing order and never overlap.
//! A gap between two consecutive spans (or after the last) only ever holds markup that the
//! standard drops without a token: an end tag with no name (`</>`), or a tag, comment-less
//! markup or DOCTYPE-less markup cut off by the end of the input (`<a href="x`), or a UTF-8
//! byte order mark at the very start, which the tokenizer skips unless told to keep it
//! ([`crate::Builder::keep_bom`]). So the concatenation of every token's raw bytes and the
//! gaps is the input, byte for byte.

use std::borrow::Cow;

use crate::attrs::{AttrList, AttrSpans};
use crate::decode::{Context, TextForm, decode_span, unchanged_span};
use crate::span::Span;

/// One token, borrowing the input (`'a`) and, for tags, the tokenizer's attribute buffer
/// (`'t`, valid until the next call to [`crate::Tokenizer::next_token`]).
#[derive(Clone, Copy, Debug)]
pub enum Token<'a, 't> {
    /// `<!DOCTYPE …>`.
    Doctype(Doctype<'a>),
    /// `<name attr=value …>`.
    StartTag(Tag<'a, 't>),
    /// `</name>`.
    EndTag(Tag<'a, 't>),
    /// `<!-- … -->`, and the bogus comments `<? … >`, `<!x … >`, `</0 … >`.
    Comment(Comment<'a>),
    /// A maximal run of character tokens (text, or a CDATA section's content).
    Text(Text<'a>),
}

impl<'a> Token<'a, '_> {
    /// The token's bytes in the input, exactly as they appear there.
    pub fn raw(&self) -> &'a [u8] {
        let (input, raw) = match self {
            Token::Doctype(t) => (t.input, t.raw),
            Token::StartTag(t) | Token::EndTag(t) => (t.input, t.raw),
            Token::Comment(t) => (t.input, t.raw),
            Token::Text(t) => (t.input, t.raw),
        };
        raw.of(input)
    }

    /// The byte range of [`Token::raw`] in the input.
    pub fn span(&self) -> Span {
        match self {
            Token::Doctype(t) => t.raw,
            Token::StartTag(t) | Token::EndTag(t) => t.raw,
            Token::Comment(t) => t.raw,
            Token::Text(t) => t.raw,
        }
    }

    /// The kind's name as html5lib's tests write it: `"Doctype"`, `"StartTag"`,
    /// `"EndTag"`, `"Comment"` or `"Text"` (html5lib's `"Character"`, by the name htmltok
    /// gives the token).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Token::Doctype(_) => "Doctype",
            Token::StartTag(_) => "StartTag",
            Token::EndTag(_) => "EndTag",
            Token::Comment(_) => "Comment",
            Token::Text(_) => "Text",
        }
    }
}

/// Which tokenizer state a run of text came from; it decides how the text decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// Data state: character references are decoded; NUL stays U+0000.
    Data,
    /// RCDATA (`<title>`, `<textarea>`): character references are decoded; NUL → U+FFFD.
    Rcdata,
    /// RAWTEXT (`<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`, `<noscript>`).
    Rawtext,
    /// Script data (`<script>`), including its escaped and double-escaped states.
    ScriptData,
    /// PLAINTEXT (after `<plaintext>`): the rest of the document.
    Plaintext,
    /// The content of a `<![CDATA[ … ]]>` section in foreign content.
    Cdata,
}

impl TextKind {
    /// The text of `span` of `input` decoded as text of this kind: what [`Text::text`]
    /// gives for a text of this kind whose [`Text::text_span`] is `span`. For a caller
    /// that kept a text's span and kind instead of its decoded text.
    pub fn decode(self, input: &[u8], span: Span) -> Cow<'_, str> {
        decode_span(input, span, self.context())
    }

    /// [`TextKind::decode`] of the whole of `text`, known to be UTF-8 (not validated
    /// again): for a raw text [`Text::text_or_raw`] gave.
    pub fn decode_str(self, text: &str) -> Cow<'_, str> {
        crate::decode::decode_str_span(text, Span::new(0, text.len()), self.context())
    }

    /// Whether `span` of `input` is plain ASCII holding no byte that decoding as text of
    /// this kind transforms, and no NUL: then [`TextKind::decode`] gives the bytes as they
    /// are, without U+0000. One SIMD pass, the decoder's own first test (cheap for a
    /// short text). False says only that decoding must look (the text may still decode to
    /// itself: non-ASCII UTF-8, say). For a caller that stored a text undecoded and reads
    /// it later.
    ///
    /// ```
    /// use htmltok::{Span, TextKind};
    /// let input = b"<p>plain text</p><p>a &amp; b</p>";
    /// assert!(TextKind::Data.is_plain(input, Span::new(3, 13)));
    /// assert!(!TextKind::Data.is_plain(input, Span::new(20, 29)));
    /// assert!(TextKind::Rawtext.is_plain(input, Span::new(20, 29)));
    /// assert!(!TextKind::Rawtext.is_plain(b"a\0", Span::new(0, 2)));
    /// ```
    pub fn is_plain(self, input: &[u8], span: Span) -> bool {
        span.end <= input.len()
            && span.start <= span.end
            && crate::scan::plain_ascii_span(
                input,
                span.start,
                span.end,
                self.context().specials() | crate::scan::special::NUL,
            )
            .is_ok()
    }

    fn context(self) -> Context {
        match self {
            TextKind::Data => Context::DataText,
            TextKind::Rcdata => Context::RcdataText,
            TextKind::Rawtext | TextKind::ScriptData | TextKind::Plaintext => Context::Verbatim,
            TextKind::Cdata => Context::Cdata,
        }
    }
}

/// A run of character tokens.
#[derive(Clone, Copy, Debug)]
pub struct Text<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) raw: Span,
    pub(crate) content: Span,
    pub(crate) kind: TextKind,
}

impl<'a> Text<'a> {
    /// The decoded text: character references resolved (data and RCDATA), CR LF and CR as
    /// LF, NUL as the state says.
    #[inline]
    pub fn text(&self) -> Cow<'a, str> {
        decode_span(self.input, self.content, self.kind.context())
    }

    /// [`Text::text`], and whether it may hold U+0000 (false: it holds none), answered in
    /// the same pass for plain ASCII text: for a tree builder, whose "in body" rules drop
    /// U+0000 from data-state text and whose foreign content rules replace it, so that it
    /// need not search every text again. Only data-state text and CDATA keep U+0000.
    #[inline]
    pub fn text_and_nul(&self) -> (Cow<'a, str>, bool) {
        crate::decode::decode_span_nul(self.input, self.content, self.kind.context())
    }

    /// [`Text::text_and_nul`] for a caller that holds the tokenizer's whole input as a
    /// `&str` (the tokenizer was built over `input.as_bytes()`): the same answer, without
    /// validating the UTF-8 of text that is not plain ASCII again (a whole-input `&str`
    /// is valid, and the text's span starts and ends at ASCII bytes). Given any other
    /// `&str`, it is [`Text::text_and_nul`].
    ///
    /// Always inlined: a tree builder calls it once per text in its loop, and out of line
    /// the call, the token written to memory for it and the result read back would make
    /// the `&str` parse slower than the bytes one.
    #[inline(always)]
    pub fn text_and_nul_in(&self, input: &'a str) -> (Cow<'a, str>, bool) {
        if std::ptr::eq(input.as_bytes(), self.input) {
            crate::decode::decode_str_span_nul(input, self.content, self.kind.context())
        } else {
            self.text_and_nul()
        }
    }

    /// [`Text::text_and_nul`] (or, given the tokenizer's whole input as a `&str`,
    /// [`Text::text_and_nul_in`]), unless decoding may change the text (it holds an `&`,
    /// a CR, or a NUL its kind replaces), which is valid UTF-8 and keeps no U+0000: then
    /// the raw text ([`Text::raw_text`]) as it is, [`TextForm::Raw`], for a caller that
    /// keeps the text's span and kind and decodes it when it is read
    /// ([`TextKind::decode`]). Plain ASCII text is answered in the one pass
    /// [`Text::text_and_nul`] makes.
    #[inline(always)]
    pub fn text_or_raw(&self, input: Option<&'a str>) -> (Cow<'a, str>, TextForm) {
        crate::decode::span_or_raw(self.input, input, self.content, self.kind.context())
    }

    /// The undecoded bytes of the text (for CDATA, without `<![CDATA[` and `]]>`).
    pub fn raw_text(&self) -> &'a [u8] {
        self.content.of(self.input)
    }

    /// The byte range of [`Text::raw_text`].
    pub fn text_span(&self) -> Span {
        self.content
    }

    /// The state the text was tokenized in.
    pub fn kind(&self) -> TextKind {
        self.kind
    }

    /// The raw bytes, delimiters included.
    pub fn raw(&self) -> &'a [u8] {
        self.raw.of(self.input)
    }

    /// The byte range of [`Text::raw`].
    pub fn span(&self) -> Span {
        self.raw
    }
}

/// A comment, or a bogus comment.
#[derive(Clone, Copy, Debug)]
pub struct Comment<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) raw: Span,
    pub(crate) data: Span,
}

impl<'a> Comment<'a> {
    /// The comment's data (NUL → U+FFFD, newlines normalised).
    #[inline]
    pub fn data(&self) -> Cow<'a, str> {
        decode_span(self.input, self.data, Context::Verbatim)
    }

    /// [`Comment::data`] for a caller that holds the tokenizer's whole input as a `&str`
    /// (see [`Text::text_and_nul_in`]): the same data, not validated as UTF-8 again.
    #[inline]
    pub fn data_in(&self, input: &'a str) -> Cow<'a, str> {
        if std::ptr::eq(input.as_bytes(), self.input) {
            crate::decode::decode_str_span(input, self.data, Context::Verbatim)
        } else {
            self.data()
        }
    }

    /// The undecoded bytes of the data.
    pub fn raw_data(&self) -> &'a [u8] {
        self.data.of(self.input)
    }

    /// The byte range of [`Comment::raw_data`].
    pub fn data_span(&self) -> Span {
        self.data
    }

    /// The raw bytes, delimiters included.
    pub fn raw(&self) -> &'a [u8] {
        self.raw.of(self.input)
    }

    /// The byte range of [`Comment::raw`].
    pub fn span(&self) -> Span {
        self.raw
    }
}

/// A DOCTYPE token.
#[derive(Clone, Copy, Debug)]
pub struct Doctype<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) raw: Span,
    pub(crate) name: Option<Span>,
    pub(crate) public_id: Option<Span>,
    pub(crate) system_id: Option<Span>,
    pub(crate) force_quirks: bool,
}

impl<'a> Doctype<'a> {
    /// The name, ASCII-lowercased; None when missing (which differs from empty).
    pub fn name(&self) -> Option<Cow<'a, str>> {
        self.name.map(|s| decode_span(self.input, s, Context::Name))
    }

    /// The public identifier; None when missing.
    pub fn public_id(&self) -> Option<Cow<'a, str>> {
        self.public_id
            .map(|s| decode_span(self.input, s, Context::Verbatim))
    }

    /// The system identifier; None when missing.
    pub fn system_id(&self) -> Option<Cow<'a, str>> {
        self.system_id
            .map(|s| decode_span(self.input, s, Context::Verbatim))
    }

    /// The force-quirks flag.
    pub fn force_quirks(&self) -> bool {
        self.force_quirks
    }

    /// Byte ranges of the name, public and system identifiers (undecoded).
    pub fn spans(&self) -> (Option<Span>, Option<Span>, Option<Span>) {
        (self.name, self.public_id, self.system_id)
    }

    /// The raw bytes.
    pub fn raw(&self) -> &'a [u8] {
        self.raw.of(self.input)
    }

    /// The byte range of [`Doctype::raw`].
    pub fn span(&self) -> Span {
        self.raw
    }
}

/// A start or end tag. Its attributes borrow the tokenizer until the next token.
#[derive(Clone, Copy, Debug)]
pub struct Tag<'a, 't> {
    pub(crate) input: &'a [u8],
    pub(crate) raw: Span,
    pub(crate) name: Span,
    pub(crate) self_closing: bool,
    pub(crate) attrs: AttrList<'a, 't>,
}

impl<'a, 't> Tag<'a, 't> {
    /// The tag name, ASCII-lowercased (NUL → U+FFFD).
    #[inline]
    pub fn name(&self) -> Cow<'a, str> {
        decode_span(self.input, self.name, Context::Name)
    }

    /// The tag name when it is ASCII and decoding leaves it as it is (no upper case, NUL
    /// or CR: the common case), else None ([`Tag::name`] then decodes it). One pass,
    /// no allocation and no call: for callers that store the common case without going
    /// through a `Cow` (a `Cow` built partly by an out-of-line call lives in memory, and
    /// reading it back just after it was written can stall).
    #[inline(always)]
    pub fn name_if_unchanged(&self) -> Option<&'a str> {
        unchanged_span(self.input, self.name, Context::Name)
    }

    /// The tag name's raw bytes.
    pub fn raw_name(&self) -> &'a [u8] {
        self.name.of(self.input)
    }

    /// The byte range of the tag name.
    pub fn name_span(&self) -> Span {
        self.name
    }

    /// True when the tag ends in `/>`.
    pub fn self_closing(&self) -> bool {
        self.self_closing
    }

    /// The attributes in source order, duplicates (which the spec drops) removed.
    pub fn attrs(&self) -> impl ExactSizeIterator<Item = Attribute<'a>> + use<'a, 't> {
        let (input, list) = (self.input, self.attrs);
        (0..list.len()).map(move |i| Attribute {
            input,
            spans: list.get(i),
        })
    }

    /// The number of attributes.
    pub fn attr_count(&self) -> usize {
        self.attrs.len()
    }

    /// The attribute whose (lowercased) name is `name`; `name` must be lowercase.
    pub fn attr(&self, name: &str) -> Option<Attribute<'a>> {
        self.attrs().find(|a| a.name_is(name))
    }

    /// The raw bytes of the whole tag.
    pub fn raw(&self) -> &'a [u8] {
        self.raw.of(self.input)
    }

    /// The byte range of [`Tag::raw`].
    pub fn span(&self) -> Span {
        self.raw
    }
}

/// One attribute of a tag.
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'a> {
    input: &'a [u8],
    spans: AttrSpans<'a>,
}

impl<'a> Attribute<'a> {
    /// The attribute name, ASCII-lowercased (NUL → U+FFFD).
    #[inline]
    pub fn name(&self) -> Cow<'a, str> {
        decode_span(self.input, self.spans.name, Context::Name)
    }

    /// The attribute name when it is ASCII and decoding leaves it as it is, else None (see
    /// [`Tag::name_if_unchanged`]).
    #[inline(always)]
    pub fn name_if_unchanged(&self) -> Option<&'a str> {
        if let Some(name) = self.spans.lower_name {
            return Some(name);
        }
        unchanged_span(self.input, self.spans.name, Context::Name)
    }

    /// True when the name, lowercased, equals `name` (which must be lowercase).
    pub fn name_is(&self, name: &str) -> bool {
        let raw = self.spans.name.of(self.input);
        if raw.iter().all(|&b| b != 0 && b < 0x80) {
            raw.eq_ignore_ascii_case(name.as_bytes())
        } else {
            self.name() == name
        }
    }

    /// The value with character references decoded; empty when the attribute has no value.
    #[inline]
    pub fn value(&self) -> Cow<'a, str> {
        match self.spans.value() {
            Some(s) => decode_span(self.input, s, Context::AttributeValue),
            None => Cow::Borrowed(""),
        }
    }

    /// The raw name bytes.
    pub fn raw_name(&self) -> &'a [u8] {
        self.spans.name.of(self.input)
    }

    /// The raw value bytes (without quotes); None when there is no `=`.
    pub fn raw_value(&self) -> Option<&'a [u8]> {
        self.spans.value().map(|s| s.of(self.input))
    }

    /// The byte range of the name.
    pub fn name_span(&self) -> Span {
        self.spans.name
    }

    /// The byte range of the value (without quotes); None when there is no `=`.
    pub fn value_span(&self) -> Option<Span> {
        self.spans.value()
    }

    /// The byte range from the name's start to the value's end (closing quote included).
    pub fn span(&self) -> Span {
        Span::new(self.spans.name.start, self.spans.raw_end)
    }
}
