//! Hostile inputs: huge or pathological documents, each tokenized with errors off and on
//! (every name, value, text and data decoded too), checking that time stays linear and
//! nothing overflows the stack.
//!
//! - `hostile_inputs_full` (ignored: it prints figures and needs a release build):
//!   `cargo test --release --test hostile -- --ignored --nocapture --test-threads=1`.
//!   Each case is tokenized at its full size N and at N/2 (best of two runs each); it
//!   prints size, time, MB/s, tokens, errors and peak memory (VmHWM from
//!   /proc/self/status; each measurement runs in a child process, the test binary itself,
//!   so the peak is that run's), and asserts time(N) ≤ 3 × time(N/2) + 20 ms (linear:
//!   about 2×; quadratic would be 4×).
//! - `hostile_inputs_small` (runs in `cargo test`): every case at about 1 MB, errors off
//!   and on: no panic, the span contract, the same tokens either way.
//!
//! Every run happens on a thread with a 512 KiB stack, so recursion that grows with the
//! input would overflow it.

use htmltok_test_support::checks;

use std::io::Write as _;
use std::time::{Duration, Instant};

use htmltok::{Scanner, Tokenizer};

const MB: usize = 1 << 20;

/// `prefix`, then `unit` repeated until the document is about `size` bytes, then `suffix`.
fn repeat_to(prefix: &str, unit: &str, size: usize, suffix: &str) -> Vec<u8> {
    let n = size.saturating_sub(prefix.len() + suffix.len()) / unit.len().max(1);
    let mut v = Vec::with_capacity(prefix.len() + n * unit.len() + suffix.len());
    v.extend_from_slice(prefix.as_bytes());
    for _ in 0..n {
        v.extend_from_slice(unit.as_bytes());
    }
    v.extend_from_slice(suffix.as_bytes());
    v
}

struct Case {
    name: &'static str,
    /// Full size in bytes.
    size: usize,
    make: fn(usize) -> Vec<u8>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "100 MB attribute value",
            size: 100 * MB,
            make: |n| repeat_to("<a href=\"", "x", n, "\">"),
        },
        Case {
            name: "100 MB comment (a-b )",
            size: 100 * MB,
            make: |n| repeat_to("<!--", "a-b ", n, "-->"),
        },
        Case {
            name: "1,000,000 nested <div>",
            size: 5_000_000,
            make: |n| repeat_to("", "<div>", n, ""),
        },
        Case {
            name: "10,000,000 &",
            size: 10_000_000,
            make: |n| repeat_to("", "&", n, ""),
        },
        Case {
            name: "1,000,000 <!-- in script",
            size: 4_000_008,
            make: |n| repeat_to("<script>", "<!--", n, ""),
        },
        Case {
            name: "50 MB of <",
            size: 50 * MB,
            make: |n| repeat_to("", "<", n, ""),
        },
        Case {
            name: "50 MB of </",
            size: 50 * MB,
            make: |n| repeat_to("", "</", n, ""),
        },
        Case {
            name: "25 MB of </>",
            size: 25 * MB,
            make: |n| repeat_to("x", "</>", n, "y"),
        },
        Case {
            name: "1,000,000 nested <svg>",
            size: 5_000_000,
            make: |n| repeat_to("", "<svg>", n, ""),
        },
        Case {
            name: "1,000,000 distinct attributes",
            size: 10_000_000,
            make: |n| {
                let mut v = b"<a".to_vec();
                let mut i = 0u64;
                while v.len() + 12 < n {
                    v.extend_from_slice(format!(" a{i:x}").as_bytes());
                    i += 1;
                }
                v.push(b'>');
                v
            },
        },
        Case {
            name: "2,000,000 equal attributes",
            size: 4_000_000,
            make: |n| repeat_to("<a", " a", n, ">"),
        },
        Case {
            name: "10 MB numeric reference &#999…",
            size: 10 * MB,
            make: |n| repeat_to("&#", "9", n, ";"),
        },
        Case {
            name: "10 MB &aaa… (no reference)",
            size: 10 * MB,
            make: |n| repeat_to("<a title=\"&", "a", n, "\">&"),
        },
        Case {
            name: "25 MB CDATA of ]",
            size: 25 * MB,
            make: |n| repeat_to("<svg><![CDATA[", "]", n, ""),
        },
        Case {
            name: "script double escapes",
            size: 20 * MB,
            make: |n| repeat_to("<script><!--", "<script></x>--!>", n, ""),
        },
        Case {
            name: "50 MB DOCTYPE public id",
            size: 50 * MB,
            make: |n| repeat_to("<!DOCTYPE html PUBLIC \"", "x", n, ""),
        },
        Case {
            name: "10 MB of NUL and CR",
            size: 10 * MB,
            make: |n| repeat_to("<title>", "\0\r", n, ""),
        },
    ]
}

struct Figures {
    time: Duration,
    tokens: usize,
    errors: usize,
}

