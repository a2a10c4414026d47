//! Feedback without a tree builder: a small simulation of the tree construction stage's
//! decisions that change how the tokenizer reads what follows.
//!
//! The tree builder switches the tokenizer to RCDATA, RAWTEXT, script data or PLAINTEXT
//! after certain HTML start tags (13.2.6.4.4 "in head", 13.2.6.4.7 "in body"), and lets
//! `<![CDATA[` open a CDATA section only when the adjusted current node is not an HTML
//! element (13.2.5.42). Two things decide whether a start tag does that:
//!
//! - **Foreign content** (13.2.6.5, and the dispatcher of 13.2.6): from the first `<svg>`
//!   or `<math>` processed as HTML, the simulation keeps the stack of open elements above
//!   it exactly enough: every SVG and MathML element, the HTML integration points and
//!   MathML text integration points (13.2.6.5's lists, `annotation-xml` with a
//!   `text/html` or `application/xhtml+xml` encoding, `mglyph`/`malignmark` staying
//!   MathML), the HTML elements opened inside integration points (with the in-body rules
//!   that pop them: the end tags' "in scope" and "special" walks, `p` closed by the block
//!   start tags, `li`/`dd`/`dt`/headings/`option`/`button`, the adoption agency
//!   algorithm), the break-out start tags (and `<font>` with `color`/`face`/`size`),
//!   `</br>` and `</p>`, and the "any other end tag" loop of 13.2.6.5 that closes the
//!   matching element.
//! - **The whole stack, on demand**: the HTML elements *below* the outermost foreign root
//!   and the insertion mode are not tracked at first (that would cost every tag of every
//!   page). When a tag's effect depends on them (an end tag whose in-body walk reaches
//!   below the foreign root, e.g. `<svg></div>`; a table start or end tag processed as
//!   HTML while foreign content is open, which the table modes 13.2.6.4.9–15 handle), the
//!   simulator answers [`Outcome::NeedsWholeStack`]: the tokenizer re-reads the input
//!   before the tag once with a simulator that tracks the whole stack of open elements
//!   from the first token ([`Simulator::new_whole_stack`]) and carries on with it. That
//!   one knows every open element and the insertion mode as "reset the insertion mode
//!   appropriately" (13.2.4.1) finds it from the stack: "in body", the table modes
//!   (implied `tbody`/`tr`, "clear the stack back to a table context", table scope),
//!   "in column group", "in template" with its template insertion modes. The list of
//!   active formatting elements is not kept: the adoption agency algorithm takes it to
//!   hold the formatting elements on the stack after the last marker, and formatting
//!   elements are never reconstructed (what that leaves out: see the tree-builder test,
//!   `benches/tests/tree_builder.rs`). The stream tokenizer cannot re-read what it has
//!   dropped: its simulators track the whole stack from the start.
//! - **Insertion modes**: a `<frameset>` start tag switches to "in frameset" when the
//!   body element does not exist yet, or when the frameset-ok flag is still "ok"
//!   (13.2.6.4.6, 13.2.6.4.7); from then on ("in frameset", "after frameset", "after after
//!   frameset": 13.2.6.4.19–22) only `<noframes>` switches the tokenizer (RAWTEXT), every
//!   other start tag is ignored and foreign content never opens. The frameset-ok flag is
//!   not tracked on the hot path: the first `<frameset>` processed as HTML re-reads the
//!   document before it once (see `Tokenizer::frameset_allowed`). In a template, "in
//!   column group" (13.2.6.4.12, after `<template><col>`) ignores every start tag but
//!   `col` and `template`, so an open `<template>` is tracked like a foreign root, with
//!   its template insertion modes (13.2.6.4.18). The other modes need nothing for the
//!   switches: `<select>`'s content is parsed by "in body" (the select parser
//!   relaxation, as in html5ever 0.40), and the table modes send these start tags to "in
//!   head" or "in body", which switch the same way.
//!
//! Most pages never open `<svg>`, `<math>`, `<template>` or `<frameset>`, and most that do
//! close them: then the simulator is idle outside them and each start tag is classified
//! inline by length and packed name (`html_start_tag_kind_at`).
//!
//! Memory: one stack entry (and the name's bytes) per open element, so bounded by the
//! document's nesting; no cap is needed since every entry stands for a start tag of the
//! input.
//!
//! | file | holds |
//! |---|---|
//! | `mod.rs` | the hot path: each HTML start tag classified by length and packed name |
//! | `simulator.rs` | the [`Simulator`]: the stack of open elements (from the foreign root, or whole), the insertion modes that change it, the frameset modes |
//! | `frameset.rs` | the [`FramesetTracker`]: the frameset-ok flag, from the tokens before a `<frameset>` |
//! | `names.rs` | the standard's lists of element names the rules consult |
//! | `tests.rs` | unit tests |

mod frameset;
mod names;
mod simulator;
#[cfg(test)]
mod tests;

pub(crate) use frameset::FramesetTracker;
pub(crate) use simulator::{Outcome, Simulator};

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
