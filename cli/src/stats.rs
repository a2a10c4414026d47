//! `htmltok stats`: tokenize a corpus and count what is in it.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use htmltok::Tokenizer;
use htmltok_crawl::extract::{Stats, TokenCounts};

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

("errors" is null without --errors; "skipped" counts what could not be read,
"skipped_by_reason" by reason; "ignored" counts the archive records that are not HTML
pages, "ignored_by_reason" by reason (request, revisit, not-html, …); "recovered_by_reason"
counts documents read with a note (coding-not-applied, record-cut-off, …), each also
reported on standard error as `note: FILE: offset N: what`; "passed_over_by_reason" counts
the files a folder walk left out: not-html-name, hidden, directory-link.) The run ends
with one `htmltok summary: ...` line on standard error, as every corpus command does. A progress line is drawn on standard error when it
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

/// Token kinds, in the order the report lists them: JSON key, table label, count.
fn kinds(tokens: &TokenCounts) -> [(&'static str, &'static str, u64); 6] {
    [
        ("text", "text runs", tokens.text),
        ("start_tag", "start tags", tokens.start_tag),
        ("end_tag", "end tags", tokens.end_tag),
        ("comment", "comments", tokens.comment),
        ("doctype", "DOCTYPEs", tokens.doctype),
        ("cdata", "(CDATA sections)", tokens.cdata),
    ]
}

/// Entries sorted by count (largest first), then key.
fn by_count<K: Ord + Copy>(map: &HashMap<K, u64>) -> Vec<(K, u64)> {
    Stats::by_count(map)
}

/// The start tag names sorted by count, then name.
fn tags_by_count(stats: &Stats) -> Vec<(&str, u64)> {
    by_count(&stats.tags.iter().map(|(k, n)| (k.as_str(), *n)).collect())
}

/// Runs `htmltok stats`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    let builder = Tokenizer::builder().errors(args.errors);
    let finished = args.corpus.run(
        builder,
        None,
        Arc::new(AtomicBool::new(false)),
        |document| Stats::of(&document),
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
    Ok(finished.exit_code(None))
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
    for (reason, n) in reasons(&result.failures_by_reason()) {
        let _ = writeln!(out, "  {reason:<18}{:>10}", grouped(n));
    }
    if result.ignored > 0 {
        let _ = writeln!(
            out,
            "not documents {:>14}  (archive records that are not HTML pages)",
            grouped(result.ignored)
        );
        for (reason, n) in reasons(&result.skipped) {
            let _ = writeln!(out, "  {reason:<18}{:>10}", grouped(n));
        }
    }
    if !result.recovered.is_empty() {
        let _ = writeln!(
            out,
            "recovered     {:>14}  (records read with a note, by reason)",
            grouped(result.notices.len() as u64)
        );
        for (reason, n) in reasons(&result.recovered) {
            let _ = writeln!(out, "  {reason:<18}{:>10}", grouped(n));
        }
    }
    let passed_over: u64 = result.passed_over.values().sum();
    if passed_over > 0 {
        let _ = writeln!(
            out,
            "passed over   {:>14}  (files a folder walk left out, by reason)",
            grouped(passed_over)
        );
        for (reason, n) in reasons(&result.passed_over) {
            let _ = writeln!(out, "  {reason:<18}{:>10}", grouped(n));
        }
    }
    let _ = writeln!(
        out,
        "bytes         {:>14}  ({:.1} MB)",
        grouped(result.bytes),
        result.bytes as f64 / 1e6
    );
    let _ = writeln!(out, "time          {secs:>14.3}  s wall, {threads} threads");
    let _ = writeln!(out, "throughput    {mb_per_s:>14.1}  MB/s");
    let total = stats.tokens.total();
    let _ = writeln!(out, "\ntokens        {:>14}", grouped(total));
    for (_, label, n) in kinds(&stats.tokens) {
        let _ = writeln!(out, "  {label:<18}{:>10}", grouped(n));
    }
    let tags = tags_by_count(stats);
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

/// Counts by reason, most frequent first, then by reason.
pub(crate) fn reasons(
    map: &std::collections::BTreeMap<&'static str, u64>,
) -> Vec<(&'static str, u64)> {
    let mut counts: Vec<_> = map.iter().map(|(k, n)| (*k, *n)).collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts
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
    for (key, counts) in [
        ("skipped_by_reason", reasons(&result.failures_by_reason())),
        ("ignored_by_reason", reasons(&result.skipped)),
        ("recovered_by_reason", reasons(&result.recovered)),
        ("passed_over_by_reason", reasons(&result.passed_over)),
    ] {
        let _ = write!(out, ",\"{key}\":{{");
        for (i, (reason, n)) in counts.iter().enumerate() {
            let _ = write!(out, "{}\"{reason}\":{n}", if i > 0 { "," } else { "" });
        }
        out.push('}');
    }
    let total = stats.tokens.total();
    let _ = write!(out, ",\"tokens\":{{\"total\":{total}");
    for (key, _, n) in kinds(&stats.tokens) {
        let _ = write!(out, ",\"{key}\":{n}");
    }
    let _ = write!(
        out,
        "}},\"distinct_tags\":{},\"top_tags\":[",
        stats.tags.len()
    );
    let tags = tags_by_count(stats);
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
