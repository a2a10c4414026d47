//! The title and the `<base href>` as the tree has them, for the documents where tokens
//! alone cannot tell.
//!
//! The title is the text of the first HTML `title` element in tree order (`document.title`),
//! the base URL the first HTML `base` element with an `href` (HTML § 4.2.3). Read from
//! tokens, the first `<title>` and `<base href>` start tags are those elements, except
//! when one of them comes after an `<svg>` or `<math>` (a `title` or `base` there may be in
//! the SVG or MathML namespace), a `<template>` (one there may be in the template's
//! contents, not in the tree), a `<table>` (a later one may be foster-parented before the
//! table, ahead of it in tree order) or a `<frameset>` (after which both are ignored), and
//! when a `<frameset>` comes after them (it can take the body out of the tree, and them
//! with it), and when, after one of those tags and before the first `<title>` (`<base
//! href>`), text that the tokenizer read in a state other than data holds `<title`
//! (`<base`): the tokenizer's simulated tree builder may have put it in the wrong state
//! there ([`Watch::text`]); likewise text holding `<frameset` after the first `<title>`
//! (`<base href>`) and an `<svg>`, `<math>` or `<template>`. Only then is the tree ([`htmltok_tree`], with the scripting flag on as the
//! tokenizer's simulation has it by default) built, to decide; `crawl/tests/tree_agreement.rs`
//! holds the two equal on the real corpus and on generated tag soup. Building the tree
//! costs several times the tokens, and such documents are few (most titles and bases
//! are in the head, before any of those tags).

use htmltok::TextKind;

use crate::tag_open::find_tag_open;

/// What a start tag (its raw name, as written, any case) means to the token paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Nothing.
    No,
    /// `table`: a first `<title>` or `<base>` after it is left to the tree.
    Risky,
    /// `svg`, `math`, `template`: as risky, and from here the tokenizer's simulated tree
    /// builder may read a tag as text (see [`Watch::text`]).
    Misread,
    /// `frameset`: as risky, and a `<title>` or `<base>` before it is left to the tree too.
    Frameset,
}

/// The [`Shape`] of a start tag's raw name.
#[inline]
pub(crate) fn shape(raw: &[u8]) -> Shape {
    match raw.len() {
        3 if raw.eq_ignore_ascii_case(b"svg") => Shape::Misread,
        4 if raw.eq_ignore_ascii_case(b"math") => Shape::Misread,
        5 if raw.eq_ignore_ascii_case(b"table") => Shape::Risky,
        8 if raw.eq_ignore_ascii_case(b"frameset") => Shape::Frameset,
        8 if raw.eq_ignore_ascii_case(b"template") => Shape::Misread,
        _ => Shape::No,
    }
}

/// What the token paths track to know when the tree must decide.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Watch {
    /// A risky start tag was met.
    risky: bool,
    /// A [`Shape::Misread`] start tag was met.
    misread: bool,
    /// The first `<title>` (`<base href>`) was met.
    known: bool,
    /// The tree must decide.
    pub(crate) needs_tree: bool,
}

impl Watch {
    /// A start tag of this raw name (not the `<title>`/`<base>` watched).
    #[inline]
    pub(crate) fn start_tag(&mut self, raw: &[u8]) {
        match shape(raw) {
            Shape::No => {}
            Shape::Risky => self.risky = true,
            Shape::Misread => {
                self.risky = true;
                self.misread = true;
            }
            Shape::Frameset => {
                self.risky = true;
                self.needs_tree |= self.known;
            }
        }
    }

    /// The first `<title>` (`<base href>`).
    pub(crate) fn found(&mut self) {
        self.known = true;
        self.needs_tree |= self.risky;
    }

    /// Whether [`Watch::text`] must see text tokens: a risky start tag was met and the
    /// watched tag was not, or both were and the risky tag may have misled the
    /// tokenizer.
    #[inline]
    pub(crate) fn watches_text(&self) -> bool {
        self.risky && !self.needs_tree && (!self.known || self.misread)
    }

