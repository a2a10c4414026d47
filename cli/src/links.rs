//! `htmltok links`: every outgoing link of each document, resolved.

use std::process::ExitCode;

use htmltok::Tokenizer;
use htmltok_crawl::extract;
use url::Url;

use crate::json;

use super::Failure;
use super::args::Corpus;

const ABOUT: &str = "Print every outgoing link of each document (TSV or JSON lines)";

const LONG_ABOUT: &str = r#"Print every outgoing link of every document of the given files, directories (walked recursively) and WARC files, one per line, as tab-separated values:

  corpus/article.html	a	href	https://example.org/science/

(document, element, attribute, URL), or with --json as JSON lines:

  {"document":"corpus/article.html","element":"a","attribute":"href","url":"https://example.org/science/","raw":"/science/"}

The links are the URL-valued attributes: a/area/link[href], img/source[src, srcset],
link[imagesrcset], script/iframe/frame/embed/input/track/audio/video[src], video[poster],
form[action], button/input[formaction], object[data], blockquote/q/del/ins[cite].
Each URL of a srcset is one link.

URLs are resolved as a browser does, against the document's base URL: the first
<base href> in the document (itself resolved against the document URL), else the
document URL — the WARC record's target URI, or --base; the query is percent-encoded
from the document's encoding (a windows-1251 page's ?q=Привет becomes ?q=%CF%F0%E8%E2%E5%F2). With neither, relative URLs are
printed as written (after trimming whitespace) and absolute ones normalised. A value
that does not parse as a URL is printed as written. Empty values and data: URLs (content,
not links) are left out; --data-urls keeps data: URLs. In the TSV, backslash, tab, CR
and LF in a field are written as \\, \t, \r and \n.

"document" is the file (for a WARC record, FILE@OFFSET, the record's offset in the WARC
file). Documents are processed in parallel, so their lines come in no fixed order (the
lines of one document stay together and in document order; -j 1 keeps the order of the
paths). An unreadable document is reported on standard error with its file and offset and
skipped; the exit status is then 1."#;

/// Arguments of `htmltok links`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    #[command(flatten)]
    corpus: Corpus,

    /// The URL of documents that have none of their own (a WARC record's target URI is
    /// used first); relative links are resolved against it
    #[arg(long, value_name = "URL", value_parser = parse_base)]
    base: Option<Url>,

    /// Also print data: URLs
    #[arg(long)]
    data_urls: bool,

    /// Print JSON lines instead of tab-separated values
    #[arg(long)]
    json: bool,
}

fn parse_base(value: &str) -> Result<Url, String> {
    Url::parse(value).map_err(|err| format!("not an absolute URL: {err}"))
}

/// Runs `htmltok links`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    args.corpus
        .print_lines(Tokenizer::builder(), None, ("link", "links"), |document| {
            let links = extract::document_links(&document, args.base.as_ref());
            let label = document.label();
            let mut lines = String::new();
            let mut rows = 0;
            for link in &links {
                if !args.data_urls && link.is_data_url() {
                    continue;
                }
                rows += 1;
                if args.json {
                    lines.push_str("{\"document\":");
                    json::write_str(&mut lines, &label);
                    lines.push_str(",\"element\":");
                    json::write_str(&mut lines, link.element);
                    lines.push_str(",\"attribute\":");
                    json::write_str(&mut lines, link.attribute);
                    lines.push_str(",\"url\":");
                    json::write_str(&mut lines, &link.url);
                    lines.push_str(",\"raw\":");
                    json::write_str(&mut lines, &link.raw);
                    lines.push_str("}\n");
                } else {
                    tsv_field(&mut lines, &label);
                    lines.push('\t');
                    lines.push_str(link.element);
                    lines.push('\t');
                    lines.push_str(link.attribute);
                    lines.push('\t');
                    tsv_field(&mut lines, &link.url);
                    lines.push('\n');
                }
            }
            (lines, rows)
        })
}

/// Appends `field` with backslash, tab, CR and LF escaped.
fn tsv_field(out: &mut String, field: &str) {
    for c in field.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_escapes() {
        let mut out = String::new();
        tsv_field(&mut out, "a\tb\\c\nd");
        assert_eq!(out, "a\\tb\\\\c\\nd");
    }
}
