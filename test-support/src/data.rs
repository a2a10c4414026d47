//! Where the tests' external data is, and what a test does when it is absent; used by the
//! tests of every workspace member.
//!
//! The data lives outside the repository (the repository never copies it):
//! - the html5lib tokenizer tests: `$HTML5LIB_TESTS` (a clone of html5lib-tests, or its
//!   `tokenizer` folder), else `tests/html5lib-tests/tokenizer` (a clone of the
//!   html5lib-tests repository there, which git ignores), else
//!   `../shared/html5lib-tests/tokenizer`;
//! - the standard's `entities.json`: `$HTMLTOK_SPEC_DIR`, else `../shared/spec`;
//! - the real-page corpus (a folder with a `MANIFEST.tsv`): `$HTMLTOK_CORPUS`, else
//!   `../shared/corpus`. The few pages bundled in `corpus/` are always there.
//!
//! When a piece is absent, a test says so in one loud line on standard error (past the
//! harness's capture) naming what it did not run and how to get the data, and passes, so
//! that `cargo test` on a fresh clone passes. With `CI` or `HTMLTOK_REQUIRE_DATA` set (to
//! anything but `0` or `false`) it fails instead: CI can never pass without the data.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes straight to the process's standard error, past the test harness's capture.
pub fn loud(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

/// Whether absent data must fail the tests (`CI` or `HTMLTOK_REQUIRE_DATA` set).
pub fn data_required() -> bool {
    ["CI", "HTMLTOK_REQUIRE_DATA"].iter().any(|name| {
        std::env::var(name).is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "no"))
    })
}

/// Reports data that is absent: one loud `NOT RUN` line, or a panic when
/// [`data_required`].
pub fn missing(what_was_not_run: &str, why: &str) {
    if data_required() {
        panic!(
            "{what_was_not_run}: {why} (CI or HTMLTOK_REQUIRE_DATA is set, so absent test data \
             is a failure)"
        );
    }
    loud(&format!(
        "htmltok tests: NOT RUN: {what_was_not_run}: {why}"
    ));
}

/// The workspace's root folder (the tokenizer's package), from any member's tests.
pub fn workspace_root() -> PathBuf {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    while !dir.join("rust-toolchain.toml").is_file() {
        if !dir.pop() {
            return Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
        }
    }
    dir
}

/// The folder beside the workspace where the shared data lives (`../shared`).
fn shared(sub: &str) -> PathBuf {
    workspace_root().join("../shared").join(sub)
}

