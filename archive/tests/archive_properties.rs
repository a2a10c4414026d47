//! Properties of the chunked decoder and the ARC and WARC readers over generated input
//! (quickcheck): what is written reads back exactly, and damage anywhere (a cut, a flipped
//! byte) never panics or hangs and loses only what it must. The fuzz targets
//! `http_body` and `arc_reader` check the same on inputs libFuzzer finds.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use htmltok_archive::http::{Note, decode_body};
use htmltok_archive::warc::{Damage, Format, Reader, Record, Writer};
use quickcheck::{QuickCheck, TestResult};

const LIMIT: u64 = 1 << 24;

/// `body` in chunks whose sizes cycle through `sizes` (1 to 256 bytes), with an
/// extension on every third chunk size line.
fn chunked(body: &[u8], sizes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = body;
    let mut i = 0;
    while !rest.is_empty() {
        let size = (usize::from(sizes.get(i % sizes.len().max(1)).copied().unwrap_or(7)) + 1)
            .min(rest.len());
        let ext = if i % 3 == 2 { ";name=value" } else { "" };
        out.extend_from_slice(format!("{size:x}{ext}\r\n").as_bytes());
        out.extend_from_slice(&rest[..size]);
        out.extend_from_slice(b"\r\n");
        rest = &rest[size..];
        i += 1;
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

#[test]
fn chunked_bodies_read_back() {
    fn prop(body: Vec<u8>, sizes: Vec<u8>) -> bool {
        let decoded = decode_body(&chunked(&body, &sizes), Some("chunked"), None, LIMIT).unwrap();
        decoded.notes.is_empty() && decoded.body.as_deref() == Some(body.as_slice())
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Vec<u8>, Vec<u8>) -> bool);
}

#[test]
fn cut_chunked_bodies_lose_only_the_cut() {
    fn prop(body: Vec<u8>, sizes: Vec<u8>, cut: usize) -> TestResult {
        let coded = chunked(&body, &sizes);
        let cut = cut % (coded.len() + 1);
        let Ok(decoded) = decode_body(&coded[..cut], Some("chunked"), None, LIMIT) else {
            return TestResult::failed();
        };
        let out = decoded.body.unwrap_or_else(|| coded[..cut].to_vec());
        // Cut in a chunk's data: a prefix of the body. Cut in a size line: the chunks
        // before, then the piece of the line as stored.
        let framing_ends = decoded.notes.contains(&Note::FramingEnds);
        let not_applied = decoded
            .notes
            .iter()
            .any(|n| n.reason() == "coding-not-applied");
        // Cut in the first size line: no chunk-size line at all, so used as stored.
        let first_line = coded.iter().position(|&b| b == b'\n').unwrap_or(0) + 1;
        TestResult::from_bool(
            body.starts_with(&out) || framing_ends || (cut < first_line && not_applied),
        )
    }
    QuickCheck::new()
        .tests(1000)
        .quickcheck(prop as fn(Vec<u8>, Vec<u8>, usize) -> TestResult);
}

#[test]
fn gzip_bodies_read_back_and_cut_ones_keep_a_prefix() {
    fn prop(body: Vec<u8>, cut: usize, flip: usize) -> TestResult {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(&body).unwrap();
        let coded = encoder.finish().unwrap();
        let whole = decode_body(&coded, None, Some("gzip"), LIMIT).unwrap();
        if whole.body.as_deref() != Some(body.as_slice()) || !whole.notes.is_empty() {
            return TestResult::failed();
        }
        let cut = 2 + cut % (coded.len() - 1);
        match decode_body(&coded[..cut], None, Some("gzip"), LIMIT) {
            Ok(decoded) => {
                let out = decoded.body.unwrap_or_default();
                if !body.starts_with(&out) {
                    return TestResult::failed();
                }
            }
            Err(error) => {
                if error.coding != "gzip" {
                    return TestResult::failed();
                }
            }
        }
        // A flipped byte: no panic, an answer either way.
        let mut flipped = coded.clone();
        let at = flip % flipped.len();
        flipped[at] ^= 0x5a;
        let _ = decode_body(&flipped, Some("chunked"), Some("gzip, br"), LIMIT);
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Vec<u8>, usize, usize) -> TestResult);
}

