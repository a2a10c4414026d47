//! `htmltok select` and `htmltok extract --field`: the lines, the spans, the values, and
//! the one-line error for a selector that does not parse.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_htmltok");

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(BIN).args(args).output().expect("run htmltok")
}

fn lines(output: &std::process::Output) -> Vec<Value> {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::str::from_utf8(&output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Each element's span is its start tag in the file; `::attr(href)` gives what
/// `htmltok links` reads as the raw value of `a[href]`.
#[test]
fn select_spans_and_values() {
    let path = corpus().join("article.html");
    let path = path.to_str().unwrap();
    let html = std::fs::read(path).unwrap();
    let elements = lines(&run(&["select", "a[href]", path]));
    assert!(elements.len() > 3);
    for e in &elements {
        assert_eq!(e["document"], path);
        assert_eq!(e["name"], "a");
        assert!(e.get("value").is_none());
        let span = e["span"].as_array().unwrap();
        let (s, t) = (span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
        let tag = std::str::from_utf8(&html[s as usize..t as usize]).unwrap();
        assert!(tag.starts_with("<a ") && tag.ends_with('>'), "{tag}");
        assert!(tag.contains("href"), "{tag}");
    }
    let values = lines(&run(&["select", "a[href]::attr(href)", path]));
    let links = lines(&run(&["links", "--json", "--data-urls", path]));
    let raw: Vec<&Value> = links
        .iter()
        .filter(|l| l["element"] == "a" && l["attribute"] == "href")
        .map(|l| &l["raw"])
        .collect();
    let ours: Vec<&Value> = values
        .iter()
        .map(|v| &v["value"])
        .filter(|v| !v.as_str().unwrap().trim().is_empty())
        .collect();
    assert_eq!(ours, raw);
    assert_eq!(
        values.iter().map(|v| &v["span"]).collect::<Vec<_>>(),
        elements.iter().map(|v| &v["span"]).collect::<Vec<_>>()
    );
    // ::text: the HTML title's text node (`title` alone matches the SVG title too).
    let title = lines(&run(&["select", "html|title::text", path]));
    assert_eq!(title.len(), 1);
    assert_eq!(title[0]["value"], "Tide tables & the moon — a field guide");
    assert_eq!(lines(&run(&["select", "svg|title", path])).len(), 1);
}

/// WARC records are documents, named FILE@OFFSET.
#[test]
fn select_in_a_warc() {
    let warc = corpus().join("sample.warc.gz");
    let got = lines(&run(&["select", "-j", "1", "html", warc.to_str().unwrap()]));
    assert_eq!(got.len(), 7);
    assert!(
        got.iter()
            .all(|l| l["document"].as_str().unwrap().contains(".warc.gz@"))
    );
}

/// A bad selector: one line on standard error saying where and what, exit status 2,
/// nothing read (the path does not even exist).
#[test]
fn bad_selector_is_one_line_and_exit_2() {
    for args in [
        &["select", "a[href=", "/nonexistent/x.html"][..],
        &["select", "a:nope", "/nonexistent/x.html"][..],
        &["extract", "--field", "x=p >", "/nonexistent/x.html"][..],
        &["extract", "--field", "title=p", "/nonexistent/x.html"][..],
        &[
            "extract",
            "--field",
            "a=p",
            "--field",
            "a=b",
            "/nonexistent/x.html",
        ][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("htmltok: "), "{err}");
        assert!(
            !err.contains("nonexistent"),
            "read before the selector: {err}"
        );
    }
    let err = String::from_utf8(run(&["select", "a >", "x"]).stderr).unwrap();
    assert!(
        err.contains("at offset 3: expected a selector after the combinator"),
        "{err}"
    );
}

/// `extract --field`: the columns after the page's, in JSON lines.
#[test]
fn extract_fields_in_json_lines() {
    let path = corpus().join("article.html");
    let got = lines(&run(&[
        "extract",
        "--field",
        "heading=h1::text",
        "--field",
        "hrefs=a[href]::attr(href)",
        "--field",
        "none=blink",
        path.to_str().unwrap(),
    ]));
    assert_eq!(got.len(), 1);
    let row = got[0].as_object().unwrap();
    let keys: Vec<&String> = row.keys().collect();
    assert!(keys.iter().any(|k| *k == "heading"));
    assert_eq!(row["none"], Value::Array(vec![]));
    let select = lines(&run(&[
        "select",
        "a[href]::attr(href)",
        path.to_str().unwrap(),
    ]));
    let hrefs: Vec<&Value> = select.iter().map(|v| &v["value"]).collect();
    assert_eq!(
        row["hrefs"].as_array().unwrap().iter().collect::<Vec<_>>(),
        hrefs
    );
    assert!(!row["heading"].as_array().unwrap().is_empty());
}
