//! The metadata columns ([`METADATA_COLUMNS`]): a page's [`Metadata`] as typed Arrow
//! columns, for Parquet and Spark.
//!
//! The layout: what a query filters on is a flat column of its own type (`canonical`,
//! `description`, `lang`, `content_language`: strings); what belongs together is a struct
//! (`robots` and `googlebot`: the directives as booleans, the limits as integers, so that
//! `WHERE robots.noindex` reads one leaf column of the Parquet file; `refresh`: its delay
//! and target); what repeats is a list (`json_ld`: the blocks as written, strings, since
//! their JSON has no fixed shape; `open_graph`, `twitter`, `hreflang`,
//! `qualified_links`: lists of structs, repeats and document order kept, since a page may
//! give `og:image` several times and a map column would lose that). URLs are the
//! resolved ones (null when the attribute does not resolve; `Page::metadata` has the raw
//! text). A page without metadata (not asked for) is null in every column; a page
//! without a robots tag has a null `robots`, one without a refresh a null `refresh`,
//! empty lists where it has none of a repeated field.
//!
//! The CLI's JSON lines and `htmltok.process`'s dicts write the same names and shapes
//! (structs as objects, lists as arrays); the Spark job's schema is [`spark_ddl`] of these
//! fields.

use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, Int64Builder, ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields};
use htmltok_content::metadata::{ImagePreview, Metadata, Robots};

use super::METADATA_COLUMNS;
use crate::extract::robots_flags;

fn string(name: &str) -> Field {
    Field::new(name, DataType::Utf8, true)
}

fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("element", item, true)))
}

fn struct_of(fields: Vec<Field>) -> DataType {
    DataType::Struct(Fields::from(fields))
}

/// The fields of the `robots` and `googlebot` structs: the flags as booleans,
/// `max_snippet` and `max_video_preview` 64-bit integers (-1: no limit),
/// `max_image_preview` `none`/`standard`/`large`, `unavailable_after` the date as written,
/// `other` the directives not understood.
pub fn robots_fields() -> Vec<Field> {
    let mut fields: Vec<Field> = robots_flags(&Robots::default())
        .iter()
        .map(|(name, _)| Field::new(*name, DataType::Boolean, true))
        .collect();
    fields.extend([
        Field::new("max_snippet", DataType::Int64, true),
        string("max_image_preview"),
        Field::new("max_video_preview", DataType::Int64, true),
        string("unavailable_after"),
        Field::new("other", list_of(DataType::Utf8), true),
    ]);
    fields
}

/// The item fields of `open_graph` and `twitter`: the property (or name), lowercase, and
/// the content as written.
fn pair_fields() -> Vec<Field> {
    vec![string("name"), string("content")]
}

fn hreflang_fields() -> Vec<Field> {
    vec![string("hreflang"), string("url")]
}

fn refresh_fields() -> Vec<Field> {
    vec![Field::new("delay", DataType::Int64, true), string("url")]
}

fn qualified_link_fields() -> Vec<Field> {
    vec![
        string("url"),
        Field::new("nofollow", DataType::Boolean, true),
        Field::new("ugc", DataType::Boolean, true),
        Field::new("sponsored", DataType::Boolean, true),
    ]
}

/// The metadata columns' fields, in the order of [`METADATA_COLUMNS`].
pub fn fields() -> Vec<Field> {
    let types = [
        DataType::Utf8,
        struct_of(robots_fields()),
        struct_of(robots_fields()),
        DataType::Utf8,
        list_of(struct_of(pair_fields())),
        list_of(struct_of(pair_fields())),
        DataType::Utf8,
        DataType::Utf8,
        list_of(struct_of(hreflang_fields())),
        struct_of(refresh_fields()),
        list_of(DataType::Utf8),
        list_of(struct_of(qualified_link_fields())),
    ];
    METADATA_COLUMNS
        .iter()
        .zip(types)
        .map(|(name, data_type)| Field::new(*name, data_type, true))
        .collect()
}

