//! Every file of `../shared/warc-real/` (real WARC and ARC files written by webrecorder's
//! warcio and pywb and by the UK Web Archive's tools; `$HTMLTOK_WARC_REAL` to read them
//! from elsewhere), read as a crawl pipeline reads them, against what warcio 1.8.1 (with
//! its default decoding) makes of each, from `MANIFEST.tsv`:
//!
//! - the HTML response documents (response records, an ARC file's HTTP records, whose
//!   HTTP `Content-Type` is `text/html`) are as many as warcio's `html_responses`, except
//!   in the files of [`DIFFERENCES`], each with the reason htmltok's answer is the right
//!   one, and never fewer;
//! - the records read (and the errors reported) are as many as warcio reads, where
//!   warcio reads the file to its end;
//! - the batch, on one thread and on two with small parts, agrees with the reader record
//!   for record: every record is a document, or counted under a reason, or a failure
//!   with its offset; nothing panics or hangs.
//!
//! When the files are absent the test says NOT RUN (and fails under CI).

use htmltok_test_support::data;

use std::collections::BTreeMap;
use std::path::Path;

use htmltok_crawl::batch::{self, Options, Source};
use htmltok_crawl::documents;
use htmltok_crawl::warc::{Format, Reader};

/// Files where htmltok's count of HTML responses differs from warcio's, with htmltok's
/// count and why it is the right one.
const DIFFERENCES: &[(&str, u64, &str)] = &[
    (
        "warcio/example-bad-non-chunked.warc.gz",
        1,
        "the file is gzipped as a whole, not one member per record; warcio refuses it \
         (\"non-chunked gzip file detected\"), htmltok reads its six records (as FastWARC \
         does), one of them an HTML response",
    ),
    (
        "warcio/example-bad.warc.gz.bad",
        2,
        "gzipped as a whole, as above: warcio refuses it, htmltok reads its six records \
         (as FastWARC does), two of them HTML responses (a page and a 302 in HTML)",
    ),
];

struct Read {
    /// Records read (Ok items, damaged ones included).
    records: u64,
    /// Errors reported.
    errors: u64,
    /// Response records (ARC HTTP records) whose HTTP Content-Type is text/html.
    html_responses: u64,
    /// Records that are documents, by `documents::classify`.
    documents: u64,
    /// Records that are not, by reason.
    skipped: BTreeMap<&'static str, u64>,
}

fn read(path: &Path) -> Read {
    let mut read = Read {
        records: 0,
        errors: 0,
        html_responses: 0,
        documents: 0,
        skipped: BTreeMap::new(),
    };
    let reader = Reader::new(std::fs::File::open(path).unwrap()).every_record(true);
    for item in reader {
        let Ok(record) = item else {
            read.errors += 1;
            continue;
        };
        read.records += 1;
        let is_response = record.warc_type == "response"
            || (record.format == Format::Arc && record.http_status.is_some());
        let is_html = record
            .content_type
            .as_deref()
            .and_then(|t| t.split(';').next())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("text/html"));
        if is_response && is_html && record.body_error.is_none() {
            read.html_responses += 1;
        }
        if record.body_error.is_some() {
            continue; // the batch reports it as a failure
        }
        match documents::classify(&record) {
            Ok(()) => read.documents += 1,
            Err(reason) => *read.skipped.entry(reason).or_default() += 1,
        }
    }
    read
}

#[test]
fn every_real_archive_reads_as_warcio_reads_it() {
    let dir = match data::warc_real() {
        Ok(dir) => dir,
        Err(why) => return data::missing("the real WARC/ARC files test", &why),
    };
    let manifest = data::Manifest::read(&dir);
    let (file, records_col, html_col) = (
        manifest.require("file"),
        manifest.require("records_warcio"),
        manifest.require("html_responses"),
    );
    let mut problems = Vec::new();
    let mut files = 0;
    for row in manifest.rows() {
        let name = row[file].as_str();
        let path = dir.join(name);
        files += 1;
        let got = read(&path);

        // HTML responses, as warcio counts them.
        let expected: u64 = row[html_col].parse().unwrap();
        let (want, why) = match DIFFERENCES.iter().find(|(f, _, _)| *f == name) {
            Some((_, ours, why)) => (*ours, Some(*why)),
            None => (expected, None),
        };
        if got.html_responses < expected {
            problems.push(format!(
                "{name}: {} HTML responses, fewer than warcio's {expected}",
                got.html_responses
            ));
        }
        if got.html_responses != want {
            problems.push(format!(
                "{name}: {} HTML responses, expected {want} (warcio: {expected}{})",
                got.html_responses,
                why.map(|_| "; a listed difference").unwrap_or_default()
            ));
        }

        // Records, where warcio reads the whole file.
        if let Ok(records) = row[records_col].parse::<u64>()
            && got.records + got.errors != records
        {
            problems.push(format!(
                "{name}: {} records and {} errors, warcio reads {records} records",
                got.records, got.errors
            ));
        }

        // The batch agrees with the reader, on one thread and on two.
        for threads in [1, 2] {
            let options = Options::new().threads(threads).warc_part_size(512);
            let result = batch::for_each([Source::from(path.as_path())], &options, |_| {});
            let failures = result.failures.len() as u64;
            if result.documents != got.documents || result.skipped != got.skipped {
                problems.push(format!(
                    "{name}: the batch on {threads} threads gives {} documents, skipped {:?}; \
                     the reader {} and {:?}",
                    result.documents, result.skipped, got.documents, got.skipped
                ));
            }
            let not_documents = got.records - got.documents - got.skipped.values().sum::<u64>();
            if failures != got.errors + not_documents {
                problems.push(format!(
                    "{name}: the batch on {threads} threads reports {failures} failures, the \
                     reader {} errors and {not_documents} bodies that do not decode: {:?}",
                    got.errors,
                    result
                        .failures
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                ));
            }
            if result.failures.iter().any(|f| f.offset.is_none()) {
                problems.push(format!("{name}: a failure without an offset"));
            }
        }
    }
    assert!(files >= 40, "only {files} files in the manifest");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    data::loud(&format!(
        "warc-real: {files} files read, HTML responses as warcio's but for {} listed differences",
        DIFFERENCES.len()
    ));
}

