//! The token tape: a whole document tokenized into compact records that hold no borrow of
//! the input, for consumers that keep tokens past the next call (bindings to other
//! languages, batch jobs, benchmarks).
//!
//! A [`Tape`] stores, per token, one [`TokenRecord`] (28 bytes: kind, flags, the spans of
//! the raw token and of its name, data or text), per attribute one [`AttrRecord`] (24
//! bytes) and per DOCTYPE one [`DoctypeRecord`], all `#[repr(C)]` with 32-bit offsets into
//! the input, in three growing vectors: building it allocates per document, never per
//! token. Nothing is decoded: [`Tape::get`] re-attaches a record to the input and gives the
//! same [`Token`] view, with the same lazy decoding, that [`crate::Tokenizer::next_token`]
//! gave. The tape is exactly the token stream of `next_token` with the same options (a
//! property test and a fuzz target check it).
//!
//! The records are plain data with no padding and every bit pattern allowed (with the
//! `bytemuck` feature they are [`bytemuck::Pod`]), so a tape can be written as bytes and
//! read back without parsing: [`Tape::records`], [`Tape::attr_records`] and
//! [`Tape::doctype_records`] give the arrays, and [`Tape::from_parts`] checks arrays read
//! back (every index and span in bounds, every kind known) before they are used, so a
//! damaged file is an error, never a panic or an out-of-bounds read. The layout is the
//! machine's byte order.

use std::fmt;

use crate::attrs::{AttrList, AttrRecord, AttrSpans};
use crate::error::ParseError;
use crate::span::Span;
use crate::token::{Comment, Doctype, Tag, Text, TextKind, Token};

/// One token of a [`Tape`]: `#[repr(C)]`, 28 bytes, no padding.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct TokenRecord {
    /// The token's raw bytes: `start..end`.
    pub start: u32,
    /// See `start`.
    pub end: u32,
    /// The tag name, the comment data or the text content (for a DOCTYPE, the raw span).
    pub main_start: u32,
    /// See `main_start`.
    pub main_end: u32,
    /// A tag's first attribute in [`Tape::attr_records`]; a DOCTYPE's index in
    /// [`Tape::doctype_records`]; 0 otherwise.
    pub extra: u32,
    /// A tag's number of attributes; 0 otherwise.
    pub count: u32,
    /// [`TokenRecord::DOCTYPE`], [`TokenRecord::START_TAG`], [`TokenRecord::END_TAG`],
    /// [`TokenRecord::COMMENT`] or [`TokenRecord::TEXT`].
    pub kind: u8,
    /// [`TokenRecord::SELF_CLOSING`] for a tag, [`TokenRecord::FORCE_QUIRKS`] for a
    /// DOCTYPE.
    pub flags: u8,
    /// A text run's [`TextKind`]: 0 data, 1 RCDATA, 2 RAWTEXT, 3 script data, 4
    /// PLAINTEXT, 5 CDATA; 0 for other tokens.
    pub text_kind: u8,
    /// Always 0 (explicit padding, so that every byte of the record is a field).
    pub reserved: u8,
}

impl TokenRecord {
    /// `kind` of a DOCTYPE.
    pub const DOCTYPE: u8 = 0;
    /// `kind` of a start tag.
    pub const START_TAG: u8 = 1;
    /// `kind` of an end tag.
    pub const END_TAG: u8 = 2;
    /// `kind` of a comment.
    pub const COMMENT: u8 = 3;
    /// `kind` of a text run.
    pub const TEXT: u8 = 4;
    /// `flags` bit: the tag ends in `/>`.
    pub const SELF_CLOSING: u8 = 1;
    /// `flags` bit: the DOCTYPE's force-quirks flag.
    pub const FORCE_QUIRKS: u8 = 2;

    /// The token's raw byte range.
    pub fn span(&self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }

    fn main(&self) -> Span {
        Span::new(self.main_start as usize, self.main_end as usize)
    }

    /// A [`TokenRecord::TEXT`] record's text run over `input` (None for another kind, or
    /// an unknown text kind code).
    #[inline]
    pub(crate) fn text<'a>(&self, input: &'a [u8]) -> Option<Text<'a>> {
        if self.kind != TokenRecord::TEXT {
            return None;
        }
        Some(Text {
            input,
            raw: self.span(),
            content: self.main(),
            kind: *TEXT_KINDS.get(usize::from(self.text_kind))?,
        })
    }
}