/// An ARC record: a URL made of `path` (with a space in it when `spaced`), and a body.
#[derive(Clone, Debug)]
struct ArcRecord {
    path: String,
    spaced: bool,
    body: Vec<u8>,
}

impl quickcheck::Arbitrary for ArcRecord {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        let len = usize::arbitrary(g) % 12;
        let path: String = (0..len)
            .map(|_| *g.choose(b"abcxyz019/-_.").unwrap() as char)
            .collect();
        ArcRecord {
            path,
            spaced: bool::arbitrary(g),
            body: Vec::arbitrary(g),
        }
    }
}

impl ArcRecord {
    fn url(&self) -> String {
        let space = if self.spaced { " x" } else { "" };
        format!("http://example.org/{}{space}", self.path)
    }

    /// The record: its header line, an HTTP response holding `body`, and the LF.
    fn bytes(&self) -> Vec<u8> {
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            self.body.len()
        )
        .into_bytes();
        block.extend_from_slice(&self.body);
        let mut out = format!(
            "{} 192.0.2.1 20080430204826 text/html {}\n",
            self.url(),
            block.len()
        )
        .into_bytes();
        out.extend_from_slice(&block);
        out.push(b'\n');
        out
    }
}

/// An ARC file of `records`, plain or one gzip member per record.
fn arc_file(records: &[ArcRecord], gzip: bool) -> Vec<u8> {
    let desc = b"1 0 htmltok test\nURL IP-address Archive-date Content-type Archive-length\n\n";
    let mut units = vec![{
        let mut unit = format!(
            "filedesc://test.arc 0.0.0.0 20080430204825 text/plain {}\n",
            desc.len()
        )
        .into_bytes();
        unit.extend_from_slice(desc);
        unit.push(b'\n');
        unit
    }];
    units.extend(records.iter().map(ArcRecord::bytes));
    if !gzip {
        return units.concat();
    }
    units
        .iter()
        .flat_map(|unit| {
            let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
            encoder.write_all(unit).unwrap();
            encoder.finish().unwrap()
        })
        .collect()
}

#[test]
fn arc_files_read_back() {
    fn prop(records: Vec<ArcRecord>, gzip: bool) -> bool {
        let file = arc_file(&records, gzip);
        let read: Vec<_> = Reader::new(&file[..]).collect();
        read.len() == records.len()
            && read.iter().zip(&records).all(|(item, want)| match item {
                Ok(record) => {
                    record.format == Format::Arc
                        && record.target_uri.as_deref() == Some(want.url().as_str())
                        && record.body == want.body
                        && record.http_status == Some(200)
                        && record.ip_address.as_deref() == Some("192.0.2.1")
                        && record.date.as_deref() == Some("2008-04-30T20:48:26Z")
                        && record.damage.is_none()
                }
                Err(_) => false,
            })
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Vec<ArcRecord>, bool) -> bool);
}

#[test]
fn damaged_arc_files_lose_only_what_they_must() {
    fn prop(records: Vec<ArcRecord>, gzip: bool, cut: usize, flip: usize) -> TestResult {
        if records.is_empty() {
            return TestResult::discard();
        }
        let file = arc_file(&records, gzip);
        // Cut anywhere: the records before the cut read back whole.
        let cut = cut % file.len();
        let read: Vec<_> = Reader::new(&file[..cut]).collect();
        let whole = read
            .iter()
            .take_while(|item| item.as_ref().is_ok_and(|r| r.damage.is_none()))
            .count();
        let full = arc_file(&records, gzip);
        let mut end = arc_file(&[], gzip).len();
        let mut before = 0;
        for record in &records {
            end += arc_file(std::slice::from_ref(record), gzip).len() - arc_file(&[], gzip).len();
            if end > cut {
                break;
            }
            before += 1;
        }
        if whole < before || full != file {
            return TestResult::failed();
        }
        // A flipped byte anywhere: it ends, and every error names an offset in the file.
        let mut flipped = file.clone();
        let at = flip % flipped.len();
        flipped[at] ^= 0x20;
        let ok = Reader::new(&flipped[..])
            .all(|item| item.err().is_none_or(|e| e.offset <= flipped.len() as u64));
        TestResult::from_bool(ok)
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(Vec<ArcRecord>, bool, usize, usize) -> TestResult);
}

