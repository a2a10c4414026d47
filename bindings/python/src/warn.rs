//! The DeprecationWarning of the old forms the API still takes.

use pyo3::prelude::*;

/// A DeprecationWarning pointing at the caller.
pub(crate) fn deprecated(py: Python<'_>, message: &std::ffi::CStr) -> PyResult<()> {
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
        message,
        1,
    )
}
