//! The first byte chooses the options (`Options::from_byte`: initial state, scripting on or
//! off, simulation on or off, last start tag); the rest is the input. Everything
//! `checks::check_all` checks: no panic, span contract, errors on/off, every scanner.
#![no_main]

use htmltok_fuzz::checks::{Options, check_all};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    if let Err(e) = check_all(input, &Options::from_byte(first)) {
        panic!("{e}");
    }
});
