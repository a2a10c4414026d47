//! rs-trafilatura's main text, title, author and date of each page given, one JSON line a
//! page, for content/eval/evaluate.py (the `rs-trafilatura` extractor).
//!
//! ```text
//! rs-trafilatura-bench [--list FILE] [PAGE...]
//! ```
//!
//! Each PAGE is a path to an HTML file, gzipped when its name ends in `.gz`; `--list FILE`
//! reads more paths from FILE, one a line (`-` for standard input). For each page, in
//! order, it prints
//! `{"path", "text", "title", "author", "date", "confidence", "seconds", "error"}`:
//! `text` is rs-trafilatura's `content_text` (comments, which it gives apart, left out),
//! `date` RFC 3339, `confidence` its `extraction_quality` (its own estimate of the page's
//! F1), `seconds` the time of `extract_bytes` alone (the file read and decompressed
//! before the clock starts), `error` null or why the page gave nothing (an `Err` or a
//! panic of the library; the page then scores as empty).
//!
//! rs-trafilatura is called as a crawler has the page: `extract_bytes` (its encoding
//! detection, then `extract` with the default `Options`), no URL.

use std::fs;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

use flate2::read::MultiGzDecoder;
use serde_json::{Value, json};

fn read_page(path: &str) -> io::Result<Vec<u8>> {
    let data = fs::read(path)?;
    if !path.ends_with(".gz") {
        return Ok(data);
    }
    let mut html = Vec::new();
    MultiGzDecoder::new(&data[..]).read_to_end(&mut html)?;
    Ok(html)
}

fn page(path: &str) -> Value {
    let html = match read_page(path) {
        Ok(html) => html,
        Err(err) => {
            return json!({"path": path, "text": "", "title": null, "author": null, "date": null,
                          "confidence": null, "seconds": 0.0, "error": format!("read: {err}")});
        }
    };
    let started = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| rs_trafilatura::extract_bytes(&html)));
    let seconds = started.elapsed().as_secs_f64();
    match result {
        Ok(Ok(r)) => json!({
            "path": path,
            "text": r.content_text,
            "title": r.metadata.title,
            "author": r.metadata.author,
            "date": r.metadata.date.map(|d| d.to_rfc3339()),
            "confidence": r.extraction_quality,
            "seconds": seconds,
            "error": null,
        }),
        Ok(Err(err)) => {
            json!({"path": path, "text": "", "title": null, "author": null, "date": null,
                               "confidence": null, "seconds": seconds, "error": err.to_string()})
        }
        Err(_) => json!({"path": path, "text": "", "title": null, "author": null, "date": null,
                         "confidence": null, "seconds": seconds, "error": "panic"}),
    }
}

fn main() -> ExitCode {
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--list" {
            let Some(list) = args.next() else {
                eprintln!("--list needs a file (- for standard input)");
                return ExitCode::from(2);
            };
            let reader: Box<dyn BufRead> = if list == "-" {
                Box::new(BufReader::new(io::stdin()))
            } else {
                match fs::File::open(&list) {
                    Ok(file) => Box::new(BufReader::new(file)),
                    Err(err) => {
                        eprintln!("{list}: {err}");
                        return ExitCode::from(2);
                    }
                }
            };
            for line in reader.lines() {
                match line {
                    Ok(line) if !line.trim().is_empty() => paths.push(line.trim().to_owned()),
                    Ok(_) => {}
                    Err(err) => {
                        eprintln!("{list}: {err}");
                        return ExitCode::from(2);
                    }
                }
            }
        } else {
            paths.push(arg);
        }
    }
    // The library's panics are caught and reported per page; keep them off stderr.
    panic::set_hook(Box::new(|_| {}));
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for path in &paths {
        if writeln!(out, "{}", page(path))
            .and_then(|()| out.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
