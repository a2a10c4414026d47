//! `htmltok extract`: one record per document (the columns of the Spark job,
//! `htmltok.spark`), as JSON lines or Parquet.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
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
use url::Url;

use crate::json;

use super::Failure;
use super::args::{Corpus, SharedOut};

const ABOUT: &str =
    "Print one record per document (URL, encoding, title, links, text) as JSON lines or Parquet";

const LONG_ABOUT: &str = r#"Write one record per document of the given files, directories (walked recursively) and WARC files — the columns of the Spark job (python -m htmltok.spark), for one machine:

  warc_filename       the file (for a WARC record, the WARC file)
  warc_record_offset  the WARC record's offset in the file (null for an HTML file)
  warc_record_length  the WARC record's length in the file (null for an HTML file)
  url                 the WARC record's target URI (null for an HTML file)
  encoding            the encoding the page was decoded from (WHATWG name)
  encoding_rule       what decided it: bom, transport, meta, detector, ...
  title               the first <title>'s text, or null
  links               the resolved URLs of the links, in document order (as `htmltok links`
                      gives them, data: URLs left out); null with --no-links
  text                the visible text (as `htmltok text`); null with --no-text

--format jsonl (the default) writes one JSON object per line with these keys; --format
parquet writes a Parquet file (snappy-compressed; links a list of strings, offsets and
lengths 64-bit integers) and needs --output. warc_filename, warc_record_offset and
warc_record_length are the columns Common Crawl's columnar index joins on.

Documents are processed in parallel, so records come in no fixed order (-j 1 keeps the
order of the paths). An unreadable document is reported on standard error with its file
and offset and skipped; the exit status is then 1."#;

/// The output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON lines
    Jsonl,
    /// A Parquet file
    Parquet,
}

/// Arguments of `htmltok extract`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    #[command(flatten)]
    corpus: Corpus,

    /// The output format
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,

    /// Write to this file instead of standard output (required for parquet)
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,

    /// The URL of documents that have none of their own (a WARC record's target URI is
    /// used first); relative links are resolved against it
    #[arg(long, value_name = "URL", value_parser = parse_base)]
    base: Option<Url>,

    /// Leave the links out (null)
    #[arg(long)]
    no_links: bool,

    /// Leave the text out (null)
    #[arg(long)]
    no_text: bool,
}

fn parse_base(value: &str) -> Result<Url, String> {
    Url::parse(value).map_err(|err| format!("not an absolute URL: {err}"))
}

/// Runs `htmltok extract`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    match args.format {
        Format::Jsonl => run_jsonl(args),
        Format::Parquet => run_parquet(args),
    }
}

/// The page of a document, data: URLs left out of its links (as `htmltok links` and
/// `htmltok.process` leave them out).
fn page(args: &Args, document: &htmltok_crawl::batch::Document<'_>) -> Page {
    let mut page = Page::of(document, args.base.as_ref());
    page.links.retain(|link| !link.is_data_url());
    page
}

fn create(path: &PathBuf) -> Result<File, Failure> {
    File::create(path).map_err(|err| {
        Failure::Usage(format!(
            "cannot create '{}': {}",
            path.display(),
            htmltok_crawl::batch::IoReason(&err)
        ))
    })
}

fn run_jsonl(args: &Args) -> Result<ExitCode, Failure> {
    let file = match &args.output {
        Some(path) => Some(Mutex::new(BufWriter::with_capacity(
            256 * 1024,
            create(path)?,
        ))),
        None => None,
    };
    let out = SharedOut::new();
    let stop = out.stop_flag();
    let error = Mutex::new(None);
    let finished = args.corpus.run(
        Tokenizer::builder(),
        stop.clone(),
        |document| {
            let page = page(args, &document);
            let mut line = String::with_capacity(page.text.len() + 256);
            write_json(&mut line, &page, !args.no_links, !args.no_text);
            match &file {
                Some(file) => {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(err) = file.write_all(line.as_bytes()) {
                        stop.store(true, Ordering::Relaxed);
                        error
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(err);
                    }
                }
                None => out.write(line.as_bytes()),
            }
        },
        |(), ()| (),
        || (),
    )?;
    out.finish()?;
    if let Some(err) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Failure::Output(err));
    }
    if let Some(file) = file {
        let mut file = file.into_inner().unwrap_or_else(|e| e.into_inner());
        file.flush()?;
    }
    Ok(finished.exit_code())
}

/// Appends one JSON line (with its newline) for `page`.
pub fn write_json(line: &mut String, page: &Page, links: bool, text: bool) {
    let opt = |line: &mut String, value: Option<&str>| match value {
        Some(value) => json::write_str(line, value),
        None => line.push_str("null"),
    };
    let num = |line: &mut String, value: Option<u64>| match value {
        Some(value) => line.push_str(&value.to_string()),
        None => line.push_str("null"),
    };
    line.push_str("{\"warc_filename\":");
    json::write_str(line, &page.source);
    line.push_str(",\"warc_record_offset\":");
    num(line, page.offset);
    line.push_str(",\"warc_record_length\":");
    num(line, page.length);
    line.push_str(",\"url\":");
    opt(line, page.url.as_deref());
    line.push_str(",\"encoding\":");
    opt(line, page.encoding);
    line.push_str(",\"encoding_rule\":");
    opt(line, page.rule.map(|r| r.as_str()));
    line.push_str(",\"title\":");
    opt(line, page.title.as_deref());
    line.push_str(",\"links\":");
    if links {
        line.push('[');
        for (i, link) in page.links.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            json::write_str(line, &link.url);
        }
        line.push(']');
    } else {
        line.push_str("null");
    }
    line.push_str(",\"text\":");
    opt(line, text.then_some(page.text.as_str()));
    line.push_str("}\n");
}

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

fn run_parquet(args: &Args) -> Result<ExitCode, Failure> {
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
