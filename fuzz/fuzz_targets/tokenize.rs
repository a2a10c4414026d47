//! Default options (simulation on, errors off, best scanner): no panic, no hang, the span
//! contract, and every name, value, text and data decoded.
#![no_main]

use htmltok::Scanner;
use htmltok_fuzz::checks::{Options, check_spans, run};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let run = run(data, &Options::default(), false, Scanner::detect());
    if let Err(e) = check_spans(data, &run.tokens) {
        panic!("{e}");
    }
});
