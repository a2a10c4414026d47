//! The parallel WARC reader's contract, shared by the fuzz target `warc_parallel` and
//! `crawl/tests/warc_parallel.rs`: for any input, reading it
//! in parts on several threads (`htmltok_archive::warc::ParallelReader`) yields exactly the
//! records and errors of the sequential `Reader`, in the same order. It depends on
//! htmltok-archive alone.

use htmltok_archive::warc::{self, ParallelReader, Reader, Record};

/// One item as compared: a record whole, or an error's offset and message.
#[derive(Debug, PartialEq, Eq)]
pub enum Item {
    Record(Box<Record>),
    Error { offset: u64, message: String },
}

fn item(result: Result<Record, warc::Error>) -> Item {
    match result {
        Ok(record) => Item::Record(Box::new(record)),
        Err(error) => Item::Error {
            offset: error.offset,
            message: error.to_string(),
        },
    }
}

/// The sequential reader's items.
pub fn sequential(bytes: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    for result in Reader::new(bytes) {
        items.push(item(result));
        assert!(items.len() < 1_000_000, "the reader does not end");
    }
    items
}

/// The parallel reader's items, with parts of `part_size` bytes on `threads` threads.
pub fn parallel(bytes: &[u8], part_size: u64, threads: usize) -> Vec<Item> {
    let mut items = Vec::new();
    for result in ParallelReader::from_bytes(bytes.to_vec(), threads).part_size(part_size) {
        items.push(item(result));
        assert!(items.len() < 1_000_000, "the reader does not end");
    }
    items
}

/// Checks that the parallel reader agrees with the sequential one on `bytes`.
pub fn check_parallel(bytes: &[u8], part_size: u64, threads: usize) -> Result<(), String> {
    let expected = sequential(bytes);
    let got = parallel(bytes, part_size, threads);
    if expected == got {
        return Ok(());
    }
    if let Some(path) = std::env::var_os("WARC_DUMP") {
        let _ = std::fs::write(path, bytes);
    }
    let first = expected
        .iter()
        .zip(&got)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(got.len()));
    let show = |items: &[Item]| match items.get(first) {
        Some(Item::Record(record)) => format!(
            "record at {} (length {:?}, {:?})",
            record.offset, record.length, record.target_uri
        ),
        Some(Item::Error { offset, message }) => format!("error at {offset}: {message}"),
        None => "the end".to_string(),
    };
    Err(format!(
        "parallel reader (parts of {part_size} bytes, {threads} threads) differs from the \
         sequential one at item {first} of {} / {}: sequential {}, parallel {}",
        expected.len(),
        got.len(),
        show(&expected),
        show(&got)
    ))
}