/// A Spark SQL DDL type for an Arrow type of these columns (`string`, `bigint`, `int`,
/// `boolean`, `array<…>`, `struct<name:…,…>`), so the Spark job's schema is written from
/// this module's, not beside it.
pub fn spark_ddl(data_type: &DataType) -> String {
    match data_type {
        DataType::Utf8 => "string".to_string(),
        DataType::Int64 => "bigint".to_string(),
        DataType::Int32 => "int".to_string(),
        DataType::Boolean => "boolean".to_string(),
        DataType::List(item) => format!("array<{}>", spark_ddl(item.data_type())),
        DataType::Struct(fields) => {
            let members: Vec<String> = fields
                .iter()
                .map(|f| format!("`{}`:{}", f.name(), spark_ddl(f.data_type())))
                .collect();
            format!("struct<{}>", members.join(","))
        }
        other => format!("{other}"),
    }
}

/// The metadata columns of [`fields`] as a Spark DDL fragment (`canonical string, robots
/// struct<…>, …`), for `htmltok.spark`.
pub fn spark_schema() -> String {
    let columns: Vec<String> = fields()
        .iter()
        .map(|f| format!("{} {}", f.name(), spark_ddl(f.data_type())))
        .collect();
    columns.join(", ")
}

/// Rows of a struct column (or of a list's struct items): each child a column, and which
/// rows are not null.
struct StructColumn<C> {
    children: C,
    valid: Vec<bool>,
}

impl<C: Default> StructColumn<C> {
    fn new() -> StructColumn<C> {
        StructColumn {
            children: C::default(),
            valid: Vec::new(),
        }
    }
}

fn nulls(valid: &mut Vec<bool>) -> Option<NullBuffer> {
    let all_valid = valid.iter().all(|&v| v);
    let nulls = (!all_valid).then(|| NullBuffer::from(valid.as_slice()));
    valid.clear();
    nulls
}

fn struct_array(fields: Vec<Field>, arrays: Vec<ArrayRef>, valid: &mut Vec<bool>) -> ArrayRef {
    Arc::new(StructArray::new(Fields::from(fields), arrays, nulls(valid)))
}

/// A list column of struct items: the items' columns and each row's item count.
struct ListOfStructs<C> {
    items: StructColumn<C>,
    lengths: Vec<usize>,
    valid: Vec<bool>,
}

impl<C: Default> ListOfStructs<C> {
    fn new() -> ListOfStructs<C> {
        ListOfStructs {
            items: StructColumn::new(),
            lengths: Vec::new(),
            valid: Vec::new(),
        }
    }

    fn push_null(&mut self) {
        self.lengths.push(0);
        self.valid.push(false);
    }

    /// Ends a row of `n` items (already pushed).
    fn push_row(&mut self, n: usize) {
        self.items.valid.extend(std::iter::repeat_n(true, n));
        self.lengths.push(n);
        self.valid.push(true);
    }

    fn finish(&mut self, item_fields: Vec<Field>, item_arrays: Vec<ArrayRef>) -> ArrayRef {
        let values = struct_array(item_fields.clone(), item_arrays, &mut self.items.valid);
        let field = Arc::new(Field::new("element", struct_of(item_fields), true));
        let offsets = OffsetBuffer::<i32>::from_lengths(self.lengths.drain(..));
        Arc::new(ListArray::new(
            field,
            offsets,
            values,
            nulls(&mut self.valid),
        ))
    }
}

#[derive(Default)]
struct RobotsChildren {
    flags: [BooleanBuilder; 7],
    max_snippet: Int64Builder,
    max_image_preview: StringBuilder,
    max_video_preview: Int64Builder,
    unavailable_after: StringBuilder,
    other: ListBuilder<StringBuilder>,
}

