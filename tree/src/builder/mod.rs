//! 13.2.6 Tree construction: the parse loop, which drives htmltok's tokenizer, and the
//! dispatcher. The builder's files, each built on those above it:
//!
//! - `token.rs`: the builder's token;
//! - `state.rs`: the parse state (13.2.4): the insertion mode, the builder's fields,
//!   resetting the insertion mode;
//! - `insert.rs`: creating and inserting nodes (13.2.6.1);
//! - `active_formatting.rs`: pushing onto and reconstructing the active formatting
//!   elements, the adoption agency algorithm;
//! - `modes/`: the rules of the insertion modes (13.2.6.4), one function each;
//!   `foreign.rs`: the rules for foreign content (13.2.6.5); `quirks.rs`: the DOCTYPE's
//!   quirks mode;
//! - `drive.rs`: the tokenizer's sink, which runs the common "in body" tokens itself;
//! - this file: the loop and the dispatcher.
//!
//! The builder drives htmltok's tokenizer (simulation off): after each token it tells the
//! tokenizer the state a start tag switched it to (RCDATA after `<title>`, …) and whether
//! the adjusted current node is foreign (which allows `<![CDATA[`).

mod active_formatting;
mod drive;
mod foreign;
mod insert;
mod modes;
mod quirks;
mod state;
mod token;

use htmltok::Tokenizer;

use crate::dom::Dom;
use drive::Drive;

use state::Step;
use token::{Mark, Tok};

pub(crate) use state::{Mode, Options, TreeBuilder};
pub(crate) use token::TagTok;

impl<'a> TreeBuilder<'a> {
    /// Runs the tokenizer to the end, building the tree.
    pub(crate) fn run(self, tokenizer: Tokenizer<'a>) -> Dom {
        self.drive::<false>(tokenizer)
    }

    /// Builds the tree from a tokenizer that simulates tree construction itself
    /// (`Builder::simulation`): the builder tells it nothing, so the tree shows what the
    /// simulation decided. For the differential test of the simulator against this
    /// builder only (`Parser::simulated_feedback`).
    pub(crate) fn run_simulated(self, tokenizer: Tokenizer<'a>) -> Dom {
        self.drive::<true>(tokenizer)
    }

    /// The loop of [`Self::run`]; with `SIMULATED`, that of [`Self::run_simulated`]
    /// (the switches and the foreign-content flag not passed on).
    fn drive<const SIMULATED: bool>(self, tokenizer: Tokenizer<'a>) -> Dom {
        // Both moved into this frame. Passed by value, each is the caller's memory behind
        // a pointer, and this loop (too large to keep two pointers in registers) would
        // reload them from the stack before most field accesses. A local of the frame is
        // addressed from the stack pointer.
        let (mut this, mut tokenizer) = (self, tokenizer);
        loop {
            let foreign = this.adjusted_current_is_foreign();
            if !SIMULATED {
                tokenizer.set_foreign_content(foreign);
            }
            // The common case, "in body" with an HTML current node, is run by the sink
            // itself (`Drive`); it hands back the tokens it leaves to the dispatcher.
            debug_assert_eq!(
                this.sink,
                this.sink_bits(),
                "a field written past its setter"
            );
            // The sink's bits as they are before this token (none for foreign content).
            let sink = if foreign { 0 } else { this.sink };
            let next = tokenizer.next_token_into(&mut Drive::<'_, '_, SIMULATED> {
                builder: &mut this,
                sink,
            });
            if let Some(mut tok) = next {
                if let Tok::Text(text) = &mut tok {
                    // The text after `<pre>`, `<listing>` ("in body") or `<textarea>`
                    // ("text"), raw: its leading newline skipped on its bytes when they
                    // tell (`TextTok::skip_raw_leading_newline`), for the two modes'
                    // rules, which insert a raw text as it is. Decoded first, a long
                    // `pre` would be decoded and copied for nothing.
                    if this.skip_newline
                        && !foreign
                        && matches!(text.mark, Mark::Raw(_))
                        && matches!(this.mode, Mode::InBody | Mode::InCell | Mode::Text)
                        && text.skip_raw_leading_newline()
                    {
                        this.set_skip_newline(false);
                        if text.text.is_empty() {
                            continue;
                        }
                    }
                    // A raw text the sink did not insert: decoded for the rules that
                    // read it (see `Mark::Raw`), all but the "text" mode's (script,
                    // style, title), which inserts it as it is (its leading newline
                    // skipped, for a `textarea` or `pre`, on the decoded text), and "in
                    // body"'s (also for "in cell"), which decodes it if it must.
                    if matches!(text.mark, Mark::Raw(_))
                        && (foreign
                            || this.skip_newline
                            || !matches!(this.mode, Mode::InBody | Mode::InCell | Mode::Text))
                    {
                        text.decode_raw();
                    }
                    if text.text.is_empty() {
                        continue;
                    }
                }
                if this.skip_newline {
                    this.set_skip_newline(false);
                    if let Tok::Text(text) = &mut tok {
                        text.skip_leading_newline();
                        if text.text.is_empty() {
                            continue;
                        }
                    }
                }
                let eof = matches!(tok, Tok::Eof);
                this.dispatch(&mut tok);
                if eof || this.done {
                    break;
                }
                // Read, and cleared only when set (rare): `take` wrote it back every
                // token. Only the dispatcher's steps set it: the sink leaves the tags
                // whose rules switch the tokenizer to it (`InBodyStart::Dispatcher`), so
                // a token the sink finished needs no test.
                if let Some(state) = this.switch_to {
                    this.switch_to = None;
                    if !SIMULATED {
                        tokenizer.set_state(state);
                    }
                }
            }
            debug_assert!(this.switch_to.is_none());
        }
        // The text buffer grew by doubling: its slack given back (one `realloc`, usually
        // in place), so that a kept document holds what its text needs.
        this.doc.text.shrink_to_fit();
        this.doc.finish_tag_attrs();
        this.open.give_back();
        this.doc
    }

