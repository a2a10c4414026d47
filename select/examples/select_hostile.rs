//! The tree shapes that make selector matching quadratic, each timed (release build):
//!
//! ```sh
//! cargo run --release -p htmltok-select --example select_hostile [n] [--check]
//! ```
//!
//! n (default 100,000) nested elements, and selectors that each element matches or half
//! matches, so that a right-to-left matcher walks up to the root from each one: `body div
//! div` (every `div` matches, found only at `body`), `html body div`, `div > span div`
//! under one `span` (the names all there, out of order), the same below a node and as
//! fields (top-down, `topdown.rs`); with the sibling combinators, on n sibling `div`s
//! (`p ~ div` with the `p` last: every `div` looks at all the earlier ones), on nested
//! `div`s (`div ~ div div`: every `div` looks up each ancestor's earlier siblings), and on
//! nested pairs `<div></div><div>…` (`body div + div`: every second `div`'s sibling
//! has `body` at the top); `span div` with no `span` (the ancestor Bloom filter),
//! `div:has(p)`, `div:has(div p.x)`, `div:has(> div > div p)` and `div:has(~ p)`,
//! `div:has(~ div + p)` on siblings (the `:has` passes, `has.rs`); complex selectors
//! nested in `:is()` / `:not()` (`div:not(span div)`, `:is(html div) div`, `div:not(p ~
//! div)` on siblings: the plan's auxiliary entries) and `:has` at the top level beside
//! combinators (`body div:has(p) div`: every `div` walks up to `body`; `p ~ div:has(~ p)`
//! on siblings: every `div` looks back at all the earlier ones), and complex selectors nested
//! in `:has()`'s argument (`div:has(> div:not(span div))`: `topdown::compound_for_tree`); and the pseudo-classes
//! that ask the ancestors
//! (`:disabled` in n nested `fieldset`s under a disabled one, `:lang(en)` in n nested
//! `div`s, `input:disabled` on the n children of a disabled `fieldset`: the walk's memo,
//! `memo.rs`). Each must stay linear: the selection
//! time per element is printed, and with `--check` the run fails when one takes over
//! 20 µs an element (linear runs take well under 1 µs on a loaded machine; a quadratic
//! one at 100,000 levels tens of thousands).

use std::time::Instant;

use htmltok_select::{Fields, Select as _, Selector};

/// The `--check` bound, in nanoseconds of selection time per element.
const BOUND_NS: f64 = 20_000.0;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let divs = "<div>".repeat(n) + "<p class=x>p</p>" + &"</div>".repeat(n);
    let in_span = "<span>".to_owned() + &"<div>".repeat(n) + &"</div>".repeat(n) + "</span>";
    let wide = "<div></div>".repeat(n) + "<p>";
    let pairs = "<div></div><div>".repeat(n / 2) + &"</div>".repeat(n / 2);
    let divs = htmltok_tree::parse(divs.as_bytes());
    let in_span = htmltok_tree::parse(in_span.as_bytes());
    let wide = htmltok_tree::parse(wide.as_bytes());
    let pairs = htmltok_tree::parse(pairs.as_bytes());
    let sel = |css: &str| Selector::parse(css).expect("the benchmark's selectors parse");

    let mut worst = 0f64;
    let mut time = |name: &str, found: &mut dyn FnMut() -> usize| {
        let t = Instant::now();
        let count = found();
        let secs = t.elapsed().as_secs_f64();
        let per = secs * 1e9 / n as f64;
        println!(
            "{name:<40} {n:>8} levels  {:>8.1} ms ({per:>6.0} ns/element)  {count:>8} found",
            secs * 1e3
        );
        worst = worst.max(per);
    };
    for css in [
        "body div div",
        "html body div",
        "div > div > p.x",
        "span div",
        "div:has(p)",
        "div:has(div p.x)",
        "div:has(> div > div p)",
        "div:not(:has(div span))",
        "div:not(span div)",
        "div:is(body > div div)",
        ":is(html div) div",
        "div div:has(p)",
        "div:has(p.x) > div",
        "body div:has(p) div",
        "div:has(> div:not(span div))",
    ] {
        let s = sel(css);
        time(css, &mut || divs.select(&s).count());
    }
    let s = sel("div > span div");
    time("div > span div (under one span)", &mut || {
        in_span.select(&s).count()
    });
    let s = sel("body > span > div div");
    time("body > span > div div", &mut || in_span.select(&s).count());
    let s = sel("div:not(div > span div)");
    time("div:not(div > span div) (under one span)", &mut || {
        in_span.select(&s).count()
    });
    let s = sel("html body div div");
    let top = divs
        .select_first(&sel("body > div"))
        .expect("the page has a div");
    time("html body div div, below the top div", &mut || {
        top.select(&s).count()
    });
    for css in ["div ~ div div", "div + div div", "body div + div"] {
        let s = sel(css);
        time(css, &mut || divs.select(&s).count());
    }
    for css in [
        "p ~ div",
        "body div ~ div",
        "div + div + div",
        "span ~ div ~ p",
        "div:has(~ p)",
        "div:has(~ div + p)",
        "p ~ div:has(b)",
        "p ~ div:has(~ p)",
        "div:not(p ~ div)",
        "div:is(div + div + div)",
    ] {
        let s = sel(css);
        time(&format!("{css} (siblings)"), &mut || {
            wide.select(&s).count()
        });
    }
    for css in ["body div + div", "body div ~ div", "div + div > div + div"] {
        let s = sel(css);
        time(&format!("{css} (nested pairs)"), &mut || {
            pairs.select(&s).count()
        });
    }
    let fieldsets = "<fieldset disabled>".to_owned() + &"<fieldset>".repeat(n) + "<input>";
    let fieldsets = htmltok_tree::parse(fieldsets.as_bytes());
    let s = sel(":disabled");
    time(":disabled (nested fieldsets)", &mut || {
        fieldsets.select(&s).count()
    });
    let inputs = "<fieldset disabled>".to_owned() + &"<input>".repeat(n) + "<legend><input>";
    let inputs = htmltok_tree::parse(inputs.as_bytes());
    let s = sel("input:enabled");
    time("input:enabled (a fieldset's children)", &mut || {
        inputs.select(&s).count()
    });
    let langs = "<div lang=en>".to_owned() + &"<div>".repeat(n);
    let langs = htmltok_tree::parse(langs.as_bytes());
    let s = sel("div:lang(en), p:lang(fr)");
    time(":lang() (nested divs)", &mut || langs.select(&s).count());
    let fields = Fields::new([
        ("divs", "body div div::attr(class)"),
        ("p", "div > div p::text"),
        ("none", "div > span div::text"),
        ("sib", "div ~ div div::text"),
    ])
    .expect("the benchmark's fields parse");
    time(
        "fields: body div div, div > div p, div ~ div div",
        &mut || fields.extract(&divs).iter().map(Vec::len).sum(),
    );
    if check && worst > BOUND_NS {
        eprintln!(
            "the slowest shape took {worst:.0} ns an element, over the {BOUND_NS:.0} ns bound"
        );
        std::process::exit(1);
    }
}
