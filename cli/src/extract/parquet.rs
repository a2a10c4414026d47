//! `htmltok extract --format parquet`: the records as a Parquet file (the `parquet`
//! feature, on by default; the fuzz targets build the CLI library without it).

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;
use htmltok::Tokenizer;
use htmltok_crawl::extract::Page;
use htmltok_crawl::extract::columns::PageColumns;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::command::{Args, create, fields, page, tree_columns};
use crate::Failure;
use crate::args::Written;

/// Rows gathered before they become a record batch…
const BATCH_ROWS: usize = 4096;
/// …or fewer, once their strings reach this many bytes: pages with their text and links
/// average some 75 KB, so 4096 rows alone could hold 300 MB.
const BATCH_BYTES: usize = 16 << 20;
/// Bytes of a row group held in memory before it is written out.
const ROW_GROUP_BYTES: usize = 128 << 20;

/// The Parquet file being written: rows are gathered under one lock, record batches
/// written under another, so workers keep extracting while a batch is encoded.
struct ParquetOut {
    rows: Mutex<PageColumns>,
    writer: Mutex<Option<ArrowWriter<BufWriter<File>>>>,
    error: Mutex<Option<parquet::errors::ParquetError>>,
    stop: Arc<AtomicBool>,
}

impl ParquetOut {
    fn write(&self, batch: &RecordBatch) {
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let Some(w) = writer.as_mut() else { return };
        let mut result = w.write(batch);
        if result.is_ok() && w.in_progress_size() >= ROW_GROUP_BYTES {
            result = w.flush();
        }
        if let Err(err) = result {
            self.stop.store(true, Ordering::Relaxed);
            self.error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(err);
        }
    }

    fn push(&self, page: &Page, links: bool, text: bool) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        let batch = {
            let mut rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
            rows.push(page, links, text);
            (rows.rows() >= BATCH_ROWS || rows.bytes() >= BATCH_BYTES).then(|| rows.finish())
        };
        if let Some(batch) = batch {
            self.write(&batch);
        }
    }
}

pub(super) fn run(args: &Args) -> Result<ExitCode, Failure> {
    let Some(path) = &args.output else {
        return Err(Failure::Usage(
            "--format parquet needs --output PATH".to_string(),
        ));
    };
    let fields = fields(args)?;
    let names: Vec<&str> = fields.fields().iter().map(|f| f.name.as_str()).collect();
    let schema = htmltok_crawl::extract::columns::schema_with(&names, tree_columns(args));
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let file = BufWriter::with_capacity(1 << 20, create(path)?);
    let writer = ArrowWriter::try_new(file, schema.clone(), Some(properties))
        .map_err(|err| Failure::Output(std::io::Error::other(err)))?;
    let stop = Arc::new(AtomicBool::new(false));
    let out = ParquetOut {
        rows: Mutex::new(PageColumns::with(&names, tree_columns(args))),
        writer: Mutex::new(Some(writer)),
        error: Mutex::new(None),
        stop: stop.clone(),
    };
    let finished = args.corpus.run(
        Tokenizer::builder(),
        // The tree is parsed as each page is decoded when the fields or the tree's
        // columns read it (the late `<meta>` then decided by the tree builder).
        (!fields.is_empty() || tree_columns(args).any()).then(htmltok_tree::Parser::new),
        stop,
        |document| {
            let page = page(args, &fields, &document);
            out.push(&page, !args.no_links, !args.no_text);
            1
        },
        |a, b| a + b,
        || 0,
    )?;
    let last = {
        let mut rows = out.rows.lock().unwrap_or_else(|e| e.into_inner());
        (rows.rows() > 0).then(|| rows.finish())
    };
    if let Some(batch) = last {
        out.write(&batch);
    }
    if let Some(err) = out.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Failure::Output(std::io::Error::other(err)));
    }
    let writer = out.writer.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(writer) = writer {
        let mut file = writer
            .into_inner()
            .map_err(|err| Failure::Output(std::io::Error::other(err)))?;
        file.flush()?;
    }
    Ok(finished.exit_code(Some(Written {
        rows: finished.result.value,
        noun: ("row", "rows"),
        to: Some(path),
    })))
}
