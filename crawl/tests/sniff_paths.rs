//! One sniffing path for every input (issue #48): a file named as a source, the same file
//! found in a folder, and its bytes handed over as a buffer (standard input, Python's
//! `process`) give the same records. Every file of the real corpus (`../shared/corpus`,
//! else the bundled pages, said loudly) is named one by one and compared with what the
//! folder gave for it; the folder is read with `all_files` so that the files the walk
//! takes by name and those it would pass over are all compared.

use htmltok_test_support::data;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use htmltok_crawl::batch::{self, Options, Source};

/// One document: its offset, URL, encoding, the decoded bytes' length and a checksum.
type DocumentKey = (Option<u64>, Option<String>, String, usize, u64);

/// What a run made of one source: its documents (offset, URL, encoding, the decoded
/// bytes' length and a checksum) and its failures (offset, reason), in order.
#[derive(Debug, Default, PartialEq, Eq)]
struct Records {
    documents: Vec<DocumentKey>,
    failures: Vec<(Option<u64>, &'static str)>,
}

fn checksum(bytes: &[u8]) -> u64 {
    // FNV-1a: enough to tell two decodings apart.
    bytes.iter().fold(0xcbf29ce484222325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// Every source's records, by source name.
fn run(sources: Vec<Source>) -> BTreeMap<String, Records> {
    let options = Options::new().threads(1).all_files(true);
    let result = batch::map_reduce(
        sources,
        &options,
        |doc| {
            let encoding = doc
                .decoded_as()
                .map_or("none".to_string(), |d| d.encoding.name().to_string());
            vec![(
                doc.source().to_string(),
                (
                    doc.offset(),
                    doc.url().map(str::to_string),
                    encoding,
                    doc.html().len(),
                    checksum(doc.html()),
                ),
            )]
        },
        |mut a, b| {
            a.extend(b);
            a
        },
        Vec::new,
    );
    let mut by_source: BTreeMap<String, Records> = BTreeMap::new();
    for (source, document) in result.value {
        by_source
            .entry(source)
            .or_default()
            .documents
            .push(document);
    }
    for failure in result.failures {
        by_source
            .entry(failure.source)
            .or_default()
            .failures
            .push((failure.offset, failure.kind.reason()));
    }
    for records in by_source.values_mut() {
        records.documents.sort();
        records.failures.sort();
    }
    by_source
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        } else if path.is_dir() {
            files_under(&path, out);
        } else if path.is_file() {
            out.push(path);
        }
    }
}

#[test]
fn a_named_file_reads_as_the_same_file_in_its_folder() {
    let dir = data::real_or_bundled_corpus("the named-file sniffing check on the real corpus");
    let folder = run(vec![Source::Path(dir.clone())]);
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    assert!(files.len() > 5, "too few files under {}", dir.display());
    let mut differences = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let want = folder.get(&name);
        let named = run(vec![Source::Path(file.clone())]);
        if named.get(&name) != want {
            differences.push(format!(
                "{name}: named {:?}, in its folder {want:?}",
                named.get(&name)
            ));
        }
        // The same bytes as a buffer (standard input, Python's `process`).
        let bytes = std::fs::read(file).unwrap();
        let buffered = run(vec![Source::bytes(name.clone(), bytes)]);
        if buffered.get(&name) != want {
            differences.push(format!(
                "{name}: as bytes {:?}, in its folder {want:?}",
                buffered.get(&name)
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} files differ:\n{}",
        differences.len(),
        files.len(),
        differences.join("\n")
    );
    // The check is not vacuous: the folder gave documents for most files.
    let documents: usize = folder.values().map(|r| r.documents.len()).sum();
    assert!(documents >= files.len() / 2, "{documents} documents");
}

#[test]
fn a_utf16_page_with_its_bom_is_html_wherever_it_comes_from() {
    let dir = std::env::temp_dir().join(format!("htmltok-sniff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut page = vec![0xFF, 0xFE];
    for unit in "<title>Ünïcode</title><p>UTF-16LE".encode_utf16() {
        page.extend(unit.to_le_bytes());
    }
    let path = dir.join("page.html");
    std::fs::write(&path, &page).unwrap();
    let named = run(vec![Source::Path(path.clone())]);
    let folder = run(vec![Source::Path(dir.clone())]);
    let name = path.display().to_string();
    let records = &named[&name];
    assert_eq!(records.documents.len(), 1, "{records:?}");
    assert_eq!(records.documents[0].2, "UTF-16LE");
    assert_eq!(Some(records), folder.get(&name));
    // A binary file is refused the same way named or in its folder.
    let binary = dir.join("binary.html");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0").unwrap();
    let binary_name = binary.display().to_string();
    let named = run(vec![Source::Path(binary.clone())]);
    let folder = run(vec![Source::Path(dir.clone())]);
    assert_eq!(named[&binary_name].failures, vec![(None, "not-html-file")]);
    assert_eq!(named.get(&binary_name), folder.get(&binary_name));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_archive_under_any_name_or_in_memory_is_read_as_an_archive() {
    let dir = std::env::temp_dir().join(format!("htmltok-sniff-warc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut writer = htmltok_crawl::warc::Writer::gzip(Vec::new());
    for i in 0..3 {
        writer
            .write_response(
                &format!("https://example.org/{i}"),
                "2024-01-01T00:00:00Z",
                200,
                &[("Content-Type", "text/html")],
                format!("<title>{i}</title><p>page {i}").as_bytes(),
            )
            .unwrap();
    }
    let warc = writer.into_inner().unwrap();
    let as_warc = dir.join("crawl.warc.gz");
    let as_html = dir.join("misnamed.html");
    std::fs::write(&as_warc, &warc).unwrap();
    std::fs::write(&as_html, &warc).unwrap();
    let folder = run(vec![Source::Path(dir.clone())]);
    for path in [&as_warc, &as_html] {
        let name = path.display().to_string();
        let records = &folder[&name];
        assert_eq!(records.documents.len(), 3, "{name}: {records:?}");
        assert_eq!(
            run(vec![Source::Path(path.to_path_buf())]).get(&name),
            Some(records)
        );
        let buffered = run(vec![Source::bytes(name.clone(), warc.clone())]);
        assert_eq!(buffered.get(&name), Some(records), "{name} as bytes");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
