//! The shapes that could make main text or Markdown slow, each timed (release build):
//!
//! ```sh
//! cargo run --release -p htmltok-content --example main_text_hostile [n] [--check]
//! ```
//!
//! 1 M nested `<div>`, and n (default 100,000) of each: sibling paragraphs of one shape
//! (the cards of a grid), siblings of as many shapes, nested lists, table cells, links in
//! one paragraph, headings, `noscript` blocks, JSON-LD comments, nested block quotes,
//! emphasis and links that blocks interrupt, nested tables, wide spans, nested `pre` and
//! `code`. `main_text()` (the block walk, the model, the page kind, JSON-LD) and the
//! page's Markdown (`markdown::markdown`) run on each; the time per unit is printed, and
//! with `--check` the run fails when either takes over 20 µs a unit on a shape (linear
//! runs take a few on a loaded machine; a quadratic one thousands). The parse is not
//! counted (the tree's own example times it).

use std::time::Instant;

/// The `--check` bound, in nanoseconds of main-text time per unit.
const BOUND_NS: f64 = 20_000.0;

/// Main text and Markdown of one shape; the larger of their times per unit in ns.
fn time(name: &str, units: usize, html: String) -> f64 {
    let doc = htmltok_tree::parse(html.as_bytes());
    let t = Instant::now();
    let main = htmltok_content::main_text(&doc, &Default::default());
    let took = t.elapsed();
    let per_unit = took.as_secs_f64() * 1e9 / units as f64;
    let t = Instant::now();
    let md = htmltok_content::markdown::markdown(&doc, &Default::default());
    let md_took = t.elapsed();
    let md_per_unit = md_took.as_secs_f64() * 1e9 / units as f64;
    println!(
        "{name:<28} {units:>8} units  main text {:>8.1} ms ({per_unit:>6.0} ns/unit)  \
         markdown {:>8.1} ms ({md_per_unit:>6.0} ns/unit)  {} chars, {} md bytes, {}",
        took.as_secs_f64() * 1e3,
        md_took.as_secs_f64() * 1e3,
        main.text.len(),
        md.len(),
        main.kind,
    );
    per_unit.max(md_per_unit)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let line = "A sentence of the page, with a comma, long enough to count.";
    let shapes: Vec<(&str, usize, String)> = vec![
        (
            "1 M nested div",
            1_000_000,
            format!("{}<p>{line}</p>", "<div>".repeat(1_000_000)),
        ),
        (
            "cards of one shape",
            n,
            format!(
                "<div>{}</div>",
                format!("<div class=card><a href=/x>{line}</a></div>").repeat(n)
            ),
        ),
        (
            "siblings of n shapes",
            n,
            format!(
                "<div>{}</div>",
                (0..n)
                    .map(|i| format!("<p class=c{i}>{line}</p>"))
                    .collect::<String>()
            ),
        ),
        ("nested lists", n, format!("{}{line}", "<ul><li>".repeat(n))),
        (
            "table cells",
            n,
            format!("<table><tr>{}</table>", format!("<td>{line}").repeat(n)),
        ),
        (
            "links in one paragraph",
            n,
            format!("<p>{}</p>", "<a href=/a>link</a>, ".repeat(n)),
        ),
        (
            "headings",
            n,
            format!(
                "<title>{line}</title>{}",
                format!("<h2>{line}</h2>").repeat(n)
            ),
        ),
        (
            "noscript blocks",
            n,
            format!(
                "<body>{}",
                format!("<noscript><p>{line}</p></noscript>").repeat(n)
            ),
        ),
        (
            "JSON-LD comments",
            n,
            format!(
                "<script type=application/ld+json>{{\"@type\":\"DiscussionForumPosting\",\
                 \"text\":\"{line}\",\"comment\":[{}{{}}]}}</script><p>x",
                format!("{{\"@type\":\"Comment\",\"text\":\"<p>{line}</p>\"}},").repeat(n)
            ),
        ),
        (
            "nested block quotes",
            n,
            format!("{}{line}", "<blockquote><p>q</p>".repeat(n)),
        ),
        (
            "spans blocks interrupt",
            n,
            format!("{}<p>{line}</p>", "<b><a href=/x>t<div>d</div>".repeat(n)),
        ),
        (
            "nested tables",
            n,
            format!("{}{line}", "<table><tr><td>c<td>".repeat(n)),
        ),
        (
            "wide spans",
            n,
            format!(
                "<table>{}</table>",
                "<tr><td colspan=1000 rowspan=1000>w".repeat(n)
            ),
        ),
        (
            "nested pre",
            n,
            format!("{}{line}", "<pre>p<div>".repeat(n)),
        ),
        ("nested code", n, format!("{}{line}", "<code>c ".repeat(n))),
    ];
    let mut failed = Vec::new();
    for (name, units, html) in shapes {
        if time(name, units, html) > BOUND_NS {
            failed.push(name);
        }
    }
    if check && !failed.is_empty() {
        eprintln!("over {BOUND_NS} ns a unit: {failed:?}");
        std::process::exit(1);
    }
}
