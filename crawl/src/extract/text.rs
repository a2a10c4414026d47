//! The visible text and the title of a document.

use htmltok::{TextKind, Token, Tokenizer};

/// A document's title and visible text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    /// The first `<title>`'s text, whitespace collapsed; None without a `<title>`.
    pub title: Option<String>,
    /// The visible text: blocks on lines of their own, whitespace collapsed.
    pub text: String,
}

/// The title and visible text of `html` (UTF-8, as decoded); see [`text_with`].
///
/// ```
/// let got = htmltok_crawl::extract::text(b"<title> Tides </title><p>High&nbsp;water<p>at <b>six</b><script>x()</script>");
/// assert_eq!(got.title.as_deref(), Some("Tides"));
/// assert_eq!(got.text, "High water\nat six");
/// ```
pub fn text(html: &[u8]) -> Text {
    text_with(&mut Tokenizer::new(html))
}

/// The title and visible text of the document `tokenizer` reads: what a browser shows,
/// roughly. Character references are decoded; nothing is taken from `<script>`,
/// `<style>`, `<template>`, `<noscript>`, `<iframe>`, `<noembed>`, `<noframes>` or
/// `<title>` (nor from `<script>`, `<style>`, `<title>` and `<desc>` in `<svg>`, or
/// `<annotation>` in `<math>`); comments are dropped; whitespace (no-break spaces
/// included) is collapsed to single spaces (in `<pre>` too); block elements (`<p>`,
/// `<div>`, `<li>`, `<h1>`, `<tr>`, `<br>`, …) start a new line, and table cells are
/// separated by a space. Hidden content (CSS, the `hidden` attribute) is not detected.
/// The title is the text of the first HTML `title` element in tree order, whitespace
/// collapsed: the first `<title>`'s, or where tokens cannot tell (an `<svg>`, `<math>`,
/// `<template>` or `<frameset>` before it), the tree's (see `extract::by_tree`).
pub fn text_with(tokenizer: &mut Tokenizer<'_>) -> Text {
    let mut collector = Collector::default();
    while let Some(token) = tokenizer.next_token() {
        collector.token(&token);
    }
    if collector.needs_tree() {
        collector.set_title(super::by_tree::title_and_base(tokenizer.input()).0);
    }
    collector.finish()
}

/// Elements whose content is never shown, and which do not nest (`desc` and `title` in
/// SVG are tooltips and descriptions; MathML's `annotation` is an alternative form that
/// is not rendered).
#[cfg(test)]
const HIDDEN: [&str; 5] = ["script", "style", "title", "desc", "annotation"];

/// Elements that start and end a line.
#[cfg(test)]
const BLOCKS: [&str; 48] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "main",
    "menu",
    "nav",
    "ol",
    "optgroup",
    "option",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "xmp",
];

/// Elements separated from their neighbours by a space.
#[cfg(test)]
const CELLS: [&str; 5] = ["td", "th", "textarea", "select", "button"];

/// What a tag name means to the text: one `match` rather than searches of [`HIDDEN`],
/// [`BLOCKS`] and [`CELLS`] (a test checks that they agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Template,
    /// One of [`HIDDEN`].
    Hidden(&'static str),
    /// `xmp`, a block whose RAWTEXT is shown.
    Xmp,
    /// One of [`BLOCKS`] but `xmp`.
    Block,
    /// One of [`CELLS`].
    Cell,
    /// `svg` or `math`, whose end closes a hidden element left open in them.
    SvgOrMath,
    Other,
}

fn classify(name: &str) -> Class {
    match name {
        "template" => Class::Template,
        "script" => Class::Hidden("script"),
        "style" => Class::Hidden("style"),
        "title" => Class::Hidden("title"),
        "desc" => Class::Hidden("desc"),
        "annotation" => Class::Hidden("annotation"),
        "xmp" => Class::Xmp,
        "address" | "article" | "aside" | "blockquote" | "body" | "br" | "caption" | "center"
        | "dd" | "details" | "dialog" | "dir" | "div" | "dl" | "dt" | "fieldset" | "figcaption"
        | "figure" | "footer" | "form" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "header"
        | "hgroup" | "hr" | "html" | "legend" | "li" | "main" | "menu" | "nav" | "ol"
        | "optgroup" | "option" | "p" | "pre" | "section" | "summary" | "table" | "tbody"
        | "tfoot" | "thead" | "tr" => Class::Block,
        "td" | "th" | "textarea" | "select" | "button" => Class::Cell,
        "svg" | "math" => Class::SvgOrMath,
        _ => Class::Other,
    }
}

/// Collects the title and visible text of a document token by token.
#[derive(Default)]
pub(crate) struct Collector {
    title: Option<String>,
    text: Collapsed,
    /// Inside one of HIDDEN (the name), until its end tag.
    hidden: Option<&'static str>,
    /// In the first <title>: its text so far, which is the title.
    in_first_title: Option<String>,
    template_depth: u32,
    /// Whether the last start tag was <xmp>, to tell it (visible) from other RAWTEXT
    /// elements.
    opened_xmp: bool,
    /// Whether tokens can tell the title (`extract::by_tree`).
    watch: super::by_tree::Watch,
}

