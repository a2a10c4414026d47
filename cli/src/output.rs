//! Standard output and the ways a subcommand can fail.

use std::io::{self, BufWriter, StdoutLock};
use std::process::ExitCode;

/// Standard output, locked once and buffered.
pub type Out = BufWriter<StdoutLock<'static>>;

/// Locks standard output once and buffers it.
pub fn stdout() -> Out {
    BufWriter::with_capacity(64 * 1024, io::stdout().lock())
}

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments or unreadable input: the message says what (exit status 2).
    Input(String),
    /// Writing the output failed (exit status 1), or the reader went away (a broken pipe,
    /// as with `| head`: a quiet exit 0).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    /// I/O errors that reach `?` in a subcommand come from writing its output; reading
    /// the input reports its own [`Failure::Input`].
    fn from(err: io::Error) -> Self {
        Failure::Output(err)
    }
}

impl Failure {
    /// Says what went wrong on standard error (except for a broken pipe) and returns the
    /// exit status.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Input(message) => {
                super::complain(&message);
                ExitCode::from(2)
            }
            Failure::Output(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Failure::Output(err) => {
                super::complain(&format!("cannot write the output: {}", describe(&err)));
                ExitCode::from(1)
            }
        }
    }
}

/// An I/O error's message without the trailing ` (os error N)`.
pub fn describe(err: &io::Error) -> String {
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}
