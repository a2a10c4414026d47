//! `htmltok text`: the visible text of each document, as JSON lines.

use std::process::ExitCode;

use htmltok::Tokenizer;
use htmltok_content::visible::{self, visible_text};
use htmltok_crawl::extract;
use htmltok_tree::Parser;

use crate::json;

use super::Failure;
use super::args::Corpus;

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

With --main, "text" is the page's main text instead (htmltok-content's main_text: the
article without menus, headers, footers, comment threads, cookie banners and link lists,
paragraphs set apart by a blank line; "" for a page without text), and the line also
has "byline" and "date" (null when the page has none), "kind" (what sort of page it is:
"article", "forum", "product", "collection", "listing", "documentation", "service" or
"other") and "confidence" (a number in [0, 1]: how likely the text is what a person
would have kept of the page); "title" is then the main text's title (og:title, else
<title>):

  {"document":"a.html","url":null,"title":"Tides","byline":"A. Sea","date":"2024-05-01","kind":"article","confidence":0.9,"text":"..."}

With --main --markdown, "text" is that main text as GitHub-flavoured Markdown (headings,
lists, tables, code blocks, links; see `htmltok markdown`).

With --visible, "text" is the visible text laid out from the page's tree
(htmltok-content's visible_text): block elements break lines, paragraphs and headings
are set apart by a blank line, <br> breaks, <pre> keeps its whitespace, tables go cell
by cell (tabs) and row by row, and hidden content is left out (the hidden attribute,
aria-hidden=true, inline display:none / visibility:hidden, a closed <details> but its
summary, <noscript>). It parses the tree, so it costs more than the default, which reads
the tokens only (tokenizer speed) and is kept as it was.

Documents are processed in parallel, so their lines come in no fixed order (-j 1 keeps
the order of the paths). An unreadable document is reported on standard error with its
file and offset and skipped; the exit status is then 1."#;

/// Arguments of `htmltok text`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    /// Print the main text (the article) with its title, byline, date, page kind and
    /// confidence
    #[arg(long, conflicts_with = "visible")]
    main: bool,

    /// Print the visible text laid out from the tree, hidden content left out
    #[arg(long)]
    visible: bool,

    /// With --main: "text" is the main text as GitHub-flavoured Markdown (see `htmltok
    /// markdown`)
    #[arg(long, requires = "main")]
    markdown: bool,

    #[command(flatten)]
    corpus: Corpus,
}

/// Runs `htmltok text`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    args.corpus.print_lines(
        Tokenizer::builder(),
        // --main and --visible read the tree: parsed as each page is decoded, the late
        // `<meta>` then decided by the tree builder.
        (args.main || args.visible).then(Parser::new),
        ("row", "rows"),
        |document| {
            // (title, text, and for --main the byline, date, kind and confidence)
            // The batch's tree (asked for with --main and --visible), else one parsed here
            // (with --no-decode).
            let (title, text, more) = if args.main {
                document.with_tree(|doc| {
                    let (main, text) = if args.markdown {
                        let options = crate::markdown::options(document.url(), true, true);
                        let (main, md) = htmltok_content::main_text::with_markdown(
                            &doc,
                            &Default::default(),
                            &options,
                        );
                        (main, md)
                    } else {
                        let mut main = htmltok_content::main_text(&doc, &Default::default());
                        let text = std::mem::take(&mut main.text);
                        (main, text)
                    };
                    let more = (main.byline, main.date, main.kind, main.confidence);
                    (main.title, text, Some(more))
                })
            } else if args.visible {
                document.with_tree(|doc| {
                    let text = visible_text(&doc, visible::Options::default());
                    (doc.title(), text, None)
                })
            } else {
                let extracted = extract::text_with(&mut document.tokenizer());
                (extracted.title, extracted.text, None)
            };
            let mut line = String::with_capacity(text.len() + 256);
            line.push_str("{\"document\":");
            json::write_str(&mut line, &document.label());
            json::write_member(&mut line, "url", document.url());
            json::write_member(&mut line, "title", title.as_deref());
            if let Some((byline, date, kind, confidence)) = &more {
                json::write_member(&mut line, "byline", byline.as_deref());
                json::write_member(&mut line, "date", date.as_deref());
                json::write_member(&mut line, "kind", Some(kind.as_str()));
                json::write_key(&mut line, "confidence");
                json::write_f32(&mut line, *confidence);
            }
            json::write_member(&mut line, "text", Some(&text));
            line.push_str("}\n");
            (line, 1)
        },
    )
}
