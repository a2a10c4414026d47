//! Counts the tokens of each file named on the command line and reports throughput.
//!
//! `cargo run --release --example count_tokens -- [--errors] [--decode] page.html …`
//! (`--errors`: parse errors on; `--decode`: decode every string of every token;
//! `--tape`: build each page's `Tape` and count its records instead; `--stream`: feed
//! each page to a `StreamTokenizer` in 64 KiB chunks; `--repeat=N`: tokenize the pages N
//! times, for profilers.)

use std::time::Instant;

use htmltok::{Token, Tokenizer};
use htmltok_test_support::checks::decoded_len;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let errors = args.iter().any(|a| a == "--errors");
    let decode = args.iter().any(|a| a == "--decode");
    let tape = args.iter().any(|a| a == "--tape");
    let stream = args.iter().any(|a| a == "--stream");
    let repeat: usize = args
        .iter()
        .find_map(|a| a.strip_prefix("--repeat="))
        .map_or(1, |n| n.parse().expect("--repeat=N takes a number"));
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
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
    let bytes: usize = pages.iter().map(Vec::len).sum::<usize>() * repeat;
    let mut counts = [0usize; 5];
    let mut decoded = 0usize;
    let start = Instant::now();
    for page in std::iter::repeat_n(&pages, repeat).flatten() {
        if tape {
            let tape = Tokenizer::builder().errors(errors).tape(page);
            for record in tape.records() {
                counts[usize::from(record.kind)] += 1;
            }
            continue;
        }
        if stream {
            let mut stream = Tokenizer::builder().errors(errors).stream();
            for chunk in page.chunks(64 * 1024).map(Some).chain([None]) {
                match chunk {
                    Some(chunk) => stream.feed(chunk),
                    None => stream.finish(),
                }
                while let Some(token) = stream.next_token() {
                    counts[kind_of(&token)] += 1;
                    if decode {
                        decoded += decoded_len(&token);
                    }
                }
            }
            continue;
        }
        let mut tok = Tokenizer::builder().errors(errors).build(page);
        while let Some(token) = tok.next_token() {
            let kind = kind_of(&token);
            counts[kind] += 1;
            if decode {
                decoded += decoded_len(&token);
            }
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
    if decode {
        println!("{decoded} bytes decoded");
    }
    println!("{:.1} MB/s", bytes as f64 / secs / 1e6);
}

fn kind_of(token: &Token<'_, '_>) -> usize {
    match token {
        Token::Doctype(_) => 0,
        Token::StartTag(_) => 1,
        Token::EndTag(_) => 2,
        Token::Comment(_) => 3,
        Token::Text(_) => 4,
    }
}