impl StructColumn<RobotsChildren> {
    /// A row: null when the page has no metadata or no robots tag was read.
    fn push(&mut self, robots: Option<&Robots>) -> usize {
        let c = &mut self.children;
        let r = robots.filter(|r| r.present);
        let flags = r.map(robots_flags);
        for (i, builder) in c.flags.iter_mut().enumerate() {
            builder.append_option(flags.map(|f| f[i].1));
        }
        c.max_snippet.append_option(r.and_then(|r| r.max_snippet));
        c.max_image_preview.append_option(
            r.and_then(|r| r.max_image_preview)
                .map(ImagePreview::as_str),
        );
        c.max_video_preview
            .append_option(r.and_then(|r| r.max_video_preview));
        c.unavailable_after
            .append_option(r.and_then(|r| r.unavailable_after.as_deref()));
        let mut bytes = 0;
        match r {
            Some(r) => {
                for directive in &r.other {
                    c.other.values().append_value(directive);
                    bytes += directive.len();
                }
                c.other.append(true);
            }
            None => c.other.append_null(),
        }
        self.valid.push(r.is_some());
        bytes
    }

    fn finish(&mut self) -> ArrayRef {
        let c = &mut self.children;
        let mut arrays: Vec<ArrayRef> = c
            .flags
            .iter_mut()
            .map(|b| Arc::new(b.finish()) as ArrayRef)
            .collect();
        arrays.push(Arc::new(c.max_snippet.finish()));
        arrays.push(Arc::new(c.max_image_preview.finish()));
        arrays.push(Arc::new(c.max_video_preview.finish()));
        arrays.push(Arc::new(c.unavailable_after.finish()));
        arrays.push(Arc::new(
            std::mem::take(&mut c.other)
                .with_field(Arc::new(Field::new("element", DataType::Utf8, true)))
                .finish(),
        ));
        struct_array(robots_fields(), arrays, &mut self.valid)
    }
}

/// Two string children (a pair's name and content, an alternate's hreflang and URL).
#[derive(Default)]
struct TwoStrings(StringBuilder, StringBuilder);

#[derive(Default)]
struct RefreshChildren {
    delay: Int64Builder,
    url: StringBuilder,
}

#[derive(Default)]
struct QualifiedLinkChildren {
    url: StringBuilder,
    flags: [BooleanBuilder; 3],
}

/// The builders of the metadata columns.
pub(crate) struct Builders {
    canonical: StringBuilder,
    robots: StructColumn<RobotsChildren>,
    googlebot: StructColumn<RobotsChildren>,
    description: StringBuilder,
    open_graph: ListOfStructs<TwoStrings>,
    twitter: ListOfStructs<TwoStrings>,
    lang: StringBuilder,
    content_language: StringBuilder,
    hreflang: ListOfStructs<TwoStrings>,
    refresh: StructColumn<RefreshChildren>,
    json_ld: ListBuilder<StringBuilder>,
    qualified_links: ListOfStructs<QualifiedLinkChildren>,
}

fn push_pairs(column: &mut ListOfStructs<TwoStrings>, pairs: Option<&[(String, String)]>) -> usize {
    let Some(pairs) = pairs else {
        column.push_null();
        return 0;
    };
    let mut bytes = 0;
    for (name, content) in pairs {
        column.items.children.0.append_value(name);
        column.items.children.1.append_value(content);
        bytes += name.len() + content.len();
    }
    column.push_row(pairs.len());
    bytes
}

fn finish_pairs(column: &mut ListOfStructs<TwoStrings>, item_fields: Vec<Field>) -> ArrayRef {
    let arrays: Vec<ArrayRef> = vec![
        Arc::new(column.items.children.0.finish()),
        Arc::new(column.items.children.1.finish()),
    ];
    column.finish(item_fields, arrays)
}

impl Builders {
    pub(crate) fn new() -> Builders {
        Builders {
            canonical: StringBuilder::new(),
            robots: StructColumn::new(),
            googlebot: StructColumn::new(),
            description: StringBuilder::new(),
            open_graph: ListOfStructs::new(),
            twitter: ListOfStructs::new(),
            lang: StringBuilder::new(),
            content_language: StringBuilder::new(),
            hreflang: ListOfStructs::new(),
            refresh: StructColumn::new(),
            json_ld: ListBuilder::new(StringBuilder::new()).with_field(Arc::new(Field::new(
                "element",
                DataType::Utf8,
                true,
            ))),
            qualified_links: ListOfStructs::new(),
        }
    }

