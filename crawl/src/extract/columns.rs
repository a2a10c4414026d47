//! Pages as Arrow columns (feature `arrow`): one schema and one builder for every columnar
//! output — `htmltok extract --format parquet`, the Python package's
//! `htmltok.process_arrow` and the Spark job built on it — so their columns cannot drift
//! apart.
//!
//! The columns are those Common Crawl's columnar index joins on (`warc_filename`,
//! `warc_record_offset`, `warc_record_length`) and what was extracted: `url`, `encoding`,
//! `encoding_rule`, `title`, `links` (the resolved URLs, a list of strings) and `text`.
//!
//! ```
//! use htmltok_crawl::batch::{self, Source};
//! use htmltok_crawl::extract::Page;
//! use htmltok_crawl::extract::columns::PageColumns;
//!
//! let source = Source::bytes("page.html", b"<title>T</title><a href=https://e.org/>x</a>".to_vec());
//! let pages = std::sync::Mutex::new(Vec::new());
//! batch::for_each([source], &batch::Options::new(), |document| {
//!     pages.lock().unwrap().push(Page::of(&document, None));
//! });
//! let mut columns = PageColumns::new();
//! for page in pages.into_inner().unwrap() {
//!     columns.push(&page, true, true);
//! }
//! let batch = columns.finish();
//! assert_eq!((batch.num_rows(), batch.num_columns()), (1, 9));
//! assert_eq!(batch.schema().field(7).name(), "links");
//! ```

use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::Page;

/// The column names, in order.
pub const COLUMNS: [&str; 9] = [
    "warc_filename",
    "warc_record_offset",
    "warc_record_length",
    "url",
    "encoding",
    "encoding_rule",
    "title",
    "links",
    "text",
];

/// The schema: strings, the offset and length as 64-bit integers, `links` a list of
/// strings (items named `element`, as Parquet's list convention and Spark name them);
/// every column nullable (an HTML file has no WARC offset or URL; `links`/`text` are null
/// when not extracted).
pub fn schema() -> SchemaRef {
    let string = |name: &str| Field::new(name, DataType::Utf8, true);
    let int = |name: &str| Field::new(name, DataType::Int64, true);
    Arc::new(Schema::new(vec![
        string(COLUMNS[0]),
        int(COLUMNS[1]),
        int(COLUMNS[2]),
        string(COLUMNS[3]),
        string(COLUMNS[4]),
        string(COLUMNS[5]),
        string(COLUMNS[6]),
        Field::new(COLUMNS[7], DataType::List(link_field()), true),
        string(COLUMNS[8]),
    ]))
}

fn link_field() -> Arc<Field> {
    Arc::new(Field::new("element", DataType::Utf8, true))
}

/// The rows gathered for the next record batch.
pub struct PageColumns {
    schema: SchemaRef,
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
    bytes: usize,
}

impl Default for PageColumns {
    fn default() -> PageColumns {
        PageColumns::new()
    }
}

impl PageColumns {
    /// No rows yet.
    pub fn new() -> PageColumns {
        PageColumns {
            schema: schema(),
            filename: StringBuilder::new(),
            offset: Int64Builder::new(),
            length: Int64Builder::new(),
            url: StringBuilder::new(),
            encoding: StringBuilder::new(),
            rule: StringBuilder::new(),
            title: StringBuilder::new(),
            links: ListBuilder::new(StringBuilder::new()).with_field(link_field()),
            text: StringBuilder::new(),
            rows: 0,
            bytes: 0,
        }
    }

    /// Adds `page` as a row: its links' URLs (all of `page.links`: filter them first)
    /// when `links`, else a null list; its text when `text`, else null.
    pub fn push(&mut self, page: &Page, links: bool, text: bool) {
        self.filename.append_value(&page.source);
        // Offsets past i64::MAX (files of 8 EiB) cannot occur; null rather than wrap.
        self.offset
            .append_option(page.offset.and_then(|v| i64::try_from(v).ok()));
        self.length
            .append_option(page.length.and_then(|v| i64::try_from(v).ok()));
        self.url.append_option(page.url.as_deref());
        self.encoding.append_option(page.encoding);
        self.rule.append_option(page.rule.map(|r| r.as_str()));
        self.title.append_option(page.title.as_deref());
        let mut bytes = page.source.len() + page.url.as_ref().map_or(0, String::len);
        if links {
            for link in &page.links {
                self.links.values().append_value(&link.url);
                bytes += link.url.len();
            }
            self.links.append(true);
        } else {
            self.links.append_null();
        }
        if text {
            self.text.append_value(&page.text);
            bytes += page.text.len();
        } else {
            self.text.append_null();
        }
        self.rows += 1;
        self.bytes += bytes;
    }

    /// The number of rows gathered.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// About how many bytes of strings the rows gathered hold (to cut batches by size).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The schema of the batches (see [`schema`]).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The rows gathered as a record batch; the builder starts over, empty.
    pub fn finish(&mut self) -> RecordBatch {
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
        self.bytes = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
            .expect("the builders make one column per field, of its type and length")
    }
}
