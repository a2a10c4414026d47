//! `htmltok::batch`: map-reduce over directories with good and bad files, byte buffers
//! and WARC files; failures are reported and never fatal; the result does not depend on
//! the number of threads.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use htmltok::Token;
use htmltok_crawl::batch::{self, Document, FailureKind, Options, Source};
use htmltok_crawl::encoding::Rule;
use htmltok_crawl::warc::{ErrorKind, Writer};

/// A fresh temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("htmltok-batch-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, rel: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What the map function finds in one document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Counts {
    documents: BTreeMap<String, (usize, usize)>,
}

/// Per document: (tokens, start tags), keyed by its label.
fn count(doc: Document<'_>) -> Counts {
    let mut tokenizer = doc.tokenizer();
    let (mut tokens, mut tags) = (0, 0);
    while let Some(token) = tokenizer.next_token() {
        tokens += 1;
        tags += matches!(token, Token::StartTag(_)) as usize;
    }
    Counts {
        documents: BTreeMap::from([(doc.label(), (tokens, tags))]),
    }
}

fn merge(mut a: Counts, b: Counts) -> Counts {
    a.documents.extend(b.documents);
    a
}

/// A directory of 60 good pages in nested folders, files that are not HTML, an empty
/// page, a page of invalid UTF-8, a dangling link, and a WARC file cut short.
fn messy_dir(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    for i in 0..60 {
        let folder = ["a", "a/deep/er", "b", "c"][i % 4];
        let ext = ["html", "htm", "xhtml", "HTML"][i % 4];
        let tags = "<p>x</p>".repeat(i);
        dir.write(
            &format!("{folder}/page{i:02}.{ext}"),
            format!("<!DOCTYPE html><title>Page {i}</title>{tags}").as_bytes(),
        );
    }
    dir.write("a/notes.txt", b"<p>not taken: not an HTML name</p>");
    dir.write("MANIFEST.tsv", b"path\tbytes\n");
    dir.write(".hidden/page.html", b"<p>hidden folders are skipped</p>");
    dir.write("b/empty.html", b"");
    dir.write("b/binary.html", &[0xff, 0xfe, 0x00, 0x3c, 0x80, 0x81, 0xc3]);
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        dir.path().join("nowhere.html"),
        dir.path().join("c/dangling.html"),
    )
    .unwrap();
    // A WARC file with two good records, then a truncated gzip member.
    let mut writer = Writer::gzip(Vec::new());
    writer
        .write_warcinfo("2026-11-05T00:00:00Z", Some("crawl.warc.gz"), &[])
        .unwrap();
    let first = writer
        .write_response(
            "https://example.org/one",
            "2026-11-05T00:00:01Z",
            200,
            &[("Content-Type", "text/html; charset=windows-1251")],
            b"<title>\xcf\xf0\xe8\xe2\xe5\xf2</title><a href=/x>",
        )
        .unwrap();
    assert!(first > 0);
    writer
        .write_response(
            "https://example.org/robots.txt",
            "2026-11-05T00:00:02Z",
            200,
            &[("Content-Type", "text/plain")],
            b"User-agent: *\n",
        )
        .unwrap();
    writer
        .write_response(
            "https://example.org/two",
            "2026-11-05T00:00:03Z",
            200,
            &[("Content-Type", "text/html")],
            b"<p>two</p>",
        )
        .unwrap();
    let cut_at = writer.offset();
    writer
        .write_response(
            "https://example.org/three",
            "2026-11-05T00:00:04Z",
            200,
            &[("Content-Type", "text/html")],
            "<p>three</p>".repeat(500).as_bytes(),
        )
        .unwrap();
    let mut bytes = writer.into_inner().unwrap();
    bytes.truncate(cut_at as usize + 40);
    dir.write("c/crawl.warc.gz", &bytes);
    dir
}

