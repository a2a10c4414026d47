//! `htmltok tokens`: every token as a JSON line, or the html5lib test format.

use std::io::Write as _;

use htmltok::State;

use crate::json;

use super::Failure;
use super::args::{Input, TokenizerOptions};
use super::output;
use super::positions::Positions;

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
token: `</>`, or a tag cut off by the end of the input.

By default a small tree-builder simulation switches to RCDATA, RAWTEXT, script data and
PLAINTEXT after the right start tags (<title>, <style>, <script>, ...) and recognises
CDATA sections inside <svg> and <math>, as a browser would.

With --errors, parse errors are printed among the tokens, each right after the token
during which the tokenizer found it (errors found after the last token come at the end):

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
}

/// Runs `htmltok tokens`.
pub fn run(args: &Args) -> Result<(), Failure> {
    let input = args.input.read()?;
    let mut out = output::stdout();
    if args.html5lib {
        let state = args.options.state.unwrap_or(State::Data);
        let mut object = json::html5lib(&input, state, args.options.last_start_tag.as_deref());
        object.push('\n');
        out.write_all(object.as_bytes())?;
    } else {
        json_lines(&input, args, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// One JSON object per token (and per parse error with `--errors`).
fn json_lines(input: &[u8], args: &Args, out: &mut output::Out) -> Result<(), Failure> {
    let mut tokenizer = args.options.builder().errors(args.errors).build(input);
    let mut positions = Positions::new(input);
    let mut line = String::with_capacity(256);
    while let Some(token) = tokenizer.next_token() {
        line.clear();
        json::write_token(&mut line, &token);
        line.push('\n');
        out.write_all(line.as_bytes())?;
        if args.errors && !tokenizer.errors().is_empty() {
            write_errors(&tokenizer.take_errors(), &mut positions, &mut line, out)?;
        }
    }
    if args.errors {
        write_errors(&tokenizer.take_errors(), &mut positions, &mut line, out)?;
    }
    Ok(())
}

fn write_errors(
    errors: &[htmltok::ParseError],
    positions: &mut Positions<'_>,
    line: &mut String,
    out: &mut output::Out,
) -> Result<(), Failure> {
    for error in errors {
        line.clear();
        json::write_error(line, error, positions.position(error.offset));
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}
