//! `htmltok text`: the visible text of each document, as JSON lines.

use std::process::ExitCode;

use htmltok::Tokenizer;
use htmltok_crawl::extract;

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
            let extracted = extract::text_with(&mut document.tokenizer());
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
