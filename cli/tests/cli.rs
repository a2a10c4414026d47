//! Runs the `htmltok` binary on small inputs (through standard input and files) and checks
//! its output, exit status and error messages.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

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

/// Runs the binary, expects success and no stderr, and parses every output line as JSON.
fn json_lines(args: &[&str], stdin: &[u8]) -> Vec<Value> {
    let output = run(args, stdin);
    assert!(
        output.status.success(),
        "htmltok {args:?} failed: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("output is UTF-8");
    assert!(stdout.ends_with('\n') || stdout.is_empty(), "{stdout:?}");
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}")))
        .collect()
}

/// Expects exit status 2, no output, and exactly one line `htmltok: …` on stderr.
fn expect_usage_error(args: &[&str], stdin: &[u8]) -> String {
    let output = run(args, stdin);
    assert_eq!(output.status.code(), Some(2), "htmltok {args:?}");
    assert!(
        output.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&output.stdout)
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("htmltok: "), "{stderr:?}");
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(!stderr.contains("panicked"), "{stderr:?}");
    stderr
}

/// A file in a fresh temporary directory (removed by the caller's guard).
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &[u8]) -> TempFile {
        let dir =
            std::env::temp_dir().join(format!("htmltok-cli-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

#[test]
fn every_token_type_as_a_json_line() {
    let html =
        b"<!DOCTYPE html><a HREF=\"/x?a=1&amp;b\" checked>Fish &amp; chips</a><!-- note --><br/>";
    let lines = json_lines(&["tokens"], html);
    assert_eq!(
        lines,
        [
            json!({"type":"Doctype","start":0,"end":15,"name":"html","public_id":null,
                   "system_id":null,"force_quirks":false}),
            json!({"type":"StartTag","start":15,"end":46,"name":"a",
                   "attrs":[["href","/x?a=1&b"],["checked",""]],"self_closing":false}),
            json!({"type":"Text","start":46,"end":62,"text":"Fish & chips"}),
            json!({"type":"EndTag","start":62,"end":66,"name":"a","attrs":[],
                   "self_closing":false}),
            json!({"type":"Comment","start":66,"end":79,"data":" note "}),
            json!({"type":"StartTag","start":79,"end":84,"name":"br","attrs":[],
                   "self_closing":true}),
        ]
    );
    // The spans cover the input.
    let end = lines.last().unwrap()["end"].as_u64().unwrap();
    assert_eq!(end as usize, html.len());
}

#[test]
fn doctype_identifiers_and_force_quirks() {
    let lines = json_lines(
        &["tokens"],
        b"<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" 'http://x/y.dtd'><!DOCTYPE>",
    );
    assert_eq!(
        lines,
        [
            json!({"type":"Doctype","start":0,"end":67,"name":"html",
                   "public_id":"-//W3C//DTD HTML 4.01//EN","system_id":"http://x/y.dtd",
                   "force_quirks":false}),
            json!({"type":"Doctype","start":67,"end":77,"name":null,"public_id":null,
                   "system_id":null,"force_quirks":true}),
        ]
    );
}

#[test]
fn file_argument_and_dash_read_the_same_input() {
    let html = b"<p class=x>a\r\nb</p>";
    let file = TempFile::new("page.html", html);
    let from_file = json_lines(&["tokens", file.path()], b"");
    let from_dash = json_lines(&["tokens", "-"], html);
    let from_stdin = json_lines(&["tokens"], html);
    assert_eq!(from_file, from_dash);
    assert_eq!(from_file, from_stdin);
    assert_eq!(
        from_file[1],
        json!({"type":"Text","start":11,"end":15,"text":"a\nb"})
    );
}

#[test]
fn simulation_is_on_by_default_and_can_be_turned_off() {
    let html = b"<script>x<y>z</script><noscript><i></noscript>";
    let kinds = |lines: &[Value]| -> Vec<String> {
        lines
            .iter()
            .map(|l| match l["type"].as_str().unwrap() {
                "Text" => format!("Text:{}", l["text"].as_str().unwrap()),
                kind => format!("{kind}:{}", l["name"].as_str().unwrap()),
            })
            .collect()
    };
    let on = json_lines(&["tokens"], html);
    assert_eq!(
        kinds(&on),
        [
            "StartTag:script",
            "Text:x<y>z",
            "EndTag:script",
            "StartTag:noscript",
            "Text:<i>",
            "EndTag:noscript"
        ]
    );
    let off = json_lines(&["tokens", "--no-simulation"], html);
    assert_eq!(
        kinds(&off),
        [
            "StartTag:script",
            "Text:x",
            "StartTag:y",
            "Text:z",
            "EndTag:script",
            "StartTag:noscript",
            "StartTag:i",
            "EndTag:noscript"
        ]
    );
    let no_scripting = json_lines(&["tokens", "--no-scripting"], html);
    assert_eq!(kinds(&no_scripting)[4], "StartTag:i");
    assert_eq!(kinds(&no_scripting)[1], "Text:x<y>z");
}

#[test]
fn state_and_last_start_tag_apply_to_json_lines() {
    let lines = json_lines(
        &[
            "tokens",
            "--state",
            "RCDATA state",
            "--last-start-tag",
            "TITLE",
        ],
        b"<b>&amp;</title>x",
    );
    assert_eq!(
        lines,
        [
            json!({"type":"Text","start":0,"end":8,"text":"<b>&"}),
            json!({"type":"EndTag","start":8,"end":16,"name":"title","attrs":[],
                   "self_closing":false}),
            json!({"type":"Text","start":16,"end":17,"text":"x"}),
        ]
    );
    let plaintext = json_lines(&["tokens", "--state", "PLAINTEXT state"], b"<a>&amp;");
    assert_eq!(
        plaintext,
        [json!({"type":"Text","start":0,"end":8,"text":"<a>&amp;"})]
    );
}

#[test]
fn errors_are_interleaved_with_line_and_column() {
    let html = b"<p>x</p>\n<x y=1 y=2>\r\n&#0; <d e";
    let lines = json_lines(&["tokens", "--errors"], html);
    assert_eq!(
        lines,
        [
            json!({"type":"StartTag","start":0,"end":3,"name":"p","attrs":[],
                   "self_closing":false}),
            json!({"type":"Text","start":3,"end":4,"text":"x"}),
            json!({"type":"EndTag","start":4,"end":8,"name":"p","attrs":[],
                   "self_closing":false}),
            json!({"type":"Text","start":8,"end":9,"text":"\n"}),
            // Each error comes as soon as it is found, before its token's line. The
            // second `y`: reported at the end of its name.
            json!({"type":"Error","code":"duplicate-attribute","offset":17,"line":2,
                   "col":9}),
            json!({"type":"StartTag","start":9,"end":20,"name":"x","attrs":[["y","1"]],
                   "self_closing":false}),
            // After the `;` of `&#0;`, on line 3 (CR LF is one newline).
            json!({"type":"Error","code":"null-character-reference","offset":26,"line":3,
                   "col":5}),
            json!({"type":"Text","start":20,"end":27,"text":"\n\u{FFFD} "}),
            // No token for `<d e`: the error comes last, at the end of the input.
            json!({"type":"Error","code":"eof-in-tag","offset":31,"line":3,"col":10}),
        ]
    );
    // The same tokens without --errors.
    let tokens: Vec<Value> = lines.into_iter().filter(|l| l["type"] != "Error").collect();
    assert_eq!(json_lines(&["tokens"], html), tokens);
}

#[test]
fn error_columns_count_utf16_units() {
    // é is one unit, 😀 (outside the BMP) two: the `<` of `</>` is at column 5.
    let lines = json_lines(&["tokens", "--errors"], "é😀x</>".as_bytes());
    assert_eq!(
        lines,
        [
            json!({"type":"Text","start":0,"end":7,"text":"é😀x"}),
            json!({"type":"Error","code":"missing-end-tag-name","offset":9,"line":1,
                   "col":7}),
        ]
    );
}

#[test]
fn html5lib_format() {
    let output = json_lines(
        &["tokens", "--html5lib"],
        b"a<b c='d'/>e&amp;f<!--x--></b x>",
    );
    assert_eq!(
        output,
        [json!({
            "output": [
                ["Character", "a"],
                ["StartTag", "b", {"c": "d"}, true],
                ["Character", "e&f"],
                ["Comment", "x"],
                ["EndTag", "b"],
            ],
            "errors": [{"code": "end-tag-with-attributes", "line": 1, "col": 32}],
        })]
    );
}

#[test]
fn html5lib_format_with_state_and_last_start_tag() {
    let args = [
        "tokens",
        "--html5lib",
        "--state",
        "RCDATA state",
        "--last-start-tag",
        "title",
    ];
    let output = json_lines(&args, b"<b>&amp;</TITLE >x</title");
    assert_eq!(
        output,
        [json!({
            "output": [
                ["Character", "<b>&"],
                ["EndTag", "title"],
                ["Character", "x"],
            ],
            // After the end tag the tokenizer is back in the data state, where `</title`
            // is a tag cut off by the end of the input.
            "errors": [{"code": "eof-in-tag", "line": 1, "col": 26}],
        })]
    );
    // Without the last start tag, `</title>` is not an appropriate end tag: all text.
    let output = json_lines(
        &["tokens", "--html5lib", "--state", "RCDATA state"],
        b"a</title>",
    );
    assert_eq!(
        output,
        [json!({"output": [["Character", "a</title>"]], "errors": []})]
    );
    // Errors with positions; CDATA section state.
    let output = json_lines(
        &["tokens", "--html5lib", "--state", "CDATA section state"],
        b"x]]>\n<a",
    );
    assert_eq!(
        output,
        [json!({
            // Adjacent character tokens are coalesced, as in the suite.
            "output": [["Character", "x\n"]],
            "errors": [{"code": "eof-in-tag", "line": 2, "col": 3}],
        })]
    );
}

#[test]
fn invalid_utf8_and_nul_bytes() {
    let html = b"a\xFF\x00b<x\x00Y z=\xC3>\xE2\x82";
    // Binary data by MIME Sniffing's test (a NUL in the first bytes): refused unless
    // --force-html, as every htmltok command refuses it.
    let refused = run(&["tokens"], html);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        "htmltok: standard input is not HTML: binary data (--force-html reads it as HTML \
         all the same)\n"
    );
    assert!(refused.stdout.is_empty());
    let lines = json_lines(&["tokens", "--force-html"], html);
    assert_eq!(
        lines,
        [
            json!({"type":"Text","start":0,"end":4,"text":"a\u{FFFD}\u{0}b"}),
            json!({"type":"StartTag","start":4,"end":13,"name":"x\u{FFFD}y",
                   "attrs":[["z","\u{FFFD}"]],"self_closing":false}),
            json!({"type":"Text","start":13,"end":15,"text":"\u{FFFD}"}),
        ]
    );
    let with_errors = json_lines(&["tokens", "--errors", "--force-html"], html);
    let codes: Vec<&str> = with_errors
        .iter()
        .filter(|l| l["type"] == "Error")
        .map(|l| l["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        ["unexpected-null-character", "unexpected-null-character"]
    );
    let html5lib = json_lines(&["tokens", "--html5lib", "--force-html"], html);
    assert_eq!(
        html5lib[0]["output"][0],
        json!(["Character", "a\u{FFFD}\u{0}b"])
    );
}

#[test]
fn empty_input_prints_nothing() {
    assert!(json_lines(&["tokens"], b"").is_empty());
    assert!(json_lines(&["tokens", "--errors"], b"").is_empty());
    assert_eq!(
        json_lines(&["tokens", "--html5lib"], b""),
        [json!({"output": [], "errors": []})]
    );
}

#[test]
fn unknown_state_is_a_one_line_error() {
    let stderr = expect_usage_error(&["tokens", "--state", "rcdata"], b"x");
    assert!(stderr.contains("'rcdata'"), "{stderr}");
    assert!(stderr.contains("'RCDATA state'"), "{stderr}");
    let stderr = expect_usage_error(&["tokens", "--html5lib", "--state", "Tag open state"], b"");
    assert!(stderr.contains("unknown state"), "{stderr}");
}

#[test]
fn missing_file_is_a_one_line_error_naming_it() {
    let missing = std::env::temp_dir().join("htmltok-cli-test-no-such-file.html");
    let missing = missing.to_str().unwrap();
    let stderr = expect_usage_error(&["tokens", missing], b"");
    assert!(stderr.contains(missing), "{stderr}");
    assert!(stderr.contains("No such file"), "{stderr}");
    // A directory is not readable as a file either.
    let dir = std::env::temp_dir();
    let stderr = expect_usage_error(&["tokens", dir.to_str().unwrap()], b"");
    assert!(stderr.contains("cannot read"), "{stderr}");
}

#[test]
fn bad_arguments_are_one_line_errors() {
    let stderr = expect_usage_error(&["tokens", "--bogus"], b"");
    assert!(stderr.contains("--bogus"), "{stderr}");
    let stderr = expect_usage_error(&["tokenz"], b"");
    assert!(stderr.contains("tokenz"), "{stderr}");
    expect_usage_error(&["tokens", "a.html", "b.html"], b"");
    expect_usage_error(&["tokens", "--state"], b"");
    expect_usage_error(&["tokens", "--html5lib", "--no-scripting"], b"");
}

#[test]
fn no_arguments_prints_help_and_fails() {
    let output = run(&[], b"");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("Usage: htmltok"), "{stderr}");
    assert!(stderr.contains("tokens"), "{stderr}");
}

#[test]
fn help_describes_the_output() {
    let output = run(&["--help"], b"");
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("tokens"), "{help}");
    assert!(help.contains("Exit status"), "{help}");

    let output = run(&["tokens", "--help"], b"");
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for needle in [
        "{\"type\":\"StartTag\"",
        "{\"type\":\"Error\",\"code\":\"eof-in-tag\"",
        "{\"output\":",
        "--errors",
        "--html5lib",
        "--state",
        "--last-start-tag",
        "--no-simulation",
        "--no-scripting",
        "RCDATA state",
        "[FILE]",
    ] {
        assert!(help.contains(needle), "{needle} missing from:\n{help}");
    }
    // Every example line in the help is valid JSON.
    for line in help
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("{\"type\""))
    {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
}

#[test]
fn help_examples_match_real_output() {
    let output = run(&["tokens", "--help"], b"");
    let help = String::from_utf8(output.stdout).unwrap();
    let example = br#"<!DOCTYPE html><a href="/x?a=1&amp;b">Fish &amp; chips</a><!-- note -->"#;
    for line in json_lines(&["tokens"], example) {
        let line = serde_json::to_string(&line).unwrap();
        // serde_json sorts keys; compare by parsing the help's lines instead.
        let expected: Value = serde_json::from_str(&line).unwrap();
        let found = help
            .lines()
            .map(str::trim)
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .any(|v| v == expected);
        assert!(found, "help lacks {line}");
    }
}

#[test]
fn closed_stdout_ends_quietly() {
    // Enough output that the program is still writing when the reader goes away.
    let html = "<p class=a>text &amp; more</p>\n".repeat(200_000);
    let mut child = Command::new(BIN)
        .args(["tokens", "--errors"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(html.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    assert!(first.starts_with(b"{\"type\":\"StartTag\""));
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert_eq!(output.status.code(), Some(0), "{:?}", output.status);
}
