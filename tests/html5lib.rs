//! The html5lib tokenizer test suite, one trial per test case and initial state, comparing
//! the tokens and the parse errors (code, line and column, in order).
//!
//! `cargo test --test html5lib -- --list` lists every trial; `cargo test html5lib test3`
//! runs those of `test3.test`; a failure names its file, index, state and description.
//!
//! The suite is found as `test-support/src/data.rs` says (`$HTML5LIB_TESTS`, else
//! `tests/html5lib-tests/tokenizer`, else `../shared/html5lib-tests/tokenizer`). When it is
//! absent, the run says so loudly and has no trials; under CI (`CI` or
//! `HTMLTOK_REQUIRE_DATA` set) it has one failing trial instead.
//!
//! Not run, with reasons:
//! - `xmlViolation.test` (its tests are under "xmlViolationTests", not "tests"): they
//!   expect the tweaks of "Coercing an HTML DOM into an infoset", which is not tokenization.
//! - The 4 runs whose input contains a lone surrogate (`\uD800` after double unescaping):
//!   such a string cannot be represented in UTF-8, the only input encoding htmltok takes.
//!   They are listed as ignored trials, with that reason in their name.

use htmltok_test_support::data;

use std::path::{Path, PathBuf};

use htmltok::{PositionTracker, State, Token, Tokenizer};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Map, Value, json};

/// The suite's size, checked by the `html5lib/suite/size` trial so that a partial or
/// changed copy of the suite cannot pass unnoticed.
const EXPECTED_RUNS: usize = 7028;
const EXPECTED_LONE_SURROGATE_RUNS: usize = 4;

fn main() {
    let args = Arguments::from_args();
    let trials = match data::html5lib_dir() {
        Ok(dir) => trials(&dir),
        Err(message) if data::data_required() => {
            vec![Trial::test("html5lib/suite/present", move || {
                Err(format!("{message} (CI or HTMLTOK_REQUIRE_DATA is set)").into())
            })]
        }
        Err(message) => {
            data::missing("the html5lib tokenizer suite", &message);
            Vec::new()
        }
    };
    libtest_mimic::run(&args, trials).exit();
}

/// One test case under one initial state.
struct Case {
    input: String,
    state: State,
    last_start_tag: Option<String>,
    output: Vec<Value>,
    errors: Vec<Value>,
}

fn trials(dir: &Path) -> Vec<Trial> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    let mut trials = Vec::new();
    let (mut runs, mut lone_surrogates) = (0, 0);
    for file in &files {
        let file_name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let json: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", file.display()));
        let Some(tests) = json["tests"].as_array() else {
            continue; // xmlViolation.test: see the module docs.
        };
        for (index, test) in tests.iter().enumerate() {
            let description = test["description"].as_str().unwrap_or("").to_string();
            let double = test["doubleEscaped"].as_bool().unwrap_or(false);
            let raw_input = test["input"].as_str().expect("input is a string");
            let states: Vec<String> = match test["initialStates"].as_array() {
                Some(s) => s.iter().map(|v| v.as_str().unwrap().to_string()).collect(),
                None => vec!["Data state".to_string()],
            };
            let input = if double {
                unescape(raw_input)
            } else {
                Some(raw_input.to_string())
            };
            for state_name in states {
                let name = format!("html5lib/{file_name}/{index}/{state_name}: {description}");
                let Some(input) = input.clone() else {
                    lone_surrogates += 1;
                    let name = format!("{name} (lone surrogate: not representable in UTF-8)");
                    trials.push(Trial::test(name, || Ok(())).with_ignored_flag(true));
                    continue;
                };
                runs += 1;
                let output = if double {
                    unescape_value(&test["output"]).expect("output unescapes")
                } else {
                    test["output"].clone()
                };
                let case = Case {
                    input,
                    state: State::from_html5lib_name(&state_name)
                        .unwrap_or_else(|| panic!("unknown state {state_name:?}")),
                    last_start_tag: test["lastStartTag"].as_str().map(str::to_string),
                    output: coalesce(output.as_array().expect("output is an array")),
                    errors: test["errors"]
                        .as_array()
                        .map(|e| e.to_vec())
                        .unwrap_or_default(),
                };
                trials.push(Trial::test(name, move || run(&case)));
            }
        }
    }
    trials.push(Trial::test("html5lib/suite/size", move || {
        if (runs, lone_surrogates) == (EXPECTED_RUNS, EXPECTED_LONE_SURROGATE_RUNS) {
            Ok(())
        } else {
            Err(format!(
                "the suite has {runs} runs and {lone_surrogates} lone-surrogate runs; expected \
                 {EXPECTED_RUNS} and {EXPECTED_LONE_SURROGATE_RUNS} (a partial or different \
                 copy of html5lib-tests?)"
            )
            .into())
        }
    }));
    trials
}

fn run(case: &Case) -> Result<(), Failed> {
    let (output, errors) = tokenize(case);
    if output == case.output && errors == case.errors {
        return Ok(());
    }
    Err(format!(
        "input:    {:?}\nexpected: {}\n          {}\ngot:      {}\n          {}",
        case.input,
        Value::Array(case.output.clone()),
        Value::Array(case.errors.clone()),
        Value::Array(output),
        Value::Array(errors),
    )
    .into())
}

/// Tokenizes as the suite expects (simulation off, errors on, the case's initial state and
/// last start tag) and gives the tokens and errors in the suite's form, adjacent character
/// tokens coalesced.
fn tokenize(case: &Case) -> (Vec<Value>, Vec<Value>) {
    let input = case.input.as_bytes();
    // The suite's inputs are decoded streams: a U+FEFF in them is content.
    let mut builder = Tokenizer::builder()
        .errors(true)
        .simulation(false)
        .keep_bom(true)
        .state(case.state);
    if let Some(name) = &case.last_start_tag {
        builder = builder.last_start_tag(name);
    }
    let mut tok = builder.build(input);
    let mut output = Vec::new();
    let mut text = String::new();
    while let Some(token) = tok.next_token() {
        if let Token::Text(t) = &token {
            text.push_str(&t.text());
            continue;
        }
        if !text.is_empty() {
            output.push(json!(["Character", std::mem::take(&mut text)]));
        }
        output.push(match &token {
            Token::Doctype(d) => json!([
                "DOCTYPE",
                d.name(),
                d.public_id(),
                d.system_id(),
                !d.force_quirks()
            ]),
            Token::StartTag(tag) => {
                let attrs: Map<String, Value> = tag
                    .attrs()
                    .map(|a| (a.name().into_owned(), Value::from(a.value().into_owned())))
                    .collect();
                if tag.self_closing() {
                    json!(["StartTag", tag.name(), attrs, true])
                } else {
                    json!(["StartTag", tag.name(), attrs])
                }
            }
            Token::EndTag(tag) => json!(["EndTag", tag.name()]),
            Token::Comment(c) => json!(["Comment", c.data()]),
            Token::Text(_) => unreachable!("handled above"),
        });
    }
    if !text.is_empty() {
        output.push(json!(["Character", text]));
    }
    let mut positions = PositionTracker::new(input);
    let errors = tok
        .errors()
        .iter()
        .map(|e| {
            let p = positions.position(e.offset);
            json!({"code": e.code.to_string(), "line": p.line, "col": p.col})
        })
        .collect();
    (output, errors)
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
