//! `htmltok markdown`: each document as GitHub-flavoured Markdown, as JSON lines (or the
//! Markdown alone).

use std::process::ExitCode;

use htmltok::Tokenizer;
use htmltok_tree::Parser;
use url::Url;

use crate::json;

use super::Failure;
use super::args::Corpus;

const ABOUT: &str =
    "Print each document as GitHub-flavoured Markdown (the whole page or its main content)";

const LONG_ABOUT: &str = r##"Print every document of the given files, directories (walked recursively) and WARC files as GitHub-flavoured Markdown, one JSON object per document and line:

  {"document":"corpus/article.html","url":null,"title":"Tide tables & the moon","markdown":"# Tide tables\n\n..."}

The Markdown is the page's visible content (htmltok-content's markdown): headings at
their level, paragraphs, lists (nested, numbered from their start), block quotes, fenced
code blocks holding each <pre>'s text exactly (with the language of a language-… class),
GFM tables for the tables that are tables, emphasis, inline code, links [text](url) and
images ![alt](src) resolved against the document's URL and <base href>, math as TeX
where the page has it; hidden content left out as `htmltok text --visible` leaves it
out. A character of the text is escaped only where it would begin Markdown syntax.

With --main, the Markdown is the page's main content only (the blocks `htmltok text
--main` keeps). With --raw, the Markdown alone is printed, documents apart by a blank
line (use -j 1 to keep the order of the paths).

Documents are processed in parallel, so their lines come in no fixed order (-j 1 keeps
the order of the paths). An unreadable document is reported on standard error with its
file and offset and skipped; the exit status is then 1."##;

/// Arguments of `htmltok markdown`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    /// The main content only (the blocks `htmltok text --main` keeps)
    #[arg(long)]
    main: bool,

    /// Print the Markdown alone, not JSON lines
    #[arg(long)]
    raw: bool,

    /// Write links as their text only
    #[arg(long)]
    no_links: bool,

    /// Leave images out
    #[arg(long)]
    no_images: bool,

    #[command(flatten)]
    corpus: Corpus,
}

/// The Markdown options for a document whose URL is `url`.
pub(crate) fn options(
    url: Option<&str>,
    links: bool,
    images: bool,
) -> htmltok_content::markdown::Options {
    htmltok_content::markdown::Options {
        links,
        images,
        url: url.and_then(|u| Url::parse(u.trim()).ok()),
        ..Default::default()
    }
}

/// Runs `htmltok markdown`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    args.corpus.print_lines(
        Tokenizer::builder(),
        // The tree is parsed as each page is decoded, the late `<meta>` then decided by
        // the tree builder.
        Some(Parser::new()),
        ("document", "documents"),
        |document| {
            let options = options(document.url(), !args.no_links, !args.no_images);
            let (title, markdown) = document.with_tree(|doc| {
                let md = if args.main {
                    htmltok_content::main_text::markdown(&doc, &Default::default(), &options)
                } else {
                    htmltok_content::markdown::markdown(&doc, &options)
                };
                (doc.title(), md)
            });
            if args.raw {
                let mut text = markdown;
                text.push_str("\n\n");
                return (text, 1);
            }
            let mut line = String::with_capacity(markdown.len() + 256);
            line.push_str("{\"document\":");
            json::write_str(&mut line, &document.label());
            json::write_member(&mut line, "url", document.url());
            json::write_member(&mut line, "title", title.as_deref());
            json::write_member(&mut line, "markdown", Some(&markdown));
            line.push_str("}\n");
            (line, 1)
        },
    )
}
