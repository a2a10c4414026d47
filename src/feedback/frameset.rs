//! The frameset-ok flag, worked out from the tokens before a `<frameset>` start tag.
//!
//! A `<frameset>` start tag processed by the HTML rules switches to "in frameset" when the
//! body element does not exist yet (13.2.6.4.6 "after head") or the frameset-ok flag is
//! still "ok" (13.2.6.4.7 "in body"). [`FramesetTracker`] replays what sets the flag to
//! "not ok" or creates the body element, one token at a time. The whole-input tokenizer
//! feeds it lazily (it re-reads the document before the first `<frameset>` once, see
//! `Tokenizer::frameset_allowed`); the stream tokenizer (`crate::stream`) feeds it the
//! tokens it commits, so that the answer does not need the bytes it has dropped.

use crate::token::{Tag, Text, TextKind};

/// "In head" start tags: they keep the body from being created.
const HEAD: &[&[u8]] = &[
    b"html",
    b"head",
    b"base",
    b"basefont",
    b"bgsound",
    b"link",
    b"meta",
    b"title",
    b"noscript",
    b"noframes",
    b"style",
    b"script",
];

/// "In body" start tags that set the frameset-ok flag to "not ok".
const NOT_OK: &[&[u8]] = &[
    b"pre",
    b"listing",
    b"li",
    b"dd",
    b"dt",
    b"button",
    b"applet",
    b"marquee",
    b"object",
    b"table",
    b"area",
    b"br",
    b"embed",
    b"img",
    b"image",
    b"keygen",
    b"wbr",
    b"hr",
    b"textarea",
    b"xmp",
    b"iframe",
    b"select",
    b"body",
    b"template",
];

/// Whether `name` (raw bytes, any case) is one of `names` (lowercase). A raw name holding
/// NUL or non-ASCII bytes matches no name of the lists, as its decoded form would not.
fn one_of(name: &[u8], names: &[&[u8]]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// What the tokens so far say about the frameset-ok flag and the body element.
#[derive(Clone, Debug, Default)]
pub(crate) struct FramesetTracker {
    in_body: bool,
    /// The frameset-ok flag is "not ok".
    not_ok: bool,
    /// Open `<template>` elements before the body.
    templates: usize,
}

impl FramesetTracker {
    /// True when no later token can change [`FramesetTracker::allowed`] (the body exists
    /// and the flag is "not ok"): feeding it more is useless.
    #[inline]
    pub(crate) fn decided(&self) -> bool {
        self.in_body && self.not_ok
    }

    /// Whether a `<frameset>` start tag after the tokens fed so far, processed by the HTML
    /// rules, switches to "in frameset".
    pub(crate) fn allowed(&self) -> bool {
        if self.templates > 0 && !self.in_body {
            // "In template": the start tag goes to "in body", and `<template>` has set the
            // flag to "not ok".
            return false;
        }
        !self.in_body || !self.not_ok
    }

    /// Whether a start tag is `<input type=hidden>` (which leaves the flag alone).
    pub(crate) fn hidden_input(tag: &Tag<'_, '_>) -> bool {
        tag.raw_name().eq_ignore_ascii_case(b"input")
            && tag
                .attr("type")
                .is_some_and(|t| t.value().eq_ignore_ascii_case("hidden"))
    }

    /// A start tag named `name` (raw bytes); `hidden_input` from
    /// [`FramesetTracker::hidden_input`]; `html` tells whether the tree builder processed
    /// it by the HTML rules (not as foreign content).
    pub(crate) fn start_tag(&mut self, name: &[u8], hidden_input: bool, html: bool) {
        if !html {
            return;
        }
        if !self.in_body {
            if name.eq_ignore_ascii_case(b"template") {
                self.templates += 1;
                self.not_ok = true;
                return;
            }
            if one_of(name, HEAD) || self.templates > 0 {
                return;
            }
            self.in_body = true;
        }
        if one_of(name, NOT_OK) || (name.eq_ignore_ascii_case(b"input") && !hidden_input) {
            self.not_ok = true;
        }
    }

    /// An end tag named `name` (raw bytes).
    pub(crate) fn end_tag(&mut self, name: &[u8]) {
        if name.eq_ignore_ascii_case(b"br") {
            // `</br>` is `<br>` (in foreign content too, after leaving it).
            self.in_body = true;
            self.not_ok = true;
        } else if !self.in_body
            && (name.eq_ignore_ascii_case(b"body") || name.eq_ignore_ascii_case(b"html"))
            && self.templates == 0
        {
            self.in_body = true;
        } else if !self.in_body && name.eq_ignore_ascii_case(b"template") {
            self.templates = self.templates.saturating_sub(1);
        }
    }

    /// A run of text: a character that is not whitespace creates the body, and one that is
    /// not NUL either sets the flag to "not ok". Only data-state and CDATA text count (the
    /// text of `<title>`, `<style>`, `<script>`… is inside an element of the head).
    pub(crate) fn text(&mut self, text: &Text<'_>) {
        if !matches!(text.kind(), TextKind::Data | TextKind::Cdata) || self.decided() {
            return;
        }
        let ws = |b: u8| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
        let raw = text.raw_text();
        if raw.iter().all(|&b| ws(b)) {
            return;
        }
        if text.kind() == TextKind::Data && raw.contains(&b'&') {
            // A character reference can decode to whitespace: look at the decoded text.
            let t = text.text();
            let ws = |c: char| matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ');
            if t.chars().any(|c| !ws(c)) {
                self.in_body = true;
            }
            if t.chars().any(|c| !ws(c) && c != '\0') {
                self.not_ok = true;
            }
            return;
        }
        // Raw bytes: whitespace and NUL are themselves; any other byte (an ASCII character,
        // or part of a character that decodes to neither) is a character that is neither.
        self.in_body = true;
        if raw.iter().any(|&b| !ws(b) && b != 0) {
            self.not_ok = true;
        }
    }
}
