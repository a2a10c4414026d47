//! A page as Markdown: `cargo run --release -p htmltok-content --example markdown --
//! [--main] FILE...` prints each file's whole visible page as GitHub-flavoured
//! Markdown, or with `--main` its main content, each after a `<!-- FILE -->` line.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut main = false;
    let mut failed = false;
    for arg in std::env::args().skip(1) {
        if arg == "--main" {
            main = true;
            continue;
        }
        let html = match std::fs::read(&arg) {
            Ok(html) => html,
            Err(e) => {
                eprintln!("{arg}: {e}");
                failed = true;
                continue;
            }
        };
        let doc = htmltok_tree::parse(&html);
        let options = htmltok_content::markdown::Options::default();
        let md = if main {
            htmltok_content::main_text::markdown(&doc, &Default::default(), &options)
        } else {
            htmltok_content::markdown::markdown(&doc, &options)
        };
        println!("<!-- {arg} -->\n{md}\n");
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
