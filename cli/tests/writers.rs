//! The JSON writers of `htmltok tokens` (`htmltok_cli::json`) against the tokens they
//! write (`writers::check_writers`, shared with the fuzz target `writers`): on the
//! tokenizer's regression inputs (`tests/regressions/`) and a few hand-picked examples,
//! under every initial state, simulation on and off.

use htmltok_test_support::checks;
use htmltok_test_support::data;
use htmltok_test_support::writers;

use checks::{Options, STATES};

fn option_sets() -> Vec<Options> {
    let mut sets = Vec::new();
    for state in STATES {
        for simulation in [false, true] {
            sets.push(Options {
                simulation,
                state,
                ..Options::default()
            });
        }
    }
    sets
}

fn check_everywhere(name: &str, input: &[u8], failures: &mut Vec<String>) {
    for options in option_sets() {
        if let Err(e) = writers::check_writers(input, &options) {
            failures.push(format!("{name} with {options:?}: {e}"));
        }
    }
}

#[test]
fn writers_on_examples() {
    let mut failures = Vec::new();
    for input in [
        &b""[..],
        b"<",
        b"</",
        b"</>",
        b"<!DOCTYPE html><title>x</title><script><!--<script></script>--></script>",
        b"<svg><![CDATA[x]]></svg><math><mi><![CDATA[y]]>",
        b"\xff\xfe<a \0=\0>&#0;\r\n\r",
        b"<a href=\"\\\"\x01\x1f\">\t\"\\</a>",
    ] {
        check_everywhere(&format!("{input:?}"), input, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn writers_on_regression_inputs() {
    let files = data::regression_inputs();
    let mut failures = Vec::new();
    for path in &files {
        let input = std::fs::read(path).expect("read regression input");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        check_everywhere(&name, &input, &mut failures);
        if let Some((&first, rest)) = input.split_first()
            && let Err(e) = writers::check_writers(rest, &Options::from_byte(first))
        {
            failures.push(format!("{name} (options from the first byte): {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
