//! `htmltok extract`: one record per document (the columns of the Spark job,
//! `htmltok.spark`), as JSON lines or Parquet.

mod command;
mod jsonl;
mod metadata;
#[cfg(feature = "parquet")]
mod parquet;

use std::process::ExitCode;

use crate::Failure;

pub use command::{Args, Format};

/// Runs `htmltok extract`.
pub fn run(args: &Args) -> Result<ExitCode, Failure> {
    match args.format {
        Format::Jsonl => jsonl::run(args),
        #[cfg(feature = "parquet")]
        Format::Parquet => parquet::run(args),
        #[cfg(not(feature = "parquet"))]
        Format::Parquet => Err(Failure::Usage(
            "this htmltok was built without Parquet output (the `parquet` feature of \
             htmltok-cli, on by default)"
                .to_string(),
        )),
    }
}
