//! Writing WARC files: plain, or one gzip member, zstd frame or LZ4 frame per record.

use std::io::{self, Write};

use super::limits::*;
use flate2::Compression;
use flate2::write::GzEncoder;

/// A zstd compressor that ends each frame with a checksum of its content (libzstd's
/// default leaves it out; the `zstd` tool puts it in): damage inside a frame is then
/// found when the frame is read, as gzip's CRC finds it.
pub(super) fn checksummed(
    mut compressor: zstd::bulk::Compressor<'static>,
) -> io::Result<zstd::bulk::Compressor<'static>> {
    compressor.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
    Ok(compressor)
}

/// Writes WARC/1.1 records, plain or one gzip member per record (as Common Crawl does),
/// one zstd frame per record (`.warc.zst`) or one LZ4 frame per record (`.warc.lz4`).
/// Every write returns the record's offset, the same one [`Reader`](super::Reader) reports.
pub struct Writer<W: Write> {
    pub(super) out: W,
    pub(super) gzip: bool,
    pub(super) lz4: bool,
    /// `.warc.zst`: the compressor (its context reused from record to record).
    pub(super) zstd: Option<zstd::bulk::Compressor<'static>>,
    pub(super) offset: u64,
    pub(super) records: u64,
}

impl<W: Write> Writer<W> {
    /// A writer of a plain `.warc`.
    pub fn new(out: W) -> Self {
        Writer {
            out,
            gzip: false,
            lz4: false,
            zstd: None,
            offset: 0,
            records: 0,
        }
    }

    /// A writer of a `.warc.zst` as the IIPC proposal has it: each record is its own zstd
    /// frame, compressed at `level` (1 to 22; 3 is zstd's default).
    pub fn zstd(out: W, level: i32) -> io::Result<Self> {
        Ok(Writer {
            zstd: Some(checksummed(zstd::bulk::Compressor::new(level)?)?),
            ..Writer::new(out)
        })
    }

