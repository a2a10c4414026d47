//! The parallel WARC reader yields exactly the sequential reader's records and errors on
//! any input (see `test-support/src/warc.rs`). The first byte chooses the part size (16–271
//! bytes) and the thread count (2 or 3); the rest is the WARC file. Seeds worth adding:
//! `corpus/sample.warc.gz`, `fuzz/warc-seeds/sample.warc.zst` and `.lz4`, or files written by
//! `crawl/tests/warc_parallel.rs`'s generator.
#![no_main]

use htmltok_fuzz::warc::check_parallel;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let part = 16 + u64::from(first);
    let threads = 2 + usize::from(first & 1);
    if let Err(e) = check_parallel(input, part, threads) {
        panic!("{e}");
    }
});
