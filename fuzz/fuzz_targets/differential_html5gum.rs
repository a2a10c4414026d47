//! htmltok against html5gum 0.9: valid UTF-8 only, data state, simulation off (so neither
//! switches to RCDATA, RAWTEXT, … and `<![CDATA[` is a bogus comment in both), tokens in
//! the html5lib-like form with text coalesced and attributes sorted by name.
//!
//! Known html5gum deviations, normalised or excepted (see `checks.rs`):
//! - A DOCTYPE's name is a plain byte string in html5gum, so a missing name (`<!DOCTYPE>`)
//!   and an empty one look alike: its empty name is read as missing. (htmltok's name is
//!   never empty: the DOCTYPE name state starts with one character.)
//! - html5gum keeps attributes in a `BTreeMap`, so their source order is lost: attributes
//!   are compared sorted by name.
//! - html5gum end tags carry no attributes or self-closing flag: end tags are compared by
//!   name only (as the html5lib tests do).
//! - Parse errors are not compared (html5gum's `Error` tokens are skipped).
#![no_main]

use htmltok_fuzz::peers::check_html5gum;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if std::str::from_utf8(data).is_err() {
        return;
    }
    if let Err(e) = check_html5gum(data) {
        panic!("{e}");
    }
});
