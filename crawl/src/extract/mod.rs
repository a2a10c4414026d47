//! What to take out of a page: its links, its visible text and title, and counts of its
//! tokens, tags, parse errors and encodings — the code behind `htmltok links`, `htmltok
//! text` and `htmltok stats`, for any caller (a Python binding, a Spark job).
//!
//! Each comes two ways: on a decoded document's bytes ([`links`], [`text`], [`stats`]:
//! UTF-8, as [`crate::encoding::decode`] gives it), and on a [`batch`](crate::batch)
//! [`Document`] ([`document_links`], [`Text`] through [`Page::of`], [`Stats::of`]), which
//! brings the document's URL, encoding and tokenizer options along. [`links_with`] and
//! [`text_with`] take a tokenizer, for other options. [`Page::of`] makes the one record
//! per document a crawl pipeline keeps: where the document came from, its URL and
//! encoding, title, links and text, from one pass of the tokenizer.
//!
//! ```
//! use htmltok_crawl::extract;
//!
//! let html = b"<title>Tides</title><base href='https://example.org/tides/'>\
//!              <p>High water at <a href=six.html>six</a>";
//! let text = extract::text(html);
//! assert_eq!((text.title.as_deref(), text.text.as_str()), (Some("Tides"), "High water at six"));
//! let links = extract::links(html, None);
//! assert_eq!(links[0].url, "https://example.org/tides/six.html");
//! assert_eq!(extract::stats(html).tags["a"], 1);
//! ```

mod by_tree;
#[cfg(feature = "arrow")]
pub mod columns;
mod links;
mod resolve;
mod stats;
mod text;

pub use links::{
    ElementSet, LINK_ATTRIBUTES, Link, base_href, document_links, links, links_of_elements,
    links_with, srcset_urls,
};
pub use stats::{Stats, TokenCounts, stats};
pub use text::{Text, text, text_with};

use encoding_rs::Encoding;
use htmltok::Tokenizer;
pub use htmltok_select::Fields;
use url::Url;

use crate::batch::Document;
use crate::encoding::Rule;

/// The links and the text of the document `tokenizer` reads, in one pass: what
/// [`links_with`] and [`text_with`] give.
pub fn links_and_text(
    tokenizer: &mut Tokenizer<'_>,
    document_url: Option<&Url>,
    encoding: Option<&'static Encoding>,
) -> (Vec<Link>, Text) {
    let mut links = links::Collector::default();
    let mut text = text::Collector::default();
    while let Some(token) = tokenizer.next_token() {
        links.token(&token);
        text.token(&token);
    }
    if links.needs_tree() || text.needs_tree() {
        let (title, base) = by_tree::title_and_base(tokenizer.input());
        links.set_base_href(base);
        text.set_title(title);
    }
    (links.finish(document_url, encoding), text.finish())
}

/// The names of [`Page`]'s columns as the JSON lines, Arrow and Parquet outputs write them
/// (`columns::COLUMNS`); a field may not take one of them.
pub const PAGE_COLUMNS: [&str; 13] = [
    "warc_filename",
    "warc_record_offset",
    "warc_record_length",
    "warc_record_id",
    "url",
    "fetch_time",
    "fetch_status",
    "content_mime_type",
    "encoding",
    "encoding_rule",
    "title",
    "links",
    "text",
];

/// The name of the main-text column ([`TreeColumns::main_text`]).
pub const MAIN_TEXT: &str = "main_text";

/// The name of the column of the page's kind that comes with the main text
/// ([`Page::main_kind`]).
pub const MAIN_KIND: &str = "main_kind";

/// The name of the column of the main text's confidence that comes with it
/// ([`Page::main_confidence`]).
pub const MAIN_CONFIDENCE: &str = "main_confidence";

/// The columns [`TreeColumns::main_text`] adds, in order.
pub const MAIN_TEXT_COLUMNS: [&str; 3] = [MAIN_TEXT, MAIN_KIND, MAIN_CONFIDENCE];

