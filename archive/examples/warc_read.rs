//! Reads every record of WARC files and reports the payload throughput: the WARC reader
//! alone (inflate, WARC and HTTP headers, bodies), no tokenizing. What
//! `scripts/bench-warc.sh` compares with FastWARC.
//!
//! `cargo run --release -p htmltok-archive --example warc_read -- [--threads=N] [--repeat=N] FILE…`
//! (`--threads=N`: the parallel reader with N threads; default 1, the sequential reader.)

use std::time::Instant;

use htmltok_archive::warc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |name: &str, default: usize| {
        args.iter()
            .find_map(|a| a.strip_prefix(name))
            .map_or(default, |n| n.parse().expect("a number"))
    };
    let threads = number("--threads=", 1);
    let repeat = number("--repeat=", 1);
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if paths.is_empty() {
        eprintln!("usage: warc_read [--threads=N] [--repeat=N] FILE.warc[.gz]…");
        std::process::exit(2);
    }
    let mut best = f64::INFINITY;
    let (mut records, mut payload, mut errors) = (0u64, 0u64, 0u64);
    for _ in 0..repeat {
        (records, payload, errors) = (0, 0, 0);
        let started = Instant::now();
        for path in &paths {
            let reader = warc::open_parallel(path.as_ref(), threads).expect("open the WARC file");
            for item in reader {
                match item {
                    Ok(record) => {
                        records += 1;
                        payload += record.body.len() as u64;
                    }
                    Err(error) => {
                        errors += 1;
                        eprintln!("{path}: {error}");
                    }
                }
            }
        }
        best = best.min(started.elapsed().as_secs_f64());
    }
    println!(
        "htmltok warc_read (threads {threads}): {records} records, {errors} errors, {:.1} MB payload, {:.0} MB/s (best of {repeat})",
        payload as f64 / 1e6,
        payload as f64 / 1e6 / best
    );
}
