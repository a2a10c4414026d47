//! Where the crawl toolkit keeps its token fast paths (issue #25, item 6): the title and
//! the `<base href>` that `extract` takes from tokens must be what the tree has (the
//! first HTML `title` element in tree order, `document.title`'s whitespace rule; the first
//! HTML `base` element with an `href`, 4.2.3), on every page of the real corpus (the
//! bundled pages when it is absent, said loudly) and on crafted pages where a token
//! reader could go wrong. They agree, so the token paths stay: the tree costs three times
//! the tokens (ARCHITECTURE.md, "The tree").

use htmltok_test_support::data;

use htmltok_crawl::extract;

/// The title and base href by the tree (`Document::title`, `Document::base_href`).
fn by_tree(html: &[u8]) -> (Option<String>, Option<String>) {
    // Scripting on, as the tokenizer's simulation has it by default (a `<noscript>`'s
    // content is text).
    let doc = htmltok_tree::Parser::new().scripting(true).parse(html);
    let base = doc.base_href().map(|href| href.into_owned());
    (doc.title(), base)
}

/// The title and base href by the token paths `extract` uses.
fn by_tokens(html: &[u8]) -> (Option<String>, Option<String>) {
    let text = extract::text(html);
    let base = extract::base_href(html);
    (text.title, base)
}

fn check(label: &str, html: &[u8], problems: &mut Vec<String>) {
    let (tree, tokens) = (by_tree(html), by_tokens(html));
    if tree != tokens {
        problems.push(format!("{label}: tree {tree:?}, tokens {tokens:?}"));
    }
}

#[test]
fn title_and_base_as_the_tree_has_them() {
    let mut problems = Vec::new();
    for (label, html) in [
        ("two titles", &b"<title>one</title><title>two</title>"[..]),
        (
            "svg title first",
            b"<svg><title>tip</title></svg><title>page</title>",
        ),
        ("title in body", b"<body><p>x<title> late  one </title>"),
        ("no title", b"<p>none"),
        ("empty title", b"<title></title>"),
        ("title with markup", b"<title>a <b>b</b> &amp; c</title>"),
        ("base in body", b"<p><base href=/b><base href=/c>"),
        (
            "base without href first",
            b"<base target=_top><base href='/d/'>",
        ),
        ("svg base", b"<svg><base href=/svg></svg><base href=/html>"),
        (
            "template base",
            b"<template><base href=/t></template><base href=/real>",
        ),
        // Found by the tag-soup property below: the tokenizer's simulated tree builder
        // kept a template's `<title>` open, and does not keep the list of active
        // formatting elements (the second `<a>` closes the first), so it took an SVG
        // `title` or `textarea` for an HTML one and read what follows as RCDATA.
        (
            "template title, then svg",
            b"<template><title>t2</title><svg></title><title></template><base href=/x>",
        ),
        (
            "a in a, then svg",
            b"<a><a></a><svg></a><textarea><title>t</title><base href=/z>",
        ),
        (
            "a in a, then math",
            b"<a><a></a><math></a><textarea><table><title>",
        ),
        // Found by the same property: after the base (title) the simulated tree builder
        // took an SVG `noscript` (MathML `title`) for an HTML one and read the
        // `<frameset>` after it as RAWTEXT (RCDATA); the tree's frameset takes out the
        // body, and the base (title) in it.
        (
            "base, then a frameset read as text",
            b"<a><a></a><base href=/x><svg></a><noscript><head><frameset>",
        ),
        (
            "title, then a frameset read as text",
            b"<a><title></title><a></a><math></a><title><annotation-xml encoding=text/html><frameset>",
        ),
    ] {
        check(label, html, &mut problems);
    }
    let dir = data::real_or_bundled_corpus("the title and base differential over the real corpus");
    let manifest = data::Manifest::read(&dir);
    let mut pages = 0;
    for path in manifest.paths() {
        let bytes = std::fs::read(dir.join(&path)).unwrap();
        let decoded = htmltok_crawl::encoding::decode(&bytes, None);
        check(&path, decoded.text.as_bytes(), &mut problems);
        pages += 1;
    }
    assert!(pages >= 10);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Pieces of tag soup that decide where a `<title>` or `<base>` lands.
const PIECES: [&str; 43] = [
    "<title>",
    "</title>",
    "<title>t2</title>",
    " a  b ",
    "<base href=/x>",
    "<BASE HREF=/y>",
    "<base>",
    "<svg>",
    "</svg>",
    "<math>",
    "</math>",
    "<template>",
    "</template>",
    "<frameset>",
    "<frame>",
    "<table>",
    "<tr>",
    "<td>",
    "</table>",
    "<select>",
    "<option>",
    "<noscript>",
    "</noscript>",
    "<head>",
    "<body>",
    "</body>",
    "</html>",
    "<p>",
    "<foreignObject>",
    "<desc>",
    "<mi>",
    "<annotation-xml encoding=text/html>",
    "<!--c-->",
    "<textarea>",
    "&nbsp;x\u{a0}",
    "<title/>",
    "<b>",
    "</b>",
    "<i>",
    "</p>",
    "<a>",
    "</a>",
    "<caption>",
];

/// SplitMix64: a seeded generator, so that a failing soup can be replayed from its seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn soup(picks: &[usize]) -> String {
    picks.iter().map(|&p| PIECES[p]).collect()
}

fn agree(html: &str) -> Result<(), String> {
    let (tree, tokens) = (by_tree(html.as_bytes()), by_tokens(html.as_bytes()));
    if tree == tokens {
        Ok(())
    } else {
        Err(format!("{html:?}: tree {tree:?}, tokens {tokens:?}"))
    }
}

/// How many soups each property runs (the same for both, so that either one's failure
/// replays from its seed).
const CASES: usize = 3000;

/// Runs [`CASES`] soups of up to 100 pieces from `seed`; on a disagreement, the message
/// names the seed and the case, with the soup and a smaller one that still disagrees
/// (pieces dropped one at a time while it does).
fn soups_agree(seed: u64) -> Result<(), String> {
    let mut rng = SplitMix(seed);
    for case in 0..CASES {
        let len = rng.below(100);
        let mut picks: Vec<usize> = (0..len).map(|_| rng.below(PIECES.len())).collect();
        let Err(found) = agree(&soup(&picks)) else {
            continue;
        };
        let mut i = 0;
        while i < picks.len() {
            let mut fewer = picks.clone();
            fewer.remove(i);
            if agree(&soup(&fewer)).is_err() {
                picks = fewer;
            } else {
                i += 1;
            }
        }
        let smallest = agree(&soup(&picks)).unwrap_err();
        return Err(format!(
            "seed = {seed}, case {case}: {found}\nsmallest: {smallest}\n\
             (replay: HTMLTOK_SEED={seed} cargo test -p htmltok-crawl --test tree_agreement random)"
        ));
    }
    Ok(())
}

/// Tag soup from a fixed seed: the same cases every run.
#[test]
fn title_and_base_agree_on_generated_tag_soup() {
    if let Err(message) = soups_agree(0x0048_5EED) {
        panic!("{message}");
    }
}

/// Tag soup from a new seed each run (the time), or from `HTMLTOK_SEED` to replay one:
/// the failure message names the seed.
#[test]
fn title_and_base_agree_on_random_tag_soup() {
    let seed = match std::env::var("HTMLTOK_SEED") {
        Ok(seed) => seed.parse().expect("HTMLTOK_SEED is a number"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("the clock is after 1970")
            .as_nanos() as u64,
    };
    if let Err(message) = soups_agree(seed) {
        panic!("{message}");
    }
}
