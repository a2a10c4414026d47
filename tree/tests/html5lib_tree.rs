//! The html5lib tree-construction tests, one trial per case (`file.dat:index`, and for
//! cases without a `#script-on`/`#script-off` line, one trial per scripting mode). Every
//! `.dat` file outside `scripted/` (whose cases need a JavaScript engine) runs; document
//! cases parse with `htmltok_tree::parse`, `#document-fragment` cases with
//! `parse_fragment`. Only the tree is compared (`#document`), not `#errors`: the tree
//! builder does not report parse errors. Each document case is also parsed on the tokens
//! of the tokenizer's own simulation of tree construction, which must give the same tree.
//!
//! The suite is found in `$HTML5LIB_TESTS/tree-construction` or
//! `$HTML5LIB_TESTS/../tree-construction` (when the variable names the tokenizer folder,
//! as for the tokenizer suite), else
//! `tests/html5lib-tests/tree-construction`, else `../shared/html5lib-tests/tree-construction`.
//! When it is absent the run prints `htmltok tests: NOT RUN: …` and passes, unless `CI` or
//! `HTMLTOK_REQUIRE_DATA` is set.

use htmltok_test_support::data;

use std::path::{Path, PathBuf};

use htmltok_tree::{FragmentContext, Parser};
use libtest_mimic::{Arguments, Trial};

/// The suite's size outside `scripted/` (2026-06), checked by the `tree/suite/size`
/// trial so that a partial or changed copy cannot pass unnoticed.
const EXPECTED_CASES: usize = 1792;

fn main() {
    let args = Arguments::from_args();
    let trials = match suite_dir() {
        Ok(dir) => trials(&dir),
        Err(message) if data::data_required() => {
            vec![Trial::test("tree/suite/present", move || {
                Err(format!("{message} (CI or HTMLTOK_REQUIRE_DATA is set)").into())
            })]
        }
        Err(message) => {
            data::missing("the html5lib tree-construction suite", &message);
            Vec::new()
        }
    };
    libtest_mimic::run(&args, trials).exit();
}

fn suite_dir() -> Result<PathBuf, String> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("HTML5LIB_TESTS").filter(|v| !v.is_empty()) {
        // The repository's root, or (as for the tokenizer suite) its `tokenizer` folder.
        candidates.push(PathBuf::from(&dir).join("tree-construction"));
        candidates.push(PathBuf::from(&dir).join("../tree-construction"));
    }
    if let Ok(tok) = data::html5lib_dir() {
        candidates.push(tok.join("../tree-construction"));
    }
    let root = data::workspace_root();
    candidates.push(root.join("tests/html5lib-tests/tree-construction"));
    candidates.push(root.join("../shared/html5lib-tests/tree-construction"));
    for dir in &candidates {
        if dir.join("tests1.dat").is_file() {
            return Ok(dir.clone());
        }
    }
    Err(format!(
        "the html5lib tree-construction tests are absent (looked in {}); get them with `git \
         clone --depth 1 https://github.com/html5lib/html5lib-tests tests/html5lib-tests` \
         (from the repository's root; the folder is ignored by git), or set HTML5LIB_TESTS \
         to a clone of html5lib-tests elsewhere",
        candidates
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// One case of a `.dat` file.
#[derive(Clone, Debug)]
struct Case {
    data: String,
    fragment: Option<String>,
    scripting: Option<bool>,
    document: String,
}

fn parse_dat(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut section = "";
    let mut data = Vec::new();
    let mut fragment = None;
    let mut scripting = None;
    let mut document: Vec<&str> = Vec::new();
    let mut flush = |data: &mut Vec<&str>,
                     fragment: &mut Option<String>,
                     scripting: &mut Option<bool>,
                     document: &mut Vec<&str>| {
        if data.is_empty() && document.is_empty() {
            return;
        }
        // The document section ends with the blank line between cases.
        while document.last().is_some_and(|l| l.is_empty()) {
            document.pop();
        }
        cases.push(Case {
            data: data.join("\n"),
            fragment: fragment.take(),
            scripting: scripting.take(),
            document: document.join("\n"),
        });
        data.clear();
        document.clear();
    };
    for line in text.split('\n') {
        if line == "#data" {
            flush(&mut data, &mut fragment, &mut scripting, &mut document);
            section = "data";
            continue;
        }
        match line {
            "#errors" | "#new-errors" => {
                section = "errors";
                continue;
            }
            "#document-fragment" => {
                section = "fragment";
                continue;
            }
            "#script-off" => {
                scripting = Some(false);
                continue;
            }
            "#script-on" => {
                scripting = Some(true);
                continue;
            }
            "#document" => {
                section = "document";
                continue;
            }
            _ => {}
        }
        match section {
            "data" => data.push(line),
            "fragment" => fragment = Some(line.to_owned()),
            "document" => document.push(line),
            _ => {}
        }
    }
    flush(&mut data, &mut fragment, &mut scripting, &mut document);
    cases
}

fn trials(dir: &Path) -> Vec<Trial> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the tree-construction folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    let mut trials = Vec::new();
    let mut cases = 0;
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).expect("read a .dat file");
        for (i, case) in parse_dat(&text).into_iter().enumerate() {
            cases += 1;
            let modes: Vec<bool> = match case.scripting {
                Some(s) => vec![s],
                None => vec![false, true],
            };
            for scripting in modes {
                let suffix = match case.scripting {
                    Some(_) => "",
                    None if scripting => "/script-on",
                    None => "/script-off",
                };
                let name = format!("tree/{stem}.dat:{i}{suffix}");
                let case = case.clone();
                trials.push(Trial::test(name, move || run(&case, scripting)));
            }
        }
    }
    trials.push(Trial::test("tree/suite/size", move || {
        if cases == EXPECTED_CASES {
            Ok(())
        } else {
            Err(format!("{cases} cases, expected {EXPECTED_CASES}").into())
        }
    }));
    trials
}

