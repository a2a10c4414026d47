//! The parallel WARC reader yields exactly what the sequential one does: generated WARC
//! files, plain, gzip, zstd (with and without a dictionary) and LZ4, with records whose
//! payloads hold fake gzip magic, fake `WARC/1.1` lines and whole embedded gzip WARC members (stored uncompressed in a gzip
//! member with deflate's stored blocks, so that they sit in the file literally and pass
//! the parallel reader's check for a record start), then damaged (cut short, garbage
//! between or inside records, flipped bytes, ranges dropped or repeated), read in parts
//! of many sizes on 2–4 threads. The check itself is `test-support/src/warc.rs`, which the fuzz
//! target `warc_parallel` runs on arbitrary bytes. A batch over one such file, whose
//! workers read and map the parts themselves, gives what it gives on one thread.
//!
//! Run with `cargo test -p htmltok-crawl --test warc_parallel`.

use htmltok_test_support::warc as check;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use flate2::Compression;
use flate2::write::GzEncoder;
use htmltok_crawl::batch::{self, Options, Source};
use htmltok_crawl::warc::{ParallelReader, Writer};

/// A small deterministic generator (no dependency, same cases on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One record as a plain WARC record.
fn plain_record(rng: &mut Lcg, i: usize, nested: bool) -> Vec<u8> {
    let mut body = Vec::new();
    for _ in 0..rng.below(12) {
        match rng.below(9) {
            0 => body.extend_from_slice(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"),
            1 => body.extend_from_slice(b"\r\nWARC/1.1\r\nWARC-Type: response\r\n"),
            2 => body.extend_from_slice(b"\nWARC/1.0\n"),
            3 if !nested => {
                // A whole gzip member holding a WARC record, as bytes of this payload.
                let inner = plain_record(rng, 1000 + i, true);
                body.extend_from_slice(&gzip(&inner, Compression::fast()));
            }
            4 => body.extend_from_slice(b"\r\n\r\n"),
            5 => body.extend((0..rng.below(200)).map(|_| rng.next() as u8)),
            _ => body.extend_from_slice(b"<p>Some text of a page &amp; more.</p>\n"),
        }
    }
    let mut writer = Writer::new(Vec::new());
    let uri = format!("https://example.com/{i}");
    match rng.below(6) {
        0 => writer.write_record(
            "request",
            &[("WARC-Target-URI", &uri)],
            b"GET / HTTP/1.1\r\n\r\n",
        ),
        1 => writer.write_record("metadata", &[("WARC-Target-URI", &uri)], &body),
        2 => writer.write_resource(&uri, "2024-01-01T00:00:00Z", "text/html", &body),
        _ => writer.write_response(
            &uri,
            "2024-01-01T00:00:00Z",
            200,
            &[("Content-Type", "text/html; charset=utf-8")],
            &body,
        ),
    }
    .unwrap();
    writer.into_inner().unwrap()
}

fn gzip(bytes: &[u8], level: Compression) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), level);
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// How a generated WARC file is compressed.
#[derive(Clone, Copy, Debug)]
enum Form {
    Plain,
    Gzip,
    Zstd,
    /// zstd frames made with a dictionary, which the file starts with (zstd-compressed
    /// itself or not).
    ZstdDictionary,
    /// An LZ4 frame per record, with or without checksums and content size.
    Lz4,
    /// The whole file one gzip member, zstd or LZ4 frame (a `Whole` of `Plain`, `Gzip`,
    /// `Zstd`, `Lz4`), its blocks ended at random places, inside records and between them.
    Whole(Codec),
}

/// The codec of a file compressed as a whole.
#[derive(Clone, Copy, Debug)]
enum Codec {
    Gzip,
    Zstd,
    Lz4,
}

const FORMS: [Form; 8] = [
    Form::Gzip,
    Form::Plain,
    Form::Zstd,
    Form::ZstdDictionary,
    Form::Lz4,
    Form::Whole(Codec::Gzip),
    Form::Whole(Codec::Zstd),
    Form::Whole(Codec::Lz4),
];