    /// A writer of a `.warc.zst` whose records are compressed with `dictionary` (a zstd
    /// dictionary, e.g. from `zstd --train`), written first into the skippable frame
    /// (magic 0x184D2A5D) the readers take it from.
    pub fn zstd_with_dictionary(mut out: W, level: i32, dictionary: &[u8]) -> io::Result<Self> {
        let size = u32::try_from(dictionary.len())
            .ok()
            .filter(|&n| n as usize <= MAX_DICTIONARY)
            .ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, "the dictionary is too large")
            })?;
        out.write_all(&[0x5d, 0x2a, 0x4d, 0x18])?;
        out.write_all(&size.to_le_bytes())?;
        out.write_all(dictionary)?;
        Ok(Writer {
            zstd: Some(checksummed(zstd::bulk::Compressor::with_dictionary(
                level, dictionary,
            )?)?),
            offset: 8 + u64::from(size),
            ..Writer::new(out)
        })
    }

    /// A writer of a `.warc.gz`: each record is its own gzip member.
    pub fn gzip(out: W) -> Self {
        Writer {
            gzip: true,
            ..Writer::new(out)
        }
    }

    /// A writer of a `.warc.lz4`: each record is its own LZ4 frame, with its content
    /// size and checksum.
    pub fn lz4(out: W) -> Self {
        Writer {
            lz4: true,
            ..Writer::new(out)
        }
    }

    /// How many bytes were written so far: the offset of the next record.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Writes one record: the version line, `WARC-Type`, a generated `WARC-Record-ID`
    /// (unless `fields` has one), `fields`, `Content-Length`, then `block`. Field names
    /// and values must not contain CR or LF.
    pub fn write_record(
        &mut self,
        warc_type: &str,
        fields: &[(&str, &str)],
        block: &[u8],
    ) -> io::Result<u64> {
        let invalid = |s: &str| s.contains(['\r', '\n']);
        if invalid(warc_type)
            || fields
                .iter()
                .any(|(n, v)| invalid(n) || invalid(v) || n.contains(':'))
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "WARC field names and values must not contain CR or LF (nor names a colon)",
            ));
        }
        let mut head = format!("WARC/1.1\r\nWARC-Type: {warc_type}\r\n");
        if !fields
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("WARC-Record-ID"))
        {
            head.push_str(&format!(
                "WARC-Record-ID: {}\r\n",
                self.record_id(fields, block)
            ));
        }
        for (name, value) in fields {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
        let offset = self.offset;
        if let Some(compressor) = &mut self.zstd {
            let mut record = Vec::with_capacity(head.len() + block.len() + 4);
            record.extend_from_slice(head.as_bytes());
            record.extend_from_slice(block);
            record.extend_from_slice(b"\r\n\r\n");
            let frame = compressor.compress(&record)?;
            self.out.write_all(&frame)?;
            self.offset += frame.len() as u64;
        } else if self.lz4 {
            let info = lz4_flex::frame::FrameInfo::new()
                .content_size(Some((head.len() + block.len() + 4) as u64))
                .content_checksum(true);
            let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            encoder.write_all(head.as_bytes())?;
            encoder.write_all(block)?;
            encoder.write_all(b"\r\n\r\n")?;
            let frame = encoder.finish().map_err(io::Error::other)?;
            self.out.write_all(&frame)?;
            self.offset += frame.len() as u64;
        } else if self.gzip {
            let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
            encoder.write_all(head.as_bytes())?;
            encoder.write_all(block)?;
            encoder.write_all(b"\r\n\r\n")?;
            let member = encoder.finish()?;
            self.out.write_all(&member)?;
            self.offset += member.len() as u64;
        } else {
            self.out.write_all(head.as_bytes())?;
            self.out.write_all(block)?;
            self.out.write_all(b"\r\n\r\n")?;
            self.offset += (head.len() + block.len() + 4) as u64;
        }
        self.records += 1;
        Ok(offset)
    }

    /// Writes a `warcinfo` record (`application/warc-fields`), as WARC files begin with.
    pub fn write_warcinfo(
        &mut self,
        date: &str,
        filename: Option<&str>,
        info: &[(&str, &str)],
    ) -> io::Result<u64> {
        let mut block = String::new();
        for (name, value) in info {
            block.push_str(&format!("{name}: {value}\r\n"));
        }
        let mut fields = vec![("WARC-Date", date)];
        if let Some(filename) = filename {
            fields.push(("WARC-Filename", filename));
        }
        fields.push(("Content-Type", "application/warc-fields"));
        self.write_record("warcinfo", &fields, block.as_bytes())
    }

    /// Writes a `response` record holding an HTTP/1.1 response: the status line, `headers`
    /// as given (add `Content-Type` with a charset, `Content-Length`, … yourself), an empty
    /// line and `body`.
    pub fn write_response(
        &mut self,
        target_uri: &str,
        date: &str,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> io::Result<u64> {
        let mut block = format!("HTTP/1.1 {status} {}\r\n", reason_phrase(status)).into_bytes();
        for (name, value) in headers {
            block.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
        block.extend_from_slice(b"\r\n");
        block.extend_from_slice(body);
        self.write_record(
            "response",
            &[
                ("WARC-Target-URI", target_uri),
                ("WARC-Date", date),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            &block,
        )
    }

    /// Writes a `resource` record: `body` as it is, with its `Content-Type`.
    pub fn write_resource(
        &mut self,
        target_uri: &str,
        date: &str,
        content_type: &str,
        body: &[u8],
    ) -> io::Result<u64> {
        self.write_record(
            "resource",
            &[
                ("WARC-Target-URI", target_uri),
                ("WARC-Date", date),
                ("Content-Type", content_type),
            ],
            body,
        )
    }

    /// Flushes and returns the output.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// A `<urn:uuid:…>` made from the record's number and contents: deterministic, so
    /// the same input writes the same file.
    pub(super) fn record_id(&self, fields: &[(&str, &str)], block: &[u8]) -> String {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut high = DefaultHasher::new();
        (self.records, fields, block).hash(&mut high);
        let high = high.finish();
        let mut low = DefaultHasher::new();
        (high, block.len(), self.offset).hash(&mut low);
        let low = low.finish();
        // Version 4 and the RFC 4122 variant bits, so it reads as a UUID.
        let high = (high & !0xF000) | 0x4000;
        let low = (low & !(0xC << 60)) | (0x8 << 60);
        format!(
            "<urn:uuid:{:08x}-{:04x}-{:04x}-{:04x}-{:012x}>",
            high >> 32,
            (high >> 16) & 0xFFFF,
            high & 0xFFFF,
            low >> 48,
            low & 0xFFFF_FFFF_FFFF
        )
    }
}

/// The usual reason phrase of a status code (any text would do).
pub(super) fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