/// The name of the column of the main text as Markdown ([`TreeColumns::main_markdown`]).
pub const MAIN_MARKDOWN: &str = "main_markdown";

/// The names of the metadata columns ([`TreeColumns::metadata`]), in order: what
/// [`htmltok_content::metadata()`] reads, laid out as `columns::schema_with` types them
/// (the JSON lines of `htmltok extract` and the dicts of `htmltok.process` use the same
/// names and shapes).
pub const METADATA_COLUMNS: [&str; 12] = [
    "canonical",
    "robots",
    "googlebot",
    "description",
    "open_graph",
    "twitter",
    "lang",
    "content_language",
    "hreflang",
    "refresh",
    "json_ld",
    "qualified_links",
];

/// The flags of a robots column (the `robots` and `googlebot` structs' first members),
/// named and in order; then come `max_snippet`, `max_image_preview`,
/// `max_video_preview`, `unavailable_after` and `other`.
pub fn robots_flags(r: &htmltok_content::metadata::Robots) -> [(&'static str, bool); 7] {
    [
        ("noindex", r.noindex),
        ("nofollow", r.nofollow),
        ("noarchive", r.noarchive),
        ("nosnippet", r.nosnippet),
        ("noimageindex", r.noimageindex),
        ("notranslate", r.notranslate),
        ("indexifembedded", r.indexifembedded),
    ]
}

/// Which columns read from the document's tree come after the page's and the fields':
/// opt-in, since building the tree costs about three times the tokenizer's pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeColumns {
    /// The [`MAIN_TEXT_COLUMNS`]: the main text ([`Page::main_text`]: about 0.5x the
    /// parse on top of the tree), the page's kind and the text's confidence read with it
    /// ([`Page::main_kind`], [`Page::main_confidence`]).
    pub main_text: bool,
    /// The [`MAIN_MARKDOWN`] column: the main text as GitHub-flavoured Markdown
    /// ([`Page::main_markdown`]; with `main_text`, both come from one extraction).
    pub main_markdown: bool,
    /// The [`METADATA_COLUMNS`] ([`Page::metadata`]: about 0.12x the parse on top of the
    /// tree).
    pub metadata: bool,
}

impl TreeColumns {
    /// Whether any column needs the tree.
    pub fn any(self) -> bool {
        self.main_text || self.main_markdown || self.metadata
    }

    /// The names of these columns, in their order (main text first, then its
    /// Markdown, then the metadata).
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        let main_text: &[&str] = if self.main_text {
            &MAIN_TEXT_COLUMNS
        } else {
            &[]
        };
        let main_markdown: &[&str] = if self.main_markdown {
            &[MAIN_MARKDOWN]
        } else {
            &[]
        };
        let metadata: &[&str] = if self.metadata {
            &METADATA_COLUMNS
        } else {
            &[]
        };
        main_text
            .iter()
            .chain(main_markdown)
            .chain(metadata)
            .copied()
    }
}

/// Refuses fields that would take the name of one of the page's columns
/// ([`PAGE_COLUMNS`]): the message names it.
pub fn check_field_names(fields: &Fields) -> Result<(), String> {
    check_column_names(fields, TreeColumns::default())
}

/// Refuses fields that would take the name of one of the page's columns
/// ([`PAGE_COLUMNS`]) or of the tree's columns asked for (`tree`): the message names it
/// and what asked for the column.
pub fn check_column_names(fields: &Fields, tree: TreeColumns) -> Result<(), String> {
    for f in fields.fields() {
        let name = f.name.as_str();
        if PAGE_COLUMNS.contains(&name) {
            return Err(format!(
                "field name {name:?} is one of the page's columns ({}): choose another",
                PAGE_COLUMNS.join(", ")
            ));
        }
        if tree.main_text && MAIN_TEXT_COLUMNS.contains(&name) {
            return Err(format!(
                "field name {name:?} is one of the main-text columns ({}): choose another",
                MAIN_TEXT_COLUMNS.join(", ")
            ));
        }
        if tree.main_markdown && name == MAIN_MARKDOWN {
            return Err(format!(
                "field name {name:?} is the main-markdown column: choose another"
            ));
        }
        if tree.metadata && METADATA_COLUMNS.contains(&name) {
            return Err(format!(
                "field name {name:?} is one of the metadata columns ({}): choose another",
                METADATA_COLUMNS.join(", ")
            ));
        }
    }
    Ok(())
}

