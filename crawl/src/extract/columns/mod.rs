//! Pages as Arrow columns (feature `arrow`): one schema and one builder for every columnar
//! output — `htmltok extract --format parquet`, the Python package's
//! `htmltok.process(output="pyarrow")` and the Spark job built on it — so their columns cannot drift
//! apart.
//!
//! The columns are what says which record a page is, named as Common Crawl's columnar index
//! names its columns (`warc_filename`, `warc_record_offset`, `warc_record_length` — the
//! three it joins on — `url`, `fetch_time`, `fetch_status`, `content_mime_type`; and
//! `warc_record_id`, the `WARC-Record-ID`, in that style), and what was extracted:
//! `encoding`, `encoding_rule`, `title`, `links` (the resolved URLs, a list of strings)
//! and `text`. `fetch_time` is the `WARC-Date` as written (a string; the index's is a
//! timestamp). After them, one list-of-strings column per field of `htmltok_select`'s
//! [`Fields`](super::Fields), then the tree's columns asked for ([`TreeColumns`]):
//! `main_text`, `main_kind` and `main_confidence`, and the metadata columns ([`metadata`]).
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
//! assert_eq!((batch.num_rows(), batch.num_columns()), (1, 13));
//! assert_eq!(batch.schema().field(11).name(), "links");
//! ```

use std::sync::Arc;

