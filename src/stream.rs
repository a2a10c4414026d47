//! Streaming input: [`StreamTokenizer`] takes the document in chunks and keeps only its
//! unfinished tail; [`ReadTokenizer`] feeds one from a [`std::io::Read`].
//!
//! # How it works
//!
//! The stream holds a buffer that starts at a *resume point*: an offset where the whole
//! document's tokenizer is in a state this module can restart it in (one of the public
//! [`State`]s, the last start tag, the tree-builder simulation, the foreign-content flag and
//! what the tokens so far say about the frameset-ok flag). When the tokens of the last run
//! are all handed out and enough input has come (the uncommitted bytes have at least
//! doubled, or the input is finished), an ordinary [`crate::Tokenizer`] runs over the
//! buffer from the resume point, treating the buffer's end as the end of the input, and
//! its tokens are recorded (as a [`crate::Tape`] records them).
//!
//! A token is **final** when the tokenizer's position after it is at least [`LOOKAHEAD`]
//! bytes before the buffer's end: the states never look further ahead than that (the
//! longest named character reference is 32 bytes after its `&`, the keywords `DOCTYPE`,
//! `[CDATA[`, `PUBLIC`, `SYSTEM` 7, a UTF-8 sequence 4 for its input-stream error), so
//! nothing it decided depended on where the buffer ends. The run keeps its tokens up to
//! the last final token after which the tokenizer is at a resume point (after any tag,
//! comment or DOCTYPE; after data, RCDATA, RAWTEXT text and a whole CDATA section, whose
//! state is the one to resume in at the text's end; not after script data text, whose
//! escape states are not public), and forgets the rest: those bytes are read again by the
//! next run. Each byte is read a bounded number of times on average (a run reads at most
//! twice the bytes that came since the last).
//!
//! **Text in pieces.** A text run still open at the buffer's end would otherwise be held
//! whole; instead it is handed out up to a *cut point* `c` at least [`LOOKAHEAD`] bytes
//! before the end, and the next run resumes in the text's state at `c`. A cut point lies
//! after an ASCII whitespace byte other than CR and before an ASCII byte that is not `<`
//! or `]`, or (in data, RCDATA, RAWTEXT and PLAINTEXT text) in the middle of `<<<`: no
//! character reference, CR LF pair, UTF-8 sequence or markup can straddle it, so each
//! piece decodes exactly as its part of the whole run would, and the text really goes on
//! after it. [`StreamTokenizer::text_continues`] says that the next token is the rest of
//! the same run (a [`Text`](crate::Text) of the same kind starting where this one ends).
//!
//! **Errors.** Parse errors found before a resume point have offsets before it, and those
//! found after it have offsets at or after it (input-stream errors are reported as the
//! position passes them, never ahead), so a run hands out its errors before its last
//! resume point and forgets the rest, which the next run finds again.

use std::io::{self, Read};

use crate::error::{ParseError, Position, PositionTracker};
use crate::feedback::FramesetTracker;
use crate::machine::{Builder, Origin};
use crate::span::Span;
use crate::state::State;
use crate::tape::{Tape, TokenRecord};
use crate::token::{Text, TextKind, Token};

/// How many bytes before the buffer's end a token must end (with the tokenizer's position
/// after it) to be final: more than any state looks ahead.
pub(crate) const LOOKAHEAD: usize = 64;

/// The fewest uncommitted bytes a run reads (unless the input is finished).
const MIN_RUN: usize = 4 * 1024;

/// The most bytes a run reads when more are buffered (a larger chunk is tokenized in
/// several runs, so the recorded tokens stay bounded), unless a token needs more.
const MAX_RUN: usize = 256 * 1024;

/// The longest run: a [`Tape`] holds offsets below 2^32.
const MAX_WINDOW: usize = crate::tape::MAX_INPUT;

/// How much [`ReadTokenizer`] reads at a time.
const READ_CHUNK: usize = 64 * 1024;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the next run starts: the state the whole document's tokenizer is in there.
#[derive(Clone, Debug)]
struct Resume {
    state: State,
    last_start_tag: Option<Vec<u8>>,
    origin: Origin,
}

