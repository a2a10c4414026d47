//! The tokenizer: the 80 states of HTML § 13.2.5, run over raw bytes.
//!
//! The machine never copies text. It records where each token's pieces begin and end
//! (see [`crate::token`]); the scanner in [`crate::scan`] skips the bytes in between.
//!
//! Each state has one home, headed by its section number and name as the spec writes them
//! (`13.2.5.34 After attribute name state`): a method named after the state, or, for the
//! tag name and attribute states, one arm of the tag loop `tag::tag_states`. The homes are
//! in the submodule for their group:
//!
//! | module | states |
//! |---|---|
//! | `text` | 13.2.5.1–5 data, RCDATA, RAWTEXT, script data, PLAINTEXT; 9–14 the RCDATA and RAWTEXT less-than sign, end tag open and end tag name states; 16–17 script data end tag open and end tag name; 24–25 script data escaped end tag open and end tag name |
//! | `script` | 13.2.5.15 script data less-than sign; 18–23 the script data escape and escaped states; 26–31 the double-escape states |
//! | `tag` | 13.2.5.6–7 tag open, end tag open (methods); 8 tag name, 32–40 the attribute states and self-closing start tag (arms of `tag_states`) |
//! | `comment` | 13.2.5.41–52 bogus comment, markup declaration open, comment states |
//! | `doctype` | 13.2.5.53–68 DOCTYPE states |
//! | `cdata` | 13.2.5.69–71 CDATA section states |
//! | [`crate::charref`] | 13.2.5.72–80 character reference states, one function (`resolve`) with one commented section per state |
//!
//! Eight tag states also have a shortcut: a copy of their commonest branches, taken from
//! the state before them so that a common tag needs fewer trips round a loop. Each is
//! commented "Shortcut of 13.2.5.N … (home: …)": 13.2.5.6 and 13.2.5.7 in
//! `text::tag_open_shortcut` (the data state's `<`); 13.2.5.8 at the top of
//! `tag::tag_states` (a short name scan, then `>` or whitespace); 13.2.5.32 in
//! `tag::before_attribute_name_shortcut`; 13.2.5.35 in the attribute name arm and, with
//! 13.2.5.36 and 13.2.5.37, in `tag::quoted_attribute`; 13.2.5.39 in the attribute name
//! arm and the quoted attribute value arm.
//!
//! The spec's verbs are helpers: `switch_to` ("Switch to the X state": the current input
//! character is consumed), `reconsume_in` ("Reconsume in the X state": it is not),
//! `consume_and_switch_to` (a matched keyword), `consume_and_stay`, and `emit_*` for
//! emitting (`emit_text`, `emit_current_tag`, `emit_current_comment`,
//! `emit_current_doctype`, `emit_eof`). The tag loop keeps its position and state in
//! locals and has its own `switch_to` and `reconsume_in` over them.
//!
//! Beside them, `into_tape` writes each token's records to a [`crate::Tape`] straight from
//! the tokenizer's fields (and holds the builder's `tape` methods).
//!
//! Bytes, not characters: every byte that the states name is ASCII, so a non-ASCII byte
//! (valid UTF-8 or not) is always "anything else" and the machine can run on bytes. CR is
//! handled as the LF that newline normalisation (13.2.3.5) would have made of it: it is
//! whitespace wherever LF is, and decoding turns it into LF.

mod cdata;
mod comment;
mod doctype;
mod into_tape;
mod script;
mod tag;
mod text;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::hash::RandomState;

use crate::attrs::{AttrList, AttrSpans};
use crate::error::{ErrorCode, ParseError};
use crate::feedback::{FramesetTracker, HtmlStartTag, Outcome, Simulator, html_start_tag_kind_at};
use crate::scan::Scanner;
use crate::span::Span;
use crate::state::State;
use crate::token::{Comment, Doctype, Tag, Text, TextKind, Token};

/// Every state of 13.2.5, named as the spec names it. The character reference states
/// (13.2.5.72–80) run as one function, [`crate::charref::resolve`], and are not listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum S {
    Data,
    Rcdata,
    Rawtext,
    ScriptData,
    Plaintext,
    TagOpen,
    EndTagOpen,
    RcdataLessThanSign,
    RcdataEndTagOpen,
    RcdataEndTagName,
    RawtextLessThanSign,
    RawtextEndTagOpen,
    RawtextEndTagName,
    ScriptDataLessThanSign,
    ScriptDataEndTagOpen,
    ScriptDataEndTagName,
    ScriptDataEscapeStart,
    ScriptDataEscapeStartDash,
    ScriptDataEscaped,
    ScriptDataEscapedDash,
    ScriptDataEscapedDashDash,
    ScriptDataEscapedLessThanSign,
    ScriptDataEscapedEndTagOpen,
    ScriptDataEscapedEndTagName,
    ScriptDataDoubleEscapeStart,
    ScriptDataDoubleEscaped,
    ScriptDataDoubleEscapedDash,
    ScriptDataDoubleEscapedDashDash,
    ScriptDataDoubleEscapedLessThanSign,
    ScriptDataDoubleEscapeEnd,
    // The states inside a tag stay together, in this order, so that `is_inside_tag` is
    // one range check.
    TagName,
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    AttributeValueDoubleQuoted,
    AttributeValueSingleQuoted,
    AttributeValueUnquoted,
    AfterAttributeValueQuoted,
    SelfClosingStartTag,
    BogusComment,
    MarkupDeclarationOpen,
    CommentStart,
    CommentStartDash,
    Comment,
    CommentLessThanSign,
    CommentLessThanSignBang,
    CommentLessThanSignBangDash,
    CommentLessThanSignBangDashDash,
    CommentEndDash,
    CommentEnd,
    CommentEndBang,
    Doctype,
    BeforeDoctypeName,
    DoctypeName,
    AfterDoctypeName,
    AfterDoctypePublicKeyword,
    BeforeDoctypePublicIdentifier,
    DoctypePublicIdentifierDoubleQuoted,
    DoctypePublicIdentifierSingleQuoted,
    AfterDoctypePublicIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeSystemIdentifier,
    DoctypeSystemIdentifierDoubleQuoted,
    DoctypeSystemIdentifierSingleQuoted,
    AfterDoctypeSystemIdentifier,
    BogusDoctype,
    CdataSection,
    CdataSectionBracket,
    CdataSectionEnd,
    /// After the end-of-file token: nothing more comes.
    Done,
}

impl S {
    /// The tag name state (13.2.5.8), the attribute states (13.2.5.32–39) and the
    /// self-closing start tag state (13.2.5.40): the states [`Tokenizer::tag_states`] runs.
    #[inline(always)]
    fn is_inside_tag(self) -> bool {
        matches!(
            self,
            S::TagName
                | S::BeforeAttributeName
                | S::AttributeName
                | S::AfterAttributeName
                | S::BeforeAttributeValue
                | S::AttributeValueDoubleQuoted
                | S::AttributeValueSingleQuoted
                | S::AttributeValueUnquoted
                | S::AfterAttributeValueQuoted
                | S::SelfClosingStartTag
        )
    }
}

impl From<State> for S {
    /// The internal state for a public one.
    fn from(state: State) -> S {
        match state {
            State::Data => S::Data,
            State::Plaintext => S::Plaintext,
            State::Rcdata => S::Rcdata,
            State::Rawtext => S::Rawtext,
            State::ScriptData => S::ScriptData,
            State::CdataSection => S::CdataSection,
        }
    }
}

