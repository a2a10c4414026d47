//! How well `main_text()`'s page kind agrees with the multitype benchmark's labels:
//! `cargo run --release -p htmltok-content --example page_kind -- DIR` (or with
//! `HTMLTOK_MULTITYPE=DIR`), where DIR holds `html/NNNN.html.gz` and
//! `ground-truth/NNNN.json` (`_internal.page_type.primary` is the kind). Prints the
//! accuracy over all pages, over the pages whose number is not a multiple of three (the
//! rules were tuned on those) and over the held-out third, then the confusion matrix and
//! each kind's recall and precision.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use htmltok_content::main_text::PageKind;

/// A page's number, its true kind and the kind found.
struct Outcome {
    number: u32,
    truth: PageKind,
    found: PageKind,
}

fn read_page(dir: &Path, stem: &str) -> Result<(Vec<u8>, PageKind), String> {
    let mut html = Vec::new();
    let path = dir.join("html").join(format!("{stem}.html.gz"));
    std::fs::File::open(&path)
        .and_then(|f| flate2::read::GzDecoder::new(f).read_to_end(&mut html))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let path = dir.join("ground-truth").join(format!("{stem}.json"));
    let truth: serde_json::Value = std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let kind = truth["_internal"]["page_type"]["primary"]
        .as_str()
        .ok_or_else(|| format!("{}: no page_type.primary", path.display()))?;
    Ok((html, kind.parse()?))
}

fn accuracy(outcomes: &[&Outcome]) -> String {
    let right = outcomes.iter().filter(|o| o.truth == o.found).count();
    format!(
        "{right}/{} = {:.3}",
        outcomes.len(),
        right as f64 / outcomes.len().max(1) as f64
    )
}

fn main() -> ExitCode {
    let Some(dir) = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("HTMLTOK_MULTITYPE").ok())
    else {
        eprintln!("usage: page_kind DIR (or HTMLTOK_MULTITYPE=DIR)");
        return ExitCode::FAILURE;
    };
    let dir = Path::new(&dir);
    let mut stems: Vec<String> = match std::fs::read_dir(dir.join("html")) {
        Ok(entries) => entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|name| name.strip_suffix(".html.gz").map(str::to_string))
            .collect(),
        Err(e) => {
            eprintln!("{}: {e}", dir.join("html").display());
            return ExitCode::FAILURE;
        }
    };
    stems.sort();
    let mut outcomes = Vec::with_capacity(stems.len());
    for stem in &stems {
        let (html, truth) = match read_page(dir, stem) {
            Ok(page) => page,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let doc = htmltok_tree::parse(&html);
        let found = htmltok_content::main_text(&doc, &Default::default()).kind;
        let number = stem.parse().unwrap_or(0);
        outcomes.push(Outcome {
            number,
            truth,
            found,
        });
    }
    let all: Vec<&Outcome> = outcomes.iter().collect();
    let (held_out, tuned): (Vec<&Outcome>, Vec<&Outcome>) =
        all.iter().partition(|o| o.number % 3 == 0);
    println!("accuracy, all pages:        {}", accuracy(&all));
    println!("accuracy, tuned on (n%3≠0): {}", accuracy(&tuned));
    println!("accuracy, held out (n%3=0): {}", accuracy(&held_out));
    println!();
    let count = |truth: PageKind, found: PageKind| {
        outcomes
            .iter()
            .filter(|o| o.truth == truth && o.found == found)
            .count()
    };
    print!("{:>14}", "true \\ found");
    for kind in PageKind::ALL {
        print!("{:>6}", &kind.as_str()[..5]);
    }
    println!("  recall precision");
    for truth in PageKind::ALL {
        let total: usize = PageKind::ALL.iter().map(|&f| count(truth, f)).sum();
        let found: usize = PageKind::ALL.iter().map(|&t| count(t, truth)).sum();
        if total == 0 && found == 0 {
            continue;
        }
        print!("{:>14}", truth.as_str());
        for kind in PageKind::ALL {
            print!("{:>6}", count(truth, kind));
        }
        let ratio = |n: usize, d: usize| {
            if d == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", n as f64 / d as f64)
            }
        };
        println!(
            "  {:>6} {:>9}",
            ratio(count(truth, truth), total),
            ratio(count(truth, truth), found)
        );
    }
    ExitCode::SUCCESS
}
