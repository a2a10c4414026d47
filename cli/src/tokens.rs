//! `htmltok tokens`: every token as a JSON line, or the html5lib test format.

use std::io::Write as _;
use std::sync::{Arc, Mutex};

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
token: `</>`, or a tag cut off by the end of the input; a UTF-8 byte order mark at the
start is skipped as a browser's decoder skips it (--keep-bom keeps it as text).

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
///
/// Token lines and error lines go through one buffer, in the order they are made, and
/// the buffer goes to standard output whenever it holds 64 KiB: error lines are made by
/// the tokenizer's error sink while it works on a token, so neither the errors of one
/// token nor the output is ever held whole.
fn json_lines(input: &[u8], args: &Args, out: &mut output::Out) -> Result<(), Failure> {
    out.flush()?;
    let shared = Arc::new(Mutex::new(Pending::default()));
    let mut tokenizer = if args.errors {
        let sink_buffer = Arc::clone(&shared);
        let mut positions = Positions::new(input);
        let mut line = String::with_capacity(128);
        args.options.builder().build_with_sink(input, move |error| {
            line.clear();
            json::write_error(&mut line, &error, positions.position(error.offset));
            line.push('\n');
            lock(&sink_buffer).push(line.as_bytes());
        })
    } else {
        args.options.builder().build(input)
    };
    let mut line = String::with_capacity(256);
    while let Some(token) = tokenizer.next_token() {
        line.clear();
        json::write_token(&mut line, &token);
        line.push('\n');
        let mut pending = lock(&shared);
        if line.len() >= Pending::LIMIT {
            // A huge token (a whole page of text): written straight out, not copied.
            pending.flush();
            pending.write(line.as_bytes());
        } else {
            pending.push(line.as_bytes());
        }
        if let Some(error) = pending.failed.take() {
            return Err(error.into());
        }
    }
    drop(tokenizer); // the sink's last errors are in
    let mut pending = lock(&shared);
    pending.flush();
    match pending.failed.take() {
        Some(error) => Err(error.into()),
        None => Ok(()),
    }
}

/// Output waiting to be written, and the first write error.
#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    failed: Option<std::io::Error>,
}

impl Pending {
    const LIMIT: usize = 64 * 1024;

    fn push(&mut self, line: &[u8]) {
        self.bytes.extend_from_slice(line);
        if self.bytes.len() >= Self::LIMIT {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let bytes = std::mem::take(&mut self.bytes);
        self.write(&bytes);
        self.bytes = bytes;
        self.bytes.clear();
    }

    /// Writes `bytes` to standard output unless an earlier write failed.
    fn write(&mut self, bytes: &[u8]) {
        if self.failed.is_none()
            && let Err(error) = std::io::stdout().lock().write_all(bytes)
        {
            self.failed = Some(error);
        }
    }
}

/// The pending output; a panic elsewhere cannot leave it unusable (it holds plain bytes).
fn lock(shared: &Mutex<Pending>) -> std::sync::MutexGuard<'_, Pending> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