/// `plain` compressed as one member (frame) by `codec`, with its blocks ended (flushed)
/// at random places.
fn whole(rng: &mut Lcg, plain: &[u8], codec: Codec) -> Vec<u8> {
    fn write<W: std::io::Write>(rng: &mut Lcg, mut encoder: W, plain: &[u8]) -> W {
        let mut at = 0;
        while at < plain.len() {
            let end = (at + 1 + rng.below(3000)).min(plain.len());
            encoder.write_all(&plain[at..end]).unwrap();
            if rng.below(2) == 0 {
                encoder.flush().unwrap();
            }
            at = end;
        }
        encoder
    }
    match codec {
        Codec::Gzip => {
            let level = [
                Compression::none(),
                Compression::fast(),
                Compression::default(),
            ];
            let encoder = GzEncoder::new(Vec::new(), level[rng.below(3)]);
            write(rng, encoder, plain).finish().unwrap()
        }
        Codec::Zstd => {
            let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
            encoder.include_checksum(rng.below(2) == 0).unwrap();
            write(rng, encoder, plain).finish().unwrap()
        }
        Codec::Lz4 => {
            let info = lz4_flex::frame::FrameInfo::new().content_checksum(rng.below(2) == 0);
            let encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            write(rng, encoder, plain).finish().unwrap()
        }
    }
}

/// A zstd dictionary of the words the generated records are made of (a raw-content
/// dictionary: zstd takes any bytes as one).
const DICTIONARY: &[u8] = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/\r\nContent-Type: text/html; charset=utf-8\r\n<p>Some text of a page &amp; more.</p>\n";

/// A WARC file of `records` records in `form`: gzip per record (some members stored,
/// level 0), zstd or LZ4 per record, or plain.
fn warc(rng: &mut Lcg, records: usize, form: Form) -> Vec<u8> {
    if let Form::Whole(codec) = form {
        let plain = warc(rng, records, Form::Plain);
        return whole(rng, &plain, codec);
    }
    let mut out = Vec::new();
    if let Form::ZstdDictionary = form {
        let content = if rng.below(2) == 0 {
            DICTIONARY.to_vec()
        } else {
            zstd::bulk::compress(DICTIONARY, 3).unwrap()
        };
        out.extend_from_slice(&[0x5d, 0x2a, 0x4d, 0x18]);
        out.extend_from_slice(&(content.len() as u32).to_le_bytes());
        out.extend_from_slice(&content);
    }
    for i in 0..records {
        let record = plain_record(rng, i, false);
        let level = [1, 3, 19][rng.below(3)];
        if let Form::Zstd = form {
            out.extend_from_slice(&zstd::bulk::compress(&record, level).unwrap());
        } else if let Form::ZstdDictionary = form {
            let mut compressor =
                zstd::bulk::Compressor::with_dictionary(level, DICTIONARY).unwrap();
            out.extend_from_slice(&compressor.compress(&record).unwrap());
        } else if let Form::Lz4 = form {
            let info = lz4_flex::frame::FrameInfo::new()
                .content_checksum(rng.below(2) == 0)
                .block_checksums(rng.below(2) == 0)
                .content_size((rng.below(2) == 0).then_some(record.len() as u64));
            let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            encoder.write_all(&record).unwrap();
            out.extend_from_slice(&encoder.finish().unwrap());
        } else if let Form::Gzip = form {
            let level = [
                Compression::none(),
                Compression::fast(),
                Compression::default(),
            ][rng.below(3)];
            out.extend_from_slice(&gzip(&record, level));
        } else {
            out.extend_from_slice(&record);
        }
    }
    out
}

/// Damages `bytes` in one of the ways real files are damaged.
fn damage(rng: &mut Lcg, bytes: &mut Vec<u8>) {
    if bytes.is_empty() {
        return;
    }
    let at = rng.below(bytes.len());
    match rng.below(6) {
        0 => bytes.truncate(at),
        1 => {
            let garbage: Vec<u8> = match rng.below(5) {
                0 => b"\x1f\x8b\x08 junk \x1f\x8b".to_vec(),
                3 => b"\x28\xb5\x2f\xfd junk \x28\xb5".to_vec(),
                4 => b"\x04\x22\x4d\x18\x64\x40\xa7 junk \x04\x22".to_vec(),
                1 => b"\nWARC/1.1\r\nContent-Length: 5\r\n\r\n".to_vec(),
                _ => (0..rng.below(64)).map(|_| rng.next() as u8).collect(),
            };
            bytes.splice(at..at, garbage);
        }
        2 => bytes[at] ^= 1 + rng.below(255) as u8,
        3 => {
            let end = (at + rng.below(300)).min(bytes.len());
            bytes.drain(at..end);
        }
        4 => {
            let end = (at + rng.below(300)).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            let to = rng.below(bytes.len());
            bytes.splice(to..to, copy);
        }
        _ => {
            // Another gzip WARC member inside a record (not in a payload).
            let member = gzip(&plain_record(rng, 9999, true), Compression::default());
            bytes.splice(at..at, member);
        }
    }
}