/// What a state method tells the driver loop.
enum Flow {
    /// The state (or position) changed: run the next state.
    Continue,
    /// A token is ready in `Tokenizer::pending`.
    Emit,
}

/// A finished token, as spans, waiting to be handed out.
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// A run of character tokens whose raw span is its content (every text but a CDATA
    /// section's): stored as one span, handed out through [`PendingKind::Run`].
    Run {
        span: Span,
        kind: TextKind,
    },
    Text {
        raw: Span,
        content: Span,
        kind: TextKind,
    },
    Tag,
    Comment {
        raw: Span,
        data: Span,
    },
    Doctype,
}

/// `Pending` as stored between `run` and `token`: `repr(C)` with the two ends of each span
/// apart, for the reason given at [`CurrentTag`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct StoredPending {
    raw_start: usize,
    inner_start: usize,
    raw_end: usize,
    inner_end: usize,
    what: PendingKind,
    text_kind: TextKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PendingKind {
    /// [`Pending::Run`]: `raw_start..raw_end` is both spans of the text (`inner_*` are not
    /// stored: two stores and two loads fewer for the commonest token but tags).
    Run,
    Text,
    Tag,
    Comment,
    Doctype,
}

impl StoredPending {
    #[inline(always)]
    fn store(pending: Pending) -> StoredPending {
        let (what, raw, inner, text_kind) = match pending {
            Pending::Run { span, kind } => (PendingKind::Run, span, span, kind),
            Pending::Text { raw, content, kind } => (PendingKind::Text, raw, content, kind),
            Pending::Tag => (PendingKind::Tag, Span::EMPTY, Span::EMPTY, TextKind::Data),
            Pending::Comment { raw, data } => (PendingKind::Comment, raw, data, TextKind::Data),
            Pending::Doctype => (
                PendingKind::Doctype,
                Span::EMPTY,
                Span::EMPTY,
                TextKind::Data,
            ),
        };
        StoredPending {
            raw_start: raw.start,
            inner_start: inner.start,
            raw_end: raw.end,
            inner_end: inner.end,
            what,
            text_kind,
        }
    }
}

/// The tag token being built (13.2.5.6–40).
///
/// `repr(C)` with the two ends of each span apart: the ends are stored one at a time
/// while the tag is read, just before the token is handed out, and a copy of the span as
/// one 16-byte load would have to wait for both stores to reach the cache (a failed store
/// forward). Kept apart, each end is loaded on its own and forwarded from its store.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct CurrentTag {
    /// Offset of the `<`.
    start: usize,
    name_start: usize,
    /// Offset one past the `>`, once emitted.
    end: usize,
    name_end: usize,
    /// Index in `attrs` of the attribute being built by the states after the attribute
    /// name state; None when it was a duplicate. Set by `leave_attribute_name`, and read
    /// only after it (a quoted attribute of the common shape is stored whole and leaves
    /// it stale; `create_tag` leaves the last tag's): the value states that read it
    /// (13.2.5.35–38) are entered only from the before attribute value state, which only
    /// the attribute name state's `=` and the after attribute name state's `=` enter, and
    /// both come after `leave_attribute_name` for the same attribute.
    attr: Option<usize>,
    /// Start of the current attribute's name (kept even for a dropped duplicate).
    attr_name_start: usize,
    /// One bit per plain attribute name seen (see `tag::name_filter_bit`).
    name_filter: u64,
    is_end: bool,
    self_closing: bool,
    /// Every attribute name so far was plain (ASCII without NUL), so `name_filter` holds.
    all_names_plain: bool,
}

impl CurrentTag {
    fn name(&self) -> Span {
        Span::new(self.name_start, self.name_end)
    }
}

/// The DOCTYPE token being built (13.2.5.53–68).
#[derive(Clone, Copy, Debug, Default)]
struct CurrentDoctype {
    start: usize,
    end: usize,
    name: Option<Span>,
    public_id: Option<Span>,
    system_id: Option<Span>,
    force_quirks: bool,
}

/// Options for a [`Tokenizer`]; see [`Tokenizer::builder`].
#[derive(Clone, Debug)]
pub struct Builder {
    errors: bool,
    simulation: bool,
    scripting: bool,
    state: State,
    /// Lowercase (ASCII) bytes; a name the stream tokenizer carries over may hold any bytes.
    last_start_tag: Option<Vec<u8>>,
    scanner: Scanner,
    keep_bom: bool,
    html5ever_quirks: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            errors: false,
            simulation: true,
            scripting: true,
            state: State::Data,
            last_start_tag: None,
            scanner: Scanner::detect(),
            keep_bom: false,
            html5ever_quirks: false,
        }
    }
}

impl Builder {
    /// Record parse errors (off by default; when off they cost nothing).
    pub fn errors(mut self, on: bool) -> Self {
        self.errors = on;
        self
    }

    /// Whether these options record parse errors ([`Builder::errors`]).
    pub fn errors_enabled(&self) -> bool {
        self.errors
    }

    /// Simulate the tree builder's state switches (on by default): RCDATA after `<title>`
    /// and `<textarea>`, RAWTEXT after `<style>`, `<xmp>`, `<iframe>`, `<noembed>`,
    /// `<noframes>` (and `<noscript>` with scripting on), script data after `<script>`,
    /// PLAINTEXT after `<plaintext>`, and CDATA sections inside `<svg>`/`<math>`. Turn it
    /// off when a real tree builder drives the state through the `set_*` methods.
    pub fn simulation(mut self, on: bool) -> Self {
        self.simulation = on;
        self
    }

    /// For the tree-builder comparison only (`benches/tests/tree_builder.rs`): simulate
    /// where html5ever 0.40's tree builder departs from the standard (its special
    /// category has HTML elements only; MathML `annotation-xml` is not in its scope list
    /// nor, as an HTML integration point, where leaving foreign content stops). Off by
    /// default; not part of the API.
    #[doc(hidden)]
    pub fn simulate_html5ever_quirks(mut self, on: bool) -> Self {
        self.html5ever_quirks = on;
        self
    }

    /// Whether scripting is enabled for the simulation (on by default, as in a browser):
    /// it decides whether `<noscript>` content is RAWTEXT.
    pub fn scripting(mut self, on: bool) -> Self {
        self.scripting = on;
        self
    }

    /// The state to start in (data state by default).
    pub fn state(mut self, state: State) -> Self {
        self.state = state;
        self
    }

    /// The tag name of "the last start tag to have been emitted" (for the appropriate end
    /// tag check when starting in RCDATA, RAWTEXT or script data).
    pub fn last_start_tag(mut self, name: &str) -> Self {
        self.last_start_tag = Some(name.to_ascii_lowercase().into_bytes());
        self
    }

    /// [`Builder::last_start_tag`] as bytes (None: no last start tag), for the stream
    /// tokenizer, which carries the name of a start tag it has dropped from its buffer.
    pub(crate) fn last_start_tag_bytes(mut self, name: Option<Vec<u8>>) -> Self {
        self.last_start_tag = name;
        self
    }

    /// A new simulator for these options (None when the simulation is off), for the stream
    /// tokenizer: it tracks the whole stack of open elements from the start, since the
    /// stream cannot re-read the bytes it has dropped when a lazy one would ask for it.
    pub(crate) fn new_simulator(&self) -> Option<Simulator> {
        self.simulation.then(|| {
            Simulator::new_whole_stack(self.scripting).with_html5ever_quirks(self.html5ever_quirks)
        })
    }

    /// The initial state ([`Builder::state`]).
    pub(crate) fn initial_state(&self) -> State {
        self.state
    }

