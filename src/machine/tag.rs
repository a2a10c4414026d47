//! 13.2.5.6–8: tag open, end tag open and tag name states, and
//! 13.2.5.32–40: the attribute states and the self-closing start tag state.

use std::hash::{BuildHasher, Hasher};

use super::{Flow, S, Tokenizer, is_whitespace};
use crate::attrs::AttrSpans;
use crate::decode::{Context, decode, same_name};
use crate::error::ErrorCode;
use crate::scan::class;
use crate::span::Span;

/// Above this many attributes the full duplicate check uses the hash index (`attr_index`)
/// instead of a linear scan.
const LINEAR_DUPLICATE_CHECK: usize = 16;

impl<'a> Tokenizer<'a> {
    /// 13.2.5.6 Tag open state. The `<` is at `self.markup_start`.
    pub(super) fn tag_open_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'!') => {
                if let Some(flow) = self.emit_text_before_markup() {
                    return flow;
                }
                self.switch_to(S::MarkupDeclarationOpen)
            }
            Some(b'/') => self.switch_to(S::EndTagOpen),
            Some(c) if c.is_ascii_alphabetic() => {
                if let Some(flow) = self.emit_text_before_markup() {
                    return flow;
                }
                self.create_tag(false);
                self.reconsume_in(S::TagName)
            }
            Some(b'?') => {
                if let Some(flow) = self.emit_text_before_markup() {
                    return flow;
                }
                self.error(ErrorCode::UnexpectedQuestionMarkInsteadOfTagName);
                self.start_bogus_comment()
            }
            None => {
                // The `<` is a character token of the open text run.
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_eof()
            }
            Some(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.reconsume_in(S::Data)
            }
        }
    }

    /// 13.2.5.7 End tag open state.
    pub(super) fn end_tag_open_state(&mut self) -> Flow {
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => {
                if let Some(flow) = self.emit_text_before_markup() {
                    return flow;
                }
                self.create_tag(true);
                self.reconsume_in(S::TagName)
            }
            Some(b'>') => {
                // `</>` is dropped: no token, a gap in the spans.
                if let Some(flow) = self.emit_text_before_markup() {
                    return flow;
                }
                self.error(ErrorCode::MissingEndTagName);
                self.switch_to(S::Data)
            }
            None => {
                // `</` are character tokens of the open text run.
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_eof()
            }
            Some(_) => {
                if let Some(flow) = self.emit_text_before_markup() {
                    return flow;
                }
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.start_bogus_comment()
            }
        }
    }

    /// The states inside a tag, run as one loop with the position and the state in local
    /// variables (a tag is where most of a page's transitions happen, so they should be
    /// plain jumps rather than trips through the driver): 13.2.5.8 tag name, 13.2.5.32–39
    /// the attribute states, 13.2.5.40 self-closing start tag. Each state's home is one
    /// arm, headed by its number and name; the arms use the local verbs [`switch_to`] and
    /// [`reconsume_in`], and `break` is "Switch to the data state. Emit the current tag
    /// token." Some arms also take the next state's common branches directly; each such
    /// shortcut names the state it stands for and points to its home. Returns when the
    /// tag is emitted or the input ends. Inlined into its one caller, [`Tokenizer::run`],
    /// and so into the caller's loop. With `lower_names` (a constant of the caller's sink,
    /// [`super::TokenSink::DECODES_NAMES`]) the attribute name state also keeps a name it
    /// saw to be lowercase ASCII as a `&str` (`AttrSpans::lower_name`). `errors`: see
    /// [`Tokenizer::errors_on_if`]; `simulation`: see [`Tokenizer::run`].
    #[inline(always)]
    pub(super) fn tag_states(&mut self, lower_names: bool, errors: bool, simulation: bool) -> Flow {
        let input = self.input;
        let scanner = self.scanner;
        let mut pos = self.pos;
        let mut state = self.state;
        // Whether the attribute name being read is plain so far (see `S::AttributeName`).
        let mut plain_name = true;
        // Whether the attribute name state's next search starts at the name's first byte
        // (it does unless the name began with `=` or the search stopped inside the name),
        // so that what it finds is the whole name.
        let mut whole_name = true;
        'tag: {
            if state == S::TagName {
                // Shortcut of 13.2.5.8 Tag name state (home: its arm below): its `>` and
                // whitespace branches, taken after a short scan of the name (most are a few
                // bytes), without a trip round the state loop. `/`, NUL and EOF take the arm.
                // The name's first character is ASCII alpha (the tag open and end tag open
                // states create the tag only there), so the scan starts after it.
                debug_assert!(input[pos].is_ascii_alphabetic());
                pos += 1 + scanner.find_class_short(&input[pos + 1..], class::TAG_NAME_END);
                match input.get(pos) {
                    Some(b'>') => {
                        self.tag.name_end = pos;
                        break 'tag;
                    }
                    Some(&c) if is_whitespace(c) => {
                        // "Switch to the before attribute name state", through its shortcut.
                        self.tag.name_end = pos;
                        (state, pos) = self.before_attribute_name_shortcut(pos + 1);
                    }
                    _ => {}
                }
            }
            'states: loop {
                match state {
                    // 13.2.5.8 Tag name state. Upper-case letters and NUL stay in the span and
                    // are transformed when the name is decoded.
                    S::TagName => {
                        pos += scanner.find_class(&input[pos..], class::TAG_NAME_END);
                        match input.get(pos) {
                            Some(b'>') => {
                                self.tag.name_end = pos;
                                break;
                            }
                            Some(b'/') => {
                                self.tag.name_end = pos;
                                switch_to(&mut state, &mut pos, S::SelfClosingStartTag);
                            }
                            Some(0) => {
                                self.error_at_if(errors, ErrorCode::UnexpectedNullCharacter, pos);
                                pos += 1;
                            }
                            Some(_) => {
                                // Whitespace: "Switch to the before attribute name state",
                                // through its shortcut.
                                self.tag.name_end = pos;
                                (state, pos) = self.before_attribute_name_shortcut(pos + 1);
                            }
                            None => return self.eof_in_tag(pos),
                        }
                    }
                    // 13.2.5.32 Before attribute name state.
                    S::BeforeAttributeName => {
                        while input.get(pos).is_some_and(|&c| is_whitespace(c)) {
                            pos += 1;
                        }
                        match input.get(pos) {
                            Some(b'/' | b'>') | None => {
                                reconsume_in(&mut state, S::AfterAttributeName)
                            }
                            Some(b'=') => {
                                self.error_at_if(
                                    errors,
                                    ErrorCode::UnexpectedEqualsSignBeforeAttributeName,
                                    pos,
                                );
                                self.tag.attr_name_start = pos;
                                whole_name = false;
                                switch_to(&mut state, &mut pos, S::AttributeName);
                            }
                            Some(_) => {
                                // "Start a new attribute … Reconsume in the attribute name state."
                                self.tag.attr_name_start = pos;
                                reconsume_in(&mut state, S::AttributeName);
                            }
                        }
                    }
                    // 13.2.5.33 Attribute name state. It loops over attributes of the common
                    // shape, `name="value"` then whitespace, without going round the state
                    // loop (shortcuts of 13.2.5.35–37 in `quoted_attribute`, of 13.2.5.39 and
                    // 13.2.5.32 below); anything else picks the next state.
                    S::AttributeName => loop {
                        // Whether the name so far is ASCII without NUL (see `check_attribute_name`),
                        // learnt from the blocks the scan reads anyway. A name that began before
                        // `pos` began with an ASCII character (`=`, a quote or `<`).
                        // With `lower_names`, the name as a `&str` when this one search
                        // read all of it and saw it lowercase ASCII.
                        let (end, ascii, lower) = if lower_names {
                            let (length, ascii, lower) =
                                scanner.find_class_ascii_lower(&input[pos..], class::ATTR_NAME_END);
                            (pos + length, ascii, lower)
                        } else {
                            let (length, ascii) =
                                scanner.find_class_ascii(&input[pos..], class::ATTR_NAME_END);
                            (pos + length, ascii, None)
                        };
                        let lower_name = if whole_name { lower } else { None };
                        pos = end;
                        plain_name &= ascii;
                        match input.get(pos) {
                            Some(b'=') if matches!(input.get(pos + 1), Some(b'"' | b'\'')) => {
                                pos = match self
                                    .quoted_attribute(pos, plain_name, lower_name, errors)
                                {
                                    Some(after_quote) => after_quote,
                                    None => return self.eof_in_tag(input.len()),
                                };
                                plain_name = true; // for the next name
                                whole_name = true;
                                // Shortcut of 13.2.5.39 After attribute value (quoted) state
                                // (home: its arm below): its `>` and whitespace branches, taken
                                // directly after the closing quote.
                                match input.get(pos) {
                                    Some(b'>') => break 'states,
                                    Some(&c) if is_whitespace(c) => {
                                        (state, pos) = self.before_attribute_name_shortcut(pos + 1);
                                        if state != S::AttributeName {
                                            break;
                                        }
                                    }
                                    _ => {
                                        // The closing quote was consumed: "Switch to the after
                                        // attribute value (quoted) state" for this character.
                                        state = S::AfterAttributeValueQuoted;
                                        break;
                                    }
                                }
                            }
                            Some(b'=') => {
                                // "Switch to the before attribute value state".
                                self.leave_attribute_name(pos, plain_name, lower_name);
                                plain_name = true;
                                whole_name = true;
                                switch_to(&mut state, &mut pos, S::BeforeAttributeValue);
                                // Shortcut of 13.2.5.35 Before attribute value state (home: its
                                // arm below): its quote branches, taken directly when the
                                // quote follows the `=`, and its "anything else" branch for
                                // an unquoted value (`class=a`).
                                let quoted = match input.get(pos) {
                                    Some(b'"') => S::AttributeValueDoubleQuoted,
                                    Some(b'\'') => S::AttributeValueSingleQuoted,
                                    Some(&c) if c != b'>' && !is_whitespace(c) => {
                                        // "Reconsume in the attribute value (unquoted)
                                        // state", without a trip round the state loop.
                                        self.start_attribute_value(pos);
                                        state = S::AttributeValueUnquoted;
                                        break;
                                    }
                                    _ => break,
                                };
                                self.start_attribute_value(pos + 1);
                                switch_to(&mut state, &mut pos, quoted);
                                break;
                            }
                            Some(0) => {
                                self.error_at_if(errors, ErrorCode::UnexpectedNullCharacter, pos);
                                plain_name = false;
                                whole_name = false;
                                pos += 1;
                            }
                            Some(b'"' | b'\'' | b'<') => {
                                self.error_at_if(
                                    errors,
                                    ErrorCode::UnexpectedCharacterInAttributeName,
                                    pos,
                                );
                                whole_name = false;
                                pos += 1;
                            }
                            _ => {
                                // Whitespace, `/`, `>` or EOF: "Reconsume in the after
                                // attribute name state."
                                self.leave_attribute_name(pos, plain_name, lower_name);
                                plain_name = true;
                                whole_name = true;
                                reconsume_in(&mut state, S::AfterAttributeName);
                                break;
                            }
                        }
                    },
                    // 13.2.5.34 After attribute name state.
                    S::AfterAttributeName => {
                        while input.get(pos).is_some_and(|&c| is_whitespace(c)) {
                            pos += 1;
                        }
                        match input.get(pos) {
                            Some(b'/') => {
                                switch_to(&mut state, &mut pos, S::SelfClosingStartTag);
                            }
                            Some(b'=') => {
                                switch_to(&mut state, &mut pos, S::BeforeAttributeValue);
                            }
                            Some(b'>') => break,
                            None => return self.eof_in_tag(pos),
                            Some(_) => {
                                // "Start a new attribute … Reconsume in the attribute name state."
                                self.tag.attr_name_start = pos;
                                reconsume_in(&mut state, S::AttributeName);
                            }
                        }
                    }
                    // 13.2.5.35 Before attribute value state.
                    S::BeforeAttributeValue => {
                        while input.get(pos).is_some_and(|&c| is_whitespace(c)) {
                            pos += 1;
                        }
                        match input.get(pos) {
                            Some(b'"') => {
                                self.start_attribute_value(pos + 1);
                                switch_to(&mut state, &mut pos, S::AttributeValueDoubleQuoted);
                            }
                            Some(b'\'') => {
                                self.start_attribute_value(pos + 1);
                                switch_to(&mut state, &mut pos, S::AttributeValueSingleQuoted);
                            }
                            Some(b'>') => {
                                self.error_at_if(errors, ErrorCode::MissingAttributeValue, pos);
                                break;
                            }
                            _ => {
                                self.start_attribute_value(pos);
                                reconsume_in(&mut state, S::AttributeValueUnquoted);
                            }
                        }
                    }
                    // 13.2.5.36 Attribute value (double-quoted) state, and
                    // 13.2.5.37 Attribute value (single-quoted) state:
                    // one arm, as the two differ only in their quote.
                    S::AttributeValueDoubleQuoted | S::AttributeValueSingleQuoted => {
                        let quote = if state == S::AttributeValueDoubleQuoted {
                            b'"'
                        } else {
                            b'\''
                        };
                        // `&` and NUL matter only for parse errors: values decode lazily.
                        pos += if self.errors_on_if(errors) {
                            scanner.find_byte3(&input[pos..], quote, b'&', 0)
                        } else {
                            scanner.find_byte(&input[pos..], quote)
                        };
                        match input.get(pos) {
                            Some(b'&') => {
                                // The reference never reads past the closing quote (it reads
                                // letters, digits, `#`, `x`, `;` and one byte after), so it can
                                // run on the rest of the input: no rescan for the quote, which
                                // would be quadratic in a value full of `&`.
                                pos = self.character_reference(pos, true, input.len());
                            }
                            Some(0) => {
                                self.error_at_if(errors, ErrorCode::UnexpectedNullCharacter, pos);
                                pos += 1;
                            }
                            Some(_) => {
                                // The quote: "Switch to the after attribute value (quoted)
                                // state".
                                self.end_attribute_value(pos, pos + 1);
                                switch_to(&mut state, &mut pos, S::AfterAttributeValueQuoted);
                                // Shortcut of 13.2.5.39 After attribute value (quoted) state
                                // (home: its arm below): its `>` and whitespace branches,
                                // taken directly.
                                match input.get(pos) {
                                    Some(b'>') => break,
                                    Some(&c) if is_whitespace(c) => {
                                        (state, pos) = self.before_attribute_name_shortcut(pos + 1);
                                    }
                                    _ => {}
                                }
                            }
                            None => return self.eof_in_tag(pos),
                        }
                    }
                    // 13.2.5.38 Attribute value (unquoted) state.
                    S::AttributeValueUnquoted => {
                        pos += scanner.find_class(&input[pos..], class::UNQUOTED_VALUE_END);
                        match input.get(pos) {
                            Some(b'>') => {
                                self.end_attribute_value(pos, pos);
                                break;
                            }
                            Some(b'&') => {
                                if self.errors_on_if(errors) {
                                    pos = self.character_reference(pos, true, input.len());
                                } else {
                                    pos += 1;
                                }
                            }
                            Some(0) => {
                                self.error_at_if(errors, ErrorCode::UnexpectedNullCharacter, pos);
                                pos += 1;
                            }
                            Some(b'"' | b'\'' | b'<' | b'=' | b'`') => {
                                self.error_at_if(
                                    errors,
                                    ErrorCode::UnexpectedCharacterInUnquotedAttributeValue,
                                    pos,
                                );
                                pos += 1;
                            }
                            Some(_) => {
                                // Whitespace: "Switch to the before attribute name state",
                                // through its shortcut.
                                self.end_attribute_value(pos, pos);
                                (state, pos) = self.before_attribute_name_shortcut(pos + 1);
                            }
                            None => return self.eof_in_tag(pos),
                        }
                    }
                    // 13.2.5.39 After attribute value (quoted) state.
                    S::AfterAttributeValueQuoted => match input.get(pos) {
                        Some(&c) if is_whitespace(c) => {
                            switch_to(&mut state, &mut pos, S::BeforeAttributeName);
                        }
                        Some(b'/') => {
                            switch_to(&mut state, &mut pos, S::SelfClosingStartTag);
                        }
                        Some(b'>') => break,
                        None => return self.eof_in_tag(pos),
                        Some(_) => {
                            self.error_at_if(
                                errors,
                                ErrorCode::MissingWhitespaceBetweenAttributes,
                                pos,
                            );
                            reconsume_in(&mut state, S::BeforeAttributeName);
                        }
                    },
                    // 13.2.5.40 Self-closing start tag state.
                    S::SelfClosingStartTag => match input.get(pos) {
                        Some(b'>') => {
                            self.tag.self_closing = true;
                            break;
                        }
                        None => return self.eof_in_tag(pos),
                        Some(_) => {
                            self.error_at_if(errors, ErrorCode::UnexpectedSolidusInTag, pos);
                            reconsume_in(&mut state, S::BeforeAttributeName);
                        }
                    },
                    _ => unreachable!("tag_states runs only the states inside a tag"),
                }
            }
        }
        // At the `>` of the tag: "Switch to the data state. Emit the current tag token."
        self.pos = pos;
        self.emit_current_tag(errors, simulation)
    }

    /// EOF anywhere inside a tag: the tag is dropped.
    fn eof_in_tag(&mut self, pos: usize) -> Flow {
        self.pos = pos;
        self.error(ErrorCode::EofInTag);
        self.emit_eof()
    }

    /// "When the user agent leaves the attribute name state (and before emitting the tag
    /// token, if appropriate), the complete attribute's name must be compared to the other
    /// attributes on the same token; if there is already an attribute on the token with
    /// the exact same name, then this is a duplicate-attribute parse error and the new
    /// attribute must be removed from the token."
    ///
    /// `lower_name`: the name as a `&str` when the attribute name state saw it lowercase
    /// ASCII (see [`Self::tag_states`]).
    #[inline(always)]
    fn leave_attribute_name(&mut self, pos: usize, plain_name: bool, lower_name: Option<&'a str>) {
        let name = Span::new(self.tag.attr_name_start, pos);
        match self.check_attribute_name(name, plain_name, lower_name) {
            Some(plain_name) => {
                self.tag.attr = Some(self.attrs.len());
                self.attrs.push(AttrSpans {
                    name,
                    value_span: Span::EMPTY,
                    raw_end: name.end,
                    has_value: false,
                    plain_name,
                    lower_name,
                });
            }
            None => self.tag.attr = None,
        }
    }

    /// The duplicate-attribute check of [`Self::leave_attribute_name`], for the attribute
    /// name `name` that ends at the current position and is `plain_name` (ASCII without
    /// NUL, as the attribute name state found while reading it): None for a duplicate (the
    /// parse error is reported), else `plain_name`.
    #[inline(always)]
    fn check_attribute_name(
        &mut self,
        name: Span,
        plain_name: bool,
        lower_name: Option<&str>,
    ) -> Option<bool> {
        debug_assert_eq!(
            plain_name,
            crate::decode::is_plain_name(name.of(self.input))
        );
        debug_assert!(lower_name.is_none_or(|lower| {
            let bytes = name.of(self.input);
            lower.as_bytes() == bytes && !bytes.iter().any(u8::is_ascii_uppercase)
        }));
        let mut duplicate = false;
        if plain_name && self.tag.all_names_plain {
            // A 64-bit filter over (length, first byte, last byte) of the names seen so
            // far: a name whose bit is clear cannot be a duplicate, so most attributes
            // skip the comparisons entirely.
            let bit = name_filter_bit(self.input, name);
            if self.tag.name_filter & bit != 0 {
                duplicate = self.is_duplicate_attribute(name, plain_name);
            }
            self.tag.name_filter |= bit;
        } else {
            self.tag.all_names_plain = false;
            duplicate = self.is_duplicate_attribute(name, plain_name);
        }
        if duplicate {
            self.error_at(ErrorCode::DuplicateAttribute, name.end);
            None
        } else {
            Some(plain_name)
        }
    }

    /// Shortcut of 13.2.5.35 Before attribute value state (its quote branches), 13.2.5.36
    /// Attribute value (double-quoted) state and 13.2.5.37 Attribute value (single-quoted)
    /// state (homes: their arms in [`Self::tag_states`]), for an attribute of the common
    /// shape `name="value"` (or single-quoted): the attribute name state's `=` branch (at
    /// `eq`), the before attribute value state's quote branch, and the quoted value state,
    /// whose only stop without parse errors is the closing quote (`&` and NUL matter only
    /// for errors, see [`Self::quoted_value_with_errors`]; values decode lazily). The
    /// attribute is stored once,
    /// complete. Returns the offset after the closing quote, or None when the input ends
    /// first.
    #[inline(always)]
    fn quoted_attribute(
        &mut self,
        eq: usize,
        plain_name: bool,
        lower_name: Option<&'a str>,
        errors: bool,
    ) -> Option<usize> {
        let input = self.input;
        let name = Span::new(self.tag.attr_name_start, eq);
        let plain_name = self.check_attribute_name(name, plain_name, lower_name);
        // `tag.attr` is left as it is: the attribute is stored complete below, and `attr`
        // is read only by `start_attribute_value` and `end_attribute_value`, which run only
        // after the attribute name state's other exit (`leave_attribute_name`) has set it
        // for the next attribute. (A store a quoted attribute, which paid for
        // `AttrSpans::lower_name`'s.)
        let value_start = eq + 2;
        let value_end = if self.errors_on_if(errors) {
            self.quoted_value_with_errors(value_start, input[eq + 1])
        } else if input[eq + 1] == b'"' {
            // One search per quote, so that each needle is a constant.
            value_start + self.scanner.find_byte(&input[value_start..], b'"')
        } else {
            value_start + self.scanner.find_byte(&input[value_start..], b'\'')
        };
        if value_end == input.len() {
            return None;
        }
        if let Some(plain_name) = plain_name {
            self.attrs.push(AttrSpans {
                name,
                value_span: Span::new(value_start, value_end),
                raw_end: value_end + 1,
                has_value: true,
                plain_name,
                lower_name,
            });
        }
        Some(value_end + 1)
    }

    /// The quoted value state's loop with parse errors on (13.2.5.36–37, as in its arm in
    /// [`Self::tag_states`]): `&` runs the character reference states for their errors,
    /// NUL is an unexpected-null-character parse error, and the value ends at `quote`.
    /// Returns the offset of the closing quote, or the input's length at EOF.
    #[inline(never)]
    fn quoted_value_with_errors(&mut self, mut pos: usize, quote: u8) -> usize {
        let input = self.input;
        loop {
            pos += self.scanner.find_byte3(&input[pos..], quote, b'&', 0);
            match input.get(pos) {
                Some(&c) if c == quote => return pos,
                // As in the arm: the reference never reads past the closing quote.
                Some(b'&') => pos = self.character_reference(pos, true, input.len()),
                Some(_) => {
                    self.error_at(ErrorCode::UnexpectedNullCharacter, pos);
                    pos += 1;
                }
                None => return pos,
            }
        }
    }

    /// The full duplicate check, for names the filter cannot rule out.
    #[inline(never)]
    fn is_duplicate_attribute(&mut self, name: Span, plain: bool) -> bool {
        let input = self.input;
        let bytes = name.of(input);
        let linear = |attrs: &[AttrSpans]| {
            attrs.iter().any(|a| {
                if plain && a.plain_name {
                    a.name.len() == bytes.len() && a.name.of(input).eq_ignore_ascii_case(bytes)
                } else {
                    same_name(a.name.of(input), bytes)
                }
            })
        };
        if self.attrs.len() < LINEAR_DUPLICATE_CHECK {
            return linear(&self.attrs);
        }
        // Many attributes: an index from name hash to the first attribute with that hash
        // keeps the check linear. It is reused from tag to tag, so no allocation per token.
        // Attributes that the name filter let through without a look are not in it yet:
        // index every attribute added since the last look first.
        for i in self.attr_indexed..self.attrs.len() {
            let hash = name_hash(&self.hasher, self.attrs[i].name.of(input));
            self.attr_index.entry(hash).or_insert(i);
        }
        self.attr_indexed = self.attrs.len();
        let hash = name_hash(&self.hasher, bytes);
        match self.attr_index.get(&hash) {
            // Not a duplicate; the attribute is indexed at the next look.
            None => false,
            Some(&i) if same_name(self.attrs[i].name.of(input), bytes) => true,
            // A hash collision between different names (the hasher is keyed per
            // tokenizer, so this cannot be forced): fall back to the linear check.
            Some(_) => linear(&self.attrs),
        }
    }

    /// Sets where the current attribute's value starts (a dropped duplicate has none).
    fn start_attribute_value(&mut self, start: usize) {
        if let Some(i) = self.tag.attr {
            let attr = &mut self.attrs[i];
            attr.value_span = Span::new(start, start);
            attr.has_value = true;
        }
    }

    /// Sets where the current attribute's value ends, and where its raw bytes end.
    fn end_attribute_value(&mut self, value_end: usize, raw_end: usize) {
        if let Some(i) = self.tag.attr {
            let attr = &mut self.attrs[i];
            if attr.has_value {
                attr.value_span.end = value_end;
            }
            attr.raw_end = raw_end;
        }
    }

    /// Shortcut of 13.2.5.32 Before attribute name state (home: its arm in
    /// [`Tokenizer::tag_states`]), entered from whitespace inside a tag: skips the
    /// whitespace ("Ignore the character") and takes its "anything else" branch directly
    /// when an attribute name starts ("Start a new attribute … Reconsume in the attribute
    /// name state": the name's start recorded, `AttributeName` and that position
    /// returned); otherwise returns the before attribute name state, to run on the
    /// character it stopped at.
    #[inline(always)]
    fn before_attribute_name_shortcut(&mut self, mut pos: usize) -> (S, usize) {
        let input = self.input;
        while input.get(pos).is_some_and(|&c| is_whitespace(c)) {
            pos += 1;
        }
        match input.get(pos) {
            Some(b'/' | b'>' | b'=') | None => (S::BeforeAttributeName, pos),
            Some(_) => {
                self.tag.attr_name_start = pos;
                (S::AttributeName, pos)
            }
        }
    }
}

