//! `ArrowBatch`: one Arrow record batch handed to Python through the Arrow PyCapsule
//! interface (`process(..., output="capsules")`, `extract_batch`).

use arrow_array::{Array, RecordBatch, StructArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// One record batch of `process(..., output="capsules")`, for any Arrow library to take
/// over through the Arrow PyCapsule interface (`pyarrow.record_batch(batch)`,
/// `polars.DataFrame(batch)`); the columns are those of `htmltok.spark.SCHEMA`.
#[pyclass(frozen, module = "htmltok", name = "ArrowBatch")]
pub(crate) struct ArrowBatch {
    pub(crate) batch: RecordBatch,
}

#[pymethods]
impl ArrowBatch {
    /// How many pages (rows) the batch holds.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// The Arrow PyCapsule interface: the batch as a struct array, in two capsules
    /// (`arrow_schema`, `arrow_array`) of the Arrow C data interface. Each call exports
    /// the same columns again (they are shared, not copied). A `requested_schema` is not
    /// needed: the batch has one schema, which the consumer gets as it is.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let data = StructArray::from(self.batch.clone()).into_data();
        let (array, schema) = arrow_array::ffi::to_ffi(&data).map_err(|err| {
            PyValueError::new_err(format!("cannot export an Arrow record batch: {err}"))
        })?;
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        Ok((schema, array))
    }
}
