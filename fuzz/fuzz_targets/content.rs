//! htmltok-content: the first byte chooses the options (`ContentOptions::from_byte`:
//! scripting, a document URL or none, main text's threshold, noscript in the visible
//! text); the rest is the page. `main_text`, `metadata` and `visible_text` never panic,
//! give no NUL and URLs that parse, and are deterministic (`htmltok_fuzz::content`).
#![no_main]

use htmltok_fuzz::content::{ContentOptions, check_content};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    if let Err(e) = check_content(input, &ContentOptions::from_byte(first)) {
        panic!("{e}");
    }
});
