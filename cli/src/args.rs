//! Arguments shared by the subcommands that tokenize a document.

use std::io::{BufWriter, IsTerminal as _, Read as _, Stdout, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use htmltok::{Builder, State, Tokenizer};
use htmltok_crawl::batch::{self, BatchResult, Document, Source};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Failure;

/// The document to read.
#[derive(Args, Debug)]
pub struct Input {
    /// The HTML file to read; `-` or nothing reads standard input (nothing only when it is
    /// not a terminal). The bytes are taken as UTF-8 (invalid sequences decode to U+FFFD)
    /// and never re-encoded.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

impl Input {
    /// Reads the whole document.
    pub fn read(&self) -> Result<Vec<u8>, Failure> {
        match &self.file {
            Some(path) if path.as_os_str() != "-" => {
                std::fs::read(path).map_err(|error| Failure::Read {
                    path: Some(path.clone()),
                    error,
                })
            }
            None if std::io::stdin().is_terminal() => Err(Failure::NoInput),
            _ => read_stdin(),
        }
    }
}

impl Input {
    /// Opens the document for reading as a stream (a file, or standard input).
    pub fn open(&self) -> Result<Box<dyn std::io::Read>, Failure> {
        match &self.file {
            Some(path) if path.as_os_str() != "-" => match std::fs::File::open(path) {
                Ok(file) => Ok(Box::new(file)),
                Err(error) => Err(Failure::Read {
                    path: Some(path.clone()),
                    error,
                }),
            },
            None if std::io::stdin().is_terminal() => Err(Failure::NoInput),
            _ => Ok(Box::new(std::io::stdin().lock())),
        }
    }

    /// The path being read, for messages (None: standard input).
    pub fn path(&self) -> Option<PathBuf> {
        self.file.clone().filter(|p| p.as_os_str() != "-")
    }

    /// What the document's first bytes say it is ([`htmltok_crawl::sniff`], the decision
    /// every front makes): Ok for HTML, else the failure that refuses it, unless `force`.
    /// `command` names the subcommand in the message.
    pub fn check_html(&self, head: &[u8], force: bool, command: &str) -> Result<(), Failure> {
        use htmltok_crawl::sniff::{InputKind, sniff};
        let what = match sniff(head) {
            InputKind::Html => return Ok(()),
            _ if force => return Ok(()),
            InputKind::Archive => format!(
                "a WARC or ARC archive; `htmltok {command}` reads one document (stats, links, \
                 text, extract and select read archives)"
            ),
            InputKind::NotHtml(what) => {
                format!("{what} (--force-html reads it as HTML all the same)")
            }
        };
        Err(Failure::NotHtml {
            path: self.path(),
            what,
        })
    }
}

/// Reads all of standard input.
fn read_stdin() -> Result<Vec<u8>, Failure> {
    read_stdin_up_to(u64::MAX)
}

/// Reads standard input, but no more than `limit` bytes past which nothing is wanted (a
/// document over the corpus commands' size limit is reported, not held).
fn read_stdin_up_to(limit: u64) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(|error| Failure::Read { path: None, error })?;
    Ok(bytes)
}

const STATE_NAMES: [&str; 6] = [
    "Data state",
    "PLAINTEXT state",
    "RCDATA state",
    "RAWTEXT state",
    "Script data state",
    "CDATA section state",
];

/// Parses a state named as the html5lib tests name it.
fn parse_state(name: &str) -> Result<State, String> {
    State::from_html5lib_name(name).ok_or_else(|| {
        let names: Vec<String> = STATE_NAMES.iter().map(|n| format!("'{n}'")).collect();
        format!("unknown state; expected one of {}", names.join(", "))
    })
}

/// How the tokenizer runs.
#[derive(Args, Debug)]
pub struct TokenizerOptions {
    /// Do not simulate the tree builder: stay in the data state after <script>, <style>,
    /// <title>, <textarea>, <plaintext> and friends, and never open CDATA sections
    #[arg(long)]
    pub no_simulation: bool,

    /// Simulate a browser with scripting disabled: <noscript> content is markup, not
    /// RAWTEXT
    #[arg(long)]
    pub no_scripting: bool,

    /// The state to start in, named as the html5lib tests name it: 'Data state' (the
    /// default), 'PLAINTEXT state', 'RCDATA state', 'RAWTEXT state', 'Script data state',
    /// 'CDATA section state'
    #[arg(long, value_name = "STATE", value_parser = parse_state)]
    pub state: Option<State>,

    /// The last start tag emitted before the input (decides which end tag closes RCDATA,
    /// RAWTEXT or script data when starting in those states)
    #[arg(long, value_name = "NAME")]
    pub last_start_tag: Option<String>,

    /// Keep a UTF-8 byte order mark at the start of the input as text; by default it is
    /// skipped, as a browser's decoder skips it (tokens then start at offset 3)
    #[arg(long)]
    pub keep_bom: bool,
}

impl TokenizerOptions {
    /// A builder with these options (errors off).
    pub fn builder(&self) -> Builder {
        let mut builder = Tokenizer::builder()
            .simulation(!self.no_simulation)
            .scripting(!self.no_scripting)
            .state(self.state.unwrap_or(State::Data))
            .keep_bom(self.keep_bom);
        if let Some(name) = &self.last_start_tag {
            builder = builder.last_start_tag(name);
        }
        builder
    }
}

/// The documents a corpus subcommand (`stats`, `links`, `text`) reads, and how.
#[derive(Args, Debug)]
pub struct Corpus {
    /// HTML files, directories (walked recursively for .html, .htm, .xhtml, .xht, .shtml,
    /// .warc, .warc.gz, .warc.zst, .warc.lz4, .arc and .arc.gz files) and WARC or ARC
    /// files (every HTML response record is a document; a named file is told by its
    /// first bytes, whatever its name); `-` reads one document from standard input
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,

    /// Worker threads (default: one per core). With -j 1 the documents come in the
    /// order of the paths and of the directory walk (names in byte order)
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub threads: usize,

    /// In directories, read every file as HTML, not only the ones with an HTML (or WARC)
    /// extension
    #[arg(long)]
    pub all_files: bool,

    /// In WARC files, read every response and resource record, not only the ones whose
    /// Content-Type is HTML, XML or missing
    #[arg(long)]
    pub all_records: bool,

    /// Do not decode documents to UTF-8 by the WHATWG encoding rules (byte order mark,
    /// HTTP charset of a WARC record, <meta> prescan, detector): read the bytes as UTF-8
    #[arg(long)]
    pub no_decode: bool,

    /// Skip documents larger than this (a file, a WARC record, standard input), with a
    /// message naming them; the run goes on. Bytes, or with a K, M or G suffix (powers of
    /// 1024)
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = parse_size)]
    pub max_document_size: u64,
}