impl Collector {
    pub(crate) fn token(&mut self, token: &Token<'_, '_>) {
        match token {
            Token::StartTag(tag) => {
                self.watch.start_tag(tag.raw_name());
                let name = tag.name();
                let class = classify(&name);
                self.opened_xmp = class == Class::Xmp;
                match class {
                    Class::Template => self.template_depth += 1,
                    Class::Hidden(h) => {
                        // The first <title> is the title element (tokens after an <svg>,
                        // <math>, <template> or <frameset> leave it to the tree), whatever
                        // it is in (an HTML <desc> is no SVG one) and self-closing or not
                        // (its RCDATA follows all the same).
                        if h == "title" && self.title.is_none() && self.in_first_title.is_none() {
                            self.in_first_title = Some(String::new());
                            self.watch.found();
                        }
                        if !tag.self_closing() && self.hidden.is_none() {
                            self.hidden = Some(h);
                        }
                    }
                    Class::Block | Class::Xmp => self.text.line_break(),
                    Class::Cell => self.text.space(),
                    Class::SvgOrMath | Class::Other => {}
                }
            }
            Token::EndTag(tag) => {
                let name = tag.name();
                let class = classify(&name);
                match class {
                    Class::Template => {
                        self.template_depth = self.template_depth.saturating_sub(1);
                    }
                    Class::Hidden(h) if self.hidden == Some(h) => {
                        self.hidden = None;
                        if h == "title" {
                            self.end_title();
                        }
                    }
                    Class::Hidden("title") => self.end_title(),
                    Class::SvgOrMath => {
                        self.hidden = None;
                    }
                    Class::Block | Class::Xmp => self.text.line_break(),
                    Class::Cell => self.text.space(),
                    Class::Hidden(_) | Class::Other => {}
                }
            }
            Token::Text(run) => {
                self.watch.text(run.kind(), run.raw(), b"title");
                let visible = match run.kind() {
                    TextKind::ScriptData => false,
                    TextKind::Rawtext => self.opened_xmp,
                    TextKind::Rcdata if self.in_first_title.is_some() => {
                        // The document's title (only the first <title> is kept).
                        if let Some(title) = &mut self.in_first_title {
                            title.push_str(&run.text());
                        }
                        false
                    }
                    _ => true,
                };
                if visible && self.hidden.is_none() && self.template_depth == 0 {
                    self.text.push(&run.text());
                }
            }
            Token::Comment(_) | Token::Doctype(_) => {}
        }
    }

    /// The end of the first <title>: its text, ASCII whitespace stripped and collapsed
    /// (as `document.title` has it), is the title.
    fn end_title(&mut self) {
        if let Some(text) = self.in_first_title.take() {
            self.title = Some(htmltok_tree::strip_and_collapse_ascii_whitespace(&text));
        }
    }

    /// Whether the title must come from the tree (`extract::by_tree`).
    pub(crate) fn needs_tree(&self) -> bool {
        self.watch.needs_tree
    }

    /// The title, as the tree has it.
    pub(crate) fn set_title(&mut self, title: Option<String>) {
        self.in_first_title = None;
        self.title = title;
    }

    pub(crate) fn finish(mut self) -> Text {
        self.end_title();
        Text {
            title: self.title,
            text: self.text.finish(),
        }
    }
}

/// Text with whitespace collapsed and pending breaks.
#[derive(Default)]
struct Collapsed {
    out: String,
    space: bool,
    line: bool,
}

impl Collapsed {
    fn push(&mut self, text: &str) {
        // What `text.split(is_space)` would give, piece by piece, on bytes: the separators
        // are ASCII whitespace and U+00A0 (C2 A0 in UTF-8, where C2 only ever leads).
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        loop {
            let start = i;
            while i < n && !space_at(bytes, i) {
                i += 1;
            }
            if start == i {
                // An empty piece is whitespace next to more (or the whole of an empty run).
                self.space = true;
            } else {
                if !self.out.is_empty() {
                    if self.line {
                        self.out.push('\n');
                    } else if self.space {
                        self.out.push(' ');
                    }
                }
                self.line = false;
                self.space = true;
                self.out.push_str(&text[start..i]);
            }
            if i >= n {
                break;
            }
            i += if bytes[i] == 0xC2 { 2 } else { 1 };
        }
        // The last piece did not end in whitespace unless it was empty.
        if n > 0 && !ends_in_space(bytes) {
            self.space = false;
        }
    }

    fn space(&mut self) {
        self.space = true;
    }

    fn line_break(&mut self) {
        self.line = true;
    }

    fn finish(self) -> String {
        self.out
    }
}

/// ASCII whitespace, and the no-break space (U+00A0, `&nbsp;`), which is a space too in
/// extracted text.
#[cfg(test)]
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r' | '\u{a0}')
}

