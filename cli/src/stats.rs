//! `htmltok stats`: tokenize a corpus and count what is in it.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use htmltok::{ErrorCode, TextKind, Token, Tokenizer};
use htmltok_crawl::batch::Document;

use crate::json;

use super::Failure;
use super::args::{Corpus, Finished};
use super::output;

const ABOUT: &str = "Tokenize files, directories and WARC files and print statistics";

const LONG_ABOUT: &str = r#"Tokenize every document of the given files, directories (walked recursively) and WARC files, in parallel, and print:

  documents, bytes, wall time and throughput (MB/s, 10^6 bytes per second);
  tokens by kind (text runs, start tags, end tags, comments, DOCTYPEs; CDATA sections
  are text runs and also counted on their own);
  the 20 most frequent start tag names;
  the encodings the documents were decoded from, by the rule that decided (bom: a byte
  order mark; transport: the HTTP charset of a WARC record; meta: the <meta> prescan;
  detector; default: windows-1252 for all-ASCII pages) and by encoding;
  with --errors, parse errors by code.

With --json, one JSON object instead:

  {"documents":191,"skipped":0,"ignored":0,"bytes":59381424,"seconds":0.41,"mb_per_s":144.8,
   "threads":2,"tokens":{"total":..,"text":..,"start_tag":..,"end_tag":..,"comment":..,
   "doctype":..,"cdata":..},"top_tags":[["div",123],...],"encodings":{"by_rule":{..},
   "by_encoding":{..},"with_replacements":N},"errors":{"eof-in-tag":3,...}}

("errors" is null without --errors; "ignored" counts WARC records left out because
their Content-Type is not HTML.) A progress line is drawn on standard error when it
is a terminal. A document that cannot be read (an unreadable file, a broken WARC record,
a truncated gzip member) is reported on standard error with its file and offset and
skipped; the others are still counted, and the exit status is then 1."#;

/// Arguments of `htmltok stats`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    #[command(flatten)]
    corpus: Corpus,

    /// Also count parse errors by code (tokenizes with errors on, which is slower)
    #[arg(long)]
    errors: bool,

    /// Print one JSON object instead of a table
    #[arg(long)]
    json: bool,
}

/// How many start tag names the report lists.
const TOP_TAGS: usize = 20;

/// Token kinds, in the order the report lists them.
const KINDS: [(&str, &str); 6] = [
    ("text", "text runs"),
    ("start_tag", "start tags"),
    ("end_tag", "end tags"),
    ("comment", "comments"),
    ("doctype", "DOCTYPEs"),
    ("cdata", "(CDATA sections)"),
];

/// What one document, or many, hold.
#[derive(Default)]
struct Stats {
    /// Indexed as [`KINDS`].
    tokens: [u64; 6],
    tags: HashMap<String, u64>,
    errors: HashMap<ErrorCode, u64>,
    by_rule: HashMap<&'static str, u64>,
    by_encoding: HashMap<&'static str, u64>,
    with_replacements: u64,
}

impl Stats {
    fn of(document: &Document<'_>, errors: bool) -> Stats {
        let mut stats = Stats::default();
        let mut tokenizer: Tokenizer<'_> = document.tokenizer();
        while let Some(token) = tokenizer.next_token() {
            let kind = match token {
                Token::Text(text) => {
                    if text.kind() == TextKind::Cdata {
                        stats.tokens[5] += 1;
                    }
                    0
                }
                Token::StartTag(tag) => {
                    let name = tag.name();
                    match stats.tags.get_mut(&*name) {
                        Some(count) => *count += 1,
                        None => {
                            stats.tags.insert(name.into_owned(), 1);
                        }
                    }
                    1
                }
                Token::EndTag(_) => 2,
                Token::Comment(_) => 3,
                Token::Doctype(_) => 4,
            };
            stats.tokens[kind] += 1;
            if errors && tokenizer.errors().len() > 4096 {
                stats.count_errors(&tokenizer.take_errors());
            }
        }
        if errors {
            stats.count_errors(tokenizer.errors());
        }
        stats.count_encoding(document);
        stats
    }