    /// The last start tag set with [`Builder::last_start_tag`], lowercase.
    pub(crate) fn initial_last_start_tag(&self) -> Option<&[u8]> {
        self.last_start_tag.as_deref()
    }

    /// Whether a leading byte order mark is kept ([`Builder::keep_bom`]).
    pub(crate) fn keeps_bom(&self) -> bool {
        self.keep_bom
    }

    /// The scanner implementation (default: the best the CPU supports, see
    /// [`Scanner::detect`]). One the CPU cannot run falls back to the best it can.
    pub fn scanner(mut self, scanner: Scanner) -> Self {
        self.scanner = if scanner.is_supported() {
            scanner
        } else {
            Scanner::best()
        };
        self
    }

    /// Keep a UTF-8 byte order mark at the start of the input as text (off by default).
    ///
    /// By default the tokenizer skips it, as the Encoding standard's "decode" does before
    /// the tokenizer sees the stream (HTML § 13.2.3: the BOM is not part of the document):
    /// the first token then starts at offset 3, and bytes 0..3 are a gap between the
    /// spans. Keep it where the input already is a decoded stream whose U+FEFF is content
    /// (the html5lib tests feed such strings).
    pub fn keep_bom(mut self, keep: bool) -> Self {
        self.keep_bom = keep;
        self
    }

    /// A tokenizer over `input` with these options.
    pub fn build(self, input: &[u8]) -> Tokenizer<'_> {
        self.build_inner(input, None)
    }

    /// A tokenizer over `input` whose parse errors go to `sink` as they are found, in the
    /// order [`Tokenizer::errors`] would list them, instead of into that list: memory then
    /// stays flat however many errors the input has. Turns errors on.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use htmltok::{ErrorCode, Tokenizer};
    ///
    /// let mut counts = HashMap::<ErrorCode, usize>::new();
    /// let mut tok = Tokenizer::builder()
    ///     .build_with_sink(b"<a b b><<<", |e| *counts.entry(e.code).or_default() += 1);
    /// while tok.next_token().is_some() {}
    /// assert!(tok.errors().is_empty());
    /// drop(tok);
    /// assert_eq!(counts[&ErrorCode::DuplicateAttribute], 1);
    /// assert_eq!(counts[&ErrorCode::InvalidFirstCharacterOfTagName], 2);
    /// ```
    pub fn build_with_sink<'a>(
        self,
        input: &'a [u8],
        sink: impl FnMut(ParseError) + Send + Sync + 'a,
    ) -> Tokenizer<'a> {
        self.errors(true).build_inner(input, Some(Box::new(sink)))
    }

    /// A tokenizer over `input` that continues a stream (`crate::stream`): the state, last
    /// start tag and keep_bom come from `self`; the simulator, the foreign-content flag
    /// and what the frameset-ok flag knows of the tokens before `input` from `origin`.
    /// A tag that ends after offset `limit` is not given to the simulator: the stream
    /// keeps no token from there on, so that its simulator stands after the last tag
    /// it keeps.
    pub(crate) fn build_resumed<'a>(
        self,
        input: &'a [u8],
        origin: &Origin,
        limit: usize,
    ) -> Tokenizer<'a> {
        let mut tok = self.build_inner(input, None);
        tok.simulator = origin.simulator.clone();
        tok.foreign_content = origin.foreign_content;
        tok.origin = Some(Box::new(Origin {
            limit,
            ..origin.clone()
        }));
        tok
    }

    fn build_inner<'a>(self, input: &'a [u8], sink: Option<ErrorSink<'a>>) -> Tokenizer<'a> {
        let start = if !self.keep_bom && input.starts_with(UTF8_BOM) {
            UTF8_BOM.len()
        } else {
            0
        };
        let mut tokenizer = Tokenizer {
            input,
            pos: start,
            state: S::from(self.state),
            text_start: NO_TEXT,
            text_kind: text_kind_of(S::from(self.state)),
            markup_start: 0,
            tag: CurrentTag::default(),
            attrs: Vec::new(),
            attr_index: HashMap::new(),
            attr_indexed: 0,
            hasher: RandomState::new(),
            doctype: CurrentDoctype::default(),
            comment_start: 0,
            comment_data_start: 0,
            cdata_start: 0,
            temp_start: 0,
            last_start_tag: NOT_IN_INPUT,
            last_start_tag_set: None,
            foreign_content: false,
            simulator: self.simulation.then(|| {
                Simulator::new(self.scripting).with_html5ever_quirks(self.html5ever_quirks)
            }),
            scanner: self.scanner,
            pending: StoredPending::store(Pending::Tag),
            errors_on: self.errors,
            errors: Vec::new(),
            sink,
            stream_next: usize::MAX,
            origin: None,
            replay: Builder {
                last_start_tag: self.last_start_tag.clone(),
                errors: false,
                ..self
            },
        };
        tokenizer.last_start_tag_set = self.last_start_tag;
        if tokenizer.errors_on {
            tokenizer.stream_next = tokenizer.scanner.find_stream_error_candidate(input);
        }
        tokenizer
    }
}

/// A callback that takes parse errors as they are found ([`Builder::build_with_sink`]).
type ErrorSink<'a> = Box<dyn FnMut(ParseError) + Send + Sync + 'a>;

/// `Tokenizer::text_start` when no text run is open: a sentinel rather than an `Option`,
/// so that opening a run is one store and handing it out one comparison with its end.
const NO_TEXT: usize = usize::MAX;

/// The UTF-8 encoding of U+FEFF, the byte order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// `Tokenizer::last_start_tag` when no start tag of the input has set it: a sentinel
/// rather than an enum, so that setting it at every start tag is two stores (an enum with
/// an owned name needed a check for a name to drop, about ten instructions a start tag).
const NOT_IN_INPUT: Span = Span {
    start: usize::MAX,
    end: usize::MAX,
};

/// A consumer of tokens for [`Tokenizer::next_token_into`]: each call turns one token
/// into an `Output`.
pub trait TokenSink<'a> {
    /// What the sink makes of a token.
    type Output;
    /// Takes the next token (a tag's attributes borrow the tokenizer until it returns).
    fn token(&mut self, token: Token<'a, '_>) -> Self::Output;
    /// The input has ended: there are no more tokens.
    fn end(&mut self) -> Self::Output;

    /// Whether the sink decodes every attribute name (a tree builder does): the attribute
    /// name state then also learns, in the block it reads anyway, whether the name is
    /// lowercase ASCII, and [`crate::Attribute::name_if_unchanged`] gives such a name
    /// without a second pass over it. False by default: a sink that does not decode the
    /// names would only pay for the test (one more compare a name).
    const DECODES_NAMES: bool = false;

    /// Whether the data state and the states inside a tag look for parse errors while
    /// this sink takes the tokens (when the tokenizer records them, [`Builder::errors`]).
    /// True by default. A sink for a tokenizer built with errors off (the tree builder's)
    /// sets it false, and those states then compile without their error checks (about
    /// five instructions a token). The tokens are the same either way (errors never move
    /// a token's boundary); with errors on, such a sink leaves the error list incomplete.
    const PARSE_ERRORS: bool = true;

    /// Whether the tokenizer's simulation of the tree builder (when it was built with one,
    /// [`Builder::simulation`]) follows the tags this sink takes, switching the state
    /// after `<title>`, `<script>`, `<svg>` and so on. True by default. A sink that
    /// switches the tokenizer's state itself ([`Tokenizer::set_state`], as the tree
    /// builder does, whose tokenizers are built with the simulation off) sets it false:
    /// emitting a tag then does not test for a simulator (three instructions a tag), and
    /// a simulator the tokenizer has is neither asked nor told about these tags.
    const SIMULATION: bool = true;
}

