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
/// The title is the text of the first `<title>`, whitespace collapsed.
pub fn text_with(tokenizer: &mut Tokenizer<'_>) -> Text {
    let mut collector = Collector::default();
    while let Some(token) = tokenizer.next_token() {
        collector.token(&token);
    }
    collector.finish()
}

/// Elements whose content is never shown, and which do not nest (`desc` and `title` in
/// SVG are tooltips and descriptions; MathML's `annotation` is an alternative form that
/// is not rendered).
const HIDDEN: [&str; 5] = ["script", "style", "title", "desc", "annotation"];

/// Elements that start and end a line.
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
const CELLS: [&str; 5] = ["td", "th", "textarea", "select", "button"];

/// Collects the title and visible text of a document token by token.
#[derive(Default)]
pub(crate) struct Collector {
    title: Option<String>,
    text: Collapsed,
    /// Inside one of HIDDEN (the name), until its end tag.
    hidden: Option<&'static str>,
    /// In the first <title>, whose text is the title.
    in_first_title: bool,
    template_depth: u32,
    /// Whether the last start tag was <xmp>, to tell it (visible) from other RAWTEXT
    /// elements.
    opened_xmp: bool,
}

impl Collector {
    pub(crate) fn token(&mut self, token: &Token<'_, '_>) {
        match token {
            Token::StartTag(tag) => {
                let name = tag.name();
                let name = &*name;
                self.opened_xmp = name == "xmp";
                if name == "template" {
                    self.template_depth += 1;
                } else if let Some(h) = HIDDEN.iter().find(|h| **h == name) {
                    if !tag.self_closing() && self.hidden.is_none() {
                        self.hidden = Some(h);
                        if *h == "title" && self.title.is_none() {
                            self.title = Some(String::new());
                            self.in_first_title = true;
                        }
                    }
                } else if BLOCKS.contains(&name) {
                    self.text.line_break();
                } else if CELLS.contains(&name) {
                    self.text.space();
                }
            }
            Token::EndTag(tag) => {
                let name = tag.name();
                let name = &*name;
                if name == "template" {
                    self.template_depth = self.template_depth.saturating_sub(1);
                } else if self.hidden == Some(name) || name == "svg" || name == "math" {
                    self.hidden = None;
                    self.in_first_title = false;
                } else if BLOCKS.contains(&name) {
                    self.text.line_break();
                } else if CELLS.contains(&name) {
                    self.text.space();
                }
            }
            Token::Text(run) => {
                let visible = match run.kind() {
                    TextKind::ScriptData => false,
                    TextKind::Rawtext => self.opened_xmp,
                    TextKind::Rcdata if self.hidden == Some("title") => {
                        // The document's title (only the first <title> is kept).
                        if self.in_first_title {
                            let mut collapsed = Collapsed::default();
                            collapsed.push(&run.text());
                            self.title = Some(collapsed.finish());
                            self.in_first_title = false;
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

    pub(crate) fn finish(self) -> Text {
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
        for piece in text.split(is_space) {
            // Every split point is whitespace; an empty piece is whitespace next to more.
            if piece.is_empty() {
                self.space = true;
                continue;
            }
            if !self.out.is_empty() {
                if self.line {
                    self.out.push('\n');
                } else if self.space {
                    self.out.push(' ');
                }
            }
            self.line = false;
            self.space = true;
            self.out.push_str(piece);
        }
        // `split` yields one piece more than there are separators: the last piece did not
        // end in whitespace unless it was empty.
        if !text.is_empty() && !text.ends_with(is_space) {
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
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0C' | '\r' | '\u{a0}')
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
