//! Differential test on real pages: htmltok against html5gum and html5ever, token for token.
//!
//! Every page listed in the `path` column of the corpus's MANIFEST.tsv (`$HTMLTOK_CORPUS`,
//! else `../shared/corpus` beside the workspace; when it is absent the test says so loudly
//! and passes, or fails under CI: see `test-support/src/data.rs`) is tokenized three ways, all compared in the html5lib-like form
//! (`checks::H5`: no spans, adjacent character tokens coalesced):
//!
//! 1. **html5gum, no feedback**: htmltok with the simulation off (data state only) against
//!    html5gum 0.9's default tokenizer (which never switches state by itself). Attributes
//!    are compared sorted by name (html5gum keeps them in a `BTreeMap`), end tags by name
//!    (html5gum's end tags carry nothing else), and html5gum's empty DOCTYPE name reads as
//!    a missing one (it cannot tell them apart; htmltok's names are never empty).
//! 2. **html5ever, naive feedback**: htmltok with the simulation off, switched by
//!    `set_state` after each start tag by the naive rules ([`naive_state`]: RCDATA after
//!    `title`/`textarea`, RAWTEXT after `style`/`xmp`/`iframe`/`noembed`/`noframes`/
//!    `noscript`, script data after `script`, PLAINTEXT after `plaintext`), against
//!    html5ever's tokenizer driven by the same rules through a `TokenSink` returning
//!    `TokenSinkResult::RawData`/`Plaintext`. Neither side knows about foreign content, so
//!    `<![CDATA[` is a bogus comment in both, and pages with `<svg>`/`<math>` compare like
//!    any other. html5ever gets `discard_bom: false` (dropping a BOM is the decoder's job;
//!    htmltok keeps it as text).
//! 3. **htmltok's simulation vs the naive rules**: on pages without `<svg`/`<math`
//!    (case-insensitive) the built-in simulation (scripting on) must make exactly the
//!    naive switches. On pages with foreign content the two differ by design (CDATA
//!    sections, no switching inside `<svg>`/`<math>`), so they are compared only up to the
//!    first `<svg>`/`<math>` start tag.
//!
//! Encodings: html5gum and html5ever get the page decoded lossily (`String::from_utf8_lossy`,
//! one U+FFFD per maximal invalid subpart), htmltok the raw bytes. The replacement never
//! touches an ASCII byte, so token boundaries are the same, and the comparison also checks
//! that htmltok's own decoding of invalid UTF-8 (legacy-encoding/ pages) follows that rule.
//! Every page is compared, including the non-UTF-8 ones.
//!
//! Remaining differences, with the reason each is not a difference of htmltok from the
//! standard: **none** on the 191 pages. The first run found one htmltok bug, since fixed
//! (ccb3e60; regression test `duplicate_attribute_after_sixteen_attributes` in
//! `tests/regressions.rs`): in a tag with more than 16 attributes a repeated name could be
//! kept (13.2.5.33: "if there is already an attribute on the token with the exact same
//! name, then this is a duplicate-attribute parse error and the new attribute must be
//! removed from the token"). It showed on 30 pages in comparison 1, where `<script>`
//! bodies read in the data state make tags with hundreds of "attributes".
//!
//! Time: the whole corpus is quick enough even in a debug build to run by default;
//! `HTMLTOK_DIFF_EVERY=N` compares every N-th page only.

use htmltok_test_support::checks;
use htmltok_test_support::data;
use htmltok_test_support::peers;
mod support;

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Instant;

use checks::{H5, Options, Tok, diff_h5, h5_from_toks};
use data::loud;
use htmltok::{Scanner, State, Token};
use support::push_html5ever;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token as EToken, TokenSink, TokenSinkResult, Tokenizer as ETokenizer,
    TokenizerOpts,
};

/// The corpus folder, None (said loudly; a failure under CI) when it is missing.
fn corpus_dir() -> Option<PathBuf> {
    data::real_corpus_or_skip("the differential test against html5gum and html5ever")
}

// ----- the naive state-switching rules -------------------------------------------------

/// The start tags after which the tree builder switches the tokenizer's state, without
/// the tree: what html5gum's `naive_next_state` and htmltok's simulation (outside
/// `<svg>`/`<math>`, scripting on) do.
fn naive_state(name: &str) -> Option<State> {
    match name {
        "title" | "textarea" => Some(State::Rcdata),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => Some(State::Rawtext),
        "script" => Some(State::ScriptData),
        "plaintext" => Some(State::Plaintext),
        _ => None,
    }
}

/// htmltok with the simulation off, driven by [`naive_state`] through `set_state` after
/// each start tag, as a tree builder would drive it.
fn htmltok_naive(input: &[u8]) -> Vec<Tok> {
    let mut tok = Options::data_only().tokenizer(input, false, Scanner::best());
    let mut out = Vec::new();
    loop {
        let switch = match tok.next_token() {
            None => break,
            Some(token) => {
                out.push(checks::owned(input, &token));
                match &token {
                    Token::StartTag(tag) => naive_state(&tag.name()),
                    _ => None,
                }
            }
        };
        if let Some(state) = switch {
            tok.set_state(state);
        }
    }
    out
}

// ----- html5ever -----------------------------------------------------------------------