    /// Adds a row (every column null when `m` is None); about how many bytes of strings
    /// it added.
    pub(crate) fn push(&mut self, m: Option<&Metadata>) -> usize {
        let mut bytes = 0;
        let mut string = |builder: &mut StringBuilder, value: Option<&str>| {
            bytes += value.map_or(0, str::len);
            builder.append_option(value);
        };
        string(
            &mut self.canonical,
            m.and_then(|m| m.canonical.as_ref()?.url.as_deref()),
        );
        string(
            &mut self.description,
            m.and_then(|m| m.description.as_deref()),
        );
        string(&mut self.lang, m.and_then(|m| m.lang.as_deref()));
        string(
            &mut self.content_language,
            m.and_then(|m| m.content_language.as_deref()),
        );
        let refresh = m.and_then(|m| m.refresh.as_ref());
        string(
            &mut self.refresh.children.url,
            refresh.and_then(|r| r.url.as_deref()),
        );
        self.refresh
            .children
            .delay
            .append_option(refresh.map(|r| i64::try_from(r.delay).unwrap_or(i64::MAX)));
        self.refresh.valid.push(refresh.is_some());
        bytes += self.robots.push(m.map(|m| &m.robots));
        bytes += self.googlebot.push(m.map(|m| &m.googlebot));
        bytes += push_pairs(&mut self.open_graph, m.map(|m| m.open_graph.as_slice()));
        bytes += push_pairs(&mut self.twitter, m.map(|m| m.twitter.as_slice()));
        match m {
            Some(m) => {
                let items = &mut self.hreflang.items.children;
                for a in &m.alternates {
                    items.0.append_value(&a.hreflang);
                    items.1.append_option(a.href.url.as_deref());
                    bytes += a.hreflang.len() + a.href.url.as_ref().map_or(0, String::len);
                }
                self.hreflang.push_row(m.alternates.len());
                for block in &m.json_ld {
                    self.json_ld.values().append_value(block);
                    bytes += block.len();
                }
                self.json_ld.append(true);
                let items = &mut self.qualified_links.items.children;
                for link in &m.qualified_links {
                    items.url.append_option(link.href.url.as_deref());
                    items.flags[0].append_value(link.nofollow);
                    items.flags[1].append_value(link.ugc);
                    items.flags[2].append_value(link.sponsored);
                    bytes += link.href.url.as_ref().map_or(0, String::len);
                }
                self.qualified_links.push_row(m.qualified_links.len());
            }
            None => {
                self.hreflang.push_null();
                self.json_ld.append_null();
                self.qualified_links.push_null();
            }
        }
        bytes
    }