use arrow_array::builder::{
    Float32Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::{Page, TreeColumns};

pub mod metadata;

/// The column names, in order (then one per field, see [`PageColumns::with_fields`]).
pub const COLUMNS: [&str; 13] = super::PAGE_COLUMNS;

pub use super::{
    MAIN_CONFIDENCE, MAIN_KIND, MAIN_MARKDOWN, MAIN_TEXT, MAIN_TEXT_COLUMNS, METADATA_COLUMNS,
};

/// The schema: strings, the offset and length as 64-bit integers, `fetch_status` a 32-bit
/// integer, `fetch_time` the `WARC-Date` as written (a string: `2024-02-29T12:00:00Z`),
/// `links` a list of strings (items named `element`, as Parquet's list convention and
/// Spark name them); every column nullable (an HTML file has no WARC offset, record ID or
/// URL; an ARC record has no record ID; `links`/`text` are null when not extracted).
pub fn schema() -> SchemaRef {
    schema_with_fields(&[])
}

/// [`schema`] and after it one column per field named in `fields`, each a list of strings
/// ([`Page::fields`]).
pub fn schema_with_fields(fields: &[&str]) -> SchemaRef {
    schema_with(fields, TreeColumns::default())
}

/// [`schema_with_fields`], then the columns of `tree`: with `main_text` the string
/// columns `main_text` and `main_kind` and a 32-bit float `main_confidence`
/// ([`Page::main_text`], [`Page::main_kind`], [`Page::main_confidence`]), with
/// `main_markdown` the string column `main_markdown` ([`Page::main_markdown`]), with
/// `metadata` the [`METADATA_COLUMNS`] typed as
/// [`metadata::fields`] says (all null for a page without them).
pub fn schema_with(fields: &[&str], tree: TreeColumns) -> SchemaRef {
    let string = |name: &str| Field::new(name, DataType::Utf8, true);
    let long = |name: &str| Field::new(name, DataType::Int64, true);
    let int = |name: &str| Field::new(name, DataType::Int32, true);
    Arc::new(Schema::new(
        vec![
            string(COLUMNS[0]),
            long(COLUMNS[1]),
            long(COLUMNS[2]),
            string(COLUMNS[3]),
            string(COLUMNS[4]),
            string(COLUMNS[5]),
            int(COLUMNS[6]),
            string(COLUMNS[7]),
            string(COLUMNS[8]),
            string(COLUMNS[9]),
            string(COLUMNS[10]),
            Field::new(COLUMNS[11], DataType::List(link_field()), true),
            string(COLUMNS[12]),
        ]
        .into_iter()
        .chain(
            fields
                .iter()
                .map(|name| Field::new(*name, DataType::List(link_field()), true)),
        )
        .chain(
            tree.main_text
                .then(|| {
                    [
                        string(MAIN_TEXT),
                        string(MAIN_KIND),
                        Field::new(MAIN_CONFIDENCE, DataType::Float32, true),
                    ]
                })
                .into_iter()
                .flatten(),
        )
        .chain(tree.main_markdown.then(|| string(MAIN_MARKDOWN)))
        .chain(tree.metadata.then(metadata::fields).into_iter().flatten())
        .collect::<Vec<_>>(),
    ))
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
    record_id: StringBuilder,
    url: StringBuilder,
    fetch_time: StringBuilder,
    fetch_status: Int32Builder,
    mime_type: StringBuilder,
    encoding: StringBuilder,
    rule: StringBuilder,
    title: StringBuilder,
    links: ListBuilder<StringBuilder>,
    text: StringBuilder,
    fields: Vec<ListBuilder<StringBuilder>>,
    /// The `main_text`, `main_kind` and `main_confidence` columns when the schema has
    /// them.
    main_text: Option<(StringBuilder, StringBuilder, Float32Builder)>,
    /// The `main_markdown` column when the schema has it.
    main_markdown: Option<StringBuilder>,
    /// The metadata columns when the schema has them.
    metadata: Option<metadata::Builders>,
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
        PageColumns::with_fields(&[])
    }

    /// No rows yet; after the page's columns, one per field (see
    /// [`schema_with_fields`]).
    pub fn with_fields(fields: &[&str]) -> PageColumns {
        PageColumns::with(fields, TreeColumns::default())
    }

    /// No rows yet; the columns of [`schema_with`].
    pub fn with(fields: &[&str], tree: TreeColumns) -> PageColumns {
        PageColumns {
            schema: schema_with(fields, tree),
            main_text: tree.main_text.then(|| {
                (
                    StringBuilder::new(),
                    StringBuilder::new(),
                    Float32Builder::new(),
                )
            }),
            main_markdown: tree.main_markdown.then(StringBuilder::new),
            metadata: tree.metadata.then(metadata::Builders::new),
            filename: StringBuilder::new(),
            offset: Int64Builder::new(),
            length: Int64Builder::new(),
            record_id: StringBuilder::new(),
            url: StringBuilder::new(),
            fetch_time: StringBuilder::new(),
            fetch_status: Int32Builder::new(),
            mime_type: StringBuilder::new(),
            encoding: StringBuilder::new(),
            rule: StringBuilder::new(),
            title: StringBuilder::new(),
            links: ListBuilder::new(StringBuilder::new()).with_field(link_field()),
            text: StringBuilder::new(),
            fields: fields
                .iter()
                .map(|_| ListBuilder::new(StringBuilder::new()).with_field(link_field()))
                .collect(),
            rows: 0,
            bytes: 0,
        }
    }

    /// Adds `page` as a row: its links' URLs (all of `page.links`: filter them first)
    /// when `links`, else a null list; its text when `text`, else null; its field columns
    /// ([`Page::fields`]; a field the page lacks is null).
    pub fn push(&mut self, page: &Page, links: bool, text: bool) {
        self.filename.append_value(&page.source);
        // Offsets past i64::MAX (files of 8 EiB) cannot occur; null rather than wrap.
        self.offset
            .append_option(page.offset.and_then(|v| i64::try_from(v).ok()));
        self.length
            .append_option(page.length.and_then(|v| i64::try_from(v).ok()));
        self.record_id.append_option(page.warc_record_id.as_deref());
        self.url.append_option(page.url.as_deref());
        self.fetch_time.append_option(page.fetch_time.as_deref());
        self.fetch_status
            .append_option(page.fetch_status.map(i32::from));
        self.mime_type
            .append_option(page.content_mime_type.as_deref());
        self.encoding.append_option(page.encoding);
        self.rule.append_option(page.rule.map(|r| r.as_str()));
        self.title.append_option(page.title.as_deref());
        let len = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        let mut bytes = page.source.len()
            + len(&page.url)
            + len(&page.warc_record_id)
            + len(&page.fetch_time)
            + len(&page.content_mime_type);
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
        for (i, column) in self.fields.iter_mut().enumerate() {
            match page.fields.get(i) {
                Some(values) => {
                    for v in values {
                        column.values().append_value(v);
                        bytes += v.len();
                    }
                    column.append(true);
                }
                None => column.append_null(),
            }
        }
        if let Some((text, kind, confidence)) = &mut self.main_text {
            text.append_option(page.main_text.as_deref());
            kind.append_option(page.main_kind.map(|k| k.as_str()));
            confidence.append_option(page.main_confidence);
            bytes += page.main_text.as_ref().map_or(0, String::len);
        }
        if let Some(markdown) = &mut self.main_markdown {
            markdown.append_option(page.main_markdown.as_deref());
            bytes += page.main_markdown.as_ref().map_or(0, String::len);
        }
        if let Some(columns) = &mut self.metadata {
            bytes += columns.push(page.metadata.as_deref());
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
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.filename.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.length.finish()),
            Arc::new(self.record_id.finish()),
            Arc::new(self.url.finish()),
            Arc::new(self.fetch_time.finish()),
            Arc::new(self.fetch_status.finish()),
            Arc::new(self.mime_type.finish()),
            Arc::new(self.encoding.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.title.finish()),
            Arc::new(self.links.finish()),
            Arc::new(self.text.finish()),
        ];
        for column in &mut self.fields {
            columns.push(Arc::new(column.finish()));
        }
        if let Some((text, kind, confidence)) = &mut self.main_text {
            columns.push(Arc::new(text.finish()));
            columns.push(Arc::new(kind.finish()));
            columns.push(Arc::new(confidence.finish()));
        }
        if let Some(markdown) = &mut self.main_markdown {
            columns.push(Arc::new(markdown.finish()));
        }
        if let Some(metadata) = &mut self.metadata {
            columns.extend(metadata.finish());
        }
        self.rows = 0;
        self.bytes = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
            .expect("the builders make one column per field, of its type and length")
    }
}
