//! Runs the html5lib tokenizer test suite: every test, once per initial state, comparing
//! the tokens and the parse errors (code, line and column, in order).
//!
//! The suite is found in `$HTML5LIB_TESTS`, else `tests/html5lib-tests/tokenizer` (a
//! checkout of https://github.com/html5lib/html5lib-tests), else
//! `../shared/html5lib-tests/tokenizer`. When none exists the test fails and says how to
//! get it.
//!
//! Not run, with reasons:
//! - `xmlViolation.test` (its tests are under "xmlViolationTests", not "tests"): they
//!   expect the tweaks of "Coercing an HTML DOM into an infoset", which is not tokenization.
//! - The 4 runs whose input contains a lone surrogate (`\uD800` after double unescaping):
//!   such a string cannot be represented in UTF-8, the only input encoding htmltok takes.

use std::path::{Path, PathBuf};

use htmltok::State;
use serde_json::Value;

fn suite_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("HTML5LIB_TESTS").map(PathBuf::from),
        Some(manifest.join("tests/html5lib-tests/tokenizer")),
        Some(manifest.join("../shared/html5lib-tests/tokenizer")),
    ];
    for dir in candidates.into_iter().flatten() {
        if dir.join("test1.test").is_file() {
            return dir;
        }
    }
    panic!(
        "html5lib tokenizer tests not found. Set HTML5LIB_TESTS to the `tokenizer` folder of \
         a checkout of https://github.com/html5lib/html5lib-tests, or clone it into \
         tests/html5lib-tests (e.g. `git clone https://github.com/html5lib/html5lib-tests \
         tests/html5lib-tests`)."
    );
}

/// Undoes the suite's `doubleEscaped` encoding: `\uHHHH` sequences become code points,
/// surrogate pairs combined. None when a lone surrogate remains.
fn unescape(s: &str) -> Option<String> {
    let units: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let hex = |i: usize| -> Option<u32> {
        if i + 6 <= units.len() && units[i] == '\\' && units[i + 1] == 'u' {
            u32::from_str_radix(&units[i + 2..i + 6].iter().collect::<String>(), 16).ok()
        } else {
            None
        }
    };
    while i < units.len() {
        if let Some(cp) = hex(i) {
            if (0xD800..0xDC00).contains(&cp) {
                let low = hex(i + 6).filter(|lo| (0xDC00..0xE000).contains(lo))?;
                out.push(char::from_u32(
                    0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00),
                )?);
                i += 12;
            } else {
                out.push(char::from_u32(cp)?);
                i += 6;
            }
        } else {
            out.push(units[i]);
            i += 1;
        }
    }
    Some(out)
}

fn unescape_value(v: &Value) -> Option<Value> {
    Some(match v {
        Value::String(s) => Value::String(unescape(s)?),
        Value::Array(items) => {
            Value::Array(items.iter().map(unescape_value).collect::<Option<_>>()?)
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Some((unescape(k)?, unescape_value(v)?)))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// Merges adjacent Character tokens (the expected outputs are already coalesced, but
/// some split them).
fn coalesce(tokens: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for t in tokens {
        if t[0] == "Character"
            && let Some(last) = out.last_mut()
            && last[0] == "Character"
        {
            let joined = format!("{}{}", last[1].as_str().unwrap(), t[1].as_str().unwrap());
            last[1] = Value::String(joined);
            continue;
        }
        out.push(t.clone());
    }
    out
}

#[test]
fn html5lib_tokenizer_suite() {
    let dir = suite_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for file in &files {
        let json: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let Some(tests) = json["tests"].as_array() else {
            // xmlViolation.test: see the module docs.
            continue;
        };
        for test in tests {
            let double = test["doubleEscaped"].as_bool().unwrap_or(false);
            let raw_input = test["input"].as_str().unwrap();
            let states: Vec<&str> = match test["initialStates"].as_array() {
                Some(s) => s.iter().map(|v| v.as_str().unwrap()).collect(),
                None => vec!["Data state"],
            };
            let input = if double {
                unescape(raw_input)
            } else {
                Some(raw_input.to_string())
            };
            let Some(input) = input else {
                skipped += states.len(); // lone surrogate: see the module docs
                continue;
            };
            let expected_output = if double {
                unescape_value(&test["output"]).expect("output unescapes")
            } else {
                test["output"].clone()
            };
            let expected_output = coalesce(expected_output.as_array().unwrap());
            let expected_errors: Vec<Value> = test["errors"]
                .as_array()
                .map(|e| e.to_vec())
                .unwrap_or_default();
            let last_start_tag = test["lastStartTag"].as_str();
            for state_name in states {
                let state = State::from_html5lib_name(state_name).expect("known state");
                let got: Value = serde_json::from_str(&htmltok::json::html5lib(
                    input.as_bytes(),
                    state,
                    last_start_tag,
                ))
                .expect("writer produces JSON");
                let got_output = got["output"].as_array().unwrap().clone();
                let got_errors = got["errors"].as_array().unwrap().clone();
                if got_output == expected_output && got_errors == expected_errors {
                    passed += 1;
                } else {
                    failed += 1;
                    if failures.len() < 60 {
                        failures.push(format!(
                            "{} / {:?} [{}]\n  input:    {:?}\n  expected: {}\n            {}\n  got:      {}\n            {}",
                            file.file_name().unwrap().to_string_lossy(),
                            test["description"].as_str().unwrap_or(""),
                            state_name,
                            input,
                            Value::Array(expected_output.clone()),
                            Value::Array(expected_errors.clone()),
                            Value::Array(got_output),
                            Value::Array(got_errors),
                        ));
                    }
                }
            }
        }
    }
    println!("html5lib: {passed} passed, {failed} failed, {skipped} skipped (lone surrogates)");
    assert!(
        failed == 0,
        "{failed} html5lib runs failed (first {}):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(skipped, 4, "exactly the 4 lone-surrogate runs are skipped");
    assert_eq!(passed, 7028, "every other run of the suite passes");
}
