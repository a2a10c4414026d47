//! Counts the tokens of each file named on the command line and reports throughput.
//!
//! `cargo run --release --example count_tokens -- page.html other.html`

use std::time::Instant;

use htmltok::{Token, Tokenizer};

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: count_tokens FILE...");
        std::process::exit(2);
    }
    let mut pages = Vec::new();
    for path in &paths {
        match std::fs::read(path) {
            Ok(bytes) => pages.push(bytes),
            Err(e) => eprintln!("skipping {path}: {e}"),
        }
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mut counts = [0usize; 5];
    let start = Instant::now();
    for page in &pages {
        let mut tok = Tokenizer::new(page);
        while let Some(token) = tok.next_token() {
            let kind = match token {
                Token::Doctype(_) => 0,
                Token::StartTag(_) => 1,
                Token::EndTag(_) => 2,
                Token::Comment(_) => 3,
                Token::Text(_) => 4,
            };
            counts[kind] += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} files, {bytes} bytes: {} doctypes, {} start tags, {} end tags, {} comments, {} texts",
        pages.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4]
    );
    println!("{:.1} MB/s", bytes as f64 / secs / 1e6);
}
