//! Parse throughput over a folder of `.html` files (searched recursively), beside the
//! tokenizer alone on the same bytes, in one run:
//!
//! ```sh
//! cargo run --release -p htmltok-tree --example throughput -- ../shared/corpus [rounds]
//! ```
//!
//! Prints MB/s, best of the rounds, for the tokenizer alone twice — spans only (the crate's
//! default builder, as `count_tokens` runs it: tokens found and counted, nothing decoded)
//! and decoded (simulation off, every token's text and attributes decoded) — and for
//! `htmltok_tree::parse`, the tree's ratio to each, the DOM's size beside
//! the input (`Document::heap_bytes`: the nodes and records the documents have), and on
//! Linux the resident memory and address space that keeping every tree at once adds.

use std::path::Path;
use std::time::{Duration, Instant};

use htmltok_test_support::data::html_files;

fn tokenize_all(input: &[u8]) -> usize {
    let mut tok = htmltok::Tokenizer::builder().simulation(false).build(input);
    let mut n = 0;
    while let Some(t) = tok.next_token() {
        n += match t {
            htmltok::Token::Text(t) => t.text().len(),
            htmltok::Token::StartTag(t) | htmltok::Token::EndTag(t) => {
                t.name().len() + t.attrs().map(|a| a.value().len()).sum::<usize>()
            }
            htmltok::Token::Comment(c) => c.data().len(),
            htmltok::Token::Doctype(_) => 1,
        };
    }
    n
}

/// The tokenizer as `count_tokens` runs it (the crate's default builder): every token
/// found and its kind counted, nothing decoded. Issue #25's "tokenizer alone (spans)".
fn count_spans(input: &[u8]) -> usize {
    let mut tok = htmltok::Tokenizer::builder().build(input);
    let mut n = 0;
    while let Some(t) = tok.next_token() {
        n += match t {
            htmltok::Token::Text(_) => 1,
            htmltok::Token::StartTag(_) => 2,
            htmltok::Token::EndTag(_) => 3,
            htmltok::Token::Comment(_) => 4,
            htmltok::Token::Doctype(_) => 5,
        };
    }
    n
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "../shared/corpus".to_owned());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    // `tree`, `tokens` or `spans` as a third argument: only that loop, and no DOM
    // statistics (for counting instructions under callgrind, one loop at a time).
    // `tree-str`: the tree loop with each page that is valid UTF-8 given as a `&str`
    // (`Parser::parse_str`, checked before the loop), as decoded text is parsed.
    let only = args.next();
    let as_str = only.as_deref() == Some("tree-str");
    let only_tree = only.as_deref() == Some("tree") || as_str;
    let only_tokens = only.as_deref() == Some("tokens");
    let only_spans = only.as_deref() == Some("spans");
    let files = html_files(Path::new(&dir));
    let docs: Vec<Vec<u8>> = files
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let texts: Vec<Option<&str>> = docs
        .iter()
        .map(|d| as_str.then(|| std::str::from_utf8(d).ok()).flatten())
        .collect();
    let parser = htmltok_tree::Parser::new();
    let bytes: usize = docs.iter().map(Vec::len).sum();
    println!(
        "{} files, {:.1} MB, {rounds} rounds",
        docs.len(),
        bytes as f64 / 1e6
    );

    let mbs = |d: Duration| bytes as f64 / 1e6 / d.as_secs_f64();
    let mut best_tok = Duration::MAX;
    let mut best_tree = Duration::MAX;
    let mut best_spans = Duration::MAX;
    let mut sink = 0usize;
    // One timed pass over every page; `best` keeps the fastest pass of the rounds.
    let mut pass = |best: &mut Duration, each: &mut dyn FnMut(usize) -> usize| {
        let t = Instant::now();
        for i in 0..docs.len() {
            sink = sink.wrapping_add(each(i));
        }
        *best = (*best).min(t.elapsed());
    };
    for _ in 0..rounds {
        if !only_tree && !only_tokens {
            pass(&mut best_spans, &mut |i| count_spans(&docs[i]));
        }
        if only_spans {
            continue;
        }
        if !only_tree {
            pass(&mut best_tok, &mut |i| tokenize_all(&docs[i]));
        }
        if only_tokens {
            continue;
        }
        pass(&mut best_tree, &mut |i| match texts[i] {
            Some(text) => parser.parse_str(text).node_count(),
            None => parser.parse(&docs[i]).node_count(),
        });
    }
    if only_spans {
        println!("tokenizer alone (spans):   {:8.1} MB/s", mbs(best_spans));
        std::hint::black_box(sink);
        return;
    }
    if only_tokens {
        println!("tokenizer alone (decoded): {:8.1} MB/s", mbs(best_tok));
        std::hint::black_box(sink);
        return;
    }
    if !only_tree {
        println!("tokenizer alone (spans):   {:8.1} MB/s", mbs(best_spans));
        println!("tokenizer alone (decoded): {:8.1} MB/s", mbs(best_tok));
    }
    println!("parse to a DOM:            {:8.1} MB/s", mbs(best_tree));
    if only_tree {
        std::hint::black_box(sink);
        return;
    }
    println!(
        "tree / tokenizer:          {:8.2}x (decoded), {:.2}x (spans)",
        best_tok.as_secs_f64() / best_tree.as_secs_f64(),
        best_spans.as_secs_f64() / best_tree.as_secs_f64()
    );

    let (mut nodes, mut attrs, mut heap, mut in_order) = (0usize, 0usize, 0usize, 0usize);
    for d in &docs {
        let doc = htmltok_tree::parse(d);
        nodes += doc.node_count();
        in_order += usize::from(doc.in_tree_order());
        attrs += doc
            .root()
            .descendants()
            .map(|n| n.attrs().len())
            .sum::<usize>();
        heap += doc.heap_bytes();
    }
    println!(
        "DOM: {nodes} nodes, {attrs} attributes, {:.1} MB beside the input: {:.2}x the input",
        heap as f64 / 1e6,
        heap as f64 / bytes as f64
    );
    // Selectors scan the arena instead of walking the links on these
    // (`Document::in_tree_order`).
    println!("arena in tree order: {in_order} of {} pages", docs.len());
    // What the process holds with every document's tree kept at once (Linux): the
    // resident memory the trees added, and the address space, which counts the arena's
    // untouched reservation too.
    if let (Some(rss0), Some(vm0)) = (status_kib("VmRSS"), status_kib("VmSize")) {
        let kept: Vec<_> = docs.iter().map(|d| htmltok_tree::parse(d)).collect();
        if let (Some(rss1), Some(vm1)) = (status_kib("VmRSS"), status_kib("VmSize")) {
            let grew = |a: u64, b: u64| b.saturating_sub(a) as f64 * 1024.0;
            println!(
                "all {} trees kept: resident +{:.1} MB ({:.2}x the input), address space +{:.1} MB",
                kept.len(),
                grew(rss0, rss1) / 1e6,
                grew(rss0, rss1) / bytes as f64,
                grew(vm0, vm1) / 1e6
            );
        }
    }
    std::hint::black_box(sink);
}

/// A `/proc/self/status` figure in KiB (None off Linux).
fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
