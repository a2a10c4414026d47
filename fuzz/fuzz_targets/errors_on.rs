//! Errors on (default options otherwise): no panic; the same tokens as with errors off;
//! every error offset inside the input; `PositionTracker` positions for every error, equal
//! to an independent reference at character starts (and `htmltok::position` agreeing).
#![no_main]

use htmltok::Scanner;
use htmltok_fuzz::checks::{
    Options, check_error_offsets, check_positions, check_spans, diff_tokens, run,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = Options::default();
    let on = run(data, &options, true, Scanner::best());
    let off = run(data, &options, false, Scanner::best());
    let result = check_spans(data, &on.tokens)
        .and_then(|()| diff_tokens("errors on vs off", &on.tokens, &off.tokens))
        .and_then(|()| check_error_offsets(data, &on.errors))
        .and_then(|()| check_positions(data, &on.errors));
    if let Err(e) = result {
        panic!("{e}");
    }
    if let Some(last) = on.errors.last() {
        let mut tracker = htmltok::PositionTracker::new(data);
        assert_eq!(
            tracker.position(last.offset),
            htmltok::position(data, last.offset)
        );
    }
});
