//! htmltok-select: byte 0 the options, byte 1 the selector's length, then the selector
//! (raw text, or choices for a small grammar) and the HTML (`htmltok_fuzz::select`).
//! Parsing the selector never panics; when it compiles, `select` on the document and
//! below elements, `select_first` and `Fields` agree with each other and with
//! `Selector::matches` on each node, and give elements in document order.
#![no_main]

use htmltok_fuzz::select::{SelectInput, check_select};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = SelectInput::from_bytes(data) else {
        return;
    };
    if let Err(e) = check_select(&input) {
        panic!("{e} (selector {:?})", input.css);
    }
});
