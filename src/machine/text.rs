//! 13.2.5.1–5: the data, RCDATA, RAWTEXT, script data and PLAINTEXT states;
//! 13.2.5.9–14: the RCDATA and RAWTEXT less-than sign, end tag open and end tag name states;
//! 13.2.5.16–17 and 13.2.5.24–25: the script data and script data escaped end tag open and
//! end tag name states (the script data less-than sign state, 13.2.5.15, is in `script`).
//!
//! Character tokens are not emitted one by one: the open text run grows until markup
//! begins, and is handed out as one [`crate::Text`] span.

use super::{Flow, S, Tokenizer, is_whitespace};
use crate::error::ErrorCode;
use crate::scan::class;

/// Which family of text states an end tag check belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TextFamily {
    Rcdata,
    Rawtext,
    ScriptData,
    ScriptDataEscaped,
}

impl TextFamily {
    /// The state that "reconsume in the … state" returns to.
    fn text_state(self) -> S {
        match self {
            TextFamily::Rcdata => S::Rcdata,
            TextFamily::Rawtext => S::Rawtext,
            TextFamily::ScriptData => S::ScriptData,
            TextFamily::ScriptDataEscaped => S::ScriptDataEscaped,
        }
    }

    fn end_tag_name_state(self) -> S {
        match self {
            TextFamily::Rcdata => S::RcdataEndTagName,
            TextFamily::Rawtext => S::RawtextEndTagName,
            TextFamily::ScriptData => S::ScriptDataEndTagName,
            TextFamily::ScriptDataEscaped => S::ScriptDataEscapedEndTagName,
        }
    }
}