/// A size in bytes: digits with an optional K, M or G suffix (powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last() {
        Some((i, 'k' | 'K')) => (&text[..i], 10),
        Some((i, 'm' | 'M')) => (&text[..i], 20),
        Some((i, 'g' | 'G')) => (&text[..i], 30),
        _ => (text, 0),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("'{text}' is not a size (bytes, or a number with K, M or G)"))
}

/// A finished corpus run.
pub struct Finished<T> {
    pub result: BatchResult<T>,
    /// Wall time of the whole batch.
    pub elapsed: Duration,
}

/// What a corpus command wrote, for its summary line.
pub struct Written<'a> {
    /// How many rows (lines, records) it wrote.
    pub rows: u64,
    /// What a row is, one and many: `("row", "rows")`, `("link", "links")`.
    pub noun: (&'a str, &'a str),
    /// Where: a file, or None for standard output.
    pub to: Option<&'a std::path::Path>,
}

impl<T> Finished<T> {
    /// Ends the run: the summary line on standard error ([`Finished::summary`]), then exit
    /// status 0, or 1 when anything could not be read (each was reported as it happened).
    pub fn exit_code(&self, written: Option<Written<'_>>) -> ExitCode {
        let _ = writeln!(std::io::stderr().lock(), "{}", self.summary(written));
        if self.result.failures.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }

    /// The run in one line, `htmltok summary: ...` (an error line reads `htmltok: ...`):
    /// documents, what was written and where, then the counts by reason of archive records
    /// that are not documents, of documents read with a note, of what could not be read
    /// (a damaged archive counts its records, not the file), and of files a folder walk
    /// passed over.
    pub fn summary(&self, written: Option<Written<'_>>) -> String {
        let result = &self.result;
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut parts = vec![plural(result.documents, "document", "documents")];
        if let Some(written) = written {
            let to = match written.to {
                Some(path) => path.display().to_string(),
                None => "standard output".to_string(),
            };
            let (one, many) = written.noun;
            parts.push(format!(
                "{} written to {to}",
                plural(written.rows, one, many)
            ));
        }
        let by_reason = |counts: &std::collections::BTreeMap<&'static str, u64>| {
            let mut listed = String::new();
            for (reason, n) in crate::stats::reasons(counts) {
                listed.push_str(&format!(" {reason}={n}"));
            }
            listed
        };
        let failures = result.failures_by_reason();
        for (group, counts, after) in [
            ("not documents", &result.skipped, ""),
            ("recovered", &result.recovered, ""),
            ("not read", &failures, " (each named above)"),
            (
                "passed over in folders",
                &result.passed_over,
                if result.passed_over.contains_key("not-html-name") {
                    " (--all-files reads files of any name)"
                } else {
                    ""
                },
            ),
        ] {
            if counts.values().any(|&n| n > 0) {
                parts.push(format!("{group}{}{after}", by_reason(counts)));
            }
        }
        format!("htmltok summary: {}", parts.join("; "))
    }
}