fn status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Tokenizes `input` to the end (decoding everything) on a thread with a small stack.
fn tokenize(input: &[u8], errors: bool) -> Figures {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn_scoped(scope, || {
                let started = Instant::now();
                let mut tok = Tokenizer::builder().errors(errors).build(input);
                let mut tokens = 0;
                let mut decoded = 0;
                while let Some(token) = tok.next_token() {
                    tokens += 1;
                    decoded += checks::decoded_len(&token);
                }
                let errors = tok.errors().len();
                let time = started.elapsed();
                std::hint::black_box(decoded);
                Figures {
                    time,
                    tokens,
                    errors,
                }
            })
            .expect("spawn")
            .join()
            .expect("tokenizing panicked (or overflowed its stack)")
    })
}

fn loud(message: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{message}");
}

/// One measurement in a child process (so that its peak memory is its own): case index,
/// errors on or off, size. The child builds the input, tokenizes it twice and prints
/// `HOSTILE <ns of the faster run> <tokens> <errors> <peak KiB> <KiB before the input>`.
#[test]
#[ignore = "helper of hostile_inputs_full (runs in a child process)"]
fn hostile_child_process() {
    let Ok(spec) = std::env::var("HTMLTOK_HOSTILE_CHILD") else {
        return;
    };
    let parts: Vec<usize> = spec.split(',').map(|p| p.parse().unwrap()).collect();
    let (index, errors, size) = (parts[0], parts[1] == 1, parts[2]);
    let baseline = status_kb("VmRSS:").unwrap_or(0);
    let input = (cases()[index].make)(size);
    let a = tokenize(&input, errors);
    let b = tokenize(&input, errors);
    let best = if b.time < a.time { b } else { a };
    loud(&format!(
        "HOSTILE {} {} {} {} {}",
        best.time.as_nanos(),
        best.tokens,
        best.errors,
        status_kb("VmHWM:").unwrap_or(0),
        baseline
    ));
}

/// Runs [`hostile_child_process`] in a child process.
fn measure(index: usize, errors: bool, size: usize) -> (Figures, u64, u64) {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "hostile_child_process",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(
            "HTMLTOK_HOSTILE_CHILD",
            format!("{index},{},{size}", u8::from(errors)),
        )
        .output()
        .expect("run the child process");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let Some(line) = stdout
        .lines()
        .find_map(|l| l.split_once("HOSTILE ").map(|(_, r)| r))
    else {
        panic!(
            "case {} (errors {errors}, {size} bytes): the child failed (panic or stack \
             overflow?): {}\n{}",
            cases()[index].name,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let f: Vec<u64> = line
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    (
        Figures {
            time: Duration::from_nanos(f[0]),
            tokens: f[1] as usize,
            errors: f[2] as usize,
        },
        f[3],
        f[4],
    )
}

#[test]
#[ignore = "prints figures; run with --release --ignored (and --nocapture --test-threads=1)"]
fn hostile_inputs_full() {
    loud(&format!(
        "{:<32} {:>6} {:>6} {:>9} {:>7} {:>9} {:>9} {:>8} {:>8} {:>7}",
        "case", "MB", "errors", "ms", "MB/s", "tokens", "errors#", "peak MB", "+input", "N/(N/2)"
    ));
    let mut failures = Vec::new();
    for (index, case) in cases().iter().enumerate() {
        for errors in [false, true] {
            let (half, _, _) = measure(index, errors, case.size / 2);
            let (full, peak_kb, baseline_kb) = measure(index, errors, case.size);
            let ratio = full.time.as_secs_f64() / half.time.as_secs_f64().max(1e-9);
            let mb = case.size as f64 / MB as f64;
            let input_kb = case.size as u64 / 1024;
            loud(&format!(
                "{:<32} {:>6.1} {:>6} {:>9.1} {:>7.0} {:>9} {:>9} {:>8.0} {:>8.0} {:>7.2}",
                case.name,
                mb,
                if errors { "on" } else { "off" },
                full.time.as_secs_f64() * 1e3,
                mb / full.time.as_secs_f64().max(1e-9),
                full.tokens,
                full.errors,
                peak_kb as f64 / 1024.0,
                peak_kb.saturating_sub(baseline_kb + input_kb) as f64 / 1024.0,
                ratio
            ));
            if full.time > half.time * 3 + Duration::from_millis(20) {
                failures.push(format!(
                    "{} (errors {errors}): {:?} at N vs {:?} at N/2: not linear",
                    case.name, full.time, half.time
                ));
            }
        }
    }
    loud("peak MB: the child process's VmHWM; +input: peak minus the input and the RSS before it");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_small() {
    for case in cases() {
        let input = (case.make)(MB);
        let result = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(512 * 1024)
                .spawn_scoped(scope, || {
                    let off =
                        checks::run(&input, &checks::Options::default(), false, Scanner::best());
                    checks::check_spans(&input, &off.tokens)?;
                    let on =
                        checks::run(&input, &checks::Options::default(), true, Scanner::best());
                    checks::diff_tokens("errors off vs on", &off.tokens, &on.tokens)?;
                    checks::check_error_offsets(&input, &on.errors)
                })
                .expect("spawn")
                .join()
        });
        match result {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("{}: {e}", case.name),
            Err(_) => panic!("{}: panicked (or overflowed its stack)", case.name),
        }
    }
}