/// An exact WHATWG HTML tokenizer over a byte slice.
///
/// ```
/// use htmltok::{Token, Tokenizer};
///
/// let mut tok = Tokenizer::new(b"<p class=intro>Fish &amp; chips</p>");
/// let mut seen = Vec::new();
/// while let Some(token) = tok.next_token() {
///     match token {
///         Token::StartTag(tag) => seen.push(format!("<{} {}>", tag.name(), tag.attr("class").unwrap().value())),
///         Token::Text(text) => seen.push(text.text().into_owned()),
///         Token::EndTag(tag) => seen.push(format!("</{}>", tag.name())),
///         _ => {}
///     }
/// }
/// assert_eq!(seen, ["<p intro>", "Fish & chips", "</p>"]);
/// ```
pub struct Tokenizer<'a> {
    input: &'a [u8],
    /// Offset of the next input character.
    pos: usize,
    state: S,
    /// Start of the run of character tokens not yet handed out; [`NO_TEXT`] when none is
    /// open.
    text_start: usize,
    text_kind: TextKind,
    /// Offset of the `<` that may begin markup.
    markup_start: usize,
    tag: CurrentTag,
    attrs: Vec<AttrSpans<'a>>,
    /// Name hash → index in `attrs`, built only for tags with many attributes so that the
    /// duplicate check stays linear; empty otherwise.
    attr_index: HashMap<u64, usize>,
    /// How many of `attrs` are in `attr_index`.
    attr_indexed: usize,
    hasher: RandomState,
    doctype: CurrentDoctype,
    comment_start: usize,
    comment_data_start: usize,
    /// Start of the raw bytes of the CDATA section being read.
    cdata_start: usize,
    /// Start of the temporary buffer (the bytes after `</` or `<` in the text states).
    temp_start: usize,
    /// "The tag name of the last start tag to have been emitted from this tokenizer", when
    /// a start tag of this input set it: its name in the input (no copy). [`NOT_IN_INPUT`]
    /// otherwise, and then `last_start_tag_set` holds it.
    last_start_tag: Span,
    /// The last start tag's name when it was set from outside (lowercase), or None (no
    /// start tag yet); read only while `last_start_tag` is [`NOT_IN_INPUT`].
    last_start_tag_set: Option<Vec<u8>>,
    /// Whether the adjusted current node is an element not in the HTML namespace (decides
    /// whether `<![CDATA[` opens a CDATA section).
    foreign_content: bool,
    simulator: Option<Simulator>,
    scanner: Scanner,
    /// The token `run` finished last.
    pending: StoredPending,
    errors_on: bool,
    errors: Vec<ParseError>,
    /// Where parse errors go instead of `errors`, if set ([`Builder::build_with_sink`]).
    /// Called on the cold path only, so the common case pays nothing for it.
    sink: Option<ErrorSink<'a>>,
    /// The next offset that may begin an input-stream error (13.2.3.5); every error before
    /// it has been reported. Unused when errors are off.
    stream_next: usize,
    /// The options this tokenizer started with (errors off): `frameset_allowed` re-reads
    /// the input with them.
    replay: Builder,
    /// For a tokenizer that continues a stream: how the tokens before its input left the
    /// simulation (None: the input is the whole document).
    origin: Option<Box<Origin>>,
}

/// What a stream tokenizer's earlier tokens left behind that the tokens of its next input
/// depend on, beside the state and the last start tag ([`Builder::build_resumed`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Origin {
    /// The tree-builder simulation (None when it is off).
    pub(crate) simulator: Option<Simulator>,
    /// [`Tokenizer::set_foreign_content`].
    pub(crate) foreign_content: bool,
    /// The frameset-ok flag as the earlier tokens leave it.
    pub(crate) frameset: FramesetTracker,
    /// In the tokenizer [`Builder::build_resumed`] makes: a tag ending after this offset
    /// is not simulated (see there). Unused elsewhere.
    pub(crate) limit: usize,
}

fn text_kind_of(state: S) -> TextKind {
    match state {
        S::Rcdata => TextKind::Rcdata,
        S::Rawtext => TextKind::Rawtext,
        S::ScriptData => TextKind::ScriptData,
        S::Plaintext => TextKind::Plaintext,
        S::CdataSection => TextKind::Cdata,
        _ => TextKind::Data,
    }
}

