//! The shapes that break tree builders, each timed (release build):
//!
//! ```sh
//! cargo run --release -p htmltok-tree --example hostile [n]
//! ```
//!
//! 1 M nested `<div>`, and n (default 100,000) unclosed `<a>`, unclosed `<font>` with
//! distinct attributes, `<b><p></b>`, nested `<table>`, nested `<template>`, and one tag
//! with a million attributes. Each must stay linear: the time per unit is printed, and with
//! `--check` the run fails when a shape's parse takes over 20 µs a unit (linear runs take
//! under 1 µs on a loaded machine; a quadratic one thousands).

use std::time::Instant;

/// The `--check` bound, in nanoseconds of parse time per unit.
const BOUND_NS: f64 = 20_000.0;

/// Parses, serializes and drops one shape; returns the parse time per unit in ns.
fn time(name: &str, units: usize, html: String) -> f64 {
    let t = Instant::now();
    let doc = htmltok_tree::parse(html.as_bytes());
    let parse = t.elapsed();
    let t = Instant::now();
    let out = doc.root().outer_html();
    let ser = t.elapsed();
    let t = Instant::now();
    drop(doc);
    let dropped = t.elapsed();
    println!(
        "{name:<28} {units:>8} units  parse {:>8.1} ms ({:>6.0} ns/unit)  serialize {:>7.1} ms ({} bytes)  drop {:>6.1} ms",
        parse.as_secs_f64() * 1e3,
        parse.as_secs_f64() * 1e9 / units as f64,
        ser.as_secs_f64() * 1e3,
        out.len(),
        dropped.as_secs_f64() * 1e3,
    );
    parse.as_secs_f64() * 1e9 / units as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let many_attrs: String = (0..1_000_000).map(|i| format!("a{i}=x ")).collect();
    let shapes: Vec<(&str, usize, String)> = vec![
        ("nested <div>", 1_000_000, "<div>".repeat(1_000_000)),
        ("unclosed <a>", n, "<a>x".repeat(n)),
        ("unclosed <font>", n, "<font>x".repeat(n)),
        (
            "unclosed <font a=i>",
            n,
            (0..n).map(|i| format!("<font a={i}>x")).collect(),
        ),
        ("<b><p></b>", n, "<b><p></b>".repeat(n)),
        ("nested <table>", n, "<table><tr><td>".repeat(n)),
        ("nested <template>", n, "<template>".repeat(n)),
        (
            "1 M attributes on one tag",
            1_000_000,
            format!("<p {many_attrs}>"),
        ),
    ];
    let mut worst = 0f64;
    for (name, units, html) in shapes {
        worst = worst.max(time(name, units, html));
    }
    if check && worst > BOUND_NS {
        eprintln!("the slowest shape took {worst:.0} ns a unit, over the {BOUND_NS:.0} ns bound");
        std::process::exit(1);
    }
}
