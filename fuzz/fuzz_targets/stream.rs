//! The stream tokenizer against the whole-input tokenizer (`checks::check_stream`): the
//! same tokens (text pieces joined) and errors, in the same order, with errors off and on.
//!
//! Layout: byte 0 chooses the options (`Options::from_byte`); byte 1 the run sizes
//! (`StreamTokenizer::set_run_sizes`: low 4 bits the fewest bytes a run waits for, 1 to
//! 16 × 16, high 4 bits the most it reads, 1 to 16 × 32; 0xFF: the defaults); byte 2 holds
//! `n` (1 to 8, from its low 3 bits), and the next `n` bytes the chunk sizes, cycled
//! (each byte + 1; 255 means one chunk for the rest); the rest is the input.
#![no_main]

use htmltok_fuzz::checks::{Options, check_stream};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [options, runs, count, rest @ ..] = data else {
        return;
    };
    let n = 1 + (count & 7) as usize;
    if rest.len() < n {
        return;
    }
    let (sizes, input) = rest.split_at(n);
    let chunks: Vec<usize> = sizes
        .iter()
        .map(|&b| if b == 255 { usize::MAX } else { b as usize + 1 })
        .collect();
    let runs = if *runs == 0xFF {
        (4096, 256 * 1024)
    } else {
        (16 * (1 + (runs & 15) as usize), 32 * (1 + (runs >> 4) as usize))
    };
    if let Err(e) = check_stream(input, &Options::from_byte(*options), &chunks, runs) {
        panic!("{e}");
    }
});
