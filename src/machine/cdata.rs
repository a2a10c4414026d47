//! 13.2.5.69–71: the CDATA section states.
//!
//! A CDATA section's characters become one [`crate::Text`] of kind
//! [`crate::TextKind::Cdata`] whose raw span includes `<![CDATA[` and `]]>`.

use super::{Flow, Pending, S, Tokenizer};
use crate::error::ErrorCode;
use crate::span::Span;
use crate::token::TextKind;

impl Tokenizer<'_> {
    /// Begins a CDATA section whose content starts at `content_start` and whose raw bytes
    /// start at `raw_start` (the `<` of `<![CDATA[`, or the content itself when the
    /// tokenizer starts in the CDATA section state).
    pub(super) fn start_cdata_section(&mut self, raw_start: usize, content_start: usize) {
        self.cdata_start = raw_start;
        self.text_start = content_start;
        self.text_kind = TextKind::Cdata;
    }

    /// 13.2.5.69 CDATA section state.
    #[inline(never)]
    pub(super) fn cdata_section_state(&mut self) -> Flow {
        if self.text_start == super::NO_TEXT {
            // Started in this state (html5lib's "CDATA section state").
            self.start_cdata_section(self.pos, self.pos);
        }
        self.pos += self.scanner.find_byte(&self.input[self.pos..], b']');
        if self.peek().is_some() {
            return self.switch_to(S::CdataSectionBracket);
        }
        self.error(ErrorCode::EofInCdata);
        let end = self.input.len();
        self.state = S::Done;
        if self.errors_on {
            self.check_input_stream(end);
        }
        self.emit_cdata_text(end, end)
    }

    /// 13.2.5.70 CDATA section bracket state.
    #[inline(never)]
    pub(super) fn cdata_section_bracket_state(&mut self) -> Flow {
        if self.peek() == Some(b']') {
            self.switch_to(S::CdataSectionEnd)
        } else {
            self.reconsume_in(S::CdataSection) // the `]` is a character
        }
    }

    /// 13.2.5.71 CDATA section end state.
    #[inline(never)]
    pub(super) fn cdata_section_end_state(&mut self) -> Flow {
        match self.peek() {
            Some(b']') => {
                // "Emit a U+005D RIGHT SQUARE BRACKET character token": one `]` is a
                // character; the last two may still end the section.
                self.consume_and_stay()
            }
            Some(b'>') => {
                let content_end = self.pos - 2;
                self.switch_to(S::Data);
                self.emit_cdata_text(content_end, self.pos)
            }
            _ => self.reconsume_in(S::CdataSection), // the `]]` are characters
        }
    }

    /// Hands out the CDATA section's characters (even when empty: the raw bytes still
    /// need a token so that spans cover the input).
    fn emit_cdata_text(&mut self, content_end: usize, raw_end: usize) -> Flow {
        let content_start = match std::mem::replace(&mut self.text_start, super::NO_TEXT) {
            super::NO_TEXT => content_end,
            start => start,
        };
        self.text_kind = TextKind::Data;
        let raw = Span::new(self.cdata_start, raw_end);
        if raw.is_empty() {
            return Flow::Continue;
        }
        self.emit(Pending::Text {
            raw,
            content: Span::new(content_start, content_end),
            kind: TextKind::Cdata,
        })
    }
}
