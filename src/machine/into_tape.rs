//! The tokenizer writing a [`Tape`]: the builder's `tape` methods, [`Tape::new`], and the
//! step that appends each token's records straight from the tokenizer's fields.

use super::{Builder, PendingKind, Tokenizer};
use crate::span::Span;
use crate::tape::{MAX_INPUT, Tape, TapeError};

impl Builder {
    /// Tokenizes the whole of `input` into a [`Tape`] with these options.
    ///
    /// # Panics
    ///
    /// When `input` is 4 GiB or longer ([`Builder::try_tape`] returns an error instead).
    pub fn tape(self, input: &[u8]) -> Tape {
        match self.try_tape(input) {
            Ok(tape) => tape,
            Err(err) => panic!("{err}"),
        }
    }

    /// Tokenizes the whole of `input` into a [`Tape`], or says why it cannot: an input of
    /// 4 GiB or more ([`TapeError::TooLarge`]) does not fit 32-bit offsets.
    pub fn try_tape(self, input: &[u8]) -> Result<Tape, TapeError> {
        let mut tape = Tape::default();
        self.tape_into(input, &mut tape)?;
        tape.shrink_to_fit();
        Ok(tape)
    }

    /// Tokenizes the whole of `input` into `tape`, replacing what it held and reusing its
    /// memory: a batch that tokenizes many documents one after the other into one tape
    /// allocates (and faults in) its records once, not per document.
    ///
    /// ```
    /// use htmltok::{Tape, Tokenizer};
    ///
    /// let mut tape = Tape::default();
    /// for page in [&b"<p>one"[..], b"<p>two</p>"] {
    ///     Tokenizer::builder().tape_into(page, &mut tape)?;
    ///     println!("{} tokens", tape.len());
    /// }
    /// assert_eq!(tape.len(), 3);
    /// # Ok::<(), htmltok::TapeError>(())
    /// ```
    ///
    /// On an error (an input of 4 GiB or more) the tape is left empty.
    pub fn tape_into(self, input: &[u8], tape: &mut Tape) -> Result<(), TapeError> {
        tape.reset(0);
        if input.len() > MAX_INPUT {
            return Err(TapeError::TooLarge { len: input.len() });
        }
        tape.start(input.len());
        let mut tok = self.build(input);
        // Offsets below 2^32 (checked above) and indexes below the number of tokens or
        // attributes (each at least one byte of input) fit the records' `u32`s. Each
        // token goes from the tokenizer's fields to its record, with no `Token` between.
        while tok.next_into_tape(tape) {}
        tape.set_errors(tok.take_errors());
        Ok(())
    }
}

impl Tape {
    /// Tokenizes `input` with the default options (simulation on, parse errors off).
    ///
    /// # Panics
    ///
    /// When `input` is 4 GiB or longer (see [`Builder::try_tape`]).
    pub fn new(input: &[u8]) -> Tape {
        Builder::default().tape(input)
    }
}

impl Tokenizer<'_> {
    /// Runs to the next token and appends its records to `tape` straight from the
    /// tokenizer's fields (the tape's builder: the same token [`Self::next_token`] would
    /// give, with no `Token` in between). False at the end of the input.
    #[inline(always)]
    pub(crate) fn next_into_tape(&mut self, tape: &mut Tape) -> bool {
        if !self.run(false, true, true) {
            return false;
        }
        let p = &self.pending;
        match p.what {
            PendingKind::Run => tape.push_text(
                Span::new(p.raw_start, p.raw_end),
                Span::new(p.raw_start, p.raw_end),
                p.text_kind,
            ),
            PendingKind::Text => tape.push_text(
                Span::new(p.raw_start, p.raw_end),
                Span::new(p.inner_start, p.inner_end),
                p.text_kind,
            ),
            PendingKind::Tag => tape.push_tag(
                self.tag.is_end,
                Span::new(self.tag.start, self.tag.end),
                self.tag.name(),
                self.tag.self_closing,
                &self.attrs,
            ),
            PendingKind::Comment => tape.push_comment(
                Span::new(p.raw_start, p.raw_end),
                Span::new(p.inner_start, p.inner_end),
            ),
            PendingKind::Doctype => {
                let d = &self.doctype;
                tape.push_doctype(
                    Span::new(d.start, d.end),
                    [d.name, d.public_id, d.system_id],
                    d.force_quirks,
                );
            }
        }
        true
    }
}
