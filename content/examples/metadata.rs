//! Prints the metadata of HTML files (UTF-8 or not: bytes are decoded lossily), for
//! checking pages by hand: `cargo run -p htmltok-content --example metadata -- FILE
//! [URL]`. Without a URL, relative URLs stay unresolved.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: metadata FILE [URL]");
        return ExitCode::from(2);
    };
    let url = match args.get(1).map(|u| url::Url::parse(u)) {
        Some(Ok(url)) => Some(url),
        Some(Err(err)) => {
            eprintln!("metadata: {}: not a URL: {err}", args[1]);
            return ExitCode::from(2);
        }
        None => None,
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            eprintln!("metadata: {path}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let doc = htmltok_tree::parse(text.as_bytes());
    let m = htmltok_content::metadata(&doc, url.as_ref());
    let mut out = String::new();
    // One line per field that has something, for reading beside the page's source.
    let _ = writeln!(out, "title: {:?}", m.title);
    let _ = writeln!(out, "base_url: {:?}", m.base_url);
    let _ = writeln!(out, "canonical: {:?}", m.canonical);
    for (agent, robots) in [("robots", &m.robots), ("googlebot", &m.googlebot)] {
        if robots.present {
            let _ = writeln!(out, "{agent}: {robots:?}");
        }
    }
    let _ = writeln!(out, "description: {:?}", m.description);
    for (key, value) in m.open_graph.iter().chain(&m.twitter) {
        let _ = writeln!(out, "{key}: {value:?}");
    }
    let _ = writeln!(
        out,
        "lang: {:?}, content_language: {:?}",
        m.lang, m.content_language
    );
    for a in &m.alternates {
        let _ = writeln!(out, "alternate {}: {:?}", a.hreflang, a.href);
    }
    let _ = writeln!(out, "refresh: {:?}", m.refresh);
    for block in &m.json_ld {
        let _ = writeln!(out, "json-ld: {} bytes", block.len());
    }
    for link in &m.qualified_links {
        let _ = writeln!(
            out,
            "qualified {} at {}: {:?} nofollow={} ugc={} sponsored={}",
            link.element, link.offset, link.href.raw, link.nofollow, link.ugc, link.sponsored
        );
    }
    // A closed pipe (`| head`) is no error worth a panic.
    let _ = std::io::stdout().write_all(out.as_bytes());
    ExitCode::SUCCESS
}
