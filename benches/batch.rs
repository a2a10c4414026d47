//! `htmltok_crawl::batch` on the corpus with 1 and with 2 worker threads: does the map-reduce
//! scale? Each iteration walks the corpus folder, reads every page from disk (the page
//! cache, after the warm-up), decodes it to UTF-8 as the `encoding` feature does and
//! tokenizes it, counting tokens. The two rayon pools are built once, outside the timing
//! (`map_reduce` runs on the pool whose `install` it is called in).
//!
//! ```text
//! cargo bench -p htmltok-benches --bench batch                      # criterion groups, then the speedup line
//! HTMLTOK_BATCH_ROUNDS=9 cargo bench -p htmltok-benches --bench batch -- --speedup-only
//! ```
//!
//! The corpus is `$HTMLTOK_CORPUS`, else `../shared/corpus`, else `corpus/` (relative to
//! the workspace), whichever holds a MANIFEST.tsv. After criterion's report the bench prints
//! `batch speedup: 2 threads / 1 thread = X.XX×` from interleaved rounds (median of
//! `HTMLTOK_BATCH_ROUNDS`, default 5, of each), so that a load change on the machine hits
//! both sides alike.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};
use htmltok::Token;
use htmltok_crawl::batch::{self, Options, Source};
use rayon::{ThreadPool, ThreadPoolBuilder};

fn corpus_dir() -> PathBuf {
    htmltok_benches::corpus_candidates()
        .into_iter()
        .find(|dir| dir.join("MANIFEST.tsv").is_file())
        .unwrap_or_else(|| {
            eprintln!("batch bench: no corpus (set HTMLTOK_CORPUS)");
            std::process::exit(1)
        })
}

/// One pass over the corpus on the current rayon pool: (documents, tokens, bytes).
fn pass(dir: &Path) -> (u64, u64, u64) {
    let result = batch::map_reduce(
        [Source::from(dir)],
        &Options::new(),
        |doc| {
            let mut tokenizer = doc.tokenizer();
            let mut tokens = 0u64;
            while let Some(token) = tokenizer.next_token() {
                tokens += 1 + matches!(token, Token::StartTag(_)) as u64;
            }
            tokens
        },
        |a, b| a + b,
        || 0,
    );
    assert!(
        result.failures.is_empty(),
        "batch bench: {:?}",
        result.failures
    );
    (result.documents, black_box(result.value), result.bytes)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let dir = corpus_dir();
    // One pool per thread count, built once: `Options::threads(n)` would build a pool on
    // every call, and the bench measures the batch, not thread start-up.
    let pools: Vec<(usize, ThreadPool)> = [1, 2]
        .into_iter()
        .map(|n| (n, ThreadPoolBuilder::new().num_threads(n).build().unwrap()))
        .collect();
    let pass_on = |threads: usize| {
        let (_, pool) = pools.iter().find(|(n, _)| *n == threads).unwrap();
        pool.install(|| pass(&dir))
    };
    let (documents, tokens, bytes) = pass_on(1);
    eprintln!(
        "batch bench: {} ({documents} documents, {:.1} MB, {tokens} tokens)",
        dir.display(),
        bytes as f64 / 1e6
    );
    let speedup_only = std::env::args().any(|a| a == "--speedup-only");
    if !speedup_only {
        let mut c = Criterion::default()
            .configure_from_args()
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(8));
        let mut group = c.benchmark_group("batch");
        group
            .throughput(Throughput::Bytes(bytes))
            .sampling_mode(SamplingMode::Flat);
        for threads in [1, 2] {
            group.bench_function(format!("{threads}-thread"), |b| b.iter(|| pass_on(threads)));
        }
        group.finish();
        c.final_summary();
    }
    let rounds: usize = std::env::var("HTMLTOK_BATCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(5);
    let (mut one, mut two) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        for (threads, times) in [(1, &mut one), (2, &mut two)] {
            let started = Instant::now();
            pass_on(threads);
            times.push(started.elapsed());
        }
    }
    let (one, two) = (median(one), median(two));
    let mb = bytes as f64 / 1e6;
    println!(
        "batch speedup: 2 threads / 1 thread = {:.2}x ({:.1} MB/s vs {:.1} MB/s; median of {rounds} rounds, {} cores available)",
        one.as_secs_f64() / two.as_secs_f64(),
        mb / two.as_secs_f64(),
        mb / one.as_secs_f64(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    );
}
