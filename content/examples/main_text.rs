//! Main text of pages, as JSON lines: `cargo run --release -p htmltok-content --example
//! main_text -- FILE...` prints `{"path", "title", "byline", "date", "kind",
//! "confidence", "text"}` for each file; with `--serve` it reads pages from standard input (each a 4-byte little-endian
//! length, then that many bytes of HTML) and answers each with one line `{"text": …}`,
//! which is how `content/eval/evaluate.py` scores htmltok before the Python package
//! has `main_text()` (set `HTMLTOK_MAIN_TEXT_BIN` to this program).

use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

use htmltok_content::{MainText, main_text};

/// A JSON string literal.
fn json(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn field(name: &str, value: Option<&str>, out: &mut String) {
    out.push_str(", ");
    json(name, out);
    out.push_str(": ");
    match value {
        Some(v) => json(v, out),
        None => out.push_str("null"),
    }
}

fn extract(html: &[u8]) -> MainText {
    let doc = htmltok_tree::parse(html);
    main_text(&doc, &Default::default())
}

fn serve() -> ExitCode {
    let mut input = std::io::stdin().lock();
    let mut output = BufWriter::new(std::io::stdout().lock());
    let mut len = [0u8; 4];
    while input.read_exact(&mut len).is_ok() {
        let mut html = vec![0; u32::from_le_bytes(len) as usize];
        if input.read_exact(&mut html).is_err() {
            eprintln!("main_text: input ended inside a page");
            return ExitCode::FAILURE;
        }
        let main = extract(&html);
        let mut line = String::from("{\"text\": ");
        json(&main.text, &mut line);
        line.push_str("}\n");
        if output
            .write_all(line.as_bytes())
            .and_then(|()| output.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--serve") {
        return serve();
    }
    if args.is_empty() {
        eprintln!("usage: main_text FILE... | main_text --serve");
        return ExitCode::from(2);
    }
    for path in &args {
        let html = match std::fs::read(path) {
            Ok(html) => html,
            Err(err) => {
                eprintln!("main_text: {path}: {err}");
                return ExitCode::FAILURE;
            }
        };
        let main = extract(&html);
        let mut line = String::from("{");
        json("path", &mut line);
        line.push_str(": ");
        json(path, &mut line);
        field("title", main.title.as_deref(), &mut line);
        field("byline", main.byline.as_deref(), &mut line);
        field("date", main.date.as_deref(), &mut line);
        field("kind", Some(main.kind.as_str()), &mut line);
        line.push_str(&format!(", \"confidence\": {}", main.confidence));
        field("text", Some(&main.text), &mut line);
        line.push('}');
        println!("{line}");
    }
    ExitCode::SUCCESS
}
