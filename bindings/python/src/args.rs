//! Python arguments read into Rust values, with the TypeError or ValueError that names
//! what was given instead.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView};
use url::Url;

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

/// A URL argument (`base=`, `url=`) parsed; a ValueError naming the argument `name` when
/// it is not an absolute URL.
pub(crate) fn absolute_url(name: &str, url: Option<&str>) -> PyResult<Option<Url>> {
    url.map(|u| {
        Url::parse(u).map_err(|err| {
            PyValueError::new_err(format!("{name} {u:?}: not an absolute URL: {err}"))
        })
    })
    .transpose()
}
