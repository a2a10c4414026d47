//! Standard output and the ways a subcommand can fail.

use std::fmt;
use std::io::{self, BufWriter, StdoutLock};
use std::path::PathBuf;
use std::process::ExitCode;

use htmltok_crawl::batch::IoReason;

/// Standard output, locked once and buffered.
pub type Out = BufWriter<StdoutLock<'static>>;

/// Locks standard output once and buffers it.
pub fn stdout() -> Out {
    BufWriter::with_capacity(64 * 1024, io::stdout().lock())
}

/// Why a subcommand stopped. Its `Display` is the one line printed after `htmltok: `.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments: what is wrong with them (exit status 2).
    Usage(String),
    /// No input was given and standard input is a terminal (exit status 2).
    NoInput,
    /// Reading the input failed (exit status 2): a file, or standard input (None).
    Read {
        /// The file; None for standard input.
        path: Option<PathBuf>,
        /// The error.
        error: io::Error,
    },
    /// Writing the output failed (exit status 1), or the reader went away (a broken pipe,
    /// as with `| head`: a quiet exit 0).
    Output(io::Error),
    /// A command that reads one HTML document was given something else (exit status 2):
    /// an archive, or what the input's first bytes say it is (`htmltok_crawl::sniff`).
    NotHtml {
        /// The file; None for standard input.
        path: Option<PathBuf>,
        /// What it is instead, and what to do.
        what: String,
    },
}

impl From<io::Error> for Failure {
    /// I/O errors that reach `?` in a subcommand come from writing its output; reading
    /// the input reports its own [`Failure::Read`].
    fn from(err: io::Error) -> Self {
        Failure::Output(err)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Usage(what) => f.write_str(what),
            Failure::NoInput => f.write_str(
                "no input: give a FILE, pipe HTML into standard input, or use '-' to type it",
            ),
            Failure::Read {
                path: Some(path),
                error,
            } => write!(f, "cannot read '{}': {}", path.display(), IoReason(error)),
            Failure::Read { path: None, error } => {
                write!(f, "cannot read standard input: {}", IoReason(error))
            }
            Failure::Output(error) => write!(f, "cannot write the output: {}", IoReason(error)),
            Failure::NotHtml { path, what } => match path {
                Some(path) => write!(f, "'{}' is not HTML: {what}", path.display()),
                None => write!(f, "standard input is not HTML: {what}"),
            },
        }
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Failure::Read { error, .. } | Failure::Output(error) => Some(error),
            Failure::Usage(_) | Failure::NoInput | Failure::NotHtml { .. } => None,
        }
    }
}

impl Failure {
    /// Says what went wrong on standard error (except for a broken pipe) and returns the
    /// exit status.
    pub fn report(self) -> ExitCode {
        let code = match &self {
            Failure::Output(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                return ExitCode::SUCCESS;
            }
            Failure::Output(_) => 1,
            Failure::Usage(_)
            | Failure::NoInput
            | Failure::Read { .. }
            | Failure::NotHtml { .. } => 2,
        };
        super::complain(&self.to_string());
        ExitCode::from(code)
    }
}
