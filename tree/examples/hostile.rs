//! The shapes that break tree builders, each timed (release build):
//!
//! ```sh
//! cargo run --release -p htmltok-tree --example hostile [n]
//! ```
//!
//! 1 M nested `<div>`, and n (default 100,000) unclosed `<a>`, unclosed `<font>` with
//! distinct attributes, `<b><p></b>`, nested `<table>`, nested `<template>`, and one tag
//! with a million attributes. Each must stay linear: the time per unit is printed.

use std::time::Instant;

fn time(name: &str, units: usize, html: String) {
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
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    time("nested <div>", 1_000_000, "<div>".repeat(1_000_000));
    time("unclosed <a>", n, "<a>x".repeat(n));
    time("unclosed <font>", n, "<font>x".repeat(n));
    time(
        "unclosed <font a=i>",
        n,
        (0..n).map(|i| format!("<font a={i}>x")).collect(),
    );
    time("<b><p></b>", n, "<b><p></b>".repeat(n));
    time("nested <table>", n, "<table><tr><td>".repeat(n));
    time("nested <template>", n, "<template>".repeat(n));
    time(
        "1 M attributes on one tag",
        1_000_000,
        format!(
            "<p {}>",
            (0..1_000_000)
                .map(|i| format!("a{i}=x "))
                .collect::<String>()
        ),
    );
}