    /// 13.2.6 The tree construction dispatcher: the insertion mode's rules or the rules
    /// for parsing tokens in foreign content, until the token is handled. (The common
    /// "in body" tokens do not come here: `Drive`, the tokenizer's sink, runs their first
    /// step.)
    /// Always inlined: otherwise a call, and its frame, for each token the sink hands back.
    #[inline(always)]
    fn dispatch(&mut self, tok: &mut Tok<'a>) {
        let mut step = Step::Reprocess;
        while step != Step::Done {
            let for_foreign = step == Step::Reprocess && self.is_foreign_token(tok);
            step = if for_foreign {
                self.foreign_content(tok)
            } else {
                self.process_in_mode(tok)
            };
        }
    }

    /// Processes `tok` with the rules of the current insertion mode.
    pub(crate) fn process_in_mode(&mut self, tok: &mut Tok<'a>) -> Step {
        self.process_in(self.mode, tok)
    }

    /// Processes `tok` with the rules of `mode` (the spec's "using the rules for").
    pub(crate) fn process_in(&mut self, mode: Mode, tok: &mut Tok<'a>) -> Step {
        match mode {
            Mode::Initial => self.initial(tok),
            Mode::BeforeHtml => self.before_html(tok),
            Mode::BeforeHead => self.before_head(tok),
            Mode::InHead => self.in_head(tok),
            Mode::InHeadNoscript => self.in_head_noscript(tok),
            Mode::AfterHead => self.after_head(tok),
            Mode::InBody => self.in_body(tok),
            Mode::Text => self.text(tok),
            Mode::InTable => self.in_table(tok),
            Mode::InTableText => self.in_table_text(tok),
            Mode::InCaption => self.in_caption(tok),
            Mode::InColumnGroup => self.in_column_group(tok),
            Mode::InTableBody => self.in_table_body(tok),
            Mode::InRow => self.in_row(tok),
            Mode::InCell => self.in_cell(tok),
            Mode::InTemplate => self.in_template(tok),
            Mode::AfterBody => self.after_body(tok),
            Mode::InFrameset => self.in_frameset(tok),
            Mode::AfterFrameset => self.after_frameset(tok),
            Mode::AfterAfterBody => self.after_after_body(tok),
            Mode::AfterAfterFrameset => self.after_after_frameset(tok),
        }
    }
}
