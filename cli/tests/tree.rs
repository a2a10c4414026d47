//! `htmltok tree`: the binary on html5lib tree-construction cases (`tests1.dat`, and the
//! fragment cases of `tests_innerHTML_1.dat` with `--context`), compared line for line
//! with the cases' `#document`; the HTML serialization's round trip; `--scripting`; the
//! errors.
//!
//! The suite is found as `tree/tests/html5lib_tree.rs` finds it: `$HTML5LIB_TESTS/tree-construction`
//! or `$HTML5LIB_TESTS/../tree-construction`, else beside the tokenizer tests
//! (`data::html5lib_dir()/../tree-construction`), else
//! `tests/html5lib-tests/tree-construction`, else `../shared/html5lib-tests/tree-construction`.
//! When it is absent the html5lib test says `NOT RUN` and passes (fails under `CI`).

use htmltok_test_support::data;

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_htmltok");

/// Runs the binary with `args`, `stdin` as standard input.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn htmltok");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Write from another thread so that a large input cannot deadlock against the output.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().expect("wait for htmltok");
    writer.join().unwrap();
    output
}

/// Runs the binary, expects success and nothing on standard error; returns stdout.
fn stdout_of(args: &[&str], stdin: &[u8]) -> String {
    let output = run(args, stdin);
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "htmltok {args:?}: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

fn suite_dir() -> Result<PathBuf, String> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("HTML5LIB_TESTS").filter(|v| !v.is_empty()) {
        candidates.push(PathBuf::from(&dir).join("tree-construction"));
        candidates.push(PathBuf::from(&dir).join("../tree-construction"));
    }
    if let Ok(tokenizer) = data::html5lib_dir() {
        candidates.push(tokenizer.join("../tree-construction"));
    }
    let root = data::workspace_root();
    candidates.push(root.join("tests/html5lib-tests/tree-construction"));
    candidates.push(root.join("../shared/html5lib-tests/tree-construction"));
    candidates
        .iter()
        .find(|dir| dir.join("tests1.dat").is_file() && dir.join("tests_innerHTML_1.dat").is_file())
        .cloned()
        .ok_or_else(|| {
            format!(
                "the html5lib tree-construction tests are absent (looked in {}); get them with \
                 a clone of https://github.com/html5lib/html5lib-tests at tests/html5lib-tests",
                candidates
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// One case of a `.dat` file.
struct Case {
    data: String,
    fragment: Option<String>,
    script_on: bool,
    document: String,
}

/// The cases of a `.dat` file (as `tree/tests/html5lib_tree.rs` reads them: `#data` up to
/// the next section, the `#document` lines without the blank line ending the case).
fn parse_dat(text: &str) -> Vec<Case> {
    /// A case being read: its data and document lines.
    struct Partial<'t> {
        data: Vec<&'t str>,
        fragment: Option<String>,
        script_on: bool,
        document: Vec<&'t str>,
    }
    fn finish(mut case: Partial<'_>, cases: &mut Vec<Case>) {
        while case.document.last().is_some_and(|l| l.is_empty()) {
            case.document.pop();
        }
        cases.push(Case {
            data: case.data.join("\n"),
            fragment: case.fragment,
            script_on: case.script_on,
            document: case.document.join("\n"),
        });
    }
    let mut cases = Vec::new();
    let mut section = "";
    let mut current: Option<Partial<'_>> = None;
    for line in text.split('\n') {
        match line {
            "#data" => {
                if let Some(case) = current.take() {
                    finish(case, &mut cases);
                }
                current = Some(Partial {
                    data: Vec::new(),
                    fragment: None,
                    script_on: false,
                    document: Vec::new(),
                });
                section = "data";
            }
            "#errors" | "#new-errors" => section = "errors",
            "#document-fragment" => section = "fragment",
            "#document" => section = "document",
            "#script-on" => {
                if let Some(case) = current.as_mut() {
                    case.script_on = true;
                }
            }
            "#script-off" => {}
            _ => {
                if let Some(case) = current.as_mut() {
                    match section {
                        "data" => case.data.push(line),
                        "fragment" => case.fragment = Some(line.to_owned()),
                        "document" => case.document.push(line),
                        _ => {}
                    }
                }
            }
        }
    }
    if let Some(case) = current.take() {
        finish(case, &mut cases);
    }
    cases
}

/// Every case of `tests1.dat` and `tests_innerHTML_1.dat` without `#script-on`: the
/// binary's output (through standard input, the encoding decided as by default) is the
/// case's `#document` and a line end.
#[test]
fn html5lib_cases_print_their_document() {
    let dir = match suite_dir() {
        Ok(dir) => dir,
        Err(message) => {
            data::missing(
                "htmltok tree on the html5lib tree-construction cases",
                &message,
            );
            return;
        }
    };
    let mut ran = 0;
    let mut fragments = 0;
    let mut failures = Vec::new();
    for file in ["tests1.dat", "tests_innerHTML_1.dat"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("read a .dat file");
        let cases = parse_dat(&text);
        assert!(cases.len() > 50, "{file}: only {} cases", cases.len());
        for (i, case) in cases.iter().enumerate() {
            if case.script_on {
                continue;
            }
            let mut args = vec!["tree", "--format", "html5lib"];
            if let Some(context) = &case.fragment {
                args.extend(["--context", context]);
                fragments += 1;
            }
            let got = stdout_of(&args, case.data.as_bytes());
            let expected = if case.document.is_empty() {
                String::new()
            } else {
                format!("{}\n", case.document)
            };
            if got != expected {
                failures.push(format!(
                    "{file}:{i}: {args:?}\ninput: {:?}\nexpected:\n{expected}got:\n{got}",
                    case.data
                ));
            }
            ran += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        ran > 150 && fragments > 50,
        "{ran} cases, {fragments} fragments"
    );
}

/// `--format html` writes the serialization with no line end added; parsed again it gives
/// the same tree and the same serialization.
#[test]
fn html_format_round_trips() {
    let input = "<!DOCTYPE html><title>A &amp; B</title><p class=\"x y\">One<br>two &lt;3\
                 <ul><li>a<li>b</ul><!-- note --><p>Fish &amp; chips&nbsp;<a href=\"/x?a=1&amp;b=2\">link</a>";
    let html = stdout_of(&["tree", "--format", "html"], input.as_bytes());
    assert_eq!(
        html,
        "<!DOCTYPE html><html><head><title>A &amp; B</title></head><body>\
         <p class=\"x y\">One<br>two &lt;3</p><ul><li>a</li><li>b</li></ul><!-- note -->\
         <p>Fish &amp; chips&nbsp;<a href=\"/x?a=1&amp;b=2\">link</a></p></body></html>"
    );
    assert_eq!(
        stdout_of(&["tree"], html.as_bytes()),
        stdout_of(&["tree"], input.as_bytes())
    );
    assert_eq!(
        stdout_of(&["tree", "--format", "html"], html.as_bytes()),
        html
    );
    // A fragment: its nodes only.
    assert_eq!(
        stdout_of(
            &["tree", "--format", "html", "--context", "tr"],
            b"<td>a<td>b"
        ),
        "<td>a</td><td>b</td>"
    );
}

/// Off (the default), `<noscript>` content is markup; with `--scripting`, raw text.
#[test]
fn scripting_changes_noscript() {
    let input = b"<body><noscript><p>x</p></noscript>";
    assert_eq!(
        stdout_of(&["tree"], input),
        "| <html>\n|   <head>\n|   <body>\n|     <noscript>\n|       <p>\n|         \"x\"\n"
    );
    assert_eq!(
        stdout_of(&["tree", "--scripting"], input),
        "| <html>\n|   <head>\n|   <body>\n|     <noscript>\n|       \"<p>x</p>\"\n"
    );
}

/// The encoding is decided (here by a `<meta charset>`) unless `--no-decode`.
#[test]
fn the_encoding_is_decided() {
    let input = b"<meta charset=windows-1252><p>caf\xe9";
    let tree = stdout_of(&["tree"], input);
    assert!(tree.ends_with("|       \"caf\u{e9}\"\n"), "{tree}");
    let tree = stdout_of(&["tree", "--no-decode"], input);
    assert!(tree.ends_with("|       \"caf\u{fffd}\"\n"), "{tree}");
}

/// A bad `--context` and a missing file: one line on standard error, exit status 2.
#[test]
fn errors_are_one_line_with_status_2() {
    for context in ["", "svg a b", "html svg", "1td", "svg", "td/"] {
        let output = run(&["tree", "--context", context], b"<p>");
        let stderr = String::from_utf8_lossy(&output.stderr);
        if context == "svg" {
            // An HTML element named svg: a valid context.
            assert!(output.status.success(), "{context:?}: {stderr}");
            continue;
        }
        assert_eq!(output.status.code(), Some(2), "{context:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{context:?}");
        assert_eq!(stderr.lines().count(), 1, "{context:?}: {stderr}");
        assert!(
            stderr.starts_with("htmltok: invalid value") && stderr.contains("--context"),
            "{context:?}: {stderr}"
        );
    }
    let output = run(&["tree", "/nonexistent/page.html"], b"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "htmltok: cannot read '/nonexistent/page.html': No such file or directory\n"
    );
    assert!(output.stdout.is_empty());
}

/// A document's encoding is decided by the tree it prints: a late `<meta>` that names
/// another encoding makes the page be parsed again with it, and a `<meta>` the tree
/// builder ignores (after `<frameset>`) changes nothing, where the token pass would take
/// it.
#[test]
fn the_late_meta_is_decided_by_the_tree() {
    let padding = format!("<script>var s = '{}';</script>", "x".repeat(2000));
    let mut page = b"<head><title>\xF0\xD2\xC9\xD7\xC5\xD4</title>".to_vec(); // KOI8-R
    page.extend_from_slice(format!("{padding}<meta charset=koi8-r>").as_bytes());
    let out = stdout_of(&["tree", "--format", "html"], &page);
    assert!(out.contains("<title>Привет</title>"), "{out}");

    let mut page = b"<head><title>caf\xE9 cr\xE8me</title>".to_vec(); // windows-1252
    page.extend_from_slice(
        format!("{padding}</head><frameset><meta charset=windows-1251>").as_bytes(),
    );
    let out = stdout_of(&["tree", "--format", "html"], &page);
    assert!(out.contains("<title>café crème</title>"), "{out}");
}
