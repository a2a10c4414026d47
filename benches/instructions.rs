//! Instruction counts (Valgrind's callgrind, through gungraun) for htmltok, and for the
//! peers html5gum and lol-html (with and without handlers), on five fixed corpus pages,
//! one of each kind: news, wikipedia, script-heavy, svg-mathml, cjk.
//!
//! ```text
//! scripts/install-bench-tools.sh          # once: gungraun-runner of the same version
//! cargo bench -p htmltok-benches --bench instructions
//! ```
//!
//! Only the benchmark function is counted (the page is read in gungraun's `setup`).
//! Instructions per input byte = reported instructions / page bytes: `scripts/bench-table.sh`
//! prints them from gungraun's summary files (see BENCHMARKS.md).

use htmltok_benches as common;

use std::hint::black_box;

use common::Stats;
use gungraun::prelude::*;

/// The pages, by benchmark id; keep in step with `scripts/bench-table.sh`, which reads the
/// path back out of gungraun's summary.
pub const PAGES: [(&str, &str); 5] = [
    ("news", "news/wsj-greece-2013.html"),
    ("wikipedia", "wikipedia/wikipedia-2013-brampton.html"),
    ("script_heavy", "script-heavy/reuters-parasite-2020.html"),
    ("svg_mathml", "svg-mathml/adac-de-419-svg.html"),
    ("cjk", "cjk/yomiuri-ja.html"),
];

/// gungraun setup: the page's bytes (leaked, so that freeing them is not counted either).
fn load(path: &str) -> &'static [u8] {
    let file = common::corpus_dir_or_exit().join(path);
    let bytes = std::fs::read(&file).unwrap_or_else(|e| {
        eprintln!("error: cannot read {}: {e}", file.display());
        std::process::exit(2);
    });
    Vec::leak(bytes)
}

/// Run once before any benchmark, outside valgrind's count: fail early and clearly when
/// there is no corpus.
fn check_corpus() {
    let dir = common::corpus_dir_or_exit();
    for (_, path) in PAGES {
        if !dir.join(path).is_file() {
            eprintln!(
                "error: {} is missing from the corpus at {}",
                path,
                dir.display()
            );
            std::process::exit(2);
        }
    }
}

macro_rules! instruction_bench {
    ($name:ident, $driver:path) => {
        #[library_benchmark]
        #[bench::news(args = ("news/wsj-greece-2013.html"), setup = load)]
        #[bench::wikipedia(args = ("wikipedia/wikipedia-2013-brampton.html"), setup = load)]
        #[bench::script_heavy(args = ("script-heavy/reuters-parasite-2020.html"), setup = load)]
        #[bench::svg_mathml(args = ("svg-mathml/adac-de-419-svg.html"), setup = load)]
        #[bench::cjk(args = ("cjk/yomiuri-ja.html"), setup = load)]
        fn $name(input: &'static [u8]) -> Stats {
            black_box($driver(black_box(input)))
        }
    };
}

instruction_bench!(htmltok, common::htmltok_spans);
instruction_bench!(htmltok_decode_all, common::htmltok_decode_all);
instruction_bench!(htmltok_errors_on, common::htmltok_errors_on);
instruction_bench!(htmltok_tape, common::htmltok_tape);
// The peers on the same pages, for instructions per byte beside htmltok's.
instruction_bench!(html5gum, common::html5gum_tokenize);
instruction_bench!(lol_html, common::lol_html_handlers);
instruction_bench!(lol_html_no_handlers, common::lol_html_no_handlers);

library_benchmark_group!(
    name = htmltok_instructions,
    benchmarks = [htmltok, htmltok_decode_all, htmltok_errors_on, htmltok_tape]
);

library_benchmark_group!(
    name = peer_instructions,
    benchmarks = [html5gum, lol_html, lol_html_no_handlers]
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_env("HTMLTOK_CORPUS"),
    setup = check_corpus(),
    library_benchmark_groups = [htmltok_instructions, peer_instructions]
);
