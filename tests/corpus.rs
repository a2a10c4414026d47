//! The span contract over real pages, and over small inputs that end in every kind of
//! unfinished markup.
//!
//! The corpus is found in `$HTMLTOK_CORPUS`, else `../shared/corpus` next to the crate,
//! else `corpus/` in the crate when it holds a `MANIFEST.tsv`. Every page listed in the
//! manifest's `path` column is tokenized with the default options and with the simulation
//! off, each once with errors off and once with errors on, and checked:
//! - nothing panics;
//! - the token spans lie within the input, in increasing order, without overlap, and no
//!   token is empty; each token's inner spans (name, value, data, …) lie within it;
//! - the span contract (see `src/token.rs`): the tokens' raw bytes plus the gaps between
//!   them are the input, and a gap only holds markup the standard drops without a token:
//!   between tokens `</>` (repeated, if the input repeats it), after the last token
//!   markup starting with `<` that the end of the input cut off;
//! - the tokens (kinds and spans) are the same with errors on and off, and every error
//!   offset lies within the input;
//! - decoding every name, text, value and data does not panic.
//!
//! When the real corpus is absent the test runs on the bundled pages and says so loudly
//! (under CI it fails instead: see `test-support/src/data.rs`).

use htmltok_test_support::data;

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use data::{Manifest, loud};
use htmltok::{Builder, Span, Token, Tokenizer};

/// The pages listed in the manifest: (path relative to the corpus, expected size).
fn manifest(dir: &Path) -> Vec<(String, Option<u64>)> {
    let manifest = Manifest::read(dir);
    let path = manifest.require("path");
    let bytes = manifest.column("bytes");
    manifest
        .rows()
        .map(|fields| {
            let size = bytes.and_then(|i| fields.get(i)?.parse().ok());
            (fields[path].to_string(), size)
        })
        .collect()
}

/// Kind and span of a token: what must not change when errors are turned on.
fn summary(token: &Token<'_, '_>) -> (&'static str, Span) {
    (token.kind_name(), token.span())
}

/// `bytes`, escaped and shortened for a message.
fn show(bytes: &[u8]) -> String {
    let shown: String = bytes
        .iter()
        .take(80)
        .flat_map(|b| b.escape_ascii())
        .map(char::from)
        .collect();
    if bytes.len() > 80 {
        format!("{shown}… ({} bytes)", bytes.len())
    } else {
        shown
    }
}

/// Checks a gap between two tokens (or before the first): dropped `</>` only.
fn check_middle_gap(gap: &[u8], at: usize) -> Result<(), String> {
    if gap.chunks(3).all(|chunk| chunk == b"</>") {
        Ok(())
    } else {
        Err(format!("gap at {at} is not `</>`: \"{}\"", show(gap)))
    }
}

/// Checks the gap after the last token: empty, or `</>`s and then markup cut off by EOF.
fn check_final_gap(gap: &[u8], at: usize) -> Result<(), String> {
    let mut rest = gap;
    while rest.len() > 3 && rest.starts_with(b"</>") {
        rest = &rest[3..];
    }
    if rest.is_empty() || rest.starts_with(b"<") {
        Ok(())
    } else {
        Err(format!(
            "final gap at {at} does not start with `<`: \"{}\"",
            show(gap)
        ))
    }
}

/// Checks that `inner` lies within `outer`.
fn within(inner: Span, outer: Span, what: &str) -> Result<(), String> {
    if outer.start <= inner.start && inner.start <= inner.end && inner.end <= outer.end {
        Ok(())
    } else {
        Err(format!(
            "{what} {inner:?} is not within the token {outer:?}"
        ))
    }
}