/// The records of `name` (every type), read by the sequential reader.
fn records_of(dir: &Path, name: &str) -> Vec<htmltok_crawl::warc::Record> {
    Reader::new(std::fs::File::open(dir.join(name)).unwrap())
        .every_record(true)
        .map(|item| item.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

#[test]
fn real_archives_give_the_right_fields_and_bodies() {
    let dir = match data::warc_real() {
        Ok(dir) => dir,
        Err(why) => return data::missing("the real WARC/ARC fields test", &why),
    };
    // ARC, plain and one gzip member per record: the fields a WARC record gives.
    for name in ["warcio/example.arc", "warcio/example.arc.gz"] {
        let records = records_of(&dir, name);
        assert_eq!(records.len(), 2, "{name}");
        assert_eq!(
            records[0].warc_type, "warcinfo",
            "{name}: the filedesc record"
        );
        let page = &records[1];
        assert_eq!(page.format, Format::Arc);
        assert_eq!(page.warc_type, "response");
        assert_eq!(page.target_uri.as_deref(), Some("http://example.com/"));
        assert_eq!(page.date.as_deref(), Some("2014-02-16T05:02:21Z"));
        assert_eq!(page.ip_address.as_deref(), Some("93.184.216.119"));
        assert_eq!(page.http_status, Some(200));
        assert_eq!(page.content_type.as_deref(), Some("text/html"));
        assert!(page.body.starts_with(b"<!doctype html>"), "{name}");
        assert_eq!(page.body.len(), 1270, "{name}: the HTTP Content-Length");
        assert!(page.damage.is_none() && page.length.is_some());
    }
    let spaced = records_of(&dir, "warcio/example-space-in-url.arc");
    assert_eq!(
        spaced[1].target_uri.as_deref(),
        Some(
            "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples From The Live \
             Web&IsPopUp=False"
        )
    );
    // Bodies stored as they came off the wire: chunked, gzip, brotli.
    for (name, coding) in [
        (
            "webarchive-discovery/transfer_compression_gzip.warc",
            "gzip",
        ),
        (
            "webarchive-discovery/transfer_compression_brotli.warc",
            "br",
        ),
        (
            "webarchive-discovery/transfer_compression_brotli.warc.gz",
            "br",
        ),
        ("warcio/example-iana.org-chunked.warc", "chunked"),
    ] {
        let records = records_of(&dir, name);
        let page = records
            .iter()
            .find(|r| documents::classify(r).is_ok())
            .unwrap_or_else(|| panic!("{name}: no document"));
        let head = &page.body[..page.body.len().min(200)];
        let head = String::from_utf8_lossy(head).to_ascii_lowercase();
        assert!(
            head.contains("<html") || head.contains("<!doctype"),
            "{name} ({coding}): {head}"
        );
        assert!(
            page.body_error.is_none() && page.payload_notes.is_empty(),
            "{name}"
        );
        assert!(page.raw_body.is_some(), "{name}: the stored bytes are kept");
    }
    // pywb's example-extra.warc: its second response begins `HTTPX/1.1 200 OK` and its
    // length is one byte short (the X): an HTML response all the same, marked, with the
    // same page as the first (its block read on to the next record).
    let extra = records_of(&dir, "pywb/example-extra.warc");
    let responses: Vec<_> = extra.iter().filter(|r| r.warc_type == "response").collect();
    assert_eq!(responses.len(), 2);
    assert_eq!(responses[1].http_status, Some(200));
    assert_eq!(responses[1].content_type.as_deref(), Some("text/html"));
    assert_eq!(
        responses[1].damage,
        Some(htmltok_crawl::warc::Damage::WrongLength { length: 1610 })
    );
    assert_eq!(responses[1].body, responses[0].body);
    assert!(responses[0].damage.is_none());
    // pywb stores bodies de-chunked and keeps `Transfer-Encoding: chunked`: used as
    // stored, and noted.
    let iana = records_of(&dir, "pywb/iana.warc.gz");
    let noted: Vec<_> = iana
        .iter()
        .filter(|r| !r.payload_notes.is_empty())
        .collect();
    assert!(!noted.is_empty());
    for record in noted {
        assert_eq!(record.payload_notes[0].reason(), "coding-not-applied");
        assert!(record.raw_body.is_none(), "used as stored: nothing decoded");
    }
}