fn from_env(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The html5lib tokenizer tests (`test1.test` …), or a message saying where they were
/// looked for and how to get them.
pub fn html5lib_dir() -> Result<PathBuf, String> {
    let candidates = [
        // The variable names a clone of html5lib-tests, or its `tokenizer` folder.
        from_env("HTML5LIB_TESTS").map(|dir| dir.join("tokenizer")),
        from_env("HTML5LIB_TESTS"),
        Some(workspace_root().join("tests/html5lib-tests/tokenizer")),
        Some(shared("html5lib-tests/tokenizer")),
    ];
    let mut looked = Vec::new();
    for dir in candidates.into_iter().flatten() {
        if dir.join("test1.test").is_file() {
            return Ok(dir);
        }
        looked.push(dir.display().to_string());
    }
    Err(format!(
        "the html5lib tokenizer tests are absent (looked in {}); get them with `git clone \
         --depth 1 https://github.com/html5lib/html5lib-tests tests/html5lib-tests` (from \
         the repository's root; the folder is ignored by git), or set HTML5LIB_TESTS to a \
         clone of html5lib-tests elsewhere",
        looked.join(", ")
    ))
}

/// The folder holding the standard's `entities.json`, or a message.
pub fn spec_dir() -> Result<PathBuf, String> {
    let dir = from_env("HTMLTOK_SPEC_DIR").unwrap_or_else(|| shared("spec"));
    if dir.join("entities.json").is_file() {
        Ok(dir)
    } else {
        Err(format!(
            "the standard's entities.json is absent (looked in {}); download \
             https://html.spec.whatwg.org/entities.json there, or set HTMLTOK_SPEC_DIR to a \
             folder holding it",
            dir.display()
        ))
    }
}

/// The tokenizer's regression inputs (`tests/regressions/`, its README left out), sorted;
/// panics when there are none, so a test over them can never pass vacuously.
pub fn regression_inputs() -> Vec<PathBuf> {
    let dir = workspace_root().join("tests/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no regression inputs in {}",
        dir.display()
    );
    files
}

/// The corpus bundled with the repository (`corpus/`): a few pages, with a `MANIFEST.tsv`.
pub fn bundled_corpus() -> PathBuf {
    workspace_root().join("corpus")
}

/// Real WARC and ARC files with what warcio and FastWARC make of each
/// (`MANIFEST.tsv`): `$HTMLTOK_WARC_REAL`, else `../shared/warc-real`; a message saying
/// where they were looked for when neither holds a `MANIFEST.tsv`.
pub fn warc_real() -> Result<PathBuf, String> {
    let (dir, from) = match from_env("HTMLTOK_WARC_REAL") {
        Some(dir) => (dir, "HTMLTOK_WARC_REAL"),
        None => (shared("warc-real"), "the default place"),
    };
    if dir.join("MANIFEST.tsv").is_file() {
        Ok(dir)
    } else {
        Err(format!(
            "the real archive files are absent ({from}, {}, holds no MANIFEST.tsv); set \
             HTMLTOK_WARC_REAL to a folder of WARC/ARC files with a MANIFEST.tsv (columns \
             file, records_warcio, html_responses)",
            dir.display()
        ))
    }
}

/// The real-page corpus: `$HTMLTOK_CORPUS`, else `../shared/corpus`; a message saying
/// where it was looked for when neither holds a `MANIFEST.tsv`.
pub fn real_corpus() -> Result<PathBuf, String> {
    let (dir, from) = match from_env("HTMLTOK_CORPUS") {
        Some(dir) => (dir, "HTMLTOK_CORPUS"),
        None => (shared("corpus"), "the default place"),
    };
    if dir.join("MANIFEST.tsv").is_file() {
        Ok(dir)
    } else {
        Err(format!(
            "the real-page corpus is absent ({from}, {}, holds no MANIFEST.tsv); set \
             HTMLTOK_CORPUS to a folder of pages with a MANIFEST.tsv (see \
             scripts/assemble-corpus.sh)",
            dir.display()
        ))
    }
}

/// The [`real_corpus`]; when it is absent, [`missing`] says that `what` was not run (or
/// fails under CI) and the result is None.
pub fn real_corpus_or_skip(what: &str) -> Option<PathBuf> {
    match real_corpus() {
        Ok(dir) => Some(dir),
        Err(message) => {
            missing(what, &message);
            None
        }
    }
}

/// The [`real_corpus`], else (after [`missing`] said so) the [`bundled_corpus`].
pub fn real_or_bundled_corpus(what: &str) -> PathBuf {
    real_corpus_or_skip(what).unwrap_or_else(bundled_corpus)
}

/// A corpus's `MANIFEST.tsv`: a header line of column names, then one tab-separated row
/// per page (blank lines skipped).
pub struct Manifest {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Manifest {
    /// Reads `dir/MANIFEST.tsv`; panics when it cannot be read or is empty.
    pub fn read(dir: &Path) -> Manifest {
        let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
        let mut lines = text.lines();
        let split = |line: &str| line.split('\t').map(str::to_string).collect::<Vec<_>>();
        let header = split(lines.next().expect("MANIFEST.tsv is empty"));
        let rows = lines
            .filter(|line| !line.trim().is_empty())
            .map(split)
            .collect();
        Manifest { header, rows }
    }

    /// The index of the column `name`, if there is one.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|c| c == name)
    }

    /// The index of the column `name`; panics when there is none.
    pub fn require(&self, name: &str) -> usize {
        self.column(name)
            .unwrap_or_else(|| panic!("MANIFEST.tsv has no `{name}` column"))
    }

    /// The rows, each as its fields.
    pub fn rows(&self) -> impl Iterator<Item = &[String]> {
        self.rows.iter().map(Vec::as_slice)
    }

    /// The `path` column: each page's path relative to the corpus.
    pub fn paths(&self) -> Vec<String> {
        let path = self.require("path");
        self.rows()
            .map(|fields| fields.get(path).expect("short MANIFEST.tsv row").clone())
            .collect()
    }
}

/// The `.html` and `.htm` files below `dir`, in sorted path order, folders walked
/// depth first (an unreadable folder gives nothing): the pages the benchmark tools read.
pub fn html_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "html" || e == "htm") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

/// The ten fields a crawler's page record takes (title, description, canonical URL,
/// robots, Open Graph title, `h1`, links, images, language, alternates), as
/// `htmltok_select::Fields` selectors: what the select benchmarks and tests extract.
pub const TEN_FIELDS: [(&str, &str); 10] = [
    ("title", "title::text"),
    ("description", "meta[name=description]::attr(content)"),
    ("canonical", "link[rel=canonical]::attr(href)"),
    ("robots", "meta[name=robots]::attr(content)"),
    ("og_title", "meta[property=\"og:title\"]::attr(content)"),
    ("h1", "h1::text"),
    ("links", "a[href]::attr(href)"),
    ("images", "img[src]::attr(src)"),
    ("lang", "html[lang]::attr(lang)"),
    ("hreflang", "link[rel=alternate][hreflang]::attr(href)"),
];
