//! 13.2.5.15, 13.2.5.18–23 and 13.2.5.26–31: the script data less-than sign, escape,
//! escaped and double-escape states (the script data escaped end tag open and end tag name
//! states, 13.2.5.24–25, share the end tag code in `text`). All of them only decide where
//! `</script>` can end the script; every character they consume is a character token of
//! the one script data text run.

use super::{Flow, S, Tokenizer, is_whitespace};
use crate::error::ErrorCode;
use crate::scan::class;

impl Tokenizer<'_> {
    /// 13.2.5.15 Script data less-than sign state.
    #[inline(never)]
    pub(super) fn script_data_less_than_sign_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'/') => self.switch_to(S::ScriptDataEndTagOpen),
            Some(b'!') => self.switch_to(S::ScriptDataEscapeStart),
            _ => self.reconsume_in(S::ScriptData),
        }
    }

    /// 13.2.5.18 Script data escape start state.
    #[inline(never)]
    pub(super) fn script_data_escape_start_state(&mut self) -> Flow {
        if self.peek() == Some(b'-') {
            self.switch_to(S::ScriptDataEscapeStartDash)
        } else {
            self.reconsume_in(S::ScriptData)
        }
    }

    /// 13.2.5.19 Script data escape start dash state.
    #[inline(never)]
    pub(super) fn script_data_escape_start_dash_state(&mut self) -> Flow {
        if self.peek() == Some(b'-') {
            self.switch_to(S::ScriptDataEscapedDashDash)
        } else {
            self.reconsume_in(S::ScriptData)
        }
    }

    /// EOF in an escaped or double-escaped state.
    fn eof_in_script_comment_like_text(&mut self) -> Flow {
        self.error(ErrorCode::EofInScriptHtmlCommentLikeText);
        self.emit_eof()
    }

    /// The U+0000 and "anything else" branches of 13.2.5.20 script data escaped state and
    /// 13.2.5.27 script data double escaped state, which are the same: every character
    /// up to the next `-` or `<` is emitted as it is (a NUL with an
    /// unexpected-null-character parse error), so it is skipped. Returns that `-` or `<`,
    /// not consumed; None at the end of the input.
    #[inline(always)]
    fn skip_escaped_script_text(&mut self) -> Option<u8> {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += if self.errors_on {
                self.scanner.find_byte3(rest, b'-', b'<', 0)
            } else {
                self.scanner.find_byte2(rest, b'-', b'<')
            };
            match self.peek() {
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                next => return next,
            }
        }
    }

    /// The U+0000, EOF and "anything else" branches of the script data escaped dash and
    /// dash dash states (13.2.5.21–22) and of the double escaped dash and dash dash states
    /// (13.2.5.28–29), which are the same: the character is text again, of `text` (the
    /// escaped or double escaped state), a NUL with an unexpected-null-character parse
    /// error; EOF ends the script.
    #[inline(always)]
    fn back_to_script_text(&mut self, text: S) -> Flow {
        match self.peek() {
            Some(0) => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.switch_to(text)
            }
            None => self.eof_in_script_comment_like_text(),
            Some(_) => self.switch_to(text),
        }
    }

    /// 13.2.5.20 Script data escaped state.
    #[inline(never)]
    pub(super) fn script_data_escaped_state(&mut self) -> Flow {
        match self.skip_escaped_script_text() {
            Some(b'-') => self.switch_to(S::ScriptDataEscapedDash),
            Some(_) => {
                // `<`.
                self.markup_start = self.pos;
                self.switch_to(S::ScriptDataEscapedLessThanSign)
            }
            None => self.eof_in_script_comment_like_text(),
        }
    }

    /// 13.2.5.21 Script data escaped dash state.
    #[inline(never)]
    pub(super) fn script_data_escaped_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.switch_to(S::ScriptDataEscapedDashDash),
            Some(b'<') => {
                self.markup_start = self.pos;
                self.switch_to(S::ScriptDataEscapedLessThanSign)
            }
            _ => self.back_to_script_text(S::ScriptDataEscaped),
        }
    }

    /// 13.2.5.22 Script data escaped dash dash state.
    #[inline(never)]
    pub(super) fn script_data_escaped_dash_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.consume_and_stay(),
            Some(b'<') => {
                self.markup_start = self.pos;
                self.switch_to(S::ScriptDataEscapedLessThanSign)
            }
            Some(b'>') => self.switch_to(S::ScriptData),
            _ => self.back_to_script_text(S::ScriptDataEscaped),
        }
    }

    /// 13.2.5.23 Script data escaped less-than sign state.
    #[inline(never)]
    pub(super) fn script_data_escaped_less_than_sign_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'/') => self.switch_to(S::ScriptDataEscapedEndTagOpen),
            Some(c) if c.is_ascii_alphabetic() => {
                self.temp_start = self.pos;
                self.reconsume_in(S::ScriptDataDoubleEscapeStart)
            }
            _ => self.reconsume_in(S::ScriptDataEscaped),
        }
    }

    /// 13.2.5.26 Script data double escape start state.
    #[inline(never)]
    pub(super) fn script_data_double_escape_start_state(&mut self) -> Flow {
        self.double_escape_boundary(S::ScriptDataDoubleEscaped, S::ScriptDataEscaped)
    }

    /// 13.2.5.31 Script data double escape end state.
    #[inline(never)]
    pub(super) fn script_data_double_escape_end_state(&mut self) -> Flow {
        self.double_escape_boundary(S::ScriptDataEscaped, S::ScriptDataDoubleEscaped)
    }

    /// The double escape start and end states: letters fill the temporary buffer; at
    /// whitespace, `/` or `>` the buffer decides ("script" switches to `if_script`);
    /// anything else reconsumes in `otherwise`.
    fn double_escape_boundary(&mut self, if_script: S, otherwise: S) -> Flow {
        let rest = &self.input[self.pos..];
        self.pos += self.scanner.find_class(rest, class::NOT_ALPHA);
        match self.peek() {
            Some(c) if is_whitespace(c) || c == b'/' || c == b'>' => {
                let buffer = &self.input[self.temp_start..self.pos];
                if buffer.eq_ignore_ascii_case(b"script") {
                    self.switch_to(if_script)
                } else {
                    self.switch_to(otherwise)
                }
            }
            _ => self.reconsume_in(otherwise),
        }
    }

    /// 13.2.5.27 Script data double escaped state.
    #[inline(never)]
    pub(super) fn script_data_double_escaped_state(&mut self) -> Flow {
        match self.skip_escaped_script_text() {
            Some(b'-') => self.switch_to(S::ScriptDataDoubleEscapedDash),
            Some(_) => self.switch_to(S::ScriptDataDoubleEscapedLessThanSign), // `<`
            None => self.eof_in_script_comment_like_text(),
        }
    }

    /// 13.2.5.28 Script data double escaped dash state.
    #[inline(never)]
    pub(super) fn script_data_double_escaped_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.switch_to(S::ScriptDataDoubleEscapedDashDash),
            Some(b'<') => self.switch_to(S::ScriptDataDoubleEscapedLessThanSign),
            _ => self.back_to_script_text(S::ScriptDataDoubleEscaped),
        }
    }

    /// 13.2.5.29 Script data double escaped dash dash state.
    #[inline(never)]
    pub(super) fn script_data_double_escaped_dash_dash_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'-') => self.consume_and_stay(),
            Some(b'<') => self.switch_to(S::ScriptDataDoubleEscapedLessThanSign),
            Some(b'>') => self.switch_to(S::ScriptData),
            _ => self.back_to_script_text(S::ScriptDataDoubleEscaped),
        }
    }

    /// 13.2.5.30 Script data double escaped less-than sign state.
    #[inline(never)]
    pub(super) fn script_data_double_escaped_less_than_sign_state(&mut self) -> Flow {
        if self.peek() == Some(b'/') {
            self.temp_start = self.pos + 1;
            self.switch_to(S::ScriptDataDoubleEscapeEnd)
        } else {
            self.reconsume_in(S::ScriptDataDoubleEscaped)
        }
    }
}