/// A token sink that records tokens and switches states by [`naive_state`].
#[derive(Default)]
struct Sink {
    tokens: RefCell<Vec<H5>>,
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: EToken, _line: u64) -> TokenSinkResult<()> {
        push_html5ever(&mut self.tokens.borrow_mut(), &token);
        let EToken::TagToken(tag) = &token else {
            return TokenSinkResult::Continue;
        };
        if tag.kind == TagKind::EndTag {
            return TokenSinkResult::Continue;
        }
        match naive_state(&tag.name) {
            Some(State::Rcdata) => TokenSinkResult::RawData(RawKind::Rcdata),
            Some(State::Rawtext) => TokenSinkResult::RawData(RawKind::Rawtext),
            Some(State::ScriptData) => TokenSinkResult::RawData(RawKind::ScriptData),
            Some(State::Plaintext) => TokenSinkResult::Plaintext,
            _ => TokenSinkResult::Continue,
        }
    }
}

/// html5ever's tokenizer over `text`, driven by [`naive_state`]; the byte order mark is
/// kept (htmltok never drops it: that is the decoder's job, before tokenization).
fn html5ever_naive(text: &str) -> Vec<H5> {
    let tok = ETokenizer::new(
        Sink::default(),
        TokenizerOpts {
            discard_bom: false,
            ..TokenizerOpts::default()
        },
    );
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(text));
    let _ = tok.feed(&queue);
    tok.end();
    tok.sink.tokens.take()
}

// ----- the comparisons -----------------------------------------------------------------

/// What one page gave: the differences found (comparison, message).
struct PageResult {
    differences: Vec<(&'static str, String)>,
    /// The page has `<svg`/`<math`: comparison 3 stopped at the first such start tag.
    foreign: bool,
}

fn compare_page(bytes: &[u8]) -> PageResult {
    // A leading byte order mark is the decoder's to drop (htmltok skips it by default;
    // html5gum would keep it): every engine gets the page without it.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut differences = Vec::new();
    // html5gum and html5ever take UTF-8: they get the page decoded lossily (one U+FFFD per
    // maximal invalid subpart, the rule htmltok decodes by), htmltok the raw bytes. The
    // replacement never touches ASCII, so the token boundaries are the same.
    let text = String::from_utf8_lossy(bytes);

    // 1. Data state only (no feedback): htmltok vs html5gum.
    let ours = checks::run(bytes, &Options::data_only(), false, Scanner::best());
    let mut a = h5_from_toks(&ours.tokens);
    let mut b = peers::html5gum_tokens(text.as_bytes());
    peers::sort_attrs(&mut a);
    peers::sort_attrs(&mut b);
    if let Err(e) = diff_h5("html5gum, data state only", &a, &b) {
        differences.push(("html5gum", e));
    }

    // 2. Naive feedback on both sides: htmltok vs html5ever.
    let naive = htmltok_naive(bytes);
    let a = h5_from_toks(&naive);
    let b = html5ever_naive(&text);
    if let Err(e) = diff_h5("html5ever, naive switching", &a, &b) {
        differences.push(("html5ever", e));
    }

    // 3. htmltok's own simulation vs the naive rules, on pages without foreign content.
    let lower = text.to_ascii_lowercase();
    let foreign = lower.contains("<svg") || lower.contains("<math");
    let sim = checks::run(bytes, &Options::default(), false, Scanner::best());
    let (mut sim, mut naive) = (h5_from_toks(&sim.tokens), h5_from_toks(&naive));
    if foreign {
        // Up to the first <svg> or <math> start tag, the two must still agree.
        let first_foreign = naive
            .iter()
            .position(|t| matches!(t, H5::StartTag { name, .. } if name == "svg" || name == "math"))
            .map_or(naive.len(), |i| i + 1);
        naive.truncate(first_foreign);
        sim.truncate(first_foreign);
    }
    if let Err(e) = diff_h5("simulation vs naive switching", &sim, &naive) {
        differences.push(("simulation", e));
    }
    PageResult {
        differences,
        foreign,
    }
}

fn run_pages(select: impl Fn(usize) -> bool) {
    let Some(dir) = corpus_dir() else { return };
    let pages = data::Manifest::read(&dir).paths();
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut foreign_pages = 0;
    for (i, path) in pages.iter().enumerate() {
        if !select(i) {
            continue;
        }
        let bytes = std::fs::read(dir.join(path))
            .unwrap_or_else(|e| panic!("cannot read corpus page {path}: {e}"));
        let t = Instant::now();
        let result = compare_page(&bytes);
        compared += 1;
        loud(&format!(
            "{path}: {} bytes, {:.2}s, {} differences",
            bytes.len(),
            t.elapsed().as_secs_f64(),
            result.differences.len()
        ));
        foreign_pages += usize::from(result.foreign);
        for (comparison, message) in result.differences {
            failures.push(format!("{path} [{comparison}]: {message}"));
        }
    }
    loud(&format!(
        "differential: {compared} pages in {:.1}s, {} unexplained differences; {foreign_pages} \
         pages with <svg>/<math> compared against the simulation only up to the first",
        started.elapsed().as_secs_f64(),
        failures.len()
    ));
    assert!(failures.is_empty(), "differences:\n{}", failures.join("\n"));
}

#[test]
fn corpus_pages_agree_with_html5gum_and_html5ever() {
    let every: usize = std::env::var("HTMLTOK_DIFF_EVERY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    run_pages(|i| i % every == 0);
}

/// Every regression input of the tokenizer (`tests/regressions/`) that is valid UTF-8,
/// against html5gum (`peers::check_html5gum`, as the fuzz target `differential_html5gum`
/// checks it).
#[test]
fn regression_inputs_agree_with_html5gum() {
    let files = data::regression_inputs();
    let mut failures = Vec::new();
    for path in &files {
        let input = std::fs::read(path).expect("read regression input");
        if std::str::from_utf8(&input).is_ok()
            && let Err(e) = peers::check_html5gum(&input)
        {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