/// The optional fields of a DOCTYPE on a [`Tape`]: `#[repr(C)]`, 28 bytes, no padding.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct DoctypeRecord {
    /// The name, public and system identifiers as `[start, end]` pairs (`[0, 0]` when
    /// missing; see `present`).
    pub spans: [[u32; 2]; 3],
    /// Bit 0: the name is present; bit 1: the public identifier; bit 2: the system
    /// identifier.
    pub present: u32,
}

impl DoctypeRecord {
    fn new(fields: [Option<Span>; 3]) -> DoctypeRecord {
        let mut record = DoctypeRecord::default();
        for (i, field) in fields.into_iter().enumerate() {
            if let Some(span) = field {
                record.spans[i] = [span.start as u32, span.end as u32];
                record.present |= 1 << i;
            }
        }
        record
    }

    fn field(&self, i: usize) -> Option<Span> {
        let [start, end] = self.spans[i];
        (self.present & 1 << i != 0).then(|| Span::new(start as usize, end as usize))
    }
}

/// A document's tokens (and parse errors, when on), held without borrowing the input.
/// Build it with [`crate::Builder::tape`] or [`Tape::new`], read it with [`Tape::get`] or
/// [`Tape::iter`], passing the same input.
///
/// ```
/// use htmltok::{Tape, Token};
///
/// let html = b"<p class=x>Hi &amp; bye</p>";
/// let tape = Tape::new(html);
/// assert_eq!(tape.len(), 3);
/// let Some(Token::Text(text)) = tape.get(html, 1) else { panic!() };
/// assert_eq!(text.text(), "Hi & bye");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Tape {
    records: Vec<TokenRecord>,
    attrs: Vec<AttrRecord>,
    doctypes: Vec<DoctypeRecord>,
    errors: Vec<ParseError>,
    input_len: usize,
}

/// Why a tape cannot be made ([`crate::Builder::try_tape`]) or taken back
/// ([`Tape::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TapeError {
    /// The input is 4 GiB or longer: a tape's offsets are 32-bit.
    TooLarge {
        /// The input's length.
        len: usize,
    },
    /// Record `index` of the named array is not one a tape can hold (an unknown kind, a
    /// span past the input or reversed, an index past another array).
    BadRecord {
        /// `"token"`, `"attribute"` or `"doctype"`.
        array: &'static str,
        /// The record's index in its array.
        index: usize,
    },
}

impl fmt::Display for TapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TapeError::TooLarge { len } => write!(
                f,
                "a tape holds inputs shorter than 4 GiB (offsets are 32-bit); this one has {len} bytes"
            ),
            TapeError::BadRecord { array, index } => {
                write!(
                    f,
                    "{array} record {index} does not describe a token of the input"
                )
            }
        }
    }
}

impl std::error::Error for TapeError {}

/// The longest input a tape can describe: its offsets are `u32`.
pub(crate) const MAX_INPUT: usize = u32::MAX as usize;

/// A record of `kind` with its two spans (offsets below 2^32: checked by the caller).
#[inline(always)]
fn record(kind: u8, raw: Span, main: Span) -> TokenRecord {
    TokenRecord {
        start: raw.start as u32,
        end: raw.end as u32,
        main_start: main.start as u32,
        main_end: main.end as u32,
        kind,
        ..TokenRecord::default()
    }
}

impl TokenRecord {
    #[inline(always)]
    fn with(self, extra: u32, count: u32, flags: u8) -> TokenRecord {
        TokenRecord {
            extra,
            count,
            flags,
            ..self
        }
    }
}

const TEXT_KINDS: [TextKind; 6] = [
    TextKind::Data,
    TextKind::Rcdata,
    TextKind::Rawtext,
    TextKind::ScriptData,
    TextKind::Plaintext,
    TextKind::Cdata,
];

fn text_kind_code(kind: TextKind) -> u8 {
    match kind {
        TextKind::Data => 0,
        TextKind::Rcdata => 1,
        TextKind::Rawtext => 2,
        TextKind::ScriptData => 3,
        TextKind::Plaintext => 4,
        TextKind::Cdata => 5,
    }
}