fn check(bytes: &[u8], rng: &mut Lcg, what: &str) {
    let len = bytes.len().max(2) as u64;
    let sizes = [
        1 + rng.below(64) as u64,
        1 + rng.below(len as usize / 3 + 1) as u64,
        len / 2,
    ];
    for size in sizes {
        let threads = 2 + rng.below(3);
        if let Err(message) = check::check_parallel(bytes, size.max(16), threads) {
            panic!("{what}: {message}");
        }
    }
}

#[test]
fn parallel_equals_sequential_on_intact_files() {
    let mut rng = Lcg(0x16);
    for round in 0..40 {
        for form in FORMS {
            let records = 3 + rng.below(30);
            let bytes = warc(&mut rng, records, form);
            check(&bytes, &mut rng, &format!("round {round}, {form:?}"));
        }
    }
}

#[test]
fn parallel_equals_sequential_on_damaged_files() {
    // More rounds (and another seed) with WARC_PARALLEL_ROUNDS=N.
    let rounds: u64 = std::env::var("WARC_PARALLEL_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    let mut rng = Lcg(0xda3a9e ^ rounds);
    for round in 0..rounds {
        for form in FORMS {
            let records = 3 + rng.below(20);
            let mut bytes = warc(&mut rng, records, form);
            for _ in 0..1 + rng.below(3) {
                damage(&mut rng, &mut bytes);
            }
            check(&bytes, &mut rng, &format!("round {round}, {form:?}"));
        }
    }
}

/// A file whose parts start at false candidates: every record's payload holds a whole
/// gzip WARC member, stored (level 0), so the embedded members are in the file as they
/// are, and many parts begin inside one.
#[test]
fn embedded_members_in_stored_blocks_never_cut_a_record() {
    let mut rng = Lcg(7);
    let mut out = Vec::new();
    for i in 0..40 {
        let mut writer = Writer::gzip(Vec::new());
        writer
            .write_response(
                &format!("https://example.com/inner/{i}"),
                "2024-01-01T00:00:00Z",
                200,
                &[("Content-Type", "text/html")],
                b"<p>inner",
            )
            .unwrap();
        let inner = writer.into_inner().unwrap();
        let mut body = b"<p>outer ".to_vec();
        for _ in 0..3 {
            body.extend_from_slice(&inner);
            body.extend((0..rng.below(100)).map(|_| b'x'));
        }
        let mut writer = Writer::new(Vec::new());
        writer
            .write_response(
                &format!("https://example.com/outer/{i}"),
                "2024-01-01T00:00:00Z",
                200,
                &[("Content-Type", "text/html")],
                &body,
            )
            .unwrap();
        out.extend_from_slice(&gzip(&writer.into_inner().unwrap(), Compression::none()));
    }
    for size in [17, 64, 100, 333, 1000, 4096] {
        check::check_parallel(&out, size, 3).unwrap();
    }
    // The parallel path is really taken.
    let mut reader = ParallelReader::from_bytes(out.clone(), 2).part_size(512);
    assert!(reader.next().unwrap().is_ok());
    assert!(reader.is_parallel());
    let outer = ParallelReader::from_bytes(out, 2)
        .part_size(512)
        .filter(|r| {
            r.as_ref()
                .unwrap()
                .target_uri
                .as_deref()
                .unwrap()
                .contains("outer")
        })
        .count();
    assert_eq!(outer, 40);
}

/// The bundled sample WARC and the corpus's files read in parts agree too.
#[test]
fn parallel_equals_sequential_on_the_sample_warc() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let sample = std::fs::read(root.join("corpus/sample.warc.gz")).expect("corpus/sample.warc.gz");
    for size in [16, 100, 1000, 5000] {
        check::check_parallel(&sample, size, 2).unwrap();
    }
    // Through a file, with the default part size and a small one.
    let path = root.join("corpus/sample.warc.gz");
    let expected = check::sequential(&sample);
    let got: Vec<_> = htmltok_crawl::warc::open_parallel(&path, 2)
        .unwrap()
        .part_size(700)
        .map(|r| match r {
            Ok(record) => check::Item::Record(Box::new(record)),
            Err(error) => check::Item::Error {
                offset: error.offset,
                message: error.to_string(),
            },
        })
        .collect();
    assert_eq!(got, expected);
}