fn run(case: &Case, scripting: bool) -> Result<(), libtest_mimic::Failed> {
    let parser = Parser::new().scripting(scripting);
    let input = case.data.as_bytes();
    let doc = match &case.fragment {
        Some(ctx) => parser.parse_fragment(input, &FragmentContext::from_test_string(ctx)),
        None => parser.parse(input),
    };
    let got = doc.to_test_format();
    // When the arena claims tree order, it is tree order (see `Document::in_tree_order`).
    if doc.in_tree_order() {
        let walked: Vec<u32> = doc.root().descendants().map(|n| n.id()).collect();
        if walked.len() + 1 != doc.node_count() || walked.iter().zip(1..).any(|(&w, i)| w != i) {
            return Err(format!(
                "input:\n{}\nin_tree_order() but the walk gives {walked:?} of {} nodes",
                case.data,
                doc.node_count()
            )
            .into());
        }
    }
    // A document given as a `&str` (its text decoded without UTF-8 checks) is the same.
    if case.fragment.is_none() {
        let from_str = parser.parse_str(&case.data).to_test_format();
        if from_str != got {
            return Err(format!(
                "input:\n{}\nparse_str gave:\n{from_str}\nparse gave:\n{got}",
                case.data
            )
            .into());
        }
        // The tokenizer's own simulation of tree construction (what `htmltok::Tokenizer`
        // does without a tree builder) switches it as this tree builder does: the tree
        // built on its tokens is the same (`tree/tests/simulator.rs` for real pages).
        let simulated = parser
            .simulated_feedback(true)
            .parse(case.data.as_bytes())
            .to_test_format();
        if simulated != got {
            return Err(format!(
                "input:\n{}\nwith the tokenizer's simulation:\n{simulated}\nwith the tree \
                 builder's feedback:\n{got}",
                case.data
            )
            .into());
        }
    }
    if got == case.document {
        Ok(())
    } else {
        Err(format!(
            "input:\n{}\ncontext: {:?}, scripting: {scripting}\nexpected:\n{}\ngot:\n{}",
            case.data, case.fragment, case.document, got
        )
        .into())
    }
}
