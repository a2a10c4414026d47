//! `htmltok select`: the elements a CSS selector matches in each document (the tree from
//! `htmltok_tree`, the matching from `htmltok_select`).

use std::process::ExitCode;

use htmltok::Tokenizer;
use htmltok_select::{Select as _, Selector};
use htmltok_tree::Parser;

use crate::json;

use super::Failure;
use super::args::Corpus;

const ABOUT: &str = "Print the elements a CSS selector matches in each document (JSON lines)";

const LONG_ABOUT: &str = r#"Build each document's tree (as `htmltok tree` does, scripting off) and print one JSON line per element the CSS selector matches, in document order:

  {"document":"page.html","name":"a","span":[120,151]}

"document" is the file (for a WARC record, FILE@OFFSET); "name" the element's local
name; "span" the byte range of its start tag in the document as decoded to UTF-8 (an
element the parser implied, such as <body> with no tag, has an empty span).

A selector ending in ::text or ::attr(NAME) (parsel's and Scrapy's pseudo-elements) prints
strings instead, with a "value" key: ::text one line per text node that is a child of the
matched element (its own text, not its descendants'), ::attr(NAME) one line per matched
element that has the attribute:

  htmltok select 'a[href]::attr(href)' page.html
  {"document":"page.html","name":"a","span":[120,151],"value":"/about"}

Selectors: CSS Selectors Level 3, and :is(), :where(), :not() with lists, :has(), the i
and s attribute flags, :nth-child(An+B of S); HTML elements' names and attribute names
match case-insensitively, SVG and MathML names as the DOM has them (foreignObject);
namespace prefixes html|, svg|, math|, xlink|, xml|. A selector that does not parse is
one error line (where it fails, what was expected) and exit status 2, before any document
is read.

Documents are processed in parallel, so their lines come in no fixed order (the lines of
one document stay together and in document order; -j 1 keeps the order of the paths). An
unreadable document is reported on standard error and skipped; the exit status is then 1."#;

/// Arguments of `htmltok select`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    /// The CSS selector list (`a[href]`, `meta[property="og:title"]::attr(content)`)
    #[arg(value_name = "CSS", value_parser = parse_selector)]
    selector: Selector,

    #[command(flatten)]
    corpus: Corpus,
}

fn parse_selector(css: &str) -> Result<Selector, String> {
    Selector::parse(css).map_err(|e| e.to_string())
}

/// Runs `htmltok select`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    args.corpus.print_lines(
        Tokenizer::builder(),
        // Parsed as each page is decoded: the late `<meta>` decided by the tree builder.
        Some(Parser::new()),
        ("match", "matches"),
        |document| {
            let label = document.label();
            let mut lines = String::new();
            let mut rows = 0;
            document.with_tree(|doc| {
                for node in doc.select(&args.selector) {
                    let mut line = |value: Option<&str>| {
                        rows += 1;
                        lines.push_str("{\"document\":");
                        json::write_str(&mut lines, &label);
                        lines.push_str(",\"name\":");
                        json::write_str(&mut lines, node.name().unwrap_or_default());
                        let span = node.span();
                        lines.push_str(&format!(",\"span\":[{},{}]", span.start, span.end));
                        if let Some(value) = value {
                            lines.push_str(",\"value\":");
                            json::write_str(&mut lines, value);
                        }
                        lines.push_str("}\n");
                    };
                    if args.selector.pseudo_element().is_some() {
                        args.selector.values(node, |v| line(Some(&v)));
                    } else {
                        line(None);
                    }
                }
            });
            (lines, rows)
        },
    )
}