impl Tape {
    /// Appends one token's record: one `match` fills it (kind, spans, flags). The token's
    /// offsets are below 2^32, and so are the counts of tokens and attributes (each at
    /// least one byte of input): the tape's input is shorter than 4 GiB (checked by
    /// [`crate::Builder::try_tape`]; the stream tokenizer's runs are capped to that).
    #[inline]
    pub(crate) fn push(&mut self, token: &Token<'_, '_>) {
        match *token {
            Token::Doctype(d) => {
                self.push_doctype(d.raw, [d.name, d.public_id, d.system_id], d.force_quirks);
            }
            Token::StartTag(t) | Token::EndTag(t) => {
                let is_end = matches!(token, Token::EndTag(_));
                match t.attrs {
                    AttrList::Spans(spans) => {
                        self.push_tag(is_end, t.raw, t.name, t.self_closing, spans);
                    }
                    AttrList::Tape(records) => {
                        self.push_tag_record(is_end, t.raw, t.name, t.self_closing, records.len());
                        self.attrs.extend_from_slice(records);
                    }
                }
            }
            Token::Comment(c) => self.push_comment(c.raw, c.data),
            Token::Text(t) => self.push_text(t.raw, t.content, t.kind),
        }
    }

    /// Appends a text run's record.
    #[inline(always)]
    pub(crate) fn push_text(&mut self, raw: Span, content: Span, kind: TextKind) {
        debug_assert!(self.input_len <= MAX_INPUT);
        self.records.push(TokenRecord {
            text_kind: text_kind_code(kind),
            ..record(TokenRecord::TEXT, raw, content)
        });
    }

    /// Appends a comment's record.
    #[inline(always)]
    pub(crate) fn push_comment(&mut self, raw: Span, data: Span) {
        self.records.push(record(TokenRecord::COMMENT, raw, data));
    }

