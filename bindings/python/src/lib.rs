//! `htmltok._htmltok`: the native module of the `htmltok` Python package.
//!
//! Thin bindings: tokens come from the tokenizer's [`htmltok::Tape`], encodings from
//! [`htmltok_crawl::encoding`], links, text and counts from [`htmltok_crawl::extract`],
//! WARC records from [`htmltok_crawl::warc`] and parallel runs from
//! [`htmltok_crawl::batch`]. Nothing here tokenizes, decodes or extracts on its own.
//!
//! Every call that does more than a few microseconds of work releases the GIL
//! (`Python::detach`). The code is safe Rust only (`unsafe_code` is denied workspace-wide):
//! input bytes are borrowed from an immutable `bytes` object held for as long as they are.

use pyo3::prelude::*;

mod args;
mod arrow;
mod batch;
mod content;
mod document;
mod html;
mod links;
mod options;
mod process;
mod select;
mod tokens;
mod tree;
mod want;
mod warc;
mod warn;

/// htmltok: an exact WHATWG HTML tokenizer (Rust), with browser-style encoding detection,
/// WARC reading, link and text extraction and parallel batches.
#[pymodule]
fn _htmltok(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Set by the build backend (build_backend/pgo_backend.py) for the profile-guided build.
    m.add("PGO", option_env!("HTMLTOK_BUILT_WITH_PGO") == Some("1"))?;
    // Why the build backend fell back to the plain build (None for a PGO build, and for
    // builds not made by the backend, such as `maturin develop`).
    m.add("PGO_FALLBACK", option_env!("HTMLTOK_PGO_FALLBACK"))?;
    // The columns of `process_arrow`, the Spark job and `htmltok extract --format parquet`,
    // from the one Rust definition.
    m.add("COLUMNS", htmltok_crawl::extract::columns::COLUMNS.to_vec())?;
    m.add(
        "METADATA_COLUMNS",
        htmltok_crawl::extract::METADATA_COLUMNS.to_vec(),
    )?;
    m.add(
        "MAIN_TEXT_COLUMNS",
        htmltok_crawl::extract::MAIN_TEXT_COLUMNS.to_vec(),
    )?;
    // The metadata columns as a Spark DDL fragment, for htmltok.spark's schema.
    m.add(
        "METADATA_SPARK_SCHEMA",
        htmltok_crawl::extract::columns::metadata::spark_schema(),
    )?;
    tokens::register(m)?;
    document::register(m)?;
    warc::register(m)?;
    options::register(m)?;
    process::register(m)?;
    batch::register(m)?;
    tree::register(m)?;
    select::register(m)?;
    Ok(())
}
