//! 13.2.5.6–8: tag open, end tag open and tag name states, and
//! 13.2.5.32–40: the attribute states and the self-closing start tag state.

use std::hash::{BuildHasher, Hasher};

use super::{Flow, S, Tokenizer, is_whitespace};
use crate::decode::{Context, decode, same_name};
use crate::error::ErrorCode;
use crate::scan::{self, class};
use crate::token::{AttrSpans, Span};

/// Above this many attributes the duplicate check switches from a linear scan to a set.
const LINEAR_DUPLICATE_CHECK: usize = 16;

impl Tokenizer<'_> {
    /// 13.2.5.6 Tag open state. The `<` is at `self.markup_start`.
    pub(super) fn tag_open_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'!') => {
                if let Some(flow) = self.text_before_markup() {
                    return flow;
                }
                self.pos += 1;
                self.switch(S::MarkupDeclarationOpen)
            }
            Some(b'/') => {
                self.pos += 1;
                self.switch(S::EndTagOpen)
            }
            Some(c) if c.is_ascii_alphabetic() => {
                if let Some(flow) = self.text_before_markup() {
                    return flow;
                }
                self.create_tag(false);
                self.switch(S::TagName)
            }
            Some(b'?') => {
                if let Some(flow) = self.text_before_markup() {
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
                self.switch(S::Data)
            }
        }
    }

    /// 13.2.5.7 End tag open state.
    pub(super) fn end_tag_open_state(&mut self) -> Flow {
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => {
                if let Some(flow) = self.text_before_markup() {
                    return flow;
                }
                self.create_tag(true);
                self.switch(S::TagName)
            }
            Some(b'>') => {
                // `</>` is dropped: no token, a gap in the spans.
                if let Some(flow) = self.text_before_markup() {
                    return flow;
                }
                self.error(ErrorCode::MissingEndTagName);
                self.pos += 1;
                self.switch(S::Data)
            }
            None => {
                // `</` are character tokens of the open text run.
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_eof()
            }
            Some(_) => {
                if let Some(flow) = self.text_before_markup() {
                    return flow;
                }
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.start_bogus_comment()
            }
        }
    }

    /// 13.2.5.8 Tag name state. Upper-case letters and NUL are kept in the span and
    /// transformed when the name is decoded.
    pub(super) fn tag_name_state(&mut self) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += scan::find_class(rest, class::TAG_NAME_END);
            match self.peek() {
                Some(b'/') => {
                    self.tag.name.end = self.pos;
                    self.pos += 1;
                    return self.switch(S::SelfClosingStartTag);
                }
                Some(b'>') => {
                    self.tag.name.end = self.pos;
                    return self.emit_tag();
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                Some(_) => {
                    // Whitespace.
                    self.tag.name.end = self.pos;
                    self.pos += 1;
                    return self.switch(S::BeforeAttributeName);
                }
                None => return self.eof_in_tag(),
            }
        }
    }

    /// EOF anywhere inside a tag: the tag is dropped.
    fn eof_in_tag(&mut self) -> Flow {
        self.error(ErrorCode::EofInTag);
        self.emit_eof()
    }

    /// 13.2.5.32 Before attribute name state.
    pub(super) fn before_attribute_name_state(&mut self) -> Flow {
        let rest = &self.input[self.pos..];
        self.pos += scan::find_class(rest, class::NOT_WHITESPACE);
        match self.peek() {
            Some(b'/' | b'>') | None => self.switch(S::AfterAttributeName),
            Some(b'=') => {
                self.error(ErrorCode::UnexpectedEqualsSignBeforeAttributeName);
                self.tag.attr_name_start = self.pos;
                self.pos += 1;
                self.switch(S::AttributeName)
            }
            Some(_) => {
                self.tag.attr_name_start = self.pos;
                self.switch(S::AttributeName)
            }
        }
    }

    /// 13.2.5.33 Attribute name state.
    pub(super) fn attribute_name_state(&mut self) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += scan::find_class(rest, class::ATTR_NAME_END);
            match self.peek() {
                Some(b'=') => {
                    self.leave_attribute_name();
                    self.pos += 1;
                    return self.switch(S::BeforeAttributeValue);
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                Some(b'"' | b'\'' | b'<') => {
                    self.error(ErrorCode::UnexpectedCharacterInAttributeName);
                    self.pos += 1;
                }
                _ => {
                    // Whitespace, `/`, `>` or EOF: reconsume in the after attribute name state.
                    self.leave_attribute_name();
                    return self.switch(S::AfterAttributeName);
                }
            }
        }
    }

    /// "When the user agent leaves the attribute name state (and before emitting the tag
    /// token, if appropriate), the complete attribute's name must be compared to the other
    /// attributes on the same token; if there is already an attribute on the token with
    /// the exact same name, then this is a duplicate-attribute parse error and the new
    /// attribute must be removed from the token."
    fn leave_attribute_name(&mut self) {
        let name = Span::new(self.tag.attr_name_start, self.pos);
        if self.is_duplicate_attribute(name) {
            self.error(ErrorCode::DuplicateAttribute);
            self.tag.attr = None;
        } else {
            self.tag.attr = Some(self.attrs.len());
            self.attrs.push(AttrSpans {
                name,
                value: None,
                raw: name,
            });
        }
    }

    fn is_duplicate_attribute(&mut self, name: Span) -> bool {
        let input = self.input;
        let bytes = name.of(input);
        let linear = |attrs: &[AttrSpans]| attrs.iter().any(|a| same_name(a.name.of(input), bytes));
        if self.attrs.len() < LINEAR_DUPLICATE_CHECK {
            return linear(&self.attrs);
        }
        // Many attributes: an index from name hash to the first attribute with that hash
        // keeps the check linear. It is reused from tag to tag, so no allocation per token.
        if self.attr_index.is_empty() {
            for (i, attr) in self.attrs.iter().enumerate() {
                let hash = name_hash(&self.hasher, attr.name.of(input));
                self.attr_index.entry(hash).or_insert(i);
            }
        }
        let hash = name_hash(&self.hasher, bytes);
        match self.attr_index.get(&hash) {
            None => {
                self.attr_index.insert(hash, self.attrs.len());
                false
            }
            Some(&i) if same_name(self.attrs[i].name.of(input), bytes) => true,
            // A hash collision between different names (the hasher is keyed per
            // tokenizer, so this cannot be forced): fall back to the linear check.
            Some(_) => linear(&self.attrs),
        }
    }

    /// Sets where the current attribute's value starts (a dropped duplicate has none).
    fn start_attribute_value(&mut self, start: usize) {
        if let Some(i) = self.tag.attr {
            self.attrs[i].value = Some(Span::new(start, start));
        }
    }

    /// Sets where the current attribute's value ends, and where its raw bytes end.
    fn end_attribute_value(&mut self, value_end: usize, raw_end: usize) {
        if let Some(i) = self.tag.attr {
            let attr = &mut self.attrs[i];
            if let Some(value) = attr.value.as_mut() {
                value.end = value_end;
            }
            attr.raw.end = raw_end;
        }
    }

    /// 13.2.5.34 After attribute name state.
    pub(super) fn after_attribute_name_state(&mut self) -> Flow {
        let rest = &self.input[self.pos..];
        self.pos += scan::find_class(rest, class::NOT_WHITESPACE);
        match self.peek() {
            Some(b'/') => {
                self.pos += 1;
                self.switch(S::SelfClosingStartTag)
            }
            Some(b'=') => {
                self.pos += 1;
                self.switch(S::BeforeAttributeValue)
            }
            Some(b'>') => self.emit_tag(),
            None => self.eof_in_tag(),
            Some(_) => {
                self.tag.attr_name_start = self.pos;
                self.switch(S::AttributeName)
            }
        }
    }

    /// 13.2.5.35 Before attribute value state.
    pub(super) fn before_attribute_value_state(&mut self) -> Flow {
        let rest = &self.input[self.pos..];
        self.pos += scan::find_class(rest, class::NOT_WHITESPACE);
        match self.peek() {
            Some(b'"') => {
                self.pos += 1;
                self.start_attribute_value(self.pos);
                self.switch(S::AttributeValueDoubleQuoted)
            }
            Some(b'\'') => {
                self.pos += 1;
                self.start_attribute_value(self.pos);
                self.switch(S::AttributeValueSingleQuoted)
            }
            Some(b'>') => {
                self.error(ErrorCode::MissingAttributeValue);
                self.emit_tag()
            }
            _ => {
                self.start_attribute_value(self.pos);
                self.switch(S::AttributeValueUnquoted)
            }
        }
    }

    /// 13.2.5.36 Attribute value (double-quoted) state and 13.2.5.37 Attribute value
    /// (single-quoted) state, which differ only in their quote.
    pub(super) fn attribute_value_quoted_state(&mut self, quote: u8) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            // `&` and NUL matter only for parse errors: values decode lazily.
            self.pos += if self.errors_on {
                scan::find_byte3(rest, quote, b'&', 0)
            } else {
                scan::find_byte(rest, quote)
            };
            match self.peek() {
                Some(b'&') => {
                    let end = self.pos + scan::find_byte(&self.input[self.pos..], quote);
                    self.pos = self.character_reference(self.pos, true, end);
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                Some(_) => {
                    self.end_attribute_value(self.pos, self.pos + 1);
                    self.pos += 1;
                    return self.switch(S::AfterAttributeValueQuoted);
                }
                None => return self.eof_in_tag(),
            }
        }
    }

    /// 13.2.5.38 Attribute value (unquoted) state.
    pub(super) fn attribute_value_unquoted_state(&mut self) -> Flow {
        loop {
            let rest = &self.input[self.pos..];
            self.pos += scan::find_class(rest, class::UNQUOTED_VALUE_END);
            match self.peek() {
                Some(b'>') => {
                    self.end_attribute_value(self.pos, self.pos);
                    return self.emit_tag();
                }
                Some(b'&') => {
                    if self.errors_on {
                        let rest = &self.input[self.pos..];
                        let end = self.pos + scan::find_class(rest, class::TAG_NAME_END);
                        self.pos = self.character_reference(self.pos, true, end);
                    } else {
                        self.pos += 1;
                    }
                }
                Some(0) => {
                    self.error(ErrorCode::UnexpectedNullCharacter);
                    self.pos += 1;
                }
                Some(b'"' | b'\'' | b'<' | b'=' | b'`') => {
                    self.error(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue);
                    self.pos += 1;
                }
                Some(_) => {
                    // Whitespace.
                    self.end_attribute_value(self.pos, self.pos);
                    self.pos += 1;
                    return self.switch(S::BeforeAttributeName);
                }
                None => return self.eof_in_tag(),
            }
        }
    }

    /// 13.2.5.39 After attribute value (quoted) state.
    pub(super) fn after_attribute_value_quoted_state(&mut self) -> Flow {
        match self.peek() {
            Some(c) if is_whitespace(c) => {
                self.pos += 1;
                self.switch(S::BeforeAttributeName)
            }
            Some(b'/') => {
                self.pos += 1;
                self.switch(S::SelfClosingStartTag)
            }
            Some(b'>') => self.emit_tag(),
            None => self.eof_in_tag(),
            Some(_) => {
                self.error(ErrorCode::MissingWhitespaceBetweenAttributes);
                self.switch(S::BeforeAttributeName)
            }
        }
    }

    /// 13.2.5.40 Self-closing start tag state.
    pub(super) fn self_closing_start_tag_state(&mut self) -> Flow {
        match self.peek() {
            Some(b'>') => {
                self.tag.self_closing = true;
                self.emit_tag()
            }
            None => self.eof_in_tag(),
            Some(_) => {
                self.error(ErrorCode::UnexpectedSolidusInTag);
                self.switch(S::BeforeAttributeName)
            }
        }
    }
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
