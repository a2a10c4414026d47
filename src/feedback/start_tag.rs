//! The hot path of the simulation: what an HTML start tag means to it (the state
//! switches of 13.2.6.4.4 "in head" and 13.2.6.4.7 "in body", and the foreign roots),
//! classified by length and packed name.

use crate::state::State;

/// What an HTML start tag means to the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HtmlStartTag {
    /// The tokenizer switches to this state.
    Switch(State),
    /// `<svg>`: SVG content follows (unless self-closing).
    Svg,
    /// `<math>`: MathML content follows (unless self-closing).
    Math,
    /// `<frameset>`: may switch to the frameset insertion modes (13.2.6.4.7).
    Frameset,
    /// `<template>`: its contents have insertion modes of their own (13.2.6.4.18), which
    /// can ignore the switching start tags (`<template><col><style>`).
    Template,
    /// Nothing changes.
    Other,
}

/// Packs a name of up to 8 bytes into a `u64`, each byte `| 0x20`. For names made of
/// letters this is exactly ASCII-case-insensitive: a byte maps to a lowercase letter only
/// if it is that letter in either case.
#[inline(always)]
const fn pack(name: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < name.len() && i < 8 {
        key |= ((name[i] | 0x20) as u64) << (8 * i);
        i += 1;
    }
    key
}

/// Classifies an HTML start tag name (raw bytes, any case) for the simulation: the state
/// switches of 13.2.6.4.4 "in head" and 13.2.6.4.7 "in body", and the foreign roots.
#[inline(always)]
pub(crate) fn html_start_tag_kind(name: &[u8], scripting: bool) -> HtmlStartTag {
    classify_html_start_tag(name, pack(name), scripting)
}

/// [`html_start_tag_kind`] for the name at `start..end` of `input`: packs the name with
/// one 8-byte load of `input` when the input goes on that far (names of 3 to 8 bytes are
/// the ones that need the packed form).
#[inline(always)]
pub(crate) fn html_start_tag_kind_at(
    input: &[u8],
    start: usize,
    end: usize,
    scripting: bool,
) -> HtmlStartTag {
    let name = &input[start..end];
    if !(3..=9).contains(&name.len()) {
        return HtmlStartTag::Other;
    }
    let packed = match input.get(start..start + 8) {
        Some(word) if name.len() < 8 => {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            let kept = (1u64 << (8 * name.len())) - 1;
            (word | 0x2020_2020_2020_2020) & kept
        }
        _ => pack(name),
    };
    classify_html_start_tag(name, packed, scripting)
}

/// The classification, given the name and its [`pack`]ed form.
#[inline(always)]
fn classify_html_start_tag(name: &[u8], packed: u64, scripting: bool) -> HtmlStartTag {
    const SVG: u64 = pack(b"svg");
    const XMP: u64 = pack(b"xmp");
    const MATH: u64 = pack(b"math");
    const TITLE: u64 = pack(b"title");
    const STYLE: u64 = pack(b"style");
    const SCRIPT: u64 = pack(b"script");
    const IFRAME: u64 = pack(b"iframe");
    const NOEMBED: u64 = pack(b"noembed");
    const TEXTAREA: u64 = pack(b"textarea");
    const NOFRAMES: u64 = pack(b"noframes");
    const FRAMESET: u64 = pack(b"frameset");
    const NOSCRIPT: u64 = pack(b"noscript");
    const TEMPLATE: u64 = pack(b"template");
    let len = name.len();
    if !(3..=9).contains(&len) {
        return HtmlStartTag::Other;
    }
    if len == 9 {
        return if name.eq_ignore_ascii_case(b"plaintext") {
            HtmlStartTag::Switch(State::Plaintext)
        } else {
            HtmlStartTag::Other
        };
    }
    match (len, packed) {
        (3, SVG) => HtmlStartTag::Svg,
        (4, MATH) => HtmlStartTag::Math,
        (5, TITLE) | (8, TEXTAREA) => HtmlStartTag::Switch(State::Rcdata),
        (3, XMP) | (5, STYLE) | (6, IFRAME) | (7, NOEMBED) | (8, NOFRAMES) => {
            HtmlStartTag::Switch(State::Rawtext)
        }
        (8, NOSCRIPT) if scripting => HtmlStartTag::Switch(State::Rawtext),
        (6, SCRIPT) => HtmlStartTag::Switch(State::ScriptData),
        (8, FRAMESET) => HtmlStartTag::Frameset,
        (8, TEMPLATE) => HtmlStartTag::Template,
        _ => HtmlStartTag::Other,
    }
}
