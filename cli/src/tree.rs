//! `htmltok tree`: the document's tree (WHATWG tree construction, `htmltok_tree`), in the
//! html5lib tree-construction test format or serialized as HTML.

use std::borrow::Cow;
use std::io::Write as _;
use std::path::PathBuf;

use htmltok_tree::{FragmentContext, Parser};

use super::Failure;
use super::args::Input;
use super::output;

const ABOUT: &str = "Print the document's tree (html5lib test format) or its serialization";

const LONG_ABOUT: &str = r#"Parse a document (or, with --context, a fragment) into a tree as a browser does (HTML § 13.2.6 tree construction, § 13.4 fragments) and print the tree.

--format html5lib (the default) prints it in the html5lib tree-construction tests' format,
one node per line, exactly as the tests' #document sections write it:

  | <!DOCTYPE html>
  | <html>
  |   <head>
  |   <body>
  |     <p>
  |       class="x"
  |       "Hello "
  |       <b>
  |         "world"

--format html prints the HTML serialization of the tree (§ 13.3: what `outerHTML` gives;
for a fragment, the fragment's nodes), with no line end added, so that it parses back
into the same tree where the standard says it must.

The encoding is decided as `htmltok text` decides it for a file (a byte order mark, a
<meta charset> in the first bytes, else a guess from the bytes; --no-decode reads the
bytes as UTF-8), and the text is parsed as UTF-8.

Input that is not HTML by its first bytes (the test every htmltok command makes: binary
data, gzip data, a WARC or ARC archive) is refused with exit status 2; --force-html parses
it all the same.

The scripting flag is off by default, so <noscript> content is parsed as markup (what a
browser with scripts disabled does); --scripting parses it as raw text."#;

const AFTER_HELP: &str = "\
Examples:
  htmltok tree page.html
  printf '<p>a<b>b</p>c' | htmltok tree
  printf '<td>cell' | htmltok tree --context tr
  printf '<path/>' | htmltok tree --context 'svg svg'
  htmltok tree --format html page.html > normalized.html";

/// The output format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The html5lib tree-construction test format (`| <html>` ...)
    Html5lib,
    /// The HTML serialization (HTML § 13.3)
    Html,
}

/// Arguments of `htmltok tree`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT, after_help = AFTER_HELP)]
pub struct Args {
    /// The HTML file to read; `-` or nothing reads standard input (nothing only when it is
    /// not a terminal)
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,

    /// The output format
    #[arg(long, value_enum, default_value = "html5lib")]
    format: Format,

    /// Set the scripting flag: <noscript> content is raw text, not markup
    #[arg(long)]
    scripting: bool,

    /// Parse a fragment in the context of this element, written as in the html5lib tests:
    /// an HTML element name (`td`, `body`, `title`), or `svg NAME` / `math NAME` for an SVG
    /// or MathML element (`svg path`, `svg foreignObject`, `math mi`)
    #[arg(long, value_name = "CONTEXT", value_parser = parse_context)]
    context: Option<FragmentContext>,

    /// Do not decide the encoding (byte order mark, <meta> prescan, detector): read the
    /// bytes as UTF-8 (invalid sequences decode to U+FFFD)
    #[arg(long)]
    no_decode: bool,

    /// Parse the input even when its first bytes say it is not HTML (binary data, gzip
    /// data, a WARC or ARC archive), which is otherwise refused
    #[arg(long)]
    force_html: bool,
}

/// Parses a fragment context written as in the html5lib tests: one element name, or
/// `svg` or `math` and a name. A name starts with an ASCII letter and holds no
/// whitespace, `/`, `>` or NUL (what a start tag's name can be).
fn parse_context(text: &str) -> Result<FragmentContext, String> {
    let words: Vec<&str> = text.split_ascii_whitespace().collect();
    let name = match words.as_slice() {
        [name] | ["svg" | "math", name] => *name,
        _ => "",
    };
    let valid =
        name.starts_with(|c: char| c.is_ascii_alphabetic()) && !name.contains(['/', '>', '\0']);
    if valid {
        Ok(FragmentContext::from_test_string(&words.join(" ")))
    } else {
        Err(
            "expected an element name, or `svg NAME` or `math NAME` (as in the html5lib \
             tests: td, svg path, math mi)"
                .to_owned(),
        )
    }
}

/// Runs `htmltok tree`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let input = Input {
        file: args.file.clone(),
    };
    let bytes = input.read()?;
    input.check_html(&bytes, args.force_html, "tree")?;
    let parser = Parser::new().scripting(args.scripting);
    let doc = match &args.context {
        // A document's encoding is decided as it is parsed: the late `<meta>` by the tree
        // builder as it meets it (one that names another encoding parses again).
        None if !args.no_decode => {
            htmltok_crawl::encoding::decode_and_parse(&bytes, None, &parser).document
        }
        // A fragment changes no encoding: decoded first (the token path), then parsed.
        context => {
            let text: Cow<'_, [u8]> = if args.no_decode {
                Cow::Borrowed(&bytes)
            } else {
                match htmltok_crawl::encoding::decode(&bytes, None).text {
                    Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                    Cow::Owned(text) => Cow::Owned(text.into_bytes()),
                }
            };
            match context {
                Some(context) => parser.parse_fragment_owned(text, context),
                None => parser.parse_owned(text),
            }
        }
    };
    let mut out = output::stdout();
    match args.format {
        Format::Html5lib => {
            let tree = doc.to_test_format();
            out.write_all(tree.as_bytes())?;
            if !tree.is_empty() {
                out.write_all(b"\n")?;
            }
        }
        Format::Html => out.write_all(doc.outer_html().as_bytes())?,
    }
    out.flush()?;
    Ok(())
}