/// Checks the token's inner spans and decodes everything it has; returns the number of
/// decoded bytes (so that the decoding is not optimised away).
fn check_and_decode(token: &Token<'_, '_>) -> Result<usize, String> {
    let span = token.span();
    let mut decoded = 0;
    match token {
        Token::Doctype(d) => {
            let (name, public, system) = d.spans();
            for (inner, what) in [(name, "name"), (public, "public id"), (system, "system id")] {
                if let Some(inner) = inner {
                    within(inner, span, &format!("DOCTYPE {what}"))?;
                }
            }
            decoded += d.name().map_or(0, |s| s.len());
            decoded += d.public_id().map_or(0, |s| s.len());
            decoded += d.system_id().map_or(0, |s| s.len());
        }
        Token::StartTag(tag) | Token::EndTag(tag) => {
            within(tag.name_span(), span, "tag name")?;
            decoded += tag.name().len();
            let mut previous_end = tag.name_span().end;
            for attr in tag.attrs() {
                within(attr.span(), span, "attribute")?;
                within(attr.name_span(), attr.span(), "attribute name")?;
                if let Some(value) = attr.value_span() {
                    within(value, attr.span(), "attribute value")?;
                }
                if attr.span().start < previous_end {
                    return Err(format!(
                        "attribute {:?} overlaps what comes before it in tag {span:?}",
                        attr.span()
                    ));
                }
                previous_end = attr.span().end;
                decoded += attr.name().len() + attr.value().len();
            }
        }
        Token::Comment(c) => {
            within(c.data_span(), span, "comment data")?;
            decoded += c.data().len();
        }
        Token::Text(t) => {
            within(t.text_span(), span, "text")?;
            decoded += t.text().len();
        }
    }
    Ok(decoded)
}

/// What one page's check found.
#[derive(Default)]
struct Outcome {
    tokens: usize,
    errors: usize,
    decoded: usize,
}

/// Tokenizes `input` twice with `options` (errors off and on) in lockstep, and checks
/// the contract on the way.
fn check(input: &[u8], options: Options) -> Result<Outcome, String> {
    let mut plain = options().errors(false).build(input);
    let mut with_errors = options().errors(true).build(input);
    let mut outcome = Outcome::default();
    // A UTF-8 byte order mark is skipped (`Builder::keep_bom`): the one gap allowed
    // before the first token.
    let mut pos = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    loop {
        let a = match plain.next_token() {
            Some(token) => {
                let (kind, span) = summary(&token);
                let at = |e: String| format!("token #{} ({kind} {span:?}): {e}", outcome.tokens);
                if span.end > input.len() || span.start >= span.end {
                    return Err(at(format!(
                        "span is empty or past the input ({})",
                        input.len()
                    )));
                }
                if span.start < pos {
                    return Err(at(format!("starts before the previous token's end {pos}")));
                }
                check_middle_gap(&input[pos..span.start], pos).map_err(at)?;
                if token.raw() != &input[span.range()] {
                    return Err(at("raw() is not the span's bytes".to_string()));
                }
                outcome.decoded += check_and_decode(&token).map_err(at)?;
                pos = span.end;
                Some((kind, span))
            }
            None => None,
        };
        let b = with_errors.next_token().map(|t| summary(&t));
        if a != b {
            return Err(format!(
                "token #{} differs with errors on: {a:?} (off) vs {b:?} (on)",
                outcome.tokens
            ));
        }
        if a.is_none() {
            break;
        }
        outcome.tokens += 1;
    }
    check_final_gap(&input[pos..], pos)?;
    if !plain.errors().is_empty() {
        return Err(format!(
            "{} errors recorded with errors off",
            plain.errors().len()
        ));
    }
    if let Some(e) = with_errors.errors().iter().find(|e| e.offset > input.len()) {
        return Err(format!("error {e:?} lies past the input ({})", input.len()));
    }
    outcome.errors = with_errors.errors().len();
    Ok(outcome)
}

/// Tokenizer options for one configuration (errors are set by [`check`]).
type Options = fn() -> Builder;

const CONFIGS: [(&str, Options); 2] = [
    ("default options", Tokenizer::builder),
    ("simulation off", || Tokenizer::builder().simulation(false)),
];

/// Runs every configuration on one input; Err lists what went wrong (or the panic).
fn check_all(input: &[u8]) -> Result<[Outcome; 2], String> {
    let run = || -> Result<[Outcome; 2], String> {
        let mut outcomes = [Outcome::default(), Outcome::default()];
        for (i, (name, options)) in CONFIGS.iter().enumerate() {
            outcomes[i] = check(input, *options).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(outcomes)
    };
    std::panic::catch_unwind(run).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_string());
        Err(format!("panicked: {message}"))
    })
}