    /// Appends a tag's record and its attributes' records.
    #[inline(always)]
    pub(crate) fn push_tag(
        &mut self,
        is_end: bool,
        raw: Span,
        name: Span,
        self_closing: bool,
        attrs: &[AttrSpans<'_>],
    ) {
        self.push_tag_record(is_end, raw, name, self_closing, attrs.len());
        self.attrs.extend(attrs.iter().map(AttrRecord::new));
    }

    /// Appends a tag's record, whose `count` attributes come next in `attrs`.
    #[inline(always)]
    fn push_tag_record(
        &mut self,
        is_end: bool,
        raw: Span,
        name: Span,
        self_closing: bool,
        count: usize,
    ) {
        debug_assert!(self.input_len <= MAX_INPUT);
        let kind = if is_end {
            TokenRecord::END_TAG
        } else {
            TokenRecord::START_TAG
        };
        let flags = u8::from(self_closing) * TokenRecord::SELF_CLOSING;
        let extra = self.attrs.len() as u32;
        self.records
            .push(record(kind, raw, name).with(extra, count as u32, flags));
    }

    /// Appends a DOCTYPE's record and its fields' record.
    #[cold]
    pub(crate) fn push_doctype(
        &mut self,
        raw: Span,
        fields: [Option<Span>; 3],
        force_quirks: bool,
    ) {
        let extra = self.doctypes.len() as u32;
        self.doctypes.push(DoctypeRecord::new(fields));
        let flags = u8::from(force_quirks) * TokenRecord::FORCE_QUIRKS;
        self.records
            .push(record(TokenRecord::DOCTYPE, raw, raw).with(extra, 0, flags));
    }

    /// Makes room for the tokens of an input of `len` bytes (below 2^32) on an empty
    /// tape: the start of [`crate::Builder::tape_into`]. (This and the next two are
    /// `#[inline]`: as calls they cost that builder's loop an instruction a state.)
    #[inline]
    pub(crate) fn start(&mut self, len: usize) {
        debug_assert!(self.records.is_empty() && self.attrs.is_empty());
        self.input_len = len;
        // Pages average 40 to 50 bytes per token and 60 to 100 per attribute; reserving
        // for a little more than that saves the vectors' doublings (each a copy of
        // everything so far); `shrink_to_fit` gives the rest back.
        self.records.reserve(len / 32 + 16);
        self.attrs.reserve(len / 48 + 16);
    }

    /// Gives back the room [`Tape::start`] reserved past the records.
    #[inline]
    pub(crate) fn shrink_to_fit(&mut self) {
        self.records.shrink_to_fit();
        self.attrs.shrink_to_fit();
    }

    /// Sets the parse errors of the tape's input.
    #[inline]
    pub(crate) fn set_errors(&mut self, errors: Vec<ParseError>) {
        self.errors = errors;
    }

    /// Forgets every token (keeping the allocations), for a new input of length `len`.
    pub(crate) fn reset(&mut self, len: usize) {
        self.records.clear();
        self.attrs.clear();
        self.doctypes.clear();
        self.errors.clear();
        self.input_len = len;
    }

    /// Keeps the first `n` tokens only.
    pub(crate) fn truncate(&mut self, n: usize) {
        self.records.truncate(n);
    }

    /// Ends text token `index` at `end` (raw bytes and text alike): the stream tokenizer
    /// hands out a text run in pieces.
    pub(crate) fn cut_text(&mut self, index: usize, end: usize) {
        let r = &mut self.records[index];
        debug_assert!(r.kind == TokenRecord::TEXT && end <= self.input_len);
        r.end = end as u32;
        r.main_end = end as u32;
    }

    /// Token `index` attached to `input`, which must hold the input the tape was made
    /// from as its prefix (the stream tokenizer appends to its buffer while tokens wait).
    #[inline]
    pub(crate) fn get_in<'a, 't>(&'t self, input: &'a [u8], index: usize) -> Option<Token<'a, 't>> {
        if input.len() < self.input_len {
            return None;
        }
        self.get_unchecked_len(input, index)
    }

    /// A tape from its arrays, as [`Tape::records`], [`Tape::attr_records`] and
    /// [`Tape::doctype_records`] gave them (for instance written to a file and read
    /// back), for an input of `input_len` bytes; parse errors are not part of it. Every
    /// record is checked: a kind this crate does not know, a span reversed or past
    /// `input_len`, or an index past the attribute or DOCTYPE array is an error, so a
    /// damaged or foreign file can never make [`Tape::get`] panic or read out of bounds.
    ///
    /// ```
    /// use htmltok::Tape;
    ///
    /// let html = b"<!DOCTYPE html><a href=x>link</a>";
    /// let tape = Tape::new(html);
    /// let back = Tape::from_parts(
    ///     tape.records().to_vec(),
    ///     tape.attr_records().to_vec(),
    ///     tape.doctype_records().to_vec(),
    ///     html.len(),
    /// )
    /// .unwrap();
    /// assert!(back.iter(html).map(|t| t.span()).eq(tape.iter(html).map(|t| t.span())));
    /// ```
    pub fn from_parts(
        records: Vec<TokenRecord>,
        attrs: Vec<AttrRecord>,
        doctypes: Vec<DoctypeRecord>,
        input_len: usize,
    ) -> Result<Tape, TapeError> {
        if input_len > MAX_INPUT {
            return Err(TapeError::TooLarge { len: input_len });
        }
        let in_input = |start: u32, end: u32| start <= end && end as usize <= input_len;
        let bad = |array, index| TapeError::BadRecord { array, index };
        for (i, a) in attrs.iter().enumerate() {
            let ok = in_input(a.name_start, a.name_end)
                && in_input(a.value_start, a.value_end)
                && in_input(a.name_start, a.raw_end)
                && a.flags & !(AttrRecord::HAS_VALUE | AttrRecord::PLAIN_NAME) == 0;
            if !ok {
                return Err(bad("attribute", i));
            }
        }
        for (i, d) in doctypes.iter().enumerate() {
            if !d.spans.iter().all(|&[s, e]| in_input(s, e)) || d.present > 7 {
                return Err(bad("doctype", i));
            }
        }
        for (i, r) in records.iter().enumerate() {
            let extra_ok = match r.kind {
                TokenRecord::DOCTYPE => (r.extra as usize) < doctypes.len() && r.count == 0,
                TokenRecord::START_TAG | TokenRecord::END_TAG => {
                    (r.extra as usize).saturating_add(r.count as usize) <= attrs.len()
                }
                TokenRecord::COMMENT | TokenRecord::TEXT => true,
                _ => false,
            };
            let ok = extra_ok
                && in_input(r.start, r.end)
                && in_input(r.main_start, r.main_end)
                && usize::from(r.text_kind) < TEXT_KINDS.len()
                && r.flags & !(TokenRecord::SELF_CLOSING | TokenRecord::FORCE_QUIRKS) == 0
                && r.reserved == 0;
            if !ok {
                return Err(bad("token", i));
            }
        }
        Ok(Tape {
            records,
            attrs,
            doctypes,
            errors: Vec::new(),
            input_len,
        })
    }

    /// The token records, one per token, in order.
    pub fn records(&self) -> &[TokenRecord] {
        &self.records
    }

    /// The attribute records of all tags, tag by tag (a tag's are `extra..extra + count`).
    pub fn attr_records(&self) -> &[AttrRecord] {
        &self.attrs
    }

    /// The DOCTYPE records (a DOCTYPE token's is `extra`).
    pub fn doctype_records(&self) -> &[DoctypeRecord] {
        &self.doctypes
    }

    /// The number of tokens.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no tokens (an empty input, or one `</>`).
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The length of the input the tape was made from.
    pub fn input_len(&self) -> usize {
        self.input_len
    }

    /// The parse errors, in order (empty unless the builder turned errors on).
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// The byte range of token `index`'s raw bytes; None past the end.
    pub fn span(&self, index: usize) -> Option<Span> {
        self.records.get(index).map(TokenRecord::span)
    }

    /// Token `index`, attached to `input`, which must be the input the tape was made from:
    /// None past the end, or when `input`'s length differs from it (a cheap guard against
    /// mixing inputs up; a different input of the same length gives tokens of wrong bytes,
    /// never a panic or an out-of-bounds read).
    pub fn get<'a: 't, 't>(&'t self, input: &'a [u8], index: usize) -> Option<Token<'a, 't>> {
        if input.len() != self.input_len {
            return None;
        }
        self.get_unchecked_len(input, index)
    }