/// A tokenizer fed in chunks, for inputs that are not in memory at once (standard input,
/// a network body, a file larger than memory).
///
/// It gives exactly the tokens and parse errors of a [`crate::Tokenizer`] over the whole
/// input with the same options, except that a text run may come in several pieces (see
/// [`StreamTokenizer::text_continues`]): a property test checks this for every way of
/// cutting inputs into chunks, one byte at a time included.
///
/// Tokens borrow the stream's buffer. Their spans are relative to
/// [`StreamTokenizer::base`], the absolute offset of the buffer's start, so
/// `span.start + base()` is the offset in the whole input; parse errors carry absolute
/// offsets. Decoding is lazy, as with [`crate::Tokenizer`].
///
/// ```
/// use htmltok::{StreamTokenizer, Token};
///
/// let chunks = [&b"<p class=a>Fish &am"[..], b"p; chips</p><a hr", b"ef=/x>go</a>"];
/// let mut stream = StreamTokenizer::new();
/// let mut seen = Vec::new();
/// for chunk in chunks.into_iter().map(Some).chain([None]) {
///     match chunk {
///         Some(bytes) => stream.feed(bytes),
///         None => stream.finish(),
///     }
///     while stream.advance() {
///         let token = stream.token().unwrap();
///         let start = stream.base() + token.span().start; // the offset in the whole input
///         match token {
///             Token::StartTag(t) => seen.push(format!("<{}> at {start}", t.name())),
///             // A long text run may come in pieces: see `text_continues`.
///             Token::Text(t) => seen.push(t.text().into_owned()),
///             _ => {}
///         }
///     }
/// }
/// assert_eq!(seen, ["<p> at 0", "Fish & chips", "<a> at 31", "go"]);
/// ```
///
/// (Small inputs are tokenized only at [`StreamTokenizer::finish`]: a run waits for a few
/// KiB, see below.)
///
/// # Memory
///
/// The buffer holds the bytes not yet committed: the last chunk, plus the longest token
/// still unfinished (a tag, comment or DOCTYPE, or a text run without a cut point), plus
/// 64 bytes of lookahead, at most doubled by the rule that a run waits until the
/// uncommitted bytes have doubled; the tokens of one run (at most 256 KiB of input unless
/// one token is longer) are recorded at 28 bytes each (24 per attribute). Nothing grows with the document, with these
/// exceptions, each held whole: a `<script>` element's text (its escape states cannot be
/// resumed), and a text run with no cut point (no whitespace and no `<<<`).
pub struct StreamTokenizer {
    builder: Builder,
    /// `buf[start..]` is the input from absolute offset `base` on.
    buf: Vec<u8>,
    start: usize,
    base: usize,
    finished: bool,
    /// The leading byte order mark has been dealt with.
    started: bool,
    resume: Resume,
    /// The tokens of the last run, over `buf[start..start + tape.input_len()]`.
    tape: Tape,
    /// Index in `tape` of the next token to hand out.
    next: usize,
    /// Index in `tape` of the token handed out last.
    current: Option<usize>,
    /// Where the last run committed, relative to `start`: the next resume point.
    commit: usize,
    /// The last run reached the end of the input: nothing follows its tokens.
    at_end: bool,
    /// Every token and error is handed out.
    done: bool,
    /// Index in `tape` of a text token cut at a cut point (the run goes on).
    cut: Option<usize>,
    /// The last run's errors (offsets relative to `start`), each with the index of the
    /// token it comes before (`tape.len()`: after the last).
    run_errors: Vec<(usize, ParseError)>,
    /// Index in `run_errors` of the next error to hand out.
    next_error: usize,
    /// The errors that came before the current token (absolute offsets).
    ready: Vec<ParseError>,
    /// The next run waits until this many bytes are uncommitted.
    run_at: usize,
    /// [`MIN_RUN`] and [`MAX_RUN`], unless a test changed them.
    min_run: usize,
    max_run: usize,
    /// The longest run: the tape records offsets as `u32` (below 4 GiB; lower in tests).
    max_window: usize,
    /// A run of `max_window` bytes committed nothing: one token is too large to record.
    too_large: bool,
    /// Line and column at `base` (kept only with errors on).
    base_position: (usize, usize),
    /// A position tracker's place in `buf[start..]`: offset, line, column.
    cursor: (usize, usize, usize),
}