/// The parallel reader reads an ARC file (and a file that begins with neither container)
/// as the sequential reader does: it does not cut it into parts, whose readers would take
/// it for WARC. (Found by the `arc_reader` fuzz target: a file beginning with line ends,
/// then an ARC header line whose URL begins `WARC`.)
#[test]
fn the_parallel_reader_reads_arc_files_as_the_sequential_one() {
    fn prop(records: Vec<ArcRecord>, gzip: bool, blank: u8, junk: Vec<u8>) -> bool {
        let mut file = b"\r\n\n".repeat(usize::from(blank % 3));
        file.extend_from_slice(&arc_file(&records, gzip));
        file.extend_from_slice(&junk);
        let summary =
            |items: Vec<Result<htmltok_archive::warc::Record, htmltok_archive::warc::Error>>| {
                items
                    .into_iter()
                    .map(|item| match item {
                        Ok(r) => format!("ok {} {:?} {}", r.offset, r.target_uri, r.body.len()),
                        Err(e) => format!("err {e}"),
                    })
                    .collect::<Vec<_>>()
            };
        let sequential = summary(Reader::new(&file[..]).every_record(true).collect());
        let parallel = summary(
            htmltok_archive::warc::ParallelReader::from_bytes(file.clone(), 2)
                .every_record(true)
                .part_size(16)
                .collect(),
        );
        sequential == parallel
    }
    QuickCheck::new()
        .tests(100)
        .quickcheck(prop as fn(Vec<ArcRecord>, bool, u8, Vec<u8>) -> bool);
    // The fuzz target's input, in short.
    let file = b"\n\nWARCfiledesc://seed.arc 0.0.0.0 20080430204825 text/plain 5\nabcde\n\
                 http://x/ 192.0.2.1 20080430204826 text/html 3\nabc\nWARC/1.0\r\nx";
    assert!(prop(Vec::new(), false, 0, file.to_vec()));
}

/// How a generated WARC file is stored: plain, one gzip member (zstd, LZ4 frame) per
/// record, or the whole file one member (frame), its blocks ended in the middle of each
/// record's body and at each record's end.
#[derive(Clone, Copy, Debug)]
enum Layout {
    Plain,
    PerRecord(&'static str),
    Whole(&'static str),
}

const LAYOUTS: [Layout; 7] = [
    Layout::Plain,
    Layout::PerRecord("gzip"),
    Layout::PerRecord("zstd"),
    Layout::PerRecord("lz4"),
    Layout::Whole("gzip"),
    Layout::Whole("zstd"),
    Layout::Whole("lz4"),
];

/// A WARC file of a response per body, in `layout`; and where each record ends: in the
/// file as stored (per record, plain), or in what it decompresses to (whole).
fn warc_file(bodies: &[Vec<u8>], layout: Layout) -> (Vec<u8>, Vec<usize>) {
    let records: Vec<Vec<u8>> = bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            let mut writer = match layout {
                Layout::PerRecord("gzip") => Writer::gzip(Vec::new()),
                Layout::PerRecord("zstd") => Writer::zstd(Vec::new(), 3).unwrap(),
                Layout::PerRecord(_) => Writer::lz4(Vec::new()),
                _ => Writer::new(Vec::new()),
            };
            writer
                .write_response(
                    &format!("https://example.org/{i}"),
                    "2024-01-01T00:00:00Z",
                    200,
                    &[("Content-Type", "text/html")],
                    body,
                )
                .unwrap();
            writer.into_inner().unwrap()
        })
        .collect();
    let ends: Vec<usize> = records
        .iter()
        .scan(0, |end, record| {
            *end += record.len();
            Some(*end)
        })
        .collect();
    let Layout::Whole(codec) = layout else {
        return (records.concat(), ends);
    };
    fn write<W: Write>(mut encoder: W, records: &[Vec<u8>], bodies: &[Vec<u8>]) -> W {
        for (record, body) in records.iter().zip(bodies) {
            let middle = record.len() - 4 - body.len() / 2;
            for part in [&record[..middle], &record[middle..]] {
                encoder.write_all(part).unwrap();
                encoder.flush().unwrap();
            }
        }
        encoder
    }
    let file = match codec {
        "gzip" => write(
            GzEncoder::new(Vec::new(), Compression::fast()),
            &records,
            bodies,
        )
        .finish()
        .unwrap(),
        "zstd" => write(
            zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap(),
            &records,
            bodies,
        )
        .finish()
        .unwrap(),
        _ => write(
            lz4_flex::frame::FrameEncoder::new(Vec::new()),
            &records,
            bodies,
        )
        .finish()
        .unwrap(),
    };
    (file, ends)
}

