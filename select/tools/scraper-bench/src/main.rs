//! htmltok-select beside scraper (html5ever's tree and the same `selectors` crate) on the
//! corpus, in one run, alternating: parse + `a[href]`'s hrefs, and parse + the issue's ten
//! fields (scraper: ten `select` calls, one per field, as its users write them).
//!
//! ```text
//! cargo run --release --manifest-path select/tools/scraper-bench/Cargo.toml -- [href|fields] [REPS] [CORPUS]
//! ```
//!
//! Prints each one's speed (best of REPS, the two alternated in one run) and the ratio,
//! and the number of results of each. The counts differ a little: scraper parses with
//! html5ever's default scripting flag (on: `<noscript>` content is text), htmltok-tree
//! and lexbor with it off (its content is markup), so scraper finds fewer links.

use std::time::Instant;

use htmltok_select::{Fields, Select as _};

const TEN: [(&str, &str, Option<&str>); 10] = [
    ("title", "title", None),
    ("description", "meta[name=description]", Some("content")),
    ("canonical", "link[rel=canonical]", Some("href")),
    ("robots", "meta[name=robots]", Some("content")),
    ("og_title", "meta[property=\"og:title\"]", Some("content")),
    ("h1", "h1", None),
    ("links", "a[href]", Some("href")),
    ("images", "img[src]", Some("src")),
    ("lang", "html[lang]", Some("lang")),
    ("hreflang", "link[rel=alternate][hreflang]", Some("href")),
];


fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("href", String::as_str).to_owned();
    let reps: usize = args.get(1).map_or(5, |r| r.parse().expect("REPS"));
    let corpus = args.get(2).cloned().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../../shared/corpus").to_owned()
    });
    let docs: Vec<String> = htmltok_test_support::data::html_files(std::path::Path::new(&corpus))
        .iter()
        .map(|path| String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned())
        .collect();
    let bytes: usize = docs.iter().map(String::len).sum();

    let ours_href = htmltok_select::Selector::parse("a[href]").unwrap();
    let theirs_href = scraper::Selector::parse("a[href]").unwrap();
    let ours_fields = Fields::new(TEN.iter().map(|(n, css, attr)| {
        let css = match attr {
            Some(a) => format!("{css}::attr({a})"),
            None => format!("{css}::text"),
        };
        (*n, css)
    }))
    .unwrap();
    let theirs_fields: Vec<(scraper::Selector, Option<&str>)> = TEN
        .iter()
        .map(|(_, css, attr)| (scraper::Selector::parse(css).unwrap(), *attr))
        .collect();

    let ours = |docs: &[String]| -> usize {
        let mut n = 0;
        for d in docs {
            let doc = htmltok_tree::parse(d.as_bytes());
            n += match mode.as_str() {
                "href" => doc.select(&ours_href).filter_map(|a| a.attr("href")).count(),
                _ => ours_fields.extract(&doc).iter().map(Vec::len).sum(),
            };
        }
        n
    };
    let theirs = |docs: &[String]| -> usize {
        let mut n = 0;
        for d in docs {
            let doc = scraper::Html::parse_document(d);
            n += match mode.as_str() {
                "href" => doc
                    .select(&theirs_href)
                    .filter_map(|a| a.value().attr("href"))
                    .count(),
                _ => theirs_fields
                    .iter()
                    .map(|(sel, attr)| match attr {
                        Some(a) => doc.select(sel).filter_map(|e| e.value().attr(a)).count(),
                        None => doc
                            .select(sel)
                            .map(|e| e.children().filter(|c| c.value().is_text()).count())
                            .sum(),
                    })
                    .sum(),
            };
        }
        n
    };
    let (mut best_ours, mut best_theirs) = (f64::MAX, f64::MAX);
    let (mut n_ours, mut n_theirs) = (0, 0);
    for _ in 0..reps {
        let t = Instant::now();
        n_ours = ours(&docs);
        best_ours = best_ours.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        n_theirs = theirs(&docs);
        best_theirs = best_theirs.min(t.elapsed().as_secs_f64());
    }
    let mbs = |s: f64| bytes as f64 / 1e6 / s;
    println!(
        "{mode}: {} pages, {:.1} MB; htmltok {:.1} MB/s ({n_ours} results), scraper {:.1} MB/s \
         ({n_theirs} results): {:.2}x",
        docs.len(),
        bytes as f64 / 1e6,
        mbs(best_ours),
        mbs(best_theirs),
        best_theirs / best_ours
    );
}