    fn count_errors(&mut self, errors: &[htmltok::ParseError]) {
        for error in errors {
            *self.errors.entry(error.code).or_default() += 1;
        }
    }

    fn count_encoding(&mut self, document: &Document<'_>) {
        if let Some(decoded) = document.decoded_as() {
            *self.by_rule.entry(decoded.rule.as_str()).or_default() += 1;
            *self.by_encoding.entry(decoded.encoding.name()).or_default() += 1;
            self.with_replacements += decoded.had_replacements as u64;
        }
    }

    fn merge(mut self, mut other: Stats) -> Stats {
        if self.tags.len() < other.tags.len() {
            std::mem::swap(&mut self.tags, &mut other.tags);
        }
        for (i, n) in other.tokens.iter().enumerate() {
            self.tokens[i] += n;
        }
        for (name, n) in other.tags {
            *self.tags.entry(name).or_default() += n;
        }
        for (code, n) in other.errors {
            *self.errors.entry(code).or_default() += n;
        }
        for (rule, n) in other.by_rule {
            *self.by_rule.entry(rule).or_default() += n;
        }
        for (encoding, n) in other.by_encoding {
            *self.by_encoding.entry(encoding).or_default() += n;
        }
        self.with_replacements += other.with_replacements;
        self
    }
}

/// Entries sorted by count (largest first), then key.
fn by_count<K: Ord + Copy>(map: &HashMap<K, u64>) -> Vec<(K, u64)> {
    let mut entries: Vec<(K, u64)> = map.iter().map(|(k, n)| (*k, *n)).collect();
    entries.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    entries
}

/// Runs `htmltok stats`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    let builder = Tokenizer::builder().errors(args.errors);
    let finished = args.corpus.run(
        builder,
        Arc::new(AtomicBool::new(false)),
        |document| Stats::of(&document, args.errors),
        Stats::merge,
        Stats::default,
    )?;
    let threads = finished.result.threads;
    let report = if args.json {
        json_report(&finished, args.errors, threads)
    } else {
        table(&finished, args.errors, threads)
    };
    let mut out = output::stdout();
    out.write_all(report.as_bytes())?;
    out.flush()?;
    Ok(finished.exit_code())
}