impl Corpus {
    /// Runs `map` over every document in parallel and reduces the values; failures are
    /// reported on standard error as they happen (`htmltok: FILE: offset N: what`) and
    /// skipped. A progress line is drawn on standard error when it is a terminal.
    /// `stop` ends the batch early (set it when the output cannot be written). With `tree`,
    /// each document's tree is parsed with it as the document is decoded
    /// (`Document::tree`; the encoding's late `<meta>` then decided by the tree builder).
    pub fn run<T, M, R, Z>(
        &self,
        tokenizer: Builder,
        tree: Option<htmltok_tree::Parser>,
        stop: Arc<AtomicBool>,
        map: M,
        reduce: R,
        identity: Z,
    ) -> Result<Finished<T>, Failure>
    where
        T: Send,
        M: Fn(Document<'_>) -> T + Sync,
        R: Fn(T, T) -> T + Sync,
        Z: Fn() -> T + Sync,
    {
        let mut sources = Vec::with_capacity(self.paths.len());
        for path in &self.paths {
            if path.as_os_str() == "-" {
                // One byte past the limit is enough for the batch to report it as too large.
                let limit = self.max_document_size.saturating_add(1);
                sources.push(Source::bytes("-", read_stdin_up_to(limit)?));
            } else {
                sources.push(Source::Path(path.clone()));
            }
        }
        let progress = Progress::new();
        let reporter = progress.bar.clone();
        let options = batch::Options::new()
            .threads(self.threads)
            .all_files(self.all_files)
            .all_records(self.all_records)
            .decode(!self.no_decode)
            .max_document_size(self.max_document_size)
            .tokenizer(tokenizer)
            .tree(tree)
            .stop_flag(stop)
            .on_failure(move |failure| {
                reporter.suspend(|| super::complain(&failure.to_string()));
            })
            .on_notice({
                let reporter = progress.bar.clone();
                move |notice| {
                    reporter.suspend(|| super::complain(&format!("note: {notice}")));
                }
            });
        let started = Instant::now();
        let result = batch::map_reduce(
            sources,
            &options,
            |document| {
                let bytes = document.raw().len() as u64;
                let value = map(document);
                progress.done(bytes);
                value
            },
            reduce,
            identity,
        );
        let elapsed = started.elapsed();
        progress.bar.finish_and_clear();
        Ok(Finished { result, elapsed })
    }

    /// Runs `lines` over every document in parallel ([`Corpus::run`]) and writes what it
    /// gives for each to standard output, one document's lines at a time; then ends the
    /// run with the summary line, which counts the rows as `noun`
    /// ([`Finished::exit_code`]). `lines` gives a document's lines (each ending in its
    /// newline) and how many rows they are.
    pub fn print_lines<M>(
        &self,
        tokenizer: Builder,
        tree: Option<htmltok_tree::Parser>,
        noun: (&str, &str),
        lines: M,
    ) -> Result<ExitCode, Failure>
    where
        M: Fn(Document<'_>) -> (String, u64) + Sync,
    {
        let out = SharedOut::new();
        let finished = self.run(
            tokenizer,
            tree,
            out.stop_flag(),
            |document| {
                let (lines, rows) = lines(document);
                out.write(lines.as_bytes());
                rows
            },
            |a, b| a + b,
            || 0,
        )?;
        out.finish()?;
        Ok(finished.exit_code(Some(Written {
            rows: finished.result.value,
            noun,
            to: None,
        })))
    }
}

/// The progress line on standard error (hidden unless it is a terminal).
struct Progress {
    bar: ProgressBar,
    bytes: AtomicU64,
    started: Instant,
}

impl Progress {
    fn new() -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("{spinner} {pos} documents, {msg} [{elapsed}]")
            {
                bar.set_style(style);
            }
            bar.set_message("0.0 MB");
            bar.enable_steady_tick(Duration::from_millis(150));
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress {
            bar,
            bytes: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    /// One more document of `bytes` bytes is done.
    fn done(&self, bytes: u64) {
        if self.bar.is_hidden() {
            return;
        }
        let total = self.bytes.fetch_add(bytes, Ordering::Relaxed) + bytes;
        let secs = self.started.elapsed().as_secs_f64().max(1e-9);
        self.bar.inc(1);
        self.bar.set_message(format!(
            "{:.1} MB, {:.1} MB/s",
            total as f64 / 1e6,
            total as f64 / 1e6 / secs
        ));
    }
}

/// Standard output shared by worker threads: each writes whole documents' worth of
/// lines under a lock. The first write error is kept and stops the batch.
pub struct SharedOut {
    out: Mutex<BufWriter<Stdout>>,
    error: Mutex<Option<std::io::Error>>,
    stop: Arc<AtomicBool>,
}

impl SharedOut {
    pub fn new() -> SharedOut {
        SharedOut {
            out: Mutex::new(BufWriter::with_capacity(64 * 1024, std::io::stdout())),
            error: Mutex::new(None),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The flag that is set when writing fails.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Writes `bytes` (nothing once a write has failed).
    pub fn write(&self, bytes: &[u8]) {
        if bytes.is_empty() || self.stop.load(Ordering::Relaxed) {
            return;
        }
        let result = match self.out.lock() {
            Ok(mut out) => out.write_all(bytes),
            Err(_) => return,
        };
        if let Err(err) = result {
            self.fail(err);
        }
    }

    fn fail(&self, err: std::io::Error) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = self.error.lock() {
            slot.get_or_insert(err);
        }
    }

    /// Flushes the output; the first write error, if any.
    pub fn finish(self) -> Result<(), Failure> {
        let flushed = match self.out.into_inner() {
            Ok(mut out) => out.flush(),
            Err(_) => Ok(()),
        };
        let first = self.error.into_inner().ok().flatten();
        match (first, flushed) {
            (Some(err), _) | (None, Err(err)) => Err(Failure::Output(err)),
            (None, Ok(())) => Ok(()),
        }
    }
}