/// One record per document of a batch: where it came from (for an archive record, its
/// file, offset and length, record ID, fetch time and status and MIME type, as Common
/// Crawl's columnar index has them; None for other documents), how it was decoded, its
/// title, links and text.
///
/// ```no_run
/// use htmltok_crawl::{batch, extract::Page};
///
/// let pages = batch::map_reduce(
///     [batch::Source::from("CC-MAIN-example.warc.gz")],
///     &batch::Options::new(),
///     |doc| vec![Page::of(&doc, None)],
///     |mut a, b| { a.extend(b); a },
///     Vec::new,
/// );
/// for page in &pages.value {
///     println!("{}@{:?}+{:?} {:?}: {} links", page.source, page.offset, page.length, page.url, page.links.len());
/// }
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    /// The file (or buffer name) the document came from; for a WARC record, the WARC file.
    pub source: String,
    /// For a WARC record, its offset in the WARC file.
    pub offset: Option<u64>,
    /// For a WARC record, its length in the WARC file as stored (see
    /// [`Document::length`]).
    pub length: Option<u64>,
    /// For an archive record, its `WARC-Record-ID` (`<urn:uuid:…>`; None in an ARC file).
    pub warc_record_id: Option<String>,
    /// The document's URL when known (a WARC record's target URI).
    pub url: Option<String>,
    /// For an archive record, its `WARC-Date` as written (`2024-02-29T12:00:00Z`; an ARC
    /// record's date in that form): Common Crawl's `fetch_time`.
    pub fetch_time: Option<String>,
    /// For an archive record with an HTTP response, its status: Common Crawl's
    /// `fetch_status`.
    pub fetch_status: Option<u16>,
    /// For an archive record, the MIME type of its `Content-Type` (the HTTP header's,
    /// else the record's), lowercase, without parameters ([`Document::content_mime_type`]):
    /// Common Crawl's `content_mime_type`.
    pub content_mime_type: Option<String>,
    /// The name of the encoding the document was decoded from (`UTF-8`, `windows-1252`,
    /// …); None when it was not decoded.
    pub encoding: Option<&'static str>,
    /// The rule that chose the encoding; None when it was not decoded.
    pub rule: Option<Rule>,
    /// The first `<title>`'s text ([`Text::title`]).
    pub title: Option<String>,
    /// The links ([`document_links`]: resolved against the document's URL, else `base`).
    pub links: Vec<Link>,
    /// The visible text ([`Text::text`]).
    pub text: String,
    /// The columns of the [`Fields`] given to [`Page::with_fields`], in their order: the
    /// strings each field's selector gives on the document's tree. Empty otherwise.
    pub fields: Vec<Vec<String>>,
    /// The main text ([`htmltok_content::main_text()`]: the article, paragraphs set apart
    /// by a blank line) when [`Page::with_tree_columns`] was asked for it; None otherwise.
    /// Opt-in: it costs about 0.5x the parse, on top of the tree.
    pub main_text: Option<String>,
    /// The page's kind ([`htmltok_content::MainText::kind`]: article, forum, product, …)
    /// when the main text was asked for; None otherwise.
    pub main_kind: Option<htmltok_content::main_text::PageKind>,
    /// How likely the main text is what a person would have kept of the page, in [0, 1]
    /// ([`htmltok_content::MainText::confidence`]) when the main text was asked for;
    /// None otherwise.
    pub main_confidence: Option<f32>,
    /// The main text as GitHub-flavoured Markdown
    /// ([`htmltok_content::main_text::markdown`]: links resolved against the document's
    /// URL, else `base`) when [`Page::with_tree_columns`] was asked for it; None otherwise.
    pub main_markdown: Option<String>,
    /// The page's metadata ([`htmltok_content::metadata()`], its URLs resolved against the
    /// document's URL, else the `base` given) when [`Page::with_tree_columns`] was asked
    /// for it; None otherwise. Written as the [`METADATA_COLUMNS`].
    pub metadata: Option<Box<htmltok_content::Metadata>>,
}