    /// The columns, in the order of [`METADATA_COLUMNS`]; the builders start over.
    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        let refresh = {
            let c = &mut self.refresh.children;
            let arrays: Vec<ArrayRef> = vec![Arc::new(c.delay.finish()), Arc::new(c.url.finish())];
            struct_array(refresh_fields(), arrays, &mut self.refresh.valid)
        };
        let hreflang = finish_pairs(&mut self.hreflang, hreflang_fields());
        let qualified_links = {
            let c = &mut self.qualified_links.items.children;
            let mut arrays: Vec<ArrayRef> = vec![Arc::new(c.url.finish())];
            arrays.extend(c.flags.iter_mut().map(|b| Arc::new(b.finish()) as ArrayRef));
            self.qualified_links.finish(qualified_link_fields(), arrays)
        };
        vec![
            Arc::new(self.canonical.finish()),
            self.robots.finish(),
            self.googlebot.finish(),
            Arc::new(self.description.finish()),
            finish_pairs(&mut self.open_graph, pair_fields()),
            finish_pairs(&mut self.twitter, pair_fields()),
            Arc::new(self.lang.finish()),
            Arc::new(self.content_language.finish()),
            hreflang,
            refresh,
            Arc::new(self.json_ld.finish()),
            qualified_links,
        ]
    }
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    use arrow_array::{Array, RecordBatch};

    use super::*;
    use crate::batch::{self, Source};
    use crate::extract::columns::PageColumns;
    use crate::extract::{Fields, Page, TreeColumns};

    fn batch(pages: &[(&str, &[u8])], tree: TreeColumns) -> RecordBatch {
        let rows = pages_of(pages, tree);
        let mut columns = PageColumns::with(&[], tree);
        for page in &rows {
            columns.push(page, false, false);
        }
        // A page whose metadata was not read: every metadata column null.
        let unread = Page {
            metadata: None,
            ..rows[0].clone()
        };
        columns.push(&unread, false, false);
        columns.finish()
    }

    fn pages_of(pages: &[(&str, &[u8])], tree: TreeColumns) -> Vec<Page> {
        let sources = pages
            .iter()
            .map(|(name, html)| Source::bytes(*name, html.to_vec()));
        let base = url::Url::parse("https://example.org/dir/").unwrap();
        let mut rows = batch::map_reduce(
            sources,
            &batch::Options::new().threads(1),
            |document| {
                let page = Page::without_links(&document);
                vec![page.with_tree_columns(&document, Some(&base), &Fields::default(), tree)]
            },
            |mut a, b| {
                a.extend(b);
                a
            },
            Vec::new,
        )
        .value;
        rows.sort_by(|a, b| a.source.cmp(&b.source));
        rows
    }

    /// The columns hold what the metadata says, nulls where a page has none of a field,
    /// and every column is null for a page whose metadata was not read.
    #[test]
    fn rows_with_and_without_metadata() {
        let tree = TreeColumns {
            metadata: true,
            ..TreeColumns::default()
        };
        let got = batch(
            &[
                (
                    "a.html",
                    b"<link rel=canonical href=c><meta name=robots content='noindex, max-snippet:5'>\
                      <meta http-equiv=refresh content='3; url=n'><meta property=og:x content=1>",
                ),
                ("b.html", b"<p>nothing"),
            ],
            tree,
        );
        let schema = got.schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(
            names[names.len() - METADATA_COLUMNS.len()..],
            METADATA_COLUMNS
        );
        let column = |name: &str| got.column(schema.index_of(name).unwrap()).clone();
        let canonical = column("canonical");
        assert_eq!(
            canonical.as_string::<i32>().value(0),
            "https://example.org/dir/c"
        );
        assert!(canonical.is_null(1));
        let robots = column("robots");
        let robots = robots.as_struct();
        assert!(robots.is_valid(0) && robots.is_null(1));
        assert!(robots.column(0).as_boolean().value(0));
        let max_snippet = robots.column_by_name("max_snippet").unwrap();
        assert_eq!(max_snippet.as_primitive::<Int64Type>().value(0), 5);
        let refresh = column("refresh");
        let refresh = refresh.as_struct();
        assert_eq!(
            refresh.column(1).as_string::<i32>().value(0),
            "https://example.org/dir/n"
        );
        assert!(refresh.is_null(1));
        let og = column("open_graph");
        let og = og.as_list::<i32>();
        assert_eq!((og.value(0).len(), og.value(1).len()), (1, 0));
        assert!(og.is_valid(1), "no og fields: an empty list, not null");
        for name in METADATA_COLUMNS {
            assert!(column(name).is_null(2), "{name}");
        }
    }

    #[test]
    fn the_spark_schema_names_every_column_with_its_type() {
        let ddl = spark_schema();
        assert!(ddl.starts_with("canonical string, robots struct<`noindex`:boolean,"));
        assert!(ddl.contains("open_graph array<struct<`name`:string,`content`:string>>"));
        assert!(ddl.ends_with(
            "qualified_links array<struct<`url`:string,`nofollow`:boolean,`ugc`:boolean,`sponsored`:boolean>>"
        ));
        assert_eq!(ddl.split(", ").count(), METADATA_COLUMNS.len());
    }
}
