//! 13.2.5.53–68: the DOCTYPE states.
//!
//! The name and the two identifiers are each one contiguous span; a missing one (None)
//! is different from an empty one.

use super::{Flow, Pending, S, Tokenizer, is_whitespace};
use crate::error::ErrorCode;
use crate::scan::class;
use crate::span::Span;

/// Which identifier a DOCTYPE state is about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Identifier {
    Public,
    System,
}

impl Tokenizer<'_> {
    /// Emits the current DOCTYPE token. At `>` the `>` is consumed; at EOF the
    /// end-of-file token follows.
    fn emit_current_doctype(&mut self) -> Flow {
        if self.peek().is_some() {
            self.pos += 1;
        }
        self.doctype.end = self.pos;
        self.state = S::Data;
        self.text_kind = crate::token::TextKind::Data;
        self.emit(Pending::Doctype)
    }

    /// EOF inside a DOCTYPE: "This is an eof-in-doctype parse error. Set the current
    /// DOCTYPE token's force-quirks flag to on. Emit the current DOCTYPE token. Emit an
    /// end-of-file token."
    fn eof_in_doctype(&mut self) -> Flow {
        self.error(ErrorCode::EofInDoctype);
        self.doctype.force_quirks = true;
        self.emit_current_doctype()
    }

    /// Skips whitespace; returns the next input character.
    fn skip_whitespace(&mut self) -> Option<u8> {
        let rest = &self.input[self.pos..];
        self.pos += self.scanner.find_class(rest, class::NOT_WHITESPACE);
        self.peek()
    }

    /// 13.2.5.53 DOCTYPE state.
    #[inline(never)]
    pub(super) fn doctype_state(&mut self) -> Flow {
        match self.peek() {
            Some(c) if is_whitespace(c) => self.switch_to(S::BeforeDoctypeName),
            Some(b'>') => self.reconsume_in(S::BeforeDoctypeName),
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.reconsume_in(S::BeforeDoctypeName)
            }
        }
    }

    /// 13.2.5.54 Before DOCTYPE name state.
    #[inline(never)]
    pub(super) fn before_doctype_name_state(&mut self) -> Flow {
        match self.skip_whitespace() {
            Some(b'>') => {
                self.error(ErrorCode::MissingDoctypeName);
                self.doctype.force_quirks = true;
                self.emit_current_doctype()
            }
            None => self.eof_in_doctype(),
            Some(c) => {
                if c == 0 {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                }
                self.doctype.name = Some(Span::new(self.pos, self.pos + 1));
                self.switch_to(S::DoctypeName)
            }
        }
    }

    /// 13.2.5.55 DOCTYPE name state.
    #[inline(never)]
    pub(super) fn doctype_name_state(&mut self) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += self.scanner.find_class(rest, class::TAG_NAME_END);
            if let Some(name) = self.doctype.name.as_mut() {
                name.end = self.pos;
            }
            match self.peek() {
                Some(b'>') => return self.emit_current_doctype(),
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                Some(b'/') => self.pos += 1, // part of the name
                Some(_) => return self.switch_to(S::AfterDoctypeName), // whitespace
                None => return self.eof_in_doctype(),
            }
        }
    }

    /// 13.2.5.56 After DOCTYPE name state.
    #[inline(never)]
    pub(super) fn after_doctype_name_state(&mut self) -> Flow {
        match self.skip_whitespace() {
            Some(b'>') => self.emit_current_doctype(),
            None => self.eof_in_doctype(),
            Some(_) => {
                if self.next_is_ignore_case(b"PUBLIC") {
                    self.consume_and_switch_to(6, S::AfterDoctypePublicKeyword)
                } else if self.next_is_ignore_case(b"SYSTEM") {
                    self.consume_and_switch_to(6, S::AfterDoctypeSystemKeyword)
                } else {
                    self.error(ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                    self.doctype.force_quirks = true;
                    self.reconsume_in(S::BogusDoctype)
                }
            }
        }
    }

    /// 13.2.5.57 After DOCTYPE public keyword state.
    #[inline(never)]
    pub(super) fn after_doctype_public_keyword_state(&mut self) -> Flow {
        self.after_doctype_keyword(Identifier::Public)
    }

    /// 13.2.5.63 After DOCTYPE system keyword state.
    #[inline(never)]
    pub(super) fn after_doctype_system_keyword_state(&mut self) -> Flow {
        self.after_doctype_keyword(Identifier::System)
    }

    /// The two "after DOCTYPE … keyword" states: like the "before … identifier" states,
    /// but a quote straight after the keyword is a missing-whitespace error.
    fn after_doctype_keyword(&mut self, which: Identifier) -> Flow {
        match self.peek() {
            Some(c) if is_whitespace(c) => self.switch_to(match which {
                Identifier::Public => S::BeforeDoctypePublicIdentifier,
                Identifier::System => S::BeforeDoctypeSystemIdentifier,
            }),
            Some(b'"' | b'\'') => {
                self.error(match which {
                    Identifier::Public => ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword,
                    Identifier::System => ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword,
                });
                self.open_identifier(which)
            }
            _ => self.before_doctype_identifier(which),
        }
    }

    /// 13.2.5.58 Before DOCTYPE public identifier state.
    #[inline(never)]
    pub(super) fn before_doctype_public_identifier_state(&mut self) -> Flow {
        self.skip_whitespace();
        self.before_doctype_identifier(Identifier::Public)
    }

    /// 13.2.5.64 Before DOCTYPE system identifier state.
    #[inline(never)]
    pub(super) fn before_doctype_system_identifier_state(&mut self) -> Flow {
        self.skip_whitespace();
        self.before_doctype_identifier(Identifier::System)
    }

    /// The two "before DOCTYPE … identifier" states, after whitespace.
    fn before_doctype_identifier(&mut self, which: Identifier) -> Flow {
        match self.peek() {
            Some(b'"' | b'\'') => self.open_identifier(which),
            Some(b'>') => {
                self.error(match which {
                    Identifier::Public => ErrorCode::MissingDoctypePublicIdentifier,
                    Identifier::System => ErrorCode::MissingDoctypeSystemIdentifier,
                });
                self.doctype.force_quirks = true;
                self.emit_current_doctype()
            }
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error(match which {
                    Identifier::Public => ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier,
                    Identifier::System => ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier,
                });
                self.doctype.force_quirks = true;
                self.reconsume_in(S::BogusDoctype)
            }
        }
    }

    /// At a quote: "Set the current DOCTYPE token's … identifier to the empty string (not
    /// missing), then switch to the DOCTYPE … identifier (double|single)-quoted state."
    fn open_identifier(&mut self, which: Identifier) -> Flow {
        let double = self.peek() == Some(b'"');
        let empty = Some(Span::new(self.pos + 1, self.pos + 1));
        match which {
            Identifier::Public => {
                self.doctype.public_id = empty;
                self.switch_to(if double {
                    S::DoctypePublicIdentifierDoubleQuoted
                } else {
                    S::DoctypePublicIdentifierSingleQuoted
                })
            }
            Identifier::System => {
                self.doctype.system_id = empty;
                self.switch_to(if double {
                    S::DoctypeSystemIdentifierDoubleQuoted
                } else {
                    S::DoctypeSystemIdentifierSingleQuoted
                })
            }
        }
    }

    /// 13.2.5.59 DOCTYPE public identifier (double-quoted) state, and
    /// 13.2.5.60 DOCTYPE public identifier (single-quoted) state.
    #[inline(never)]
    pub(super) fn doctype_public_identifier_quoted_state(&mut self, quote: u8) -> Flow {
        self.doctype_identifier_quoted(Identifier::Public, quote)
    }

    /// 13.2.5.65 DOCTYPE system identifier (double-quoted) state, and
    /// 13.2.5.66 DOCTYPE system identifier (single-quoted) state.
    #[inline(never)]
    pub(super) fn doctype_system_identifier_quoted_state(&mut self, quote: u8) -> Flow {
        self.doctype_identifier_quoted(Identifier::System, quote)
    }

    fn doctype_identifier_quoted(&mut self, which: Identifier, quote: u8) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += self.scanner.find_byte3(rest, quote, b'>', 0);
            let end = self.pos;
            let span = match which {
                Identifier::Public => self.doctype.public_id.as_mut(),
                Identifier::System => self.doctype.system_id.as_mut(),
            };
            if let Some(span) = span {
                span.end = end;
            }
            match self.peek() {
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                Some(b'>') => {
                    self.error(match which {
                        Identifier::Public => ErrorCode::AbruptDoctypePublicIdentifier,
                        Identifier::System => ErrorCode::AbruptDoctypeSystemIdentifier,
                    });
                    self.doctype.force_quirks = true;
                    return self.emit_current_doctype();
                }
                Some(_) => {
                    // The closing quote.
                    return self.switch_to(match which {
                        Identifier::Public => S::AfterDoctypePublicIdentifier,
                        Identifier::System => S::AfterDoctypeSystemIdentifier,
                    });
                }
                None => return self.eof_in_doctype(),
            }
        }
    }

    /// 13.2.5.61 After DOCTYPE public identifier state.
    #[inline(never)]
    pub(super) fn after_doctype_public_identifier_state(&mut self) -> Flow {
        match self.peek() {
            Some(c) if is_whitespace(c) => {
                self.switch_to(S::BetweenDoctypePublicAndSystemIdentifiers)
            }
            Some(b'"' | b'\'') => {
                self.error(ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers);
                self.open_identifier(Identifier::System)
            }
            _ => self.between_doctype_public_and_system_identifiers_state(),
        }
    }

    /// 13.2.5.62 Between DOCTYPE public and system identifiers state.
    #[inline(never)]
    pub(super) fn between_doctype_public_and_system_identifiers_state(&mut self) -> Flow {
        match self.skip_whitespace() {
            Some(b'>') => self.emit_current_doctype(),
            Some(b'"' | b'\'') => self.open_identifier(Identifier::System),
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.doctype.force_quirks = true;
                self.reconsume_in(S::BogusDoctype)
            }
        }
    }

    /// 13.2.5.67 After DOCTYPE system identifier state.
    #[inline(never)]
    pub(super) fn after_doctype_system_identifier_state(&mut self) -> Flow {
        match self.skip_whitespace() {
            Some(b'>') => self.emit_current_doctype(),
            None => self.eof_in_doctype(),
            Some(_) => {
                // No force-quirks here.
                self.error(ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier);
                self.reconsume_in(S::BogusDoctype)
            }
        }
    }

    /// 13.2.5.68 Bogus DOCTYPE state.
    #[inline(never)]
    pub(super) fn bogus_doctype_state(&mut self) -> Flow {
        self.skip_until(b'>');
        self.emit_current_doctype() // `>` or EOF: no error, no force-quirks
    }
}