impl Page {
    /// The record of a batch document, its links resolved against its URL, else `base`.
    pub fn of(document: &Document<'_>, base: Option<&Url>) -> Page {
        let own = document.url().and_then(|url| Url::parse(url.trim()).ok());
        let decoded = document.decoded_as();
        let (links, text) = links_and_text(
            &mut document.tokenizer(),
            own.as_ref().or(base),
            decoded.map(|d| d.encoding),
        );
        Page::from_parts(document, links, text)
    }

    /// The record of a batch document without its links (none are looked for or
    /// resolved): the title and text from one pass.
    pub fn without_links(document: &Document<'_>) -> Page {
        let text = text_with(&mut document.tokenizer());
        Page::from_parts(document, Vec::new(), text)
    }

    fn from_parts(document: &Document<'_>, links: Vec<Link>, text: Text) -> Page {
        let decoded = document.decoded_as();
        let record = document.record();
        Page {
            source: document.source().to_string(),
            offset: document.offset(),
            length: document.length(),
            warc_record_id: record.and_then(|r| r.record_id.clone()),
            url: document.url().map(str::to_string),
            fetch_time: record.and_then(|r| r.date.clone()),
            fetch_status: record.and_then(|r| r.http_status),
            content_mime_type: document.content_mime_type(),
            encoding: decoded.map(|d| d.encoding.name()),
            rule: decoded.map(|d| d.rule),
            title: text.title,
            links,
            text: text.text,
            fields: Vec::new(),
            main_text: None,
            main_kind: None,
            main_confidence: None,
            main_markdown: None,
            metadata: None,
        }
    }

    /// Fills [`Page::fields`]: builds the document's tree ([`htmltok_tree::parse`],
    /// scripting off) and extracts `fields` from it in one walk
    /// ([`Fields::extract`]). With no fields, the tree is not built.
    pub fn with_fields(self, document: &Document<'_>, fields: &Fields) -> Page {
        self.with_tree_columns(document, None, fields, TreeColumns::default())
    }