/// A file name's extension for `form` (the batch goes by the bytes, not by the name).
fn extension(form: Form) -> &'static str {
    match form {
        Form::Plain => "warc",
        Form::Gzip | Form::Whole(Codec::Gzip) => "warc.gz",
        Form::Zstd | Form::ZstdDictionary | Form::Whole(Codec::Zstd) => "warc.zst",
        Form::Lz4 | Form::Whole(Codec::Lz4) => "warc.lz4",
    }
}

/// What a batch over one WARC file gave, in a form to compare.
#[derive(Debug, PartialEq)]
struct BatchSeen {
    /// Each document's offset, with its size and URL.
    documents: BTreeMap<u64, (usize, Option<String>)>,
    counted: (u64, u64, u64),
    failures: Vec<String>,
    /// How many times `map` and the failure hook were called.
    map_calls: usize,
    hook_calls: usize,
}

fn batch_over(path: &std::path::Path, threads: usize, part: Option<u64>) -> BatchSeen {
    let map_calls = AtomicUsize::new(0);
    let hook_calls = Arc::new(AtomicUsize::new(0));
    let hooked = Arc::clone(&hook_calls);
    let mut options = Options::new().threads(threads).on_failure(move |_| {
        hooked.fetch_add(1, Ordering::Relaxed);
    });
    if let Some(part) = part {
        options = options.warc_part_size(part);
    }
    let result = batch::map_reduce(
        [Source::from(path)],
        &options,
        |doc| {
            map_calls.fetch_add(1, Ordering::Relaxed);
            let seen = (doc.raw().len(), doc.url().map(str::to_string));
            BTreeMap::from([(doc.offset().unwrap(), seen)])
        },
        |mut a, b| {
            a.extend(b);
            a
        },
        BTreeMap::new,
    );
    BatchSeen {
        documents: result.value,
        counted: (result.documents, result.bytes, result.ignored),
        failures: result.failures.iter().map(ToString::to_string).collect(),
        map_calls: map_calls.into_inner(),
        hook_calls: hook_calls.load(Ordering::Relaxed),
    }
}

