//! # htmltok-cli
//!
//! The `htmltok` program: argument parsing, output, and the exit-status rules shared by
//! every subcommand. The work itself is done by [`htmltok`] (tokens) and [`htmltok_crawl`]
//! (reading many documents, encodings, WARC, and `htmltok_crawl::extract`: the links,
//! text and statistics of a page); this crate holds only argument parsing and output
//! formatting, and is a library too only so that its JSON writers ([`json`]) can be
//! tested and fuzzed from outside.
//!
//! Layout, so that more subcommands slot in without touching the others:
//! - `args`: arguments several subcommands share (the input file, tokenizer options),
//!   flattened into each subcommand's own `Args`;
//! - `output`: buffered standard output and [`Failure`], the one error type a subcommand
//!   returns (its exit status is decided here, its one-line message is its `Display`);
//! - one module per subcommand with an `Args` struct and a `run` function (`tokens`;
//!   `tree`, one document's tree from [`htmltok_tree`]; and the corpus subcommands
//!   `stats`, `links`, `text`, `markdown`, `extract`, `select` (CSS selectors, [`htmltok_select`]),
//!   which read many documents in parallel through `htmltok_crawl::batch` with
//!   `args::Corpus`).
//!
//! Exit status: 0 on success (also when standard output is closed early, as by `| head`),
//! 1 when writing the output fails otherwise, 2 for bad arguments or unreadable input, and
//! for `tokens` and `tree`, input that is not HTML by its first bytes
//! (`htmltok_crawl::sniff`). Every failure is one line on standard error, `htmltok: <what
//! went wrong>`. The corpus subcommands skip a document they cannot read (one line
//! `htmltok: FILE: offset N: what` each), go on, end with one `htmltok summary: ...` line,
//! and exit with 1 if they skipped any.

mod args;
mod extract;
pub mod json;
mod links;
mod markdown;
mod output;
mod select;
mod stats;
mod text;
mod tokens;
mod tree;

use std::io::Write as _;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

pub use output::Failure;

const ABOUT: &str = "Exact WHATWG HTML parsing for crawls: tokens, trees, selectors, text, WARC";

const LONG_ABOUT: &str = "\
Exact WHATWG HTML parsing for crawl and corpus pipelines: tokens (HTML § 13.2.5: every \
state, character reference and parse error), trees (§ 13.2.6 tree construction), CSS \
selectors, visible and main text, metadata, over files, directories and WARC/ARC archives.

Input is read as bytes, as UTF-8 (invalid bytes decode to U+FFFD); nothing is re-encoded.";

const AFTER_HELP: &str = "\
Examples:
  htmltok tokens page.html
  htmltok tokens --errors page.html | grep '\"Error\"'
  curl -s https://example.com/ | htmltok tokens
  printf '&amp;</title>' | htmltok tokens --html5lib --state 'RCDATA state' --last-start-tag title
  htmltok stats corpus/
  htmltok links --base https://example.org/ page.html
  htmltok text crawl.warc.gz | head
  htmltok text --main --markdown crawl.warc.gz | head
  htmltok markdown --raw page.html
  htmltok extract --format parquet --output pages.parquet crawl/
  htmltok tree --context td page-fragment.html
  htmltok select 'a[href]::attr(href)' crawl.warc.gz
  htmltok extract --field h1='h1::text' --field canonical='link[rel=canonical]::attr(href)' crawl/

Exit status: 0 on success, 1 if writing the output failed, 2 for bad arguments or
unreadable input, and for tokens and tree, input that is not HTML by its first bytes
(binary data, an archive; --force-html reads it), with one line `htmltok: <what went
wrong>` on standard error. stats, links, text, markdown, extract and select skip documents they
cannot read (one line each on standard error), end with one `htmltok summary: ...` line
(documents, rows written, counts by reason), and exit with 1 if they skipped any.";

#[derive(Parser, Debug)]
#[command(
    name = "htmltok",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = AFTER_HELP,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Tokens(tokens::Args),
    Stats(stats::Args),
    Links(links::Args),
    Text(text::Args),
    Markdown(markdown::Args),
    Extract(extract::Args),
    Tree(tree::Args),
    Select(select::Args),
}

/// Runs the program and turns the outcome into an exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return argument_error(&err),
    };
    let result = match &cli.command {
        Command::Tokens(args) => tokens::run(args).map(|()| ExitCode::SUCCESS),
        Command::Stats(args) => stats::run(args),
        Command::Links(args) => links::run(args),
        Command::Text(args) => text::run(args),
        Command::Markdown(args) => markdown::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Tree(args) => tree::run(args).map(|()| ExitCode::SUCCESS),
        Command::Select(args) => select::run(args),
    };
    match result {
        Ok(code) => code,
        Err(failure) => failure.report(),
    }
}

/// Help and version go to standard output (exit 0); running with no arguments prints the
/// help on standard error (exit 2); any other argument error becomes one line (exit 2).
fn argument_error(err: &clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // A closed standard output is not worth a message.
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(2)
        }
        _ => {
            let rendered = err.render().to_string();
            let first = rendered
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .unwrap_or("invalid arguments");
            let what = first.strip_prefix("error: ").unwrap_or(first);
            Failure::Usage(format!("{what} (see --help)")).report()
        }
    }
}

/// Writes `htmltok: <message>` to standard error, ignoring a failure to do so.
fn complain(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "htmltok: {message}");
}
