//! Prints the visible text of an HTML file (bytes decoded lossily as UTF-8), for
//! checking by hand: `cargo run -p htmltok-content --example visible -- FILE
//! [--noscript]`.

use std::io::Write as _;
use std::process::ExitCode;

use htmltok_content::visible::{Options, visible_text};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: visible FILE [--noscript]");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            eprintln!("visible: {path}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let doc = htmltok_tree::parse(text.as_bytes());
    let options = Options {
        noscript: args.iter().any(|a| a == "--noscript"),
    };
    // A closed pipe (`| head`) is no error worth a panic.
    let _ = writeln!(std::io::stdout(), "{}", visible_text(&doc, options));
    ExitCode::SUCCESS
}
