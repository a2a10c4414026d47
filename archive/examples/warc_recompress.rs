//! Turns a `.warc.gz` (one gzip member per record) into a `.warc.zst` (one zstd frame per
//! member, as the IIPC proposal has it), optionally with a dictionary written first into
//! the skippable frame the readers take it from, or, when the output's name ends in
//! `.lz4`, into a `.warc.lz4` (one LZ4 frame per member, with 64 KiB blocks, its content
//! size and checksum, as `warc::Writer::lz4` writes them). The records' bytes are kept
//! exactly; only the compression changes. What `scripts/bench-warc.sh` makes its zstd and
//! LZ4 files with, and `fuzz/warc-seeds/` its seeds.
//!
//! `cargo run --release -p htmltok-archive --example warc_recompress -- IN.warc.gz OUT.warc.zst [--level=N] [--dictionary=FILE]`
//! `cargo run --release -p htmltok-archive --example warc_recompress -- IN.warc.gz OUT.warc.lz4`

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};

use flate2::bufread::GzDecoder;
use lz4_flex::frame::{BlockSize, FrameEncoder, FrameInfo};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level = args
        .iter()
        .find_map(|a| a.strip_prefix("--level="))
        .map_or(Ok(3), str::parse)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("--level: {e}")))?;
    let dictionary = match args.iter().find_map(|a| a.strip_prefix("--dictionary=")) {
        Some(path) => Some(std::fs::read(path)?),
        None => None,
    };
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let [input, output] = paths[..] else {
        eprintln!(
            "usage: warc_recompress IN.warc.gz OUT.warc.zst [--level=N] [--dictionary=FILE]\n       warc_recompress IN.warc.gz OUT.warc.lz4"
        );
        std::process::exit(2);
    };
    let lz4 = output.ends_with(".lz4");
    if lz4 && dictionary.is_some() {
        eprintln!("warc_recompress: a .warc.lz4 takes no dictionary");
        std::process::exit(2);
    }
    let bytes = std::fs::read(input)?;
    let mut out = BufWriter::new(File::create(output)?);
    let mut compressor = match &dictionary {
        Some(dictionary) => {
            // The skippable frame of magic 0x184D2A5D that holds the dictionary.
            out.write_all(&0x184D_2A5Du32.to_le_bytes())?;
            out.write_all(
                &u32::try_from(dictionary.len())
                    .expect("a small dictionary")
                    .to_le_bytes(),
            )?;
            out.write_all(dictionary)?;
            zstd::bulk::Compressor::with_dictionary(level, dictionary)?
        }
        None => zstd::bulk::Compressor::new(level)?,
    };
    // A bufread decoder over a slice stops at its member's end and hands back the rest.
    let mut rest = &bytes[..];
    let (mut members, mut plain) = (0u64, Vec::new());
    while !rest.is_empty() {
        let mut decoder = GzDecoder::new(rest);
        plain.clear();
        decoder.read_to_end(&mut plain).map_err(|e| {
            let offset = bytes.len() - rest.len();
            io::Error::new(
                e.kind(),
                format!("{input}: the gzip member at offset {offset}: {e}"),
            )
        })?;
        rest = decoder.into_inner();
        if lz4 {
            let info = FrameInfo::new()
                .block_size(BlockSize::Max64KB)
                .content_size(Some(plain.len() as u64))
                .content_checksum(true);
            let mut encoder = FrameEncoder::with_frame_info(info, &mut out);
            encoder.write_all(&plain)?;
            encoder.finish().map_err(io::Error::other)?;
        } else {
            out.write_all(&compressor.compress(&plain)?)?;
        }
        members += 1;
    }
    out.flush()?;
    if lz4 {
        eprintln!("{output}: {members} records, LZ4");
        return Ok(());
    }
    eprintln!(
        "{output}: {members} records, level {level}{}",
        if dictionary.is_some() {
            ", with the dictionary"
        } else {
            ""
        }
    );
    Ok(())
}
