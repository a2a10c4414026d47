//! The arguments of `htmltok extract`, and what they make of a document: its page
//! record with the columns asked for.

use std::fs::File;
use std::path::PathBuf;

use htmltok_crawl::extract::{Fields, Page, TreeColumns};
use url::Url;

use crate::Failure;
use crate::args::Corpus;

const ABOUT: &str =
    "Print one record per document (URL, encoding, title, links, text) as JSON lines or Parquet";

const LONG_ABOUT: &str = r#"Write one record per document of the given files, directories (walked recursively) and WARC files — the columns of the Spark job (python -m htmltok.spark), for one machine:

  warc_filename       the file (for a WARC record, the WARC file)
  warc_record_offset  the WARC record's offset in the file (null for an HTML file)
  warc_record_length  the WARC record's length in the file (null for an HTML file)
  warc_record_id      the WARC record's WARC-Record-ID (null for an HTML file, an ARC record)
  url                 the WARC record's target URI (null for an HTML file)
  fetch_time          the WARC record's WARC-Date, as written (null for an HTML file)
  fetch_status        the HTTP status (null for an HTML file, a record without HTTP)
  content_mime_type   the MIME type of the Content-Type, lowercase (null for an HTML file)
  encoding            the encoding the page was decoded from (WHATWG name)
  encoding_rule       what decided it: bom, transport, meta, detector, ...
  title               the first <title>'s text, or null
  links               the resolved URLs of the links, in document order (as `htmltok links`
                      gives them, data: URLs left out); null with --no-links
  text                the visible text (as `htmltok text`); null with --no-text
  NAME                for each --field NAME=SELECTOR, in the order given: the strings the
                      CSS selector gives on the document's tree, a list in document order
  main_text           with --main-text: the main text (the article, paragraphs set apart
                      by a blank line; as `htmltok text --main`)
  main_kind           with --main-text: the page's kind (article, forum, product,
                      collection, listing, documentation, service or other)
  main_confidence     with --main-text: how likely the main text is what a person would
                      have kept of the page, in [0, 1] (Parquet: a 32-bit float)
  main_markdown       with --main-markdown: the main text as GitHub-flavoured Markdown
                      (as `htmltok text --main --markdown`)

With --metadata, the page's metadata as a crawler reads it follows (htmltok-content's
metadata: URLs resolved against the document's URL and <base href>, else null):

  canonical           the first <link rel=canonical href> in the head
  robots, googlebot   the directives of every <meta name=robots> (googlebot), the most
                      restrictive winning: {noindex, nofollow, noarchive, nosnippet,
                      noimageindex, notranslate, indexifembedded: booleans; max_snippet,
                      max_video_preview: integers (-1: no limit); max_image_preview:
                      none/standard/large; unavailable_after: the date as written; other:
                      the directives not understood}; null when the page has no such tag
  description         the first <meta name=description>'s content
  open_graph, twitter the og:* / twitter:* fields in document order, repeats kept: a list
                      of {name, content}
  lang                <html lang> as written
  content_language    the <meta http-equiv=content-language> pragma
  hreflang            the <link rel=alternate hreflang> alternates: a list of {hreflang, url}
  refresh             the first <meta http-equiv=refresh> that parses: {delay, url}, or null
  json_ld             the text of each <script type=application/ld+json>, as written
  qualified_links     the <a>/<area> links with rel nofollow, ugc or sponsored: a list of
                      {url, nofollow, ugc, sponsored}

In Parquet these are typed columns: strings, structs (robots, googlebot, refresh) and lists
of structs, so that a query reads only the leaves it names (robots.noindex).

--format jsonl (the default) writes one JSON object per line with these keys; --format
parquet writes a Parquet file (snappy-compressed; links a list of strings, offsets and
lengths 64-bit integers, fetch_status a 32-bit integer) and needs --output. The columns
from warc_filename to content_mime_type are named as Common Crawl's columnar index names
its columns (warc_record_id in that style); the index joins on warc_filename,
warc_record_offset and warc_record_length. ARC records
(.arc, .arc.gz) fill them as WARC records do.

