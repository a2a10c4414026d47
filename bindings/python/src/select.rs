//! `htmltok.extract(data, fields)` and `htmltok.Fields`: named CSS selectors over the
//! document's tree, all matched in one walk ([`htmltok_select::Fields`]), one list of
//! strings per field. The GIL is released for decoding, parsing and matching.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use htmltok_crawl::encoding;

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Fields>()?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    Ok(())
}

/// `Fields({"title": "title::text", ...})`: named selectors compiled once, for
/// `extract(data, fields)` on many documents. A selector that does not parse raises
/// ValueError saying where it fails and what was expected.
#[pyclass(module = "htmltok._htmltok", frozen)]
pub(crate) struct Fields {
    pub(crate) inner: htmltok_select::Fields,
}

#[pymethods]
impl Fields {
    #[new]
    fn new(fields: &Bound<'_, PyAny>) -> PyResult<Fields> {
        Ok(Fields {
            inner: compile(fields)?,
        })
    }

    /// The field names, in order.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.fields().iter().map(|f| f.name.clone()).collect()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        let items: Vec<String> = self
            .inner
            .fields()
            .iter()
            .map(|f| format!("{:?}: {:?}", f.name, f.selector.source()))
            .collect();
        format!("Fields({{{}}})", items.join(", "))
    }
}

/// Compiles a mapping of names to selectors (in its order).
pub(crate) fn compile(fields: &Bound<'_, PyAny>) -> PyResult<htmltok_select::Fields> {
    let dict = fields.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "fields: expected a dict of names to CSS selectors or a Fields, not {}",
            crate::type_name(fields)
        ))
    })?;
    let mut pairs = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let name: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("fields: the names must be str"))?;
        let css: String = v.extract().map_err(|_| {
            PyTypeError::new_err(format!("fields: the selector of {name:?} must be a str"))
        })?;
        pairs.push((name, css));
    }
    htmltok_select::Fields::new(pairs).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `extract(data, fields, *, http_charset=None) -> dict[str, list[str]]`: bytes decoded as
/// `Document` decodes them (a str taken as it is), parsed into a tree (scripting off), and
/// every field matched in one walk.
#[pyfunction]
#[pyo3(signature = (data, fields, *, http_charset = None))]
fn extract<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    fields: &Bound<'py, PyAny>,
    http_charset: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let compiled;
    let fields: &htmltok_select::Fields = match fields.cast::<Fields>() {
        Ok(f) => &f.get().inner,
        Err(_) => {
            compiled = compile(fields)?;
            &compiled
        }
    };
    let columns = if let Ok(text) = data.cast::<PyString>() {
        // A str is taken as it is, as `parse` takes it.
        if http_charset.is_some() {
            return Err(PyValueError::new_err(
                "http_charset is for bytes: a str is decoded already",
            ));
        }
        let text = text.to_cow()?;
        py.detach(|| fields.extract(&htmltok_tree::parse(text.as_bytes())))
    } else {
        let bytes = crate::input_bytes(data)?;
        let input = bytes.as_bytes();
        py.detach(|| {
            let decoded = encoding::decode(input, http_charset);
            fields.extract(&htmltok_tree::parse(decoded.text.as_bytes()))
        })
    };
    let out = PyDict::new(py);
    for (field, column) in fields.fields().iter().zip(columns) {
        out.set_item(&field.name, PyList::new(py, column)?)?;
    }
    Ok(out)
}
