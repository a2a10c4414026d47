//! The JSON writers: `json::write_token` and `json::write_error` output must parse (with
//! serde_json) to exactly the token's fields, and `json::html5lib` to the tokens and errors
//! of the same run. The first byte chooses the options.
#![no_main]

use htmltok_fuzz::checks::Options;
use htmltok_fuzz::writers::check_writers;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    if let Err(e) = check_writers(input, &Options::from_byte(first)) {
        panic!("{e}");
    }
});