    #[inline]
    fn get_unchecked_len<'a, 't>(&'t self, input: &'a [u8], index: usize) -> Option<Token<'a, 't>> {
        let r = self.records.get(index)?;
        let raw = r.span();
        Some(match r.kind {
            TokenRecord::TEXT => Token::Text(r.text(input)?),
            TokenRecord::START_TAG | TokenRecord::END_TAG => {
                let start = r.extra as usize;
                let tag = Tag {
                    input,
                    raw,
                    name: r.main(),
                    self_closing: r.flags & TokenRecord::SELF_CLOSING != 0,
                    attrs: AttrList::Tape(self.attrs.get(start..start + r.count as usize)?),
                };
                if r.kind == TokenRecord::START_TAG {
                    Token::StartTag(tag)
                } else {
                    Token::EndTag(tag)
                }
            }
            TokenRecord::COMMENT => Token::Comment(Comment {
                input,
                raw,
                data: r.main(),
            }),
            TokenRecord::DOCTYPE => {
                let d = self.doctypes.get(r.extra as usize)?;
                Token::Doctype(Doctype {
                    input,
                    raw,
                    name: d.field(0),
                    public_id: d.field(1),
                    system_id: d.field(2),
                    force_quirks: r.flags & TokenRecord::FORCE_QUIRKS != 0,
                })
            }
            _ => return None,
        })
    }

