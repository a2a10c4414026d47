//! HTTP body decoding (`htmltok_crawl::http::decode_body`) on any bytes: never a panic,
//! never more than the limit, and a chunked body that decodes with nothing to say
//! chunk-encodes and decodes back to itself. The first byte chooses the headers (a
//! transfer coding and a content coding from short lists); the rest is the stored body.
#![no_main]

use htmltok_crawl::http::decode_body;
use libfuzzer_sys::fuzz_target;

const TRANSFER: [Option<&str>; 4] = [None, Some("chunked"), Some("gzip, chunked"), Some("br")];
const CONTENT: [Option<&str>; 8] = [
    None,
    Some("gzip"),
    Some("deflate"),
    Some("br"),
    Some("zstd"),
    Some("gzip, br"),
    Some("x-gzip"),
    Some("utf-8"),
];
const LIMIT: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let transfer = TRANSFER[usize::from(first & 3)];
    let content = CONTENT[usize::from(first >> 2) & 7];
    let Ok(decoded) = decode_body(body, transfer, content, LIMIT) else {
        return;
    };
    let out = decoded.body.as_deref().unwrap_or(body);
    assert!(out.len() as u64 <= LIMIT.max(body.len() as u64 * 2 + 64));
    if transfer == Some("chunked") && content.is_none() && decoded.notes.is_empty() {
        let mut again = format!("{:x}\r\n", out.len()).into_bytes();
        again.extend_from_slice(out);
        again.extend_from_slice(b"\r\n0\r\n\r\n");
        let back = decode_body(&again, transfer, None, LIMIT).unwrap();
        assert_eq!(back.body.as_deref(), Some(out));
    }
});
