//! htmltok-tree: the first byte chooses the options (`TreeOptions::from_byte`: scripting
//! on or off, a document or a fragment in one of a few contexts); the rest is the input.
//! The parse never panics, the arena's links are consistent, and where the standard says
//! it must, serializing and re-parsing gives the same tree (`htmltok_fuzz::tree`).
#![no_main]

use htmltok_fuzz::tree::{TreeOptions, check_tree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    if let Err(e) = check_tree(input, &TreeOptions::from_byte(first)) {
        panic!("{e}");
    }
});
