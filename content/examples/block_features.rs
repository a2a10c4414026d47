//! Writes the block model's features of each page named (`.html` or `.html.gz`), one
//! JSON line per page: `{"page": path, "names": [...] (first line only), "blocks":
//! [[text, [features]], ...]}`. `content/eval/train_blocks.py` runs it.
//!
//! `cargo run --release -p htmltok-content --example block_features -- PAGES... > out.jsonl`

use std::io::{BufWriter, Read, Write};

fn read(path: &str) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(path)?;
    if path.ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

fn main() -> std::io::Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, path) in std::env::args().skip(1).enumerate() {
        let bytes = match read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let doc = htmltok_tree::parse(&bytes);
        let (names, blocks) = htmltok_content::main_text::block_features(&doc);
        let mut line = serde_json::json!({ "page": path, "blocks": blocks });
        if i == 0 {
            line["names"] = serde_json::json!(names);
        }
        writeln!(out, "{line}")?;
    }
    out.flush()
}