    /// Fills [`Page::fields`] and the columns of `tree` ([`Page::main_text`] with
    /// [`Page::main_kind`] and [`Page::main_confidence`], [`Page::metadata`]) from one tree of the document: the batch's
    /// ([`Document::tree`], with [`batch::Options::tree`](crate::batch::Options::tree)),
    /// else one parsed here ([`htmltok_tree::parse`], scripting off). The metadata's URLs are resolved against the document's URL, else
    /// `base`. With no fields and no tree column, the tree is not built.
    pub fn with_tree_columns(
        mut self,
        document: &Document<'_>,
        base: Option<&Url>,
        fields: &Fields,
        tree: TreeColumns,
    ) -> Page {
        if fields.is_empty() && !tree.any() {
            self.fields = Vec::new();
            return self;
        }
        // The batch's tree when it parsed one as it decoded (`batch::Options::tree`: the
        // encoding then decided with it), else one parsed here.
        document.with_tree(|doc| {
            self.fields = if fields.is_empty() {
                Vec::new()
            } else {
                fields.extract_view(doc)
            };
            let own = document.url().and_then(|url| Url::parse(url.trim()).ok());
            let markdown = htmltok_content::markdown::Options {
                url: own.clone().or_else(|| base.cloned()),
                ..Default::default()
            };
            let options = htmltok_content::main_text::Options::default();
            let (main, md) = match (tree.main_text, tree.main_markdown) {
                (true, true) => {
                    let (main, md) =
                        htmltok_content::main_text::with_markdown(&doc, &options, &markdown);
                    (Some(main), Some(md))
                }
                (true, false) => (Some(htmltok_content::main_text(&doc, &options)), None),
                (false, true) => (
                    None,
                    Some(htmltok_content::main_text::markdown(
                        &doc, &options, &markdown,
                    )),
                ),
                (false, false) => (None, None),
            };
            if let Some(main) = main {
                self.main_text = Some(main.text);
                self.main_kind = Some(main.kind);
                self.main_confidence = Some(main.confidence);
            }
            self.main_markdown = md;
            if tree.metadata {
                let metadata = htmltok_content::metadata(&doc, own.as_ref().or(base));
                self.metadata = Some(Box::new(metadata));
            }
        });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{self, Source};

    fn pages(sources: Vec<Source>) -> Vec<Page> {
        let mut pages = batch::map_reduce(
            sources,
            &batch::Options::new().threads(1),
            |document| vec![Page::without_links(&document)],
            |mut a, b| {
                a.extend(b);
                a
            },
            Vec::new,
        )
        .value;
        pages.sort_by_key(|p| (p.source.clone(), p.offset));
        pages
    }

    /// The join columns of a WARC record come from its WARC and HTTP headers; a document
    /// that is not an archive record has none.
    #[test]
    fn join_columns_of_records_and_files() {
        let path =
            std::env::temp_dir().join(format!("htmltok-page-{}.warc.gz", std::process::id()));
        let mut writer = crate::warc::Writer::gzip(Vec::new());
        let date = "2024-02-29T12:00:00Z";
        writer.write_warcinfo(date, None, &[]).unwrap();
        let response = writer
            .write_response(
                "https://example.org/",
                date,
                404,
                &[("Content-Type", " Text/HTML ; charset=UTF-8")],
                b"<title>Not here</title>",
            )
            .unwrap();
        let resource = writer
            .write_resource(
                "https://example.org/x.xhtml",
                "2024-03-01T00:00:00Z",
                "application/xhtml+xml",
                b"<title>X</title>",
            )
            .unwrap();
        std::fs::write(&path, writer.into_inner().unwrap()).unwrap();
        let got = pages(vec![
            Source::Path(path.clone()),
            Source::bytes("page.html", b"<title>P</title>".to_vec()),
        ]);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(got.len(), 3);
        let file = &got[2];
        assert_eq!(file.source, "page.html");
        assert_eq!(
            (
                &file.warc_record_id,
                &file.fetch_time,
                file.fetch_status,
                &file.content_mime_type
            ),
            (&None, &None, None, &None)
        );
        let (html, xhtml) = (&got[0], &got[1]);
        assert_eq!(html.offset, Some(response));
        assert!(
            html.warc_record_id
                .as_deref()
                .unwrap()
                .starts_with("<urn:uuid:")
        );
        assert_eq!(html.fetch_time.as_deref(), Some(date));
        assert_eq!(html.fetch_status, Some(404));
        assert_eq!(html.content_mime_type.as_deref(), Some("text/html"));
        assert_eq!(html.title.as_deref(), Some("Not here"));
        assert_eq!(xhtml.offset, Some(resource));
        assert_ne!(xhtml.warc_record_id, html.warc_record_id);
        assert_eq!(xhtml.fetch_time.as_deref(), Some("2024-03-01T00:00:00Z"));
        assert_eq!(xhtml.fetch_status, None);
        assert_eq!(
            xhtml.content_mime_type.as_deref(),
            Some("application/xhtml+xml")
        );
    }
}
