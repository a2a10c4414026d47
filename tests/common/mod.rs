//! Shared by the integration tests that read the real-page corpus (`mod common;`): where
//! the corpus is, how its `MANIFEST.tsv` reads, and a way to say things past the test
//! harness's capture. Not every test file uses every item.

#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes straight to the process's standard error, past the test harness's capture.
pub fn loud(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

/// Whether `HTMLTOK_SKIP_CORPUS=1` asks to skip the real-page corpus knowingly.
pub fn skip_corpus() -> bool {
    std::env::var_os("HTMLTOK_SKIP_CORPUS").is_some_and(|v| v == "1")
}

/// The corpus bundled with the crate (`corpus/`): a few pages, with a `MANIFEST.tsv`.
pub fn bundled_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// The real-page corpus: `$HTMLTOK_CORPUS`, else `../shared/corpus` next to the crate;
/// a message saying where it was looked for when neither holds a `MANIFEST.tsv`.
pub fn real_corpus() -> Result<PathBuf, String> {
    find_corpus(false)
}

/// Like [`real_corpus`], but when the real pages are missing (and `$HTMLTOK_CORPUS` is
/// not set) falls back to the [`bundled_corpus`], saying loudly that only those pages are
/// tested.
pub fn real_or_bundled_corpus() -> Result<PathBuf, String> {
    find_corpus(true)
}

/// The [`real_corpus`], or None when it is missing and [`skip_corpus`]: then `skipped`
/// gets the message saying what is missing and its result is said loudly. Missing
/// without `HTMLTOK_SKIP_CORPUS=1`, it panics with that message.
pub fn real_corpus_or_skip(skipped: impl FnOnce(&str) -> String) -> Option<PathBuf> {
    match real_corpus() {
        Ok(dir) => Some(dir),
        Err(message) if skip_corpus() => {
            loud(&skipped(&message));
            None
        }
        Err(message) => panic!("{message}"),
    }
}

fn find_corpus(bundled: bool) -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("HTMLTOK_CORPUS") {
        let dir = PathBuf::from(dir);
        return if dir.join("MANIFEST.tsv").is_file() {
            Ok(dir)
        } else {
            Err(format!(
                "HTMLTOK_CORPUS is set to {} but it holds no MANIFEST.tsv",
                dir.display()
            ))
        };
    }
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if shared.join("MANIFEST.tsv").is_file() {
        return Ok(shared);
    }
    if !bundled {
        return Err(format!(
            "real-page corpus not found: set HTMLTOK_CORPUS to a folder with a MANIFEST.tsv, \
             or put the corpus at {} (looked for MANIFEST.tsv there); set \
             HTMLTOK_SKIP_CORPUS=1 to skip this test",
            shared.display()
        ));
    }
    let local = bundled_corpus();
    if local.join("MANIFEST.tsv").is_file() {
        loud(&format!(
            "NOTE: the real-page corpus ({}) is missing: testing only the {} bundled pages \
             of {}. Set HTMLTOK_CORPUS to test the real pages.",
            shared.display(),
            Manifest::read(&local).rows().count(),
            local.display()
        ));
        return Ok(local);
    }
    Err(format!(
        "real-page corpus not found: set HTMLTOK_CORPUS to a folder with a MANIFEST.tsv, or \
         put the corpus at {} or {} (looked for MANIFEST.tsv in each); set \
         HTMLTOK_SKIP_CORPUS=1 to skip this test",
        shared.display(),
        local.display()
    ))
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
