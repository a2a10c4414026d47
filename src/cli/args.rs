//! Arguments shared by the subcommands that tokenize a document.

use std::io::{IsTerminal as _, Read as _};
use std::path::PathBuf;

use clap::Args;
use htmltok::{Builder, State, Tokenizer};

use super::Failure;
use super::output::describe;

/// The document to read.
#[derive(Args, Debug)]
pub struct Input {
    /// The HTML file to read; `-` or nothing reads standard input (nothing only when it is
    /// not a terminal). The bytes are taken as UTF-8 (invalid sequences decode to U+FFFD)
    /// and never re-encoded.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

impl Input {
    /// Reads the whole document.
    pub fn read(&self) -> Result<Vec<u8>, Failure> {
        match &self.file {
            Some(path) if path.as_os_str() != "-" => std::fs::read(path).map_err(|err| {
                Failure::Input(format!(
                    "cannot read '{}': {}",
                    path.display(),
                    describe(&err)
                ))
            }),
            None if std::io::stdin().is_terminal() => Err(Failure::Input(
                "no input: give a FILE, pipe HTML into standard input, or use '-' to type it"
                    .to_string(),
            )),
            _ => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|err| {
                        Failure::Input(format!("cannot read standard input: {}", describe(&err)))
                    })?;
                Ok(bytes)
            }
        }
    }
}

const STATE_NAMES: [&str; 6] = [
    "Data state",
    "PLAINTEXT state",
    "RCDATA state",
    "RAWTEXT state",
    "Script data state",
    "CDATA section state",
];

/// Parses a state named as the html5lib tests name it.
fn parse_state(name: &str) -> Result<State, String> {
    State::from_html5lib_name(name).ok_or_else(|| {
        let names: Vec<String> = STATE_NAMES.iter().map(|n| format!("'{n}'")).collect();
        format!("unknown state; expected one of {}", names.join(", "))
    })
}

/// How the tokenizer runs.
#[derive(Args, Debug)]
pub struct TokenizerOptions {
    /// Do not simulate the tree builder: stay in the data state after <script>, <style>,
    /// <title>, <textarea>, <plaintext> and friends, and never open CDATA sections
    #[arg(long)]
    pub no_simulation: bool,

    /// Simulate a browser with scripting disabled: <noscript> content is markup, not
    /// RAWTEXT
    #[arg(long)]
    pub no_scripting: bool,

    /// The state to start in, named as the html5lib tests name it: 'Data state' (the
    /// default), 'PLAINTEXT state', 'RCDATA state', 'RAWTEXT state', 'Script data state',
    /// 'CDATA section state'
    #[arg(long, value_name = "STATE", value_parser = parse_state)]
    pub state: Option<State>,

    /// The last start tag emitted before the input (decides which end tag closes RCDATA,
    /// RAWTEXT or script data when starting in those states)
    #[arg(long, value_name = "NAME")]
    pub last_start_tag: Option<String>,
}

impl TokenizerOptions {
    /// A builder with these options (errors off).
    pub fn builder(&self) -> Builder {
        let mut builder = Tokenizer::builder()
            .simulation(!self.no_simulation)
            .scripting(!self.no_scripting)
            .state(self.state.unwrap_or(State::Data));
        if let Some(name) = &self.last_start_tag {
            builder = builder.last_start_tag(name);
        }
        builder
    }
}
