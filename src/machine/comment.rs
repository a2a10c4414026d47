//! 13.2.5.41–52: the bogus comment state, the markup declaration open state and the
//! comment states.
//!
//! A comment's data is always one contiguous span: every state either appends the
//! characters just consumed or leaves the closing `-->` (`--!>`, or the dashes before EOF)
//! out of it. So the states only track where the data starts and, when the comment is
//! emitted, how many of the bytes just before the current one are closing dashes.

use super::{Flow, Pending, S, Tokenizer};
use crate::error::ErrorCode;
use crate::span::Span;

impl Tokenizer<'_> {
    /// Creates a comment token whose data starts at the current character and reconsumes
    /// in the bogus comment state.
    pub(super) fn start_bogus_comment(&mut self) -> Flow {
        self.comment_start = self.markup_start;
        self.comment_data_start = self.pos;
        self.reconsume_in(S::BogusComment)
    }

    /// Emits the current comment, whose data ends `trailing` bytes before the current
    /// position. At `>` the `>` is consumed; at EOF the end-of-file token follows.
    fn emit_current_comment(&mut self, trailing: usize) -> Flow {
        let data_end = self.pos - trailing;
        let end = match self.peek() {
            Some(_) => {
                self.pos += 1;
                self.pos
            }
            None => self.pos,
        };
        self.state = S::Data;
        self.text_kind = crate::token::TextKind::Data;
        self.emit(Pending::Comment {
            raw: Span::new(self.comment_start, end),
            data: Span::new(self.comment_data_start, data_end),
        })
    }

    /// 13.2.5.41 Bogus comment state.
    #[inline(never)]
    pub(super) fn bogus_comment_state(&mut self) -> Flow {
        self.skip_until(b'>');
        self.emit_current_comment(0) // `>` or EOF
    }

    /// 13.2.5.42 Markup declaration open state. The `<!` has been consumed.
    #[inline(never)]
    pub(super) fn markup_declaration_open_state(&mut self) -> Flow {
        let rest = &self.input[self.pos..];
        if rest.starts_with(b"--") {
            // "Consume those two characters, create a comment token whose data is the
            // empty string, and switch to the comment start state."
            self.comment_start = self.markup_start;
            self.comment_data_start = self.pos + 2;
            self.consume_and_switch_to(2, S::CommentStart)
        } else if self.next_is_ignore_case(b"DOCTYPE") {
            // "Consume those characters and switch to the DOCTYPE state." (The DOCTYPE
            // token is created here rather than in the before DOCTYPE name state: it is
            // the same token either way.)
            self.doctype = super::CurrentDoctype {
                start: self.markup_start,
                ..Default::default()
            };
            self.consume_and_switch_to(7, S::Doctype)
        } else if rest.starts_with(b"[CDATA[") {
            if self.foreign_content {
                // "Consume those characters and switch to the CDATA section state."
                self.start_cdata_section(self.markup_start, self.pos + 7);
                self.consume_and_switch_to(7, S::CdataSection)
            } else {
                // The error comes after consuming "[CDATA[", at its last character. The
                // comment's data is "[CDATA[", so the data span starts at the `[`.
                self.error_at(ErrorCode::CdataInHtmlContent, self.pos + 6);
                self.start_bogus_comment()
            }
        } else {
            self.error(ErrorCode::IncorrectlyOpenedComment);
            self.start_bogus_comment()
        }
    }

    /// 13.2.5.43 Comment start state.
    #[inline(never)]
    pub(super) fn comment_start_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.switch_to(S::CommentStartDash),
            Some(b'>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.emit_current_comment(0)
            }
            _ => self.reconsume_in(S::Comment),
        }
    }

    /// 13.2.5.44 Comment start dash state.
    #[inline(never)]
    pub(super) fn comment_start_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.switch_to(S::CommentEnd),
            Some(b'>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.emit_current_comment(1)
            }
            None => {
                self.error(ErrorCode::EofInComment);
                self.emit_current_comment(1)
            }
            Some(_) => self.reconsume_in(S::Comment), // the `-` is data
        }
    }

    /// 13.2.5.45 Comment state.
    #[inline(never)]
    pub(super) fn comment_state(&mut self) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            // `<` and NUL only matter for parse errors (the comment less-than sign states
            // append every character they consume and raise nested-comment, nothing else).
            self.pos += if self.errors_on {
                self.scanner.find_byte3(rest, b'-', b'<', 0)
            } else {
                self.scanner.find_byte(rest, b'-')
            };
            match self.peek() {
                Some(b'-') => {
                    return self.switch_to(S::CommentEndDash);
                }
                Some(b'<') => {
                    return self.switch_to(S::CommentLessThanSign);
                }
                Some(_) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                None => {
                    self.error(ErrorCode::EofInComment);
                    return self.emit_current_comment(0);
                }
            }
        }
    }

    /// 13.2.5.46 Comment less-than sign state.
    #[inline(never)]
    pub(super) fn comment_less_than_sign_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'!') => self.switch_to(S::CommentLessThanSignBang),
            Some(b'<') => self.consume_and_stay(),
            _ => self.reconsume_in(S::Comment),
        }
    }

    /// 13.2.5.47 Comment less-than sign bang state.
    #[inline(never)]
    pub(super) fn comment_less_than_sign_bang_state(&mut self) -> Flow {
        if self.peek() == Some(b'-') {
            self.switch_to(S::CommentLessThanSignBangDash)
        } else {
            self.reconsume_in(S::Comment)
        }
    }

    /// 13.2.5.48 Comment less-than sign bang dash state.
    #[inline(never)]
    pub(super) fn comment_less_than_sign_bang_dash_state(&mut self) -> Flow {
        if self.peek() == Some(b'-') {
            self.switch_to(S::CommentLessThanSignBangDashDash)
        } else {
            self.reconsume_in(S::CommentEndDash)
        }
    }

    /// 13.2.5.49 Comment less-than sign bang dash dash state.
    #[inline(never)]
    pub(super) fn comment_less_than_sign_bang_dash_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'>') | None => {}
            Some(_) => self.error(ErrorCode::NestedComment),
        }
        self.reconsume_in(S::CommentEnd)
    }

    /// 13.2.5.50 Comment end dash state.
    #[inline(never)]
    pub(super) fn comment_end_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.switch_to(S::CommentEnd),
            None => {
                self.error(ErrorCode::EofInComment);
                self.emit_current_comment(1)
            }
            Some(_) => self.reconsume_in(S::Comment), // the `-` is data
        }
    }

    /// 13.2.5.51 Comment end state.
    #[inline(never)]
    pub(super) fn comment_end_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'>') => self.emit_current_comment(2),
            Some(b'!') => self.switch_to(S::CommentEndBang),
            Some(b'-') => {
                // One `-` becomes data; the last two stay the candidate end.
                self.consume_and_stay()
            }
            None => {
                self.error(ErrorCode::EofInComment);
                self.emit_current_comment(2)
            }
            Some(_) => self.reconsume_in(S::Comment), // the `--` are data
        }
    }

    /// 13.2.5.52 Comment end bang state.
    #[inline(never)]
    pub(super) fn comment_end_bang_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => {
                // "--!" becomes data; this `-` may begin the end.
                self.switch_to(S::CommentEndDash)
            }
            Some(b'>') => {
                self.error(ErrorCode::IncorrectlyClosedComment);
                self.emit_current_comment(3)
            }
            None => {
                self.error(ErrorCode::EofInComment);
                self.emit_current_comment(3)
            }
            Some(_) => self.reconsume_in(S::Comment), // the `--!` are data
        }
    }
}