impl Default for StreamTokenizer {
    fn default() -> Self {
        StreamTokenizer::new()
    }
}

impl Builder {
    /// A [`StreamTokenizer`] with these options.
    pub fn stream(self) -> StreamTokenizer {
        let resume = Resume {
            state: self.initial_state(),
            last_start_tag: self.initial_last_start_tag().map(<[u8]>::to_vec),
            origin: Origin {
                simulator: self.new_simulator(),
                foreign_content: false,
                frameset: Default::default(),
                limit: usize::MAX,
            },
        };
        StreamTokenizer {
            builder: self,
            buf: Vec::new(),
            start: 0,
            base: 0,
            finished: false,
            started: false,
            resume,
            tape: Tape::default(),
            next: 0,
            current: None,
            commit: 0,
            at_end: false,
            done: false,
            cut: None,
            run_errors: Vec::new(),
            next_error: 0,
            ready: Vec::new(),
            run_at: MIN_RUN,
            min_run: MIN_RUN,
            max_run: MAX_RUN,
            max_window: MAX_WINDOW,
            too_large: false,
            base_position: (1, 1),
            cursor: (0, 1, 1),
        }
    }

    /// A [`ReadTokenizer`] with these options, reading `reader`.
    pub fn reader<R: Read>(self, reader: R) -> ReadTokenizer<R> {
        ReadTokenizer {
            reader,
            stream: self.stream(),
        }
    }
}

impl StreamTokenizer {
    /// A stream tokenizer with the default options (simulation on, errors off); see
    /// [`Builder::stream`] for others.
    pub fn new() -> Self {
        Builder::default().stream()
    }

    /// Appends the next chunk of the input.
    ///
    /// # Panics
    ///
    /// After [`StreamTokenizer::finish`].
    pub fn feed(&mut self, chunk: &[u8]) {
        assert!(!self.finished, "StreamTokenizer::feed after finish");
        self.buf.extend_from_slice(chunk);
    }

