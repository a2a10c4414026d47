//! The token tape: a whole document tokenized into compact records that hold no borrow of
//! the input, for consumers that keep tokens past the next call (bindings to other
//! languages, batch jobs, benchmarks).
//!
//! A [`Tape`] stores, per token, its kind, flags and spans (offsets into the input), and
//! per tag its attributes' spans in one shared array, so building it allocates a few
//! growing vectors per document, never per token. Nothing is decoded: [`Tape::get`]
//! re-attaches a record to the input and gives the same [`Token`] view, with the same lazy
//! decoding, that [`crate::Tokenizer::next_token`] gave. The tape is exactly the token
//! stream of `next_token` with the same options (a property test checks it).

use crate::error::ParseError;
use crate::machine::Builder;
use crate::span::Span;
use crate::token::{AttrSpans, Comment, Doctype, Tag, Text, TextKind, Token};

/// What kind of token a record holds, and its one flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `extra` indexes [`Tape::doctypes`].
    Doctype {
        force_quirks: bool,
    },
    /// `extra..extra + count` index [`Tape::attrs`].
    StartTag {
        self_closing: bool,
    },
    /// As `StartTag`.
    EndTag {
        self_closing: bool,
    },
    Comment,
    Text(TextKind),
}

/// One token: 48 bytes on 64-bit targets (spans as `usize` pairs; #14 asks for compact
/// `#[repr(C)]` records with 32-bit offsets).
#[derive(Clone, Copy, Debug)]
struct Record {
    /// The token's raw bytes.
    raw: Span,
    /// The tag name, the comment data, or the text content (unused for a DOCTYPE).
    main: Span,
    /// Where the token's further spans start (attributes of a tag, fields of a DOCTYPE).
    extra: u32,
    /// How many attributes a tag has.
    count: u32,
    kind: Kind,
}

/// The optional fields of a DOCTYPE token.
#[derive(Clone, Copy, Debug)]
struct DoctypeSpans {
    name: Option<Span>,
    public_id: Option<Span>,
    system_id: Option<Span>,
}

/// A document's tokens (and parse errors, when on), held without borrowing the input.
/// Build it with [`Builder::tape`] or [`Tape::new`], read it with [`Tape::get`] or
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
    records: Vec<Record>,
    attrs: Vec<AttrSpans>,
    doctypes: Vec<DoctypeSpans>,
    errors: Vec<ParseError>,
    input_len: usize,
}

impl Builder {
    /// Tokenizes the whole of `input` into a [`Tape`] with these options.
    ///
    /// # Panics
    ///
    /// When a document has 2³² tags' attributes or DOCTYPEs in all (which needs an input of
    /// more than 8 GiB).
    pub fn tape(self, input: &[u8]) -> Tape {
        let mut tape = Tape {
            input_len: input.len(),
            // A page averages about 50 bytes per token; reserving for that saves the
            // vector's early doublings without over-committing on text-heavy pages.
            records: Vec::with_capacity(input.len() / 64 + 16),
            ..Tape::default()
        };
        let mut tok = self.build(input);
        while let Some(token) = tok.next_token() {
            tape.push(&token);
        }
        tape.errors = tok.take_errors();
        tape
    }
}

fn index(n: usize) -> u32 {
    u32::try_from(n).expect("a tape holds fewer than 2^32 attributes and DOCTYPEs")
}

impl Tape {
    /// Appends one token's record.
    #[inline]
    pub(crate) fn push(&mut self, token: &Token<'_, '_>) {
        let record = match token {
            Token::Doctype(d) => {
                let extra = index(self.doctypes.len());
                self.doctypes.push(DoctypeSpans {
                    name: d.name,
                    public_id: d.public_id,
                    system_id: d.system_id,
                });
                Record {
                    raw: d.raw,
                    main: d.raw,
                    extra,
                    count: 0,
                    kind: Kind::Doctype {
                        force_quirks: d.force_quirks,
                    },
                }
            }
            Token::StartTag(t) | Token::EndTag(t) => {
                let extra = index(self.attrs.len());
                self.attrs.extend_from_slice(t.attrs);
                let self_closing = t.self_closing;
                Record {
                    raw: t.raw,
                    main: t.name,
                    extra,
                    count: index(t.attrs.len()),
                    kind: if matches!(token, Token::StartTag(_)) {
                        Kind::StartTag { self_closing }
                    } else {
                        Kind::EndTag { self_closing }
                    },
                }
            }
            Token::Comment(c) => Record {
                raw: c.raw,
                main: c.data,
                extra: 0,
                count: 0,
                kind: Kind::Comment,
            },
            Token::Text(t) => Record {
                raw: t.raw,
                main: t.content,
                extra: 0,
                count: 0,
                kind: Kind::Text(t.kind),
            },
        };
        self.records.push(record);
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
        debug_assert!(matches!(r.kind, Kind::Text(_)));
        r.raw.end = end;
        r.main.end = end;
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

    /// Tokenizes `input` with the default options (simulation on, parse errors off).
    pub fn new(input: &[u8]) -> Tape {
        Builder::default().tape(input)
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
        self.records.get(index).map(|r| r.raw)
    }

    /// Token `index`, attached to `input`, which must be the input the tape was made from:
    /// None past the end, or when `input`'s length differs from it (a cheap guard against
    /// mixing inputs up; a different input of the same length gives tokens of wrong bytes,
    /// never a panic or an out-of-bounds read).
    pub fn get<'a, 't>(&'t self, input: &'a [u8], index: usize) -> Option<Token<'a, 't>> {
        if input.len() != self.input_len {
            return None;
        }
        self.get_unchecked_len(input, index)
    }

    #[inline]
    fn get_unchecked_len<'a, 't>(&'t self, input: &'a [u8], index: usize) -> Option<Token<'a, 't>> {
        let r = self.records.get(index)?;
        Some(match r.kind {
            Kind::Doctype { force_quirks } => {
                let d = self.doctypes[r.extra as usize];
                Token::Doctype(Doctype {
                    input,
                    raw: r.raw,
                    name: d.name,
                    public_id: d.public_id,
                    system_id: d.system_id,
                    force_quirks,
                })
            }
            Kind::StartTag { self_closing } | Kind::EndTag { self_closing } => {
                let start = r.extra as usize;
                let tag = Tag {
                    input,
                    raw: r.raw,
                    name: r.main,
                    self_closing,
                    attrs: &self.attrs[start..start + r.count as usize],
                };
                if matches!(r.kind, Kind::StartTag { .. }) {
                    Token::StartTag(tag)
                } else {
                    Token::EndTag(tag)
                }
            }
            Kind::Comment => Token::Comment(Comment {
                input,
                raw: r.raw,
                data: r.main,
            }),
            Kind::Text(kind) => Token::Text(Text {
                input,
                raw: r.raw,
                content: r.main,
                kind,
            }),
        })
    }

    /// Every token, in order, attached to `input` (see [`Tape::get`]; nothing when the
    /// input's length differs from the tape's).
    pub fn iter<'a, 't>(&'t self, input: &'a [u8]) -> impl Iterator<Item = Token<'a, 't>> {
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
    use crate::{State, Tokenizer};

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
    fn another_input_gives_nothing() {
        let tape = Tape::new(b"<p>x</p>");
        assert!(tape.get(b"<p>x</p>!", 0).is_none());
        assert_eq!(tape.iter(b"").count(), 0);
        assert!(tape.get(b"<p>x</p>", 3).is_none());
        assert_eq!(tape.span(1), Some(Span::new(3, 4)));
    }
}
