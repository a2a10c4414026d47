//! Speed of selection on real pages: the tree alone, the tree and `a[href]`'s hrefs, and
//! the tree and ten fields extracted in one walk (the issue's ten: title, description,
//! canonical, robots, og:title, h1 text, every `a[href]`, every `img[src]`, `html[lang]`,
//! hreflang alternates): `attr` the strings of `a[href]::attr(href)` as `select` gives
//! them from Python (`Matches::next_with_values`), `fields` as owned columns (`Fields::extract`), `fields-each` as
//! the borrowed values `Fields::extract_each` hands out (what Python's `extract` uses).
//!
//! ```text
//! cargo run --release -p htmltok-select --example bench -- [parse|href|attr|fields|fields-each] [REPS] [CORPUS]
//! ```
//!
//! Pages are read as UTF-8 as they are (no decoding), from the shared corpus by default.
//! For instruction counts, run one mode under `valgrind --tool=callgrind` and subtract
//! `parse`'s count from the others': that is the cost of selecting.

use std::time::Instant;

use htmltok_select::{Fields, Select as _, Selector};
use htmltok_test_support::data::{TEN_FIELDS, html_files};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("fields", String::as_str).to_owned();
    let reps: usize = args
        .get(1)
        .map_or(3, |r| r.parse().expect("REPS: a number"));
    let corpus = args.get(2).map_or_else(
        || concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus").to_owned(),
        Clone::clone,
    );
    let docs: Vec<Vec<u8>> = html_files(std::path::Path::new(&corpus))
        .iter()
        .map(|path| std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect();
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let href = Selector::parse("a[href]").unwrap();
    let href_values = Selector::parse("a[href]::attr(href)").unwrap();
    let fields = Fields::new(TEN_FIELDS).unwrap();
    let mut found = 0usize;
    let start = Instant::now();
    for _ in 0..reps {
        for d in &docs {
            let doc = htmltok_tree::parse(d);
            found += match mode.as_str() {
                "parse" => doc.node_count(),
                "href" => doc
                    .select(&href)
                    .filter_map(|a| a.attr("href"))
                    .map(|h| h.len())
                    .sum::<usize>(),
                "attr" => {
                    let (mut matches, mut n) = (doc.select(&href_values), 0);
                    while matches.next_with_values(|h| n += h.len()).is_some() {}
                    n
                }
                "fields" => fields.extract(&doc).iter().map(Vec::len).sum(),
                // The values borrowed where decoding changed nothing (Python's path).
                "fields-each" => {
                    let mut n = 0;
                    fields.extract_each(doc.view(), |_, _| n += 1);
                    n
                }
                other => panic!("unknown mode {other:?}: parse, href, attr, fields or fields-each"),
            };
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{mode}: {} pages, {:.1} MB, {reps} reps: {:.3} s, {:.1} MB/s ({found} results: node count, href bytes or strings)",
        docs.len(),
        bytes as f64 / 1e6,
        secs,
        (bytes * reps) as f64 / 1e6 / secs
    );
}