    /// Reads one chunk (up to 64 KiB) from `reader` into the buffer, retrying when
    /// interrupted; returns its length (0 at the end of `reader`).
    fn read_from(&mut self, reader: &mut impl Read) -> io::Result<usize> {
        let len = self.buf.len();
        self.buf.resize(len + READ_CHUNK, 0);
        loop {
            match reader.read(&mut self.buf[len..]) {
                Ok(n) => {
                    self.buf.truncate(len + n.min(READ_CHUNK));
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        }
    }

    /// Says that the input has ended: the remaining tokens (and the errors at the end of
    /// the input) come from the next calls to [`StreamTokenizer::next_token`].
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// Whether [`StreamTokenizer::finish`] was called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether the stream stopped because one token (a tag, a comment, a DOCTYPE, a
    /// `<script>` element's text or a text run with no cut point) is 4 GiB or longer: its
    /// runs are recorded with 32-bit offsets. [`StreamTokenizer::advance`] then returns
    /// false for good (without [`StreamTokenizer::is_done`]); [`ReadTokenizer`] reports it
    /// as an [`io::ErrorKind::InvalidData`] error. The tokens before it were handed out.
    pub fn is_too_large(&self) -> bool {
        self.too_large
    }

    /// Whether every token (and error) has been handed out: true only after
    /// [`StreamTokenizer::finish`].
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The next token, or None when it needs more input ([`StreamTokenizer::feed`]) or
    /// has handed out everything ([`StreamTokenizer::is_done`]). The token borrows the
    /// stream until the next call; its spans are relative to [`StreamTokenizer::base`].
    #[inline]
    pub fn next_token(&mut self) -> Option<Token<'_, '_>> {
        if self.advance() { self.token() } else { None }
    }

    /// Moves to the next token: true when there is one ([`StreamTokenizer::token`]),
    /// false when more input is needed or everything was handed out. The split from
    /// [`StreamTokenizer::token`] lets a caller look at [`StreamTokenizer::errors`],
    /// [`StreamTokenizer::base`] and [`StreamTokenizer::text_continues`] while it holds
    /// the token.
    #[inline]
    pub fn advance(&mut self) -> bool {
        self.ready.clear();
        if self.next < self.tape.len() && self.next_error == self.run_errors.len() {
            // The common case: a recorded token, no errors before it.
            self.current = Some(self.next);
            self.next += 1;
            return true;
        }
        self.advance_slow()
    }

    /// [`StreamTokenizer::advance`] with errors to hand out or a run to make.
    #[inline(never)]
    fn advance_slow(&mut self) -> bool {
        self.current = None;
        loop {
            if self.next < self.tape.len() {
                self.take_errors_before(self.next);
                self.current = Some(self.next);
                self.next += 1;
                return true;
            }
            if self.done {
                return false;
            }
            if self.at_end {
                // The errors at the end of the input.
                self.take_errors_before(self.tape.len());
                self.done = true;
                return false;
            }
            if self.too_large || !self.prepare_run() {
                return false;
            }
            self.run();
        }
    }

    /// Moves the errors found before token `index` of the run to `ready`.
    fn take_errors_before(&mut self, index: usize) {
        while let Some(&(i, e)) = self.run_errors.get(self.next_error) {
            if i > index {
                break;
            }
            self.ready.push(ParseError {
                code: e.code,
                offset: e.offset + self.base,
            });
            self.next_error += 1;
        }
    }

    /// The token [`StreamTokenizer::advance`] moved to (None before the first call, when
    /// it returned false, or after [`StreamTokenizer::next_token`] returned None).
    #[inline]
    pub fn token(&self) -> Option<Token<'_, '_>> {
        self.tape.get_in(&self.buf[self.start..], self.current?)
    }

    /// The absolute offset of the current token's offset 0: add it to every span of the
    /// token (and of its attributes and fields) for the offset in the whole input.
    pub fn base(&self) -> usize {
        self.base
    }

    /// True when the current token is a piece of a text run that goes on: the next token
    /// is a [`Text`](crate::Text) of the same kind that starts where this one ends, and
    /// joined they are the one text token the whole input gives (their
    /// [`Text::text`](crate::Text::text) concatenated is its text, and so on for the raw
    /// bytes and spans).
    pub fn text_continues(&self) -> bool {
        self.current.is_some() && self.current == self.cut
    }

    /// The parse errors found before the current token (and after the previous one),
    /// with absolute offsets, in the order [`crate::Tokenizer::errors`] would list them;
    /// once [`StreamTokenizer::advance`] has returned false after
    /// [`StreamTokenizer::finish`], the errors at the end of the input. Empty unless
    /// [`Builder::errors`] turned errors on. Each call to [`StreamTokenizer::advance`]
    /// replaces them.
    pub fn errors(&self) -> &[ParseError] {
        &self.ready
    }

    /// The line and column of absolute offset `offset`, which must not be before
    /// [`StreamTokenizer::base`] (the errors of [`StreamTokenizer::errors`] never are),
    /// as [`crate::position`] over the whole input gives them. Offsets asked in increasing
    /// order cost one walk over the bytes in all. Lines are counted only with
    /// [`Builder::errors`] on; without, this counts from `base` as if it were line 1.
    pub fn position(&mut self, offset: usize) -> Position {
        let target = offset.saturating_sub(self.base);
        let (mut at, mut line, mut col) = self.cursor;
        if target < at {
            (at, line, col) = (0, self.base_position.0, self.base_position.1);
        }
        let mut tracker = PositionTracker::resume(&self.buf[self.start..], at, line, col);
        let position = tracker.position(target);
        self.cursor = tracker.cursor();
        position
    }

    /// Caps a run at `max` bytes (default: just under 4 GiB, the tape's limit), to test
    /// [`StreamTokenizer::is_too_large`] on small inputs.
    #[doc(hidden)]
    pub fn set_max_window(&mut self, max: usize) {
        self.max_window = max.clamp(1, MAX_WINDOW);
    }

    /// For tests and fuzzing: the fewest uncommitted bytes a run waits for (4 KiB by
    /// default) and the most it reads when more are buffered (256 KiB), at least 1 each.
    /// Small values make small inputs cross many run boundaries; the tokens and errors
    /// are the same whatever they are.
    #[doc(hidden)]
    pub fn set_run_sizes(&mut self, min: usize, max: usize) {
        self.min_run = min.max(1);
        self.max_run = max.max(1);
        self.run_at = self.run_at.min(self.min_run);
    }

    /// The number of bytes the stream holds (for memory accounting).
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Drops the bytes the last run committed, deals with a leading byte order mark, and
    /// says whether a run can start now.
    fn prepare_run(&mut self) -> bool {
        self.advance_start(self.commit);
        self.commit = 0;
        if !self.started {
            let head = &self.buf[self.start..];
            if !self.builder.keeps_bom() {
                if head.len() < BOM.len() && BOM.starts_with(head) && !self.finished {
                    return false;
                }
                if head.starts_with(BOM) {
                    self.advance_start(BOM.len());
                }
            }
            self.started = true;
        }
        let uncommitted = self.buf.len() - self.start;
        self.finished || uncommitted >= self.run_at
    }

    /// Drops `n` bytes from the front of the buffer, keeping the line and column at
    /// `base` (with errors on).
    fn advance_start(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        if self.builder.errors_enabled() {
            let (line, col) = self.base_position;
            let mut tracker =
                PositionTracker::resume(&self.buf[self.start..self.start + n], 0, line, col);
            let p = tracker.position(n);
            self.base_position = (p.line, p.col);
        }
        self.cursor = (0, self.base_position.0, self.base_position.1);
        self.start += n;
        self.base += n;
        // Move the live bytes to the front once the dead ones are the majority, so that
        // each byte moves a bounded number of times.
        if self.start >= self.buf.len() - self.start {
            self.buf.drain(..self.start);
            self.start = 0;
        }
    }

    /// Tokenizes from the resume point, records the final tokens, and commits.
    fn run(&mut self) {
        let available = self.buf.len() - self.start;
        let window = if available > self.run_at.max(self.max_run) {
            self.run_at.max(self.max_run)
        } else {
            available
        }
        .min(self.max_window);
        let at_end = self.finished && window == available;
        let limit = if at_end {
            window
        } else {
            window.saturating_sub(LOOKAHEAD)
        };
        let input = &self.buf[self.start..self.start + window];
        let errors_on = self.builder.errors_enabled();
        let mut tok = self
            .builder
            .clone()
            .state(self.resume.state)
            .last_start_tag_bytes(self.resume.last_start_tag.clone())
            .keep_bom(true)
            .build_resumed(input, &self.resume.origin, limit);

        let tape = &mut self.tape;
        tape.reset(window);
        self.run_errors.clear();
        self.next_error = 0;
        self.next = 0;
        self.cut = None;

        // The tokenizer at the last commit point.
        let mut state = self.resume.state;
        let mut last_start_tag: Option<Span> = None;
        let mut origin = self.resume.origin.clone();
        let mut committed = 0; // tokens
        let mut commit = 0; // offset
        let mut error_limit = 0; // a cut piece keeps the errors before this offset

        loop {
            let tracking = origin.simulator.is_some() && !origin.frameset.decided();
            let was_idle = !tracking || tok.simulator().is_none_or(|s| s.is_idle());
            // The token's records go straight from the tokenizer's fields to the tape,
            // except while the frameset-ok flag is undecided (near the document's start),
            // when the tracker needs to look at a start tag's attributes.
            let (recorded, hidden) = if tracking {
                match tok.next_token() {
                    Some(token) => {
                        tape.push(&token);
                        let hidden = matches!(&token, Token::StartTag(t)
                            if FramesetTracker::hidden_input(t));
                        (true, hidden)
                    }
                    None => (false, false),
                }
            } else {
                (tok.next_into_tape(tape), false)
            };
            if !recorded {
                if errors_on {
                    let index = tape.len();
                    self.run_errors
                        .extend(tok.errors_mut().drain(..).map(|e| (index, e)));
                }
                if at_end {
                    committed = tape.len();
                    commit = window;
                }
                break;
            }
            let index = tape.len() - 1;
            let r = tape.records()[index];
            let end = r.end as usize;
            if errors_on {
                self.run_errors
                    .extend(tok.errors_mut().drain(..).map(|e| (index, e)));
            }
            if !at_end && tok.offset() > limit {
                // Not final: hand out the text before a cut point, if this is text that
                // has one.
                if r.kind == TokenRecord::TEXT
                    && committed == index
                    && let Some(t) = r.text(input)
                    && let Some((c, inclusive)) = cut_point(input, &t, limit)
                {
                    tape.cut_text(index, c);
                    if tracking {
                        let content = t.text_span();
                        origin.frameset.text(&Text {
                            input,
                            raw: Span::new(t.span().start, c),
                            content: Span::new(content.start, c),
                            kind: t.kind(),
                        });
                    }
                    committed = index + 1;
                    commit = c;
                    error_limit = if inclusive { c + 1 } else { c };
                    state = state_of(t.kind());
                    self.cut = Some(index);
                }
                break;
            }
            let resume_state = match r.kind {
                TokenRecord::TEXT => {
                    let text = r
                        .text(input)
                        .expect("the tokenizer writes known text kinds");
                    if tracking {
                        origin.frameset.text(&text);
                    }
                    match text.kind() {
                        // Its escape states are not public: no resume point.
                        TextKind::ScriptData => None,
                        // A whole section: the data state follows.
                        TextKind::Cdata => Some(State::Data),
                        kind => Some(state_of(kind)),
                    }
                }
                TokenRecord::START_TAG => {
                    if tracking {
                        let html =
                            was_idle || tok.simulator().is_none_or(|s| s.last_start_was_html());
                        let name = &input[r.main_start as usize..r.main_end as usize];
                        origin.frameset.start_tag(name, hidden, html);
                    }
                    tok.public_state()
                }
                TokenRecord::END_TAG => {
                    if tracking {
                        let name = &input[r.main_start as usize..r.main_end as usize];
                        origin.frameset.end_tag(name);
                    }
                    tok.public_state()
                }
                _ => tok.public_state(),
            };
            if let Some(resume_state) = resume_state {
                committed = index + 1;
                commit = end;
                state = resume_state;
                if let Some(span) = tok.last_start_tag_span() {
                    last_start_tag = Some(span);
                }
                origin.foreign_content = tok.foreign_content();
            }
        }
        // Every tag up to the commit point was simulated, none after it (tags always
        // commit when final, and a non-final one is not simulated: `build_resumed`).
        origin.simulator = tok.simulator().cloned();
        drop(tok);
        tape.truncate(committed);
        // The errors found while the committed tokens were read are theirs, whatever
        // their offset (an error can sit at the commit point itself: a character
        // reference's absence-of-digits error is at the character after it, which may be
        // the `<` that ends the text). A cut piece keeps the errors before the cut point;
        // the next run finds the others again.
        let cut = self.cut;
        self.run_errors.retain(|&(i, e)| {
            at_end || (i < committed && (Some(i) != cut || e.offset < error_limit))
        });
        self.commit = commit;
        self.at_end = at_end;
        if committed == 0 && commit == 0 && !at_end && window == self.max_window {
            // The whole run is one unfinished token (a tag, comment, DOCTYPE, script or
            // uncut text run) of 4 GiB or more: waiting for more input cannot help.
            self.too_large = true;
        }
        self.run_at = (2 * (window - commit)).max(self.min_run);
        self.resume.state = state;
        if let Some(span) = last_start_tag {
            self.resume.last_start_tag = Some(span.of(&self.buf[self.start..]).to_vec());
        }
        self.resume.origin = origin;
    }
}

/// The state a text run of `kind` is read in (where its next piece resumes).
fn state_of(kind: TextKind) -> State {
    match kind {
        TextKind::Data => State::Data,
        TextKind::Rcdata => State::Rcdata,
        TextKind::Rawtext => State::Rawtext,
        TextKind::ScriptData => State::ScriptData,
        TextKind::Plaintext => State::Plaintext,
        TextKind::Cdata => State::CdataSection,
    }
}

/// The last cut point of text `t` (see the module documentation) at or before `limit`,
/// strictly inside its text, and whether the parse error at the cut point itself belongs
/// to the piece before it (a cut inside `<<<`, where the first `<`'s tag open state
/// reports the second as an invalid first character of a tag name).
fn cut_point(input: &[u8], t: &Text<'_>, limit: usize) -> Option<(usize, bool)> {
    let kind = t.kind();
    if kind == TextKind::ScriptData {
        return None;
    }
    let content = t.text_span();
    let lo = content.start + 1;
    let mut c = limit.min(content.end.saturating_sub(1));
    while c >= lo {
        let (before, at) = (input[c - 1], input[c]);
        if matches!(before, b'\t' | b'\n' | b'\x0C' | b' ')
            && at.is_ascii()
            && at != b'<'
            && at != b']'
        {
            return Some((c, false));
        }
        if kind != TextKind::Cdata
            && before == b'<'
            && at == b'<'
            && input.get(c + 1) == Some(&b'<')
        {
            return Some((c, true));
        }
        c -= 1;
    }
    None
}

/// Adapts a [`std::io::Read`] to a [`StreamTokenizer`]: reads 64 KiB at a time as tokens
/// are asked for.
///
/// ```
/// use htmltok::{ReadTokenizer, Token};
///
/// let page: &[u8] = b"<title>A &amp; B</title><p>x";
/// let mut tok = ReadTokenizer::new(page);
/// let mut seen = Vec::new();
/// while let Some(token) = tok.next_token()? {
///     if let Token::Text(text) = token {
///         seen.push(text.text().into_owned());
///     }
/// }
/// assert_eq!(seen, ["A & B", "x"]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// Memory: as [`StreamTokenizer`]'s, with 64 KiB chunks.
pub struct ReadTokenizer<R> {
    reader: R,
    stream: StreamTokenizer,
}

impl<R: Read> ReadTokenizer<R> {
    /// A tokenizer over `reader` with the default options (see [`Builder::reader`]).
    pub fn new(reader: R) -> Self {
        Builder::default().reader(reader)
    }

    /// Moves to the next token (see [`StreamTokenizer::advance`]), reading as needed:
    /// false at the end of the input. A read error is returned as it is; the tokens
    /// before it stay valid, and calling again retries the read.
    pub fn advance(&mut self) -> io::Result<bool> {
        loop {
            if self.stream.advance() {
                return Ok(true);
            }
            if self.stream.is_done() {
                return Ok(false);
            }
            if self.stream.is_too_large() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "a single token from byte {} on is {} bytes or longer: too large to \
                         stream (the stream records its runs with 32-bit offsets)",
                        self.stream.base, self.stream.max_window
                    ),
                ));
            }
            if self.stream.is_finished() {
                continue;
            }
            if self.stream.read_from(&mut self.reader)? == 0 {
                self.stream.finish();
            }
        }
    }

    /// The next token, reading as needed; None at the end of the input.
    pub fn next_token(&mut self) -> io::Result<Option<Token<'_, '_>>> {
        Ok(if self.advance()? {
            self.stream.token()
        } else {
            None
        })
    }

    /// The stream tokenizer: [`StreamTokenizer::token`], [`StreamTokenizer::base`],
    /// [`StreamTokenizer::errors`], [`StreamTokenizer::text_continues`] for the current
    /// token.
    pub fn stream(&self) -> &StreamTokenizer {
        &self.stream
    }

    /// The stream tokenizer, mutably (for [`StreamTokenizer::position`]).
    pub fn stream_mut(&mut self) -> &mut StreamTokenizer {
        &mut self.stream
    }

    /// The reader back.
    pub fn into_inner(self) -> R {
        self.reader
    }
}
