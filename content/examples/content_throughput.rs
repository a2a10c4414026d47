//! Time of metadata, visible text and main text beside the parse alone, over every `.html` and `.htm` file
//! under a folder (the shared corpus), one thread: `cargo run --release -p
//! htmltok-content --example content_throughput -- ../shared/corpus`. Files are read as UTF-8
//! (lossily): the point is the walk's cost beside the tree's, not decoding. A second
//! argument, `parse`, `metadata`, `visible`, `markdown`, `main_text` or `main_markdown`, runs that one alone (for instruction counts
//! under `valgrind --tool=callgrind`); `main_text-only=N` parses the pages first and
//! then times main text alone (`main_text::text`, as `Tree.main_text()` from Python), N
//! times over them (for profiles without the parse).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use htmltok_test_support::data::html_files;

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!(
            "usage: throughput DIR [parse|metadata|visible|markdown|main_text|main_markdown|main_text-only=N]"
        );
        return ExitCode::from(2);
    };
    let only = std::env::args().nth(2);
    let runs = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let pages: Vec<String> = html_files(Path::new(&dir))
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    let total: usize = pages.iter().map(String::len).sum();
    let mb = total as f64 / 1e6;
    let time = |name: &str, f: &dyn Fn(&htmltok_tree::Document<'_>) -> usize| {
        let started = Instant::now();
        let mut out = 0;
        for page in &pages {
            let doc = htmltok_tree::parse(page.as_bytes());
            out += f(&doc);
        }
        let s = started.elapsed().as_secs_f64();
        println!("{name:<28} {s:7.3} s {:8.1} MB/s  ({out} out)", mb / s);
    };
    println!("{} pages, {mb:.1} MB", pages.len());
    if runs("parse") {
        time("parse", &|doc| doc.node_count());
    }
    if runs("metadata") {
        time("parse + metadata", &|doc| {
            htmltok_content::metadata(doc, None).open_graph.len()
        });
    }
    if runs("visible") {
        time("parse + visible_text", &|doc| {
            htmltok_content::visible::visible_text(doc, Default::default()).len()
        });
    }
    if runs("markdown") {
        time("parse + markdown", &|doc| {
            htmltok_content::markdown::markdown(doc, &Default::default()).len()
        });
    }
    if runs("main_text") {
        time("parse + main_text", &|doc| {
            htmltok_content::main_text(doc, &Default::default())
                .text
                .len()
        });
    }
    if runs("main_markdown") {
        time("parse + main_text::markdown", &|doc| {
            htmltok_content::main_text::markdown(doc, &Default::default(), &Default::default())
                .len()
        });
    }
    if let Some(repeat) = only
        .as_deref()
        .and_then(|o| o.strip_prefix("main_text-only="))
    {
        // The pages parsed first, then main text alone, `repeat` times over them (for
        // profiles of main text without the parse: `perf record`, callgrind).
        let repeat: usize = repeat.parse().unwrap_or(1);
        let docs: Vec<_> = pages
            .iter()
            .map(|p| htmltok_tree::parse(p.as_bytes()))
            .collect();
        let started = Instant::now();
        let mut out = 0;
        for _ in 0..repeat {
            for doc in &docs {
                out += htmltok_content::main_text::text(doc, &Default::default()).len();
            }
        }
        let s = started.elapsed().as_secs_f64() / repeat as f64;
        println!(
            "{:<28} {s:7.3} s {:8.1} MB/s  ({out} out, {repeat} runs)",
            "main_text alone",
            mb / s
        );
    }
    ExitCode::SUCCESS
}