/// Whether a space ([`is_space`]) starts at byte `i` of UTF-8 `bytes`.
#[inline]
fn space_at(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b' ' | b'\t' | b'\n' | b'\x0C' | b'\r' => true,
        0xC2 => bytes.get(i + 1) == Some(&0xA0),
        _ => false,
    }
}

/// Whether UTF-8 `bytes` end in a space ([`is_space`]).
fn ends_in_space(bytes: &[u8]) -> bool {
    matches!(
        bytes,
        [.., 0xC2, 0xA0] | [.., b' ' | b'\t' | b'\n' | b'\x0C' | b'\r']
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(html: &str) -> Text {
        text(html.as_bytes())
    }

    #[test]
    fn visible_text_only() {
        let got = text_of(
            "<!DOCTYPE html><html><head><title> A  &amp; B </title><style>p{}</style>\
             <script>var x = '</p>';</script></head><body><p>Hello,\n  <b>world</b>!</p>\
             <template><p>hidden</p></template><noscript>no js</noscript>\
             <ul><li>one<li>two</ul><table><tr><td>a<td>b</table>\
             <svg><title>tip</title><script>evil()</script><text>in svg</text></svg>\
             <textarea>typed</textarea><xmp><b>shown</b></xmp>tail",
        );
        assert_eq!(got.title.as_deref(), Some("A & B"));
        assert_eq!(
            got.text,
            "Hello, world!\none\ntwo\na b\nin svg typed\n<b>shown</b>\ntail"
        );
    }

    #[test]
    fn whitespace_across_runs() {
        assert_eq!(text_of("a<b> b </b>c").text, "a b c");
        assert_eq!(text_of("a<b>b</b>c").text, "abc");
        assert_eq!(text_of("  <p> x </p>  <p>y</p> ").text, "x\ny");
        assert_eq!(text_of("a<br>b<br><br>c").text, "a\nb\nc");
        assert_eq!(text_of("<title>x</title>").text, "");
        assert_eq!(text_of("<p>&nbsp;<p>a&nbsp;&nbsp;b&nbsp;").text, "a b");
    }

    #[test]
    fn classify_agrees_with_the_lists() {
        for name in HIDDEN {
            assert_eq!(classify(name), Class::Hidden(name));
        }
        for name in BLOCKS {
            let want = if name == "xmp" {
                Class::Xmp
            } else {
                Class::Block
            };
            assert_eq!(classify(name), want, "{name}");
        }
        for name in CELLS {
            assert_eq!(classify(name), Class::Cell);
        }
        for name in ["template", "svg", "math", "a", "span", "P", ""] {
            let all = HIDDEN.contains(&name) || BLOCKS.contains(&name) || CELLS.contains(&name);
            assert!(!all);
        }
        assert_eq!(classify("a"), Class::Other);
    }

    /// The collapsing as it was written first, on `char`s.
    fn push_by_chars(c: &mut Collapsed, text: &str) {
        for piece in text.split(is_space) {
            if piece.is_empty() {
                c.space = true;
                continue;
            }
            if !c.out.is_empty() {
                if c.line {
                    c.out.push('\n');
                } else if c.space {
                    c.out.push(' ');
                }
            }
            c.line = false;
            c.space = true;
            c.out.push_str(piece);
        }
        if !text.is_empty() && !text.ends_with(is_space) {
            c.space = false;
        }
    }

    #[test]
    fn push_on_bytes_is_push_on_chars() {
        let pieces = [
            "a", "bc", " ", "  ", "\t", "\n", "\r", "\x0C", "\u{a0}", "\u{c2}", "é", "\u{2003}", "",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let (mut fast, mut slow) = (Collapsed::default(), Collapsed::default());
            for _ in 0..(seed % 4) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let len = (seed % 6) as usize;
                let run: String = (0..len)
                    .map(|k| pieces[((seed >> (8 * k)) % pieces.len() as u64) as usize])
                    .collect();
                if seed.is_multiple_of(5) {
                    fast.line_break();
                    slow.line_break();
                }
                fast.push(&run);
                push_by_chars(&mut slow, &run);
                assert_eq!(
                    (&fast.out, fast.space, fast.line),
                    (&slow.out, slow.space, slow.line),
                    "{run:?}"
                );
            }
        }
    }

    #[test]
    fn no_title() {
        assert_eq!(text_of("<p>x").title, None);
        assert_eq!(text_of("<title></title>").title.as_deref(), Some(""));
        assert_eq!(
            text_of("<title>a</title><title>b</title>").title.as_deref(),
            Some("a")
        );
    }

    #[test]
    fn one_pass_page_matches_the_parts() {
        let html = "<title>T</title><base href=/b/><p>x <a href=y>y</a>";
        let url = url::Url::parse("https://example.org/").unwrap();
        let (links, text) =
            super::super::links_and_text(&mut Tokenizer::new(html.as_bytes()), Some(&url), None);
        assert_eq!(text, super::text(html.as_bytes()));
        assert_eq!(links, super::super::links(html.as_bytes(), Some(&url)));
        assert_eq!(links[0].url, "https://example.org/b/y");
    }
}
