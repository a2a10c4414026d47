//! `htmltok extract --format parquet`: the records as a Parquet file (the `parquet`
//! feature, on by default; the fuzz targets build the CLI library without it).

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arrow_array::builder::{Int64Builder, ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use htmltok::Tokenizer;
use htmltok_crawl::extract::Page;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::{Args, create, page};
use crate::Failure;

/// Rows gathered before they become a record batch.
const BATCH_ROWS: usize = 4096;
/// Bytes of a row group held in memory before it is written out.
const ROW_GROUP_BYTES: usize = 128 << 20;

/// The Parquet (Arrow) schema of the records.
pub fn schema() -> SchemaRef {
    let string = |name: &str| Field::new(name, DataType::Utf8, true);
    Arc::new(Schema::new(vec![
        string("warc_filename"),
        Field::new("warc_record_offset", DataType::Int64, true),
        Field::new("warc_record_length", DataType::Int64, true),
        string("url"),
        string("encoding"),
        string("encoding_rule"),
        string("title"),
        Field::new(
            "links",
            DataType::List(Arc::new(Field::new("element", DataType::Utf8, true))),
            true,
        ),
        string("text"),
    ]))
}

/// Column builders of the rows not yet written.
struct Builders {
    filename: StringBuilder,
    offset: Int64Builder,
    length: Int64Builder,
    url: StringBuilder,
    encoding: StringBuilder,
    rule: StringBuilder,
    title: StringBuilder,
    links: ListBuilder<StringBuilder>,
    text: StringBuilder,
    rows: usize,
}

impl Builders {
    fn new() -> Builders {
        Builders {
            filename: StringBuilder::new(),
            offset: Int64Builder::new(),
            length: Int64Builder::new(),
            url: StringBuilder::new(),
            encoding: StringBuilder::new(),
            rule: StringBuilder::new(),
            title: StringBuilder::new(),
            links: ListBuilder::new(StringBuilder::new()).with_field(Arc::new(Field::new(
                "element",
                DataType::Utf8,
                true,
            ))),
            text: StringBuilder::new(),
            rows: 0,
        }
    }

    fn push(&mut self, page: &Page, links: bool, text: bool) {
        self.filename.append_value(&page.source);
        self.offset
            .append_option(page.offset.and_then(|v| i64::try_from(v).ok()));
        self.length
            .append_option(page.length.and_then(|v| i64::try_from(v).ok()));
        self.url.append_option(page.url.as_deref());
        self.encoding.append_option(page.encoding);
        self.rule.append_option(page.rule.map(|r| r.as_str()));
        self.title.append_option(page.title.as_deref());
        if links {
            for link in &page.links {
                self.links.values().append_value(&link.url);
            }
            self.links.append(true);
        } else {
            self.links.append_null();
        }
        self.text.append_option(text.then_some(page.text.as_str()));
        self.rows += 1;
    }

    fn finish(&mut self, schema: &SchemaRef) -> RecordBatch {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.filename.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.length.finish()),
            Arc::new(self.url.finish()),
            Arc::new(self.encoding.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.title.finish()),
            Arc::new(self.links.finish()),
            Arc::new(self.text.finish()),
        ];
        self.rows = 0;
        RecordBatch::try_new(schema.clone(), columns).expect("the columns match the schema")
    }
}

/// The Parquet file being written: rows are gathered under one lock, record batches
/// written under another, so workers keep extracting while a batch is encoded.
struct ParquetOut {
    schema: SchemaRef,
    rows: Mutex<Builders>,
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
            (rows.rows >= BATCH_ROWS).then(|| rows.finish(&self.schema))
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
    let schema = schema();
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let file = BufWriter::with_capacity(1 << 20, create(path)?);
    let writer = ArrowWriter::try_new(file, schema.clone(), Some(properties))
        .map_err(|err| Failure::Output(std::io::Error::other(err)))?;
    let stop = Arc::new(AtomicBool::new(false));
    let out = ParquetOut {
        schema,
        rows: Mutex::new(Builders::new()),
        writer: Mutex::new(Some(writer)),
        error: Mutex::new(None),
        stop: stop.clone(),
    };
    let finished = args.corpus.run(
        Tokenizer::builder(),
        stop,
        |document| {
            let page = page(args, &document);
            out.push(&page, !args.no_links, !args.no_text);
        },
        |(), ()| (),
        || (),
    )?;
    let last = {
        let mut rows = out.rows.lock().unwrap_or_else(|e| e.into_inner());
        (rows.rows > 0).then(|| rows.finish(&out.schema))
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
    Ok(finished.exit_code())
}