/// A batch over one WARC file, whose parts the workers read and map themselves, gives with
/// several threads exactly what it gives with one (the sequential reader): the same
/// documents and failures, and `map` and the failure hook called once for each, never for
/// records read on a guess and then discarded (generated files as above, damaged, read in
/// parts of many sizes).
#[test]
fn a_batch_over_one_warc_equals_one_thread() {
    let dir = std::env::temp_dir().join(format!(
        "htmltok-warc-parallel-batch-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Lcg(0xba7c4);
    for round in 0..25 {
        for form in FORMS {
            let records = 3 + rng.below(20);
            let mut bytes = warc(&mut rng, records, form);
            for _ in 0..rng.below(3) {
                damage(&mut rng, &mut bytes);
            }
            let ext = extension(form);
            let path = dir.join(format!("{round}.{ext}"));
            std::fs::write(&path, &bytes).unwrap();
            let one = batch_over(&path, 1, None);
            assert_eq!(one.map_calls as u64, one.counted.0);
            assert_eq!(one.hook_calls, one.failures.len());
            let len = bytes.len().max(2) as u64;
            let parts = [
                1 + rng.below(64) as u64,
                1 + rng.below(len as usize / 3 + 1) as u64,
                len / 2,
            ];
            for (threads, part) in [2, 3, 4].into_iter().zip(parts) {
                let many = batch_over(&path, threads, Some(part.max(16)));
                assert_eq!(
                    many, one,
                    "round {round}, {form:?}, {threads} threads, parts of {part}"
                );
            }
            std::fs::remove_file(&path).unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.warc.zst` whose frames are stored as raw blocks, one record's payload a crafted
/// zstd frame start (declaring a 128 KiB compressed block) every 24 bytes, all in the
/// file as they are; `damaged`: that record's own frame header made invalid, so that the
/// sequential reader searches through them.
fn crafted_zstd(rng: &mut Lcg, payload: usize, damaged: bool) -> Vec<u8> {
    fn raw_frame(data: &[u8]) -> Vec<u8> {
        // No content size, checksum or dictionary; a 128 KiB window.
        let mut out = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
        let chunks: Vec<&[u8]> = data.chunks(128 << 10).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let last = u32::from(i + 1 == chunks.len());
            let header = ((chunk.len() as u32) << 3) | last;
            out.extend_from_slice(&header.to_le_bytes()[..3]);
            out.extend_from_slice(chunk);
        }
        out
    }
    let mut fake = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
    fake.extend_from_slice(&((131071u32 << 3) | (2 << 1) | 1).to_le_bytes()[..3]);
    fake.push(5 << 3); // raw literals, five of them
    fake.extend_from_slice(b"WARC/");
    let mut body = Vec::new();
    while body.len() < payload {
        body.extend_from_slice(&fake);
        body.extend((fake.len()..24).map(|_| rng.next() as u8));
    }
    let record = |uri: &str, body: &[u8]| {
        let mut writer = Writer::new(Vec::new());
        writer
            .write_response(uri, "2024-01-01T00:00:00Z", 200, &[], body)
            .unwrap();
        writer.into_inner().unwrap()
    };
    let mut out = Vec::new();
    for i in 0..8 {
        let page = "<p>a page</p>".repeat(500 + i);
        out.extend(raw_frame(&record(
            &format!("https://a.test/{i}"),
            page.as_bytes(),
        )));
        if i == 3 {
            let mut frame = raw_frame(&record("https://a.test/crafted", &body));
            if damaged {
                frame[4] |= 0x08; // a reserved bit of the frame header
            }
            out.extend(frame);
        }
    }
    out
}

/// Crafted zstd frame starts in a payload, which the parts' guesses meet and the
/// sequential reader searches through after damage, change nothing either.
#[test]
fn crafted_zstd_candidates_change_nothing() {
    let mut rng = Lcg(0x25d);
    for damaged in [false, true] {
        let bytes = crafted_zstd(&mut rng, 64 << 10, damaged);
        for size in [1000, 4096, 20_000] {
            check::check_parallel(&bytes, size, 2).unwrap();
        }
    }
}

/// A file cut off anywhere, in every form: the batch, on one thread and on two with small
/// parts, gives exactly what the sequential reader does: a document for each record that
/// is one (a record read in part too, with its note), a failure for each error with its
/// offset (never one for the whole file), and nothing more.
#[test]
fn a_batch_over_a_cut_warc_counts_what_it_lost() {
    let dir = std::env::temp_dir().join(format!("htmltok-warc-cut-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Lcg(0xc07);
    for round in 0..12 {
        for form in FORMS {
            let records = 4 + rng.below(8);
            let bytes = warc(&mut rng, records, form);
            let cut = &bytes[..bytes.len() * (1 + rng.below(99)) / 100];
            let path = dir.join(format!("{round}.{}", extension(form)));
            std::fs::write(&path, cut).unwrap();
            // What the reader gives, as the batch counts it.
            let mut documents = BTreeMap::new();
            let mut failures = Vec::new();
            let mut notes = 0;
            for item in htmltok_crawl::warc::Reader::new(cut).every_record(true) {
                match item {
                    Err(error) => failures.push(error.offset),
                    Ok(record) if record.body_error.is_some() => failures.push(record.offset),
                    Ok(record) => {
                        notes += usize::from(record.damage.is_some());
                        if htmltok_crawl::documents::classify(&record).is_ok() {
                            notes += record.payload_notes.len()
                                + usize::from(record.warc_truncated.is_some());
                            documents.insert(record.offset, record.body.len());
                        }
                    }
                }
            }
            for (threads, part) in [(1, None), (2, Some(64)), (2, Some(333))] {
                let mut options = Options::new().threads(threads);
                if let Some(part) = part {
                    options = options.warc_part_size(part);
                }
                let result = batch::map_reduce(
                    [Source::from(path.as_path())],
                    &options,
                    |doc| BTreeMap::from([(doc.offset().unwrap(), doc.raw().len())]),
                    |mut a, b| {
                        a.extend(b);
                        a
                    },
                    BTreeMap::new,
                );
                let what = format!("round {round}, {form:?}, {threads} threads, parts {part:?}");
                assert_eq!(result.value, documents, "{what}");
                let offsets: Vec<Option<u64>> = result.failures.iter().map(|f| f.offset).collect();
                let mut expected: Vec<Option<u64>> = failures.iter().map(|&o| Some(o)).collect();
                expected.sort();
                assert_eq!(offsets, expected, "{what}");
                assert_eq!(result.notices.len(), notes, "{what}: {:?}", result.notices);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