#[test]
fn a_messy_directory_counts_right_and_reports_failures() {
    let dir = messy_dir("messy");
    let missing = dir.path().join("no-such-file.html");
    let result = batch::map_reduce(
        [Source::from(dir.path()), Source::Path(missing.clone())],
        &Options::new(),
        count,
        merge,
        Counts::default,
    );
    let docs = &result.value.documents;
    // 60 pages, the empty and the binary page, and 2 HTML records of the WARC file.
    assert_eq!(result.documents, 64, "{:#?}", docs.keys());
    assert_eq!(docs.len(), 64);
    // robots.txt is not HTML; the warcinfo record is no document either.
    assert_eq!(result.ignored, 2);
    assert_eq!(
        result.skipped,
        [("not-html", 1), ("warcinfo", 1)].into_iter().collect()
    );
    for i in 0..60 {
        let (label, &(tokens, tags)) = docs
            .iter()
            .find(|(k, _)| k.contains(&format!("page{i:02}.")))
            .unwrap_or_else(|| panic!("page {i} missing"));
        assert_eq!(tags, 1 + i, "{label}");
        assert_eq!(tokens, 4 + 3 * i, "{label}");
    }
    assert!(
        !docs
            .keys()
            .any(|k| k.contains("notes.txt") || k.contains("hidden"))
    );
    let warc_docs: Vec<&String> = docs
        .keys()
        .filter(|k| k.contains("crawl.warc.gz@"))
        .collect();
    assert_eq!(warc_docs.len(), 2, "{warc_docs:?}");

    // Failures: the missing file, the dangling link, the truncated gzip member.
    let failures = &result.failures;
    let expected = if cfg!(unix) { 3 } else { 2 };
    assert_eq!(failures.len(), expected, "{failures:#?}");
    let missing_failure = failures
        .iter()
        .find(|f| f.source == missing.display().to_string())
        .expect("the missing file is reported");
    assert_eq!(missing_failure.offset, None);
    assert!(
        missing_failure.to_string().contains("cannot read"),
        "{missing_failure}"
    );
    match &missing_failure.kind {
        FailureKind::Io { path, error } => {
            assert_eq!(path, &missing);
            assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("not an I/O failure: {other:?}"),
    }
    let warc_failure = failures
        .iter()
        .find(|f| f.source.ends_with("crawl.warc.gz"))
        .expect("the truncated member is reported");
    assert!(warc_failure.offset.is_some_and(|o| o > 0), "{warc_failure}");
    assert!(
        warc_failure.to_string().contains("offset "),
        "{warc_failure}"
    );
    assert!(
        matches!(warc_failure.kind, FailureKind::Warc(ErrorKind::Gzip(_))),
        "{warc_failure:?}"
    );
    #[cfg(unix)]
    assert!(failures.iter().any(|f| f.source.ends_with("dangling.html")));
    // Sorted by source, then offset.
    assert!(
        failures
            .windows(2)
            .all(|w| (&w[0].source, w[0].offset) <= (&w[1].source, w[1].offset))
    );
}

#[test]
fn parallel_equals_sequential() {
    let dir = messy_dir("parallel");
    let run = |threads: usize| {
        batch::map_reduce(
            [Source::from(dir.path())],
            &Options::new().threads(threads),
            count,
            merge,
            Counts::default,
        )
    };
    let one = run(1);
    for threads in [2, 4, 7] {
        let many = run(threads);
        assert_eq!(many.value, one.value, "{threads} threads");
        assert_eq!(many.documents, one.documents);
        assert_eq!(many.bytes, one.bytes);
        assert_eq!(many.ignored, one.ignored);
        let shown = |failures: &[batch::Failure]| -> Vec<String> {
            failures.iter().map(ToString::to_string).collect()
        };
        assert_eq!(shown(&many.failures), shown(&one.failures));
    }
}

#[test]
fn one_thread_keeps_the_walk_order() {
    let dir = messy_dir("order");
    let seen = Mutex::new(Vec::new());
    batch::for_each(
        [Source::from(dir.path())],
        &Options::new().threads(1),
        |doc| {
            seen.lock().unwrap().push(doc.label());
        },
    );
    let seen = seen.into_inner().unwrap();
    let root = dir.path().display().to_string();
    let relative: Vec<&str> = seen.iter().map(|s| &s[root.len() + 1..]).collect();
    assert_eq!(relative[0], "a/deep/er/page01.htm");
    let pos = |name: &str| relative.iter().position(|r| r.starts_with(name)).unwrap();
    assert!(
        pos("a/deep") < pos("a/page00") && pos("a/page00") < pos("b/") && pos("b/") < pos("c/")
    );
}

#[test]
fn buffers_decode_with_their_transport_charset() {
    let page = b"<meta charset=windows-1252><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>".to_vec();
    let sources = vec![
        Source::Bytes {
            name: "declared".into(),
            url: None,
            charset: None,
            bytes: page.clone(),
        },
        Source::Bytes {
            name: "served".into(),
            url: Some("https://example.ru/".into()),
            charset: Some("windows-1251".into()),
            bytes: page.clone(),
        },
    ];
    let result = batch::map_reduce(
        sources,
        &Options::new(),
        |doc| {
            let decoded = doc.decoded_as().expect("decoded");
            let mut text = String::new();
            let mut tokenizer = doc.tokenizer();
            while let Some(token) = tokenizer.next_token() {
                if let Token::Text(t) = token {
                    text.push_str(&t.text());
                }
            }
            assert_eq!(doc.raw(), &page[..]);
            vec![(
                doc.source().to_string(),
                doc.url().map(String::from),
                decoded.encoding.name(),
                decoded.rule,
                text,
            )]
        },
        |mut a, b| {
            a.extend(b);
            a.sort_by(|x, y| x.0.cmp(&y.0));
            a
        },
        Vec::new,
    );
    assert_eq!(
        result.value,
        [
            (
                "declared".to_string(),
                None,
                "windows-1252",
                Rule::MetaPrescan,
                "Ïðèâåò".to_string()
            ),
            (
                "served".to_string(),
                Some("https://example.ru/".to_string()),
                "windows-1251",
                Rule::Transport,
                "Привет".to_string()
            ),
        ]
    );
    // Decoding off: the raw bytes, read as UTF-8.
    let result = batch::map_reduce(
        [Source::bytes("raw", page.clone())],
        &Options::new().decode(false),
        |doc| (doc.decoded_as().is_none() && doc.html() == &page[..]) as u32,
        |a, b| a + b,
        || 0,
    );
    assert_eq!(result.value, 1);
}

/// With `Options::tree`, each document comes with its tree, parsed as it was decoded: the
/// encoding is the tree's answer (a `<meta>` after `<frameset>` is ignored by the tree
/// builder, where the token pass takes it) and the tree's input is `Document::html`.
#[test]
fn documents_with_their_tree_decided_by_it() {
    let mut page = b"<head><title>caf\xE9 cr\xE8me</title>".to_vec(); // windows-1252
    page.extend_from_slice(format!("<script>'{}'</script>", "x".repeat(2000)).as_bytes());
    page.extend_from_slice(b"</head><frameset><meta charset=windows-1251>");
    let decide = |options: &Options| {
        batch::map_reduce(
            [Source::bytes("page", page.clone())],
            options,
            |doc| {
                let tree = doc.tree().map(|tree| {
                    assert_eq!(tree.input(), doc.html());
                    tree.title()
                });
                let decided = doc.decoded_as().unwrap();
                vec![(decided.encoding.name(), decided.rule, tree)]
            },
            |mut a, b| {
                a.extend(b);
                a
            },
            Vec::new,
        )
        .value
    };
    assert_eq!(
        decide(&Options::new()),
        [("windows-1251", Rule::LateMeta, None)]
    );
    assert_eq!(
        decide(&Options::new().tree(Some(htmltok_tree::Parser::new()))),
        [(
            "windows-1252",
            Rule::Detector,
            Some(Some("café crème".to_string()))
        )]
    );
}

#[test]
fn a_panicking_map_fails_its_document_only() {
    let sources = (0..50).map(|i| Source::bytes(format!("doc{i}"), format!("<p>{i}</p>")));
    let result = batch::map_reduce(
        sources,
        &Options::new().threads(3),
        |doc| {
            if doc.source() == "doc13" {
                panic!("boom in {}", doc.source());
            }
            1u32
        },
        |a, b| a + b,
        || 0,
    );
    assert_eq!(result.value, 49);
    assert_eq!(result.documents, 49);
    assert_eq!(result.failures.len(), 1);
    assert_eq!(result.failures[0].source, "doc13");
    assert!(result.failures[0].to_string().contains("boom in doc13"));
    assert!(matches!(
        &result.failures[0].kind,
        FailureKind::Panicked { message } if message == "boom in doc13"
    ));
}

#[test]
fn the_stop_flag_ends_the_batch_and_the_hook_sees_failures() {
    let stop = Arc::new(AtomicBool::new(false));
    let hooked = Arc::new(AtomicUsize::new(0));
    let hook_count = Arc::clone(&hooked);
    let started = AtomicUsize::new(0);
    // An endless source: only the stop flag ends it.
    let sources = (0..).map(|i: u64| {
        if i % 10 == 9 {
            Source::from(format!("/no/such/dir/{i}.html"))
        } else {
            Source::bytes(format!("doc{i}"), "<p>x</p>")
        }
    });
    let options = Options::new()
        .threads(2)
        .stop_flag(Arc::clone(&stop))
        .on_failure(move |_| {
            hook_count.fetch_add(1, Ordering::Relaxed);
        });
    let result = batch::map_reduce(
        sources,
        &options,
        |_| {
            if started.fetch_add(1, Ordering::Relaxed) == 200 {
                stop.store(true, Ordering::Relaxed);
            }
            1u64
        },
        |a, b| a + b,
        || 0,
    );
    assert!(
        result.value > 200 && result.value < 1000,
        "{}",
        result.value
    );
    assert_eq!(result.failures.len(), hooked.load(Ordering::Relaxed));
    assert!(!result.failures.is_empty());
}

#[test]
fn an_explicit_file_is_read_whatever_its_name() {
    let dir = TempDir::new("explicit");
    let path = dir.write("page.txt", b"<p>named explicitly</p>");
    let result = batch::map_reduce(
        [Source::from(path.as_path()), Source::from(dir.path())],
        &Options::new(),
        |doc| vec![doc.label()],
        |mut a, b| {
            a.extend(b);
            a
        },
        Vec::new,
    );
    // Taken when named; left out of the walk of its directory.
    assert_eq!(result.value, [path.display().to_string()]);
    let all = batch::map_reduce(
        [Source::from(dir.path())],
        &Options::new().all_files(true),
        |_| 1,
        |a, b| a + b,
        || 0,
    );
    assert_eq!(all.value, 1);
}

#[test]
fn pages_carry_their_warc_record_offset_and_length() {
    let dir = TempDir::new("pages");
    let mut writer = Writer::gzip(Vec::new());
    let mut offsets = Vec::new();
    for (i, body) in [
        "<title>One</title><a href=two>2</a>",
        "<p>Zwei &amp; <img src=/i.png>",
    ]
    .iter()
    .enumerate()
    {
        offsets.push(
            writer
                .write_response(
                    &format!("https://example.org/{i}/"),
                    "2026-11-05T00:00:00Z",
                    200,
                    &[("Content-Type", "text/html; charset=windows-1252")],
                    body.as_bytes(),
                )
                .unwrap(),
        );
    }
    let bytes = writer.into_inner().unwrap();
    let warc = dir.write("w.warc.gz", &bytes);
    dir.write("page.html", b"<title>File</title>text");
    let result = batch::map_reduce(
        [Source::from(dir.path())],
        &Options::new().threads(1),
        |doc| vec![htmltok_crawl::extract::Page::of(&doc, None)],
        |mut a, b| {
            a.extend(b);
            a
        },
        Vec::new,
    );
    assert!(result.failures.is_empty(), "{:?}", result.failures);
    let mut pages = result.value;
    pages.sort_by_key(|p| (p.source.clone(), p.offset));
    assert_eq!(pages.len(), 3);
    assert_eq!(
        pages[0].source,
        dir.path().join("page.html").display().to_string()
    );
    assert_eq!((pages[0].offset, pages[0].length), (None, None));
    assert_eq!(pages[0].title.as_deref(), Some("File"));
    let name = warc.display().to_string();
    assert_eq!(pages[1].source, name);
    assert_eq!(pages[1].offset, Some(offsets[0]));
    assert_eq!(pages[1].length, Some(offsets[1] - offsets[0]));
    assert_eq!(pages[2].length, Some(bytes.len() as u64 - offsets[1]));
    assert_eq!(pages[1].url.as_deref(), Some("https://example.org/0/"));
    assert_eq!(
        (pages[1].encoding, pages[1].rule),
        (Some("windows-1252"), Some(Rule::Transport))
    );
    assert_eq!(pages[1].links[0].url, "https://example.org/0/two");
    assert_eq!(pages[2].text, "Zwei &");
    assert_eq!(pages[2].links[0].url, "https://example.org/i.png");
}

#[test]
fn documents_over_the_size_limit_are_skipped_and_reported() {
    let dir = TempDir::new("size-limit");
    dir.write("small.html", b"<p>small</p>");
    dir.write("big.html", &[b'x'; 5000]);
    let options = Options::new().threads(1).max_document_size(1000);
    let sources = [
        Source::from(dir.path()),
        Source::bytes("big buffer", vec![b'y'; 1001]),
        Source::bytes("small buffer", b"<b>ok</b>".to_vec()),
    ];
    let result = batch::map_reduce(sources, &options, count, merge, Counts::default);
    let names: Vec<&String> = result.value.documents.keys().collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let mut too_large: Vec<(String, u64, u64)> = result
        .failures
        .iter()
        .map(|f| match &f.kind {
            batch::FailureKind::TooLarge { size, limit } => (f.source.clone(), *size, *limit),
            other => panic!("unexpected failure {other}"),
        })
        .collect();
    too_large.sort_by_key(|(source, ..)| !source.ends_with("big.html"));
    assert_eq!(too_large.len(), 2);
    assert!(too_large[0].0.ends_with("big.html"), "{too_large:?}");
    assert_eq!((too_large[0].1, too_large[0].2), (5000, 1000));
    assert_eq!(too_large[1], ("big buffer".to_string(), 1001, 1000));
    assert!(
        result.failures[0]
            .to_string()
            .contains("over the size limit of 1000 bytes"),
        "{}",
        result.failures[0]
    );
}