    /// Every token, in order, attached to `input` (see [`Tape::get`]; nothing when the
    /// input's length differs from the tape's).
    pub fn iter<'a: 't, 't>(&'t self, input: &'a [u8]) -> impl Iterator<Item = Token<'a, 't>> {
        let len = if input.len() == self.input_len {
            self.records.len()
        } else {
            0
        };
        (0..len).filter_map(move |i| self.get(input, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Builder, State, Tokenizer};

    /// Token kind, span and every decoded string, to compare two token streams.
    fn describe(token: &Token<'_, '_>) -> String {
        match token {
            Token::Doctype(d) => format!(
                "doctype {:?} {:?} {:?} {:?} {} {:?}",
                d.span(),
                d.name(),
                d.public_id(),
                d.system_id(),
                d.force_quirks(),
                d.spans()
            ),
            Token::StartTag(t) | Token::EndTag(t) => {
                let attrs: Vec<String> = t
                    .attrs()
                    .map(|a| format!("{:?}={:?}@{:?}", a.name(), a.value(), a.span()))
                    .collect();
                format!(
                    "{} {:?} {:?} {} {attrs:?}",
                    if matches!(token, Token::StartTag(_)) {
                        "start"
                    } else {
                        "end"
                    },
                    t.span(),
                    t.name(),
                    t.self_closing()
                )
            }
            Token::Comment(c) => format!("comment {:?} {:?}", c.span(), c.data()),
            Token::Text(t) => format!("text {:?} {:?} {:?}", t.span(), t.kind(), t.text()),
        }
    }

    fn same_as_next_token(input: &[u8], builder: Builder) {
        let tape = builder.clone().tape(input);
        let mut tok = builder.build(input);
        let mut expected = Vec::new();
        while let Some(token) = tok.next_token() {
            expected.push(describe(&token));
        }
        let got: Vec<String> = tape.iter(input).map(|t| describe(&t)).collect();
        assert_eq!(got, expected, "{:?}", String::from_utf8_lossy(input));
        assert_eq!(tape.errors(), tok.errors());
        assert_eq!(tape.len(), expected.len());
    }

    #[test]
    fn the_tape_is_the_token_stream() {
        for input in [
            &b""[..],
            b"</>",
            b"<!DOCTYPE html PUBLIC \"-//W3C//DTD\" 'x'><html lang=en><title>a&amp;b</title>",
            b"<a href=x b c='d' a=dup/><p>t&notin;x</p><!-- c --><svg><![CDATA[x]]></svg>",
            b"<script>if (a<b) document.write('<!--')</script><textarea>&lt;</textarea>",
            b"<!doctype><?pi?><x a\0=\0>\xff\xfe\r\n<plaintext></plaintext>",
        ] {
            same_as_next_token(input, Tokenizer::builder());
            same_as_next_token(input, Tokenizer::builder().errors(true));
            same_as_next_token(
                input,
                Tokenizer::builder()
                    .simulation(false)
                    .state(State::Rcdata)
                    .last_start_tag("title"),
            );
        }
    }

    #[test]
    fn record_layouts() {
        // `#[repr(C)]` with no padding: every byte is a field (what `Pod` needs).
        assert_eq!(std::mem::size_of::<TokenRecord>(), 28);
        assert_eq!(std::mem::size_of::<AttrRecord>(), 24);
        assert_eq!(std::mem::size_of::<DoctypeRecord>(), 28);
        assert_eq!(std::mem::align_of::<TokenRecord>(), 4);
    }

    fn parts(tape: &Tape) -> (Vec<TokenRecord>, Vec<AttrRecord>, Vec<DoctypeRecord>) {
        (
            tape.records().to_vec(),
            tape.attr_records().to_vec(),
            tape.doctype_records().to_vec(),
        )
    }

    #[test]
    fn records_taken_back_are_the_same_tape() {
        let html = b"<!DOCTYPE html SYSTEM 'about:legacy-compat'><a href=x b>t&amp;</a><!--c-->";
        let tape = Tokenizer::builder().errors(true).tape(html);
        let (r, a, d) = parts(&tape);
        let back = Tape::from_parts(r, a, d, html.len()).unwrap();
        let describe_all = |t: &Tape| t.iter(html).map(|t| describe(&t)).collect::<Vec<_>>();
        assert_eq!(describe_all(&back), describe_all(&tape));
        assert!(
            back.errors().is_empty(),
            "errors are not part of the records"
        );
    }

    /// Damaged records are refused, or else give tokens that decode without a panic: every
    /// field of every record, set to values around the input's bounds.
    #[test]
    fn damaged_records_never_panic() {
        let html = b"<!DOCTYPE html PUBLIC 'p' 's'><a href=x b c='d'>t&amp;\xff</a><!--c-->";
        let tape = Tape::new(html);
        let len = html.len() as u32;
        let values = [0, 1, 2, len - 1, len, len + 1, u32::MAX];
        let decode_all = |t: &Tape| {
            for token in t.iter(html) {
                let _ = describe(&token);
            }
        };
        let (records, attrs, doctypes) = parts(&tape);
        for i in 0..records.len() {
            for field in 0..10 {
                for &v in &values {
                    let mut r = records.clone();
                    let rec = &mut r[i];
                    match field {
                        0 => rec.start = v,
                        1 => rec.end = v,
                        2 => rec.main_start = v,
                        3 => rec.main_end = v,
                        4 => rec.extra = v,
                        5 => rec.count = v,
                        6 => rec.kind = v as u8,
                        7 => rec.flags = v as u8,
                        8 => rec.text_kind = v as u8,
                        _ => rec.reserved = v as u8,
                    }
                    if let Ok(t) = Tape::from_parts(r, attrs.clone(), doctypes.clone(), html.len())
                    {
                        decode_all(&t);
                    }
                }
            }
        }
        for i in 0..attrs.len() {
            for field in 0..6 {
                for &v in &values {
                    let mut a = attrs.clone();
                    let rec = &mut a[i];
                    *[
                        &mut rec.name_start,
                        &mut rec.name_end,
                        &mut rec.value_start,
                        &mut rec.value_end,
                        &mut rec.raw_end,
                        &mut rec.flags,
                    ][field] = v;
                    if let Ok(t) =
                        Tape::from_parts(records.clone(), a, doctypes.clone(), html.len())
                    {
                        decode_all(&t);
                    }
                }
            }
        }
        for field in 0..7 {
            for &v in &values {
                let mut d = doctypes.clone();
                if field < 6 {
                    d[0].spans[field / 2][field % 2] = v;
                } else {
                    d[0].present = v;
                }
                if let Ok(t) = Tape::from_parts(records.clone(), attrs.clone(), d, html.len()) {
                    decode_all(&t);
                }
            }
        }
        assert!(matches!(
            Tape::from_parts(Vec::new(), Vec::new(), Vec::new(), usize::MAX),
            Err(TapeError::TooLarge { .. })
        ));
    }

    #[cfg(feature = "bytemuck")]
    #[test]
    fn a_tape_as_bytes_and_back() {
        fn read_back<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
            // As from a file: the bytes need not be aligned.
            bytes
                .chunks_exact(std::mem::size_of::<T>())
                .map(bytemuck::pod_read_unaligned)
                .collect()
        }
        let html = b"<!DOCTYPE html><p class=x>Hi</p>";
        let tape = Tape::new(html);
        let back = Tape::from_parts(
            read_back(bytemuck::cast_slice(tape.records())),
            read_back(bytemuck::cast_slice(tape.attr_records())),
            read_back(bytemuck::cast_slice(tape.doctype_records())),
            html.len(),
        )
        .unwrap();
        let describe_all = |t: &Tape| t.iter(html).map(|t| describe(&t)).collect::<Vec<_>>();
        assert_eq!(describe_all(&back), describe_all(&tape));
    }

    #[test]
    fn a_reused_tape_is_the_fresh_tape() {
        let pages: [&[u8]; 4] = [
            b"<!DOCTYPE html><a href=x b='y' c>text</a><!--c-->",
            b"<p>short",
            b"<svg><![CDATA[x]]></svg><b <<b>",
            b"",
        ];
        let mut reused = Tape::default();
        for builder in [Builder::default(), Builder::default().errors(true)] {
            for page in pages {
                builder.clone().tape_into(page, &mut reused).unwrap();
                let fresh = builder.clone().tape(page);
                assert_eq!(parts(&reused), parts(&fresh), "{page:?}");
                assert_eq!(reused.errors(), fresh.errors(), "{page:?}");
                assert_eq!(reused.input_len(), page.len());
            }
        }
    }

    #[test]
    fn another_input_gives_nothing() {
        let tape = Tape::new(b"<p>x</p>");
        assert!(tape.get(b"<p>x</p>!", 0).is_none());
        assert_eq!(tape.iter(b"").count(), 0);
        assert!(tape.get(b"<p>x</p>", 3).is_none());
        assert_eq!(tape.span(1), Some(Span::new(3, 4)));
    }
}