fn throughput(finished: &Finished<Stats>) -> (f64, f64) {
    let secs = finished.elapsed.as_secs_f64();
    let mb_per_s = finished.result.bytes as f64 / 1e6 / secs.max(1e-9);
    (secs, mb_per_s)
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn table(finished: &Finished<Stats>, errors: bool, threads: usize) -> String {
    let result = &finished.result;
    let stats = &result.value;
    let (secs, mb_per_s) = throughput(finished);
    let mut out = String::new();
    let _ = writeln!(out, "documents     {:>14}", grouped(result.documents));
    let _ = writeln!(
        out,
        "skipped       {:>14}",
        grouped(result.failures.len() as u64)
    );
    if result.ignored > 0 {
        let _ = writeln!(
            out,
            "not HTML      {:>14}  (WARC records left out)",
            grouped(result.ignored)
        );
    }
    let _ = writeln!(
        out,
        "bytes         {:>14}  ({:.1} MB)",
        grouped(result.bytes),
        result.bytes as f64 / 1e6
    );
    let _ = writeln!(out, "time          {secs:>14.3}  s wall, {threads} threads");
    let _ = writeln!(out, "throughput    {mb_per_s:>14.1}  MB/s");
    let total: u64 = stats.tokens[..5].iter().sum();
    let _ = writeln!(out, "\ntokens        {:>14}", grouped(total));
    for (i, (_, label)) in KINDS.iter().enumerate() {
        let _ = writeln!(out, "  {label:<18}{:>10}", grouped(stats.tokens[i]));
    }
    let tags = by_count(&stats.tags.iter().map(|(k, n)| (k.as_str(), *n)).collect());
    let _ = writeln!(
        out,
        "\ntop start tags ({} distinct names)",
        grouped(stats.tags.len() as u64)
    );
    for (name, n) in tags.iter().take(TOP_TAGS) {
        let _ = writeln!(out, "  {:<18}{:>10}", printable(name), grouped(*n));
    }
    let decoded: u64 = stats.by_rule.values().sum();
    if decoded > 0 {
        let _ = writeln!(out, "\nencodings by rule");
        for (rule, n) in by_count(&stats.by_rule) {
            let _ = writeln!(out, "  {rule:<18}{:>10}", grouped(n));
        }
        let _ = writeln!(out, "\nencodings");
        for (encoding, n) in by_count(&stats.by_encoding) {
            let _ = writeln!(out, "  {encoding:<18}{:>10}", grouped(n));
        }
        let _ = writeln!(
            out,
            "  {:<18}{:>10}",
            "(with U+FFFD)",
            grouped(stats.with_replacements)
        );
    }
    if errors {
        let total: u64 = stats.errors.values().sum();
        let _ = writeln!(out, "\nparse errors  {:>14}", grouped(total));
        for (code, n) in by_count(&stats.errors) {
            let _ = writeln!(out, "  {:<44}{:>10}", code.as_str(), grouped(n));
        }
    }
    out
}

/// A tag name fit for a table cell: control characters and spaces escaped.
fn printable(name: &str) -> String {
    name.chars()
        .flat_map(char::escape_default)
        .collect::<String>()
}

fn json_report(finished: &Finished<Stats>, errors: bool, threads: usize) -> String {
    let result = &finished.result;
    let stats = &result.value;
    let (secs, mb_per_s) = throughput(finished);
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\"documents\":{},\"skipped\":{},\"ignored\":{},\"bytes\":{},\"seconds\":{:.6},\"mb_per_s\":{:.3},\"threads\":{}",
        result.documents,
        result.failures.len(),
        result.ignored,
        result.bytes,
        secs,
        mb_per_s,
        threads
    );
    let total: u64 = stats.tokens[..5].iter().sum();
    let _ = write!(out, ",\"tokens\":{{\"total\":{total}");
    for (i, (key, _)) in KINDS.iter().enumerate() {
        let _ = write!(out, ",\"{key}\":{}", stats.tokens[i]);
    }
    let _ = write!(
        out,
        "}},\"distinct_tags\":{},\"top_tags\":[",
        stats.tags.len()
    );
    let tags = by_count(&stats.tags.iter().map(|(k, n)| (k.as_str(), *n)).collect());
    for (i, (name, n)) in tags.iter().take(TOP_TAGS).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        json::write_str(&mut out, name);
        let _ = write!(out, ",{n}]");
    }
    out.push_str("],\"encodings\":{\"by_rule\":");
    write_counts(&mut out, &by_count(&stats.by_rule));
    out.push_str(",\"by_encoding\":");
    write_counts(&mut out, &by_count(&stats.by_encoding));
    let _ = write!(
        out,
        ",\"with_replacements\":{}}},\"errors\":",
        stats.with_replacements
    );
    if errors {
        let codes: Vec<(&str, u64)> = by_count(&stats.errors)
            .into_iter()
            .map(|(code, n)| (code.as_str(), n))
            .collect();
        write_counts(&mut out, &codes);
    } else {
        out.push_str("null");
    }
    out.push_str("}\n");
    out
}

/// `{"key":n,...}` in the given order.
fn write_counts(out: &mut String, counts: &[(&str, u64)]) {
    out.push('{');
    for (i, (key, n)) in counts.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json::write_str(out, key);
        let _ = write!(out, ":{n}");
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_digits() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
    }
}
