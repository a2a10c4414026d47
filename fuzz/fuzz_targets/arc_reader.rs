//! The archive reader on any bytes read as an ARC file (seeds: `fuzz/arc-seeds/`), plain
//! and gzipped as a whole: it ends, never panics, every error names an offset inside the
//! input, and the parallel reader (which reads an ARC file sequentially) yields the same
//! records and errors.
#![no_main]

use std::io::Write;

use htmltok_crawl::warc::{Error, ParallelReader, Reader, Record};
use libfuzzer_sys::fuzz_target;

/// One line per item: a record's offset, URL and body length, or the error.
fn summary(item: Result<Record, Error>) -> String {
    match item {
        Ok(record) => format!(
            "ok {} {:?} {}",
            record.offset,
            record.target_uri,
            record.body.len()
        ),
        Err(error) => format!("err {error}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap();
    let gzipped = gz.finish().unwrap();
    for input in [data, &gzipped[..]] {
        let sequential: Vec<String> = Reader::new(input)
            .every_record(true)
            .inspect(|item| {
                if let Err(error) = item {
                    assert!(error.offset <= input.len() as u64, "{error}");
                }
            })
            .map(summary)
            .collect();
        let parallel: Vec<String> = ParallelReader::from_bytes(input.to_vec(), 2)
            .every_record(true)
            .part_size(64)
            .map(summary)
            .collect();
        assert_eq!(sequential, parallel);
    }
});
