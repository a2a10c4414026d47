//! Runs every input in `tests/regressions/` (minimised fuzz findings and bug inputs; see
//! its README) through all the properties: no panic, the span contract, the same tokens
//! with errors on and off, the same tokens and errors with every scanner; under every
//! initial state with the simulation and scripting on and off, and with the options the
//! fuzz targets read from the first byte. Also holds the regression tests of specific bugs.
//! The same inputs also go through the CLI's JSON writers (`cli/tests/writers.rs`) and,
//! as valid UTF-8, against html5gum (`benches/tests/differential.rs`).

use htmltok_test_support::checks;
use htmltok_test_support::data;

use checks::{Options, STATES};
use htmltok::{ErrorCode, Token, Tokenizer};

fn option_sets() -> Vec<Options> {
    let mut sets = Vec::new();
    for state in STATES {
        for simulation in [true, false] {
            for scripting in [true, false] {
                sets.push(Options {
                    simulation,
                    scripting,
                    state,
                    last_start_tag: None,
                    keep_bom: false,
                });
            }
        }
        sets.push(Options {
            state,
            last_start_tag: Some("script".to_string()),
            ..Options::default()
        });
    }
    sets
}

fn check_input(input: &[u8], options: &Options) -> Result<(), String> {
    checks::check_all(input, options).map(drop)
}

#[test]
fn every_regression_input_passes_every_property() {
    let files = data::regression_inputs();
    assert!(!files.is_empty(), "no regression inputs found");
    let mut failures = Vec::new();
    for path in &files {
        let input = std::fs::read(path).expect("read regression input");
        let name = path.file_name().unwrap().to_string_lossy();
        let mut runs: Vec<(Options, &[u8])> =
            option_sets().into_iter().map(|o| (o, &input[..])).collect();
        if let Some((&first, rest)) = input.split_first() {
            runs.push((Options::from_byte(first), rest));
        }
        for (options, bytes) in runs {
            let result = std::panic::catch_unwind(|| check_input(bytes, &options));
            match result {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failures.push(format!("{name} with {options:?}: {e}")),
                Err(_) => failures.push(format!("{name} with {options:?}: panicked")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The attributes' names of the first start tag, and the errors.
fn first_tag_attrs(input: &[u8]) -> (Vec<String>, Vec<ErrorCode>) {
    let mut tok = Tokenizer::builder().errors(true).build(input);
    let mut names = Vec::new();
    while let Some(token) = tok.next_token() {
        if let Token::StartTag(tag) = token {
            names = tag.attrs().map(|a| a.name().into_owned()).collect();
            break;
        }
    }
    while tok.next_token().is_some() {}
    (names, tok.errors().iter().map(|e| e.code).collect())
}

/// 13.2.5.33: "if there is already an attribute on the token with the exact same name,
/// then this is a duplicate-attribute parse error and the new attribute must be removed
/// from the token." With more than 16 attributes htmltok builds a hash index of the names
/// at the first name its 64-bit filter cannot rule out (`c` here, after 16 names), but
/// names that pass the filter later (`am`) never enter the index; when `am` comes again,
/// the filter sends it to the index, which does not know it, so the duplicate is kept and
/// no error is raised. Found on 30 pages of the corpus by `tests/differential.rs`; fixed
/// in ccb3e60.
#[test]
fn duplicate_attribute_after_sixteen_attributes() {
    let (names, errors) =
        first_tag_attrs(b"<x a b d h p aa ab ac ad ae af ag ai aj ak al c am am>");
    assert_eq!(
        names.len(),
        18,
        "the second `am` must be dropped: {names:?}"
    );
    assert_eq!(errors, [ErrorCode::DuplicateAttribute]);
}

/// The same rule below the index threshold, which works.
#[test]
fn duplicate_attribute_in_small_tags() {
    let (names, errors) = first_tag_attrs(b"<x a b A c=1 b=2>");
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(
        errors,
        [ErrorCode::DuplicateAttribute, ErrorCode::DuplicateAttribute]
    );
}
