//! `Scanner::Scalar` against `Scanner::best()`: the same tokens and the same errors, with
//! errors off and on. The first byte chooses the options.
#![no_main]

use htmltok_fuzz::checks::{Options, check_scalar_vs_best};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    if let Err(e) = check_scalar_vs_best(input, &Options::from_byte(first)) {
        panic!("{e}");
    }
});