    /// A text token, as written (`raw`), that the tokenizer read in the state `kind`.
    /// After a risky tag the tokenizer's simulated tree builder can be wrong about the
    /// state (it does not keep the list of active formatting elements, for one:
    /// `<a><a></a><svg></a><textarea>` makes an SVG `textarea` that it takes for an HTML
    /// one), and text it read as RCDATA, RAWTEXT, script data, PLAINTEXT or CDATA may
    /// hold a start tag that the tree reads as a tag. Text read in the data state
    /// cannot: there, `<` and a letter always begin a tag. So such text with `<name` in
    /// it (any case) leaves the decision to the tree; and once the watched tag was met,
    /// after a [`Shape::Misread`] tag, so does `<frameset`: a `<frameset>` the tokens did
    /// not see can still take the body out of the tree, and the watched element with it
    /// (`<a><a></a><base href=/x><svg></a><noscript><head><frameset>`, scripting on).
    pub(crate) fn text(&mut self, kind: TextKind, raw: &[u8], name: &[u8]) {
        if !self.watches_text() || kind == TextKind::Data {
            return;
        }
        let hidden: &[u8] = if self.known { b"frameset" } else { name };
        if find_tag_open(raw, hidden).is_some() {
            self.needs_tree = true;
        }
    }
}

/// The title (whitespace stripped and collapsed) and the first base `href` of `html`, as
/// its tree has them.
pub(crate) fn title_and_base(html: &[u8]) -> (Option<String>, Option<String>) {
    // Scripting on, as the tokenizer's simulation has it by default (a `<noscript>`'s
    // content is text).
    let doc = htmltok_tree::Parser::new().scripting(true).parse(html);
    let base = doc.base_href().map(|href| href.into_owned());
    (doc.title(), base)
}

#[cfg(test)]
mod tests {
    use super::{Shape, Watch, shape};
    use htmltok::TextKind;

    #[test]
    fn tree_shapes() {
        for name in ["svg", "SVG", "math", "Template"] {
            assert_eq!(shape(name.as_bytes()), Shape::Misread, "{name}");
        }
        assert_eq!(shape(b"TABLE"), Shape::Risky);
        assert_eq!(shape(b"FrameSet"), Shape::Frameset);
        for name in ["sv", "svgx", "maths", "tables", "frame", "title", "base"] {
            assert_eq!(shape(name.as_bytes()), Shape::No, "{name}");
        }
    }

    #[test]
    fn text_read_outside_the_data_state_can_hide_a_tag() {
        let mut w = Watch::default();
        w.text(TextKind::Rcdata, b"<TiTle>", b"title");
        assert!(!w.needs_tree, "no risky tag before it");
        w.start_tag(b"svg");
        w.text(TextKind::Data, b"a <title", b"title");
        assert!(!w.needs_tree, "data-state text holds no tag");
        w.text(TextKind::Rawtext, b"<titl", b"title");
        assert!(!w.needs_tree, "too short");
        w.text(TextKind::Rcdata, b"x < y <TiTle>", b"title");
        assert!(w.needs_tree);
        let mut w = Watch::default();
        w.start_tag(b"table");
        w.found();
        let before = w.needs_tree;
        w.text(TextKind::ScriptData, b"<base href=x>", b"base");
        assert_eq!(w.needs_tree, before, "the first one is known already");
    }

    #[test]
    fn text_after_the_watched_tag_can_hide_a_frameset() {
        let mut w = Watch::default();
        w.found();
        w.start_tag(b"table");
        w.text(TextKind::Rawtext, b"<frameset>", b"base");
        assert!(!w.needs_tree, "a table does not mislead the tokenizer");
        w.start_tag(b"svg");
        w.text(TextKind::Data, b"a <frameset", b"base");
        assert!(!w.needs_tree, "data-state text holds no tag");
        w.text(TextKind::Rawtext, b"<base href=y>", b"base");
        assert!(!w.needs_tree, "the first one is known already");
        w.text(TextKind::Rawtext, b"<head><FrameSet>", b"base");
        assert!(w.needs_tree);
        assert!(!w.watches_text(), "decided");
    }

    #[test]
    fn watch() {
        let mut w = Watch::default();
        w.found();
        w.start_tag(b"table");
        assert!(!w.needs_tree, "a table after the title changes nothing");
        w.start_tag(b"frameset");
        assert!(
            w.needs_tree,
            "a frameset after it may take it out of the tree"
        );
        let mut w = Watch::default();
        w.start_tag(b"svg");
        w.found();
        assert!(w.needs_tree);
    }
}
