//! `htmltok tokens`: every token as a JSON line, or the html5lib test format.

use std::io::{Read, Write as _};

use htmltok::{State, Token};

use crate::json;

use super::Failure;
use super::args::{Input, TokenizerOptions};
use super::output;

const ABOUT: &str = "Print every token as one JSON object per line";

const LONG_ABOUT: &str = r#"Print every token of an HTML document as one JSON object per line, in input order:

  {"type":"Doctype","start":0,"end":15,"name":"html","public_id":null,"system_id":null,"force_quirks":false}
  {"type":"StartTag","start":15,"end":38,"name":"a","attrs":[["href","/x?a=1&b"]],"self_closing":false}
  {"type":"Text","start":38,"end":54,"text":"Fish & chips"}
  {"type":"EndTag","start":54,"end":58,"name":"a","attrs":[],"self_closing":false}
  {"type":"Comment","start":58,"end":71,"data":" note "}

"start" and "end" are byte offsets of the token's raw bytes in the input (end exclusive).
Names are lowercased; text, attribute values and comment data are decoded as the standard
says (character references resolved, CR LF and CR as LF, NUL replaced where it must be).
A Text object is a maximal run of characters (a CDATA section is its own). The bytes
between two tokens, or after the last, only hold markup the standard drops without a
token: `</>`, or a tag cut off by the end of the input; a UTF-8 byte order mark at the
start is skipped as a browser's decoder skips it (--keep-bom keeps it as text). A UTF-16
document (told by its byte order mark) is decoded to UTF-8 first, and its offsets are then
those of the UTF-8 text.

Input that is not HTML by its first bytes (the test every htmltok command makes: binary
data, gzip data, a WARC or ARC archive) is refused with exit status 2; --force-html
tokenizes it all the same.

The input (a file or standard input) is read 64 KiB at a time and only its unfinished
tail is held, so documents larger than memory work (a <script> element's text and a text
run with no whitespace are held whole).

By default a small tree-builder simulation switches to RCDATA, RAWTEXT, script data and
PLAINTEXT after the right start tags (<title>, <style>, <script>, ...) and recognises
CDATA sections inside <svg> and <math>, as a browser would.

With --errors, parse errors are printed among the tokens as soon as the tokenizer finds
them, so each comes before the line of the token it belongs to (errors found after the
last token come at the end); memory stays flat however many errors there are:

  {"type":"Error","code":"eof-in-tag","offset":42,"line":3,"col":7}

"offset" is a byte offset; "line" and "col" are one-based, with CR LF counted as one
newline and columns in UTF-16 code units, as the html5lib tests count them.

With --html5lib, prints a single object in the html5lib tokenizer tests' format instead:

  {"output":[["StartTag","b",{"c":"d"},true],["Character","x"]],"errors":[...]}

(simulation off and errors on, as the tests run; --state and --last-start-tag apply)."#;

/// Arguments of `htmltok tokens`.
#[derive(clap::Args, Debug)]
#[command(about = ABOUT, long_about = LONG_ABOUT)]
pub struct Args {
    #[command(flatten)]
    input: Input,

    #[command(flatten)]
    options: TokenizerOptions,

    /// Also print parse errors as {"type":"Error",...} lines among the tokens
    #[arg(long)]
    errors: bool,

    /// Print one {"output":[...],"errors":[...]} object in the html5lib tests' format
    /// instead of JSON lines
    #[arg(long, conflicts_with = "no_scripting")]
    html5lib: bool,

    /// Tokenize the input even when its first bytes say it is not HTML (binary data, gzip
    /// data, a WARC or ARC archive), which is otherwise refused
    #[arg(long)]
    force_html: bool,
}

/// Runs `htmltok tokens`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let mut out = output::stdout();
    if args.html5lib {
        let input = args.input.read()?;
        args.input.check_html(&input, args.force_html, "tokens")?;
        let state = args.options.state.unwrap_or(State::Data);
        let mut object = json::html5lib(&input, state, args.options.last_start_tag.as_deref());
        object.push('\n');
        out.write_all(object.as_bytes())?;
    } else {
        let mut reader = args.input.open()?;
        let mut head = Vec::new();
        htmltok_crawl::sniff::sniff_reader(&mut reader, &mut head).map_err(|error| {
            Failure::Read {
                path: args.input.path(),
                error,
            }
        })?;
        args.input.check_html(&head, args.force_html, "tokens")?;
        let bom = htmltok_crawl::encoding::Encoding::for_bom(&head);
        if bom.is_some_and(|(encoding, _)| encoding != encoding_rs::UTF_8) {
            // UTF-16, by its byte order mark: decoded to UTF-8 whole, then tokenized.
            reader
                .read_to_end(&mut head)
                .map_err(|error| Failure::Read {
                    path: args.input.path(),
                    error,
                })?;
            let text = htmltok_crawl::encoding::decode(&head, None)
                .text
                .into_owned();
            json_lines(std::io::Cursor::new(text.into_bytes()), args, &mut out)?;
        } else {
            json_lines(std::io::Cursor::new(head).chain(reader), args, &mut out)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// One JSON object per token (and per parse error with `--errors`), read through a
/// [`htmltok::ReadTokenizer`]: memory holds one 64 KiB chunk, the unfinished tail of the
/// input and one 64 KiB output buffer, not the document.
///
/// The errors found before a token are written before its line, as the whole-input
/// tokenizer's error sink would have them. A text run that the stream hands out in pieces
/// (`text_continues`) is written as one line, the same bytes as for the whole run: its
/// escaped text is held until the last piece, because the line names the run's end
/// before its text (so a text run is the one thing held whole, as a JSON string).
fn json_lines(reader: impl Read, args: &Args, out: &mut output::Out) -> Result<(), Failure> {
    let mut tok = args.options.builder().errors(args.errors).reader(reader);
    let mut line = String::with_capacity(256);
    // The start and escaped text of a text run whose pieces are still coming.
    let mut held: Option<(usize, String)> = None;
    loop {
        let more = tok.advance().map_err(|error| Failure::Read {
            path: args.input.path(),
            error,
        })?;
        let stream = tok.stream_mut();
        for i in 0..stream.errors().len() {
            let error = stream.errors()[i];
            let position = stream.position(error.offset);
            line.clear();
            json::write_error(&mut line, &error, position);
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        if !more {
            break;
        }
        let stream = tok.stream();
        let base = stream.base();
        let Some(token) = stream.token() else { break };
        match token {
            Token::Text(text) if held.is_some() || stream.text_continues() => {
                let (start, escaped) =
                    held.get_or_insert_with(|| (base + text.span().start, String::new()));
                json::write_str_content(escaped, &text.text());
                if !stream.text_continues() {
                    let (start, escaped) = (*start, std::mem::take(escaped));
                    held = None;
                    line.clear();
                    json::write_text_escaped(&mut line, start, base + text.span().end, &escaped);
                    line.push('\n');
                    out.write_all(line.as_bytes())?;
                }
            }
            token => {
                line.clear();
                json::write_token_at(&mut line, &token, base);
                line.push('\n');
                out.write_all(line.as_bytes())?;
            }
        }
    }
    Ok(())
}
