//! A tag's attributes as the tokenizer keeps them: the spans the attribute states record
//! ([`AttrSpans`], in the tokenizer's buffer), or a tape's compact records of them
//! ([`AttrRecord`]); a [`crate::Tag`] reads either through an [`AttrList`].

use crate::span::Span;

/// The spans of one attribute, as the tokenizer stores them (the buffer of a tag's
/// attributes is reused from tag to tag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AttrSpans<'a> {
    pub(crate) name: Span,
    /// The value's bytes (between the quotes when quoted), when `has_value`; see
    /// [`Self::value`]. A span and a flag rather than an `Option` (whose tag takes 8
    /// bytes), to keep the record at 64 bytes.
    pub(crate) value_span: Span,
    /// The end of the attribute's raw bytes, which run from the name's first byte to the
    /// value's last (closing quote included). Only the end is stored: an attribute's raw
    /// span starts with its name, and the 8 bytes saved keep the record at 64 bytes with
    /// `lower_name` in it (a larger record cost a loop that copies it more stores).
    pub(crate) raw_end: usize,
    /// The attribute has a value (an `=`).
    pub(crate) has_value: bool,
    /// The name is ASCII without NUL, so it compares with `eq_ignore_ascii_case`.
    pub(crate) plain_name: bool,
    /// The name as it decodes, when the attribute name state read it in one search and
    /// saw it to be ASCII without upper-case letters (so decoding leaves it as it is),
    /// for [`crate::Attribute::name_if_unchanged`] without a second pass over it. Only for
    /// a sink that asks (`TokenSink::DECODES_NAMES`); None when not known.
    pub(crate) lower_name: Option<&'a str>,
}

impl AttrSpans<'_> {
    /// The value's bytes (between the quotes when quoted); None when there is no `=`.
    #[inline(always)]
    pub(crate) fn value(&self) -> Option<Span> {
        self.has_value.then_some(self.value_span)
    }
}

/// Where a tag's attributes are: the tokenizer's own spans (from
/// [`crate::Tokenizer::next_token`]), or a [`crate::Tape`]'s compact records.
#[derive(Clone, Copy, Debug)]
pub(crate) enum AttrList<'a, 't> {
    Spans(&'t [AttrSpans<'a>]),
    Tape(&'t [AttrRecord]),
}

impl<'a> AttrList<'a, '_> {
    #[inline]
    pub(crate) fn len(self) -> usize {
        match self {
            AttrList::Spans(spans) => spans.len(),
            AttrList::Tape(records) => records.len(),
        }
    }

    /// Attribute `i`, which is below [`Self::len`].
    #[inline]
    pub(crate) fn get(self, i: usize) -> AttrSpans<'a> {
        match self {
            AttrList::Spans(spans) => spans[i],
            AttrList::Tape(records) => records[i].spans(),
        }
    }
}

/// One attribute of a tag on a [`crate::Tape`]: `#[repr(C)]`, 24 bytes, no padding. Its raw
/// bytes run from `name_start` to `raw_end`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct AttrRecord {
    /// The name: `name_start..name_end`.
    pub name_start: u32,
    /// See `name_start`.
    pub name_end: u32,
    /// The value, quotes excluded (0..0 when there is no `=`; see `flags`).
    pub value_start: u32,
    /// See `value_start`.
    pub value_end: u32,
    /// One past the attribute's last byte (the closing quote included).
    pub raw_end: u32,
    /// [`AttrRecord::HAS_VALUE`], [`AttrRecord::PLAIN_NAME`].
    pub flags: u32,
}

impl AttrRecord {
    /// `flags` bit: the attribute has a value (an `=`).
    pub const HAS_VALUE: u32 = 1;
    /// `flags` bit: the name is ASCII without NUL (it compares without decoding).
    pub const PLAIN_NAME: u32 = 2;

    pub(crate) fn new(a: &AttrSpans<'_>) -> AttrRecord {
        let value = a.value().unwrap_or(Span::EMPTY);
        AttrRecord {
            name_start: a.name.start as u32,
            name_end: a.name.end as u32,
            value_start: value.start as u32,
            value_end: value.end as u32,
            raw_end: a.raw_end as u32,
            flags: u32::from(a.has_value) * Self::HAS_VALUE
                + u32::from(a.plain_name) * Self::PLAIN_NAME,
        }
    }

    /// The spans the tokenizer had (the raw span starts with the name).
    pub(crate) fn spans<'a>(&self) -> AttrSpans<'a> {
        let name = Span::new(self.name_start as usize, self.name_end as usize);
        AttrSpans {
            name,
            value_span: Span::new(self.value_start as usize, self.value_end as usize),
            raw_end: self.raw_end as usize,
            has_value: self.flags & Self::HAS_VALUE != 0,
            plain_name: self.flags & Self::PLAIN_NAME != 0,
            lower_name: None,
        }
    }
}