impl Tokenizer<'_> {
    /// 13.2.5.1 Data state. Inlined into [`Tokenizer::run`], and so into the caller's
    /// loop: most calls only search for the next `<`. `lower_names` and `simulation` are
    /// passed on to [`Tokenizer::tag_states`]; `errors`: see [`Tokenizer::errors_on_if`].
    #[inline(always)]
    pub(super) fn data_state(&mut self, lower_names: bool, errors: bool, simulation: bool) -> Flow {
        self.open_text(self.pos);
        loop {
            // `&` and NUL only raise parse errors here (references decode lazily, NUL stays
            // U+0000), so without errors the search is for `<` alone.
            self.pos = if self.errors_on_if(errors) {
                self.pos
                    + self
                        .scanner
                        .find_byte3(&self.input[self.pos..], b'<', b'&', 0)
            } else {
                self.pos + self.scanner.find_byte(&self.input[self.pos..], b'<')
            };
            match self.peek() {
                // "Switch to the tag open state" (its commonest branches taken here).
                Some(b'<') => {
                    self.markup_start = self.pos;
                    let flow = self.tag_open_shortcut();
                    if let Flow::Continue = flow
                        && self.state == S::TagName
                    {
                        // No text before the tag: the tag name state runs at once,
                        // without a trip back through the driver.
                        return self.tag_states(lower_names, errors, simulation);
                    }
                    return flow;
                }
                // "Set the return state to the data state. Switch to the character
                // reference state." Run for its parse errors only.
                Some(b'&') => {
                    self.pos = self.character_reference(self.pos, false, self.input.len());
                }
                // U+0000 NULL: "This is an unexpected-null-character parse error. Emit the
                // current input character as a character token."
                Some(_) => {
                    self.error_at_if(errors, ErrorCode::UnexpectedNullCharacter, self.pos);
                    self.pos += 1;
                }
                // EOF: "Emit an end-of-file token."
                None => return self.emit_eof(),
            }
        }
    }

    /// Shortcut of 13.2.5.6 Tag open state and 13.2.5.7 End tag open state (homes:
    /// `tag_open_state` and `end_tag_open_state` in `tag.rs`), taken by the data state at
    /// its `<` (the current input character) for `<x` and `</x`, the two commonest
    /// markups: their "ASCII alpha" branches ("Create a new start/end tag token, set its
    /// tag name to the empty string. Reconsume in the tag name state.") run here, and the
    /// tag name state runs next, at once when no text precedes the tag, else after the
    /// text has been handed out. Anything else switches to the tag open state.
    #[inline(always)]
    fn tag_open_shortcut(&mut self) -> Flow {
        let input = self.input;
        let (is_end, name_at) = match input.get(self.pos + 1) {
            Some(c) if c.is_ascii_alphabetic() => (false, self.pos + 1),
            Some(b'/') if input.get(self.pos + 2).is_some_and(u8::is_ascii_alphabetic) => {
                (true, self.pos + 2)
            }
            _ => return self.switch_to(S::TagOpen),
        };
        self.pos = name_at;
        self.create_tag(is_end);
        self.reconsume_in(S::TagName);
        // Text before the tag goes first, and the next call resumes in the tag name state.
        // Creating the tag reports nothing and the text does not refer to it, so this is
        // the spec's order (and `set_state` after the text reads the markup again).
        self.emit_text(self.markup_start).unwrap_or(Flow::Continue)
    }

    /// 13.2.5.2 RCDATA state.
    #[inline(never)]
    pub(super) fn rcdata_state(&mut self) -> Flow {
        self.open_text(self.pos);
        loop {
            let rest = &self.input[self.pos..];
            self.pos += if self.errors_on {
                self.scanner.find_byte3(rest, b'<', b'&', 0)
            } else {
                self.scanner.find_byte(rest, b'<')
            };
            match self.peek() {
                Some(b'<') => {
                    self.markup_start = self.pos;
                    return self.switch_to(S::RcdataLessThanSign);
                }
                Some(b'&') => {
                    self.pos = self.character_reference(self.pos, false, self.input.len());
                }
                Some(_) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                None => return self.emit_eof(),
            }
        }
    }

    /// 13.2.5.3 RAWTEXT state.
    #[inline(never)]
    pub(super) fn rawtext_state(&mut self) -> Flow {
        self.verbatim_text_state(S::RawtextLessThanSign)
    }

    /// 13.2.5.4 Script data state.
    #[inline(never)]
    pub(super) fn script_data_state(&mut self) -> Flow {
        self.verbatim_text_state(S::ScriptDataLessThanSign)
    }

    /// RAWTEXT and script data read the same way: text up to `<`, NUL an error.
    fn verbatim_text_state(&mut self, less_than_sign_state: S) -> Flow {
        self.open_text(self.pos);
        self.skip_until(b'<');
        if self.peek().is_none() {
            return self.emit_eof();
        }
        self.markup_start = self.pos;
        self.switch_to(less_than_sign_state)
    }

    /// 13.2.5.5 PLAINTEXT state.
    #[inline(never)]
    pub(super) fn plaintext_state(&mut self) -> Flow {
        self.open_text(self.pos);
        if self.errors_on {
            while let Some(i) = self.scanner.memchr(0, &self.input[self.pos..]) {
                self.pos += i;
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.pos += 1;
            }
        }
        self.pos = self.input.len();
        self.emit_eof()
    }

    /// 13.2.5.9 RCDATA less-than sign state.
    #[inline(never)]
    pub(super) fn rcdata_less_than_sign_state(&mut self) -> Flow {
        self.text_less_than_sign(S::RcdataEndTagOpen, S::Rcdata)
    }

    /// 13.2.5.12 RAWTEXT less-than sign state.
    #[inline(never)]
    pub(super) fn rawtext_less_than_sign_state(&mut self) -> Flow {
        self.text_less_than_sign(S::RawtextEndTagOpen, S::Rawtext)
    }

    /// RCDATA and RAWTEXT less-than sign states: `/` may begin an end tag; anything else
    /// leaves the `<` as text.
    fn text_less_than_sign(&mut self, end_tag_open: S, text: S) -> Flow {
        if self.peek() == Some(b'/') {
            self.switch_to(end_tag_open)
        } else {
            self.reconsume_in(text)
        }
    }

    /// 13.2.5.10 RCDATA end tag open state.
    #[inline(never)]
    pub(super) fn rcdata_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(TextFamily::Rcdata)
    }

    /// 13.2.5.13 RAWTEXT end tag open state.
    #[inline(never)]
    pub(super) fn rawtext_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(TextFamily::Rawtext)
    }

    /// 13.2.5.16 Script data end tag open state.
    #[inline(never)]
    pub(super) fn script_data_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(TextFamily::ScriptData)
    }

    /// 13.2.5.24 Script data escaped end tag open state.
    #[inline(never)]
    pub(super) fn script_data_escaped_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(TextFamily::ScriptDataEscaped)
    }

    /// The four "… end tag open" states of the text families: an ASCII letter creates an
    /// end tag token (whose name is also the temporary buffer); anything else leaves `</`
    /// as text.
    fn text_end_tag_open(&mut self, family: TextFamily) -> Flow {
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => {
                self.temp_start = self.pos;
                self.create_tag(true);
                self.reconsume_in(family.end_tag_name_state())
            }
            _ => self.reconsume_in(family.text_state()),
        }
    }

    /// 13.2.5.11 RCDATA end tag name state.
    #[inline(never)]
    pub(super) fn rcdata_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(TextFamily::Rcdata)
    }

    /// 13.2.5.14 RAWTEXT end tag name state.
    #[inline(never)]
    pub(super) fn rawtext_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(TextFamily::Rawtext)
    }

    /// 13.2.5.17 Script data end tag name state.
    #[inline(never)]
    pub(super) fn script_data_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(TextFamily::ScriptData)
    }

    /// 13.2.5.25 Script data escaped end tag name state.
    #[inline(never)]
    pub(super) fn script_data_escaped_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(TextFamily::ScriptDataEscaped)
    }

    /// The four "… end tag name" states: letters extend the name and the temporary buffer;
    /// whitespace, `/` or `>` after an appropriate end tag name continue as a tag; anything
    /// else leaves `</` and the buffer as text.
    fn text_end_tag_name(&mut self, family: TextFamily) -> Flow {
        let rest = &self.input[self.pos..];
        self.pos += self.scanner.find_class(rest, class::NOT_ALPHA);
        let name = &self.input[self.temp_start..self.pos];
        let next = self.peek();
        let ends_name = matches!(next, Some(c) if is_whitespace(c) || c == b'/' || c == b'>');
        if !ends_name || !self.is_appropriate_end_tag(name) {
            // "Anything else": the `</` and the buffer are character tokens of the run.
            return self.reconsume_in(family.text_state());
        }
        if let Some(flow) = self.emit_text_before_markup() {
            return flow;
        }
        self.tag.name_end = self.pos;
        match next {
            Some(b'/') => self.switch_to(S::SelfClosingStartTag),
            Some(b'>') => self.emit_current_tag(true, true),
            _ => self.switch_to(S::BeforeAttributeName),
        }
    }
}
