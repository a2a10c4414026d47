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

use pyo3::exceptions::{PyFileNotFoundError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};

mod batch;
mod content;
mod document;
mod options;
mod process;
mod select;
mod tokens;
mod tree;
mod warc;

/// The input of `tokenize` and `Document` as a `bytes` object: the object itself for
/// `bytes` (no copy); one copy for `bytearray` and `memoryview` (`bytes(obj)`), so that the
/// bytes cannot change under the tokens that point into them.
pub(crate) fn input_bytes<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.clone());
    }
    if data.is_instance_of::<PyByteArray>() || data.is_instance_of::<PyMemoryView>() {
        let copy = data.py().get_type::<PyBytes>().call1((data,))?;
        return Ok(copy.cast_into::<PyBytes>()?);
    }
    let hint = if data.is_instance_of::<pyo3::types::PyString>() {
        " (encode a str first, e.g. text.encode('utf-8'))"
    } else {
        ""
    };
    Err(PyTypeError::new_err(format!(
        "expected bytes, bytearray or memoryview, not {}{hint}",
        type_name(data)
    )))
}

/// The name of an object's type, for error messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// A path argument (`str` or `os.PathLike`), or a TypeError naming what was given.
pub(crate) fn path_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<std::path::PathBuf> {
    obj.extract::<std::path::PathBuf>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what}: expected a path (str or os.PathLike), not {}",
            type_name(obj)
        ))
    })
}

/// FileNotFoundError (with errno, strerror and filename set, as `open()` gives it) unless
/// `path` exists.
pub(crate) fn require_exists(path: &std::path::Path) -> PyResult<()> {
    match std::fs::metadata(path) {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            Err(PyFileNotFoundError::new_err((
                2,
                "No such file or directory",
                path.to_string_lossy().into_owned(),
            )))
        }
        Err(err) => Err(err.into()),
    }
}

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
