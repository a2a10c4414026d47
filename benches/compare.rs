//! Wall-time comparison of htmltok with html5ever, html5gum and lol-html on the real-page
//! corpus, all engines measured in the same run on the same pre-loaded inputs.
//!
//! ```text
//! cargo bench -p htmltok-benches --bench compare              # every category group, then `total`
//! cargo bench -p htmltok-benches --bench compare -- total     # only the whole-corpus group
//! cargo bench -p htmltok-benches --bench compare -- news/     # only one category
//! HTMLTOK_BENCH_COUNTS=1 cargo bench -p htmltok-benches --bench compare -- total   # also print token counts
//! ```
//!
//! One criterion group per corpus category plus `total`; benchmark ids are
//! `<group>/<engine>`; throughput is the group's input bytes per iteration (one iteration
//! tokenizes every page of the group once). `scripts/bench-table.sh` turns the results in
//! `target/criterion` into a markdown table. See BENCHMARKS.md.

use htmltok_benches as common;

use std::hint::black_box;
use std::time::Duration;

use common::{Engine, Page, counts_table, load_corpus};
use criterion::{Criterion, SamplingMode, Throughput};

/// Measurement time per engine in a category group and in `total` (overridable with
/// `HTMLTOK_BENCH_SECS` / `HTMLTOK_BENCH_TOTAL_SECS`, in seconds).
const CATEGORY_SECS: f64 = 2.0;
const TOTAL_SECS: f64 = 6.0;

fn secs_from_env(var: &str, default: f64) -> Duration {
    let secs = std::env::var(var)
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(default);
    Duration::from_secs_f64(secs)
}

fn bench_group(c: &mut Criterion, name: &str, pages: &[&Page], measurement: Duration) {
    let bytes: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    let mut group = c.benchmark_group(name);
    group
        .throughput(Throughput::Bytes(bytes))
        // Flat: every sample runs the same number of iterations, so a slow engine on a big
        // group needs only `sample_size` iterations in all.
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(measurement)
        .nresamples(20_000);
    for engine in Engine::ALL {
        group.bench_function(engine.name(), |b| {
            b.iter(|| {
                let mut checksum = 0u64;
                for page in pages {
                    checksum =
                        checksum.wrapping_add(black_box(engine.run(black_box(page))).checksum);
                }
                checksum
            })
        });
    }
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let corpus = load_corpus(true);
    eprintln!(
        "corpus: {} ({} pages, {} bytes)",
        corpus.dir.display(),
        corpus.pages.len(),
        corpus.bytes()
    );

    let all: Vec<&Page> = corpus.pages.iter().collect();
    if std::env::var_os("HTMLTOK_BENCH_COUNTS").is_some_and(|v| !v.is_empty() && v != "0") {
        println!("\nWhat each engine saw over the whole corpus (one run each):\n");
        println!("{}", counts_table(&all, &Engine::ALL));
    }

    let category_time = secs_from_env("HTMLTOK_BENCH_SECS", CATEGORY_SECS);
    let total_time = secs_from_env("HTMLTOK_BENCH_TOTAL_SECS", TOTAL_SECS);
    for category in corpus.categories() {
        let pages = corpus.category(category);
        bench_group(&mut criterion, category, &pages, category_time);
    }
    bench_group(&mut criterion, "total", &all, total_time);

    criterion.final_summary();
}