/// How many bytes the first `bytes` of a file compressed whole by `codec` decompress to.
fn decodable(codec: &str, bytes: &[u8]) -> usize {
    let mut decoder: Box<dyn std::io::Read> = match codec {
        "gzip" => Box::new(flate2::read::GzDecoder::new(bytes)),
        "zstd" => match zstd::stream::read::Decoder::new(bytes) {
            Ok(decoder) => Box::new(decoder),
            Err(_) => return 0,
        },
        _ => Box::new(lz4_flex::frame::FrameDecoder::new(bytes)),
    };
    let mut got = 0;
    let mut buf = [0u8; 1];
    while let Ok(1) = decoder.read(&mut buf) {
        got += 1;
    }
    got
}

/// A WARC file cut at any byte, in every layout, gives a prefix of the whole file's
/// records: each whole, but the last, which may be marked (cut off: its body a prefix of
/// the record's; its member cut off after it: whole), then at most one error, about the
/// record after them; and every record whose bytes are all there (decompressed, in a file
/// compressed whole) among them.
#[test]
fn cut_warc_files_give_a_prefix_of_their_records() {
    fn prop(bodies: Vec<Vec<u8>>, layout: u8, cut: usize) -> TestResult {
        if bodies.is_empty() {
            return TestResult::discard();
        }
        // Bodies of HTML text, so that each is a document whatever bytes it holds.
        let bodies: Vec<Vec<u8>> = bodies
            .into_iter()
            .take(6)
            .map(|b| [&b"<p>"[..], &b.repeat(3)].concat())
            .collect();
        let layout = LAYOUTS[usize::from(layout) % LAYOUTS.len()];
        let (file, ends) = warc_file(&bodies, layout);
        let full: Vec<Record> = Reader::new(&file[..]).map(Result::unwrap).collect();
        if full.len() != bodies.len() {
            return TestResult::error(format!("{layout:?}: the whole file reads back wrong"));
        }
        let cut = cut % (file.len() + 1);
        let items: Vec<_> = Reader::new(&file[..cut]).collect();
        let records = items.iter().take_while(|item| item.is_ok()).count();
        let what = format!("{layout:?}, cut at {cut} of {}", file.len());
        if items.len() > records + 1 || records > full.len() {
            return TestResult::error(format!("{what}: {} items", items.len()));
        }
        for (i, item) in items[..records].iter().enumerate() {
            let (got, want) = (item.as_ref().unwrap(), &full[i]);
            let same = got.offset == want.offset && got.target_uri == want.target_uri;
            let fine = match &got.damage {
                None => got.body == want.body,
                Some(Damage::MemberCutOff) => got.body == want.body && i + 1 == records,
                Some(Damage::CutOff { .. }) => {
                    want.body.starts_with(&got.body) && !got.body.is_empty() && i + 1 == records
                }
                Some(_) => false,
            };
            if !same || !fine {
                return TestResult::error(format!("{what}: record {i}: {:?}", got.damage));
            }
        }
        if let Some(Err(error)) = items.get(records)
            && records < full.len()
            && error.offset != full[records].offset
        {
            return TestResult::error(format!("{what}: {error} is not about record {records}"));
        }
        // Nothing lost that was there to read.
        let there = match layout {
            Layout::Whole(codec) => decodable(codec, &file[..cut]),
            _ => cut,
        };
        let whole = ends.iter().filter(|&&end| end - 4 <= there).count();
        let kept = items[..records]
            .iter()
            .filter(|item| {
                let record = item.as_ref().unwrap();
                matches!(record.damage, None | Some(Damage::MemberCutOff))
            })
            .count();
        // (In a member per record, a record is whole with its member's end only.)
        let whole = match layout {
            Layout::PerRecord(_) => ends.iter().filter(|&&end| end <= cut).count(),
            _ => whole,
        };
        if kept < whole {
            return TestResult::error(format!("{what}: {kept} records whole of {whole}"));
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(400)
        .quickcheck(prop as fn(Vec<Vec<u8>>, u8, usize) -> TestResult);
}