/// ASCII whitespace as the tokenizer sees it: tab, LF, FF, space, and CR (which newline
/// normalisation would have turned into LF).
#[inline]
fn is_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r')
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer with the default options: data state, simulation on, errors off.
    pub fn new(input: &'a [u8]) -> Self {
        Builder::default().build(input)
    }

    /// Options: `Tokenizer::builder().errors(true).simulation(false).build(input)`.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Parse errors recorded so far (always empty unless errors were turned on), in the
    /// order the spec raises them. They accumulate until taken
    /// ([`Tokenizer::take_errors`]); one token can carry any number of them (a text run of
    /// a million `<<`), so to keep memory flat whatever the input, have them handed over
    /// as they are found with [`Builder::build_with_sink`] (then this list stays empty).
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// Takes the errors recorded so far, leaving none.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.errors)
    }

    /// The input being tokenized.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Offset of the next byte the tokenizer will look at.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The state as a public [`State`], when it is one (between tokens it is, except
    /// after a text token, which hands out text before reading the markup that ended it).
    pub(crate) fn public_state(&self) -> Option<State> {
        Some(match self.state {
            S::Data => State::Data,
            S::Rcdata => State::Rcdata,
            S::Rawtext => State::Rawtext,
            S::ScriptData => State::ScriptData,
            S::Plaintext => State::Plaintext,
            S::CdataSection => State::CdataSection,
            _ => return None,
        })
    }

    /// The span of the last start tag's name when a start tag of this input set it; None
    /// when it is still the one the tokenizer started with.
    pub(crate) fn last_start_tag_span(&self) -> Option<Span> {
        (self.last_start_tag != NOT_IN_INPUT).then_some(self.last_start_tag)
    }

    /// [`Tokenizer::set_foreign_content`]'s flag.
    pub(crate) fn foreign_content(&self) -> bool {
        self.foreign_content
    }

    /// The tree-builder simulation, when on.
    pub(crate) fn simulator(&self) -> Option<&Simulator> {
        self.simulator.as_ref()
    }

    /// The list of parse errors (for the stream tokenizer, which moves them out after
    /// each token without giving up the list's allocation).
    pub(crate) fn errors_mut(&mut self) -> &mut Vec<ParseError> {
        &mut self.errors
    }

    /// Switches the tokenizer's state, as the tree construction stage does (for example
    /// to RCDATA after a `<title>` start tag). Takes effect at the next token; after a text
    /// token, the markup that ended the text is read again in the new state, as it would be
    /// when the spec hands out character tokens one at a time.
    pub fn set_state(&mut self, state: State) {
        if self.state == S::Done {
            return;
        }
        if matches!(self.pending.what, PendingKind::Run | PendingKind::Text)
            && self.pending.raw_end == self.markup_start
            && self.pos > self.markup_start
        {
            // The last token was text that ended where markup begins, and the tokenizer
            // has already started reading that markup. Character tokens come out one by
            // one in the spec, so the tree builder's switch happens before the `<` is
            // consumed: read the markup again in the new state.
            self.pos = self.markup_start;
        }
        self.state = S::from(state);
        self.text_kind = text_kind_of(self.state);
    }

    /// Sets "the last start tag to have been emitted" (its lowercase name).
    pub fn set_last_start_tag(&mut self, name: &str) {
        self.last_start_tag = NOT_IN_INPUT;
        self.last_start_tag_set = Some(name.to_ascii_lowercase().into_bytes());
    }

    /// Tells the tokenizer whether the adjusted current node is an element outside the
    /// HTML namespace; `<![CDATA[` opens a CDATA section only then.
    pub fn set_foreign_content(&mut self, foreign: bool) {
        self.foreign_content = foreign;
    }

    /// The next token, or None at the end of the input. A tag's attributes borrow the
    /// tokenizer until the next call.
    ///
    /// Always inlined: the data state and the tag states run in the caller's loop, with
    /// no call per token (a token loop is usually written once).
    #[inline(always)]
    pub fn next_token(&mut self) -> Option<Token<'a, '_>> {
        if self.run(false, true, true) {
            Some(self.token())
        } else {
            None
        }
    }

    /// The next token handed straight to `sink` ([`TokenSink::token`], or
    /// [`TokenSink::end`] at the end of the input), whose result is returned: the same
    /// tokens as [`Self::next_token`], for a consumer that turns each into a value of its
    /// own, as a tree builder does.
    ///
    /// The sink is called in a separate place for each kind of token, with the token
    /// built right there, so that once its method is inlined (mark it
    /// `#[inline(always)]`) each copy knows the kind it was given and its `match` on the
    /// token folds away. Through `next_token`, the fields of every kind meet in one value
    /// that the consumer's `match` takes apart again, and in a loop as large as the tree
    /// builder's the compiler does not thread the one match into the other.
    #[inline(always)]
    pub fn next_token_into<S: TokenSink<'a>>(&mut self, sink: &mut S) -> S::Output {
        if !self.run(S::DECODES_NAMES, S::PARSE_ERRORS, S::SIMULATION) {
            return sink.end();
        }
        // Tests in the order of frequency, each one compare of the stored kind (a `match`
        // became a range test of the rare kinds first, then a second test: 7 instructions
        // a token).
        let what = self.pending.what;
        if what == PendingKind::Tag {
            // A call site per kind of tag, so that the sink knows which it was given.
            if self.tag.is_end {
                sink.token(Token::EndTag(self.pending_tag()))
            } else {
                sink.token(Token::StartTag(self.pending_tag()))
            }
        } else if what == PendingKind::Run {
            sink.token(Token::Text(self.pending_run()))
        } else {
            // Rare: one call site for comments, DOCTYPEs and CDATA sections.
            sink.token(self.token())
        }
    }

    /// The token in `pending`, built straight from its stored kind and spans.
    #[inline(always)]
    fn token(&self) -> Token<'a, '_> {
        let input = self.input;
        let p = &self.pending;
        match p.what {
            PendingKind::Run => Token::Text(self.pending_run()),
            PendingKind::Text => Token::Text(self.pending_text()),
            PendingKind::Comment => Token::Comment(Comment {
                input,
                raw: Span::new(p.raw_start, p.raw_end),
                data: Span::new(p.inner_start, p.inner_end),
            }),
            PendingKind::Doctype => Token::Doctype(Doctype {
                input,
                raw: Span::new(self.doctype.start, self.doctype.end),
                name: self.doctype.name,
                public_id: self.doctype.public_id,
                system_id: self.doctype.system_id,
                force_quirks: self.doctype.force_quirks,
            }),
            PendingKind::Tag if self.tag.is_end => Token::EndTag(self.pending_tag()),
            PendingKind::Tag => Token::StartTag(self.pending_tag()),
        }
    }

    /// The text token in `pending` (its kind is [`PendingKind::Text`]).
    #[inline(always)]
    fn pending_text(&self) -> Text<'a> {
        let p = &self.pending;
        Text {
            input: self.input,
            raw: Span::new(p.raw_start, p.raw_end),
            content: Span::new(p.inner_start, p.inner_end),
            kind: p.text_kind,
        }
    }

    /// The text run in `pending` (its kind is [`PendingKind::Run`]).
    #[inline(always)]
    fn pending_run(&self) -> Text<'a> {
        let p = &self.pending;
        let span = Span::new(p.raw_start, p.raw_end);
        Text {
            input: self.input,
            raw: span,
            content: span,
            kind: p.text_kind,
        }
    }

    /// The tag in `pending` (its kind is [`PendingKind::Tag`]), start or end.
    #[inline(always)]
    fn pending_tag(&self) -> Tag<'a, '_> {
        Tag {
            input: self.input,
            raw: Span::new(self.tag.start, self.tag.end),
            name: self.tag.name(),
            self_closing: self.tag.self_closing,
            attrs: AttrList::Spans(&self.attrs),
        }
    }

    /// Runs states until a token is ready (true, the token is in `pending`) or the input
    /// has ended (false). `lower_names`, `errors` and `simulation`: the sink's
    /// [`TokenSink::DECODES_NAMES`], [`TokenSink::PARSE_ERRORS`] and
    /// [`TokenSink::SIMULATION`], constants once inlined (`errors` false: the data state
    /// and the tag states record no errors; `simulation` false: a tag they emit is not
    /// given to a simulator).
    ///
    /// Inlined into [`Self::next_token`]: the data state and the states inside a tag
    /// ([`Self::tag_states`]), where a page spends most of its transitions, run in the
    /// caller's loop; every other state runs in [`Self::other_states`], out of line.
    #[inline(always)]
    fn run(&mut self, lower_names: bool, errors: bool, simulation: bool) -> bool {
        loop {
            let flow = match self.state {
                S::Data => self.data_state(lower_names, errors, simulation),
                state if state.is_inside_tag() => self.tag_states(lower_names, errors, simulation),
                S::Done => return false,
                _ => self.other_states(),
            };
            if let Flow::Emit = flow {
                if self.errors_on_if(errors) {
                    // Report the input-stream errors of everything consumed so far, so that
                    // they come out with (not after) the token that holds them. Later
                    // tokenizer errors are never before `pos`, so the order stays sorted.
                    self.check_input_stream(self.pos);
                }
                return true;
            }
        }
    }

    /// Runs the states that [`Self::run`] does not run itself, until a token is ready or
    /// the state is one of those again.
    #[inline(never)]
    fn other_states(&mut self) -> Flow {
        loop {
            let flow = match self.state {
                S::Rcdata => self.rcdata_state(),
                S::Rawtext => self.rawtext_state(),
                S::ScriptData => self.script_data_state(),
                S::Plaintext => self.plaintext_state(),
                S::TagOpen => self.tag_open_state(),
                S::EndTagOpen => self.end_tag_open_state(),
                S::RcdataLessThanSign => self.rcdata_less_than_sign_state(),
                S::RcdataEndTagOpen => self.rcdata_end_tag_open_state(),
                S::RcdataEndTagName => self.rcdata_end_tag_name_state(),
                S::RawtextLessThanSign => self.rawtext_less_than_sign_state(),
                S::RawtextEndTagOpen => self.rawtext_end_tag_open_state(),
                S::RawtextEndTagName => self.rawtext_end_tag_name_state(),
                S::ScriptDataLessThanSign => self.script_data_less_than_sign_state(),
                S::ScriptDataEndTagOpen => self.script_data_end_tag_open_state(),
                S::ScriptDataEndTagName => self.script_data_end_tag_name_state(),
                S::ScriptDataEscapeStart => self.script_data_escape_start_state(),
                S::ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(),
                S::ScriptDataEscaped => self.script_data_escaped_state(),
                S::ScriptDataEscapedDash => self.script_data_escaped_dash_state(),
                S::ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(),
                S::ScriptDataEscapedLessThanSign => self.script_data_escaped_less_than_sign_state(),
                S::ScriptDataEscapedEndTagOpen => self.script_data_escaped_end_tag_open_state(),
                S::ScriptDataEscapedEndTagName => self.script_data_escaped_end_tag_name_state(),
                S::ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(),
                S::ScriptDataDoubleEscaped => self.script_data_double_escaped_state(),
                S::ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(),
                S::ScriptDataDoubleEscapedDashDash => {
                    self.script_data_double_escaped_dash_dash_state()
                }
                S::ScriptDataDoubleEscapedLessThanSign => {
                    self.script_data_double_escaped_less_than_sign_state()
                }
                S::ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(),
                S::BogusComment => self.bogus_comment_state(),
                S::MarkupDeclarationOpen => self.markup_declaration_open_state(),
                S::CommentStart => self.comment_start_state(),
                S::CommentStartDash => self.comment_start_dash_state(),
                S::Comment => self.comment_state(),
                S::CommentLessThanSign => self.comment_less_than_sign_state(),
                S::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
                S::CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(),
                S::CommentLessThanSignBangDashDash => {
                    self.comment_less_than_sign_bang_dash_dash_state()
                }
                S::CommentEndDash => self.comment_end_dash_state(),
                S::CommentEnd => self.comment_end_state(),
                S::CommentEndBang => self.comment_end_bang_state(),
                S::Doctype => self.doctype_state(),
                S::BeforeDoctypeName => self.before_doctype_name_state(),
                S::DoctypeName => self.doctype_name_state(),
                S::AfterDoctypeName => self.after_doctype_name_state(),
                S::AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(),
                S::BeforeDoctypePublicIdentifier => self.before_doctype_public_identifier_state(),
                S::DoctypePublicIdentifierDoubleQuoted => {
                    self.doctype_public_identifier_quoted_state(b'"')
                }
                S::DoctypePublicIdentifierSingleQuoted => {
                    self.doctype_public_identifier_quoted_state(b'\'')
                }
                S::AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(),
                S::BetweenDoctypePublicAndSystemIdentifiers => {
                    self.between_doctype_public_and_system_identifiers_state()
                }
                S::AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(),
                S::BeforeDoctypeSystemIdentifier => self.before_doctype_system_identifier_state(),
                S::DoctypeSystemIdentifierDoubleQuoted => {
                    self.doctype_system_identifier_quoted_state(b'"')
                }
                S::DoctypeSystemIdentifierSingleQuoted => {
                    self.doctype_system_identifier_quoted_state(b'\'')
                }
                S::AfterDoctypeSystemIdentifier => self.after_doctype_system_identifier_state(),
                S::BogusDoctype => self.bogus_doctype_state(),
                S::CdataSection => self.cdata_section_state(),
                S::CdataSectionBracket => self.cdata_section_bracket_state(),
                S::CdataSectionEnd => self.cdata_section_end_state(),
                // The data state, the states inside a tag and the end: `run`'s own.
                state => {
                    debug_assert!(matches!(state, S::Data | S::Done) || state.is_inside_tag());
                    return Flow::Continue;
                }
            };
            if let Flow::Emit = flow {
                return Flow::Emit;
            }
        }
    }

    // ----- reading input ---------------------------------------------------------------

    /// The current input character, or None at EOF.
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// Skips to the next `stop` byte, not consumed, or to the end of the input: the
    /// U+0000 and "anything else" branches of 13.2.5.3 RAWTEXT and 13.2.5.4 script data
    /// states (`stop` `<`) and of 13.2.5.41 bogus comment and 13.2.5.68 bogus DOCTYPE
    /// states (`stop` `>`), which are the same here: each character is consumed (a NUL
    /// with an unexpected-null-character parse error) and none needs more (text and a
    /// comment's data are one span, decoded when read; a bogus DOCTYPE ignores them).
    #[inline(always)]
    fn skip_until(&mut self, stop: u8) {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += if self.errors_on {
                self.scanner.find_byte2(rest, stop, 0)
            } else {
                self.scanner.find_byte(rest, stop)
            };
            if self.peek() != Some(0) {
                return;
            }
            self.error(ErrorCode::UnexpectedNullCharacter);
            self.pos += 1;
        }
    }

    /// True when the input at the current position starts with `word`, ASCII
    /// case-insensitively.
    fn next_is_ignore_case(&self, word: &[u8]) -> bool {
        self.input
            .get(self.pos..self.pos + word.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(word))
    }

    // ----- errors ----------------------------------------------------------------------

    /// Records a parse error at `offset` when errors are on.
    #[inline(always)]
    fn error_at(&mut self, code: ErrorCode, offset: usize) {
        if self.errors_on {
            self.record_error(code, offset);
        }
    }

    /// Whether errors are on and `errors` allows them: `errors` is the caller's sink's
    /// [`TokenSink::PARSE_ERRORS`] (true for [`Self::next_token`]), a constant once
    /// inlined, so that when it is false the test compiles out.
    #[inline(always)]
    fn errors_on_if(&self, errors: bool) -> bool {
        errors && self.errors_on
    }

    /// [`Self::error_at`] when `errors` allows it (see [`Self::errors_on_if`]).
    #[inline(always)]
    fn error_at_if(&mut self, errors: bool, code: ErrorCode, offset: usize) {
        if errors {
            self.error_at(code, offset);
        }
    }

    /// Records a parse error at the current input character.
    #[inline(always)]
    fn error(&mut self, code: ErrorCode) {
        self.error_at(code, self.pos);
    }

    /// Hands one error to the sink, or keeps it in the list.
    #[inline]
    fn push_error(&mut self, error: ParseError) {
        match &mut self.sink {
            Some(sink) => sink(error),
            None => self.errors.push(error),
        }
    }

    #[cold]
    fn record_error(&mut self, code: ErrorCode, offset: usize) {
        // Input-stream errors of characters up to this one come first (the preprocessor
        // sees a character before the tokenizer consumes it).
        self.check_input_stream(offset + 1);
        self.push_error(ParseError { code, offset });
    }

    /// Reports the input-stream errors (13.2.3.5) of characters starting before `end`.
    ///
    /// `stream_next` is the next byte that can begin such an error, every one before it
    /// having been reported. It is found by a SIMD scan over the rest of the input, so a
    /// call with no candidate before `end` (the usual case) is one comparison, and each
    /// byte of the input is scanned once in all.
    #[inline(always)]
    fn check_input_stream(&mut self, end: usize) {
        if self.stream_next < end {
            self.report_input_stream_errors(end);
        }
    }

    #[inline(never)]
    fn report_input_stream_errors(&mut self, end: usize) {
        let input = self.input;
        let end = end.min(input.len());
        while self.stream_next < end {
            let i = self.stream_next;
            let (len, code) = match input[i] {
                0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F => {
                    (1, Some(ErrorCode::ControlCharacterInInputStream))
                }
                0x00..=0x7F => (1, None),
                _ => {
                    let len = crate::error::utf8_char_or_subpart_len(&input[i..]);
                    let code = std::str::from_utf8(&input[i..i + len])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .and_then(input_stream_error);
                    (len, code)
                }
            };
            if let Some(code) = code {
                self.push_error(ParseError { code, offset: i });
            }
            let next = i + len;
            self.stream_next = next + self.scanner.find_stream_error_candidate(&input[next..]);
        }
    }

    // ----- text runs -------------------------------------------------------------------

    /// Notes that character tokens of the current text kind start here (if no run is open).
    #[inline(always)]
    fn open_text(&mut self, at: usize) {
        if self.text_start == NO_TEXT {
            self.text_start = at;
        }
    }

    /// Hands out the open text run, ending at `end`, if it is not empty.
    #[inline]
    fn emit_text(&mut self, end: usize) -> Option<Flow> {
        // No open run is `NO_TEXT`, above every `end`: one comparison answers both.
        let start = std::mem::replace(&mut self.text_start, NO_TEXT);
        (start < end).then(|| {
            let span = Span::new(start, end);
            self.emit(Pending::Run {
                span,
                kind: self.text_kind,
            })
        })
    }

    /// Makes `pending` the next token.
    #[inline(always)]
    fn emit(&mut self, pending: Pending) -> Flow {
        match pending {
            // A tag or DOCTYPE is read from `tag` or `doctype`: only the kind is stored.
            Pending::Tag => self.pending.what = PendingKind::Tag,
            Pending::Doctype => self.pending.what = PendingKind::Doctype,
            // A run's content is its raw span: `inner_*` are left as they are.
            Pending::Run { span, kind } => {
                let p = &mut self.pending;
                p.raw_start = span.start;
                p.raw_end = span.end;
                p.what = PendingKind::Run;
                p.text_kind = kind;
            }
            _ => self.pending = StoredPending::store(pending),
        }
        Flow::Emit
    }

    /// Markup begins at `self.markup_start`: hands out the text before it first, if any.
    /// Callers return the flow right away, before consuming or reporting anything, so that
    /// the same state runs again on the next call.
    #[inline]
    fn emit_text_before_markup(&mut self) -> Option<Flow> {
        self.emit_text(self.markup_start)
    }

    /// The end of the input: hands out the open text run, then nothing more.
    fn emit_eof(&mut self) -> Flow {
        self.state = S::Done;
        if self.errors_on {
            self.check_input_stream(self.input.len());
        }
        self.emit_text(self.input.len()).unwrap_or(Flow::Continue)
    }

    // ----- the spec's verbs ----------------------------------------------------------
    //
    // A state looks at the current input character with `peek` ("consume the next input
    // character" is `peek` plus a decision whether to keep it), then ends its arm with one
    // of these. Text is never emitted character by character: a character that the spec
    // emits as a character token (or appends to a comment, a name, a value) is consumed
    // and stays inside the span being recorded, so consuming it is all it takes.

    /// "Switch to the `state` state": the current input character is consumed.
    #[inline(always)]
    fn switch_to(&mut self, state: S) -> Flow {
        self.pos += 1;
        self.state = state;
        Flow::Continue
    }

    /// "Consume those `n` characters" (a keyword the state matched: `--`, `DOCTYPE`,
    /// `[CDATA[`, `PUBLIC`, `SYSTEM`) "and switch to the `state` state".
    #[inline(always)]
    fn consume_and_switch_to(&mut self, n: usize, state: S) -> Flow {
        self.pos += n;
        self.state = state;
        Flow::Continue
    }

    /// "Reconsume in the `state` state": the current input character is not consumed, and
    /// `state` runs next on it.
    #[inline(always)]
    fn reconsume_in(&mut self, state: S) -> Flow {
        self.state = state;
        Flow::Continue
    }

    /// An arm that stays in its state after consuming the current input character (which
    /// the spec emits as a character token, or appends to the comment's data): the
    /// character joins the span being recorded.
    #[inline(always)]
    fn consume_and_stay(&mut self) -> Flow {
        self.pos += 1;
        Flow::Continue
    }

    // ----- tags ------------------------------------------------------------------------

    /// Creates a new start or end tag token whose name starts at the current character.
    fn create_tag(&mut self, is_end: bool) {
        // `end`, `name_end` and `attr_name_start` keep the last tag's values: the tag states
        // set each before it is read (the name's end when the tag name state is left, the
        // attribute name's start when an attribute name begins, the end at the `>`).
        let tag = &mut self.tag;
        tag.start = self.markup_start;
        tag.name_start = self.pos;
        tag.is_end = is_end;
        tag.self_closing = false;
        tag.all_names_plain = true;
        tag.name_filter = 0;
        self.attrs.clear();
        // `tag.attr` keeps the last tag's value: it is read only after the attribute name
        // state has set it (see `CurrentTag::attr`).
        if !self.attr_index.is_empty() {
            self.attr_index.clear();
            self.attr_indexed = 0;
        }
    }

    /// "An appropriate end tag token is an end tag token whose tag name matches the tag
    /// name of the last start tag to have been emitted from this tokenizer": `name` is the
    /// raw bytes after `</`, all ASCII letters.
    fn is_appropriate_end_tag(&self, name: &[u8]) -> bool {
        let last: &[u8] = if self.last_start_tag != NOT_IN_INPUT {
            self.last_start_tag.of(self.input)
        } else {
            match &self.last_start_tag_set {
                Some(bytes) => bytes,
                None => return false,
            }
        };
        last.eq_ignore_ascii_case(name)
    }

    /// Emits the current tag token; the current input character is its `>`, not yet
    /// consumed. Switches to the data state (or to the state the simulation decides, when
    /// `simulation` allows it, see [`Self::run`]). `errors`: see [`Self::errors_on_if`].
    #[inline(always)]
    fn emit_current_tag(&mut self, errors: bool, simulation: bool) -> Flow {
        let gt = self.pos;
        self.pos += 1;
        self.tag.end = self.pos;
        self.state = S::Data;
        self.text_kind = TextKind::Data;
        if self.tag.is_end {
            // Rare: an end tag with attributes or a trailing solidus.
            if self.errors_on_if(errors) && (!self.attrs.is_empty() || self.tag.self_closing) {
                self.end_tag_errors(gt);
            }
        } else {
            self.last_start_tag = self.tag.name();
        }
        if let Some(sim) = self.simulator.as_ref().filter(|_| simulation) {
            if !sim.is_idle() {
                self.simulate();
            } else if !self.tag.is_end {
                // HTML content: a start tag either switches the state, opens foreign
                // content, or changes nothing (the common case, decided inline).
                let (start, end) = (self.tag.name_start, self.tag.name_end);
                match html_start_tag_kind_at(self.input, start, end, sim.scripting()) {
                    HtmlStartTag::Other => {}
                    HtmlStartTag::Switch(state) => {
                        self.state = S::from(state);
                        self.text_kind = text_kind_of(self.state);
                    }
                    HtmlStartTag::Svg
                    | HtmlStartTag::Math
                    | HtmlStartTag::Frameset
                    | HtmlStartTag::Template => self.simulate(),
                }
            }
        }
        self.emit(Pending::Tag)
    }

    /// The parse errors of an end tag with attributes or a trailing solidus; its `>` is at
    /// `gt`.
    #[cold]
    fn end_tag_errors(&mut self, gt: usize) {
        if !self.attrs.is_empty() {
            self.error_at(ErrorCode::EndTagWithAttributes, gt);
        }
        if self.tag.self_closing {
            self.error_at(ErrorCode::EndTagWithTrailingSolidus, gt);
        }
    }

    /// The tree-builder simulation's reaction to the tag just finished.
    #[inline(never)]
    fn simulate(&mut self) {
        let Some(sim) = self.simulator.as_mut() else {
            return;
        };
        if let Some(origin) = &self.origin
            && self.pos > origin.limit
        {
            // A stream's run forgets this tag and everything after it.
            return;
        }
        let (start, end) = (self.tag.name_start, self.tag.name_end);
        if let Some(outcome) = sim.fast_tag(self.input, start, end, self.tag.is_end) {
            // The common case of a whole-stack simulator (the stream tokenizer's).
            self.foreign_content = sim.in_foreign_content();
            if let Outcome::Switch(state) = outcome {
                self.state = S::from(state);
                self.text_kind = text_kind_of(self.state);
            }
            return;
        }
        self.simulate_rules();
    }

    /// [`Self::simulate`] by the full rules: out of line, so that the common case needs
    /// no large stack frame.
    #[inline(never)]
    fn simulate_rules(&mut self) {
        let mut outcome = self.simulate_tag();
        if outcome == Outcome::NeedsWholeStack {
            // Once per document at most: from here on the simulator tracks every tag.
            let whole = self.whole_stack_simulator(self.tag.start);
            self.simulator = Some(whole);
            outcome = self.simulate_tag();
            debug_assert_ne!(outcome, Outcome::NeedsWholeStack);
        }
        let switch = match outcome {
            Outcome::None | Outcome::NeedsWholeStack => None,
            Outcome::Switch(state) => Some(state),
            Outcome::CheckFrameset => {
                let allowed = self.frameset_allowed(self.tag.start);
                let sim = self.simulator.as_mut().expect("simulating");
                sim.frameset_decided(allowed);
                None
            }
        };
        let sim = self.simulator.as_ref().expect("simulating");
        self.foreign_content = sim.in_foreign_content();
        if let Some(state) = switch {
            self.state = S::from(state);
            self.text_kind = text_kind_of(self.state);
        }
    }

    /// Gives the tag just finished to the simulator.
    #[inline(always)]
    fn simulate_tag(&mut self) -> Outcome {
        let Some(sim) = self.simulator.as_mut() else {
            return Outcome::None;
        };
        let input = self.input;
        let name = self.tag.name().of(input);
        if self.tag.is_end {
            sim.end_tag(name)
        } else {
            let attrs = &self.attrs;
            sim.start_tag(name, self.tag.self_closing, |attr_name| {
                attrs
                    .iter()
                    .find(|a| a.name.of(input).eq_ignore_ascii_case(attr_name))
                    .map(|a| {
                        crate::decode::decode(
                            a.value().unwrap_or(Span::EMPTY).of(input),
                            crate::decode::Context::AttributeValue,
                        )
                        .into_owned()
                    })
            })
        }
    }

    /// The answer to [`Outcome::NeedsWholeStack`] for the tag at `at`: a simulator that
    /// tracks the whole stack of open elements ([`Simulator::new_whole_stack`]), as it
    /// stands after the input before `at`. The lazy simulator does not know the HTML
    /// elements below the outermost foreign root; this re-reads the input before `at`
    /// once, with the options this tokenizer started with and a whole-stack simulator
    /// (until this tag the lazy simulator decided everything as the whole-stack one
    /// would, so the tokens are the same). A tokenizer that continues a stream has
    /// whole-stack simulators from the start and never asks.
    #[cold]
    #[inline(never)]
    fn whole_stack_simulator(&self, at: usize) -> Simulator {
        let lazy = self.simulator.as_ref().expect("simulating");
        if self.origin.is_some() {
            // Not reached (see above); keep going with what is known.
            return lazy.assume_whole_stack();
        }
        let mut whole = Simulator::new_whole_stack(lazy.scripting())
            .with_html5ever_quirks(lazy.html5ever_quirks());
        whole.never_check_frameset();
        let mut tok = self.replay.clone().build(&self.input[..at]);
        tok.simulator = Some(whole);
        while tok.next_token().is_some() {}
        let mut whole = tok.simulator.take().expect("simulating");
        whole.take_frameset_state(lazy);
        whole
    }

    /// Whether a `<frameset>` start tag at `at`, processed by the HTML rules, switches to
    /// "in frameset" (13.2.6.4.6 "after head": always; 13.2.6.4.7 "in body": only while
    /// the frameset-ok flag is "ok"). The flag is not tracked while tokenizing (that would
    /// cost every text token a look): this re-reads the input before `at` once, with the
    /// options this tokenizer started with (so the tokens, foreign content and the text
    /// states are the same as its own), and feeds the tokens to a [`FramesetTracker`]. A
    /// tokenizer that continues a stream starts from the tracker the stream's earlier
    /// tokens left ([`Origin`]). Runs at most once per document: the answer is final
    /// either way.
    #[cold]
    #[inline(never)]
    fn frameset_allowed(&self, at: usize) -> bool {
        let origin = self.origin.as_deref();
        let mut tracker = origin.map(|o| o.frameset.clone()).unwrap_or_default();
        if tracker.decided() {
            return tracker.allowed();
        }
        let mut tok = self.replay.clone().build(&self.input[..at]);
        if let Some(origin) = origin {
            tok.simulator = origin.simulator.clone();
            tok.foreign_content = origin.foreign_content;
        }
        if origin.is_none()
            && let Some(sim) = &self.simulator
            && sim.tracks_whole_stack()
        {
            tok.simulator = Some(
                Simulator::new_whole_stack(sim.scripting())
                    .with_html5ever_quirks(sim.html5ever_quirks()),
            );
        }
        if let Some(sim) = tok.simulator.as_mut() {
            sim.never_check_frameset();
        }
        loop {
            let was_idle = tok.simulator.as_ref().is_none_or(Simulator::is_idle);
            match tok.next_token() {
                None => break,
                Some(Token::StartTag(tag)) => {
                    let (name, hidden) = (tag.raw_name(), FramesetTracker::hidden_input(&tag));
                    let html = was_idle
                        || tok
                            .simulator
                            .as_ref()
                            .is_none_or(Simulator::last_start_was_html);
                    tracker.start_tag(name, hidden, html);
                }
                Some(Token::EndTag(tag)) => tracker.end_tag(tag.raw_name()),
                Some(Token::Text(text)) => tracker.text(&text),
                Some(_) => {}
            }
            if tracker.decided() {
                break;
            }
        }
        tracker.allowed()
    }

    // ----- character references (13.2.5.72–80) ------------------------------------------

    /// Runs the character reference states at the `&` at `amp` (for their parse errors
    /// only: the text itself is decoded lazily) and returns the offset where the state
    /// that set the return state resumes. `end` bounds the bytes it may read; the states
    /// never read past the end of the enclosing text or value anyway, so callers pass the
    /// input's end.
    fn character_reference(&mut self, amp: usize, in_attribute: bool, end: usize) -> usize {
        let mut found: [(ErrorCode, usize); 2] = [(ErrorCode::EofInTag, 0); 2];
        let mut count = 0;
        let reference = crate::charref::resolve(
            &self.input[amp + 1..end],
            in_attribute,
            &mut |code, offset| {
                if count < found.len() {
                    found[count] = (code, amp + 1 + offset);
                    count += 1;
                }
            },
        );
        for &(code, offset) in &found[..count] {
            self.error_at(code, offset);
        }
        amp + 1 + reference.len
    }
}

/// The input-stream parse error (13.2.3.5) a non-ASCII character causes, if any.
fn input_stream_error(c: char) -> Option<ErrorCode> {
    let cp = c as u32;
    if (0x80..=0x9F).contains(&cp) {
        Some(ErrorCode::ControlCharacterInInputStream)
    } else if (0xFDD0..=0xFDEF).contains(&cp) || (cp & 0xFFFE) == 0xFFFE {
        Some(ErrorCode::NoncharacterInInputStream)
    } else {
        None
    }
}