/// "Switch to the `next` state" inside [`Tokenizer::tag_states`], whose position and state
/// are local variables: the current input character (at `pos`) is consumed.
#[inline(always)]
fn switch_to(state: &mut S, pos: &mut usize, next: S) {
    *pos += 1;
    *state = next;
}

/// "Reconsume in the `next` state" inside [`Tokenizer::tag_states`]: the current input
/// character is not consumed, and `next` runs on it.
#[inline(always)]
fn reconsume_in(state: &mut S, next: S) {
    *state = next;
}

/// A hash of an attribute name as the spec compares it (ASCII case-insensitive, NUL and
/// invalid UTF-8 as U+FFFD).
fn name_hash(hasher: &std::hash::RandomState, name: &[u8]) -> u64 {
    let mut h = hasher.build_hasher();
    if name.iter().all(|&b| b != 0 && b < 0x80) {
        for &b in name {
            h.write_u8(b.to_ascii_lowercase());
        }
    } else {
        h.write(decode(name, Context::Name).as_bytes());
    }
    h.finish()
}

/// The bit of a plain (ASCII, NUL-free) attribute name, `input[name]`, in the per-tag
/// duplicate filter. Equal names (ignoring ASCII case) always get the same bit: `| 0x20`
/// maps both cases of a letter to one value and leaves equal non-letters equal. Read from
/// the span rather than a slice of it: an attribute name is never empty (the attribute
/// name state starts it on a character it takes in) and lies in the input, and the two
/// compares that say so prove both reads in bounds (fewer compares than reading each
/// with `get` after a test for the empty name, or than a slice and its first and last
/// bytes).
#[inline(always)]
fn name_filter_bit(input: &[u8], name: Span) -> u64 {
    if name.start >= name.end || name.end > input.len() {
        return 1;
    }
    let first = u32::from(input[name.start] | 0x20);
    let last = u32::from(input[name.end - 1] | 0x20);
    let key = (name.len() as u32).wrapping_mul(7) ^ first.wrapping_mul(31) ^ last;
    1 << (key & 63)
}
