//! `htmltok text`: the visible text of each document, as JSON lines.

use std::process::ExitCode;

use htmltok::{TextKind, Token, Tokenizer};

use crate::json;

use super::Failure;
use super::args::{Corpus, SharedOut};

const ABOUT: &str = "Print the visible text of each document as a JSON line";

const LONG_ABOUT: &str = r#"Print the visible text of every document of the given files, directories (walked recursively) and WARC files, one JSON object per document and line:

  {"document":"corpus/article.html","url":null,"title":"Tide tables & the moon","text":"Home | Science ..."}

"document" is the file (for a WARC record, FILE@OFFSET, the record's offset in the WARC
file); "url" is the WARC record's target URI, or null; "title" is the text of the first
<title> (null when there is none).

The text is what a browser shows, roughly: character references decoded; nothing from
<script>, <style>, <template>, <noscript>, <iframe>, <noembed>, <noframes> or <title>
(nor from <script>, <style>, <title> and <desc> in <svg>, or <annotation> in <math>);
comments dropped; whitespace
(no-break spaces included) collapsed to single spaces (in <pre> too); block elements (<p>, <div>, <li>, <h1>, <tr>,
<br>, ...) start a new line, table cells are separated by a space. Hidden content (CSS,
the hidden attribute) is not detected.

Documents are processed in parallel, so their lines come in no fixed order (-j 1 keeps
the order of the paths). An unreadable document is reported on standard error with its
file and offset and skipped; the exit status is then 1."#;

/// Arguments of `htmltok text`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    #[command(flatten)]
    corpus: Corpus,
}

/// Runs `htmltok text`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    let out = SharedOut::new();
    let finished = args.corpus.run(
        Tokenizer::builder(),
        out.stop_flag(),
        |document| {
            let extracted = extract(&mut document.tokenizer());
            let mut line = String::with_capacity(extracted.text.len() + 256);
            line.push_str("{\"document\":");
            json::write_str(&mut line, &document.label());
            line.push_str(",\"url\":");
            match document.url() {
                Some(url) => json::write_str(&mut line, url),
                None => line.push_str("null"),
            }
            line.push_str(",\"title\":");
            match &extracted.title {
                Some(title) => json::write_str(&mut line, title),
                None => line.push_str("null"),
            }
            line.push_str(",\"text\":");
            json::write_str(&mut line, &extracted.text);
            line.push_str("}\n");
            out.write(line.as_bytes());
        },
        |(), ()| (),
        || (),
    )?;
    out.finish()?;
    Ok(finished.exit_code())
}

/// A document's title and visible text.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Extracted {
    /// The first `<title>`'s text, whitespace collapsed; None without a `<title>`.
    pub title: Option<String>,
    /// The visible text: blocks on lines of their own, whitespace collapsed.
    pub text: String,
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

/// Extracts the title and the visible text of a document.
pub fn extract(tokenizer: &mut Tokenizer<'_>) -> Extracted {
    let mut title: Option<String> = None;
    let mut text = Collapsed::default();
    // Inside one of HIDDEN (the name), until its end tag.
    let mut hidden: Option<&'static str> = None;
    // In the first <title>, whose text is the title.
    let mut in_first_title = false;
    let mut template_depth = 0u32;
    // The last start tag's name, to tell <xmp> (visible) from other RAWTEXT elements and
    // <title> from <textarea>.
    let mut opened_xmp = false;
    while let Some(token) = tokenizer.next_token() {
        match token {
            Token::StartTag(tag) => {
                let name = tag.name();
                let name = &*name;
                opened_xmp = name == "xmp";
                if name == "template" {
                    template_depth += 1;
                } else if let Some(h) = HIDDEN.iter().find(|h| **h == name) {
                    if !tag.self_closing() && hidden.is_none() {
                        hidden = Some(h);
                        if *h == "title" && title.is_none() {
                            title = Some(String::new());
                            in_first_title = true;
                        }
                    }
                } else if BLOCKS.contains(&name) {
                    text.line_break();
                } else if CELLS.contains(&name) {
                    text.space();
                }
            }
            Token::EndTag(tag) => {
                let name = tag.name();
                let name = &*name;
                if name == "template" {
                    template_depth = template_depth.saturating_sub(1);
                } else if hidden == Some(name) || name == "svg" || name == "math" {
                    hidden = None;
                    in_first_title = false;
                } else if BLOCKS.contains(&name) {
                    text.line_break();
                } else if CELLS.contains(&name) {
                    text.space();
                }
            }
            Token::Text(run) => {
                let visible = match run.kind() {
                    TextKind::ScriptData => false,
                    TextKind::Rawtext => opened_xmp,
                    TextKind::Rcdata if hidden == Some("title") => {
                        // The document's title (only the first <title> is kept).
                        if in_first_title {
                            let mut collapsed = Collapsed::default();
                            collapsed.push(&run.text());
                            title = Some(collapsed.finish());
                            in_first_title = false;
                        }
                        false
                    }
                    _ => true,
                };
                if visible && hidden.is_none() && template_depth == 0 {
                    text.push(&run.text());
                }
            }
            Token::Comment(_) | Token::Doctype(_) => {}
        }
    }
    Extracted {
        title,
        text: text.finish(),
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

    fn text_of(html: &str) -> Extracted {
        extract(&mut Tokenizer::new(html.as_bytes()))
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
}