#[test]
fn corpus_pages_keep_the_span_contract() {
    // Unlike the other corpus tests, this one falls back to the bundled pages (loudly).
    let dir =
        data::real_or_bundled_corpus("the span contract on the real pages (bundled pages only)");
    let pages = manifest(&dir);
    assert!(
        !pages.is_empty(),
        "{} lists no pages",
        dir.join("MANIFEST.tsv").display()
    );

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let totals = Mutex::new((0usize, 0usize, 0usize, 0usize, 0usize));
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((path, size)) = pages.get(i) else {
                        break;
                    };
                    let input = match std::fs::read(dir.join(path)) {
                        Ok(input) => input,
                        Err(e) => {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("{path}: cannot read: {e}"));
                            continue;
                        }
                    };
                    if size.is_some_and(|size| size != input.len() as u64) {
                        failures.lock().unwrap().push(format!(
                            "{path}: {} bytes, the manifest says {size:?}",
                            input.len()
                        ));
                    }
                    match check_all(&input) {
                        Ok([default, no_simulation]) => {
                            let mut t = totals.lock().unwrap();
                            t.0 += 1;
                            t.1 += input.len();
                            t.2 += default.tokens + no_simulation.tokens;
                            t.3 += default.errors + no_simulation.errors;
                            t.4 += default.decoded + no_simulation.decoded;
                        }
                        Err(e) => failures.lock().unwrap().push(format!("{path}: {e}")),
                    }
                }
            });
        }
    });
    let elapsed = started.elapsed();
    let failures = failures.into_inner().unwrap();
    let (passed, bytes, tokens, errors, decoded) = totals.into_inner().unwrap();
    let report = format!(
        "corpus {}: {passed} of {} pages passed ({:.1} MB; {tokens} tokens, {errors} errors, \
         {:.1} MB decoded, over both configurations) in {:.1?} with {workers} threads",
        dir.display(),
        pages.len(),
        bytes as f64 / 1e6,
        decoded as f64 / 1e6,
        elapsed,
    );
    if elapsed > Duration::from_secs(60) {
        loud(&format!(
            "note: the corpus test took {elapsed:.0?} (more than 60 s)"
        ));
    }
    assert!(
        failures.is_empty(),
        "{report}\n{} failures:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
    println!("{report}");
}

/// Small inputs cut off inside every kind of markup, and other edges: the same checks.
#[test]
fn edge_inputs_keep_the_span_contract() {
    let inputs: &[&[u8]] = &[
        b"",
        b"<",
        b"</",
        b"</>",
        b"</></>x</>",
        b"a</>",
        b"a</></>",
        b"<a",
        b"</a",
        b"<a href",
        b"<a href=",
        b"<a href='x",
        b"<a href=\"x",
        b"<a href=x",
        b"<a/",
        b"x</>\n<a b",
        b"<!",
        b"<!-",
        b"<!--",
        b"<!--x",
        b"<!--x-",
        b"<!--x--",
        b"<!--x--!",
        b"<!DOCTYPE",
        b"<!DOCTYPE html PUBLIC \"x",
        b"<?php",
        b"<svg><![CDATA[x",
        b"<svg><![CDATA[x]]",
        b"<math><![CDATA[]]></math>",
        b"<title>a</tit",
        b"<title></title",
        b"<textarea>&amp",
        b"<style>a</sty",
        b"<script>a<!--<script>",
        b"<script><!--<script></script",
        b"<script><!--",
        b"<plaintext></plaintext>",
        b"<noscript><a",
        b"<xmp></xmp ",
        b"&",
        b"&#",
        b"&#x",
        b"&amp",
        b"&notin",
        b"\r\n\r",
        b"\x00<\x00>\x00",
        b"\xFF<\xFE a=\xFD>",
        b"<a \x00=\x00>",
        b"<a b='c'd>",
        b"<a b c d b>",
        b"<p/ >",
        b"<!DOCTYPE html><html><body></body></html>\n",
    ];
    let mut failures = Vec::new();
    for input in inputs {
        if let Err(e) = check_all(input) {
            failures.push(format!("\"{}\": {e}", show(input)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The checks themselves reject what they should.
#[test]
fn gap_checks_reject_other_bytes() {
    assert!(check_middle_gap(b"", 0).is_ok());
    assert!(check_middle_gap(b"</>", 0).is_ok());
    assert!(check_middle_gap(b"</></>", 0).is_ok());
    assert!(check_middle_gap(b"</", 0).is_err());
    assert!(check_middle_gap(b"x", 0).is_err());
    assert!(check_middle_gap(b"</>x", 0).is_err());
    assert!(check_middle_gap(b"<a>", 0).is_err());
    assert!(check_final_gap(b"", 0).is_ok());
    assert!(check_final_gap(b"<a href", 0).is_ok());
    assert!(check_final_gap(b"</><a", 0).is_ok());
    assert!(check_final_gap(b"</>", 0).is_ok());
    assert!(check_final_gap(b"a<b", 0).is_err());
    assert!(check_final_gap(b"</>a", 0).is_err());
}