--field NAME=SELECTOR (repeatable) adds a column: the selector is a CSS selector list as
`htmltok select` takes it, ending in ::text (the matched elements' own text nodes, one
string each: title::text is the title), ::attr(NAME) (the attribute's value: a[href]::attr(href))
or nothing (the element's outer HTML). All fields are matched in one walk of the
document's tree (built only when a field is given). A field may not take the name of a
column above; a selector that does not parse is one error line and exit status 2 before
any document is read. For example:

  htmltok extract --field h1='h1::text' --field og_title='meta[property="og:title"]::attr(content)' crawl/

Documents are processed in parallel, so records come in no fixed order (-j 1 keeps the
order of the paths). An unreadable document is reported on standard error with its file
and offset and skipped; the exit status is then 1. A document read in part or with a
body used as stored is noted on standard error (`htmltok: note: ...`). At the end, one
line on standard error sums the run up (every corpus command ends so):

  htmltok summary: 17 documents; 17 rows written to pages.parquet; not documents request=3 revisit=1; recovered coding-not-applied=2; not read bad-gzip-member=1 (each named above)

(not documents: archive records that are not HTML pages, as `htmltok stats` counts them;
recovered: documents read with a note; not read: records and files that could not be
read, each named on its own line before; passed over in folders: files a directory walk
left out by their name.)"#;

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
    pub(super) corpus: Corpus,

    /// The output format
    #[arg(long, value_enum, default_value = "jsonl")]
    pub(super) format: Format,

    /// Write to this file instead of standard output (required for parquet)
    #[arg(short, long, value_name = "PATH")]
    pub(super) output: Option<PathBuf>,

    /// The URL of documents that have none of their own (a WARC record's target URI is
    /// used first); relative links are resolved against it
    #[arg(long, value_name = "URL", value_parser = parse_base)]
    pub(super) base: Option<Url>,

    /// Leave the links out (null)
    #[arg(long)]
    pub(super) no_links: bool,

    /// Leave the text out (null)
    #[arg(long)]
    pub(super) no_text: bool,

    /// Add the columns main_text, main_kind and main_confidence: each document's main
    /// text (the article without menus, footers, comments and link lists;
    /// htmltok-content's main_text), its page kind and the text's confidence. It builds
    /// the tree, so it costs more than the other columns (about 1.4x the parse with it)
    #[arg(long)]
    pub(super) main_text: bool,

    /// Add the column main_markdown: the main text as GitHub-flavoured Markdown
    /// (headings, lists, tables, code blocks, links resolved against the document's URL).
    /// With --main-text, both come from one extraction
    #[arg(long)]
    pub(super) main_markdown: bool,

    /// Add the metadata columns (canonical, robots, googlebot, description, open_graph,
    /// twitter, lang, content_language, hreflang, refresh, json_ld, qualified_links; see
    /// above). It builds the tree: on the shared corpus, 1.8x the CPU time of `extract`
    /// without it
    #[arg(long)]
    pub(super) metadata: bool,

    /// Add a column NAME: the strings the CSS selector gives on each document (ending in
    /// ::text, ::attr(NAME) or nothing; see above). Repeatable
    #[arg(long = "field", value_name = "NAME=SELECTOR", value_parser = parse_field)]
    pub(super) fields: Vec<(String, String)>,
}

/// `NAME=SELECTOR`: a name (not empty, no `=`) and a selector that compiles.
fn parse_field(value: &str) -> Result<(String, String), String> {
    let Some((name, css)) = value.split_once('=') else {
        return Err("expected NAME=SELECTOR (title='title::text')".to_owned());
    };
    if name.is_empty() {
        return Err("expected NAME=SELECTOR: the name is empty".to_owned());
    }
    htmltok_select::Selector::parse(css).map_err(|e| e.to_string())?;
    Ok((name.to_owned(), css.to_owned()))
}

/// The fields of the `--field` arguments, compiled (before any document is read).
pub(super) fn fields(args: &Args) -> Result<Fields, Failure> {
    let fields = Fields::new(args.fields.iter().map(|(n, c)| (n.as_str(), c.as_str())))
        .map_err(|e| Failure::Usage(e.to_string()))?;
    htmltok_crawl::extract::check_column_names(&fields, tree_columns(args))
        .map_err(Failure::Usage)?;
    Ok(fields)
}

/// The columns read from the tree that the arguments ask for.
pub(super) fn tree_columns(args: &Args) -> TreeColumns {
    TreeColumns {
        main_text: args.main_text,
        main_markdown: args.main_markdown,
        metadata: args.metadata,
    }
}

fn parse_base(value: &str) -> Result<Url, String> {
    Url::parse(value).map_err(|err| format!("not an absolute URL: {err}"))
}

/// The page of a document, data: URLs left out of its links (as `htmltok links` and
/// `htmltok.process` leave them out); with `--no-links`, no link is looked for. The
/// fields' columns filled.
pub(super) fn page(
    args: &Args,
    fields: &Fields,
    document: &htmltok_crawl::batch::Document<'_>,
) -> Page {
    let page = if args.no_links {
        Page::without_links(document)
    } else {
        let mut page = Page::of(document, args.base.as_ref());
        page.links.retain(|link| !link.is_data_url());
        page
    };
    page.with_tree_columns(document, args.base.as_ref(), fields, tree_columns(args))
}

pub(super) fn create(path: &PathBuf) -> Result<File, Failure> {
    File::create(path).map_err(|err| {
        Failure::Usage(format!(
            "cannot create '{}': {}",
            path.display(),
            htmltok_crawl::batch::IoReason(&err)
        ))
    })
}
